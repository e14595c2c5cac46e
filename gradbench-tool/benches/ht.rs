//! GradBench's `ht` on ADBench's files (`data/adbench/ht`): the small model's simple variant on
//! hand1, hand8 and hand12 (and hand6 and hand7, the middle of its twelve, and hand9 and hand10,
//! either side of the rows by blocks), and the big model's complicated variant on hand1: the
//! objective against the dense Jacobian. Interleaved rounds, each a median over batches; every round is
//! printed, then the time to write a Jacobian of that size (the floor of any dense Jacobian)
//! and the compression's (computed when the input is read).
//!
//! ```sh
//! cargo bench -p stackgrad-gradbench --bench ht
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};

use stackgrad_gradbench::bench::{self, median};
use stackgrad_gradbench::evals::ht::{Compression, Problem};

/// The workloads: (name, model directory, hand file, complicated). Under `$ADBENCH_DATA` (a
/// full copy of ADBench's data laid out as ADBench has it, e.g. `../shared/data/adbench`)
/// hand1, hand8 and the largest of each variant, and the simple variant's hand6 and hand7
/// (GradBench's median of its twelve lies between them) and hand9 and hand10; else the repo's
/// `data/adbench` copy, hand1 of each.
fn workloads() -> Vec<(String, PathBuf, PathBuf, bool)> {
    let (root, small, big, small_hands, big_hands) = match std::env::var_os("ADBENCH_DATA") {
        Some(dir) => (
            PathBuf::from(dir).join("ht"),
            "simple_small",
            "complicated_big",
            &[
                "hand1_t26_c100",
                "hand6_t26_c1600",
                "hand7_t26_c3200",
                "hand8_t26_c6400",
                "hand9_t26_c12800",
                "hand10_t26_c25600",
                "hand12_t26_c100000",
            ][..],
            &["hand1_t26_c100", "hand8_t26_c6400", "hand11_t26_c51200"][..],
        ),
        None => (
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/adbench/ht")).to_path_buf(),
            "",
            "big",
            &["hand1_t26_c100"][..],
            &["hand1_t26_c100"][..],
        ),
    };
    let at = |dir: &str, hands: &[&str], what: &str, complicated: bool| {
        (hands.iter())
            .map(|h| {
                let (m, f) = (
                    root.join(dir).join("model"),
                    root.join(dir).join(format!("{h}.txt")),
                );
                (format!("{what} {h}"), m, f, complicated)
            })
            .collect::<Vec<_>>()
    };
    let mut out = at(small, small_hands, "small simple", false);
    out.extend(at(big, big_hands, "big complicated", true));
    out
}

fn main() {
    println!("cpu: {}", stackgrad_gradbench::cpu_model());
    // `cargo bench ... --bench ht -- NAME` runs the workloads whose name contains `NAME`.
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    for (name, model, hand, complicated) in workloads() {
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let input = stackgrad_gradbench::adbench::ht_input(&model, &hand, complicated)
            .expect("ADBench's files");
        let pb = Problem::read(&input).expect("a valid workload");
        let batches = if pb.points.len() > 10_000 { 51 } else { 501 };
        // The compression is computed when the input is read (untimed by GradBench, as
        // reading the model is): its cost, for the record.
        let colour = median(
            || {
                black_box(Compression::of(black_box(&pb.model), complicated).unwrap());
            },
            batches,
        );
        println!(
            "{name}: finger columns in {} lanes; compression computed in {:.3} ms",
            pb.compression.lanes,
            colour * 1e3
        );
        let (mut err, mut rows) = (Vec::new(), Default::default());
        // The same sweeps with a lane per column (no compression), for comparison.
        let mut dense = pb.clone();
        dense.compression = Compression::identity();
        let mut dense_rows = Default::default();
        let (mut obj, mut jac, mut jac_dense) = (Vec::new(), Vec::new(), Vec::new());
        for round in 1..=5 {
            obj.push(median(|| pb.objective_into(black_box(&mut err)), batches));
            jac.push(median(|| pb.jacobian(black_box(&mut rows)), batches));
            jac_dense.push(median(
                || dense.jacobian(black_box(&mut dense_rows)),
                batches,
            ));
            let (o, j, d) = (obj[round - 1], jac[round - 1], jac_dense[round - 1]);
            bench::round(&name, round, ("objective", o), ("jacobian", j));
            println!(
                "{name} round {round}: jacobian, a lane per column {:.3} ms, ratio {:.2}",
                d * 1e3,
                d / o
            );
        }
        bench::medians(
            &name,
            ("objective", &mut obj.clone()),
            ("jacobian", &mut jac),
        );
        bench::medians(
            &name,
            ("objective", &mut obj),
            ("jacobian, a lane per column", &mut jac_dense),
        );
        // The floor of any dense Jacobian: writing its rows (3 per point, 26 or 28 floats).
        let (n, width) = (3 * pb.points.len(), if complicated { 28 } else { 26 });
        let mut out: Vec<f64> = Vec::new();
        let write = median(
            || {
                out.clear();
                out.resize(n * width, black_box(1.0));
            },
            batches,
        );
        println!(
            "{name}: writing the {n} x {width} Jacobian alone {:.3} ms",
            write * 1e3
        );
    }
}
