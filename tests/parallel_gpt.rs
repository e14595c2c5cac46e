//! The example GPT's step over threads (`--threads` of `examples/shakespeare_gpt`): the same bits
//! on every run for a given thread count, and losses within float rounding of one thread's.

use stackgrad::Parameters;

mod gpt_batches;
#[path = "../examples/shakespeare_gpt/model.rs"]
#[allow(dead_code, reason = "the example's model; these tests use part of it")]
mod model;
use gpt_batches::batches;

use model::{B, R, T, Trainer};

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
    let data = batches::<T, B, R>(steps);
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
