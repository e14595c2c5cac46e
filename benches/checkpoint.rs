//! The cost of checkpointing: the gradient of a 1000-step RNN with a full tape, with 10
//! snapshots (two-level and binomial), and with a snapshot before every step. `cargo bench --bench checkpoint`.

#![allow(clippy::needless_range_loop)]

#[macro_use]
#[path = "../tests/models/rnn1000.rs"]
mod rnn1000;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rnn1000::STEPS;
use stackgrad::differentiable;

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

fn checkpoint(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut x = [0.0; STEPS];
    x.iter_mut().for_each(|v| *v = rng.gen_range(-1.0..1.0));
    let mut w = [[0.0; 4]; 4];
    w.iter_mut()
        .flatten()
        .for_each(|v| *v = rng.gen_range(-0.6..0.6));
    let u = [0.3, -0.2, 0.5, 0.1];
    assert_eq!(rnn_full_grad(&x, &w, &u), rnn_snapshots_grad(&x, &w, &u));
    assert_eq!(rnn_full_grad(&x, &w, &u), rnn_binomial_grad(&x, &w, &u));
    let mut group = c.benchmark_group("checkpoint");
    group.bench_function("rnn1000_full_tape", |b| {
        b.iter(|| rnn_full_grad(black_box(&x), black_box(&w), black_box(&u)))
    });
    group.bench_function("rnn1000_snapshots_10", |b| {
        b.iter(|| rnn_snapshots_grad(black_box(&x), black_box(&w), black_box(&u)))
    });
    group.bench_function("rnn1000_binomial_10", |b| {
        b.iter(|| rnn_binomial_grad(black_box(&x), black_box(&w), black_box(&u)))
    });
    group.bench_function("rnn1000_every_step", |b| {
        b.iter(|| rnn_every_step_grad(black_box(&x), black_box(&w), black_box(&u)))
    });
    group.bench_function("rnn1000_primal", |b| {
        b.iter(|| rnn_full(black_box(&x), black_box(&w), black_box(&u)))
    });
    group.finish();
    println!(
        "tape bytes: full {}, snapshots = 10: {}, binomial 10: {}, every step: {}",
        RnnFullTape::BYTES,
        RnnSnapshotsTape::BYTES,
        RnnBinomialTape::BYTES,
        RnnEveryStepTape::BYTES
    );
}

criterion_group!(benches, checkpoint);
criterion_main!(benches);
