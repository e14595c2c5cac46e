//! One training step of the `digits_mlp` example (zero the gradients, forward, reverse sweep, Adam
//! update) on a batch of 32 images: `train_step_32`.
//!
//! The model and the step are the example's own (`examples/digits_mlp/model.rs`); the batches are
//! read from the bundled digits before the timing starts, and each iteration takes the next of 16.
//!
//! ```sh
//! cargo bench --bench mlp
//! ```

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use stackgrad::runtime::data::{BatchLoader, LastBatch, bundled};

#[allow(dead_code)] // the example uses the rest
#[path = "../examples/digits_mlp/model.rs"]
mod model;

use model::{BATCH, PIXELS, Trainer};

/// Batches prepared outside the timing.
const BATCHES: usize = 16;

fn train_step(c: &mut Criterion) {
    let mut digits =
        bundled::digits(bundled::data_dir().join("digits/digits.csv")).expect("the bundled digits");
    digits.features.iter_mut().for_each(|v| *v /= 16.0);
    let mut loader =
        BatchLoader::<PIXELS, BATCH>::new(&digits, LastBatch::Drop).expect("64 pixels per row");
    let batches: Vec<_> = (0..BATCHES)
        .map(|_| {
            let (mut x, mut y) = ([[0.0; PIXELS]; BATCH], [0; BATCH]);
            loader
                .next_batch(&mut x, &mut y)
                .expect("more than 16 batches");
            (x, y)
        })
        .collect();
    let mut trainer = Trainer::new(42, 3e-3);
    let mut next = 0;
    c.benchmark_group("digits_mlp")
        .bench_function(format!("train_step_{BATCH}"), |bencher| {
            bencher.iter(|| {
                let (x, y) = &batches[next % BATCHES];
                next += 1;
                black_box(trainer.step(black_box(x), black_box(y)))
            });
        });
}

criterion_group!(benches, train_step);
criterion_main!(benches);
