//! Forward mode: `#[differentiable(jvp)]`'s `f_jvp` on every kind of model the reverse mode
//! handles (scalar methods, arrays and loops, an RNN, the GMM objective, bounded and
//! checkpointed loops, `#[recompute]`, structs, calls, `match`, reductions, f32, tuple and array
//! outputs). Each tangent is checked against the reverse gradient (`∇f · t`, to rounding) and
//! against central differences of the user's own function along `t`; and with `hvp`, each
//! Hessian-vector product `f_hvp` against central differences of `f_grad` along the direction
//! (its gradient against `f_grad`'s). Closed forms of `f_hvp` are in `tests/second_order.rs`.

#![allow(clippy::needless_range_loop)]

mod common;

use common::{
    F32_RTOL, F64_RTOL, Flat, check_hvp, check_hvp_flat, check_jvp, check_jvp_flat, cube, uniform,
};
use stackgrad::differentiable;

#[path = "models/gmm.rs"]
mod gmm;

fn smooth<const N: usize>(_: &[f64; N]) -> f64 {
    f64::INFINITY
}

/// Exponentials, logarithms, powers and roots.
#[differentiable(hvp)]
fn powers(x: f64, y: f64) -> f64 {
    let a = (x * y).exp() / (1.0 + y * y) + x.exp2() * y.exp_m1();
    let b = (x * x + 1.0).ln() + y.ln_1p() + x.log(3.0 + y) + (y + 2.0).log2() - x.log10();
    let c = x.sqrt() * y.cbrt() + x.powi(3) - x.powf(y) + y.recip() + x.hypot(y);
    a + b * c + x.mul_add(y, 2.0) + y.to_degrees() * x.to_radians()
}

/// Trigonometric and hyperbolic functions.
#[differentiable(hvp)]
fn trig(x: f64, y: f64) -> f64 {
    let a = x.sin() * y.cos() + (0.3 * x).tan() + (0.5 * y).asin() - (0.4 * x).acos();
    let b = x.atan() + y.atan2(x) + x.sinh() * y.cosh() + (x * y).tanh();
    let c = x.asinh() + (y + 2.0).acosh() + (0.5 * x).atanh();
    a * b + c
}

/// Kinks: `abs`, `max`, `min`, `clamp`, `signum` and a branch.
#[differentiable(hvp)]
fn kinks(x: f64, y: f64) -> f64 {
    let a = x.abs() * y + x.max(y) - x.min(0.5 * y) + x.clamp(-0.5, 0.5) * y.signum();
    if a > 0.0 { a * a } else { a.exp() - 1.0 }
}

