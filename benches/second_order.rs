//! Second order: `f_hvp` (value, gradient and Hessian-vector product) against `f_grad`, and
//! against `num-dual`'s run-time second-order numbers on the same functions written generically
//! (`benches/support/generic.rs`): the small graph (micrograd's expression, 2 inputs), the
//! README's 50-step RNN (52 inputs) and ADBench's GMM objective (d = 10, K = 5, n = 1000; 330
//! inputs). Each `num-dual` way gives what `f_hvp` gives (value, gradient, `H v`):
//!
//! - `hyperdual_vec`: one evaluation over `HyperDualVec64<n, 1>` (a gradient part of `n`
//!   entries, a direction part of one, and their product: `H v`), what `num_dual::partial_hessian`
//!   seeds;
//! - `dual2_vec`: one evaluation over `Dual2Vec64<n>` (the whole `n × n` Hessian, then `H v`),
//!   what `num_dual::hessian` seeds; not for GMM, where one such number holds 330² entries;
//! - `hyperdual64_x_n`: `n` evaluations over the scalar `HyperDual64`, the `i`-th seeded with
//!   `e_i` and `v` (its results: `∂f/∂x_i` and `(H v)_i`).
//!
//! One criterion group per function, so the ratios come from one run:
//! `cargo bench --bench second_order`. Before timing, each case checks that all agree. After
//! GMM's group, its `f_hvp / f_grad` again from interleaved rounds (`support/interleaved.rs`).

#![allow(clippy::needless_range_loop)] // index loops are how the functions are written

use criterion::{Criterion, black_box, criterion_group};
use nalgebra::{Const, SMatrix, U1};
use num_dual::{
    Derivative, Dual2SVec64, Dual2Vec, DualNum, HyperDual, HyperDual64, HyperDualSVec64,
    HyperDualVec,
};

#[path = "support/generic.rs"]
mod generic;
#[path = "support/interleaved.rs"]
mod interleaved;
#[path = "support/micrograd.rs"]
mod micrograd;

use generic::*;
use micrograd::*;

/// A function of `M` inputs, generic over the number type: what the `num-dual` ways evaluate.
trait Generic<const M: usize> {
    fn eval<D: DualNum<f64> + Copy>(&self, p: &[D; M]) -> D;
}

/// `(value, gradient, H v)` from one `HyperDualVec64<M, 1>` evaluation.
fn hyperdual_vec<const M: usize>(
    f: &impl Generic<M>,
    p: &[f64; M],
    v: &[f64; M],
) -> (f64, [f64; M], [f64; M]) {
    let seeded: [HyperDualSVec64<M, 1>; M] = core::array::from_fn(|i| {
        HyperDualVec::new(
            p[i],
            Derivative::derivative_generic(Const::<M>, U1, i),
            Derivative::some(SMatrix::<f64, 1, 1>::new(v[i])),
            Derivative::none(),
        )
    });
    let r = f.eval(&seeded);
    let g = r.eps1.unwrap_generic(Const::<M>, U1);
    let hv = r.eps1eps2.unwrap_generic(Const::<M>, U1);
    (r.re, g.into(), hv.into())
}

/// `(value, gradient, H v)` from one `Dual2Vec64<M>` evaluation (the whole Hessian).
fn dual2_vec<const M: usize>(
    f: &impl Generic<M>,
    p: &[f64; M],
    v: &[f64; M],
) -> (f64, [f64; M], [f64; M]) {
    let seeded: [Dual2SVec64<M>; M] = core::array::from_fn(|i| {
        Dual2Vec::new(
            p[i],
            Derivative::derivative_generic(U1, Const::<M>, i),
            Derivative::none(),
        )
    });
    let r = f.eval(&seeded);
    let g = r.v1.unwrap_generic(U1, Const::<M>);
    let h = r.v2.unwrap_generic(Const::<M>, Const::<M>);
    let hv = h * SMatrix::<f64, M, 1>::from(*v);
    (r.re, core::array::from_fn(|i| g[i]), hv.into())
}

/// `(value, gradient, H v)` from `M` scalar `HyperDual64` evaluations.
fn hyperdual64_x_n<const M: usize>(
    f: &impl Generic<M>,
    p: &[f64; M],
    v: &[f64; M],
) -> (f64, [f64; M], [f64; M]) {
    let (mut value, mut g, mut hv) = (0.0, [0.0; M], [0.0; M]);
    for i in 0..M {
        let seeded: [HyperDual64; M] = core::array::from_fn(|j| {
            HyperDual::new(p[j], if i == j { 1.0 } else { 0.0 }, v[j], 0.0)
        });
        let r = f.eval(&seeded);
        (value, g[i], hv[i]) = (r.re, r.eps1, r.eps1eps2);
    }
    (value, g, hv)
}

/// `a` and `b` agree to 1e-9 of the larger of 1 and `b`'s largest entry (an entry of `H v` may
/// cancel to near zero, so the scale is the vector's).
#[track_caller]
fn assert_close(what: &str, a: &[f64], b: &[f64]) {
    let scale = b.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x - y).abs() <= 1e-9 * scale, "{what}[{i}]: {x:?} vs {y:?}");
    }
}

