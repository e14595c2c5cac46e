//! `f_hvp` of a function whose run-time loop of independent iterations feeds its value linearly
//! (a sum over data, scaled, negated, divided by the count): its tangent program's forward and
//! adjoint run in one sweep, each iteration forward and back at once (`f_hvp_jvp_fused`).
//! Values, gradients and Hessian-vector products against closed forms.

#![allow(clippy::needless_range_loop)] // index loops are how these models are written

mod common;

use common::data;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stackgrad::differentiable;

#[track_caller]
fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-11 * want.abs().max(1.0),
        "{what}: {got} against {want}"
    );
}

/// `(Σ z³ - 2 Σ sin z) · scale / n` with `z = w0 x + w1`: two accumulators, reaching the value
/// through a difference, a product by a parameter and a quotient by the count.
#[differentiable(wrt(w), hvp)]
fn mean_cubes(w: &[f64; 2], xs: &[f64], scale: f64) -> f64 {
    let mut a = 0.0;
    let mut b = 0.0;
    for i in 0..xs.len() {
        let z = w[0] * xs[i] + w[1];
        a += z * z * z;
        b += z.sin();
    }
    (a - 2.0 * b) * scale / xs.len() as f64
}

#[test]
fn hvp_of_a_scaled_mean_against_its_closed_form() {
    let xs = data(1, 64, -1.5, 1.5);
    let scale = 0.75;
    let mut rng = SmallRng::seed_from_u64(2);
    for _ in 0..10 {
        let w = [rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)];
        let v = [rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)];
        let (value, g, hv) = mean_cubes_hvp(&w, &xs, scale, &v);
        // f = c Σ φ(z_i), φ = z³ - 2 sin z, c = scale / n: ∇f = c Σ φ'(z) (x, 1), H v = c Σ
        // φ''(z) (x v0 + v1) (x, 1).
        let c = scale / xs.len() as f64;
        let (mut f, mut g_w, mut h_w) = (0.0, [0.0; 2], [0.0; 2]);
        for &x in &xs {
            let z = w[0] * x + w[1];
            f += c * (z * z * z - 2.0 * z.sin());
            let (d1, d2) = (3.0 * z * z - 2.0 * z.cos(), 6.0 * z + 2.0 * z.sin());
            let along = x * v[0] + v[1];
            for (k, dz) in [x, 1.0].into_iter().enumerate() {
                g_w[k] += c * d1 * dz;
                h_w[k] += c * d2 * along * dz;
            }
        }
        close(value, f, "value");
        for k in 0..2 {
            close(g[k], g_w[k], "gradient");
            close(hv[k], h_w[k], "H v");
        }
        let g_grad = mean_cubes_grad(&w, &xs, scale).1;
        for k in 0..2 {
            close(g_grad[k], g[k], "f_grad's gradient");
        }
    }
}

/// One-dimensional k-means with a closest centroid found by comparison (no derivative through
/// the search), a branch on each point's signed distance, and the sum negated and halved: over a
/// differentiated slice.
#[differentiable(wrt(c), hvp)]
fn nearest(c: &[f64], p: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..p.len() {
        let mut best = f64::INFINITY;
        let mut arg = 0;
        for j in 0..c.len() {
            let e = c[j] - p[i];
            if e * e < best {
                best = e * e;
                arg = j;
            }
        }
        let e = c[arg] - p[i];
        if e > 0.0 {
            total += e * e * e;
        } else {
            total -= e * e;
        }
    }
    -total / 2.0
}

#[test]
fn hvp_over_a_differentiated_slice_with_a_search_and_a_branch() {
    let c = vec![-1.0, -0.2, 0.45, 1.3];
    for (seed, n) in [(3, 0), (4, 1), (5, 200)] {
        let p = data(seed, n, -2.0, 2.0);
        let v = data(seed + 10, c.len(), -1.0, 1.0);
        let (mut g, mut hv) = (vec![7.0; 4], vec![7.0; 4]);
        let (value, (), ()) = nearest_hvp(&c, &p, &v, &mut g, &mut hv);
        // Each point's term φ(e) = e³ (e > 0) or -e² of its closest centroid's e = c_j - p_i;
        // f = -Σ φ / 2, so ∂f/∂c_j = -Σ φ'(e) / 2 and the Hessian is diagonal, -Σ φ''(e) / 2.
        let (mut f, mut g_c, mut h_c) = (0.0, [0.0; 4], [0.0; 4]);
        for &x in &p {
            let j = (0..4)
                .min_by(|&a, &b| (c[a] - x).powi(2).total_cmp(&(c[b] - x).powi(2)))
                .unwrap();
            let e = c[j] - x;
            let (phi, d1, d2) = if e > 0.0 {
                (e * e * e, 3.0 * e * e, 6.0 * e)
            } else {
                (-e * e, -2.0 * e, -2.0)
            };
            f -= phi / 2.0;
            g_c[j] -= d1 / 2.0;
            h_c[j] -= d2 / 2.0;
        }
        close(value, f, "value");
        for j in 0..4 {
            close(g[j], g_c[j], "gradient");
            close(hv[j], h_c[j] * v[j], "H v");
        }
    }
}

/// A constant that only the body names (no parameter's type carries it), an accumulator that
/// starts from a differentiated parameter, and a differentiated factor after the loop:
/// `w1 · (w0² + Σ_i (K w0 x_i)²)`.
#[differentiable(hvp)]
fn generic_sum<const K: usize>(w: &[f64; 2], xs: &[f64]) -> f64 {
    let mut s = w[0] * w[0];
    for i in 0..xs.len() {
        let z = K as f64 * w[0] * xs[i];
        s += z * z;
    }
    s * w[1]
}

#[test]
fn hvp_with_a_constant_named_in_the_body_only() {
    let xs = data(21, 30, -1.0, 1.0);
    let (w, v) = ([0.7, -1.3], [0.4, 0.9]);
    let (value, g, hv) = generic_sum_hvp::<3>(&w, &xs, &v);
    // f = w1 (w0² (1 + 9 Σ x²)); with a = 1 + 9 Σ x²: ∇f = (2 w0 w1 a, w0² a),
    // H = [[2 w1 a, 2 w0 a], [2 w0 a, 0]].
    let a = 1.0 + 9.0 * xs.iter().map(|x| x * x).sum::<f64>();
    close(value, w[1] * w[0] * w[0] * a, "value");
    close(generic_sum::<3>(&w, &xs), value, "the primal");
    close(g[0], 2.0 * w[0] * w[1] * a, "gradient 0");
    close(g[1], w[0] * w[0] * a, "gradient 1");
    close(
        hv[0],
        2.0 * w[1] * a * v[0] + 2.0 * w[0] * a * v[1],
        "H v 0",
    );
    close(hv[1], 2.0 * w[0] * a * v[0], "H v 1");
}
