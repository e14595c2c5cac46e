//! One training step of the `shakespeare_gpt` example's miniature GPT: zero the gradients, forward,
//! reverse sweep, AdamW update, at batch 64 (the example's) and batch 1 (`train_step_64`,
//! `train_step_1`), and at batch 64 on 1 and 2 threads (`gpt_threads`).
//!
//! The model and the step are the example's own (`examples/shakespeare_gpt/model.rs`). Batches
//! are sampled from tiny-shakespeare before the timing starts; each iteration takes the next of 16
//! of them. `bench/peers/run.sh` reads the medians and compares them with PyTorch's.
//!
//! ```sh
//! cargo bench --bench gpt
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::runtime::data::{bundled, fill_windows};

#[allow(dead_code)] // the example uses the rest
#[path = "../examples/shakespeare_gpt/model.rs"]
mod model;

use model::{GptTrainer, T, Trainer};

/// Batches prepared outside the timing.
const BATCHES: usize = 16;

/// `BATCHES` random batches of `NB` windows of tiny-shakespeare, flattened to `NR = NB * T` rows.
fn sample_batches<const NB: usize, const NR: usize>(seed: u64) -> Vec<([usize; NR], [usize; NR])> {
    let corpus = bundled::tinyshakespeare(bundled::data_dir().join("tinyshakespeare/input.txt"))
        .expect("the bundled tiny-shakespeare");
    let (train, _) = corpus.split(0.9);
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..BATCHES)
        .map(|_| {
            let (mut x, mut y) = ([[0usize; T]; NB], [[0usize; T]; NB]);
            fill_windows(train, &mut x, &mut y, &mut rng).expect("the text is longer than T");
            let flat = |rows: [[usize; T]; NB]| -> [usize; NR] {
                rows.as_flattened().try_into().expect("NR = NB * T")
            };
            (flat(x), flat(y))
        })
        .collect()
}

/// Times `GptTrainer::<NB, NR>::step` as `name`.
fn bench_step<const NB: usize, const NR: usize>(c: &mut Criterion, name: &str) {
    let batches = sample_batches::<NB, NR>(1337);
    let mut trainer = GptTrainer::<NB, NR>::new(1337);
    let mut next = 0;
    let mut group = c.benchmark_group("gpt");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(8));
    group.bench_function(name, |bencher| {
        bencher.iter(|| {
            let (x, y) = &batches[next % BATCHES];
            next += 1;
            black_box(trainer.step(black_box(x), black_box(y)))
        });
    });
    group.finish();
}

/// The example's batch-64 step on 1 and 2 threads (`Trainer::with_threads`), in one group: the
/// speed-up of the data-parallel step (issue 16) from one run.
fn bench_threads(c: &mut Criterion) {
    let batches = sample_batches::<64, { 64 * T }>(1337);
    let mut group = c.benchmark_group("gpt_threads");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(8));
    for threads in [1, 2] {
        let mut trainer = Trainer::new(1337)
            .with_threads(threads)
            .expect("spawn the worker threads");
        let mut next = 0;
        group.bench_function(format!("train_step_64_threads_{threads}"), |bencher| {
            bencher.iter(|| {
                let (x, y) = &batches[next % BATCHES];
                next += 1;
                black_box(trainer.step(black_box(x), black_box(y)))
            });
        });
    }
    group.finish();
}

fn main() {
    // The forward and reverse sweeps keep a batch's activations in their stack frames (a few MiB
    // at batch 64), as in the example: run on a thread with room for them.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut c = Criterion::default().configure_from_args();
            bench_step::<64, { 64 * T }>(&mut c, "train_step_64");
            bench_step::<1, T>(&mut c, "train_step_1");
            bench_threads(&mut c);
            c.final_summary();
        })
        .expect("spawn the benchmark thread")
        .join()
        .expect("the benchmark thread panicked");
}
