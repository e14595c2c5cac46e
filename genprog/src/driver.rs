//! Generate, build, run, report.
//!
//! The generated workspace is built with its own target directory (so the nested `cargo` never
//! waits on the lock of the outer one), its programs split into a crate per core. A program that fails to compile is reported with the function
//! the error points into and left out of the next build, until the rest compiles; then the rest
//! runs.

use crate::features::{Feature, Features};
use crate::generate;
use crate::harness::{self, ProgramFile};
use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Builds after which a run gives up on compile errors it cannot attribute.
const MAX_BUILDS: usize = 10;
/// The most crates the programs are split into.
const MAX_PARTS: usize = 8;
/// The generated checks of 300 programs run in seconds; this only stops a hang.
const RUN_TIMEOUT: Duration = Duration::from_secs(900);

pub struct Options {
    pub seed: u64,
    pub count: usize,
    pub points: usize,
    pub out: Option<PathBuf>,
    pub features: Features,
    pub quiet: bool,
    /// The stackgrad workspace (where `target/` is).
    pub root: PathBuf,
    /// The `stackgrad` the programs are built against: the workspace, or a copy of it with a
    /// deliberately broken rule (see README).
    pub stackgrad: PathBuf,
}

struct Generated {
    name: String,
    /// The part (crate) the program is built in.
    part: usize,
    file: ProgramFile,
    used: Vec<Feature>,
}

/// A compile error attributed to a function of a program.
struct CompileError {
    function: String,
    message: String,
}

/// Runs everything; `Ok(true)` when every program compiled and every check passed.
///
/// # Errors
///
/// When the generated crate cannot be written, built for a reason no program explains, or run.
pub fn run(o: &Options) -> Result<bool, String> {
    let out = o
        .out
        .clone()
        .unwrap_or_else(|| o.root.join("target/genprog").join(o.seed.to_string()));
    let target = o.root.join("target/genprog-target");

    let t0 = Instant::now();
    // As many parts as cores (cargo builds them side by side; one crate of 300 programs took
    // 3 minutes of one core), the programs dealt out in turn.
    let parts = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, MAX_PARTS)
        .min(o.count);
    let programs: Vec<Generated> = (0..o.count)
        .map(|k| {
            let (p, used) = generate::program(o.seed, k, &o.features);
            let file = harness::program_file(&p, o.seed, &used);
            Generated {
                name: p.name,
                part: k % parts,
                file,
                used,
            }
        })
        .collect();
    write_crate(&out, &o.stackgrad, &programs, parts)?;
    let generate = t0.elapsed();

    let t1 = Instant::now();
    let mut failed: BTreeMap<String, Vec<CompileError>> = BTreeMap::new();
    let mut built = false;
    for _ in 0..MAX_BUILDS {
        for k in 0..parts {
            let included: Vec<&str> = programs
                .iter()
                .filter(|p| p.part == k && !failed.contains_key(&p.name))
                .map(|p| p.name.as_str())
                .collect();
            write(
                &part_dir(&out, k).join("src/lib.rs"),
                &harness::part_rs(&included),
            )?;
        }
        let output = Command::new("cargo")
            // Every part's errors, not only the first failing part's.
            .args(["build", "--quiet", "--message-format=short", "--keep-going"])
            .current_dir(&out)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if output.status.success() {
            built = true;
            break;
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        let errors = attribute(&stderr, &programs);
        if errors.is_empty() {
            return Err(format!(
                "the generated crate in {} does not build, and no error points into a program:\n{stderr}",
                out.display()
            ));
        }
        for (program, e) in errors {
            failed.entry(program).or_default().extend(e);
        }
    }
    if !built {
        return Err(format!("still not building after {MAX_BUILDS} builds"));
    }
    let build = t1.elapsed();

    let t2 = Instant::now();
    let stdout = run_checks(&target.join("debug/genprog-run"), o.seed, o.points)?;
    let run = t2.elapsed();

    let by_name: BTreeMap<&str, &Generated> =
        programs.iter().map(|p| (p.name.as_str(), p)).collect();
    let mut summary = None;
    let mut mismatched: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in stdout.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["FAIL", program, function, kind, count, detail] => mismatched
                .entry(program.to_string())
                .or_default()
                .push(format!(
                    "{function}: {kind} fails {count}x; worst: {detail}"
                )),
            ["SUMMARY", points, compared, mismatches, skipped] => {
                summary = Some((
                    points.to_string(),
                    compared.to_string(),
                    mismatches.to_string(),
                    skipped.to_string(),
                ));
            }
            _ => eprintln!("{line}"),
        }
    }
    let Some((points, compared, mismatches, skipped)) = summary else {
        return Err(format!("the checks ended without a summary:\n{stdout}"));
    };

    for (name, errors) in &failed {
        let p = by_name[name.as_str()];
        println!("\n=== compile failure: {name} ({})", features(&p.used));
        for e in errors {
            println!("  {}: {}", e.function, e.message);
        }
        source(o, &out, p);
    }
    for (name, lines) in &mismatched {
        let p = by_name[name.as_str()];
        println!("\n=== mismatch: {name} ({})", features(&p.used));
        for l in lines {
            println!("  {l}");
        }
        source(o, &out, p);
    }
    println!(
        "\ngenprog: {} programs, {points} points, {mismatches} mismatches, {skipped} skipped, \
         {} compile failures ({compared} comparisons; seed {}; generate {:.1} s, build {:.1} s, run {:.1} s)",
        programs.len(),
        failed.len(),
        o.seed,
        generate.as_secs_f64(),
        build.as_secs_f64(),
        run.as_secs_f64()
    );
    if !mismatched.is_empty() || !failed.is_empty() {
        let names: Vec<&str> = failed
            .keys()
            .chain(mismatched.keys())
            .map(String::as_str)
            .collect();
        println!("genprog: failing programs: {}", names.join(" "));
    }
    Ok(failed.is_empty() && mismatched.is_empty() && mismatches == "0")
}

