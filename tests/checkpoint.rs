//! Checkpointed loops give the same gradient as a full tape, with a tape that keeps only the
//! loop's state: `#[checkpoint]` saves it before every iteration, `#[checkpoint(snapshots = S)]`
//! every `N / S` iterations, and the reverse sweep recomputes what it needs.

// Numerical kernels written with explicit indices, as the RNN is usually written.
#![allow(clippy::needless_range_loop)]

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stackgrad::differentiable;

#[macro_use]
#[path = "models/rnn1000.rs"]
mod rnn1000;

use rnn1000::STEPS;

rnn1000!(
    /// With a full tape.
    rnn_full
);
rnn1000!(
    /// With 10 snapshots (two-level).
    rnn_snapshots, #[checkpoint(snapshots = 10)]
);
rnn1000!(
    /// With a snapshot before every step.
    rnn_every_step, #[checkpoint]
);
rnn1000!(
    /// With 10 snapshots on Griewank's binomial schedule.
    rnn_binomial, #[checkpoint(snapshots = 10, binomial)]
);

/// A checkpointed loop with an early exit, a scalar accumulator and a call.
#[differentiable]
fn soft(v: f64) -> f64 {
    (1.0 + v.exp()).ln()
}

/// `early!(name, #[loop attributes])`: a loop with an early exit, a scalar accumulator and a call.
macro_rules! early {
    ($name:ident $(, #[$attr:meta])*) => {
        #[differentiable]
        fn $name(x: &[f64; 40], a: f64) -> f64 {
            let mut s = 0.0;
            let mut p = 1.0;
            $(#[$attr])*
            for t in 0..40 {
                if s > 25.0 {
                    break;
                }
                p *= 0.9 + 0.1 * x[t].sin();
                s += soft(a * x[t] + p);
            }
            s * p
        }
    };
}

early!(early, #[checkpoint(snapshots = 6)]);
early!(early_binomial, #[checkpoint(snapshots = 3, binomial)]);
early!(early_full);

/// Calls two loops deep: an array of arrays of callee tapes.
#[differentiable]
fn nested_calls(x: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        for j in 0..2 {
            s += soft(x[i] * s + j as f64);
        }
    }
    s
}

type Inputs = ([f64; STEPS], [[f64; 4]; 4], [f64; 4]);

fn inputs(seed: u64) -> Box<Inputs> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut x = [0.0; STEPS];
    x.iter_mut().for_each(|v| *v = rng.gen_range(-1.0..1.0));
    let mut w = [[0.0; 4]; 4];
    w.iter_mut()
        .flatten()
        .for_each(|v| *v = rng.gen_range(-0.6..0.6));
    let mut u = [0.0; 4];
    u.iter_mut().for_each(|v| *v = rng.gen_range(-1.0..1.0));
    Box::new((x, w, u))
}

#[test]
fn snapshots_give_the_full_tape_gradient_with_a_tape_50_times_smaller() {
    let (x, w, u) = *inputs(7);
    let (v_full, (gx_full, gw_full, gu_full)) = rnn_full_grad(&x, &w, &u);
    for (name, (v, (gx, gw, gu))) in [
        ("snapshots = 10", rnn_snapshots_grad(&x, &w, &u)),
        ("every step", rnn_every_step_grad(&x, &w, &u)),
        ("binomial, 10 snapshots", rnn_binomial_grad(&x, &w, &u)),
    ] {
        // The same operations in the same order: the same numbers, not just close ones.
        assert_eq!(v, v_full, "{name}");
        assert_eq!(gx, gx_full, "{name}: d/dx");
        assert_eq!(gw, gw_full, "{name}: d/dw");
        assert_eq!(gu, gu_full, "{name}: d/du");
    }
    let (full, ten) = (RnnFullTape::BYTES, RnnSnapshotsTape::BYTES);
    assert!(
        full >= 50 * ten,
        "full tape {full} B, with 10 snapshots {ten} B"
    );
}

#[test]
fn the_gradient_matches_finite_differences() {
    let (x, w, u) = *inputs(11);
    let (_, (_, gw, gu)) = rnn_snapshots_grad(&x, &w, &u);
    let h = 1e-6;
    for (i, j) in [(0, 0), (1, 3), (3, 2)] {
        let (mut a, mut b) = (w, w);
        a[i][j] += h;
        b[i][j] -= h;
        let fd = (rnn_full(&x, &a, &u) - rnn_full(&x, &b, &u)) / (2.0 * h);
        assert!(
            (gw[i][j] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
            "d/dw[{i}][{j}] {} vs {fd}",
            gw[i][j]
        );
    }
    let (mut a, mut b) = (u, u);
    a[2] += h;
    b[2] -= h;
    let fd = (rnn_full(&x, &w, &a) - rnn_full(&x, &w, &b)) / (2.0 * h);
    assert!(
        (gu[2] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
        "d/du[2] {} vs {fd}",
        gu[2]
    );
}

#[test]
fn checkpointed_early_exit_and_calls_match_the_full_tape() {
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..10 {
        let mut x = [0.0; 40];
        x.iter_mut().for_each(|v| *v = rng.gen_range(-2.0..2.0));
        let a = rng.gen_range(0.2..1.5);
        assert_eq!(early_grad(&x, a), early_full_grad(&x, a));
        assert_eq!(early_binomial_grad(&x, a), early_full_grad(&x, a));
    }
}

#[test]
fn calls_two_loops_deep() {
    let x = [0.3, -0.7, 1.1];
    let (_, g) = nested_calls_grad(&x);
    for i in 0..3 {
        let (mut a, mut b) = (x, x);
        a[i] += 1e-6;
        b[i] -= 1e-6;
        let fd = (nested_calls(&a) - nested_calls(&b)) / 2e-6;
        assert!(
            (g[i] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
            "d/dx[{i}] {} vs {fd}",
            g[i]
        );
    }
}
