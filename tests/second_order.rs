//! Second order: `#[differentiable(hvp)]`'s `f_hvp` against closed-form Hessians (Rosenbrock, a
//! quadratic form `xᵀAx`, a sum of squares built by columns, softmax cross-entropy), the dense Hessian and a Newton-CG step built
//! on it (`runtime::hessian`), and a callee declared `hvp` from a caller declared `hvp`.
//! `tests/forward_mode.rs` checks `f_hvp` of every other model against central differences of
//! `f_grad`.

#![allow(clippy::needless_range_loop)]

mod common;

use common::{assert_close, cube};
use stackgrad::differentiable;
use stackgrad::runtime::hessian;

const N: usize = 6;

/// The Rosenbrock function in `N` dimensions.
#[differentiable(hvp)]
fn rosenbrock(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

/// Its Hessian, by hand: tridiagonal.
fn rosenbrock_hessian(x: &[f64; N]) -> [[f64; N]; N] {
    let mut h = [[0.0; N]; N];
    for i in 0..N - 1 {
        h[i][i] += 2.0 - 400.0 * (x[i + 1] - x[i] * x[i]) + 800.0 * x[i] * x[i];
        h[i][i + 1] += -400.0 * x[i];
        h[i + 1][i] += -400.0 * x[i];
        h[i + 1][i + 1] += 200.0;
    }
    h
}

fn matvec(h: &[[f64; N]; N], v: &[f64; N]) -> [f64; N] {
    core::array::from_fn(|i| (0..N).map(|j| h[i][j] * v[j]).sum())
}

#[test]
fn rosenbrock_closed_form() {
    for p in cube::<{ 2 * N }>(101, 30, -1.5, 1.5) {
        let x: [f64; N] = core::array::from_fn(|i| p[i]);
        let v: [f64; N] = core::array::from_fn(|i| p[N + i]);
        let (value, g, hv) = rosenbrock_hvp(&x, &v);
        assert_eq!((value, g), rosenbrock_grad(&x));
        let want = matvec(&rosenbrock_hessian(&x), &v);
        for i in 0..N {
            assert_close("rosenbrock H v", hv[i], want[i], 1e-13);
        }
        // The dense Hessian, one product per column.
        let h = hessian::dense(|e: &[f64; N], out: &mut [f64; N]| *out = rosenbrock_hvp(&x, e).2);
        let exact = rosenbrock_hessian(&x);
        for i in 0..N {
            for j in 0..N {
                assert_close("rosenbrock H", h[i][j], exact[i][j], 1e-13);
            }
        }
    }
}

/// `xᵀAx` with a non-symmetric `A` and a scale `c` that is not differentiated.
#[differentiable(hvp, wrt(x))]
fn quadratic(x: &[f64; 4], a: &[[f64; 4]; 4], c: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        for j in 0..4 {
            s += x[i] * a[i][j] * x[j];
        }
    }
    c * s
}

#[test]
fn quadratic_form_closed_form() {
    for p in cube::<25>(102, 20, -2.0, 2.0) {
        let x = [p[0], p[1], p[2], p[3]];
        let v = [p[4], p[5], p[6], p[7]];
        let a: [[f64; 4]; 4] = core::array::from_fn(|i| core::array::from_fn(|j| p[8 + 4 * i + j]));
        let c = p[24];
        // H = c (A + Aᵀ), a constant: H v exactly, and the gradient H x.
        let (_, g, hv) = quadratic_hvp(&x, &a, c, &v);
        for i in 0..4 {
            let h_row =
                |u: &[f64; 4]| -> f64 { (0..4).map(|j| c * (a[i][j] + a[j][i]) * u[j]).sum() };
            assert_close("quadratic H v", hv[i], h_row(&v), 1e-13);
            assert_close("quadratic gradient", g[i], h_row(&x), 1e-13);
        }
    }
}

/// `|q|²` for `q = J (x, y)`, built column by column with two inputs per column: the reverse of
/// the inner loop adds into the same `d_x[a]` and `d_y[a]` at every iteration, which the sweep
/// keeps in locals (golden `held.rs`). `H = 2 JᵀJ`, a constant.
#[differentiable(hvp, wrt(x, y))]
fn columns(l: &[[f64; 4]; 4], x: &[f64; 4], y: &[f64; 4]) -> f64 {
    let mut q = [0.0; 4];
    for a in 0..4 {
        for b in a + 1..4 {
            q[b] += l[a][b] * x[a] + l[b][a] * y[a];
        }
    }
    let mut s = 0.0;
    for d in 0..4 {
        s += q[d] * q[d];
    }
    s
}

