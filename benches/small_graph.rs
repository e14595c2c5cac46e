//! `f_grad` of the micrograd README expression as `#[differentiable]` generates it, against the
//! same value and gradient written out by hand (forward pass, then reverse sweep).
//!
//! Both cases run in one group at the README's inputs (a = -4, b = 2), so their ratio is read from
//! one run: `cargo bench --bench small_graph`. The inputs go through `black_box` inside the timed
//! closure; there is no other setup to keep out of the timing.
//!
//! Criterion's ratio depends on which case runs first; the bench then prints the ratio again
//! from interleaved rounds (`support/interleaved.rs`), every round listed, and their median.

use criterion::{Criterion, black_box};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
#[path = "support/interleaved.rs"]
mod interleaved;
#[path = "support/micrograd.rs"]
mod micrograd;

use micrograd::*;

/// The value of [`micrograd::micrograd`] and its gradient `(dg/da, dg/db)`, derived and written by hand.
fn micrograd_by_hand(a: f64, b: f64) -> (f64, (f64, f64)) {
    // The forward sweep evaluates the function exactly as written (same operations in the same
    // order, so the same value to the last bit); the reverse sweep is simplified by hand.
    let c0 = a + b;
    let d0 = a * b + b.powi(3);
    let c1 = c0 + (c0 + 1.0);
    let c2 = c1 + (1.0 + c1 + (-a));
    let sum = b + a;
    let d1 = d0 + (d0 * 2.0 + sum.max(0.0));
    let difference = b - a;
    let d2 = d1 + (3.0 * d1 + difference.max(0.0));
    let e = c2 - d2;
    let f = e.powi(2);
    let g = f / 2.0 + 10.0 / f;

    let d_f = 0.5 - 10.0 / (f * f);
    let d_e = d_f * 2.0 * e;
    let d_c2 = d_e;
    let d_d2 = -d_e;
    // relu passes its adjoint where its argument is >= 0 (a tie goes to the receiver).
    let d_difference = if difference >= 0.0 { d_d2 } else { 0.0 };
    let d_d1 = 4.0 * d_d2;
    let d_sum = if sum >= 0.0 { d_d1 } else { 0.0 };
    let d_d0 = 3.0 * d_d1;
    let d_c1 = 2.0 * d_c2;
    let d_c0 = 2.0 * d_c1;
    let d_a = d_c0 - d_c2 + d_sum - d_difference + d_d0 * b;
    let d_b = d_c0 + d_sum + d_difference + d_d0 * (a + 3.0 * b * b);
    (g, (d_a, d_b))
}

/// The README's inputs.
const A: f64 = -4.0;
const B: f64 = 2.0;

/// Asserts `|actual - expected| <= rtol * max(1, |expected|)`.
#[track_caller]
fn assert_close(what: &str, actual: f64, expected: f64, rtol: f64) {
    let tolerance = rtol * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: got {actual:?}, expected {expected:?}"
    );
}

/// The hand-written gradient is the generated one (at the README point and at 20 seeded points),
/// and both give the README's numbers.
fn check_by_hand_matches_generated() {
    let (g, (d_a, d_b)) = micrograd_by_hand(A, B);
    assert!((g - 24.7041).abs() <= 1e-4, "g = {g}");
    assert!((d_a - 138.8338).abs() <= 1e-4, "dg/da = {d_a}");
    assert!((d_b - 645.5773).abs() <= 1e-4, "dg/db = {d_b}");

    let mut rng = SmallRng::seed_from_u64(7);
    let random = (0..20).map(|_| (rng.gen_range(-3.0..3.0), rng.gen_range(-3.0..3.0)));
    for (a, b) in [(A, B)].into_iter().chain(random) {
        let (value, (d_a, d_b)) = micrograd_grad(a, b);
        let (hand_value, (hand_d_a, hand_d_b)) = micrograd_by_hand(a, b);
        assert_eq!(value, micrograd(a, b), "generated value at ({a}, {b})");
        // The two round differently (2c + 1 versus c + (c + 1), b * b * b versus powi(3)).
        assert_eq!(hand_value, value, "hand-written value at ({a}, {b})");
        assert_close("dg/da", hand_d_a, d_a, 1e-10);
        assert_close("dg/db", hand_d_b, d_b, 1e-10);
    }
}

fn small_graph(c: &mut Criterion) {
    check_by_hand_matches_generated();
    let mut group = c.benchmark_group("small_graph");
    group.bench_function("small_graph_generated", |bencher| {
        bencher.iter(|| micrograd_grad(black_box(A), black_box(B)));
    });
    group.bench_function("small_graph_handwritten", |bencher| {
        bencher.iter(|| micrograd_by_hand(black_box(A), black_box(B)));
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    small_graph(&mut c);
    c.final_summary();
    interleaved::ratio(
        "small_graph",
        1_000_000,
        ("generated", || micrograd_grad(black_box(A), black_box(B))),
        ("hand-written", || {
            micrograd_by_hand(black_box(A), black_box(B))
        }),
    );
}
