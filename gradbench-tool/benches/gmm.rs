//! GradBench's `gmm` at five of its default sizes, from d = 2, k = 5 to its largest, d = 64,
//! k = 100 (n = 1000): the objective against its gradient (`gmm_grad`), on seeded random inputs
//! drawn as the eval draws them (`x`, `alpha`, `q` and `l` standard normal, `mu` uniform in
//! [0, 1): the times depend on the values, through the exponentials of the components' terms).
//! Interleaved rounds, each a median over batches; every round is printed.
//!
//! ```sh
//! cargo bench -p stackgrad-gradbench --bench gmm
//! ```

use std::hint::black_box;

use stackgrad_gradbench::evals::gmm::{gradient, objective};

use stackgrad_gradbench::bench::{self, median, normals, numbers};
fn main() {
    println!("cpu: {}", stackgrad_gradbench::cpu_model());
    for (d, k, n) in [
        (2, 5, 1000),
        (10, 25, 1000),
        (20, 25, 1000),
        (32, 50, 1000),
        (64, 100, 1000),
    ] {
        let alpha = normals(1, k);
        let mu = numbers(2, k * d, 0.0, 1.0);
        let q = normals(3, k * d);
        let l = normals(4, k * (d * (d - 1) / 2));
        let x = normals(5, n * d);
        let (m, gamma) = (0.0, 1.0);
        let mut g = [alpha.len(), mu.len(), q.len(), l.len()].map(|len| vec![0.0; len]);
        let batches = 9;
        let (mut obj, mut jac) = (Vec::new(), Vec::new());
        for round in 1..=5 {
            obj.push(median(
                || {
                    black_box(objective(
                        black_box(&alpha),
                        &mu,
                        &q,
                        &l,
                        &x,
                        d,
                        m,
                        gamma,
                        0.0,
                    ));
                },
                batches,
            ));
            jac.push(median(
                || {
                    black_box(gradient(
                        black_box(&alpha),
                        &mu,
                        &q,
                        &l,
                        &x,
                        (d, m, gamma, 0.0),
                        &mut g,
                    ));
                },
                batches,
            ));
            let what = format!("d={d} k={k} n={n}");
            let (o, j) = (obj[round - 1], jac[round - 1]);
            bench::round(&what, round, ("objective", o), ("gradient", j));
        }
        let what = format!("d={d} k={k} n={n}");
        bench::medians(&what, ("objective", &mut obj), ("gradient", &mut jac));
    }
}
