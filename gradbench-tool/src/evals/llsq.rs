//! `llsq`: the linear least-squares objective `y(x) = 1/2 Σ_i (s_i - Σ_j x_j t_i^j)^2` with
//! `t_i = -1 + 2 i / (n - 1)` and `s_i = sign(t_i)`, `n` and the length of `x` read at run time.
//! The points are a loop of independent iterations (one accumulator); the powers of `t_i` a
//! running product in the inner loop over `x`, a sequential loop whose steps go into the outer
//! loop's step tape.

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

#[differentiable(wrt(x))]
pub fn llsq(x: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    for i in 0..n {
        let t = -1.0 + (i as f64) * 2.0 / ((n - 1) as f64);
        let s = if t > 0.0 {
            1.0
        } else if t < 0.0 {
            -1.0
        } else {
            0.0
        };
        // The powers of t as a running product, as the reference writes it: a state the loop
        // over x carries, recorded into the point loop's step tape in the reverse sweep.
        let mut r = s;
        let mut mul = 1.0;
        for xj in x.iter() {
            r -= xj * mul;
            mul *= t;
        }
        sum += r * r;
    }
    sum / 2.0
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let x = crate::protocol::floats(input, "x")?;
    let n = crate::protocol::count(input, "n")?;
    if n < 2 {
        return Err(format!(
            "llsq needs n >= 2 points (t_i divides by n - 1), not {n}"
        ));
    }
    let runs = crate::protocol::Runs::of(input);
    match function {
        "primal" => {
            let (y, times) = runs.time(|| llsq(&x, n));
            Ok((json!(y), times))
        }
        "gradient" => {
            let mut d_x = vec![0.0; x.len()];
            let (_, times) = runs.time(|| llsq_grad(&x, n, &mut d_x));
            Ok((json!(d_x), times))
        }
        _ => Err(super::unknown("llsq", function)),
    }
}
