//! The generated-program test: 300 random programs of the documented language, built under
//! `#[differentiable]` and every gradient checked against finite differences of the f64 reference.
//! A failure prints the whole report: each failing function with its source.

use std::io::Write;
use std::process::Command;

const SEED: &str = "1";
const COUNT: &str = "300";

#[test]
fn generated_programs_compile_and_match_finite_differences() {
    let output = Command::new(env!("CARGO_BIN_EXE_genprog"))
        .args(["--seed", SEED, "--count", COUNT])
        .output()
        .expect("the genprog binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("genprog: ") && l.contains(" programs, "))
        .unwrap_or_else(|| panic!("no summary line\n{stdout}\n{stderr}"));
    // Written to the handle, not with `eprintln!`, so it shows without `--nocapture`.
    let _ = writeln!(std::io::stderr(), "{summary}");
    assert!(
        output.status.success()
            && summary.contains(&format!("genprog: {COUNT} programs, "))
            && summary.contains(" 0 mismatches, ")
            && summary.contains(" 0 compile failures "),
        "{stdout}\n{stderr}"
    );
}