/// Distance to the nearest kink of `kinks` (along either coordinate, with slack for the
/// direction's length).
fn kinks_distance(p: &[f64; 2]) -> f64 {
    let [x, y] = *p;
    [x, x - y, x - 0.5 * y, x + 0.5, x - 0.5, y]
        .iter()
        .map(|d| d.abs() / 2.0)
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn scalar_methods() {
    let points = uniform(11, 40, [(0.2, 1.5), (0.2, 1.5)]);
    check_jvp(
        "powers",
        &points,
        smooth,
        |[x, y]| powers(x, y),
        |[x, y]| {
            let (v, (dx, dy)) = powers_grad(x, y);
            (v, [dx, dy])
        },
        |[x, y], [tx, ty]| powers_jvp(x, y, tx, ty),
    );
    let points = uniform(12, 40, [(-1.0, 1.0), (-1.0, 1.0)]);
    check_jvp(
        "trig",
        &points,
        smooth,
        |[x, y]| trig(x, y),
        |[x, y]| {
            let (v, (dx, dy)) = trig_grad(x, y);
            (v, [dx, dy])
        },
        |[x, y], [tx, ty]| trig_jvp(x, y, tx, ty),
    );
    let points: Vec<_> = uniform(13, 200, [(-1.0, 1.0), (-1.0, 1.0)])
        .into_iter()
        .filter(|p| kinks_distance(p) > 1e-3)
        .collect();
    check_jvp(
        "kinks",
        &points,
        kinks_distance,
        |[x, y]| kinks(x, y),
        |[x, y]| {
            let (v, (dx, dy)) = kinks_grad(x, y);
            (v, [dx, dy])
        },
        |[x, y], [tx, ty]| kinks_jvp(x, y, tx, ty),
    );
}

/// Loops over arrays: triangular, reversed, stepped; an array updated in place.
#[differentiable(hvp)]
fn arrays(x: &[f64; 6], w: f64) -> f64 {
    let mut v = [0.0; 6];
    for i in 0..6 {
        for j in 0..=i {
            v[i] += x[j] * (w * j as f64).cos();
        }
    }
    for i in (1..6).rev() {
        v[i - 1] = v[i - 1] * v[i].tanh() + w;
    }
    let mut s = 0.0;
    for i in (0..6).step_by(2) {
        s += v[i] * v[i + 1];
    }
    s
}

#[test]
fn arrays_and_loops() {
    let points = cube::<7>(21, 30, -1.0, 1.0);
    check_jvp_flat(
        "arrays",
        &points,
        smooth,
        |(x, w): &([f64; 6], f64)| arrays(x, *w),
        |(x, w)| arrays_grad(x, *w),
        |(x, w), (tx, tw)| arrays_jvp(x, *w, tx, *tw),
    );
}

/// The guide's RNN (docs/guide.md).
#[differentiable(hvp)]
fn rnn(x: &[f64; 50], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..50 {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

#[test]
fn recurrent_network() {
    let points = cube::<52>(31, 20, -1.0, 1.0);
    check_jvp_flat(
        "rnn",
        &points,
        smooth,
        |(x, w, u): &([f64; 50], f64, f64)| rnn(x, *w, *u),
        |(x, w, u)| rnn_grad(x, *w, *u),
        |(x, w, u), (tx, tw, tu)| rnn_jvp(x, *w, *u, tx, *tw, *tu),
    );
}

/// ADBench's test instance (2 dimensions, 3 components, 1 point), and its parameters moved by
/// seeded offsets: 3 + 6 + 9 = 18 coordinates.
fn gmm_instance() -> (gmm::Gmm<2, 3, 1, 3>, Vec<[f64; 18]>) {
    let data: gmm::Gmm<2, 3, 1, 3> = gmm::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/adbench/gmm/gmm_test_d2_K3_n1.txt"
    ));
    let base: [f64; 18] = common::flatten(&(data.alphas, data.means, data.icf));
    let points = cube::<18>(41, 20, -0.5, 0.5)
        .into_iter()
        .map(|p| core::array::from_fn(|i| base[i] + p[i]))
        .collect();
    (data, points)
}

#[test]
fn gmm_objective() {
    let (data, points) = gmm_instance();
    let x = &*data.x;
    check_jvp_flat(
        "gmm",
        &points,
        smooth,
        |(a, m, q): &([f64; 3], [[f64; 2]; 3], [[f64; 3]; 3])| {
            gmm::gmm_objective::<2, 3, 1, 3>(a, m, q, x)
        },
        |(a, m, q)| gmm::gmm_objective_grad::<2, 3, 1, 3>(a, m, q, x),
        |(a, m, q), (ta, tm, tq)| gmm::gmm_objective_jvp::<2, 3, 1, 3>(a, m, q, x, ta, tm, tq),
    );
}

/// Nests whose tangents are partly the same on every iteration of the loop around them, which
/// `f_jvp` computes once before it (`tangent/hoist`): GMM's shape (an array accumulator `y`,
/// half of whose terms read only `l` and `t_mu`), a scalar accumulator `u`, one that sums
/// another accumulator (`z`, not split: it would count `y`'s fixed part twice), a local
/// whose tangent is fixed throughout (`r`), and a second nest.
#[differentiable(hvp, wrt(l, mu, c))]
fn centred_maps<const P: usize>(
    l: &[[f64; 6]; 2],
    mu: &[[f64; 3]; 2],
    c: f64,
    x: &[[f64; 3]; P],
) -> f64 {
    let mut s = 0.0;
    for i in 0..P {
        for k in 0..2 {
            let mut xc = [0.0; 3];
            for d in 0..3 {
                xc[d] = x[i][d] - mu[k][d];
            }
            let mut y = [0.0; 3];
            for d in 0..3 {
                y[d] = l[k][d] * xc[d];
            }
            for a in 0..3 {
                for b in a + 1..3 {
                    y[b] += l[k][a + b + 2] * xc[a] * c;
                }
            }
            let mut u = 0.0;
            for d in 0..3 {
                u += xc[d] * l[k][d + 3];
            }
            let mut z = 0.0;
            for d in 0..3 {
                z += mu[k][d] * c - y[d];
            }
            let mut r = 0.0;
            for d in 0..3 {
                r += l[k][d] * mu[k][d];
            }
            s += (y[0] * y[1] + y[2] * y[2]).tanh() + z * r + u * u;
        }
        // A second nest in the same loop, hoisted from as well (`w_v`).
        for k in 0..2 {
            let mut v = [0.0; 3];
            for d in 0..3 {
                v[d] = l[k][d + 3] * (x[i][d] + mu[k][d]);
            }
            s += v[0] * v[1] * 0.5 + v[2];
        }
    }
    s
}

type Maps = ([[f64; 6]; 2], [[f64; 3]; 2], f64);

#[test]
fn hoisted_tangents() {
    let points = cube::<19>(71, 20, -1.0, 1.0);
    let x: [[f64; 3]; 4] = [
        [0.3, -0.8, 0.5],
        [-0.2, 0.9, 0.1],
        [0.7, 0.4, -0.6],
        [-0.5, -0.1, 0.8],
    ];
    check_jvp_flat(
        "centred maps",
        &points,
        smooth,
        |(l, mu, c): &Maps| centred_maps(l, mu, *c, &x),
        |(l, mu, c)| centred_maps_grad(l, mu, *c, &x),
        |(l, mu, c), (tl, tmu, tc)| centred_maps_jvp(l, mu, *c, &x, tl, tmu, *tc),
    );
    check_hvp_flat(
        "centred maps",
        &points,
        smooth,
        |(l, mu, c): &Maps| centred_maps_grad(l, mu, *c, &x),
        |(l, mu, c), (vl, vmu, vc)| centred_maps_hvp(l, mu, *c, &x, vl, vmu, *vc),
    );
    // No point: the hoisted part does not run, and the value and its derivatives are zero.
    let (l, mu) = ([[0.5; 6]; 2], [[0.25; 3]; 2]);
    assert_eq!(
        centred_maps_jvp::<0>(&l, &mu, 1.5, &[], &l, &mu, 1.0),
        (0.0, 0.0)
    );
    let (value, _, hv) = centred_maps_hvp::<0>(&l, &mu, 1.5, &[], &l, &mu, 1.0);
    assert_eq!((value, hv), (0.0, ([[0.0; 6]; 2], [[0.0; 3]; 2], 0.0)));
}

/// A bounded `while` (Newton's iteration for the square root) and a `loop` with a `break`.
#[differentiable(hvp, max_iters(newton = 60, halve = 40))]
fn bounded(a: f64, x: f64) -> f64 {
    let mut r = a.max(1.0);
    let mut k = 0;
    'newton: while k < 60 {
        let next = 0.5 * (r + a / r);
        if (next - r).abs() < 1e-15 * r {
            r = next;
            break 'newton;
        }
        r = next;
        k += 1;
    }
    let mut y = x;
    'halve: loop {
        if y.abs() < 0.1 {
            break 'halve;
        }
        y *= 0.5;
    }
    r * y
}

