//! ADBench's GMM objective (tests/models/gmm.rs) and its generated gradient, in one criterion
//! group per instance, so `gradient / objective` comes from one run: `cargo bench --bench
//! adbench`. The gradient case runs the forward sweep into a tape allocated once and the adjoint
//! into zeroed buffers, as a training loop does. Each instance prints its tape size first.

#![allow(clippy::needless_range_loop)] // index loops are how the objective is written

use criterion::{Criterion, black_box, criterion_group, criterion_main};

#[allow(dead_code)]
#[path = "../tests/models/gmm.rs"]
mod gmm;

use gmm::*;

fn instance<const D: usize, const K: usize, const N: usize, const Q: usize>(
    c: &mut Criterion,
    name: &str,
    file: &str,
) {
    let data: Gmm<D, K, N, Q> = load(format!(
        "{}/data/adbench/gmm/{file}",
        env!("CARGO_MANIFEST_DIR")
    ));
    let (alphas, means, icf, x) = (&data.alphas, &data.means, &data.icf, &*data.x);
    let mut tape = Box::new(GmmObjectiveTape::<D, K, N, Q>::new());
    println!(
        "{name}: tape {} bytes ({:.2} MB), {} fields",
        GmmObjectiveTape::<D, K, N, Q>::BYTES,
        GmmObjectiveTape::<D, K, N, Q>::BYTES as f64 / 1e6,
        GmmObjectiveTape::<D, K, N, Q>::FIELDS.len()
    );
    for (field, what, ty, bytes) in GmmObjectiveTape::<D, K, N, Q>::FIELDS {
        println!("  {field:<12} {bytes:>10} B  {ty:<22} {what}");
    }
    let mut group = c.benchmark_group(name);
    group.bench_function("objective", |b| {
        b.iter(|| {
            gmm_objective::<D, K, N, Q>(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
            )
        })
    });
    group.bench_function("gradient", |b| {
        b.iter(|| {
            let value = gmm_objective_forward::<D, K, N, Q>(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
                &mut tape,
            );
            let mut d_alphas = [0.0; K];
            let mut d_means = [[0.0; D]; K];
            let mut d_icf = [[0.0; Q]; K];
            gmm_objective_adjoint::<D, K, N, Q>(
                alphas,
                means,
                icf,
                x,
                &tape,
                1.0,
                &mut d_alphas,
                &mut d_means,
                &mut d_icf,
            );
            black_box((value, d_alphas, d_means, d_icf))
        })
    });
    group.finish();
}

fn gmm(c: &mut Criterion) {
    instance::<10, 5, 1000, 55>(c, "gmm_d10_K5", "gmm_1k_d10_K5.txt");
    instance::<20, 5, 1000, 210>(c, "gmm_d20_K5", "gmm_1k_d20_K5.txt");
    instance::<10, 25, 1000, 55>(c, "gmm_d10_K25", "gmm_1k_d10_K25.txt");
}

criterion_group!(benches, gmm);
criterion_main!(benches);
