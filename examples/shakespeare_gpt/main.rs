//! A miniature GPT trained on tiny-shakespeare, character by character: BurTorch's "GPT-3 like"
//! workload. Vocabulary 65, context 8, embedding 24, 6 heads of size 4, 6 layers, pre-LayerNorm,
//! feed-forward 96 with ReLU, final LayerNorm, batch 64, AdamW (lr 1e-3), single thread.
//!
//! The whole loss, from token ids to the mean cross-entropy, is one `#[differentiable]` function
//! (`gpt_loss` in `model.rs`); its gradient with respect to every parameter is generated at compile time and
//! calls the hand-written adjoints of the `nn` kernels.
//!
//! ```sh
//! cargo run --release --example shakespeare_gpt            # 3000 steps
//! cargo run --release --example shakespeare_gpt -- 300     # a shorter run
//! cargo run --release --example shakespeare_gpt -- --tape-report  # what the tape keeps
//! ```
//!
//! Prints the train and validation loss every 100 steps, then 500 generated characters; writes
//! `target/shakespeare_gpt/loss.svg` and `target/shakespeare_gpt/gpt.safetensors`.

use std::error::Error;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stackgrad::Parameters;
use stackgrad::runtime::checkpoint;
use stackgrad::runtime::data::{bundled, fill_windows};
use stackgrad::runtime::tape::TapeReport;
use stackgrad::runtime::train::{Progress, RunningMean, plot_losses};

mod model;

use model::{B, Gpt, GptLogitsTape, GptLossTape, R, T, Trainer, V, gpt_logits, gpt_loss};

/// A batch of `B` random windows of `T + 1` characters, as rows of inputs and targets.
fn batch(tokens: &[u16], rng: &mut SmallRng) -> Result<([usize; R], [usize; R]), Box<dyn Error>> {
    let (mut x, mut y) = ([[0usize; T]; B], [[0usize; T]; B]);
    fill_windows(tokens, &mut x, &mut y, rng)?;
    Ok((
        *x.as_flattened().first_chunk().unwrap(),
        *y.as_flattened().first_chunk().unwrap(),
    ))
}

/// Mean loss over `batches` random batches, without gradients.
fn evaluate(
    p: &Gpt,
    tokens: &[u16],
    batches: usize,
    rng: &mut SmallRng,
) -> Result<f32, Box<dyn Error>> {
    let mut mean = RunningMean::default();
    for _ in 0..batches {
        let (x, y) = batch(tokens, rng)?;
        mean.push(f64::from(gpt_loss::<R>(p, &x, &y)));
    }
    Ok(mean.mean().unwrap_or(f64::NAN) as f32)
}

/// Mean loss over every non-overlapping window of `tokens`, in full batches, in order: a
/// deterministic measure (the PyTorch reference computes the same windows).
fn evaluate_all(p: &Gpt, tokens: &[u16]) -> f32 {
    let starts: Vec<usize> = (0..tokens.len().saturating_sub(T)).step_by(T).collect();
    let batches = starts.len() / B;
    let mut total = 0.0;
    for chunk in starts.chunks_exact(B) {
        let (mut x, mut y) = ([0usize; R], [0usize; R]);
        for (b, &s) in chunk.iter().enumerate() {
            for t in 0..T {
                x[b * T + t] = usize::from(tokens[s + t]);
                y[b * T + t] = usize::from(tokens[s + t + 1]);
            }
        }
        total += f64::from(gpt_loss::<R>(p, &x, &y));
    }
    (total / batches.max(1) as f64) as f32
}

