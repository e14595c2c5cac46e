//! A stable-Rust fuzz test of the file readers, run by `cargo test`: a seeded, deterministic
//! mutation loop over the seed files in `tests/fuzz-seeds/<reader>/` (byte flips, insertions,
//! deletions, splices of two seeds, truncation, interesting values such as
//! `18446744073709551615`, `-0`, `nan`, `1e309`, empty lines and very long fields, and for IDX and
//! safetensors mutations that keep the header consistent so that the inputs get past it).
//!
//! Each reader (CSV classification and regression, the iris loader, IDX, the MNIST pair loader,
//! the character corpus, safetensors checkpoints) must, on every input, return `Ok` with a
//! consistent value or one of the crate's typed errors, with a non-empty message and the context
//! its documentation promises (file, line, column, tensor name). A panic, an unexpected error kind
//! or a broken invariant fails the test with the reader, seed, iteration and the input
//! (escaped, and saved under `target/tmp/fuzz-failures/`).
//!
//! `STACKGRAD_FUZZ_INPUTS` sets the inputs per reader (default 100,000) and `STACKGRAD_FUZZ_SEED`
//! the seed (default 14); see `fuzz/README.md`. Run with `-- --nocapture` to see the counts.
//! A seed file named `regression-*` is an input that once failed.

mod fuzz_oracle;

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use autodiff_macros::Parameters;
use autodiff_runtime::Parameters;
use autodiff_runtime::checkpoint::{self, CheckpointError};
use autodiff_runtime::data::{
    CharCorpus, Column, CsvOptions, CsvReader, DataError, DataErrorKind, Dataset, IdxData,
    LabelColumn, MAX_INFERRED_CLASSES, RegressionDataset, bundled, fill_windows, parse_csv,
    parse_idx, read_idx_dataset,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

// ---- The mutation loop ----

/// Inputs per reader, from `STACKGRAD_FUZZ_INPUTS`.
fn inputs_per_reader() -> u64 {
    env_u64("STACKGRAD_FUZZ_INPUTS").unwrap_or(100_000)
}

/// The base seed, from `STACKGRAD_FUZZ_SEED`.
fn base_seed() -> u64 {
    env_u64("STACKGRAD_FUZZ_SEED").unwrap_or(14)
}

fn env_u64(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let value = text.replace('_', "").parse().unwrap_or_else(|_| {
        panic!("{name}={text:?}: expected a non-negative integer");
    });
    Some(value)
}

/// A seed input: a file of `tests/fuzz-seeds/<reader>/`, or one built by the test.
struct Seed {
    name: String,
    bytes: Vec<u8>,
}

fn seeds_dir(reader: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-seeds")
        .join(reader)
}

/// The seed files of a reader, sorted by name.
fn seed_files(reader: &str) -> Vec<Seed> {
    let dir = seeds_dir(reader);
    let mut seeds: Vec<Seed> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            Seed {
                name: path.file_name().unwrap().to_string_lossy().into_owned(),
                bytes: std::fs::read(&path).unwrap(),
            }
        })
        .collect();
    seeds.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

/// How a reader's inputs are mutated.
struct Mutator<'a> {
    seeds: &'a [Seed],
    /// Values spliced in whole: numbers at the edges of their types, keywords, separators.
    dict: &'a [&'a [u8]],
    /// Bytes that end a field, for replacing one field with a dictionary value.
    separators: &'a [u8],
    /// Inputs are cut to this length.
    max_len: usize,
}

#[rustfmt::skip]
const INTERESTING_BYTES: &[u8] = &[
    0, 1, 0x7f, 0x80, 0xff, b'\n', b'\r', b',', b';', b'"', b' ', b'0', b'9', b'-', b'.', b'e',
];

#[rustfmt::skip]
const INTERESTING_WORDS: &[u64] = &[
    0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x1_0000, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff,
    0x1_0000_0000, 0x7fff_ffff_ffff_ffff, u64::MAX,
];

