//! ADBench's LSTM objective (tests/models/lstm.rs) under `#[differentiable]`.
//!
//! On ADBench's `lstm_l2_c1024` (the same numbers as ADBench's unit-test input `lstmtest.txt`):
//! the value and the whole gradient against what ADBench's own unit test expects of every
//! implementation (`data/adbench/lstm/lstm_l2_c1024_expected.txt`), a spread sample of gradient
//! entries against central differences of the objective at the file's parameters and at seeded
//! perturbations of them, and the companions' contract (the forward sweep computes the objective,
//! the adjoint adds and scales with `d_out`). On a tiny hand-made instance, every gradient entry
//! against central differences at 20 seeded points.

#![allow(clippy::needless_range_loop)] // index loops are how the objective is written

mod common;

use common::{F64_RTOL, GradCheck, assert_close, cube, flatten, unflatten};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "models/lstm.rs"]
mod lstm;

use lstm::*;

/// The differentiated inputs, `(main_params, extra_params)`.
type Params<const L: usize, const B: usize> = ([[[[f64; B]; 4]; 2]; L], [[f64; B]; 3]);

// lstm_l2_c1024: 2 layers, 1024 characters of 14 bits; P parameters.
const L: usize = 2;
const C: usize = 1024;
const B: usize = 14;
const P: usize = L * 2 * 4 * B + 3 * B;

/// The central difference's rounding noise, in ulps of `|f|` per step (as in `tests/common`).
const ROUNDING_ULPS: f64 = 64.0;

