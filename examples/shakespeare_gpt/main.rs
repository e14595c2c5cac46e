//! A miniature GPT trained on tiny-shakespeare, character by character: BurTorch's "GPT-3 like"
//! workload. Vocabulary 65, context 8, embedding 24, 6 heads of size 4, 6 layers, pre-LayerNorm,
//! feed-forward 96 with ReLU, final LayerNorm, batch 64, AdamW (lr 1e-3), on one thread by default.
//!
//! The whole loss, from token ids to the mean cross-entropy, is one `#[differentiable]` function
//! (`gpt_loss` in `model.rs`); its gradient with respect to every parameter is generated at compile time and
//! calls the hand-written adjoints of the `nn` kernels.
//!
//! ```sh
//! cargo run --release --example shakespeare_gpt                 # 3000 steps
//! cargo run --release --example shakespeare_gpt -- 300          # a shorter run (or --steps 300)
//! cargo run --release --example shakespeare_gpt -- --tape-report  # what the tape keeps
//! cargo run --release --example shakespeare_gpt -- --threads 2  # each batch in 2 shards of 32
//! cargo run --release --example shakespeare_gpt -- --tape bf16  # activations on the tape in bfloat16
//! cargo run --release --example shakespeare_gpt -- --help       # every option
//! # 300 steps, then on to 600 from the saved state: the same bits as 600 steps in one go
//! cargo run --release --example shakespeare_gpt -- 300
//! cargo run --release --example shakespeare_gpt -- 600 --resume target/shakespeare_gpt/train_state.safetensors
//! ```
//!
//! Prints the train and validation loss every 100 steps, then 500 generated characters; writes
//! under `--out` (`target/shakespeare_gpt`) and prints the paths of: `loss.svg` (the mean training
//! loss of each 100 steps and the validation loss, against the step number), `gpt.safetensors`
//! (the parameters only, by their names, as before: `checkpoint::load::<Gpt>` or PyTorch's
//! `safetensors` read it) and `train_state.safetensors` (a `checkpoint::TrainState`: parameters,
//! AdamW's moments, step count and learning rate, the step, the generator and the loss curves).
//!
//! Every random draw (batches, evaluation batches, sampling) comes from one
//! `checkpoint::ResumableRng`, the generator of `SmallRng` with a state that can be saved, so a
//! resumed run continues bit for bit. The one draw that would break this, the validation loss of
//! a last step that is not a multiple of 100, is taken from a copy of the generator.
//!
//! There is no `--batch`: the batch size is the const `B` of `model.rs`, because the tape of the
//! training step (`GptLossTape<{B * T}>`) and its arrays are sized at compile time.
//!
//! `--threads N` (1, 2, 4 or 8) splits every batch into `N` shards of `B / N` sequences, each with
//! its own tape (`GptLossTape<{B / N * T}>`) on its own thread, and sums the shard gradients in
//! shard order (`stackgrad::runtime::parallel`): a run with a given `N` gives the same bits every
//! time, and the same losses as one thread within float rounding.
//!
//! Built with `--features mpi` and run under `mpirun -np P` (P = 1, 2, 4 or 8), every rank draws
//! the same batches from the same seed and computes `B / P` sequences of each; an MPI allreduce
//! sums the gradients (`ranks.rs`, `stackgrad::runtime::distributed`). The ranks check that their
//! parameters agree after the first step; rank 0 alone prints and writes the files.
//!
//! ```sh
//! mpirun -np 2 --oversubscribe cargo run --release --features mpi --example shakespeare_gpt -- --steps 300
//! ```

use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, ValueEnum};

use rand::{Rng, SeedableRng};
use stackgrad::Parameters;
use stackgrad::runtime::checkpoint::{self, ResumableRng, TrainState};
use stackgrad::runtime::cpu::vector_path;
use stackgrad::runtime::data::{bundled, fill_windows};
use stackgrad::runtime::optim::{AdamW, AdamWConfig};
use stackgrad::runtime::tape::TapeReport;
use stackgrad::runtime::train::{Progress, RunningMean, plot_loss_curves};

mod model;
#[cfg(feature = "mpi")]
mod ranks;

use model::{
    B, Bf16Tape, Gpt, GptLogitsBf16Tape, GptLogitsTape, GptLossBf16Tape, GptLossTape, R, T,
    Trainer, V, gpt_logits, gpt_loss,
};

