//! A multilayer perceptron (64 pixels, 64 ReLU units, 10 classes) on the bundled 8x8 handwritten
//! digits, trained with Adam on mini-batches of 32; a seeded 20 % of the images is held out for
//! testing.
//!
//! The loss is a `#[differentiable(wrt(p))]` function of the parameter struct (`mlp_loss` in
//! `model.rs`); testing calls the plain primal `mlp_logits`, which records nothing.
//!
//! ```sh
//! cargo run --release --example digits_mlp              # 20 epochs
//! cargo run --release --example digits_mlp -- 5         # fewer (or --epochs 5)
//! cargo run --release --example digits_mlp -- --help    # every option
//! ```
//!
//! Prints the training loss and the test loss and accuracy after every epoch, then a `result:`
//! line; writes `loss.svg` and `mlp.safetensors` under `--out` (`target/digits_mlp`) and prints
//! their paths.

use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use stackgrad::Parameters;
use stackgrad::runtime::checkpoint;
use stackgrad::runtime::data::{BatchLoader, Dataset, LastBatch, bundled};
use stackgrad::runtime::nn;
use stackgrad::runtime::train::{Accuracy, Progress, RunningMean, plot_loss_curves};

mod model;

use model::{BATCH, CLASSES, Mlp, PIXELS, Trainer, mlp_logits};

/// The rows of `data` at `rows`, in that order.
fn select(data: &Dataset, rows: &[usize]) -> Dataset {
    let mut features = Vec::with_capacity(rows.len() * data.n_features);
    for &i in rows {
        features.extend_from_slice(data.row(i).expect("row index in range"));
    }
    Dataset {
        features,
        labels: rows.iter().map(|&i| data.labels[i]).collect(),
        n_features: data.n_features,
        n_classes: data.n_classes,
        class_names: data.class_names.clone(),
    }
}

/// A random `test_fraction` of the rows for testing and the rest for training, drawn from `seed`.
fn split(data: &Dataset, test_fraction: f64, seed: u64) -> (Dataset, Dataset) {
    let mut rows: Vec<usize> = (0..data.len()).collect();
    rows.shuffle(&mut SmallRng::seed_from_u64(seed));
    let n_test = (data.len() as f64 * test_fraction).round() as usize;
    (select(data, &rows[n_test..]), select(data, &rows[..n_test]))
}

/// Mean loss and accuracy over every row of `data`, from the primal (no tape).
fn evaluate(p: &Mlp, data: &Dataset) -> Result<(f64, f64), Box<dyn Error>> {
    let mut loader = BatchLoader::<PIXELS, BATCH>::new(data, LastBatch::Pad)?;
    let (mut x, mut y) = ([[0.0; PIXELS]; BATCH], [0; BATCH]);
    let (mut loss, mut accuracy) = (RunningMean::default(), Accuracy::default());
    while let Some(real) = loader.next_batch(&mut x, &mut y) {
        let logits = mlp_logits::<BATCH>(p, &x);
        for (row, &label) in logits.iter().zip(&y).take(real) {
            loss.push(f64::from(nn::cross_entropy::<1, CLASSES>(
                &[*row],
                &[label],
            )));
            accuracy.push_logits(row, label);
        }
    }
    Ok((
        loss.mean().unwrap_or(f64::NAN),
        accuracy.fraction().unwrap_or(0.0),
    ))
}

/// Train a 64-64-10 MLP on the bundled 8x8 digits with Adam, then test it.
#[derive(Parser, Debug)]
struct Args {
    /// Epochs (the same as --epochs).
    #[arg(value_name = "EPOCHS", conflicts_with = "epochs")]
    positional_epochs: Option<usize>,
    /// Epochs over the training images; 0 only tests the initial model.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Seed of the initial parameters (the held-out split and the shuffles have their own).
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 3e-3, value_parser = learning_rate)]
    lr: f64,
    /// Directory for loss.svg and mlp.safetensors (created if missing).
    #[arg(long, value_name = "DIR", default_value = "target/digits_mlp")]
    out: PathBuf,
}

