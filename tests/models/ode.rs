//! GradBench's ODE (`evals/ode`): the classic Runge-Kutta method over a state of `x.len()`
//! elements held in `Vec` locals, as the eval's C++ reference (`cpp/gradbench/evals/ode.hpp`)
//! writes it with the right-hand side inlined. Shared by `tests/vec_locals.rs` and the GradBench
//! tool's `ode` eval.

#![allow(clippy::needless_range_loop)] // index loops are how the reference writes it

use stackgrad::differentiable;

/// The last element of the solution of GradBench's ODE (`y_0' = x_0`, `y_i' = x_i y_{i-1}`, from
/// `y(0) = 0` to `t = 2`) after `s` steps of the classic Runge-Kutta method.
#[differentiable(jvp, wrt(x))]
pub fn ode_last(x: &[f64], s: usize) -> f64 {
    let n = x.len();
    let h = 2.0 / s as f64;
    let mut y = vec![0.0; n];
    let mut k1 = vec![0.0; n];
    let mut k2 = vec![0.0; n];
    let mut k3 = vec![0.0; n];
    let mut k4 = vec![0.0; n];
    let mut tmp = vec![0.0; n];
    for _ in 0..s {
        k1[0] = x[0];
        for i in 1..n {
            k1[i] = x[i] * y[i - 1];
        }
        for i in 0..n {
            tmp[i] = y[i] + h * k1[i] / 2.0;
        }
        k2[0] = x[0];
        for i in 1..n {
            k2[i] = x[i] * tmp[i - 1];
        }
        for i in 0..n {
            tmp[i] = y[i] + h * k2[i] / 2.0;
        }
        k3[0] = x[0];
        for i in 1..n {
            k3[i] = x[i] * tmp[i - 1];
        }
        for i in 0..n {
            tmp[i] = y[i] + h * k3[i];
        }
        k4[0] = x[0];
        for i in 1..n {
            k4[i] = x[i] * tmp[i - 1];
        }
        for i in 0..n {
            y[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
        }
    }
    y[n - 1]
}
