//! One training step of the `shakespeare_gpt` example's miniature GPT: zero the gradients, forward,
//! reverse sweep, AdamW update, at batch 64 (the example's) and batch 1 (`train_step_64`,
//! `train_step_1`), and at batch 64 on 1 and 2 threads (`gpt_threads`).
//!
//! The model and the step are the example's own (`examples/shakespeare_gpt/model.rs`). Batches
//! are sampled from tiny-shakespeare before the timing starts; each iteration takes the next of 16
//! of them. `bench/peers/run.sh` reads the medians and compares them with PyTorch's.
//!
//! Then it measures this core's peak multiply-add rate (`support/peak_fma.rs`) and times each
//! step once more (median of its own runs), to print the step's matrix-product FLOP, its rate,
//! and its ratio to the floor: the time those FLOP take at the peak, on the machine at hand.
//! Last, the batch-64 step with the activations recorded in bfloat16 (`--tape bf16` of the
//! example) against the step as written, in interleaved rounds, with both tapes' sizes.
//!
//! ```sh
//! cargo bench --bench gpt
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::runtime::cpu::{MAX_ISA_VAR, vector_path};
use stackgrad::runtime::data::{bundled, fill_windows};

#[allow(dead_code)] // the example uses the rest
#[path = "../examples/shakespeare_gpt/model.rs"]
mod model;

use model::{B, Bf16Tape, C, F, GptLossBf16Tape, GptLossTape, GptTrainer, L, R, T, Trainer, V};

#[path = "support/peak_fma.rs"]
mod peak_fma;

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

/// The FLOP (two per multiply-add) of the matrix products of one step over `rows` rows: per
/// layer q, k, v and the attention output (`C -> C`) and the feed-forward pair (`C -> F -> C`),
/// then the output layer (`C -> V`); each forward product has two of the same size in the
/// reverse sweep (the input's and the weights' cotangents). 132.2 MFLOP at batch 64.
fn matmul_flops(rows: usize) -> f64 {
    let forward = 2 * rows * (L * (4 * C * C + 2 * C * F) + C * V);
    (3 * forward) as f64
}

/// Median time of `GptTrainer::<NB, NR>::step` over `runs` steps (after as many to warm up),
/// printed with its rate and its ratio to the floor at `peak`.
fn step_against_peak<const NB: usize, const NR: usize>(runs: usize, peak: &peak_fma::Peak) {
    let batches = sample_batches::<NB, NR>(1337);
    let mut trainer = GptTrainer::<NB, NR>::new(1337);
    let mut times: Vec<f64> = (0..2 * runs)
        .map(|i| {
            let (x, y) = &batches[i % BATCHES];
            let start = std::time::Instant::now();
            black_box(trainer.step(black_box(x), black_box(y)));
            start.elapsed().as_secs_f64()
        })
        .skip(runs)
        .collect();
    times.sort_by(f64::total_cmp);
    let median = times[runs / 2];
    let flops = matmul_flops(NR);
    let floor = flops / (peak.gflops * 1e9);
    println!(
        "train_step_{NB}: median {:.1} µs; matrix products {:.1} MFLOP, {:.1} GFLOP/s; \
         floor at peak {:.1} µs; step / floor = {:.2}x",
        median * 1e6,
        flops / 1e6,
        flops / median / 1e9,
        floor * 1e6,
        median / floor,
    );
}

/// Interleaved rounds of the bf16-tape step against the f32 one, and steps of each per timing.
const TAPE_ROUNDS: usize = 9;
const TAPE_STEPS: usize = 20;

/// The batch-64 step with its activations recorded in bfloat16 against the step as written:
/// each round times `TAPE_STEPS` steps of f32, bf16, bf16, f32 (a drift within a round cancels);
/// every round's ratio is printed, then the median.
fn bf16_tape_against_f32() {
    let batches = sample_batches::<B, R>(1337);
    let mut f32_tape = Trainer::new(1337);
    let mut bf16_tape = Trainer::new(1337).with_sharded_loss(Box::new(Bf16Tape::<R>::new()));
    let mut next = 0;
    let mut time = |trainer: &mut Trainer| {
        let start = std::time::Instant::now();
        for _ in 0..TAPE_STEPS {
            let (x, y) = &batches[next % BATCHES];
            next += 1;
            black_box(trainer.step(black_box(x), black_box(y)));
        }
        start.elapsed().as_secs_f64() / TAPE_STEPS as f64
    };
    time(&mut f32_tape);
    time(&mut bf16_tape);
    let mut ratios: Vec<f64> = (0..TAPE_ROUNDS)
        .map(|round| {
            let (a1, b1, b2, a2) = (
                time(&mut f32_tape),
                time(&mut bf16_tape),
                time(&mut bf16_tape),
                time(&mut f32_tape),
            );
            let ratio = (b1 + b2) / (a1 + a2);
            println!(
                "tape round {round}: f32 {:.0} µs, bf16 {:.0} µs, bf16 / f32 {ratio:.3}",
                (a1 + a2) / 2.0 * 1e6,
                (b1 + b2) / 2.0 * 1e6
            );
            ratio
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "train_step_64 with a bf16 tape / with an f32 tape: median of {TAPE_ROUNDS} interleaved \
         rounds {:.3} (lowest {:.3}, highest {:.3}); tapes {} and {} bytes",
        ratios[TAPE_ROUNDS / 2],
        ratios[0],
        ratios[TAPE_ROUNDS - 1],
        GptLossBf16Tape::<R>::BYTES,
        GptLossTape::<R>::BYTES,
    );
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
            let peak = peak_fma::measure(vector_path().name());
            println!(
                "peak multiply-add rate of this core: {:.1} GFLOP/s ({}; {MAX_ISA_VAR}: {})",
                peak.gflops,
                peak.isa,
                std::env::var(MAX_ISA_VAR).unwrap_or_else(|_| "not set".into())
            );
            step_against_peak::<64, { 64 * T }>(200, &peak);
            step_against_peak::<1, T>(2000, &peak);
            bf16_tape_against_f32();
        })
        .expect("spawn the benchmark thread")
        .join()
        .expect("the benchmark thread panicked");
}