impl Mutator<'_> {
    /// A mutated copy of a random seed; returns the seed's index too.
    fn input(&self, rng: &mut SmallRng) -> (usize, Vec<u8>) {
        let which = rng.gen_range(0..self.seeds.len());
        let mut data = self.seeds[which].bytes.clone();
        self.mutate(rng, &mut data);
        (which, data)
    }

    /// A random seed with one to three fields replaced by numbers: inputs that often parse.
    fn gentle(&self, rng: &mut SmallRng) -> (usize, Vec<u8>) {
        let which = rng.gen_range(0..self.seeds.len());
        let mut data = self.seeds[which].bytes.clone();
        for _ in 0..rng.gen_range(1..=3) {
            let pos = rng.gen_range(0..=data.len());
            self.replace_field(&mut data, pos, number(rng).into_bytes());
        }
        (which, data)
    }

    /// Replaces the field around `pos` (up to the separators on either side) with `token`.
    fn replace_field(&self, data: &mut Vec<u8>, pos: usize, token: Vec<u8>) {
        let is_sep = |b: &u8| self.separators.contains(b);
        let at = pos.min(data.len());
        let start = data[..at].iter().rposition(is_sep).map_or(0, |i| i + 1);
        let end = data[at..]
            .iter()
            .position(is_sep)
            .map_or(data.len(), |i| at + i);
        data.splice(start..end, token);
    }

    fn mutate(&self, rng: &mut SmallRng, data: &mut Vec<u8>) {
        let mut rounds = rng.gen_range(1..=4);
        if rng.gen_ratio(1, 8) {
            rounds += rng.gen_range(0..12);
        }
        for _ in 0..rounds {
            self.mutate_once(rng, data);
        }
        data.truncate(self.max_len);
    }

    fn mutate_once(&self, rng: &mut SmallRng, data: &mut Vec<u8>) {
        let len = data.len();
        let pos = rng.gen_range(0..=len);
        match rng.gen_range(0..14) {
            0 if len > 0 => data[pos % len] ^= 1 << rng.gen_range(0..8),
            1 if len > 0 => data[pos % len] = rng.r#gen(),
            2 if len > 0 => data[pos % len] = pick(rng, INTERESTING_BYTES),
            3 => {
                let n = rng.gen_range(1..=8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.r#gen()).collect();
                data.splice(pos..pos, bytes);
            }
            4 if len > 0 => {
                let start = pos.min(len - 1);
                let end = (start + rng.gen_range(1..=16)).min(len);
                data.drain(start..end);
            }
            5 if len > 0 => {
                let start = pos.min(len - 1);
                let end = (start + rng.gen_range(1..=32)).min(len);
                let chunk = data[start..end].to_vec();
                let at = rng.gen_range(0..=len);
                data.splice(at..at, chunk);
            }
            6 => {
                let token = pick(rng, self.dict);
                data.splice(pos..pos, token.iter().copied());
            }
            7 => {
                let token = if rng.r#gen() {
                    pick(rng, self.dict).to_vec()
                } else {
                    number(rng).into_bytes()
                };
                self.replace_field(data, pos, token);
            }
            8 => {
                // Splice: this input's head, another seed's tail.
                let other = &self.seeds[rng.gen_range(0..self.seeds.len())].bytes;
                let from = rng.gen_range(0..=other.len());
                data.truncate(pos);
                data.extend_from_slice(&other[from..]);
            }
            9 => data.truncate(pos),
            10 if len >= 4 => {
                let word = if rng.gen_ratio(1, 4) {
                    rng.r#gen()
                } else {
                    pick(rng, INTERESTING_WORDS)
                };
                let width = if rng.r#gen() { 4 } else { 8 }.min(len);
                let bytes = if rng.r#gen() {
                    word.to_be_bytes()[8 - width..].to_vec()
                } else {
                    word.to_le_bytes()[..width].to_vec()
                };
                let at = rng.gen_range(0..=len - width);
                data[at..at + width].copy_from_slice(&bytes);
            }
            11 if rng.gen_ratio(1, 4) => {
                // A very long field.
                let byte = pick(rng, b"19a.-e\"");
                let n = rng.gen_range(80..4096);
                data.splice(pos..pos, std::iter::repeat_n(byte, n));
            }
            12 => {
                // Empty lines, at a line start when there is one.
                let at = data[..pos]
                    .iter()
                    .rposition(|b| *b == b'\n')
                    .map_or(0, |i| i + 1);
                let blank: &[u8] = pick(rng, &[b"\n", b"\r\n", b"\n\n", b"\r", b" \n"]);
                data.splice(at..at, blank.iter().copied());
            }
            _ if len > 0 => {
                // Another seed's bytes overwrite part of this one.
                let other = &self.seeds[rng.gen_range(0..self.seeds.len())].bytes;
                if !other.is_empty() {
                    let from = rng.gen_range(0..other.len());
                    let n = rng
                        .gen_range(1..=16)
                        .min(other.len() - from)
                        .min(len - pos % len);
                    let at = pos % len;
                    data[at..at + n].copy_from_slice(&other[from..from + n]);
                }
            }
            _ => data.push(rng.r#gen()),
        }
    }
}

/// A number as a person or a program would write it.
fn number(rng: &mut SmallRng) -> String {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0..4).to_string(),
        1 => rng.gen_range(0..100_000).to_string(),
        2 => format!("{}", rng.gen_range(-1e3..1e3f32)),
        _ => format!(
            "{:e}",
            rng.gen_range(-1.0..1.0f64) * 10f64.powi(rng.gen_range(-320..320))
        ),
    }
}

fn pick<T: Copy>(rng: &mut SmallRng, items: &[T]) -> T {
    items[rng.gen_range(0..items.len())]
}

/// What one input did: `Ok`, or an error of this kind (the variant's name).
enum Outcome {
    Ok,
    Err(String),
}

/// The name of an error's variant, from its `Debug` form.
fn kind_name(kind: &impl Debug) -> String {
    let shown = format!("{kind:?}");
    let end = shown.find([' ', '(', '{']).unwrap_or(shown.len());
    shown[..end].to_owned()
}

/// A failure: the input, and what happened.
struct Failure {
    iteration: u64,
    message: String,
    setup: String,
    input: Vec<u8>,
}

/// Counts of one reader's run.
struct Report {
    inputs: u64,
    ok: u64,
    errors: u64,
    /// Errors by kind, to see which paths the inputs reach.
    kinds: std::collections::BTreeMap<String, u64>,
    failures: Vec<Failure>,
}

/// Stop a reader after this many failures (the first ones are the useful ones).
const MAX_FAILURES: usize = 8;