fn instance() -> Lstm<L, C, B> {
    load(format!(
        "{}/data/adbench/lstm/lstm_l2_c1024.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// ADBench's expected objective and gradient (main params, then extra params, in file order).
fn expected() -> (f64, [f64; P]) {
    let path = format!(
        "{}/data/adbench/lstm/lstm_l2_c1024_expected.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let numbers: Vec<f64> = text
        .split_whitespace()
        .map(|word| word.parse().unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect();
    let (&value, gradient) = numbers.split_first().expect("an objective");
    (value, gradient.try_into().expect("P gradient entries"))
}

/// The name of flat parameter `k`, for reports.
fn describe(k: usize) -> String {
    const GATES: [&str; 4] = ["forget", "ingate", "outgate", "change"];
    if k < L * 8 * B {
        let (layer, row, gate, i) = (k / (8 * B), k / (4 * B) % 2, k / B % 4, k % B);
        let row = ["weight", "bias"][row];
        format!("main[{layer}] {row} {} [{i}]", GATES[gate])
    } else {
        let k = k - L * 8 * B;
        let row = ["in_weight", "out_weight", "out_bias"][k / B];
        format!("extra {row} [{}]", k % B)
    }
}

/// Runs `f` on a thread with room for the 3.7 MB tape that `lstm_objective_grad` keeps on its
/// stack (a test thread has 2 MiB).
fn on_big_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the test thread panicked")
}

#[test]
fn value_and_gradient_match_adbench_s_unit_test() {
    on_big_stack(|| {
        let data = instance();
        let (value, (d_main, d_extra)) = lstm_objective_grad::<L, C, B>(
            &data.main_params,
            &data.extra_params,
            &data.state,
            &data.sequence,
        );
        let gradient: [f64; P] = flatten(&(d_main, d_extra));
        let (want_value, want_gradient) = expected();
        // ADBench's test holds every implementation to an absolute 1e-8, and its expected
        // objective has 8 digits. The gradient entries are given to 18 digits and the smallest
        // nonzero one is 6.6e-7: an absolute 1e-12 still tests every entry to 6 digits.
        assert!(
            value.is_finite() && (value - want_value).abs() <= 1e-8,
            "objective {value}, ADBench expects {want_value}"
        );
        let mut largest = (0.0, 0);
        for k in 0..P {
            let difference = (gradient[k] - want_gradient[k]).abs();
            if difference.is_nan() || difference > largest.0 {
                largest = (difference, k);
            }
        }
        let (difference, k) = largest;
        assert!(
            difference <= 1e-12,
            "largest difference {difference:e} at {} ({k}): {} vs ADBench's {}; first entries {:?} vs {:?}",
            describe(k),
            gradient[k],
            want_gradient[k],
            &gradient[..8],
            &want_gradient[..8]
        );
    });
}

/// Central differences of the objective along every fifth parameter (45 main, 9 extra: every
/// layer, row, gate and bit), at the file's parameters and at two seeded points that move every
/// parameter by up to 0.2.
///
/// The tolerance is `F64_RTOL * |fd|` plus the difference's rounding noise, without the
/// `max(1, |fd|)` floor of `GradCheck`: the objective is a mean over `(C - 1) B` terms, so its
/// gradient entries are 1e-7 to 5e-2, and a floor of 1 would pass any of them.
#[test]
fn gradient_sample_matches_central_differences() {
    on_big_stack(|| {
        let data = instance();
        let (state, sequence) = (data.state, data.sequence);
        let objective = |point: &[f64; P]| {
            let (main, extra): Params<L, B> = unflatten(point);
            lstm_objective::<L, C, B>(&main, &extra, &state, &sequence)
        };
        let start: [f64; P] = flatten(&(data.main_params, data.extra_params));
        let mut rng = SmallRng::seed_from_u64(11);
        let points = [
            start,
            start.map(|v| v + rng.gen_range(-0.2..0.2)),
            start.map(|v| v + rng.gen_range(-0.2..0.2)),
        ];
        let mut report = String::new();
        let mut checked = 0;
        for (n, point) in points.iter().enumerate() {
            let (main, extra): Params<L, B> = unflatten(point);
            let (value, gradient) =
                lstm_objective_grad::<L, C, B>(&main, &extra, &state, &sequence);
            let gradient: [f64; P] = flatten(&gradient);
            assert!(
                value.is_finite() && value > 0.0,
                "point {n}: objective {value}"
            );
            for k in (0..P).step_by(5) {
                let h = f64::EPSILON.cbrt() * point[k].abs().max(1.0);
                let (mut plus, mut minus) = (*point, *point);
                plus[k] += h;
                minus[k] -= h;
                let fd = (objective(&plus) - objective(&minus)) / (plus[k] - minus[k]);
                let rounding = ROUNDING_ULPS * f64::EPSILON * value.abs() / h;
                let tolerance = F64_RTOL * fd.abs() + rounding;
                let difference = (gradient[k] - fd).abs();
                if difference.is_nan() || difference > tolerance {
                    report += &format!(
                        "  point {n}, {} ({k}): generated {:e}, central difference {fd:e}, difference {difference:e} > {tolerance:e}\n",
                        describe(k),
                        gradient[k]
                    );
                }
                checked += 1;
            }
        }
        assert!(
            report.is_empty(),
            "lstm_l2_c1024: of {checked} entries\n{report}"
        );
    });
}

/// The companions' contract on the full instance: the forward sweep returns the objective, the
/// adjoint into zeroed buffers is `lstm_objective_grad`'s gradient, a second adjoint on the same
/// tape adds it again, and a seed `d_out` scales it.
#[test]
fn forward_and_adjoint_contract() {
    on_big_stack(|| {
        let data = instance();
        let (main, extra, state, sequence) = (
            &data.main_params,
            &data.extra_params,
            &data.state,
            &*data.sequence,
        );
        let mut tape = Box::new(LstmObjectiveTape::<L, C, B>::new());
        let value = lstm_objective_forward::<L, C, B>(main, extra, state, sequence, &mut tape);
        assert_eq!(
            value,
            lstm_objective::<L, C, B>(main, extra, state, sequence)
        );
        let adjoint = |d_out: f64, d: &mut Params<L, B>| {
            lstm_objective_adjoint::<L, C, B>(
                main, extra, state, sequence, &tape, d_out, &mut d.0, &mut d.1,
            );
        };
        let mut once: Params<L, B> = unflatten(&[0.0; P]);
        adjoint(1.0, &mut once);
        let (grad_value, grad) = lstm_objective_grad::<L, C, B>(main, extra, state, sequence);
        assert_eq!(
            (grad_value, flatten::<_, P>(&grad)),
            (value, flatten(&once))
        );
        let mut twice = once;
        adjoint(1.0, &mut twice);
        let mut scaled: Params<L, B> = unflatten(&[0.0; P]);
        adjoint(-2.5, &mut scaled);
        let (once, twice, scaled): ([f64; P], [f64; P], [f64; P]) =
            (flatten(&once), flatten(&twice), flatten(&scaled));
        for k in 0..P {
            assert_close(&describe(k), twice[k], 2.0 * once[k], 1e-15);
            assert_close(&describe(k), scaled[k], -2.5 * once[k], 1e-15);
        }
    });
}

/// A hand-made instance small enough for `GradCheck` to difference every parameter: 2 layers,
/// 5 characters of 3 bits, seeded state and bits; 20 seeded points with every parameter in
/// `[-1, 1)`.
#[test]
fn tiny_instance_gradient() {
    const L: usize = 2;
    const C: usize = 5;
    const B: usize = 3;
    const P: usize = L * 2 * 4 * B + 3 * B;
    let mut rng = SmallRng::seed_from_u64(3);
    let state: [[[f64; B]; 2]; L] = unflatten(&[(); L * 2 * B].map(|_| rng.gen_range(-1.0..1.0)));
    let sequence: [[f64; B]; C] = unflatten(&[(); C * B].map(|_| f64::from(rng.gen_range(0..2))));
    GradCheck::new("lstm l2 c5 b3").run(
        &cube::<P>(5, 20, -1.0, 1.0),
        |point| {
            let (main, extra): Params<L, B> = unflatten(&point);
            lstm_objective::<L, C, B>(&main, &extra, &state, &sequence)
        },
        |point| {
            let (main, extra): Params<L, B> = unflatten(&point);
            let (value, gradient) =
                lstm_objective_grad::<L, C, B>(&main, &extra, &state, &sequence);
            (value, flatten(&gradient))
        },
    );
}
