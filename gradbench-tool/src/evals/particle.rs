//! `particle`: a charged particle starts at (0, 8) with velocity (0.75, 0), pulled by two fixed
//! charges at (10, 10 - w) and (10, 0); naive Euler steps of 0.1 run until it would cross the
//! x axis, and the crossing point `x_f` is found by linear interpolation. The control `w` that
//! minimizes `x_f²` is found by the eval's gradient descent. The force is minus the gradient of
//! the potential, so every Euler step calls a derivative (nested differentiation): the
//! potential's gradient (`potential_grad_x`, reverse mode) or two of its tangents
//! (`potential_tangent`, forward mode); the descent's derivative of `x_f²` with respect to `w`
//! is `crossing`'s gradient (reverse) or tangent (forward).

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

use super::descent::argmin;

/// The electric potential at `x` of unit charges at (10, 10 - w) and (10, 0).
#[differentiable(nested)]
pub fn potential(x: &[f64; 2], w: f64) -> f64 {
    let (a0, a1) = (x[0] - 10.0, x[1] - (10.0 - w));
    let (b0, b1) = (x[0] - 10.0, x[1] - 0.0);
    1.0 / (a0 * a0 + a1 * a1).sqrt() + 1.0 / (b0 * b0 + b1 * b1).sqrt()
}

/// `x_f²` for control `w`. The force is minus the potential's gradient, from
/// `potential_grad_x` (reverse mode inside) or from two tangents along the axes,
/// `potential_tangent` (forward mode inside), as `forward` says.
#[differentiable(jvp, wrt(w))]
pub fn crossing(w: f64, forward: bool) -> f64 {
    let (e0, e1) = ([1.0, 0.0], [0.0, 1.0]);
    let mut x = [0.0, 8.0];
    let mut v = [0.75, 0.0];
    let dt = 0.1;
    let mut go = true;
    #[max_iters(2000)]
    while go {
        let g: [f64; 2] = if forward {
            let a: [f64; 2] = potential_tangent(&x, w, &e0, 0.0);
            let b: [f64; 2] = potential_tangent(&x, w, &e1, 0.0);
            [a[1], b[1]]
        } else {
            potential_grad_x(&x, w)
        };
        let next = [x[0] + dt * v[0], x[1] + dt * v[1]];
        if next[1] > 0.0 {
            x = next;
            v = [v[0] - dt * g[0], v[1] - dt * g[1]];
        } else {
            go = false;
        }
    }
    let dt_f = -x[1] / v[1];
    let x_f = x[0] + dt_f * v[0];
    x_f * x_f
}

/// The control `w` that brings the particle to the origin, with the descent's derivative in
/// one mode and the force's in another.
pub fn particle(w0: f64, outer_forward: bool, inner_forward: bool) -> f64 {
    let f = |w: &[f64; 1]| crossing(w[0], inner_forward);
    let grad = |w: &[f64; 1]| -> [f64; 1] {
        if outer_forward {
            [crossing_jvp(w[0], inner_forward, 1.0).1]
        } else {
            [crossing_grad(w[0], inner_forward).1]
        }
    };
    argmin(f, grad, [w0])[0]
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let (outer, inner) = match function {
        "ff" => (true, true),
        "fr" => (true, false),
        "rf" => (false, true),
        "rr" => (false, false),
        _ => return Err(super::unknown("particle", function)),
    };
    let w = input
        .get("w")
        .and_then(Value::as_f64)
        .ok_or("the input has no number `w`")?;
    let runs = crate::protocol::Runs::of(input);
    let (out, times) = runs.time(|| particle(w, outer, inner));
    Ok((json!(out), times))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The potential, and the program with every derivative by central differences: the
    /// finite-difference reference tool.
    fn p(x: &[f64; 2], w: f64) -> f64 {
        let d = |c: [f64; 2]| ((x[0] - c[0]).powi(2) + (x[1] - c[1]).powi(2)).sqrt();
        1.0 / d([10.0, 10.0 - w]) + 1.0 / d([10.0, 0.0])
    }

    fn crossing_by_differences(w: f64) -> f64 {
        let h = 1e-7;
        let (mut x, mut v, dt) = ([0.0, 8.0], [0.75, 0.0], 0.1);
        loop {
            let g: [f64; 2] = std::array::from_fn(|j| {
                let (mut a, mut b) = (x, x);
                a[j] += h;
                b[j] -= h;
                (p(&a, w) - p(&b, w)) / (2.0 * h)
            });
            let next = [x[0] + dt * v[0], x[1] + dt * v[1]];
            if next[1] <= 0.0 {
                break;
            }
            x = next;
            v = [v[0] - dt * g[0], v[1] - dt * g[1]];
        }
        let x_f = x[0] - x[1] / v[1] * v[0];
        x_f * x_f
    }

    #[test]
    fn particle_in_every_mode_combination() {
        let h = 1e-6;
        let grad = |w: &[f64; 1]| {
            [(crossing_by_differences(w[0] + h) - crossing_by_differences(w[0] - h)) / (2.0 * h)]
        };
        let reference = argmin(|w: &[f64; 1]| crossing_by_differences(w[0]), grad, [0.0])[0];
        let rr = particle(0.0, false, false);
        for (outer, inner) in [(false, false), (false, true), (true, false), (true, true)] {
            let got = particle(0.0, outer, inner);
            assert!(
                (got - reference).abs() < 1e-6,
                "{outer} {inner}: {got} {reference}"
            );
            assert!((got - rr).abs() <= 1e-12 * rr.abs(), "{got} {rr}");
            // GradBench's expected output (its eval's `expect`), within its own tolerance.
            assert!(
                (got - 0.2071918746486116).abs() < 1e-4 * 0.2071918746486116,
                "{got}"
            );
        }
        // The derivatives themselves: the generated ones against central differences.
        for w in [0.0, 0.1, 0.3] {
            let fd = (crossing(w + h, false) - crossing(w - h, false)) / (2.0 * h);
            for inner in [false, true] {
                for d in [crossing_grad(w, inner).1, crossing_jvp(w, inner, 1.0).1] {
                    assert!((d - fd).abs() < 1e-6 * (1.0 + fd.abs()), "{w}: {d} {fd}");
                }
            }
        }
    }
}