/// Points away from those where halving's trip count changes (|x| = 0.1 * 2^k).
fn bounded_points() -> Vec<[f64; 2]> {
    uniform(51, 60, [(0.5, 9.0), (0.11, 3.0)])
        .into_iter()
        .filter(|p| {
            let k = (p[1].abs() / 0.1).log2();
            (k - k.round()).abs() > 0.05
        })
        .collect()
}

#[test]
fn bounded_loops() {
    let points = bounded_points();
    check_jvp(
        "bounded",
        &points,
        |p| p[1] * 0.01,
        |[a, x]| bounded(a, x),
        |[a, x]| {
            let (v, (da, dx)) = bounded_grad(a, x);
            (v, [da, dx])
        },
        |[a, x], [ta, tx]| bounded_jvp(a, x, ta, tx),
    );
}

/// A checkpointed loop and `#[recompute]` values.
#[differentiable(hvp)]
fn checkpointed(x: &[f64; 20], w: f64) -> f64 {
    let mut h = 0.5;
    #[checkpoint(snapshots = 4)]
    for t in 0..20 {
        #[recompute]
        let a = (w * h + x[t]).tanh();
        h = a * a + 0.5 * h;
    }
    h
}

#[test]
fn checkpoints_and_recompute() {
    let points = cube::<21>(61, 20, -1.0, 1.0);
    check_jvp_flat(
        "checkpointed",
        &points,
        smooth,
        |(x, w): &([f64; 20], f64)| checkpointed(x, *w),
        |(x, w)| checkpointed_grad(x, *w),
        |(x, w), (tx, tw)| checkpointed_jvp(x, *w, tx, *tw),
    );
}