/// Runs `inputs_per_reader()` inputs through `check`, which returns whether the reader said `Ok`
/// and panics on anything wrong (a reader's panic or a broken invariant, both caught here).
/// `make` builds input `i` and its setup (options) from an RNG seeded by `(seed, reader, i)`, so
/// every input can be rebuilt alone.
fn fuzz<S: Debug>(
    reader: &str,
    make: impl Fn(&mut SmallRng, u64) -> (Vec<u8>, S),
    check: impl Fn(&[u8], &S) -> Outcome,
) {
    let (inputs, seed) = (inputs_per_reader(), base_seed());
    let tag = reader
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b));
    let start = Instant::now();
    let mut report = Report {
        inputs: 0,
        ok: 0,
        errors: 0,
        kinds: std::collections::BTreeMap::new(),
        failures: Vec::new(),
    };
    for i in 0..inputs {
        let mut rng = SmallRng::seed_from_u64(
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ tag.rotate_left(17) ^ i,
        );
        let (input, setup) = make(&mut rng, i);
        report.inputs += 1;
        match catch_unwind(AssertUnwindSafe(|| check(&input, &setup))) {
            Ok(Outcome::Ok) => report.ok += 1,
            Ok(Outcome::Err(kind)) => {
                report.errors += 1;
                *report.kinds.entry(kind).or_default() += 1;
            }
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(a panic without a message)".into());
                report.failures.push(Failure {
                    iteration: i,
                    message,
                    setup: format!("{setup:?}"),
                    input,
                });
                if report.failures.len() >= MAX_FAILURES {
                    break;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    remove_scratch(&format!("{reader}-"));
    let kinds: Vec<String> = report
        .kinds
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    println!(
        "fuzz {reader}: {} inputs (seed {seed}), {} Ok, {} errors, {} failures, {secs:.1} s\n  errors by kind: {}",
        report.inputs,
        report.ok,
        report.errors,
        report.failures.len(),
        kinds.join(", ")
    );
    if report.failures.is_empty() {
        // Every path must be reached: a reader that only ever errs is not being tested.
        assert!(
            report.ok > 0 && report.errors > 0,
            "fuzz {reader}: {} Ok, {} errors",
            report.ok,
            report.errors
        );
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = format!(
        "fuzz {reader}: {} failing inputs (seed {seed})\n",
        report.failures.len()
    );
    for f in &report.failures {
        let saved = dir.join(format!("{reader}-seed{seed}-iteration{}.bin", f.iteration));
        std::fs::write(&saved, &f.input).unwrap();
        let shown: String = f
            .input
            .iter()
            .take(2000)
            .flat_map(|b| b.escape_ascii())
            .map(char::from)
            .collect();
        let more = if f.input.len() > 2000 { "..." } else { "" };
        text += &format!(
            "\n-- iteration {} ({} bytes, saved as {}): {}\n   setup: {}\n   input: b\"{shown}{more}\"\n",
            f.iteration,
            f.input.len(),
            saved.display(),
            f.message,
            f.setup
        );
    }
    panic!("{text}");
}

/// The directory of this test's scratch files: one per thread (each test runs on its own), so
/// one test removing its directory cannot race another writing into it.
fn scratch_dir() -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fuzz-stable-{}-{thread}", std::process::id()))
}

/// Writes `bytes` to a scratch file, for readers that take a path. Each test's names start with
/// its own prefix, which `remove_scratch` takes.
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = scratch_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    // A new file, not a truncated one: replacing a file's contents makes ext4 flush it (slow).
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Removes the scratch files whose names start with `prefix`, and the directory once empty.
fn remove_scratch(prefix: &str) {
    let dir = scratch_dir();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let _ = std::fs::remove_dir(&dir);
}

/// Checks what every error promises: a non-empty message that starts with the file's name.
fn check_named(e: &DataError, file: &str) {
    assert_eq!(e.file, file, "the error names another file: {e}");
    let shown = e.to_string();
    let reason = shown
        .strip_prefix(file)
        .unwrap_or_else(|| panic!("`{shown}` does not start with `{file}`"));
    assert!(reason.len() > 2, "empty reason: `{shown}`");
}

/// A field quoted in an error: at most 80 characters, then `...`.
fn check_quoted(field: &str) {
    let n = field.chars().count();
    assert!(
        n <= 80 || (n == 83 && field.ends_with("...")),
        "quoted field of {n} characters"
    );
}

// ---- CSV ----

#[rustfmt::skip]
const CSV_DICT: &[&[u8]] = &[
    b"18446744073709551615", b"18446744073709551616", b"9223372036854775807", b"4294967296",
    b"65535", b"65536", b"65537", b"-1", b"-0", b"+0", b"0", b"1", b"2", b"nan", b"NaN", b"-nan",
    b"inf", b"-inf", b"infinity", b"1e309", b"-1e309", b"3.4028235e38", b"3.5e38", b"1e-46",
    b"0x10", b"1_000", b"1.", b".", b"e5", b"1e", b"--1", b"", b" ", b"\"", b"\"\"", b"\"1,2\"",
    b"\"a\"\"b\"", b"\n", b"\r\n", b"\r", b"\n\n", b",", b",,", b";", b"\t", b"\xff", b"\xc3",
    b"\xe2\x82", b"\xef\xbb\xbf", b"\xc3\xa9", b"\0", b"label", b"price",
];

/// Which CSV reading functions an input goes through. Building a `csv` reader is most of the
/// cost of a small input in a debug build, so most inputs take one.
#[derive(Clone, Copy, Debug)]
enum CsvApi {
    /// `parse_csv` with `CsvOptions`.
    ParseCsv,
    /// `CsvReader::parse_classification`.
    Classification,
    /// `CsvReader::parse_regression`.
    Regression,
    /// Classification and regression, which must agree when the labels are integers.
    Both,
}

/// The options of one CSV input.
#[derive(Debug)]
struct CsvSetup {
    #[expect(dead_code, reason = "shown (by Debug) in failure reports")]
    seed: String,
    has_header: bool,
    target: Column,
    num_classes: Option<usize>,
    delimiter: u8,
    api: CsvApi,
    /// Also through `bundled::iris` (from a file).
    iris: bool,
}

fn csv_setup(rng: &mut SmallRng, seed: &Seed, input: &[u8]) -> CsvSetup {
    let first = seed.bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    if rng.gen_ratio(1, 2) {
        // The options the seed was written for, so that many inputs parse.
        let api = pick(
            rng,
            &[CsvApi::ParseCsv, CsvApi::Classification, CsvApi::Regression],
        );
        return CsvSetup {
            seed: seed.name.clone(),
            has_header: first
                .iter()
                .any(|b| b.is_ascii_alphabetic() && !b"eE".contains(b)),
            target: Column::Last,
            num_classes: None,
            delimiter: *[b';', b'\t']
                .iter()
                .find(|d| first.contains(d))
                .unwrap_or(&b','),
            api,
            iris: seed.name.starts_with("iris"),
        };
    }
    let has_header = rng.gen_ratio(1, 2);
    let target = match rng.gen_range(0..10) {
        0..=3 => Column::Last,
        4..=6 => Column::Index(rng.gen_range(0..6)),
        7 => Column::Index(pick(rng, &[usize::MAX, usize::MAX - 1, 1 << 32, 66])),
        8 => {
            // A name from the first line, when it has one.
            let first = input.split(|b| *b == b'\n').next().unwrap_or_default();
            let names: Vec<&[u8]> = first
                .split(|b| *b == b',' || *b == b';' || *b == b'\t')
                .collect();
            Column::Name(String::from_utf8_lossy(pick(rng, &names)).into_owned())
        }
        _ => Column::Name(String::from_utf8_lossy(pick(rng, CSV_DICT)).into_owned()),
    };
    let num_classes = match rng.gen_range(0..8) {
        0..=3 => None,
        4 => Some(0),
        5 => Some(usize::MAX),
        _ => Some(rng.gen_range(1..12)),
    };
    let delimiter = match rng.gen_range(0..16) {
        0..=9 => b',',
        10 | 11 => b';',
        12 => b'\t',
        _ => rng.r#gen(),
    };
    let api = match rng.gen_range(0..8) {
        0 | 1 if !matches!(target, Column::Name(_)) => CsvApi::ParseCsv,
        0..=2 => CsvApi::Classification,
        3..=6 => CsvApi::Regression,
        _ => CsvApi::Both,
    };
    CsvSetup {
        seed: seed.name.clone(),
        has_header,
        target,
        num_classes,
        delimiter,
        api,
        iris: seed.name.starts_with("iris") || rng.gen_ratio(1, 64),
    }
}

/// Line terminators in `input`: the csv crate ends a line at `\n`, `\r` or `\r\n`.
fn max_line(input: &[u8]) -> u64 {
    input
        .iter()
        .filter(|b| **b == b'\n' || **b == b'\r')
        .count() as u64
        + 1
}

/// The line of the first byte that is not a line break (the header's, as the csv crate skips
/// empty lines), counting `\n`, `\r\n` and `\r` as one break each; `None` if there is none.
fn first_non_empty_line(input: &[u8]) -> Option<u64> {
    let blank = input
        .iter()
        .take_while(|b| matches!(b, b'\n' | b'\r'))
        .count();
    let crlf = input[..blank].windows(2).filter(|w| w == b"\r\n").count();
    (blank < input.len()).then_some((blank - crlf) as u64 + 1)
}

/// Checks a CSV error: a kind a CSV reader reports, with the place its docs promise.
fn check_csv_error(e: &DataError, file: &str, input: &[u8], regression: bool) {
    check_named(e, file);
    use DataErrorKind as K;
    let at_field = || {
        assert!(
            e.line.is_some() && e.column.is_some(),
            "no line and column: {e}"
        );
    };
    match &e.kind {
        K::Empty => {}
        K::WrongColumnCount { expected, found } => {
            assert_ne!(expected, found, "{e}");
            assert!(e.line.is_some(), "no line: {e}");
        }
        K::NoSuchColumn { column, columns } => {
            assert!(column >= columns, "{e}");
            assert!(e.line.is_some(), "no line: {e}");
        }
        K::UnknownColumn { name, has_header } => {
            check_quoted(name);
            if *has_header {
                assert_eq!(e.line, first_non_empty_line(input), "{e}");
            }
        }
        K::NotANumber { field } => {
            check_quoted(field);
            at_field();
        }
        K::InvalidLabel { field } if !regression => {
            check_quoted(field);
            at_field();
        }
        K::LabelTooLarge { label, limit } if !regression => {
            assert!(label >= limit && *limit == MAX_INFERRED_CLASSES, "{e}");
            at_field();
        }
        K::LabelOutOfRange { label, classes } if !regression => {
            assert!(label >= classes, "{e}");
            at_field();
        }
        K::Csv(message) => assert!(!message.is_empty(), "{e}"),
        other => panic!("unexpected error kind for CSV: {other:?} ({e})"),
    }
    if let Some(line) = e.line {
        assert!(
            line >= 1 && line <= max_line(input),
            "line {line} is outside the input: {e}"
        );
    }
    if let Some(column) = e.column {
        assert!(column >= 1, "{e}");
    }
}

fn check_classes(d: &Dataset, num_classes: Option<usize>) {
    assert!(!d.is_empty());
    assert_eq!(d.features.len(), d.len() * d.n_features);
    assert!(d.features.iter().all(|x| x.is_finite()));
    assert!(d.labels.iter().all(|&l| l < d.n_classes));
    match num_classes {
        Some(n) => assert_eq!(d.n_classes, n),
        None => assert!(d.n_classes <= MAX_INFERRED_CLASSES),
    }
    for i in 0..d.len() {
        assert_eq!(d.row(i).map(<[f32]>::len), Some(d.n_features));
    }
}

fn check_regression(d: &RegressionDataset, has_header: bool) {
    assert!(!d.is_empty());
    assert_eq!(d.features.len(), d.len() * d.n_features);
    assert!(d.features.iter().chain(&d.targets).all(|x| x.is_finite()));
    if has_header {
        assert_eq!(d.feature_names.len(), d.n_features);
        assert!(d.target_name.is_some());
    } else {
        assert!(d.feature_names.is_empty() && d.target_name.is_none());
    }
}

fn check_csv(input: &[u8], s: &CsvSetup) -> Outcome {
    let file = "fuzz.csv";
    let mut reader = CsvReader::new()
        .has_header(s.has_header)
        .target(s.target.clone())
        .delimiter(s.delimiter);
    if let Some(n) = s.num_classes {
        reader = reader.num_classes(n);
    }
    let classes = match s.api {
        CsvApi::ParseCsv => {
            let label = match s.target {
                Column::Index(i) => LabelColumn::Index(i),
                _ => LabelColumn::Last,
            };
            let options = CsvOptions {
                has_header: s.has_header,
                label,
                num_classes: s.num_classes,
                delimiter: s.delimiter,
            };
            Some(parse_csv(input, file, &options))
        }
        CsvApi::Classification | CsvApi::Both => Some(reader.parse_classification(input, file)),
        CsvApi::Regression => None,
    };
    let regression = matches!(s.api, CsvApi::Regression | CsvApi::Both)
        .then(|| reader.parse_regression(input, file));
    match &classes {
        Some(Ok(d)) => check_classes(d, s.num_classes),
        Some(Err(e)) => check_csv_error(e, file, input, false),
        None => {}
    }
    match &regression {
        Some(Ok(d)) => check_regression(d, s.has_header),
        Some(Err(e)) => check_csv_error(e, file, input, true),
        None => {}
    }
    // A table with integer labels is also a table with float targets.
    if let (Some(Ok(d)), Some(r)) = (&classes, &regression) {
        let r = r
            .as_ref()
            .unwrap_or_else(|e| panic!("classification Ok, regression: {e}"));
        assert_eq!((&d.features, d.n_features), (&r.features, r.n_features));
        assert!(
            d.labels
                .iter()
                .zip(&r.targets)
                .all(|(&l, &t)| l as f32 == t)
        );
    }
    if s.iris {
        check_iris(input);
    }
    match (classes, regression) {
        (Some(Ok(_)), _) | (_, Some(Ok(_))) => Outcome::Ok,
        (Some(Err(e)), _) | (_, Some(Err(e))) => Outcome::Err(kind_name(&e.kind)),
        (None, None) => unreachable!(),
    }
}

/// `bundled::iris`: a first line `rows,features,class names...` and then the rows.
fn check_iris(input: &[u8]) {
    let path = scratch("csv-iris.csv", input);
    let file = path.display().to_string();
    match bundled::iris(&path) {
        Ok(d) => {
            check_classes(&d, Some(d.class_names.len()));
            assert_eq!(d.n_classes, d.class_names.len());
        }
        Err(e) => match &e.kind {
            DataErrorKind::BadHeader { reason } => {
                check_named(&e, &file);
                assert!(!reason.is_empty());
                assert_eq!(e.line, Some(1), "{e}");
            }
            _ => check_csv_error(&e, &file, input, false),
        },
    }
}

#[test]
fn fuzz_csv() {
    let seeds = seed_files("csv");
    let mutator = Mutator {
        seeds: &seeds,
        dict: CSV_DICT,
        separators: b",;\t\n\r\"",
        max_len: 16 << 10,
    };
    fuzz(
        "csv",
        |rng, i| {
            // Each seed once as it is, then mutations.
            let (which, input) = match usize::try_from(i).ok().filter(|&i| i < seeds.len()) {
                Some(i) => (i, seeds[i].bytes.clone()),
                None if rng.gen_ratio(1, 4) => mutator.gentle(rng),
                None => mutator.input(rng),
            };
            let setup = csv_setup(rng, &seeds[which], &input);
            (input, setup)
        },
        check_csv,
    );
}

/// The input the nightly cargo-fuzz `csv` target found (issue 14): a label near `usize::MAX`
/// overflowed `largest + 1` when inferring the number of classes.
#[test]
fn csv_label_near_usize_max_is_a_typed_error() {
    let input = std::fs::read(seeds_dir("csv").join("regression-label-usize-max.csv")).unwrap();
    let err = parse_csv(input.as_slice(), "fuzz.csv", &CsvOptions::default()).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::LabelTooLarge {
                label: usize::MAX,
                limit: MAX_INFERRED_CLASSES
            }
        ),
        "{err}"
    );
    assert_eq!((err.line, err.column), (Some(1), Some(2)));
}