/// A learning rate Adam accepts: finite and positive.
fn learning_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(lr) if lr.is_finite() && lr > 0.0 => Ok(lr),
        Ok(_) => Err(format!("`{text}` is not a positive, finite learning rate")),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = Args::parse();
    let epochs = args.positional_epochs.unwrap_or(args.epochs);
    let start = Instant::now();
    let mut digits = bundled::digits(bundled::data_dir().join("digits/digits.csv"))?;
    // Pixels are 0 to 16; scale them to [0, 1].
    digits.features.iter_mut().for_each(|v| *v /= 16.0);
    let (train, test) = split(&digits, 0.2, 7);
    println!(
        "digits: {} training and {} test images; mlp {PIXELS}-{}-{CLASSES}, {} parameters",
        train.len(),
        test.len(),
        model::HIDDEN,
        Mlp::COUNT
    );

    let mut trainer = Trainer::new(args.seed, args.lr);
    let mut loader = BatchLoader::<PIXELS, BATCH>::new(&train, LastBatch::Drop)?;
    let mut rng = SmallRng::seed_from_u64(1);
    let progress = Progress::new((epochs * loader.batches_per_epoch()) as u64, "train");
    let (mut train_curve, mut test_curve) = (Vec::new(), Vec::new());
    let (mut x, mut y) = ([[0.0; PIXELS]; BATCH], [0; BATCH]);
    for epoch in 1..=epochs {
        loader.shuffle(&mut rng);
        let mut train_loss = RunningMean::default();
        while loader.next_batch(&mut x, &mut y).is_some() {
            let loss = trainer.step(&x, &y);
            train_loss.push(f64::from(loss));
            progress.step(f64::from(loss));
        }
        let train_loss = train_loss.mean().unwrap_or(f64::NAN);
        let (test_loss, test_accuracy) = evaluate(&trainer.params, &test)?;
        progress.println(&format!(
            "epoch {epoch:3}  train loss {train_loss:.4}  test loss {test_loss:.4}  test accuracy {:.2} %",
            100.0 * test_accuracy
        ));
        train_curve.push((epoch as u64, train_loss));
        test_curve.push((epoch as u64, test_loss));
    }
    progress.finish();

    let (_, accuracy) = evaluate(&trainer.params, &test)?;
    let out_dir = args.out.as_path();
    std::fs::create_dir_all(out_dir)?;
    if train_curve.is_empty() {
        println!("no epochs: no loss curve to plot");
    } else {
        plot_loss_curves(
            out_dir.join("loss.svg"),
            "8x8 digits MLP: loss per epoch",
            "epoch",
            &[
                ("train (mean over the epoch)", &train_curve),
                ("test", &test_curve),
            ],
        )?;
    }
    let path = out_dir.join("mlp.safetensors");
    checkpoint::save(&trainer.params, &path)?;
    let reloaded: Mlp = checkpoint::load(&path)?;
    assert_eq!(
        evaluate(&reloaded, &test)?.1,
        accuracy,
        "checkpoint round trip"
    );
    if !train_curve.is_empty() {
        println!("wrote {}", out_dir.join("loss.svg").display());
    }
    println!("wrote {}", path.display());
    println!(
        "result: {:.2} % test accuracy ({} images) after {epochs} epochs in {:.2} s",
        100.0 * accuracy,
        test.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(["digits_mlp"].iter().chain(args))
    }

    #[test]
    fn options() {
        let args = parse(&[]).unwrap();
        assert_eq!((args.epochs, args.seed, args.lr), (20, 42, 3e-3));
        assert_eq!(parse(&["5"]).unwrap().positional_epochs, Some(5));
        assert_eq!(parse(&["--epochs", "3", "--lr", "0.01"]).unwrap().lr, 0.01);
        assert!(parse(&["--lr", "-1"]).is_err());
        assert!(parse(&["4", "--epochs", "3"]).is_err());
        assert_eq!(parse(&["--help"]).unwrap_err().exit_code(), 0);
    }
}