#[derive(Clone, Copy, Default, Debug)]
pub struct Layer {
    pub w: [[f64; 3]; 2],
    pub b: [f64; 2],
}

impl Flat for Layer {
    fn read(c: &mut &[f64]) -> Self {
        Layer {
            w: Flat::read(c),
            b: Flat::read(c),
        }
    }
    fn write(&self, out: &mut Vec<f64>) {
        self.w.write(out);
        self.b.write(out);
    }
}

/// A callee with its own tangent function.
#[differentiable(hvp)]
fn softplus(v: f64) -> f64 {
    (1.0 + v.exp()).ln()
}

/// A callee taking and returning arrays.
#[differentiable(hvp)]
fn affine(p: &Layer, x: &[f64; 3]) -> [f64; 2] {
    let mut y = [0.0; 2];
    for i in 0..2 {
        y[i] = p.b[i];
        for j in 0..3 {
            y[i] += p.w[i][j] * x[j];
        }
    }
    y
}

/// Structs, calls (scalar and array, into a place), `match` and a reduction.
#[differentiable(hvp)]
fn network(p: &Layer, x: &[f64; 3], mode: usize) -> f64 {
    let y: [f64; 2] = affine(p, x);
    let mut z = [0.0; 2];
    for i in 0..2 {
        z[i] = softplus(y[i]);
    }
    let scale = match mode {
        0 => 1.0,
        1 | 2 => z[0],
        _ => 2.0,
    };
    scale * z.iter().map(|v| v * v).sum::<f64>() + softplus(p.b[0] * x[0])
}

#[test]
fn structs_calls_match_and_reductions() {
    let points = cube::<11>(71, 20, -1.0, 1.0);
    for mode in 0..4 {
        check_jvp_flat(
            "network",
            &points,
            smooth,
            |(p, x): &(Layer, [f64; 3])| network(p, x, mode),
            |(p, x)| network_grad(p, x, mode),
            |(p, x), (tp, tx)| network_jvp(p, x, mode, tp, tx),
        );
    }
}

/// f32 code, against its f64 twin.
#[differentiable(hvp)]
fn softplus32(x: f32, y: f32) -> f32 {
    (1.0 + (x * y).exp()).ln() - 0.5 * x
}

#[test]
fn f32_code() {
    let points = common::round_to_f32(uniform(81, 30, [(-2.0, 2.0), (-2.0, 2.0)]));
    common::check_jvp_rtol(
        "softplus32",
        &points,
        smooth,
        F32_RTOL,
        |[x, y]| (1.0 + (x * y).exp()).ln() - 0.5 * x,
        |[x, y]| {
            let (v, (dx, dy)) = softplus32_grad(x as f32, y as f32);
            (v as f64, [dx as f64, dy as f64])
        },
        |[x, y], [tx, ty]| {
            let (v, t) = softplus32_jvp(x as f32, y as f32, tx as f32, ty as f32);
            // f's value is the f64 twin's: equal to f32 rounding, so compare the rounded twin.
            let twin = ((1.0 + (x * y).exp()).ln() - 0.5 * x) as f32;
            assert!(
                (v - twin).abs() <= 1e-5 * twin.abs().max(1.0),
                "{v} vs {twin}"
            );
            ((1.0 + (x * y).exp()).ln() - 0.5 * x, t as f64)
        },
    );
}