fn features(used: &[Feature]) -> String {
    used.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

fn source(o: &Options, out: &Path, p: &Generated) {
    let file = part_dir(out, p.part).join(format!("src/{}.rs", p.name));
    println!("  in {}", file.display());
    if !o.quiet {
        for line in p.file.test_source.lines() {
            println!("  | {line}");
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    // Unchanged files keep their timestamps, so cargo rebuilds only what changed.
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Where part `k`'s crate is.
fn part_dir(out: &Path, k: usize) -> PathBuf {
    out.join(format!("part-{k}"))
}

/// Creates `dir` with nothing in it (the files of an earlier run with the same seed, more
/// programs or another layout, would be stale).
fn fresh_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    }
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

fn write_crate(
    out: &Path,
    root: &Path,
    programs: &[Generated],
    parts: usize,
) -> Result<(), String> {
    // Parts of an earlier run on a machine with more cores.
    if let Ok(entries) = fs::read_dir(out) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with("part-") {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
    fresh_dir(&out.join("src"))?;
    fresh_dir(&out.join("prelude/src"))?;
    for k in 0..parts {
        fresh_dir(&part_dir(out, k).join("src"))?;
        write(&part_dir(out, k).join("Cargo.toml"), &harness::part_toml(k))?;
    }
    let macros = root.join("autodiff-macros");
    let macros = macros.to_str().ok_or("the workspace path is not UTF-8")?;
    write(&out.join("Cargo.toml"), &harness::cargo_toml(macros, parts))?;
    // The workspace's lock file pins the same dependency versions (and needs no index).
    if let Ok(lock) = fs::read_to_string(root.join("Cargo.lock")) {
        write(&out.join("Cargo.lock"), &lock)?;
    }
    write(&out.join("src/main.rs"), &harness::main_rs(parts))?;
    write(&out.join("prelude/Cargo.toml"), harness::PRELUDE_TOML)?;
    let prelude = format!("#![allow(warnings, clippy::all)]\n{}", harness::PRELUDE);
    write(&out.join("prelude/src/lib.rs"), &prelude)?;
    for p in programs {
        let file = part_dir(out, p.part).join(format!("src/{}.rs", p.name));
        write(&file, &p.file.text)?;
    }
    Ok(())
}

/// Maps `part-1/src/p017.rs:45:9: error...` lines to the functions whose lines they point
/// into.
fn attribute(stderr: &str, programs: &[Generated]) -> BTreeMap<String, Vec<CompileError>> {
    let mut out: BTreeMap<String, Vec<CompileError>> = BTreeMap::new();
    for line in stderr.lines() {
        let Some((path, rest)) = line.split_once(".rs:") else {
            continue;
        };
        let Some(file) = path
            .strip_prefix("part-")
            .and_then(|p| p.split_once("/src/"))
            .map(|(_, file)| file)
        else {
            continue;
        };
        let Some((line_no, rest)) = rest.split_once(':') else {
            continue;
        };
        let Some((_, message)) = rest.split_once(": ") else {
            continue;
        };
        if !message.starts_with("error") {
            continue;
        }
        let Some(p) = programs.iter().find(|p| p.name == file) else {
            continue;
        };
        let line_no: usize = line_no.parse().unwrap_or(0);
        let function = p
            .file
            .spans
            .iter()
            .find(|s| s.first <= line_no && line_no <= s.last)
            .map_or_else(|| "(module items)".to_string(), |s| s.what.clone());
        out.entry(file.to_string()).or_default().push(CompileError {
            function,
            message: format!("line {line_no}: {message}"),
        });
    }
    out
}

fn run_checks(binary: &Path, seed: u64, points: usize) -> Result<String, String> {
    let mut child = Command::new(binary)
        .args([seed.to_string(), points.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > RUN_TIMEOUT => {
                let _ = child.kill();
                return Err(format!("the checks did not finish in {RUN_TIMEOUT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("waiting for the checks: {e}")),
        }
    }
    reader
        .join()
        .map_err(|_| "the output reader panicked".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{ProgramFile, Span};

    fn program(name: &str, part: usize) -> Generated {
        Generated {
            name: name.into(),
            part,
            file: ProgramFile {
                text: String::new(),
                spans: vec![Span {
                    what: "f".into(),
                    first: 10,
                    last: 20,
                }],
                test_source: String::new(),
            },
            used: Vec::new(),
        }
    }

    /// Lines as `cargo build --message-format=short` prints them for a part's file.
    #[test]
    fn errors_in_a_part_name_the_function_they_point_into() {
        let programs = [program("p000", 0), program("p001", 1)];
        let stderr = "prelude/src/lib.rs:58:21: warning: unused variable: `c`\n\
            part-1/src/p001.rs:12:22: error[E0308]: mismatched types\n\
            part-1/src/p001.rs:30:1: error: expected item\n\
            part-0/src/p000.rs:11:1: warning: unused import\n\
            /work/stackgrad/autodiff-macros/src/p001.rs:12:1: error: not a part\n\
            error: could not compile `part-1` (lib) due to 2 previous errors\n";
        let found = attribute(stderr, &programs);
        assert_eq!(found.keys().collect::<Vec<_>>(), ["p001"]);
        let errors: Vec<(&str, &str)> = found["p001"]
            .iter()
            .map(|e| (e.function.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            errors,
            [
                ("f", "line 12: error[E0308]: mismatched types"),
                ("(module items)", "line 30: error: expected item"),
            ]
        );
    }
}
