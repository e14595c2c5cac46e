//! Forward mode: `f_jvp` against `f`, and against the same function written generically over
//! `num-dual`'s `Dual64` (the run-time dual numbers Rust users reach for), on the small graph
//! (micrograd's expression), the README's 50-step RNN and ADBench's GMM objective (d = 10,
//! K = 5, n = 1000). One criterion group per function, so `f_jvp / f` and `dual / f_jvp` come
//! from one run: `cargo bench --bench forward`. Every tangent is along all differentiated
//! inputs at once; before timing, each case checks that the three agree.

#![allow(clippy::needless_range_loop)] // index loops are how the functions are written

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use num_dual::{Dual64, DualNum};
use stackgrad::differentiable;

#[path = "../tests/models/gmm.rs"]
mod gmm;

#[path = "support/micrograd.rs"]
mod micrograd;

use micrograd::*;

/// `max(x, 0)` for dual numbers: the receiver's branch at a tie, as the macro's rule.
fn relu<D: DualNum<f64> + Copy>(x: D) -> D {
    if x.re() >= 0.0 { x } else { D::from(0.0) }
}

#[allow(clippy::misrefactored_assign_op)]
fn micrograd_dual<D: DualNum<f64> + Copy>(a: D, b: D) -> D {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += -a + c + 1.0;
    d += d * 2.0 + relu(b + a);
    d += d * 3.0 + relu(b - a);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += D::from(10.0) / f;
    g
}

const STEPS: usize = 50;

/// The README's RNN.
#[differentiable(jvp)]
fn rnn(x: &[f64; STEPS], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..STEPS {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

fn rnn_dual<D: DualNum<f64> + Copy>(x: &[D; STEPS], w: D, u: D) -> D {
    let mut h = D::from(0.0);
    for t in 0..STEPS {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

/// [`gmm::gmm_objective`] over dual numbers (`x`, the data, stays `f64`).
fn gmm_dual<
    D: DualNum<f64> + Copy,
    const DIM: usize,
    const K: usize,
    const N: usize,
    const Q: usize,
>(
    alphas: &[D; K],
    means: &[[D; DIM]; K],
    icf: &[[D; Q]; K],
    x: &[[f64; DIM]; N],
) -> D {
    let max = |a: D, b: D| if a.re() >= b.re() { a } else { b };
    let mut a_max = alphas[0];
    for k in 1..K {
        a_max = max(a_max, alphas[k]);
    }
    let mut a_sum = D::from(0.0);
    for k in 0..K {
        a_sum += (alphas[k] - a_max).exp();
    }
    let lse_alphas = a_sum.ln() + a_max;
    let mut qdiags = [[D::from(0.0); DIM]; K];
    let mut sum_qs = [D::from(0.0); K];
    for k in 0..K {
        for d in 0..DIM {
            qdiags[k][d] = icf[k][d].exp();
            sum_qs[k] += icf[k][d];
        }
    }
    let mut slse = D::from(0.0);
    for i in 0..N {
        let mut main = [D::from(0.0); K];
        for k in 0..K {
            let mut xc = [D::from(0.0); DIM];
            for d in 0..DIM {
                xc[d] = -means[k][d] + x[i][d];
            }
            let mut qx = [D::from(0.0); DIM];
            for d in 0..DIM {
                qx[d] = qdiags[k][d] * xc[d];
            }
            for a in 0..DIM {
                for b in a + 1..DIM {
                    qx[b] += icf[k][DIM + a * (2 * DIM - a - 1) / 2 + (b - a - 1)] * xc[a];
                }
            }
            let mut sq = D::from(0.0);
            for d in 0..DIM {
                sq += qx[d] * qx[d];
            }
            main[k] = alphas[k] + sum_qs[k] - sq * 0.5;
        }
        let mut m = main[0];
        for k in 1..K {
            m = max(m, main[k]);
        }
        let mut s = D::from(0.0);
        for k in 0..K {
            s += (main[k] - m).exp();
        }
        slse += s.ln() + m;
    }
    let mut prior = D::from(0.0);
    for k in 0..K {
        for d in 0..DIM {
            prior += qdiags[k][d] * qdiags[k][d] * 0.5;
        }
        for j in DIM..Q {
            prior += icf[k][j] * icf[k][j] * 0.5;
        }
    }
    let constant = -((N * DIM) as f64) * 0.5 * (2.0 * core::f64::consts::PI).ln();
    slse + constant - lse_alphas * (N as f64) + prior
}

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
        "{}/data/adbench/gmm/gmm_1k_d10_K5.txt",
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
    let mut group = c.benchmark_group("forward/gmm_d10_K5");
    group.bench_function("f", |bch| {
        bch.iter(|| {
            gmm::gmm_objective::<D, K, N, Q>(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
            )
        })
    });
    group.bench_function("f_jvp", |bch| {
        bch.iter(|| {
            gmm::gmm_objective_jvp::<D, K, N, Q>(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
                black_box(&ta),
                black_box(&tm),
                black_box(&tq),
            )
        })
    });
    group.bench_function("dual64", |bch| {
        bch.iter(|| {
            gmm_dual::<Dual64, D, K, N, Q>(
                black_box(&ad),
                black_box(&md),
                black_box(&qd),
                black_box(x),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, small_graph, recurrent, gmm_case);
criterion_main!(benches);