/// Train a miniature GPT on tiny-shakespeare, then generate 500 characters.
#[derive(Parser, Debug, Clone, PartialEq)]
#[command(
    allow_negative_numbers = true,
    after_help = "The batch size (64 sequences of 8 characters) is fixed at compile time: the \
                  training step's tape is sized by it (`B` in examples/shakespeare_gpt/model.rs)."
)]
struct Args {
    /// Training steps (the same as --steps).
    #[arg(value_name = "STEPS", conflicts_with = "steps")]
    positional_steps: Option<usize>,
    /// Training steps in all (counting those of a --resume checkpoint); 0 only evaluates and
    /// generates from the initial model.
    #[arg(long, default_value_t = 3000)]
    steps: usize,
    /// Seed of the initial parameters, the batches and the sampling.
    #[arg(long, default_value_t = 1337)]
    seed: u64,
    /// AdamW learning rate (PyTorch's other defaults: betas 0.9, 0.999, weight decay 0.01).
    #[arg(long, default_value_t = 1e-3, value_parser = learning_rate)]
    lr: f64,
    /// Directory for loss.svg, gpt.safetensors and train_state.safetensors (created if missing).
    #[arg(long, value_name = "DIR", default_value = "target/shakespeare_gpt")]
    out: PathBuf,
    /// Continue the run saved in FILE (a train_state.safetensors) up to --steps: the parameters,
    /// the optimizer (its learning rate included), the generator and the loss curves come from
    /// FILE, so --seed and --lr are not used.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Print what the training step's tape keeps, field by field, and exit.
    #[arg(long)]
    tape_report: bool,
    /// Threads of a training step: the batch is split into this many shards (1, 2, 4 or 8).
    #[arg(long, default_value_t = 1, value_parser = thread_count)]
    threads: usize,
    /// How the tape keeps the six activations per block the reverse sweep reads: in f32, or in
    /// bf16 (half their bytes, gradients of the values rounded; on one thread).
    #[arg(long, value_enum, default_value_t = TapeKind::F32)]
    tape: TapeKind,
}

/// The tape of a training step: the model as written ([`gpt_loss`]) or with its activations
/// recorded in bfloat16 ([`model::gpt_loss_bf16`]).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum TapeKind {
    F32,
    Bf16,
}

impl Args {
    /// The number of training steps, given either way.
    fn steps(&self) -> usize {
        self.positional_steps.unwrap_or(self.steps)
    }
}

/// A learning rate AdamW accepts.
fn learning_rate(text: &str) -> Result<f64, String> {
    let lr: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    AdamWConfig {
        lr,
        ..AdamWConfig::default()
    }
    .validate()
    .map_err(|e| e.to_string())?;
    Ok(lr)
}

