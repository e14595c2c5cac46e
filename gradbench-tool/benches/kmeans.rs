//! GradBench's `kmeans` at its largest default sizes (k = 100 and 1000 centroids, n = 10,000
//! points, d = 8 and 16; seeded uniform points, the first k of them the centroids, `d` hidden
//! from the compiler as the eval's input hides it): the cost against `dir`'s gradient and
//! Hessian diagonal (`cost_hvp` along the all-ones vector). Interleaved rounds, each a median
//! over batches; every round is printed.
//!
//! ```sh
//! cargo bench -p stackgrad-gradbench --bench kmeans
//! ```

use std::hint::black_box;

use stackgrad_gradbench::bench::{self, median, numbers};
use stackgrad_gradbench::evals::kmeans::{cost, cost_hvp};

fn main() {
    println!("cpu: {}", stackgrad_gradbench::cpu_model());
    for (k, n, d) in [(100, 10_000, 8), (100, 10_000, 16), (1000, 10_000, 16)] {
        let p = numbers(1, n * d, 0.0, 1.0);
        let c = p[..k * d].to_vec();
        let ones = vec![1.0; c.len()];
        let (mut g, mut h) = (vec![0.0; c.len()], vec![0.0; c.len()]);
        let batches = if k > 100 { 5 } else { 21 };
        let what = format!("k={k},n={n},d={d}");
        let (mut primal, mut dir) = (Vec::new(), Vec::new());
        for round in 1..=5 {
            primal.push(median(
                || {
                    black_box(cost(black_box(&c), &p, black_box(d)));
                },
                batches,
            ));
            dir.push(median(
                || {
                    cost_hvp(black_box(&c), &p, black_box(d), &ones, &mut g, &mut h);
                },
                batches,
            ));
            let (a, b) = (primal[round - 1], dir[round - 1]);
            bench::round(&what, round, ("cost", a), ("gradient and H diagonal", b));
        }
        bench::medians(
            &what,
            ("cost", &mut primal),
            ("gradient and H diagonal", &mut dir),
        );
    }
}
