//! Locals whose length is known at run time only: `let mut y = vec![0.0; n];`, read and written
//! by element. GradBench's ODE (Runge-Kutta over a state of `x.len()` elements), an integer
//! `Vec` of indices, `y.len()`, a `Vec` read in a loop of otherwise independent iterations, and
//! the tangent sweep: gradients against central differences in f64 and closed forms.

#![allow(clippy::needless_range_loop)] // index loops are how these models are written

use stackgrad::differentiable;

#[path = "models/det.rs"]
mod det;
#[path = "models/ode.rs"]
mod ode;

use det::*;
use ode::*;

/// Central differences of `f` at `x`, in f64.
fn central(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let e = 1e-6 * x[i].abs().max(1.0);
            let (mut p, mut m) = (x.to_vec(), x.to_vec());
            p[i] += e;
            m[i] -= e;
            (f(&p) - f(&m)) / (2.0 * e)
        })
        .collect()
}

fn close(got: &[f64], want: &[f64], rtol: f64) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= rtol * w.abs().max(1e-3),
            "element {i}: {g} against {w}"
        );
    }
}

/// `H v` by central differences of the gradient `grad` at `x` along `v`, in f64.
fn along(grad: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let e = 1e-5;
    let xp: Vec<f64> = x.iter().zip(v).map(|(x, v)| x + e * v).collect();
    let xm: Vec<f64> = x.iter().zip(v).map(|(x, v)| x - e * v).collect();
    let (gp, gm) = (grad(&xp), grad(&xm));
    (0..x.len()).map(|i| (gp[i] - gm[i]) / (2.0 * e)).collect()
}

fn inputs(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.3 + 0.7 * ((i * 37 % 11) as f64 / 11.0))
        .collect()
}

#[test]
fn runge_kutta_over_a_run_time_state() {
    for (n, s) in [(1, 1), (2, 3), (5, 1), (8, 10), (30, 7)] {
        let x = inputs(n);
        let mut d_x = vec![0.0; n];
        let (value, ()) = ode_last_grad(&x, s, &mut d_x);
        assert_eq!(value, ode_last(&x, s));
        close(&d_x, &central(|x| ode_last(x, s), &x), 1e-6);
    }
}

#[test]
fn runge_kutta_against_the_exact_solution() {
    // With many steps RK4 is the exact solution to rounding: y_{n-1}(2) = prod_i x_i 2^n / n!,
    // whose derivative by x_i is y / x_i.
    let x = inputs(6);
    let mut d_x = vec![0.0; 6];
    let (y, ()) = ode_last_grad(&x, 400, &mut d_x);
    let exact: f64 = x.iter().product::<f64>() * 64.0 / 720.0;
    assert!((y - exact).abs() < 1e-9 * exact, "{y} {exact}");
    for i in 0..6 {
        assert!((d_x[i] - exact / x[i]).abs() < 1e-8 * exact / x[i]);
    }
}

#[test]
fn runge_kutta_tangents_and_kept_tapes() {
    let (n, s) = (12, 5);
    let x = inputs(n);
    let mut d_x = vec![0.0; n];
    ode_last_grad(&x, s, &mut d_x);
    let t: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let (value, dv) = ode_last_jvp(&x, s, &t);
    assert_eq!(value, ode_last(&x, s));
    let want: f64 = d_x.iter().zip(&t).map(|(g, t)| g * t).sum();
    assert!(
        (dv - want).abs() < 1e-12 * want.abs().max(1.0),
        "{dv} {want}"
    );

    // One tape kept across calls of different lengths: the same gradients.
    let mut tape = OdeLastTape::new();
    for (n, s) in [(9, 4), (3, 2), (9, 4)] {
        let x = inputs(n);
        ode_last_forward(&x, s, &mut tape);
        let mut d_kept = vec![0.0; n];
        ode_last_adjoint(&x, s, &tape, 1.0, &mut d_kept);
        let mut d_new = vec![0.0; n];
        ode_last_grad(&x, s, &mut d_new);
        assert_eq!(d_kept, d_new);
    }
}

/// A gather through an integer `Vec` built in a loop, a `Vec` of floats read by a loop whose
/// iterations only accumulate otherwise, and `len()` of a `Vec` in bounds and arithmetic.
#[differentiable(hvp, wrt(x))]
fn gathered(x: &[f64], stride: usize) -> f64 {
    let n = x.len();
    let mut order = vec![0; n];
    for i in 0..n {
        order[i] = (i * stride + 1) % n;
    }
    let mut sq = vec![0.0; n];
    for i in 0..sq.len() {
        sq[i] = x[order[i]] * x[i];
    }
    let mut total = 0.0;
    for i in 0..sq.len() {
        total += sq[i].sin() * x[i];
    }
    total / sq.len() as f64
}