// ---- IDX ----

#[rustfmt::skip]
const IDX_DICT: &[&[u8]] = &[
    &[0, 0, 0x08, 1], &[0, 0, 0x0d, 2], &[0, 0, 0x0e, 0], &[0, 0, 0x0b, 3], &[0, 0, 0x0c, 255],
    &[0, 0, 0, 0], &[0, 0, 0, 1], &[0xff, 0xff, 0xff, 0xff], &[0x80, 0, 0, 0], &[0x7f, 0xc0, 0, 0],
    &[0xff, 0xf0, 0, 0, 0, 0, 0, 0],
];

/// A well-formed IDX file's type code, dimensions and payload, if `bytes` is one.
fn idx_parts(bytes: &[u8]) -> Option<(u8, Vec<u32>, Vec<u8>)> {
    let (&[_, _, code, n], rest) = bytes.split_first_chunk::<4>()?;
    let dims_len = 4 * usize::from(n);
    let dims = rest
        .get(..dims_len)?
        .chunks_exact(4)
        .map(|c| u32::from_be_bytes(c.try_into().unwrap()))
        .collect();
    Some((code, dims, rest[dims_len..].to_vec()))
}

fn idx_elem_size(code: u8) -> usize {
    match code {
        0x0b => 2,
        0x0c | 0x0d => 4,
        0x0e => 8,
        _ => 1,
    }
}

