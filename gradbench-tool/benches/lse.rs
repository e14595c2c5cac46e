//! GradBench's `lse` at its default sizes, n = 2,500 to 1,280,000: the primal against its
//! gradient (the eval's `gradient`: `lse_forward` and `lse_adjoint`, the tape kept), on seeded
//! random inputs. Interleaved rounds, each a median over batches; every round is printed.
//!
//! ```sh
//! cargo bench -p stackgrad-gradbench --bench lse
//! ```

use std::hint::black_box;

use stackgrad_gradbench::evals::lse::{LseTape, gradient, lse};

use stackgrad_gradbench::bench::{self, median, numbers};
fn main() {
    println!("cpu: {}", stackgrad_gradbench::cpu_model());
    for n in [2_500, 20_000, 160_000, 1_280_000] {
        let x = numbers(1, n, -5.0, 5.0);
        let (mut d_x, mut tape) = (vec![0.0; n], LseTape::new());
        let batches = if n > 100_000 { 15 } else { 201 };
        let (mut primal, mut grad) = (Vec::new(), Vec::new());
        for round in 1..=5 {
            primal.push(median(
                || {
                    black_box(lse(black_box(&x)));
                },
                batches,
            ));
            grad.push(median(
                || {
                    gradient(black_box(&x), &mut tape, &mut d_x);
                    black_box(&d_x);
                },
                batches,
            ));
            let (p, g) = (primal[round - 1], grad[round - 1]);
            bench::round(&format!("n={n}"), round, ("primal", p), ("gradient", g));
        }
        bench::medians(
            &format!("n={n}"),
            ("primal", &mut primal),
            ("gradient", &mut grad),
        );
    }
}
