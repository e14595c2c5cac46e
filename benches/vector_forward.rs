//! Vector forward mode: `f_jvp_vec::<W>` (the primal once, `W` tangents in lanes) against `W`
//! calls of `f_jvp` and against the same function over `num-dual`'s `DualSVec64<W>` (one
//! evaluation carrying `W` derivatives), for W = 4, 8 and 16, on the small graph (micrograd's
//! expression), the guide's 50-step RNN (docs/guide.md) and ADBench's GMM objective (d = 10, K = 5, n = 1000).
//! Interleaved rounds (`support/interleaved.rs`), every round printed:
//! `cargo bench --bench vector_forward`. Before timing, each case checks that the three agree.

#![allow(clippy::needless_range_loop)] // index loops are how the functions are written

use std::hint::black_box;

use nalgebra::Const;
use num_dual::{Derivative, DualSVec64, DualVec};

#[path = "support/generic.rs"]
mod generic;
#[path = "support/interleaved.rs"]
mod interleaved;
#[path = "support/micrograd.rs"]
mod micrograd;

use generic::*;
use micrograd::*;

/// `re` with derivative `lanes` along the `W` directions.
fn dual<const W: usize>(re: f64, lanes: [f64; W]) -> DualSVec64<W> {
    DualVec::new(re, Derivative::some(nalgebra::SVector::from(lanes)))
}

/// Direction `l`'s tangent of input `i`: fixed, distinct values.
fn lanes<const W: usize>(i: usize) -> [f64; W] {
    core::array::from_fn(|l| ((i * 7 + l * 3) as f64 * 0.37).sin())
}

#[track_caller]
fn assert_close(what: &str, a: f64, b: f64) {
    assert!(
        (a - b).abs() <= 1e-9 * b.abs().max(1.0),
        "{what}: {a:?} vs {b:?}"
    );
}

fn small_graph<const W: usize>() {
    let (a, b) = (-4.0, 2.0);
    let (ta, tb) = (lanes::<W>(0), lanes::<W>(1));
    let (v, t) = micrograd_jvp_vec::<W>(a, b, ta, tb);
    let d = micrograd_dual(dual(a, ta), dual(b, tb));
    for l in 0..W {
        let (v1, t1) = micrograd_jvp(a, b, ta[l], tb[l]);
        assert_eq!(v1, v);
        assert_close("small graph", t[l], t1);
        assert_close(
            "small graph dual",
            d.eps.unwrap_generic(Const::<W>, Const::<1>)[l],
            t1,
        );
    }
    let name = format!("small_graph_w{W}");
    let vec = || micrograd_jvp_vec::<W>(black_box(a), black_box(b), black_box(ta), black_box(tb));
    let each = || {
        let mut s = 0.0;
        for l in 0..W {
            s += micrograd_jvp(black_box(a), black_box(b), ta[l], tb[l]).1;
        }
        s
    };
    let duals = || micrograd_dual(dual(black_box(a), ta), dual(black_box(b), tb));
    interleaved::ratio(
        &name,
        200_000,
        ("f_jvp_vec", vec),
        (&format!("{W} x f_jvp"), each),
    );
    interleaved::ratio(&name, 200_000, ("f_jvp_vec", vec), ("DualSVec64", duals));
}

fn recurrent<const W: usize>() {
    let x: [f64; STEPS] = core::array::from_fn(|t| (t as f64 * 0.37).sin());
    let tx: [[f64; W]; STEPS] = core::array::from_fn(|t| lanes::<W>(t + 2));
    let (w, u, tw, tu) = (0.8, 0.6, lanes::<W>(0), lanes::<W>(1));
    let (v, t) = rnn_jvp_vec::<W>(&x, w, u, &tx, tw, tu);
    let xd: [DualSVec64<W>; STEPS] = core::array::from_fn(|i| dual(x[i], tx[i]));
    let d = rnn_dual(&xd, dual(w, tw), dual(u, tu));
    for l in 0..W {
        let txl: [f64; STEPS] = core::array::from_fn(|i| tx[i][l]);
        let (v1, t1) = rnn_jvp(&x, w, u, &txl, tw[l], tu[l]);
        assert_eq!(v1, v);
        assert_close("rnn", t[l], t1);
        assert_close(
            "rnn dual",
            d.eps.unwrap_generic(Const::<W>, Const::<1>)[l],
            t1,
        );
    }
    let txs: Vec<[f64; STEPS]> = (0..W).map(|l| core::array::from_fn(|i| tx[i][l])).collect();
    let name = format!("rnn_w{W}");
    let vec = || rnn_jvp_vec::<W>(black_box(&x), black_box(w), u, black_box(&tx), tw, tu);
    let each = || {
        let mut s = 0.0;
        for l in 0..W {
            s += rnn_jvp(black_box(&x), black_box(w), u, &txs[l], tw[l], tu[l]).1;
        }
        s
    };
    let duals = || rnn_dual(black_box(&xd), dual(black_box(w), tw), dual(u, tu));
    interleaved::ratio(
        &name,
        20_000,
        ("f_jvp_vec", vec),
        (&format!("{W} x f_jvp"), each),
    );
    interleaved::ratio(&name, 20_000, ("f_jvp_vec", vec), ("DualSVec64", duals));
}