/// Changes the header of an IDX file (a dimension, their number or the type) and, most of the
/// time, resizes the payload to match, so that the input gets past the size check.
fn mutate_idx_header(rng: &mut SmallRng, data: &mut Vec<u8>) {
    let Some((mut code, mut dims, mut payload)) = idx_parts(data) else {
        return;
    };
    match rng.gen_range(0..5) {
        0 => code = pick(rng, &[0x08, 0x09, 0x0b, 0x0c, 0x0d, 0x0e]),
        4 => {
            // New dimensions, each small or at the edge of `u32`.
            dims = (0..rng.gen_range(0..=5))
                .map(|_| match rng.gen_range(0..3) {
                    0 => rng.gen_range(0..8),
                    1 => pick(rng, INTERESTING_WORDS) as u32,
                    _ => rng.r#gen(),
                })
                .collect();
        }
        1 if dims.len() < 6 => dims.insert(rng.gen_range(0..=dims.len()), rng.gen_range(0..5)),
        2 if !dims.is_empty() => {
            dims.remove(rng.gen_range(0..dims.len()));
        }
        _ if !dims.is_empty() => {
            let at = rng.gen_range(0..dims.len());
            dims[at] = if rng.r#gen() {
                rng.gen_range(0..8)
            } else {
                pick(rng, INTERESTING_WORDS) as u32
            };
        }
        _ => {}
    }
    if rng.gen_ratio(7, 8) {
        let values = dims
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d as usize));
        if let Some(bytes) = values
            .and_then(|n| n.checked_mul(idx_elem_size(code)))
            .filter(|&n| n <= 1 << 16)
        {
            payload.resize(bytes, 0);
            for b in &mut payload {
                if rng.gen_ratio(1, 4) {
                    *b = rng.r#gen();
                }
            }
        }
    }
    *data = vec![0, 0, code, dims.len() as u8];
    data.extend(dims.iter().flat_map(|d| d.to_be_bytes()));
    data.extend(payload);
}

#[derive(Debug)]
struct IdxSetup {
    #[expect(dead_code, reason = "shown (by Debug) in failure reports")]
    seed: String,
    /// With this labels file and number of classes, also through `read_idx_dataset`.
    pair: Option<(Vec<u8>, usize)>,
}

fn check_idx(input: &[u8], s: &IdxSetup) -> Outcome {
    let file = "fuzz.idx";
    let outcome = match parse_idx(input, file) {
        Ok(array) => {
            let count = array.dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
            assert_eq!(Some(array.len()), count, "dims {:?}", array.dims);
            assert!(array.len() <= input.len());
            assert_eq!(array.to_f32().len(), array.len());
            let elem = match &array.data {
                IdxData::U8(_) | IdxData::I8(_) => 1,
                IdxData::I16(_) => 2,
                IdxData::I32(_) | IdxData::F32(_) => 4,
                IdxData::F64(_) => 8,
            };
            assert_eq!(input.len(), 4 + 4 * array.dims.len() + elem * array.len());
            Outcome::Ok
        }
        Err(e) => {
            check_named(&e, file);
            match &e.kind {
                DataErrorKind::Empty => assert!(input.is_empty()),
                DataErrorKind::BadHeader { reason } => assert!(!reason.is_empty()),
                DataErrorKind::IdxSizeMismatch { expected, found } => {
                    assert_eq!(*found, input.len() as u64, "{e}");
                    assert_ne!(*expected, Some(*found), "{e}");
                }
                other => panic!("unexpected error kind for IDX: {other:?} ({e})"),
            }
            Outcome::Err(kind_name(&e.kind))
        }
    };
    if let Some((labels, classes)) = &s.pair {
        check_idx_pair(input, labels, *classes);
    }
    outcome
}

