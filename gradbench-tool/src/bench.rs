//! What the benches (`benches/`) share: seeded inputs, a median over batches, and the
//! report of interleaved rounds.

use std::time::Instant;

/// `len` numbers in `[lo, hi)` from a seeded linear congruential generator.
pub fn numbers(seed: u64, len: usize, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// `len` standard normal numbers (Box-Muller over [`numbers`]), as GradBench's generators draw
/// most of their inputs.
pub fn normals(seed: u64, len: usize) -> Vec<f64> {
    let u = numbers(seed, 2 * len, f64::MIN_POSITIVE, 1.0);
    (0..len)
        .map(|i| (-2.0 * u[2 * i].ln()).sqrt() * (std::f64::consts::TAU * u[2 * i + 1]).cos())
        .collect()
}

/// Median seconds of `f` over `batches` runs.
pub fn median(mut f: impl FnMut(), batches: usize) -> f64 {
    let mut t: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Prints one round's two medians (seconds) and their ratio, `b / a`.
pub fn round(what: &str, round: usize, (a_name, a): (&str, f64), (b_name, b): (&str, f64)) {
    println!(
        "{what} round {round}: {a_name} {:.3} ms, {b_name} {:.3} ms, ratio {:.2}",
        a * 1e3,
        b * 1e3,
        b / a
    );
}

/// Prints the medians over the rounds, `a` and `b` sorted in place.
pub fn medians(what: &str, (a_name, a): (&str, &mut [f64]), (b_name, b): (&str, &mut [f64])) {
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (a, b) = (a[a.len() / 2], b[b.len() / 2]);
    println!(
        "{what} median: {a_name} {:.3} ms, {b_name} {:.3} ms, ratio {:.2}",
        a * 1e3,
        b * 1e3,
        b / a
    );
}