/// Tuple and array outputs: `(value, tangent)` of the same type.
#[differentiable(jvp)]
fn polar(r: f64, theta: f64) -> (f64, f64) {
    (r * theta.cos(), r * theta.sin())
}

#[differentiable(jvp)]
fn squares(x: &[f64; 3]) -> [f64; 3] {
    let mut y = [0.0; 3];
    for i in 0..3 {
        y[i] = x[i] * x[i] + x[(i + 1) % 3];
    }
    y
}

#[test]
fn tuple_and_array_outputs() {
    for [r, th, tr, tth] in cube::<4>(91, 20, -2.0, 2.0) {
        let ((x, y), (tx, ty)) = polar_jvp(r, th, tr, tth);
        assert_eq!((x, y), polar(r, th));
        common::assert_close("polar x", tx, tr * th.cos() - r * th.sin() * tth, 1e-14);
        common::assert_close("polar y", ty, tr * th.sin() + r * th.cos() * tth, 1e-14);
    }
    for p in cube::<6>(92, 20, -2.0, 2.0) {
        let (x, t) = ([p[0], p[1], p[2]], [p[3], p[4], p[5]]);
        let (y, ty) = squares_jvp(&x, &t);
        assert_eq!(y, squares(&x));
        for i in 0..3 {
            let want = 2.0 * x[i] * t[i] + t[(i + 1) % 3];
            common::assert_close("squares", ty[i], want, 1e-14);
        }
    }
}

/// `wrt` restricts the tangents to the differentiated parameters; a mutable parameter.
#[differentiable(hvp, wrt(w))]
fn restricted(x: f64, mut w: f64) -> f64 {
    w *= x;
    w.sin() + x
}

#[test]
fn wrt_and_mutable_parameters() {
    for [x, w, t] in cube::<3>(93, 20, -2.0, 2.0) {
        let (v, tw) = restricted_jvp(x, w, t);
        assert_eq!(v, restricted(x, w));
        common::assert_close("restricted", tw, (w * x).cos() * x * t, 1e-14);
    }
}

const SAMPLES: usize = 8;

/// The gradient of the logistic loss `Σ log(1 + e^{-y w·x})`, written out: forward mode over it
/// gives Hessian-vector products.
#[differentiable(jvp, wrt(w))]
fn logistic_gradient(w: &[f64; 3], x: &[[f64; 3]; SAMPLES], y: &[f64; SAMPLES]) -> [f64; 3] {
    let mut g = [0.0; 3];
    for n in 0..SAMPLES {
        let z = y[n] * (w[0] * x[n][0] + w[1] * x[n][1] + w[2] * x[n][2]);
        let s = 1.0 / (1.0 + z.exp());
        for i in 0..3 {
            g[i] -= s * y[n] * x[n][i];
        }
    }
    g
}

