//! Array and loop code as `#[differentiable]` generates it, against the same value and gradient
//! written out by hand (a forward pass, then a reverse sweep), and against the function alone.
//!
//! One group per function, three cases each: `NAME_generated` (the macro's companions),
//! `NAME_handwritten` and `NAME_primal`, so both ratios (generated / hand-written, gradient /
//! function) come from one run: `cargo bench --bench arrays`. Inputs are seeded and built before
//! timing; the timed closures only `black_box` references to them. Before timing, each group checks
//! that the hand-written gradient equals the generated one.

// Index loops: the functions as a numerics user writes them, and the hand-written sweeps beside.
#![allow(clippy::needless_range_loop)]

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stackgrad::differentiable;

/// `N` values uniform in `-1..1` from a generator seeded with `seed`.
fn seeded<const N: usize>(seed: u64) -> [f64; N] {
    let mut rng = SmallRng::seed_from_u64(seed);
    core::array::from_fn(|_| rng.gen_range(-1.0..1.0))
}

/// Asserts `|actual - expected| <= rtol * max(1, |expected|)` entry by entry.
#[track_caller]
fn assert_all_close(what: &str, actual: &[f64], expected: &[f64], rtol: f64) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        let tolerance = rtol * e.abs().max(1.0);
        assert!(
            (a - e).abs() <= tolerance,
            "{what}[{i}]: got {a:?}, expected {e:?}"
        );
    }
}

const DOT: usize = 1024;

#[differentiable]
fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    s
}

/// [`dot`] and its gradient by hand: the reverse sweep writes `d_a = d_s b`, `d_b = d_s a`.
fn dot_by_hand<const N: usize>(a: &[f64; N], b: &[f64; N]) -> (f64, ([f64; N], [f64; N])) {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    let d_s = 1.0;
    let mut d_a = [0.0; N];
    let mut d_b = [0.0; N];
    for i in 0..N {
        d_a[i] = d_s * b[i];
        d_b[i] = d_s * a[i];
    }
    (s, (d_a, d_b))
}

/// The same gradient written as an adjoint that adds into caller-zeroed buffers, the contract
/// `dot_adjoint` follows (and so `dot_grad`): the like-for-like hand-written version.
fn dot_by_hand_accumulating<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
) -> (f64, ([f64; N], [f64; N])) {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    let d_s = 1.0;
    let mut d_a = [0.0; N];
    let mut d_b = [0.0; N];
    for i in 0..N {
        d_a[i] += d_s * b[i];
        d_b[i] += d_s * a[i];
    }
    (s, (d_a, d_b))
}

fn dot_1024(c: &mut Criterion) {
    let (a, b) = (seeded::<DOT>(1), seeded::<DOT>(2));
    let (value, (d_a, d_b)) = dot_grad(&a, &b);
    let (hand_value, (hand_d_a, hand_d_b)) = dot_by_hand(&a, &b);
    assert_eq!(value, dot(&a, &b));
    assert_eq!((hand_value, hand_d_a, hand_d_b), (value, d_a, d_b));

    let mut group = c.benchmark_group("dot_1024");
    group.bench_function("dot_1024_generated", |bencher| {
        bencher.iter(|| dot_grad(black_box(&a), black_box(&b)));
    });
    group.bench_function("dot_1024_handwritten", |bencher| {
        bencher.iter(|| dot_by_hand(black_box(&a), black_box(&b)));
    });
    assert_eq!(dot_by_hand_accumulating(&a, &b), (value, (d_a, d_b)));
    group.bench_function("dot_1024_handwritten_accumulating", |bencher| {
        bencher.iter(|| dot_by_hand_accumulating(black_box(&a), black_box(&b)));
    });
    group.bench_function("dot_1024_primal", |bencher| {
        bencher.iter(|| dot(black_box(&a), black_box(&b)));
    });
    group.finish();
}

const SIDE: usize = 64;

/// `y = W x` for a 64 x 64 `W`.
#[differentiable]
fn matvec(w: &[[f64; SIDE]; SIDE], x: &[f64; SIDE]) -> [f64; SIDE] {
    let mut y = [0.0; SIDE];
    for i in 0..SIDE {
        for j in 0..SIDE {
            y[i] += w[i][j] * x[j];
        }
    }
    y
}

/// `y = W x` and the vector-Jacobian product with `d_y`: `d_W = d_y x^T`, `d_x = W^T d_y`.
type MatvecVjp = ([f64; SIDE], [[f64; SIDE]; SIDE], [f64; SIDE]);

/// [`matvec`]'s value and vector-Jacobian product through the generated companions, into `out`.
/// An array output has no `matvec_grad`; this is what one writes instead, zeroing the gradient
/// buffers as `f_grad` does. The buffers are the caller's so the timing does not include
/// returning 32 KiB by value.
fn matvec_generated(
    w: &[[f64; SIDE]; SIDE],
    x: &[f64; SIDE],
    d_y: [f64; SIDE],
    out: &mut MatvecVjp,
) {
    let (y, d_w, d_x) = out;
    let mut tape = MatvecTape::new();
    *y = matvec_forward(w, x, &mut tape);
    *d_w = [[0.0; SIDE]; SIDE];
    *d_x = [0.0; SIDE];
    matvec_adjoint(w, x, &tape, &d_y, d_w, d_x);
}

