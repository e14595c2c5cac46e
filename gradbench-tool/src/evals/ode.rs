//! `ode`: `s` steps of the classic Runge-Kutta method on GradBench's ODE (`y_0' = x_0`,
//! `y_i' = x_i y_{i-1}`, from `y(0) = 0` to `t = 2`), its state of `x.len()` elements in `Vec`
//! locals, as the eval's README and its C++ reference (`cpp/gradbench/evals/ode.hpp`) write it.
//! `primal` is the whole final state; `gradient` the gradient of its last element, by the
//! generated forward and reverse sweeps of [`ode_last`] (`tests/models/ode.rs`) on one tape kept across the runs.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "../../../tests/models/ode.rs"]
mod model;

pub use model::{OdeLastTape, ode_last, ode_last_adjoint, ode_last_forward};

/// `z = f(y)`: the ODE's right-hand side.
fn rhs(x: &[f64], y: &[f64], z: &mut [f64]) {
    z[0] = x[0];
    for i in 1..x.len() {
        z[i] = x[i] * y[i - 1];
    }
}

/// The whole state after `s` steps (the eval's `primal`): the same steps as [`ode_last`], as plain
/// Rust with the right-hand side as a function (nothing to differentiate here).
pub fn primal(x: &[f64], s: usize) -> Vec<f64> {
    let n = x.len();
    let h = 2.0 / s as f64;
    let mut y = vec![0.0; n];
    let (mut k1, mut k2, mut k3, mut k4) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut tmp = vec![0.0; n];
    for _ in 0..s {
        rhs(x, &y, &mut k1);
        for i in 0..n {
            tmp[i] = y[i] + h * k1[i] / 2.0;
        }
        rhs(x, &tmp, &mut k2);
        for i in 0..n {
            tmp[i] = y[i] + h * k2[i] / 2.0;
        }
        rhs(x, &tmp, &mut k3);
        for i in 0..n {
            tmp[i] = y[i] + h * k3[i];
        }
        rhs(x, &tmp, &mut k4);
        for i in 0..n {
            y[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
        }
    }
    y
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let x = crate::protocol::floats(input, "x")?;
    let s = crate::protocol::count(input, "s")?;
    if x.is_empty() || s == 0 {
        return Err(format!(
            "ode needs at least one element in `x` and one step, got {} and {s}",
            x.len()
        ));
    }
    let runs = crate::protocol::Runs::of(input);
    match function {
        "primal" => {
            let mut y = Vec::new();
            let (_, times) = runs.time(|| y = primal(&x, s));
            Ok((json!(y), times))
        }
        "gradient" => {
            let mut d_x = vec![0.0; x.len()];
            // One tape for every run: its `Vec`s are sized by the first and reused after.
            let mut tape = OdeLastTape::new();
            let (_, times) = runs.time(|| {
                d_x.iter_mut().for_each(|d| *d = 0.0);
                ode_last_forward(&x, s, &mut tape);
                ode_last_adjoint(&x, s, &tape, 1.0, &mut d_x);
            });
            Ok((json!(d_x), times))
        }
        _ => Err(super::unknown("ode", function)),
    }
}