#[test]
fn hessian_vector_products_from_forward_mode_over_a_gradient() {
    use stackgrad::runtime::hessian;
    let x: [[f64; 3]; SAMPLES] =
        core::array::from_fn(|n| [1.0, (n as f64 * 0.9).sin(), (n as f64 * 0.4).cos()]);
    let y: [f64; SAMPLES] = core::array::from_fn(|n| if n % 3 == 0 { -1.0 } else { 1.0 });
    let w = [0.2, -0.5, 0.3];
    let hvp = |v: &[f64; 3], out: &mut [f64; 3]| *out = logistic_gradient_jvp(&w, &x, &y, v).1;
    let h = hessian::dense(hvp);
    // Closed form: H = Σ σ(z)(1 - σ(z)) x xᵀ (y² = 1).
    for i in 0..3 {
        for j in 0..3 {
            let want: f64 = (0..SAMPLES)
                .map(|n| {
                    let z = y[n] * (w[0] * x[n][0] + w[1] * x[n][1] + w[2] * x[n][2]);
                    let s = 1.0 / (1.0 + (-z).exp());
                    s * (1.0 - s) * x[n][i] * x[n][j]
                })
                .sum();
            common::assert_close("logistic Hessian", h[i][j], want, 1e-14);
        }
    }
    // The Newton-CG step solves H p = -g with these products.
    let g = logistic_gradient(&w, &x, &y);
    let options = hessian::CgOptions {
        max_iters: 10,
        rtol: Some(1e-12),
    };
    let step = hessian::newton_cg(&g, hvp, &options).unwrap();
    for i in 0..3 {
        let hp: f64 = (0..3).map(|j| h[i][j] * step.direction[j]).sum();
        common::assert_close("Newton step", hp, -g[i], 1e-10);
    }
}

#[test]
fn the_hessian_two_columns_per_sweep_by_vector_forward_mode_over_a_gradient() {
    use stackgrad::runtime::hessian;
    let x: [[f64; 3]; SAMPLES] =
        core::array::from_fn(|n| [1.0, (n as f64 * 0.9).sin(), (n as f64 * 0.4).cos()]);
    let y: [f64; SAMPLES] = core::array::from_fn(|n| if n % 3 == 0 { -1.0 } else { 1.0 });
    let w = [0.2, -0.5, 0.3];
    let one = |v: &[f64; 3], out: &mut [f64; 3]| *out = logistic_gradient_jvp(&w, &x, &y, v).1;
    let mut sweeps = 0;
    let wide = |v: &[[f64; 2]; 3], out: &mut [[f64; 2]; 3]| {
        sweeps += 1;
        *out = logistic_gradient_jvp_vec::<2>(&w, &x, &y, v).1;
    };
    // Forward over reverse, two directions a sweep: the same matrix in two sweeps, not three.
    let h = hessian::dense_wide(wide);
    assert_eq!(sweeps, 2);
    let by_one = hessian::dense(one);
    for i in 0..3 {
        for j in 0..3 {
            common::assert_close("wide Hessian", h[i][j], by_one[i][j], 1e-15);
        }
    }
    let diag = hessian::diagonal_wide(|v: &[[f64; 4]; 3], out: &mut [[f64; 4]; 3]| {
        *out = logistic_gradient_jvp_vec::<4>(&w, &x, &y, v).1;
    });
    for j in 0..3 {
        common::assert_close("diagonal", diag[j], by_one[j][j], 1e-15);
    }
}

/// `[x, y]` closures over a two-argument function's `f_grad` and `f_hvp`.
macro_rules! pair {
    ($grad:ident, $hvp:ident) => {
        (
            |[x, y]: [f64; 2]| {
                let (v, (dx, dy)) = $grad(x, y);
                (v, [dx, dy])
            },
            |[x, y]: [f64; 2], [vx, vy]: [f64; 2]| {
                let (v, (gx, gy), (hx, hy)) = $hvp(x, y, vx, vy);
                (v, [gx, gy], [hx, hy])
            },
        )
    };
}

#[test]
fn hvp_scalar_methods() {
    let (grad, hvp) = pair!(powers_grad, powers_hvp);
    let points = uniform(11, 40, [(0.2, 1.5), (0.2, 1.5)]);
    check_hvp("powers", &points, smooth, F64_RTOL, grad, hvp);
    let (grad, hvp) = pair!(trig_grad, trig_hvp);
    let points = uniform(12, 40, [(-1.0, 1.0), (-1.0, 1.0)]);
    check_hvp("trig", &points, smooth, F64_RTOL, grad, hvp);
    let (grad, hvp) = pair!(kinks_grad, kinks_hvp);
    let points: Vec<_> = uniform(13, 200, [(-1.0, 1.0), (-1.0, 1.0)])
        .into_iter()
        .filter(|p| kinks_distance(p) > 1e-3)
        .collect();
    check_hvp("kinks", &points, kinks_distance, F64_RTOL, grad, hvp);
}