fn gmm_case<const W: usize>() {
    const D: usize = 10;
    const K: usize = 5;
    const N: usize = 1000;
    const Q: usize = D + D * (D - 1) / 2;
    let data: gmm::Gmm<D, K, N, Q> = gmm::load(format!(
        "{}/../data/adbench/gmm/gmm_1k_d10_K5.txt",
        env!("CARGO_MANIFEST_DIR")
    ));
    let (alphas, means, icf, x) = (&data.alphas, &data.means, &data.icf, &*data.x);
    let ta: [[f64; W]; K] = core::array::from_fn(lanes::<W>);
    let tm: [[[f64; W]; D]; K] =
        core::array::from_fn(|k| core::array::from_fn(|d| lanes::<W>(10 + k * D + d)));
    let tq: [[[f64; W]; Q]; K] =
        core::array::from_fn(|k| core::array::from_fn(|q| lanes::<W>(100 + k * Q + q)));
    let (v, t) = gmm::gmm_objective_jvp_vec::<D, K, N, Q, W>(alphas, means, icf, x, &ta, &tm, &tq);
    let ad: [DualSVec64<W>; K] = core::array::from_fn(|k| dual(alphas[k], ta[k]));
    let md: [[DualSVec64<W>; D]; K] =
        core::array::from_fn(|k| core::array::from_fn(|d| dual(means[k][d], tm[k][d])));
    let qd: [[DualSVec64<W>; Q]; K] =
        core::array::from_fn(|k| core::array::from_fn(|q| dual(icf[k][q], tq[k][q])));
    let d = gmm_dual::<DualSVec64<W>, D, K, N, Q>(&ad, &md, &qd, x);
    let one = |l: usize| {
        let a: [f64; K] = core::array::from_fn(|k| ta[k][l]);
        let m: [[f64; D]; K] = core::array::from_fn(|k| core::array::from_fn(|i| tm[k][i][l]));
        let q: [[f64; Q]; K] = core::array::from_fn(|k| core::array::from_fn(|i| tq[k][i][l]));
        (a, m, q)
    };
    let dirs: Vec<_> = (0..W).map(one).collect();
    for l in 0..W {
        let (a, m, q) = &dirs[l];
        let (v1, t1) = gmm::gmm_objective_jvp::<D, K, N, Q>(alphas, means, icf, x, a, m, q);
        assert_close("gmm value", v, v1);
        assert_close("gmm", t[l], t1);
        assert_close(
            "gmm dual",
            d.eps.unwrap_generic(Const::<W>, Const::<1>)[l],
            t1,
        );
    }
    let name = format!("gmm_d10_K5_w{W}");
    let vec = || {
        gmm::gmm_objective_jvp_vec::<D, K, N, Q, W>(black_box(alphas), means, icf, x, &ta, &tm, &tq)
    };
    let each = || {
        let mut s = 0.0;
        for (a, m, q) in &dirs {
            s += gmm::gmm_objective_jvp::<D, K, N, Q>(black_box(alphas), means, icf, x, a, m, q).1;
        }
        s
    };
    let duals = || gmm_dual::<DualSVec64<W>, D, K, N, Q>(black_box(&ad), &md, &qd, x);
    interleaved::ratio(
        &name,
        3,
        ("f_jvp_vec", vec),
        (&format!("{W} x f_jvp"), each),
    );
    interleaved::ratio(&name, 3, ("f_jvp_vec", vec), ("DualSVec64", duals));
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: only check that it runs.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    small_graph::<4>();
    small_graph::<8>();
    small_graph::<16>();
    recurrent::<4>();
    recurrent::<8>();
    recurrent::<16>();
    gmm_case::<4>();
    gmm_case::<8>();
    gmm_case::<16>();
}
