//! `saddle`: min over `x` of max over `y` of `f(x, y) = (x_0² + x_1²) - (y_0² + y_1²)`, both by
//! the eval's gradient descent, from the same start. The outer objective runs the inner ascent,
//! whose every step calls a derivative of `f` (nested differentiation): `f`'s gradient
//! (`objective_grad_y`, reverse mode) or two of its tangents (`objective_tangent`, forward
//! mode); the outer derivative is `inner_max`'s generated gradient (reverse) or two of its
//! tangents (forward). `ff`, `fr`, `rf`, `rr` name the outer mode, then the inner one.

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

use super::descent::argmin;

#[differentiable(nested)]
pub fn objective(x: &[f64; 2], y: &[f64; 2]) -> f64 {
    (x[0] * x[0] + x[1] * x[1]) - (y[0] * y[0] + y[1] * y[1])
}

/// `max_y f(x, y)` from `start`: the eval's descent (see `descent::argmin`) on `-f(x, ·)`, written out.
/// Its gradient comes from `objective_grad_y` (reverse mode inside) or from two tangents along
/// the axes, `objective_tangent` (forward mode inside), as `forward` says; it is computed at the
/// start of the iteration after a step is accepted (and of the first), where it is `stale`.
#[differentiable(jvp, wrt(x))]
pub fn inner_max(x: &[f64; 2], start: &[f64; 2], forward: bool) -> f64 {
    let (zero, e0, e1) = ([0.0; 2], [1.0, 0.0], [0.0, 1.0]);
    let mut y = *start;
    let mut fy = -objective(x, &y);
    let mut gy = [0.0; 2];
    let mut stale = true;
    let mut eta = 1e-5;
    let mut i = 0;
    let mut go = true;
    #[max_iters(1000)]
    while go {
        if stale {
            if forward {
                let a: [f64; 2] = objective_tangent(x, &y, &zero, &e0);
                let b: [f64; 2] = objective_tangent(x, &y, &zero, &e1);
                gy = [-a[1], -b[1]];
            } else {
                let g: [f64; 2] = objective_grad_y(x, &y);
                gy = [-g[0], -g[1]];
            }
            stale = false;
        }
        if (gy[0] * gy[0] + gy[1] * gy[1]).sqrt() <= 1e-5 {
            go = false;
        } else if i == 10 {
            eta *= 2.0;
            i = 0;
        } else {
            let y2 = [y[0] - eta * gy[0], y[1] - eta * gy[1]];
            let (d0, d1) = (y2[0] - y[0], y2[1] - y[1]);
            if (d0 * d0 + d1 * d1).sqrt() <= 1e-5 {
                go = false;
            } else {
                let fy2 = -objective(x, &y2);
                if fy2 < fy {
                    y = y2;
                    fy = fy2;
                    stale = true;
                    i += 1;
                } else {
                    eta /= 2.0;
                    i = 0;
                }
            }
        }
    }
    objective(x, &y)
}

/// Outer and inner modes: `(outer forward, inner forward)`.
fn modes(function: &str) -> Option<(bool, bool)> {
    match function {
        "ff" => Some((true, true)),
        "fr" => Some((true, false)),
        "rf" => Some((false, true)),
        "rr" => Some((false, false)),
        _ => None,
    }
}

/// The saddle point `[x, y]` with the outer derivative in one mode and the inner in another.
pub fn saddle(start: [f64; 2], outer_forward: bool, inner_forward: bool) -> [f64; 4] {
    let max = |x: &[f64; 2]| inner_max(x, &start, inner_forward);
    let grad = |x: &[f64; 2]| -> [f64; 2] {
        if outer_forward {
            [[1.0, 0.0], [0.0, 1.0]].map(|t| inner_max_jvp(x, &start, inner_forward, &t).1)
        } else {
            inner_max_grad(x, &start, inner_forward).1
        }
    };
    let x = argmin(max, grad, start);
    // The argmax at that `x`, with `f`'s derivative in the outer mode.
    let neg = |y: &[f64; 2]| -objective(&x, y);
    let neg_grad = |y: &[f64; 2]| -> [f64; 2] {
        let g = if outer_forward {
            [[1.0, 0.0], [0.0, 1.0]].map(|t| objective_jvp(&x, y, &[0.0; 2], &t).1)
        } else {
            objective_grad(&x, y).1.1
        };
        [-g[0], -g[1]]
    };
    let y = argmin(neg, neg_grad, start);
    [x[0], x[1], y[0], y[1]]
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let (outer, inner) = modes(function).ok_or_else(|| super::unknown("saddle", function))?;
    let start = crate::protocol::floats(input, "start")?;
    let start: [f64; 2] = start
        .try_into()
        .map_err(|s: Vec<f64>| format!("`start` has {} numbers, not 2", s.len()))?;
    let runs = crate::protocol::Runs::of(input);
    let (out, times) = runs.time(|| saddle(start, outer, inner));
    Ok((json!(out), times))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `f` and its gradients by central differences: the finite-difference reference tool.
    fn f(x: &[f64; 2], y: &[f64; 2]) -> f64 {
        (x[0] * x[0] + x[1] * x[1]) - (y[0] * y[0] + y[1] * y[1])
    }

    fn central(g: impl Fn(&[f64; 2]) -> f64, at: &[f64; 2]) -> [f64; 2] {
        let h = 1e-6;
        std::array::from_fn(|j| {
            let (mut p, mut m) = (*at, *at);
            p[j] += h;
            m[j] -= h;
            (g(&p) - g(&m)) / (2.0 * h)
        })
    }

    fn saddle_by_differences(start: [f64; 2]) -> [f64; 4] {
        let inner = |x: [f64; 2]| {
            let neg = move |y: &[f64; 2]| -f(&x, y);
            argmin(neg, move |y: &[f64; 2]| central(neg, y), start)
        };
        let max = move |x: &[f64; 2]| f(x, &inner(*x));
        let x = argmin(max, move |x: &[f64; 2]| central(max, x), start);
        let y = inner(x);
        [x[0], x[1], y[0], y[1]]
    }

    /// The four mode combinations agree with each other to rounding, with the finite-difference
    /// reference to 1e-6, and with GradBench's expected output (its eval's `expect`).
    #[test]
    fn saddle_in_every_mode_combination() {
        let start = [1.0, 1.0];
        let reference = saddle_by_differences(start);
        let rr = saddle(start, false, false);
        for (outer, inner) in [(false, false), (false, true), (true, false), (true, true)] {
            let got = saddle(start, outer, inner);
            for j in 0..4 {
                assert!(
                    (got[j] - reference[j]).abs() < 1e-6,
                    "{outer} {inner}: {got:?} {reference:?}"
                );
                assert!(
                    (got[j] - rr[j]).abs() <= 1e-12 * rr[j].abs(),
                    "{got:?} {rr:?}"
                );
                assert!((got[j] - 8.246324826140356e-06).abs() < 1e-12, "{got:?}");
            }
        }
    }
}