/// `read_idx_dataset` on the input as images and a labels file.
fn check_idx_pair(images: &[u8], labels: &[u8], classes: usize) {
    let (x_path, y_path) = (
        scratch("idx-images.idx", images),
        scratch("idx-labels.idx", labels),
    );
    let names = [x_path.display().to_string(), y_path.display().to_string()];
    match read_idx_dataset(&x_path, &y_path, classes) {
        Ok(d) => {
            assert_eq!(d.features.len(), d.len() * d.n_features);
            assert!(d.features.iter().all(|v| v.is_finite()));
            assert!(d.labels.iter().all(|&l| l < classes));
            assert_eq!(d.n_classes, classes);
        }
        Err(e) => {
            assert!(names.contains(&e.file), "the error names another file: {e}");
            check_named(&e, &e.file);
            match &e.kind {
                DataErrorKind::Empty
                | DataErrorKind::BadHeader { .. }
                | DataErrorKind::IdxSizeMismatch { .. }
                | DataErrorKind::CountMismatch { .. } => {}
                DataErrorKind::NonFiniteFeature { item, feature } => {
                    let x = parse_idx(images, "x").unwrap();
                    let n_features = x.len() / x.dims[0];
                    assert!(!x.to_f32()[item * n_features + feature].is_finite(), "{e}");
                }
                DataErrorKind::LabelOutOfRange { label, classes: c } => {
                    assert!(label >= c && *c == classes, "{e}");
                }
                other => panic!("unexpected error kind for an IDX pair: {other:?} ({e})"),
            }
        }
    }
}

#[test]
fn fuzz_idx() {
    let seeds = seed_files("idx");
    let mutator = Mutator {
        seeds: &seeds,
        dict: IDX_DICT,
        separators: &[0],
        max_len: 64 << 10,
    };
    let labels = seeds
        .iter()
        .position(|s| s.name.starts_with("labels"))
        .expect("a labels seed");
    fuzz(
        "idx",
        |rng, i| {
            let (which, mut input) = match usize::try_from(i).ok().filter(|&i| i < seeds.len()) {
                Some(i) => (i, seeds[i].bytes.clone()),
                None if rng.gen_ratio(1, 3) => {
                    let which = rng.gen_range(0..seeds.len());
                    let mut input = seeds[which].bytes.clone();
                    for _ in 0..rng.gen_range(1..=3) {
                        mutate_idx_header(rng, &mut input);
                    }
                    (which, input)
                }
                None => mutator.input(rng),
            };
            if rng.gen_ratio(1, 16) {
                input.truncate(rng.gen_range(0..=input.len()));
            }
            let pair = rng.gen_ratio(1, 8).then(|| {
                let mut y = seeds[labels].bytes.clone();
                // Labels as many as the images' first dimension, most of the time.
                if let Some((_, dims, _)) = idx_parts(&input)
                    && let Some(&n) = dims.first().filter(|&&n| n <= 4096 && rng.gen_ratio(3, 4))
                {
                    y = vec![0, 0, 8, 1];
                    y.extend(n.to_be_bytes());
                    y.extend((0..n).map(|_| rng.gen_range(0..12u8)));
                }
                if rng.gen_ratio(1, 4) {
                    mutator.mutate(rng, &mut y);
                }
                (y, rng.gen_range(0..12))
            });
            (
                input,
                IdxSetup {
                    seed: seeds[which].name.clone(),
                    pair,
                },
            )
        },
        check_idx,
    );
}

/// An input `fuzz_idx` found: images with no items (first dimension 0) but an image size that
/// overflows `usize` made `read_idx_dataset` panic computing the number of features (in release it
/// wrapped to a wrong one).
#[test]
fn idx_pair_with_no_images_of_an_overflowing_size_is_a_typed_error() {
    let images =
        std::fs::read(seeds_dir("idx").join("regression-no-images-overflowing-image-size.idx"))
            .unwrap();
    let x_path = scratch("regression-idx-images.idx", &images);
    let y_path = scratch("regression-idx-labels.idx", &[0, 0, 8, 1, 0, 0, 0, 0]);
    let err = read_idx_dataset(&x_path, &y_path, 1).unwrap_err();
    remove_scratch("regression-idx-");
    assert!(
        matches!(&err.kind, DataErrorKind::BadHeader { reason } if reason.contains("overflows")),
        "{err}"
    );
    assert_eq!(err.file, x_path.display().to_string());
}

// ---- Character corpus ----

#[rustfmt::skip]
const CORPUS_DICT: &[&[u8]] = &[
    b"\n", b"\r\n", b"\0", b"\xef\xbb\xbf", b"\xc3\xa9", b"e\xcc\x81", b"\xf0\x9d\x94\x98",
    b"\xf4\x8f\xbf\xbf", b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82",
    b"\x80",
];

#[derive(Debug)]
struct CorpusSetup {
    #[expect(dead_code, reason = "shown (by Debug) in failure reports")]
    seed: String,
    /// Through `CharCorpus::read` (always, for bytes that are not UTF-8).
    via_file: bool,
    /// A fraction for `split`.
    fraction: f64,
    /// Token ids to decode (some out of the vocabulary).
    ids: Vec<u16>,
}