type Way<const M: usize, F> = fn(&F, &[f64; M], &[f64; M]) -> (f64, [f64; M], [f64; M]);

/// Checks every `num-dual` way against `f_hvp`'s flattened `(value, gradient, H v)`.
fn check<const M: usize, F: Generic<M>>(
    case: &str,
    f: &F,
    p: &[f64; M],
    v: &[f64; M],
    ours: (f64, &[f64], &[f64]),
    ways: &[(&str, Way<M, F>)],
) {
    for (name, way) in ways {
        let (value, g, hv) = way(f, p, v);
        assert_close(&format!("{case} {name} value"), &[value], &[ours.0]);
        assert_close(&format!("{case} {name} gradient"), &g, ours.1);
        assert_close(&format!("{case} {name} H v"), &hv, ours.2);
    }
}

struct Micrograd;

impl Generic<2> for Micrograd {
    fn eval<D: DualNum<f64> + Copy>(&self, p: &[D; 2]) -> D {
        micrograd_dual(p[0], p[1])
    }
}

fn small_graph(c: &mut Criterion) {
    let (a, b, va, vb) = (-4.0, 2.0, 0.3, -0.7);
    let (p, v) = ([a, b], [va, vb]);
    let (value, (ga, gb), (ha, hb)) = micrograd_hvp(a, b, va, vb);
    assert_eq!((value, (ga, gb)), micrograd_grad(a, b));
    let ways: [(&str, Way<2, Micrograd>); 3] = [
        ("hyperdual_vec", hyperdual_vec),
        ("dual2_vec", dual2_vec),
        ("hyperdual64_x_n", hyperdual64_x_n),
    ];
    check(
        "small graph",
        &Micrograd,
        &p,
        &v,
        (value, &[ga, gb], &[ha, hb]),
        &ways,
    );
    let mut group = c.benchmark_group("second_order/small_graph");
    group.bench_function("f_grad", |bch| {
        bch.iter(|| micrograd_grad(black_box(a), black_box(b)))
    });
    group.bench_function("f_hvp", |bch| {
        bch.iter(|| micrograd_hvp(black_box(a), black_box(b), black_box(va), black_box(vb)))
    });
    for (name, way) in ways {
        group.bench_function(name, |bch| {
            bch.iter(|| way(&Micrograd, black_box(&p), black_box(&v)))
        });
    }
    group.finish();
}

/// The RNN's inputs flattened: `x` (50 entries), then `w` and `u`.
const RNN_INPUTS: usize = STEPS + 2;

struct Rnn;

impl Generic<RNN_INPUTS> for Rnn {
    fn eval<D: DualNum<f64> + Copy>(&self, p: &[D; RNN_INPUTS]) -> D {
        let x: [D; STEPS] = core::array::from_fn(|t| p[t]);
        rnn_dual(&x, p[STEPS], p[STEPS + 1])
    }
}

fn recurrent(c: &mut Criterion) {
    let x: [f64; STEPS] = core::array::from_fn(|t| (t as f64 * 0.37).sin());
    let vx: [f64; STEPS] = core::array::from_fn(|t| (t as f64 * 0.11).cos());
    let (w, u, vw, vu) = (0.8, 0.6, 0.25, -0.5);
    let flat = |x: &[f64; STEPS], w: f64, u: f64| -> [f64; RNN_INPUTS] {
        core::array::from_fn(|i| match i {
            _ if i < STEPS => x[i],
            _ if i == STEPS => w,
            _ => u,
        })
    };
    let (p, v) = (flat(&x, w, u), flat(&vx, vw, vu));
    let (value, (gx, gw, gu), (hx, hw, hu)) = rnn_hvp(&x, w, u, &vx, vw, vu);
    assert_eq!((value, (gx, gw, gu)), rnn_grad(&x, w, u));
    let ways: [(&str, Way<RNN_INPUTS, Rnn>); 3] = [
        ("hyperdual_vec", hyperdual_vec),
        ("dual2_vec", dual2_vec),
        ("hyperdual64_x_n", hyperdual64_x_n),
    ];
    let ours = (value, &flat(&gx, gw, gu)[..], &flat(&hx, hw, hu)[..]);
    check("rnn", &Rnn, &p, &v, ours, &ways);
    let mut group = c.benchmark_group("second_order/rnn");
    group.bench_function("f_grad", |bch| {
        bch.iter(|| rnn_grad(black_box(&x), black_box(w), black_box(u)))
    });
    group.bench_function("f_hvp", |bch| {
        bch.iter(|| {
            rnn_hvp(
                black_box(&x),
                black_box(w),
                black_box(u),
                black_box(&vx),
                vw,
                vu,
            )
        })
    });
    for (name, way) in ways {
        group.bench_function(name, |bch| {
            bch.iter(|| way(&Rnn, black_box(&p), black_box(&v)))
        });
    }
    group.finish();
}

const D: usize = 10;
const K: usize = 5;
const N: usize = 1000;
const Q: usize = D + D * (D - 1) / 2;
/// GMM's differentiated inputs flattened: `alphas` (K), `means` (K × D), `icf` (K × Q).
const GMM_INPUTS: usize = K + K * D + K * Q;