#[test]
fn integer_vecs_and_lengths() {
    for (n, stride) in [(1, 1), (4, 3), (13, 5)] {
        let x = inputs(n);
        let mut d_x = vec![0.0; n];
        let (value, ()) = gathered_grad(&x, stride, &mut d_x);
        assert_eq!(value, gathered(&x, stride));
        close(&d_x, &central(|x| gathered(x, stride), &x), 1e-6);
    }
}

#[test]
fn second_order_through_vecs() {
    let (n, stride) = (7, 3);
    let x = inputs(n);
    let v: Vec<f64> = (0..n).map(|i| 1.0 - 0.2 * i as f64).collect();
    let (mut g, mut hv) = (vec![0.0; n], vec![0.0; n]);
    let (value, (), ()) = gathered_hvp(&x, stride, &v, &mut g, &mut hv);
    assert_eq!(value, gathered(&x, stride));
    // H v by central differences of the gradient along v.
    let grad = |x: &[f64]| {
        let mut d = vec![0.0; n];
        gathered_grad(x, stride, &mut d);
        d
    };
    close(&hv, &along(grad, &x, &v), 1e-6);
    close(&g, &grad(&x), 1e-15);
}

/// References to a `Vec`'s elements, `let r = &sq[1];` read as `*r` and `r * ..`, and one per
/// iteration (`let e = &sq[i];`): aliases of the elements, as for arrays (genprog seed 1,
/// p091, found `&h[1]` of a `Vec` local refused).
#[differentiable(hvp, wrt(x))]
fn referenced(x: &[f64]) -> f64 {
    let n = x.len();
    let mut sq = vec![0.0; n];
    for i in 0..n {
        sq[i] = x[i] * x[(i + 1) % n];
    }
    let r = &sq[n / 2];
    let mut total = (*r).sin() + r * x[0];
    for i in 0..n {
        let e = &sq[i];
        total += e * x[n - 1 - i];
    }
    total
}

#[test]
fn references_to_elements_of_vecs() {
    for n in [1, 2, 5] {
        let x = inputs(n);
        let mut d_x = vec![0.0; n];
        let (value, ()) = referenced_grad(&x, &mut d_x);
        assert_eq!(value, referenced(&x));
        close(&d_x, &central(referenced, &x), 1e-6);
        let v: Vec<f64> = (0..n).map(|i| 0.5 - 0.3 * i as f64).collect();
        let (mut g, mut hv) = (vec![0.0; n], vec![0.0; n]);
        referenced_hvp(&x, &v, &mut g, &mut hv);
        let grad = |x: &[f64]| {
            let mut d = vec![0.0; n];
            referenced_grad(x, &mut d);
            d
        };
        close(&hv, &along(grad, &x, &v), 1e-6);
        close(&g, &d_x, 1e-15);
    }
}

/// The determinant by Gaussian elimination with partial pivoting: the reference.
fn lu_det(a: &[f64], n: usize) -> f64 {
    let mut m = a.to_vec();
    let mut d = 1.0;
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs()))
            .unwrap();
        if p != c {
            for k in 0..n {
                m.swap(c * n + k, p * n + k);
            }
            d = -d;
        }
        d *= m[c * n + c];
        for i in c + 1..n {
            let f = m[i * n + c] / m[c * n + c];
            for k in c..n {
                m[i * n + k] -= f * m[c * n + k];
            }
        }
    }
    d
}

#[test]
fn determinant_by_minors_with_its_stack_in_vecs() {
    for ell in 1..=6 {
        let a: Vec<f64> = (0..ell * ell)
            .map(|i| ((i * 7919 % 101) as f64) / 101.0 - 0.3)
            .collect();
        let mut g = vec![0.0; ell * ell];
        let (value, ()) = det_grad(&a, ell, &mut g);
        let want = lu_det(&a, ell);
        assert!(
            (value - want).abs() < 1e-12 * want.abs().max(1.0),
            "{ell}: {value} {want}"
        );
        // The gradient of a determinant is its cofactor matrix; against central differences of
        // the elimination.
        close(&g, &central(|a| lu_det(a, ell), &a), 1e-6);
    }
    // A permutation matrix's determinant is its sign: (0 2 1) is odd.
    let p = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0];
    assert_eq!(det(&p, 3), -1.0);
}