fn check_corpus(input: &[u8], s: &CorpusSetup) -> Outcome {
    let text = std::str::from_utf8(input).ok();
    let (read, file) = match text {
        Some(text) if !s.via_file => (CharCorpus::from_text(text, "fuzz.txt"), "fuzz.txt".into()),
        _ => {
            // Bytes that are not UTF-8 can only come from a file.
            let path = scratch("corpus-text.txt", input);
            let file = path.display().to_string();
            let read = CharCorpus::read(&path);
            if let Some(text) = text {
                match (&read, &CharCorpus::from_text(text, &file)) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b),
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    _ => panic!("`read` and `from_text` disagree"),
                }
            }
            (read, file)
        }
    };
    let corpus = match read {
        Ok(corpus) => corpus,
        Err(e) => {
            check_named(&e, &file);
            match (&e.kind, text) {
                (DataErrorKind::Empty, Some("")) => {}
                (DataErrorKind::InvalidUtf8, None) => {
                    let (line, column) = fuzz_oracle::utf8_error_place(input).unwrap();
                    assert_eq!((e.line, e.column), (Some(line), Some(column)), "{e}");
                }
                (other, _) => panic!("unexpected error kind for a corpus: {other:?} ({e})"),
            }
            return Outcome::Err(kind_name(&e.kind));
        }
    };
    let text = text.expect("a corpus from text that is not UTF-8");
    let vocab = corpus.vocab();
    assert!(
        vocab.windows(2).all(|w| w[0] < w[1]),
        "vocabulary not sorted and distinct"
    );
    assert!(text.chars().all(|c| vocab.binary_search(&c).is_ok()));
    assert_eq!(corpus.tokens().len(), text.chars().count());
    assert_eq!(corpus.decode(corpus.tokens()).unwrap(), text);
    assert_eq!(corpus.encode(text).unwrap(), corpus.tokens());
    let (train, val) = corpus.split(s.fraction);
    assert_eq!(train.len() + val.len(), corpus.tokens().len());
    for &id in &s.ids {
        match corpus.decode(&[id]) {
            Ok(c) => assert!(usize::from(id) < vocab.len() && c.chars().count() == 1),
            Err(e) => {
                assert!(
                    matches!(e.kind, DataErrorKind::UnknownToken(t) if t == usize::from(id) && t >= vocab.len()),
                    "{e}"
                );
                check_named(&e, &file);
            }
        }
    }
    match corpus.encode("\u{10ffff}~") {
        Ok(ids) => assert_eq!(ids.len(), 2),
        Err(e) => {
            assert!(matches!(e.kind, DataErrorKind::UnknownChar(_)), "{e}");
            check_named(&e, &file);
        }
    }
    let (mut x, mut y) = ([[0usize; 8]; 2], [[0usize; 8]; 2]);
    let mut rng = SmallRng::seed_from_u64(corpus.tokens().len() as u64);
    match fill_windows(corpus.tokens(), &mut x, &mut y, &mut rng) {
        Ok(()) => {
            for b in 0..2 {
                assert_eq!(x[b][1..], y[b][..7]);
                assert!(x[b].iter().chain(&y[b]).all(|&t| t < vocab.len()));
            }
        }
        Err(e) => assert!(
            matches!(e.kind, DataErrorKind::WindowTooLong { needed: 9, available } if available < 9),
            "{e}"
        ),
    }
    Outcome::Ok
}

#[test]
fn fuzz_corpus() {
    let seeds = seed_files("corpus");
    let mutator = Mutator {
        seeds: &seeds,
        dict: CORPUS_DICT,
        separators: b" \n",
        max_len: 16 << 10,
    };
    fuzz(
        "corpus",
        |rng, i| {
            let (which, input) = match usize::try_from(i).ok().filter(|&i| i < seeds.len()) {
                Some(i) => (i, seeds[i].bytes.clone()),
                None => mutator.input(rng),
            };
            let fraction = pick(
                rng,
                &[0.0, 0.5, 0.9, 1.0, -1.0, 2.0, f64::NAN, f64::INFINITY],
            );
            let ids = (0..3)
                .map(|_| {
                    if rng.r#gen() {
                        rng.gen_range(0..80)
                    } else {
                        rng.r#gen()
                    }
                })
                .collect();
            (
                input,
                CorpusSetup {
                    seed: seeds[which].name.clone(),
                    via_file: rng.gen_ratio(1, 8),
                    fraction,
                    ids,
                },
            )
        },
        check_corpus,
    );
}

/// The edge of the vocabulary: 65,536 distinct characters are token ids `0..=u16::MAX`, one more
/// is a typed error.
#[test]
fn corpus_vocabulary_at_the_u16_limit() {
    let chars: String = (0..=0x10ffffu32)
        .filter_map(char::from_u32)
        .take(65_537)
        .collect();
    let (most, last) = chars.split_at(chars.char_indices().last().unwrap().0);
    let corpus = CharCorpus::from_text(most, "max").unwrap();
    assert_eq!(corpus.vocab().len(), 65_536);
    assert_eq!(corpus.tokens().last(), Some(&u16::MAX));
    assert_eq!(corpus.decode(corpus.tokens()).unwrap(), most);
    assert!(matches!(
        corpus.encode(last).unwrap_err().kind,
        DataErrorKind::UnknownChar(_)
    ));
    let err = CharCorpus::from_text(&chars, "over").unwrap_err();
    assert!(
        matches!(err.kind, DataErrorKind::VocabTooLarge(65_537)),
        "{err}"
    );
}

// ---- Safetensors checkpoints ----

/// The parameters of `tests/data/torch_checkpoint.safetensors`, in `f32` and in `f64`.
macro_rules! torch_model {
    ($model:ident, $layer:ident, $head:ident, $f:ty) => {
        #[derive(Parameters, Debug)]
        #[parameters(crate = "autodiff_runtime")]
        struct $layer {
            w: [[$f; 3]; 3],
            b: [$f; 3],
        }
        #[derive(Parameters, Debug)]
        #[parameters(crate = "autodiff_runtime")]
        struct $head {
            w: [[$f; 3]; 1],
            b: [$f; 1],
        }
        #[derive(Parameters, Debug)]
        #[parameters(crate = "autodiff_runtime")]
        struct $model {
            layers: [$layer; 2],
            head: $head,
            scale: $f,
        }
    };
}
torch_model!(Torch32, Layer32, Head32, f32);
torch_model!(Torch64, Layer64, Head64, f64);

#[rustfmt::skip]
const SAFETENSORS_DICT: &[&[u8]] = &[
    b"\"F32\"", b"\"F64\"", b"\"BF16\"", b"\"F16\"", b"\"I64\"", b"\"BOOL\"", b"\"U8\"",
    b"\"F8_E4M3\"", b"\"F4\"", b"\"F6_E2M3\"", b"\"E8M0\"", b"[]", b"[0]", b"[1]", b"[1,3]",
    b"[3,3]", b"[9]", b"[3,0]", b"[18446744073709551615]", b"[4294967296,4294967296]",
    b"[18446744073709551615,2]", b"[0,4]", b"[4,0]", b"[0,18446744073709551615]",
    b"18446744073709551615", b"-1", b"1e400", b"\"shape\"", b"\"dtype\"", b"\"data_offsets\"",
    b"\"__metadata__\"", b"{}", b"null", b"\"scale\"", b"\"layers.0.w\"", b"\"head.b\"",
    b"\"layers.2.w\"", b"\"\"", b"\"\\u0000\"", b"\"\\ud800\"", b",", b":", b"{", b"}",
];

