//! `genprog`: generates random programs in the `#[differentiable]` language, builds them (in a crate
//! per core), runs every generated gradient against finite differences, and reports per function.
//!
//! ```sh
//! cargo run -p genprog --release -- --seed 1 --count 300
//! ```
//!
//! Exits with 1 when a program fails to compile or a check fails, 2 when the run itself cannot
//! proceed (bad arguments, the generated crate cannot be built for another reason).

mod ast;
mod driver;
mod features;
mod generate;
mod harness;
mod vecs;

use clap::Parser;
use features::{Feature, Features};
use std::path::PathBuf;
use std::process::ExitCode;

/// Random programs in the `#[differentiable]` language, each gradient checked against finite
/// differences of a plain-f64 twin.
#[derive(Parser, Debug)]
#[command(name = "genprog")]
struct Cli {
    /// Seed of the generator: one seed gives the same programs on every run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many programs to generate.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Random points per program.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    points: u64,
    /// Where the generated crate is written (default: target/genprog/SEED).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Generate only these constructs (comma-separated; `--features` lists them).
    #[arg(long, value_name = "F1,F2")]
    only: Option<String>,
    /// Leave these constructs out (comma-separated).
    #[arg(long, value_name = "F1,F2")]
    exclude: Option<String>,
    /// Build against this copy of the stackgrad workspace (the mutation check in README).
    #[arg(long, value_name = "DIR")]
    stackgrad: Option<PathBuf>,
    /// Print only failures and the summary.
    #[arg(long)]
    quiet: bool,
    /// List the constructs the generator knows, then exit.
    #[arg(long)]
    features: bool,
}

fn parse() -> Result<Option<driver::Options>, String> {
    let cli = Cli::parse();
    if cli.features {
        for f in Feature::ALL {
            println!("{:14} {}", f.name(), f.doc());
        }
        return Ok(None);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("genprog sits in the workspace")
        .to_path_buf();
    let mut features = match &cli.only {
        Some(names) => Features::only(names)?,
        None => Features::all(),
    };
    if let Some(names) = &cli.exclude {
        features = features.exclude(names)?;
    }
    Ok(Some(driver::Options {
        seed: cli.seed,
        count: cli.count as usize,
        points: cli.points as usize,
        out: cli.out,
        features,
        quiet: cli.quiet,
        stackgrad: cli.stackgrad.unwrap_or_else(|| root.clone()),
        root,
    }))
}

fn main() -> ExitCode {
    let options = match parse() {
        Ok(Some(options)) => options,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("genprog: {e}");
            return ExitCode::from(2);
        }
    };
    match driver::run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("genprog: {e}");
            ExitCode::from(2)
        }
    }
}