/// The same by hand: rows of `d_W` are `d_y[i] x` (written, not accumulated), `d_x` accumulates
/// `d_y[i]` times row `i`.
fn matvec_by_hand(w: &[[f64; SIDE]; SIDE], x: &[f64; SIDE], d_y: [f64; SIDE], out: &mut MatvecVjp) {
    let (y, d_w, d_x) = out;
    *y = [0.0; SIDE];
    for i in 0..SIDE {
        for j in 0..SIDE {
            y[i] += w[i][j] * x[j];
        }
    }
    *d_x = [0.0; SIDE];
    for i in 0..SIDE {
        for j in 0..SIDE {
            d_w[i][j] = d_y[i] * x[j];
            d_x[j] += d_y[i] * w[i][j];
        }
    }
}

fn matvec_64x64(c: &mut Criterion) {
    let w: [[f64; SIDE]; SIDE] = core::array::from_fn(|i| seeded(10 + i as u64));
    let (x, d_y) = (seeded::<SIDE>(3), seeded::<SIDE>(4));
    let mut generated: MatvecVjp = ([1.0; SIDE], [[1.0; SIDE]; SIDE], [1.0; SIDE]);
    let mut by_hand = generated;
    matvec_generated(&w, &x, d_y, &mut generated);
    matvec_by_hand(&w, &x, d_y, &mut by_hand);
    let (y, d_w, d_x) = generated;
    let (hand_y, hand_d_w, hand_d_x) = by_hand;
    assert_eq!(y, matvec(&w, &x));
    assert_eq!(hand_y, y);
    assert_eq!(hand_d_w, d_w);
    // The generated sweep may visit `i` in the other order: `d_x` sums the same terms.
    assert_all_close("d_x", &hand_d_x, &d_x, 1e-13);

    let mut out: MatvecVjp = ([0.0; SIDE], [[0.0; SIDE]; SIDE], [0.0; SIDE]);
    let mut group = c.benchmark_group("matvec_64x64");
    group.bench_function("matvec_64x64_generated", |bencher| {
        bencher.iter(|| {
            matvec_generated(black_box(&w), black_box(&x), black_box(d_y), &mut out);
            black_box(&out);
        });
    });
    group.bench_function("matvec_64x64_handwritten", |bencher| {
        bencher.iter(|| {
            matvec_by_hand(black_box(&w), black_box(&x), black_box(d_y), &mut out);
            black_box(&out);
        });
    });
    group.bench_function("matvec_64x64_primal", |bencher| {
        bencher.iter(|| matvec(black_box(&w), black_box(&x)));
    });
    group.finish();
}

const STEPS: usize = 50;

/// A 50-step tanh RNN with a scalar state.
#[differentiable]
fn rnn(x: &[f64; STEPS], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..STEPS {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

/// [`rnn`] and its gradient by hand: the forward pass keeps the 51 states, the reverse sweep
/// uses `tanh' = 1 - h^2` of the state each step produced.
fn rnn_by_hand(x: &[f64; STEPS], w: f64, u: f64) -> (f64, ([f64; STEPS], f64, f64)) {
    let mut hs = [0.0; STEPS + 1];
    for t in 0..STEPS {
        hs[t + 1] = (w * hs[t] + u * x[t]).tanh();
    }
    let mut d_x = [0.0; STEPS];
    let (mut d_w, mut d_u) = (0.0, 0.0);
    let mut d_h = 1.0;
    for t in (0..STEPS).rev() {
        let d_z = d_h * (1.0 - hs[t + 1] * hs[t + 1]);
        d_w += d_z * hs[t];
        d_u += d_z * x[t];
        d_x[t] = d_z * u;
        d_h = d_z * w;
    }
    (hs[STEPS], (d_x, d_w, d_u))
}

fn rnn_50(c: &mut Criterion) {
    let x = seeded::<STEPS>(5);
    let (w, u) = (0.9, 0.7);
    let (value, (d_x, d_w, d_u)) = rnn_grad(&x, w, u);
    let (hand_value, (hand_d_x, hand_d_w, hand_d_u)) = rnn_by_hand(&x, w, u);
    assert_eq!(value, rnn(&x, w, u));
    assert_eq!(hand_value, value);
    assert_all_close("d_x", &hand_d_x, &d_x, 1e-13);
    assert_all_close("d_w, d_u", &[hand_d_w, hand_d_u], &[d_w, d_u], 1e-13);

    let mut group = c.benchmark_group("rnn_50");
    group.bench_function("rnn_50_generated", |bencher| {
        bencher.iter(|| rnn_grad(black_box(&x), black_box(w), black_box(u)));
    });
    group.bench_function("rnn_50_handwritten", |bencher| {
        bencher.iter(|| rnn_by_hand(black_box(&x), black_box(w), black_box(u)));
    });
    group.bench_function("rnn_50_primal", |bencher| {
        bencher.iter(|| rnn(black_box(&x), black_box(w), black_box(u)));
    });
    group.finish();
}

criterion_group!(benches, dot_1024, matvec_64x64, rnn_50);
criterion_main!(benches);
