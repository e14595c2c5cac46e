//! `det`: the determinant of an `ell` x `ell` matrix by expansion by minors, and its gradient, by
//! the generated forward and reverse sweeps of [`det`] (`tests/models/det.rs`: the reference's
//! recursion with its stack in `Vec` locals) on one tape kept across the runs. The recursion
//! tree has about `e ell!` edges, each a recorded step (27 bytes): the tape of `ell = 11` holds
//! about 5 GB, so the gradient takes `ell` up to 11 (the eval's largest).

use std::time::Duration;

use serde_json::{Value, json};

#[path = "../../../tests/models/det.rs"]
mod model;

pub use model::{DetTape, det, det_adjoint, det_forward};

/// The largest `ell` whose gradient this tool computes (the eval's default workloads are 5 to
/// 11); the primal takes one more.
pub const MAX_GRADIENT_ELL: usize = 11;

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let a = crate::protocol::floats(input, "A")?;
    let ell = crate::protocol::count(input, "ell")?;
    if ell == 0 || a.len() != ell * ell {
        return Err(format!(
            "det: `A` has {} elements for ell = {ell}: it must hold ell * ell, ell at least 1",
            a.len()
        ));
    }
    let runs = crate::protocol::Runs::of(input);
    match function {
        "primal" if ell <= MAX_GRADIENT_ELL + 1 => {
            let (v, times) = runs.time(|| det(&a, ell));
            Ok((json!(v), times))
        }
        "gradient" if ell <= MAX_GRADIENT_ELL => {
            let mut d_a = vec![0.0; a.len()];
            // One tape for every run: its `Vec`s are sized by the first and reused after.
            let mut tape = DetTape::new();
            let (_, times) = runs.time(|| {
                d_a.iter_mut().for_each(|d| *d = 0.0);
                det_forward(&a, ell, &mut tape);
                det_adjoint(&a, ell, &tape, 1.0, &mut d_a);
            });
            Ok((json!(d_a), times))
        }
        "primal" | "gradient" => Err(format!(
            "det: ell = {ell} is more than this tool takes ({} for the primal, {MAX_GRADIENT_ELL} for the gradient: the tape grows as ell!)",
            MAX_GRADIENT_ELL + 1
        )),
        _ => Err(super::unknown("det", function)),
    }
}
