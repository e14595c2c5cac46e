//! `lse`: log-sum-exp of a vector read at run time, with the maximum subtracted first, as the
//! eval's README describes it; its gradient by the generated `lse_grad` (a running maximum and a
//! sum over a slice: one iteration's tape, whatever the length).

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

#[differentiable(wrt(x))]
pub fn lse(x: &[f64]) -> f64 {
    let mut a = f64::NEG_INFINITY;
    for v in x.iter() {
        a = a.max(*v);
    }
    let mut s = 0.0;
    for v in x.iter() {
        s += (v - a).exp();
    }
    a + s.ln()
}

/// The gradient into `d_x` by the generated forward and reverse sweeps, with a tape kept from
/// one call to the next (its `Vec` of `exp` values allocated once), as a caller that evaluates
/// it again and again would write it.
pub fn gradient(x: &[f64], tape: &mut LseTape, d_x: &mut [f64]) {
    d_x.fill(0.0);
    lse_forward(x, tape);
    lse_adjoint(x, tape, 1.0, d_x);
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let x = crate::protocol::floats(input, "x")?;
    let runs = crate::protocol::Runs::of(input);
    match function {
        "primal" => {
            let (y, times) = runs.time(|| lse(&x));
            Ok((json!(y), times))
        }
        "gradient" => {
            let (mut d_x, mut tape) = (vec![0.0; x.len()], LseTape::new());
            let (_, times) = runs.time(|| gradient(&x, &mut tape, &mut d_x));
            Ok((json!(d_x), times))
        }
        _ => Err(super::unknown("lse", function)),
    }
}
