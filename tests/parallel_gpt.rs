//! The example GPT's step over threads (`--threads` of `examples/shakespeare_gpt`): the same bits
//! on every run for a given thread count, and losses within float rounding of one thread's.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::Parameters;
use stackgrad::runtime::data::{bundled, fill_windows};

#[path = "../examples/shakespeare_gpt/model.rs"]
#[allow(dead_code, reason = "the example's model; these tests use part of it")]
mod model;

use model::{B, R, T, Trainer};

/// `n` random batches of `NB` windows of tiny-shakespeare, flattened to `NR = NB * T` rows.
fn batches<const NB: usize, const NR: usize>(n: usize) -> Vec<([usize; NR], [usize; NR])> {
    let corpus = bundled::tinyshakespeare(bundled::data_dir().join("tinyshakespeare/input.txt"))
        .expect("the bundled tiny-shakespeare");
    let (train, _) = corpus.split(0.9);
    let mut rng = SmallRng::seed_from_u64(7);
    (0..n)
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

/// Runs `f` on a thread with room for a batch's activations, as the example does.
fn on_big_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the test thread panicked")
}

/// The parameters after `steps` steps on `threads` threads, as bits, and the losses.
fn train(threads: usize, steps: usize) -> (Vec<u32>, Vec<f32>) {
    let data = batches::<B, R>(steps);
    let mut trainer = Trainer::new(1337).with_threads(threads).expect("spawn");
    let losses = data.iter().map(|(x, y)| trainer.step(x, y)).collect();
    let mut bits = Vec::new();
    trainer
        .params
        .for_each_tensor(|_, _, t| bits.extend(t.iter().map(|x| x.to_bits())));
    (bits, losses)
}

#[test]
fn threads_give_the_same_bits_every_run_and_one_threads_losses() {
    on_big_stack(|| {
        let (one, one_losses) = train(1, 2);
        for threads in [2, 4] {
            let (first, losses) = train(threads, 2);
            assert_eq!(first, train(threads, 2).0, "{threads} threads, run to run");
            for (step, (a, b)) in losses.iter().zip(&one_losses).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-5 * b.abs(),
                    "{threads} threads, step {step}: loss {a} against {b} on one thread"
                );
            }
            assert_ne!(first, one, "{threads} threads really ran sharded");
        }
    });
}