#[test]
fn hvp_arrays_loops_and_the_rnn() {
    check_hvp_flat(
        "arrays",
        &cube::<7>(21, 30, -1.0, 1.0),
        smooth,
        |(x, w): &([f64; 6], f64)| arrays_grad(x, *w),
        |(x, w), (vx, vw)| arrays_hvp(x, *w, vx, *vw),
    );
    check_hvp_flat(
        "rnn",
        &cube::<52>(31, 20, -1.0, 1.0),
        smooth,
        |(x, w, u): &([f64; 50], f64, f64)| rnn_grad(x, *w, *u),
        |(x, w, u), (vx, vw, vu)| rnn_hvp(x, *w, *u, vx, *vw, *vu),
    );
}

#[test]
fn hvp_gmm_objective() {
    let (data, points) = gmm_instance();
    let x = &*data.x;
    check_hvp_flat(
        "gmm",
        &points,
        smooth,
        |(a, m, q): &([f64; 3], [[f64; 2]; 3], [[f64; 3]; 3])| {
            gmm::gmm_objective_grad::<2, 3, 1, 3>(a, m, q, x)
        },
        |(a, m, q), (va, vm, vq)| gmm::gmm_objective_hvp::<2, 3, 1, 3>(a, m, q, x, va, vm, vq),
    );
}

#[test]
fn hvp_bounded_checkpointed_structs_calls_match() {
    let points = bounded_points();
    let (grad, hvp) = pair!(bounded_grad, bounded_hvp);
    check_hvp("bounded", &points, |p| p[1] * 0.01, F64_RTOL, grad, hvp);
    check_hvp_flat(
        "checkpointed",
        &cube::<21>(61, 20, -1.0, 1.0),
        smooth,
        |(x, w): &([f64; 20], f64)| checkpointed_grad(x, *w),
        |(x, w), (vx, vw)| checkpointed_hvp(x, *w, vx, *vw),
    );
    for mode in 0..4 {
        check_hvp_flat(
            "network",
            &cube::<11>(71, 20, -1.0, 1.0),
            smooth,
            |(p, x): &(Layer, [f64; 3])| network_grad(p, x, mode),
            |(p, x), (vp, vx)| network_hvp(p, x, mode, vp, vx),
        );
    }
}

#[test]
fn hvp_f32_wrt_and_mutable_parameters() {
    // f32 code against the closed form in f64: H = [[a, b], [b, c]] of
    // f = ln(1 + e^{xy}) - x/2, with s = σ(xy): a = s(1-s) y², b = s + s(1-s) xy, c = s(1-s) x².
    for [x, y, vx, vy] in common::round_to_f32(cube::<4>(82, 30, -2.0, 2.0)) {
        let (v, _, (hx, hy)) = softplus32_hvp(x as f32, y as f32, vx as f32, vy as f32);
        assert_eq!(v, softplus32(x as f32, y as f32));
        let s = 1.0 / (1.0 + (-x * y).exp());
        let (a, b, c) = (
            s * (1.0 - s) * y * y,
            s + s * (1.0 - s) * x * y,
            s * (1.0 - s) * x * x,
        );
        let (want_x, want_y) = (a * vx + b * vy, b * vx + c * vy);
        let tol = |w: f64| F32_RTOL * w.abs().max(1.0);
        assert!(
            (hx as f64 - want_x).abs() <= tol(want_x),
            "{hx} vs {want_x}"
        );
        assert!(
            (hy as f64 - want_y).abs() <= tol(want_y),
            "{hy} vs {want_y}"
        );
    }
    // wrt(w) and `mut w`: f = sin(w x) + x, d²f/dw² = -x² sin(w x).
    for [x, w, v] in cube::<3>(94, 20, -2.0, 2.0) {
        let (value, g, h) = restricted_hvp(x, w, v);
        assert_eq!((value, g), restricted_grad(x, w));
        common::assert_close("restricted", h, -x * x * (w * x).sin() * v, 1e-14);
    }
}