struct Gmm<'a> {
    x: &'a [[f64; D]; N],
}

/// `alphas`, `means` and `icf` as one flat array, in that order.
fn gmm_flat<T: Copy + Default>(a: &[T; K], m: &[[T; D]; K], q: &[[T; Q]; K]) -> [T; GMM_INPUTS] {
    let mut p = [T::default(); GMM_INPUTS];
    p[..K].copy_from_slice(a);
    for k in 0..K {
        p[K + k * D..K + (k + 1) * D].copy_from_slice(&m[k]);
        p[K + K * D + k * Q..K + K * D + (k + 1) * Q].copy_from_slice(&q[k]);
    }
    p
}

impl Generic<GMM_INPUTS> for Gmm<'_> {
    fn eval<T: DualNum<f64> + Copy>(&self, p: &[T; GMM_INPUTS]) -> T {
        let alphas: [T; K] = core::array::from_fn(|k| p[k]);
        let means: [[T; D]; K] =
            core::array::from_fn(|k| core::array::from_fn(|d| p[K + k * D + d]));
        let icf: [[T; Q]; K] =
            core::array::from_fn(|k| core::array::from_fn(|j| p[K + K * D + k * Q + j]));
        gmm_dual::<T, D, K, N, Q>(&alphas, &means, &icf, self.x)
    }
}

fn gmm_case(c: &mut Criterion) {
    let data: gmm::Gmm<D, K, N, Q> = gmm::load(format!(
        "{}/../data/adbench/gmm/gmm_1k_d10_K5.txt",
        env!("CARGO_MANIFEST_DIR")
    ));
    let (alphas, means, icf, x) = (&data.alphas, &data.means, &data.icf, &*data.x);
    let wave = |i: usize| ((i as f64) * 0.7).sin();
    let va: [f64; K] = core::array::from_fn(wave);
    let vm: [[f64; D]; K] = core::array::from_fn(|k| core::array::from_fn(|d| wave(k * D + d + 5)));
    let vq: [[f64; Q]; K] =
        core::array::from_fn(|k| core::array::from_fn(|j| wave(k * Q + j + 60)));
    let (p, v) = (gmm_flat(alphas, means, icf), gmm_flat(&va, &vm, &vq));
    let (value, (ga, gm, gq), (ha, hm, hq)) =
        gmm::gmm_objective_hvp::<D, K, N, Q>(alphas, means, icf, x, &va, &vm, &vq);
    // The same value; the gradient up to rounding (the tangent program's hoisted loop sums it
    // in another order).
    let (grad_value, (fa, fm, fq)) = gmm::gmm_objective_grad::<D, K, N, Q>(alphas, means, icf, x);
    assert_eq!(value, grad_value);
    assert_close(
        "gmm gradient",
        &gmm_flat(&ga, &gm, &gq),
        &gmm_flat(&fa, &fm, &fq),
    );
    let model = Gmm { x };
    // One `Dual2Vec64<330>` holds 330 × 331 floats (870 KB): the inputs alone would take 290 MB
    // and each operation ~10⁵ multiply-adds, so that way is left out here.
    let ways: [(&str, Way<GMM_INPUTS, Gmm>); 2] = [
        ("hyperdual_vec", hyperdual_vec),
        ("hyperdual64_x_n", hyperdual64_x_n),
    ];
    let ours = (
        value,
        &gmm_flat(&ga, &gm, &gq)[..],
        &gmm_flat(&ha, &hm, &hq)[..],
    );
    check("gmm", &model, &p, &v, ours, &ways);
    let grad = || {
        gmm::gmm_objective_grad::<D, K, N, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(x),
        )
    };
    let hvp = || {
        gmm::gmm_objective_hvp::<D, K, N, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(x),
            black_box(&va),
            black_box(&vm),
            black_box(&vq),
        )
    };
    let mut group = c.benchmark_group("second_order/gmm_d10_K5");
    group.bench_function("f_grad", |bch| bch.iter(grad));
    group.bench_function("f_hvp", |bch| bch.iter(hvp));
    // The `num-dual` evaluations take tenths of a second: criterion's smallest sample count.
    group.sample_size(10);
    for (name, way) in ways {
        group.bench_function(name, |bch| {
            bch.iter(|| way(&model, black_box(&p), black_box(&v)))
        });
    }
    group.finish();
    // `f_hvp / f_grad` again from interleaved rounds (a shared machine's load moves criterion's
    // two estimates apart by more than the effects measured here).
    interleaved::ratio(
        "second_order/gmm_d10_K5",
        20,
        ("f_hvp", hvp),
        ("f_grad", grad),
    );
}

criterion_group!(benches, small_graph, recurrent, gmm_case);

/// `criterion_main!`, on a thread with room for GMM's 330 hyper-dual inputs (5 KB each) and
/// the copies the generic function makes of them.
fn main() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            benches();
            Criterion::default().configure_from_args().final_summary();
        })
        .expect("spawn the benchmark thread")
        .join()
        .expect("the benchmarks ran");
}
