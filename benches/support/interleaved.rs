//! Ratios of two functions' times from interleaved rounds.
//!
//! Criterion times one case, then the next, for seconds each: on a shared machine they see
//! different load, and whichever runs first pays for warming the core up (measured on the small
//! graph: swapping the two cases' order moved criterion's ratio from 1.25 to 0.80). Here each
//! round times `a`, `b`, `b`, `a` (a drift in speed within a round cancels); every round is
//! printed, then the median.

use std::hint::black_box;
use std::time::Instant;

/// Interleaved rounds per ratio.
pub const ROUNDS: usize = 21;

/// Nanoseconds per call of `f` over `calls` calls (`f` puts its inputs through `black_box`).
fn ns_per_call<R>(f: &impl Fn() -> R, calls: u32) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        black_box(f());
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(calls)
}

/// A time in nanoseconds, in ns or µs.
fn time(ns: f64) -> String {
    if ns < 1e4 {
        format!("{ns:.2} ns")
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}

/// Prints each round's `a / b` time ratio and the median of the rounds; each timing is `calls`
/// calls of one function (10^6 for a function of nanoseconds, a few for one of milliseconds).
pub fn ratio<RA, RB>(
    name: &str,
    calls: u32,
    (a_name, a): (&str, impl Fn() -> RA),
    (b_name, b): (&str, impl Fn() -> RB),
) {
    let mut ratios: Vec<f64> = (0..ROUNDS)
        .map(|round| {
            let (a1, b1, b2, a2) = (
                ns_per_call(&a, calls),
                ns_per_call(&b, calls),
                ns_per_call(&b, calls),
                ns_per_call(&a, calls),
            );
            let ratio = (a1 + a2) / (b1 + b2);
            println!(
                "{name} round {round:2}: {a_name} {}, {b_name} {}, ratio {ratio:.3}",
                time((a1 + a2) / 2.0),
                time((b1 + b2) / 2.0)
            );
            ratio
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "{name} {a_name} / {b_name}: median of {ROUNDS} interleaved rounds {:.3} \
         (lowest {:.3}, highest {:.3})",
        ratios[ROUNDS / 2],
        ratios[0],
        ratios[ROUNDS - 1]
    );
}
