//! Forward mode: `f_jvp` against `f`, and against the same function written generically over
//! `num-dual`'s `Dual64` (the run-time dual numbers Rust users reach for), on the small graph
//! (micrograd's expression), the guide's 50-step RNN (docs/guide.md) and ADBench's GMM objective (d = 10,
//! K = 5, n = 1000). One criterion group per function, so `f_jvp / f` and `dual / f_jvp` come
//! from one run: `cargo bench --bench forward`. Every tangent is along all differentiated
//! inputs at once; before timing, each case checks that the three agree. After criterion, the
//! small graph's and GMM's ratios again from interleaved rounds (`support/interleaved.rs`): at a
//! few nanoseconds, criterion's ratio depends on which case runs first, and on a shared machine
//! its estimates for GMM move with the load.

#![allow(clippy::needless_range_loop)] // index loops are how the functions are written

use criterion::{Criterion, black_box};
use num_dual::Dual64;

#[path = "support/generic.rs"]
mod generic;
#[path = "support/interleaved.rs"]
mod interleaved;
#[path = "support/micrograd.rs"]
mod micrograd;

use generic::*;
use micrograd::*;

fn dual(re: f64, eps: f64) -> Dual64 {
    Dual64::new(re, eps)
}

#[track_caller]
fn assert_close(what: &str, a: f64, b: f64) {
    assert!(
        (a - b).abs() <= 1e-9 * b.abs().max(1.0),
        "{what}: {a:?} vs {b:?}"
    );
}

fn small_graph(c: &mut Criterion) {
    let (a, b, ta, tb) = (-4.0, 2.0, 0.3, -0.7);
    let (v, t) = micrograd_jvp(a, b, ta, tb);
    let d = micrograd_dual(dual(a, ta), dual(b, tb));
    assert_eq!(v, micrograd(a, b));
    assert_close("small graph value", d.re, v);
    assert_close("small graph tangent", d.eps, t);
    let mut group = c.benchmark_group("forward/small_graph");
    group.bench_function("f", |bch| {
        bch.iter(|| micrograd(black_box(a), black_box(b)))
    });
    group.bench_function("f_jvp", |bch| {
        bch.iter(|| micrograd_jvp(black_box(a), black_box(b), black_box(ta), black_box(tb)))
    });
    group.bench_function("dual64", |bch| {
        bch.iter(|| {
            micrograd_dual(
                dual(black_box(a), black_box(ta)),
                dual(black_box(b), black_box(tb)),
            )
        })
    });
    group.finish();
}

fn recurrent(c: &mut Criterion) {
    let x: [f64; STEPS] = core::array::from_fn(|t| (t as f64 * 0.37).sin());
    let tx: [f64; STEPS] = core::array::from_fn(|t| (t as f64 * 0.11).cos());
    let (w, u, tw, tu) = (0.8, 0.6, 0.25, -0.5);
    let xd: [Dual64; STEPS] = core::array::from_fn(|t| dual(x[t], tx[t]));
    let (v, t) = rnn_jvp(&x, w, u, &tx, tw, tu);
    let d = rnn_dual(&xd, dual(w, tw), dual(u, tu));
    assert_eq!(v, rnn(&x, w, u));
    assert_close("rnn value", d.re, v);
    assert_close("rnn tangent", d.eps, t);
    let mut group = c.benchmark_group("forward/rnn");
    group.bench_function("f", |bch| {
        bch.iter(|| rnn(black_box(&x), black_box(w), black_box(u)))
    });
    group.bench_function("f_jvp", |bch| {
        bch.iter(|| {
            rnn_jvp(
                black_box(&x),
                black_box(w),
                black_box(u),
                black_box(&tx),
                tw,
                tu,
            )
        })
    });
    group.bench_function("dual64", |bch| {
        bch.iter(|| {
            rnn_dual(
                black_box(&xd),
                dual(black_box(w), tw),
                dual(black_box(u), tu),
            )
        })
    });
    group.finish();
}

fn gmm_case(c: &mut Criterion) {
    const D: usize = 10;
    const K: usize = 5;
    const N: usize = 1000;
    const Q: usize = D + D * (D - 1) / 2;
    let data: gmm::Gmm<D, K, N, Q> = gmm::load(format!(
        "{}/../data/adbench/gmm/gmm_1k_d10_K5.txt",
        env!("CARGO_MANIFEST_DIR")
    ));
    let (alphas, means, icf, x) = (&data.alphas, &data.means, &data.icf, &*data.x);
    let wave = |i: usize| ((i as f64) * 0.7).sin();
    let ta: [f64; K] = core::array::from_fn(wave);
    let tm: [[f64; D]; K] = core::array::from_fn(|k| core::array::from_fn(|d| wave(k * D + d + 5)));
    let tq: [[f64; Q]; K] =
        core::array::from_fn(|k| core::array::from_fn(|j| wave(k * Q + j + 60)));
    let ad: [Dual64; K] = core::array::from_fn(|k| dual(alphas[k], ta[k]));
    let md: [[Dual64; D]; K] =
        core::array::from_fn(|k| core::array::from_fn(|d| dual(means[k][d], tm[k][d])));
    let qd: [[Dual64; Q]; K] =
        core::array::from_fn(|k| core::array::from_fn(|j| dual(icf[k][j], tq[k][j])));
    let (v, t) = gmm::gmm_objective_jvp::<D, K, N, Q>(alphas, means, icf, x, &ta, &tm, &tq);
    let d = gmm_dual::<Dual64, D, K, N, Q>(&ad, &md, &qd, x);
    assert_eq!(v, gmm::gmm_objective::<D, K, N, Q>(alphas, means, icf, x));
    assert_close("gmm value", d.re, v);
    assert_close("gmm tangent", d.eps, t);
    let f = || {
        gmm::gmm_objective::<D, K, N, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(x),
        )
    };
    let jvp = || {
        gmm::gmm_objective_jvp::<D, K, N, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(x),
            black_box(&ta),
            black_box(&tm),
            black_box(&tq),
        )
    };
    let dual = || {
        gmm_dual::<Dual64, D, K, N, Q>(black_box(&ad), black_box(&md), black_box(&qd), black_box(x))
    };
    let name = "forward/gmm_d10_K5";
    let mut group = c.benchmark_group(name);
    group.bench_function("f", |bch| bch.iter(f));
    group.bench_function("f_jvp", |bch| bch.iter(jvp));
    group.bench_function("dual64", |bch| bch.iter(dual));
    group.finish();
    // Both ratios again from interleaved rounds.
    interleaved::ratio(name, 20, ("f_jvp", jvp), ("f", f));
    interleaved::ratio(name, 20, ("dual64", dual), ("f_jvp", jvp));
}

/// The small graph's `f_jvp / f` and `Dual64 / f_jvp` from interleaved rounds.
fn small_graph_interleaved() {
    let (a, b, ta, tb) = (-4.0, 2.0, 0.3, -0.7);
    let jvp = || micrograd_jvp(black_box(a), black_box(b), black_box(ta), black_box(tb));
    interleaved::ratio(
        "forward/small_graph",
        1_000_000,
        ("f_jvp", jvp),
        ("f", || micrograd(black_box(a), black_box(b))),
    );
    interleaved::ratio(
        "forward/small_graph",
        1_000_000,
        ("dual64", || {
            micrograd_dual(
                dual(black_box(a), black_box(ta)),
                dual(black_box(b), black_box(tb)),
            )
        }),
        ("f_jvp", jvp),
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    small_graph(&mut c);
    recurrent(&mut c);
    gmm_case(&mut c);
    c.final_summary();
    small_graph_interleaved();
}
