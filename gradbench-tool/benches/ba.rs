//! Bundle adjustment (ADBench's `ba`, GradBench's eval): the objective (all reprojection and
//! weight residuals) against the sparse Jacobian in ADBench's CSR layout, on ADBench's inputs in
//! `data/adbench/ba` as GradBench builds them (one camera, point, weight and feature duplicated
//! into `n` cameras, `m` points and `p` observations). Interleaved rounds, each a median over
//! batches; every round is printed.
//!
//! ```sh
//! cargo bench -p stackgrad-gradbench --bench ba            # ba1, ba5 and ba14
//! cargo bench -p stackgrad-gradbench --bench ba -- ba1 ba2 # chosen workloads
//! ```

use std::hint::black_box;

use stackgrad_gradbench::evals::ba::{Csr, Problem, reprojection_jacobian};

use stackgrad_gradbench::bench::median;
/// ADBench's file `data/adbench/ba/{name}_*.txt`, as GradBench builds the eval's input.
fn read(name: &str) -> Problem {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/adbench/ba");
    let file = std::fs::read_dir(dir)
        .expect("data/adbench/ba")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            let stem = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
            stem.starts_with(&format!("{name}_"))
        })
        .unwrap_or_else(|| panic!("no workload {name} in {dir}"));
    let input = stackgrad_gradbench::adbench::ba_input(&file).expect("an ADBench file");
    Problem::read(&input).expect("a valid workload")
}

fn main() {
    println!("cpu: {}", stackgrad_gradbench::cpu_model());
    let mut names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.starts_with("ba"))
        .collect();
    if names.is_empty() {
        names = ["ba1", "ba5", "ba14"].map(String::from).to_vec();
    }
    let rounds = 5;
    for name in names {
        let pb = read(&name);
        let p = pb.obs.len();
        let (mut reproj, mut w_err) = (vec![0.0; 2 * p], vec![0.0; p]);
        let mut j = Csr::default();
        // Scaled so that a batch is about 20 ms.
        let batches = (2_000_000 / p).clamp(5, 41);
        let (mut obj, mut jac, mut blocks) = (Vec::new(), Vec::new(), Vec::new());
        for round in 1..=rounds {
            obj.push(median(
                || {
                    pb.objective(black_box(&mut reproj), black_box(&mut w_err));
                },
                batches,
            ));
            jac.push(median(|| pb.jacobian(black_box(&mut j)), batches));
            // The 2 x 15 blocks alone, without the CSR layout: what the sweeps cost.
            blocks.push(median(
                || {
                    for (i, &(c, pt)) in pb.obs.iter().enumerate() {
                        black_box(reprojection_jacobian(
                            &pb.cams[c],
                            &pb.points[pt],
                            pb.weights[i],
                            &pb.features[i],
                        ));
                    }
                },
                batches,
            ));
            println!(
                "{name} (p = {p}) round {round}: objective {:.3} ms, jacobian {:.3} ms (its blocks alone {:.3} ms), ratio {:.2}",
                obj[round - 1] * 1e3,
                jac[round - 1] * 1e3,
                blocks[round - 1] * 1e3,
                jac[round - 1] / obj[round - 1]
            );
        }
        let mut r: Vec<f64> = (0..rounds).map(|i| jac[i] / obj[i]).collect();
        r.sort_by(f64::total_cmp);
        println!(
            "{name}: jacobian / objective, median over the rounds: {:.2}",
            r[rounds / 2]
        );
    }
}