#[test]
fn column_products_closed_form() {
    for p in cube::<32>(103, 20, -2.0, 2.0) {
        let l: [[f64; 4]; 4] = core::array::from_fn(|i| core::array::from_fn(|j| p[4 * i + j]));
        let (x, y) = ([p[16], p[17], p[18], p[19]], [p[20], p[21], p[22], p[23]]);
        let (vx, vy) = ([p[24], p[25], p[26], p[27]], [p[28], p[29], p[30], p[31]]);
        // J: row b, columns a (from x) and 4 + a (from y), for a < b.
        let mut j = [[0.0; 8]; 4];
        for b in 0..4 {
            for a in 0..b {
                j[b][a] = l[a][b];
                j[b][4 + a] = l[b][a];
            }
        }
        let u = [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]];
        let w = [vx[0], vx[1], vx[2], vx[3], vy[0], vy[1], vy[2], vy[3]];
        let times = |z: &[f64; 8]| -> [f64; 4] {
            core::array::from_fn(|b| (0..8).map(|c| j[b][c] * z[c]).sum())
        };
        let (q, jw) = (times(&u), times(&w));
        let (value, (gx, gy)) = columns_grad(&l, &x, &y);
        let (_, _, (hx, hy)) = columns_hvp(&l, &x, &y, &vx, &vy);
        assert_close("columns value", value, q.iter().map(|q| q * q).sum(), 1e-13);
        for c in 0..8 {
            let (g, h) = if c < 4 {
                (gx[c], hx[c])
            } else {
                (gy[c - 4], hy[c - 4])
            };
            let jt = |z: &[f64; 4]| -> f64 { (0..4).map(|b| 2.0 * j[b][c] * z[b]).sum() };
            assert_close("columns gradient", g, jt(&q), 1e-13);
            assert_close("columns H v", h, jt(&jw), 1e-13);
        }
    }
}

/// Softmax cross-entropy of logits `z` against class `label`, stabilised by the maximum.
#[differentiable(hvp, wrt(z))]
fn softmax_cross_entropy(z: &[f64; 5], label: usize) -> f64 {
    let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut s = 0.0;
    for i in 0..5 {
        s += (z[i] - m).exp();
    }
    s.ln() + m - z[label]
}

#[test]
fn softmax_cross_entropy_closed_form() {
    for (k, p) in cube::<10>(103, 30, -3.0, 3.0).into_iter().enumerate() {
        let z = [p[0], p[1], p[2], p[3], p[4]];
        let v = [p[5], p[6], p[7], p[8], p[9]];
        let label = k % 5;
        // H = diag(p) - p pᵀ with p = softmax(z): H v = p ∘ v - p (p · v).
        let e: Vec<f64> = z.iter().map(|zi| zi.exp()).collect();
        let total: f64 = e.iter().sum();
        let prob: Vec<f64> = e.iter().map(|ei| ei / total).collect();
        let pv: f64 = prob.iter().zip(&v).map(|(a, b)| a * b).sum();
        let (value, g, hv) = softmax_cross_entropy_hvp(&z, label, &v);
        assert_eq!((value, g), softmax_cross_entropy_grad(&z, label));
        for i in 0..5 {
            assert_close("softmax H v", hv[i], prob[i] * v[i] - prob[i] * pv, 1e-13);
            let onehot = if i == label { 1.0 } else { 0.0 };
            assert_close("softmax gradient", g[i], prob[i] - onehot, 1e-13);
        }
    }
}

/// A callee declared `hvp`, called from a caller declared `hvp`: its `_hvp_jvp` items.
#[differentiable(hvp)]
fn log_cosh(t: f64) -> f64 {
    t.cosh().ln()
}

#[differentiable(hvp)]
fn smooth_l1(x: &[f64; 3], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += log_cosh(w * x[i]);
    }
    s
}

#[test]
fn calls_between_hvp_functions() {
    // f = Σ ln cosh(w x_i): ∂²f/∂x_i² = w² sech²(w x_i), ∂²f/∂x_i∂w = tanh + w x_i sech²,
    // ∂²f/∂w² = Σ x_i² sech²(w x_i).
    for p in cube::<8>(104, 20, -1.5, 1.5) {
        let (x, w, vx, vw) = ([p[0], p[1], p[2]], p[3], [p[4], p[5], p[6]], p[7]);
        let (_, _, (hx, hw)) = smooth_l1_hvp(&x, w, &vx, vw);
        let sech2 = |u: f64| 1.0 / (u.cosh() * u.cosh());
        let mut want_w = 0.0;
        for i in 0..3 {
            let u = w * x[i];
            let cross = u.tanh() + u * sech2(u);
            let want = w * w * sech2(u) * vx[i] + cross * vw;
            assert_close("smooth_l1 (H v)_x", hx[i], want, 1e-13);
            want_w += cross * vx[i] + x[i] * x[i] * sech2(u) * vw;
        }
        assert_close("smooth_l1 (H v)_w", hw, want_w, 1e-13);
    }
}

#[test]
fn newton_cg_on_the_rosenbrock_function() {
    // From the origin, Newton-CG steps with backtracking reach the minimum at (1, .., 1).
    let mut x = [0.0; N];
    let options = hessian::CgOptions {
        max_iters: 50,
        rtol: Some(1e-10),
    };
    let mut iterations = 0;
    while rosenbrock(&x) > 1e-20 && iterations < 100 {
        let (f, g) = rosenbrock_grad(&x);
        let step = hessian::newton_cg(
            &g,
            |v: &[f64; N], out| *out = rosenbrock_hvp(&x, v).2,
            &options,
        )
        .unwrap();
        let mut t = 1.0;
        loop {
            let trial: [f64; N] = core::array::from_fn(|i| x[i] + t * step.direction[i]);
            if rosenbrock(&trial) < f || t < 1e-12 {
                x = trial;
                break;
            }
            t *= 0.5;
        }
        iterations += 1;
    }
    assert!(iterations < 100, "Newton-CG did not converge: {x:?}");
    println!("Newton-CG: {iterations} iterations");
    for xi in x {
        assert_close("minimum", xi, 1.0, 1e-8);
    }
}
