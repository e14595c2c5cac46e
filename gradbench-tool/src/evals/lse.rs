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

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop of `exp` is recorded into the tape's `Vec` (a costly function, read back in the
    /// reverse sweep instead of computed again), the running maximum run again: the value against
    /// the closed form, the gradient against the softmax, on one tape reused for three lengths.
    #[test]
    fn a_recorded_loop_of_exp_against_the_closed_form_on_a_reused_tape() {
        let mut tape = LseTape::new();
        // Longer, shorter, longer again: the `Vec`s resized on the same tape.
        for (shift, n) in [(0.3, 40), (1.1, 7), (2.9, 64)] {
            let x: Vec<f64> = (0..n)
                .map(|i| 3.0 * (1.7 * i as f64 + shift).sin())
                .collect();
            let value = lse_forward(&x, &mut tape);
            assert!(tape.bytes() >= n * 8, "the exponentials are recorded");
            let mut d_x = vec![0.0; n];
            lse_adjoint(&x, &tape, 1.0, &mut d_x);
            let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = x.iter().map(|v| (v - m).exp()).sum();
            assert!((value - (m + z.ln())).abs() <= 1e-12 * value.abs().max(1.0));
            assert_eq!(lse(&x), value);
            let (v2, ()) = lse_grad(&x, &mut vec![0.0; n]);
            assert_eq!(v2, value);
            let mut d_again = vec![0.0; n];
            gradient(&x, &mut tape, &mut d_again);
            assert_eq!(d_again, d_x);
            for i in 0..n {
                let want = (x[i] - m).exp() / z;
                assert!((d_x[i] - want).abs() <= 1e-12, "{} against {want}", d_x[i]);
            }
        }
    }
}