/// A thread count the batch splits into: the shard tapes are sized at compile time.
fn thread_count(text: &str) -> Result<usize, String> {
    match text.parse() {
        Ok(n @ (1 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("`{text}`: expected 1, 2, 4 or 8")),
    }
}

/// A batch of `B` random windows of `T + 1` characters, as rows of inputs and targets.
fn batch(
    tokens: &[u8],
    rng: &mut ResumableRng,
) -> Result<([usize; R], [usize; R]), Box<dyn Error>> {
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
    tokens: &[u8],
    batches: usize,
    rng: &mut ResumableRng,
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
fn evaluate_all(p: &Gpt, tokens: &[u8]) -> f32 {
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
fn generate(p: &Gpt, context: &[usize; T], n: usize, rng: &mut ResumableRng) -> Vec<u8> {
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
        out.push(u8::try_from(next).expect("V <= 256"));
        window.rotate_left(1);
        window[T - 1] = next;
    }
    out
}

/// Steps between two reports and points of the loss curves.
const EVERY: usize = 100;

/// Where a run is: what `train_state.safetensors` keeps besides the trainer.
struct Run {
    /// Steps taken.
    step: usize,
    /// The generator of every random draw.
    rng: ResumableRng,
    /// `(step, mean training loss of the steps since the previous point)`.
    train_curve: Vec<(u64, f64)>,
    /// `(step, validation loss)`.
    val_curve: Vec<(u64, f64)>,
    /// The training losses since the last point of the curves.
    window: Vec<f64>,
}

impl Run {
    /// Saves the trainer and the run to `path`.
    fn save(
        &self,
        params: &Gpt,
        opt: &AdamW<Gpt>,
        path: &std::path::Path,
    ) -> Result<(), checkpoint::CheckpointError> {
        let mut state = TrainState::new(self.step as u64);
        state.insert_params(params);
        state.insert_optimizer(opt);
        state.insert_rng("rng", &self.rng);
        let unzip =
            |curve: &[(u64, f64)]| -> (Vec<u64>, Vec<f64>) { curve.iter().copied().unzip() };
        let (train_steps, train_losses) = unzip(&self.train_curve);
        let (val_steps, val_losses) = unzip(&self.val_curve);
        state.insert_u64s("train_curve.step", &train_steps);
        state.insert_f64s("train_curve.loss", &train_losses);
        state.insert_u64s("val_curve.step", &val_steps);
        state.insert_f64s("val_curve.loss", &val_losses);
        state.insert_f64s("window", &self.window);
        state.save(path)
    }

    /// Restores the trainer and the run from `path`.
    fn load(trainer: &mut Trainer, path: &std::path::Path) -> Result<Self, Box<dyn Error>> {
        let state = TrainState::load(path)?;
        state.restore_params(&mut *trainer.params)?;
        state.restore_optimizer(&mut *trainer.opt)?;
        let curve = |name: &str| -> Result<Vec<(u64, f64)>, Box<dyn Error>> {
            let steps = state.u64s(&format!("{name}.step"))?;
            let losses = state.f64s(&format!("{name}.loss"))?;
            if steps.len() != losses.len() {
                return Err(format!(
                    "{}: `{name}` has {} steps and {} losses",
                    path.display(),
                    steps.len(),
                    losses.len()
                )
                .into());
            }
            // A point off the grid ended a run; the continued run has its own points.
            Ok(steps
                .into_iter()
                .zip(losses)
                .filter(|(s, _)| s.is_multiple_of(EVERY as u64))
                .collect())
        };
        Ok(Run {
            step: usize::try_from(state.step())?,
            rng: state.rng("rng")?,
            train_curve: curve("train_curve")?,
            val_curve: curve("val_curve")?,
            window: state.f64s("window")?,
        })
    }
}

fn run(args: &Args) -> Result<(), Box<dyn Error>> {
    // MPI is initialized on this thread, the one that trains.
    #[cfg(feature = "mpi")]
    let cluster = stackgrad::runtime::distributed::Cluster::init()?;
    #[cfg(feature = "mpi")]
    let root = cluster.is_root();
    #[cfg(not(feature = "mpi"))]
    let root = true;
    let steps = args.steps();
    let corpus = bundled::tinyshakespeare(bundled::data_dir().join("tinyshakespeare/input.txt"))?;
    assert_eq!(
        corpus.vocab().len(),
        V,
        "tiny-shakespeare has 65 distinct characters"
    );
    let (train, val) = corpus.split(0.9);
    let trainer = Trainer::with_lr(args.seed, args.lr)?;
    let trainer = match args.tape {
        TapeKind::F32 => trainer.with_threads(args.threads)?,
        TapeKind::Bf16 if args.threads == 1 => {
            trainer.with_sharded_loss(Box::new(Bf16Tape::<R>::new()))
        }
        TapeKind::Bf16 => return Err("--tape bf16 runs on one thread: leave out --threads".into()),
    };
    #[cfg(feature = "mpi")]
    if args.tape == TapeKind::Bf16 && cluster.size() > 1 {
        return Err("--tape bf16 runs in one process: start it without mpirun".into());
    }
    #[cfg(feature = "mpi")]
    let (trainer, communication) = ranks::with_ranks(trainer, &cluster)?;
    let mut trainer = trainer;
    #[cfg(feature = "mpi")]
    let workers = match cluster.size() {
        1 => format!("{} thread(s)", trainer.threads()),
        ranks => format!("{ranks} MPI ranks"),
    };
    #[cfg(not(feature = "mpi"))]
    let workers = format!("{} thread(s)", trainer.threads());
    let mut run = match &args.resume {
        Some(path) => {
            let run = Run::load(&mut trainer, path)?;
            if run.step > steps {
                return Err(format!(
                    "{} is at step {}, beyond --steps {steps}",
                    path.display(),
                    run.step
                )
                .into());
            }
            if root {
                println!("resumed from {} at step {}", path.display(), run.step);
            }
            run
        }
        None => Run {
            step: 0,
            rng: ResumableRng::seed_from_u64(args.seed),
            train_curve: Vec::new(),
            val_curve: Vec::new(),
            window: Vec::new(),
        },
    };
    let first = run.step;
    if root {
        println!(
            "gpt: {} parameters, tape {} KiB, {} kernels, {} steps of batch {B} x context {T} \
             on {workers}",
            Gpt::COUNT,
            GptLossTape::<R>::BYTES / 1024,
            vector_path(),
            steps,
        );
    }
    // The other ranks show no bar.
    let progress = Progress::new(if root { (steps - first) as u64 } else { 0 }, "train");
    let start = Instant::now();
    for step in first + 1..=steps {
        let (x, y) = batch(train, &mut run.rng)?;
        let loss = trainer.step(&x, &y);
        #[cfg(feature = "mpi")]
        if step == first + 1 {
            cluster.check_agree(&*trainer.params)?;
        }
        run.step = step;
        run.window.push(f64::from(loss));
        if root {
            progress.step(f64::from(loss));
        }
        let on_grid = step.is_multiple_of(EVERY);
        if on_grid || step == steps {
            // Off the grid (a last step that is not a multiple of EVERY), the evaluation draws
            // from a copy, and the window goes on: a resumed run continues as if it had not
            // stopped.
            let val_loss = if on_grid {
                evaluate(&trainer.params, val, 10, &mut run.rng)?
            } else {
                evaluate(&trainer.params, val, 10, &mut run.rng.clone())?
            };
            let train_loss = run.window.iter().sum::<f64>() / run.window.len() as f64;
            if on_grid {
                run.window.clear();
            }
            if root {
                progress.println(&format!(
                    "step {step:5}  train {train_loss:.4}  val {val_loss:.4}  ({:.1} ms/step)",
                    start.elapsed().as_secs_f64() * 1e3 / (step - first) as f64
                ));
            }
            run.train_curve.push((step as u64, train_loss));
            run.val_curve.push((step as u64, f64::from(val_loss)));
        }
    }
    progress.finish();
    #[cfg(feature = "mpi")]
    if cluster.size() > 1 {
        // Every rank's, as each waits for the others in its allreduces.
        let (spent, total) = (communication.time(), start.elapsed());
        println!(
            "rank {}: {:.2} s of {:.2} s in the allreduces ({:.1} %, {:.2} ms/step)",
            cluster.rank(),
            spent.as_secs_f64(),
            total.as_secs_f64(),
            100.0 * spent.as_secs_f64() / total.as_secs_f64(),
            spent.as_secs_f64() * 1e3 / (steps - first).max(1) as f64
        );
    }
    if !root {
        return Ok(());
    }
    let (params, opt) = trainer.into_trained();
    let final_val = evaluate_all(&params, val);
    let out_dir = &args.out;
    std::fs::create_dir_all(out_dir)?;
    let mut written = Vec::new();
    if run.train_curve.is_empty() {
        println!("no training steps: no loss curve to plot");
    } else {
        let plot = out_dir.join("loss.svg");
        plot_loss_curves(
            &plot,
            "tiny-shakespeare GPT: loss against the training step",
            "step",
            &[
                ("train (mean of the last 100 steps)", &run.train_curve),
                ("validation (10 random batches)", &run.val_curve),
            ],
        )?;
        written.push(plot);
    }
    let weights = out_dir.join("gpt.safetensors");
    checkpoint::save(&*params, &weights)?;
    written.push(weights);
    // Saved before the sampling below draws from the generator.
    let state = out_dir.join("train_state.safetensors");
    run.save(&params, &opt, &state)?;
    written.push(state);
    let context: [usize; T] = core::array::from_fn(|t| usize::from(val[t]));
    let text = corpus.decode(&generate(&params, &context, 500, &mut run.rng))?;
    println!("---\n{}{text}\n---", corpus.decode(&val[..T])?);
    let resumed = if first > 0 {
        format!(" (resumed at step {first})")
    } else {
        String::new()
    };
    println!(
        "result: {steps} steps{resumed} in {:.1} s, final validation loss {final_val:.4} (every window of the held-out text)",
        start.elapsed().as_secs_f64()
    );
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = Args::parse();
    if args.tape_report {
        // What the reverse sweep of one training step keeps, field by field.
        let [loss, logits] = match args.tape {
            TapeKind::F32 => [
                TapeReport::new(
                    "GptLossTape<512>",
                    GptLossTape::<R>::FIELDS,
                    GptLossTape::<R>::BYTES,
                ),
                TapeReport::new(
                    "GptLogitsTape<512>",
                    GptLogitsTape::<R>::FIELDS,
                    GptLogitsTape::<R>::BYTES,
                ),
            ],
            TapeKind::Bf16 => [
                TapeReport::new(
                    "GptLossBf16Tape<512>",
                    GptLossBf16Tape::<R>::FIELDS,
                    GptLossBf16Tape::<R>::BYTES,
                ),
                TapeReport::new(
                    "GptLogitsBf16Tape<512>",
                    GptLogitsBf16Tape::<R>::FIELDS,
                    GptLogitsBf16Tape::<R>::BYTES,
                ),
            ],
        };
        println!("{loss}\n{logits}");
        return Ok(());
    }
    // The tape of a batch of 64 lives on the heap; the forward and reverse sweeps keep their
    // activations (a few MiB) in their stack frames, so run them on a thread with room for it.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(&args).map_err(|e| e.to_string()))?;
    worker.join().map_err(|_| "training thread panicked")??;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(["shakespeare_gpt"].iter().chain(args))
    }

    #[test]
    fn the_command_is_well_formed() {
        Args::command().debug_assert();
    }

    #[test]
    fn help_is_a_successful_exit_listing_every_option() {
        let err = parse(&["--help"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DisplayHelp);
        assert_eq!(err.exit_code(), 0);
        let help = err.to_string();
        for option in [
            "--steps",
            "--seed",
            "--lr",
            "--out <DIR>",
            "--resume <FILE>",
            "--tape-report",
            "--threads",
            "--tape <TAPE>",
            "fixed at compile time",
        ] {
            assert!(help.contains(option), "{option} missing from:\n{help}");
        }
    }

    #[test]
    fn defaults_and_both_ways_of_giving_steps() {
        let args = parse(&[]).unwrap();
        assert_eq!((args.steps(), args.seed, args.lr), (3000, 1337, 1e-3));
        assert_eq!(args.out, PathBuf::from("target/shakespeare_gpt"));
        assert!(!args.tape_report);
        assert_eq!(args.resume, None);
        assert_eq!(args.threads, 1);
        assert_eq!(args.tape, TapeKind::F32);
        assert_eq!(parse(&["--threads", "4"]).unwrap().threads, 4);
        assert_eq!(parse(&["--tape", "bf16"]).unwrap().tape, TapeKind::Bf16);
        let args = parse(&["600", "--resume", "target/state.safetensors"]).unwrap();
        assert_eq!(args.steps(), 600);
        assert_eq!(args.resume, Some(PathBuf::from("target/state.safetensors")));
        assert_eq!(parse(&["300"]).unwrap().steps(), 300);
        assert_eq!(parse(&["--steps", "0"]).unwrap().steps(), 0);
        let args = parse(&[
            "--seed",
            "7",
            "--lr",
            "3e-4",
            "--out",
            "/tmp/x",
            "--tape-report",
        ])
        .unwrap();
        assert_eq!((args.seed, args.lr, args.tape_report), (7, 3e-4, true));
        assert_eq!(args.out, PathBuf::from("/tmp/x"));
        assert_eq!(
            parse(&["300", "--steps", "5"]).unwrap_err().kind(),
            ErrorKind::ArgumentConflict
        );
    }

    #[test]
    fn invalid_values_are_errors_with_clear_messages() {
        let err = parse(&["--lr", "-1"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ValueValidation);
        assert!(
            err.to_string()
                .contains("`lr` must be finite and non-negative, got -1"),
            "{err}"
        );
        let err = parse(&["--lr", "fast"]).unwrap_err();
        assert!(err.to_string().contains("`fast` is not a number"), "{err}");
        let err = parse(&["--steps", "-5"]).unwrap_err();
        assert!(err.to_string().contains("-5"), "{err}");
        assert_eq!(
            parse(&["--seed", "x"]).unwrap_err().kind(),
            ErrorKind::ValueValidation
        );
        let err = parse(&["--threads", "3"]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ValueValidation);
        assert!(err.to_string().contains("expected 1, 2, 4 or 8"), "{err}");
        assert_eq!(
            parse(&["--batch", "8"]).unwrap_err().kind(),
            ErrorKind::UnknownArgument
        );
    }
}
