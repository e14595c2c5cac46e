//! ADBench's GMM and LSTM objectives (tests/models/gmm.rs, tests/models/lstm.rs) and their
//! generated gradients, in one criterion group per instance, so `gradient / objective` comes from
//! one run: `cargo bench --bench adbench` (`-- gmm`, `-- lstm`, `-- ba` or `-- ht` for one of
//! them). The gradient case runs the forward sweep into a tape allocated once and the adjoint
//! into zeroed buffers, as a training loop does. Each GMM and LSTM instance prints its tape size
//! first. ADBench's two Jacobian problems, bundle adjustment and hand tracking, are GradBench's
//! `ba` and `ht` evals of `gradbench-tool` (sizes read at run time), on ADBench's files in
//! `data/adbench`: objective against Jacobian, the buffers kept from one run to the next.

#![allow(clippy::needless_range_loop)] // index loops are how the objective is written

use criterion::{Criterion, black_box, criterion_group, criterion_main};

#[path = "../tests/models/gmm.rs"]
mod gmm;

#[path = "../tests/models/lstm.rs"]
mod lstm;

use gmm::*;
use lstm::*;

fn gmm_instance<const D: usize, const K: usize, const N: usize, const Q: usize>(
    c: &mut Criterion,
    name: &str,
    file: &str,
) {
    let data: Gmm<D, K, N, Q> = gmm::load(format!(
        "{}/../data/adbench/gmm/{file}",
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
    gmm_instance::<10, 5, 1000, 55>(c, "gmm_d10_K5", "gmm_1k_d10_K5.txt");
    gmm_instance::<20, 5, 1000, 210>(c, "gmm_d20_K5", "gmm_1k_d20_K5.txt");
    gmm_instance::<10, 25, 1000, 55>(c, "gmm_d10_K25", "gmm_1k_d10_K25.txt");
}

fn lstm_instance<const L: usize, const C: usize, const B: usize>(
    c: &mut Criterion,
    name: &str,
    file: &str,
) {
    let data: Lstm<L, C, B> = lstm::load(format!(
        "{}/../data/adbench/lstm/{file}",
        env!("CARGO_MANIFEST_DIR")
    ));
    let (main_params, extra_params, state, sequence) = (
        &data.main_params,
        &data.extra_params,
        &data.state,
        &*data.sequence,
    );
    let mut tape = Box::new(LstmObjectiveTape::<L, C, B>::new());
    println!(
        "{name}: tape {} bytes ({:.2} MB), {} fields",
        LstmObjectiveTape::<L, C, B>::BYTES,
        LstmObjectiveTape::<L, C, B>::BYTES as f64 / 1e6,
        LstmObjectiveTape::<L, C, B>::FIELDS.len()
    );
    for (field, what, ty, bytes) in LstmObjectiveTape::<L, C, B>::FIELDS {
        println!("  {field:<12} {bytes:>10} B  {ty:<22} {what}");
    }
    let mut group = c.benchmark_group(name);
    group.bench_function("objective", |b| {
        b.iter(|| {
            lstm_objective::<L, C, B>(
                black_box(main_params),
                black_box(extra_params),
                black_box(state),
                black_box(sequence),
            )
        })
    });
    group.bench_function("gradient", |b| {
        b.iter(|| {
            let value = lstm_objective_forward::<L, C, B>(
                black_box(main_params),
                black_box(extra_params),
                black_box(state),
                black_box(sequence),
                &mut tape,
            );
            let mut d_main_params = [[[[0.0; B]; 4]; 2]; L];
            let mut d_extra_params = [[0.0; B]; 3];
            lstm_objective_adjoint::<L, C, B>(
                main_params,
                extra_params,
                state,
                sequence,
                &tape,
                1.0,
                &mut d_main_params,
                &mut d_extra_params,
            );
            black_box((value, d_main_params, d_extra_params))
        })
    });
    group.finish();
}

fn lstm(c: &mut Criterion) {
    lstm_instance::<2, 1024, 14>(c, "lstm_l2_c1024", "lstm_l2_c1024.txt");
}

/// ADBench's file `data/adbench/{path}`.
fn data(path: &str) -> std::path::PathBuf {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/adbench")).join(path)
}

/// Bundle adjustment on ba1 and ba5: all reprojection and weight residuals, and their sparse
/// Jacobian in ADBench's CSR layout.
fn ba(c: &mut Criterion) {
    use stackgrad_gradbench::evals::ba::{Csr, Problem};
    for (name, file) in [
        ("ba1", "ba/ba1_n49_m7776_p31843.txt"),
        ("ba5", "ba/ba5_n257_m65132_p225911.txt"),
    ] {
        let input = stackgrad_gradbench::adbench::ba_input(&data(file)).expect("ADBench's file");
        let pb = Problem::read(&input).expect("a valid workload");
        let p = pb.obs.len();
        let (mut reproj, mut w_err) = (vec![0.0; 2 * p], vec![0.0; p]);
        let mut j = Csr::default();
        let mut group = c.benchmark_group(name);
        group.bench_function("objective", |b| {
            b.iter(|| pb.objective(black_box(&mut reproj), black_box(&mut w_err)))
        });
        group.bench_function("jacobian", |b| b.iter(|| pb.jacobian(black_box(&mut j))));
        group.finish();
    }
}

/// Hand tracking on ADBench's first instance of each workload: the small model's simple
/// variant (26 pose columns) and the big model's complicated one (2 more, the barycentric
/// coordinates); residuals, and the dense Jacobian by compressed forward sweeps.
fn ht(c: &mut Criterion) {
    use stackgrad_gradbench::evals::ht::Problem;
    for (name, model, hand, complicated) in [
        (
            "ht_small_simple_hand1",
            "ht/model",
            "ht/hand1_t26_c100.txt",
            false,
        ),
        (
            "ht_big_complicated_hand1",
            "ht/big/model",
            "ht/big/hand1_t26_c100.txt",
            true,
        ),
    ] {
        let input = stackgrad_gradbench::adbench::ht_input(&data(model), &data(hand), complicated)
            .expect("ADBench's files");
        let pb = Problem::read(&input).expect("a valid workload");
        let (mut err, mut rows) = (Vec::new(), Default::default());
        let mut group = c.benchmark_group(name);
        group.bench_function("objective", |b| {
            b.iter(|| pb.objective_into(black_box(&mut err)))
        });
        group.bench_function("jacobian", |b| b.iter(|| pb.jacobian(black_box(&mut rows))));
        group.finish();
    }
}

criterion_group!(benches, gmm, lstm, ba, ht);
criterion_main!(benches);