/// Splits a safetensors file into its JSON header and data (`None` if the length is unreadable).
fn safetensors_parts(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let (n, rest) = bytes.split_first_chunk::<8>()?;
    let n = usize::try_from(u64::from_le_bytes(*n)).ok()?;
    (n <= rest.len()).then(|| (rest[..n].to_vec(), rest[n..].to_vec()))
}

/// Mutates the JSON header of a safetensors file and writes its length back, so that the input
/// gets past the length check; the data is kept, cut or extended.
fn mutate_safetensors_header(rng: &mut SmallRng, mutator: &Mutator<'_>, data: &mut Vec<u8>) {
    let Some((mut header, mut tensors)) = safetensors_parts(data) else {
        return;
    };
    let mut rounds = 1;
    while rng.gen_ratio(1, 2) && rounds < 6 {
        rounds += 1;
    }
    for _ in 0..rounds {
        mutator.mutate_once(rng, &mut header);
    }
    match rng.gen_range(0..8) {
        0 => tensors.truncate(rng.gen_range(0..=tensors.len())),
        1 => tensors.extend((0..rng.gen_range(1..16)).map(|_| rng.r#gen::<u8>())),
        2 => {
            for b in &mut tensors {
                if rng.gen_ratio(1, 8) {
                    *b = rng.r#gen();
                }
            }
        }
        _ => {}
    }
    let mut n = header.len() as u64;
    if rng.gen_ratio(1, 16) {
        n = pick(rng, INTERESTING_WORDS);
    }
    *data = n.to_le_bytes().to_vec();
    data.extend(header);
    data.extend(tensors);
}

/// Every value's bits, tensor by tensor.
fn bits<P: Parameters>(p: &P) -> Vec<(String, Vec<usize>, Vec<u64>)> {
    use autodiff_runtime::Float;
    let mut out = Vec::new();
    p.for_each_tensor(|name, shape, values| {
        out.push((
            name.to_string(),
            shape.to_vec(),
            values.iter().map(|v| v.to_f64().to_bits()).collect(),
        ));
    });
    out
}

/// `checkpoint::from_bytes::<P>`: `Ok` round-trips bit for bit, and each error names a tensor the
/// way its variant promises.
fn check_checkpoint<P: Parameters + Debug>(input: &[u8]) -> Outcome {
    let params = bits(&P::zeroed());
    let shape_of = |name: &str| {
        params
            .iter()
            .find(|(n, ..)| n == name)
            .map(|(_, s, _)| s.clone())
    };
    match checkpoint::from_bytes::<P>(input) {
        Ok(p) => {
            let again: P = checkpoint::from_bytes(&checkpoint::to_bytes(&p).unwrap()).unwrap();
            assert_eq!(bits(&again), bits(&p));
            Outcome::Ok
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(!shown.is_empty());
            match &e {
                CheckpointError::Format(inner) => assert!(!inner.to_string().is_empty(), "{e}"),
                CheckpointError::MissingTensor { name } => {
                    assert!(shape_of(name).is_some(), "{e}");
                    assert!(shown.contains(name.as_str()));
                }
                CheckpointError::UnexpectedTensor { name } => {
                    assert!(shape_of(name).is_none(), "{e}")
                }
                CheckpointError::DtypeMismatch {
                    name,
                    expected,
                    found,
                } => {
                    assert!(shape_of(name).is_some() && expected != found, "{e}");
                }
                CheckpointError::ShapeMismatch {
                    name,
                    expected,
                    found,
                } => {
                    assert_eq!(shape_of(name).as_ref(), Some(expected), "{e}");
                    assert_ne!(expected, found, "{e}");
                }
                other => panic!("unexpected checkpoint error: {other:?} ({e})"),
            }
            Outcome::Err(kind_name(&e))
        }
    }
}

#[test]
fn fuzz_safetensors() {
    let mut seeds = seed_files("safetensors");
    // Files written by this crate, whose values are not exact in decimal.
    let mut m32 = Torch32::zeroed();
    let mut m64 = Torch64::zeroed();
    let mut k = 0.0;
    m32.for_each_mut(|x| {
        k += 1.0;
        *x = k / -3.0;
    });
    m64.for_each_mut(|x| {
        k += 1.0;
        *x = f64::from(k) / 7.0;
    });
    for (name, bytes) in [
        ("written-f32", checkpoint::to_bytes(&m32)),
        ("written-f64", checkpoint::to_bytes(&m64)),
    ] {
        seeds.push(Seed {
            name: name.into(),
            bytes: bytes.unwrap(),
        });
    }
    let mutator = Mutator {
        seeds: &seeds,
        dict: SAFETENSORS_DICT,
        separators: b",:{}[]\"",
        max_len: 16 << 10,
    };
    fuzz(
        "safetensors",
        |rng, i| {
            let (which, input) = match usize::try_from(i).ok().filter(|&i| i < seeds.len()) {
                Some(i) => (i, seeds[i].bytes.clone()),
                None if rng.gen_ratio(1, 6) => {
                    // Other values (NaN, infinities, subnormals) under the same header.
                    let which = rng.gen_range(0..seeds.len());
                    let mut input = seeds[which].bytes.clone();
                    let header = safetensors_parts(&input).map_or(0, |(h, _)| 8 + h.len());
                    for _ in 0..rng.gen_range(1..=8) {
                        if let Some(at) =
                            (header < input.len()).then(|| rng.gen_range(header..input.len()))
                        {
                            input[at] = if rng.r#gen() {
                                rng.r#gen()
                            } else {
                                pick(rng, &[0, 1, 0x7f, 0x80, 0xc0, 0xf0, 0xff])
                            };
                        }
                    }
                    (which, input)
                }
                None if rng.gen_ratio(3, 5) => {
                    let which = rng.gen_range(0..seeds.len());
                    let mut input = seeds[which].bytes.clone();
                    mutate_safetensors_header(rng, &mutator, &mut input);
                    (which, input)
                }
                None => mutator.input(rng),
            };
            (input, seeds[which].name.clone())
        },
        |input, _| {
            // Each input as f32 and as f64 parameters (one of them is a dtype mismatch).
            match (
                check_checkpoint::<Torch32>(input),
                check_checkpoint::<Torch64>(input),
            ) {
                (Outcome::Ok, _) | (_, Outcome::Ok) => Outcome::Ok,
                (Outcome::Err(a), Outcome::Err(b)) => {
                    Outcome::Err(if a == "DtypeMismatch" { b } else { a })
                }
            }
        },
    );
}
