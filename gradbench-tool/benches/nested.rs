//! The cost of nested derivatives over their nested primal, on GradBench's `saddle` and
//! `particle`: the outer objective (which calls an inner derivative in every step) against its
//! outer derivative, in the four combinations of outer and inner mode. Interleaved rounds, each
//! a median over batches; every round is printed.
//!
//! ```sh
//! cargo bench -p stackgrad-gradbench --bench nested
//! ```

use std::hint::black_box;
use std::time::Instant;

use stackgrad_gradbench::evals::{particle, saddle};

/// Median seconds per call of `f`, over `batches` batches of `per` calls.
fn median(mut f: impl FnMut(), batches: usize, per: usize) -> f64 {
    let mut t: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per {
                f();
            }
            start.elapsed().as_secs_f64() / per as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

type Case<'a> = (&'a str, Box<dyn FnMut() + 'a>);

fn main() {
    println!("cpu: {}", stackgrad_gradbench::cpu_model());
    let (x, start) = ([0.7, -0.4], [1.0, 1.0]);
    let e = [[1.0, 0.0], [0.0, 1.0]];
    let w = 0.1;
    let mut cases: Vec<Case> = vec![
        (
            "saddle primal, inner reverse",
            Box::new(|| {
                black_box(saddle::inner_max(black_box(&x), &start, false));
            }),
        ),
        (
            "saddle rr (gradient)",
            Box::new(|| {
                black_box(saddle::inner_max_grad(black_box(&x), &start, false));
            }),
        ),
        (
            "saddle fr (one tangent)",
            Box::new(|| {
                black_box(saddle::inner_max_jvp(black_box(&x), &start, false, &e[0]));
            }),
        ),
        (
            "saddle primal, inner forward",
            Box::new(|| {
                black_box(saddle::inner_max(black_box(&x), &start, true));
            }),
        ),
        (
            "saddle rf (gradient)",
            Box::new(|| {
                black_box(saddle::inner_max_grad(black_box(&x), &start, true));
            }),
        ),
        (
            "saddle ff (one tangent)",
            Box::new(|| {
                black_box(saddle::inner_max_jvp(black_box(&x), &start, true, &e[0]));
            }),
        ),
        (
            "particle primal, inner reverse",
            Box::new(|| {
                black_box(particle::crossing(black_box(w), false));
            }),
        ),
        (
            "particle rr (gradient)",
            Box::new(|| {
                black_box(particle::crossing_grad(black_box(w), false));
            }),
        ),
        (
            "particle fr (tangent)",
            Box::new(|| {
                black_box(particle::crossing_jvp(black_box(w), false, 1.0));
            }),
        ),
        (
            "particle primal, inner forward",
            Box::new(|| {
                black_box(particle::crossing(black_box(w), true));
            }),
        ),
        (
            "particle rf (gradient)",
            Box::new(|| {
                black_box(particle::crossing_grad(black_box(w), true));
            }),
        ),
        (
            "particle ff (tangent)",
            Box::new(|| {
                black_box(particle::crossing_jvp(black_box(w), true, 1.0));
            }),
        ),
    ];
    let rounds = 5;
    let mut all = vec![Vec::new(); cases.len()];
    for round in 1..=rounds {
        for (k, (_, f)) in cases.iter_mut().enumerate() {
            all[k].push(median(f, 21, 200));
        }
        let line: Vec<String> = (cases.iter().zip(&all))
            .map(|((name, _), t)| format!("{name} {:.2} µs", t[round - 1] * 1e6))
            .collect();
        println!("round {round}: {}", line.join("; "));
    }
    println!("\nderivative / its nested primal (median over the rounds; per round in brackets):");
    for (primal, derivs) in [(0, [1, 2]), (3, [4, 5]), (6, [7, 8]), (9, [10, 11])] {
        for d in derivs {
            let mut r: Vec<f64> = (0..rounds).map(|i| all[d][i] / all[primal][i]).collect();
            let shown: Vec<String> = r.iter().map(|x| format!("{x:.2}")).collect();
            r.sort_by(f64::total_cmp);
            println!(
                "  {:<26} {:.2}x  [{}]",
                cases[d].0,
                r[rounds / 2],
                shown.join(", ")
            );
        }
    }
}