/// Samples `n` characters after `context`, one at a time from the softmax of the last logits.
fn generate(p: &Gpt, context: &[usize; T], n: usize, rng: &mut SmallRng) -> Vec<u16> {
    let mut window = *context;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let logits = gpt_logits::<T>(p, &window);
        let last = &logits[T - 1];
        let max = last.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f32> = last.iter().map(|&z| (z - max).exp()).collect();
        let mut u = rng.r#gen::<f32>() * weights.iter().sum::<f32>();
        let mut next = V - 1;
        for (i, w) in weights.iter().enumerate() {
            if u < *w {
                next = i;
                break;
            }
            u -= w;
        }
        out.push(u16::try_from(next).expect("V < 65536"));
        window.rotate_left(1);
        window[T - 1] = next;
    }
    out
}

fn run(steps: usize) -> Result<(), Box<dyn Error>> {
    let corpus = bundled::tinyshakespeare(bundled::data_dir().join("tinyshakespeare/input.txt"))?;
    assert_eq!(
        corpus.vocab().len(),
        V,
        "tiny-shakespeare has 65 distinct characters"
    );
    let (train, val) = corpus.split(0.9);
    let mut rng = SmallRng::seed_from_u64(1337);
    let mut trainer = Trainer::new(1337);
    println!(
        "gpt: {} parameters, tape {} KiB, {} steps of batch {B} x context {T}",
        Gpt::COUNT,
        GptLossTape::<R>::BYTES / 1024,
        steps
    );
    let progress = Progress::new(steps as u64, "train");
    let (mut train_curve, mut val_curve) = (Vec::new(), Vec::new());
    let mut window = RunningMean::default();
    let start = Instant::now();
    for step in 1..=steps {
        let (x, y) = batch(train, &mut rng)?;
        let loss = trainer.step(&x, &y);
        window.push(f64::from(loss));
        progress.step(f64::from(loss));
        if step % 100 == 0 || step == steps {
            let val_loss = evaluate(&trainer.params, val, 10, &mut rng)?;
            let train_loss = window.mean().unwrap_or(f64::NAN);
            window.reset();
            progress.println(&format!(
                "step {step:5}  train {train_loss:.4}  val {val_loss:.4}  ({:.1} ms/step)",
                start.elapsed().as_secs_f64() * 1e3 / step as f64
            ));
            train_curve.push(train_loss);
            val_curve.push(f64::from(val_loss));
        }
    }
    progress.finish();
    let final_val = evaluate_all(&trainer.params, val);
    let out_dir = std::path::Path::new("target/shakespeare_gpt");
    std::fs::create_dir_all(out_dir)?;
    plot_losses(
        out_dir.join("loss.svg"),
        "tiny-shakespeare GPT: loss every 100 steps",
        &[("train", &train_curve), ("validation", &val_curve)],
    )?;
    checkpoint::save(&trainer.params, out_dir.join("gpt.safetensors"))?;
    let context: [usize; T] = core::array::from_fn(|t| usize::from(val[t]));
    let text = corpus.decode(&generate(&trainer.params, &context, 500, &mut rng))?;
    println!("---\n{}{text}\n---", corpus.decode(&val[..T])?);
    println!(
        "result: {steps} steps in {:.1} s, final validation loss {final_val:.4} (every window of the held-out text)",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let steps = match std::env::args().nth(1).as_deref() {
        Some("--tape-report") => {
            // What the reverse sweep of one training step keeps, field by field.
            println!(
                "{}",
                TapeReport::new(
                    "GptLossTape<512>",
                    GptLossTape::<R>::FIELDS,
                    GptLossTape::<R>::BYTES
                )
            );
            println!(
                "{}",
                TapeReport::new(
                    "GptLogitsTape<512>",
                    GptLogitsTape::<R>::FIELDS,
                    GptLogitsTape::<R>::BYTES
                )
            );
            return Ok(());
        }
        Some(s) => s.parse()?,
        None => 3000,
    };
    // The tape of a batch of 64 lives on the heap; the forward and reverse sweeps keep their
    // activations (a few MiB) in their stack frames, so run them on a thread with room for it.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(steps).map_err(|e| e.to_string()))?;
    worker.join().map_err(|_| "training thread panicked")??;
    Ok(())
}
