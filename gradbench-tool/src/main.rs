//! stackgrad's tool for GradBench: reads one JSON message per line on stdin, answers one per
//! line on stdout (the protocol of GradBench's CONTRIBUTING.md: `start`, `define`, `evaluate`,
//! `analysis`). Each eval's functions are ordinary Rust under `#[differentiable]`, with sizes
//! read from the input at run time (`evals/`).
//!
//! ```sh
//! cargo run --release -p stackgrad-gradbench     # then one message per line
//! ```

use stackgrad_gradbench::protocol;
use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("stackgrad-gradbench: cannot read stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let response = protocol::respond(&line);
        if writeln!(stdout, "{response}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            // The eval has gone: nothing left to answer.
            return ExitCode::SUCCESS;
        }
    }
    ExitCode::SUCCESS
}
