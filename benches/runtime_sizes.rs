//! Run-time sizes against compile-time ones, in interleaved rounds (`support/interleaved.rs`):
//! `cargo bench --bench runtime_sizes`.
//!
//! - ADBench's GMM with the points in a slice (`tests/models/gmm_points.rs`): gradient /
//!   objective on the d10 K5 file (1000 points), the slice gradient against the compile-time
//!   one (`tests/models/gmm.rs`), and gradient / objective on the 2.5 M-point file (d2 K5,
//!   ADBench's replicate-point mode: the file's one point repeated 2,500,000 times), with the
//!   tapes' sizes.
//! - A mini-batch loss over a run-time number of rows against the same code with the rows a
//!   compile-time constant: the gradient's time per row.
//! - An RNN over 1000 steps read at run time, `#[checkpoint(binomial(10))]`, against a full tape.
//! - Rows of a flat matrix read as sub-slices (`let row = &a[i * d..i * d + d];` zipped with
//!   `w`) against the same rows indexed (`a[i * d + j]`): the objective's time and the
//!   gradient's, `d` known at run time only.

#![allow(clippy::needless_range_loop)] // index loops are how the models are written

use std::cell::RefCell;
use std::hint::black_box;

use stackgrad::differentiable;

#[path = "../tests/models/gmm.rs"]
mod gmm;
#[path = "../tests/models/gmm_points.rs"]
mod gmm_points;
#[path = "support/interleaved.rs"]
mod interleaved;

use gmm::*;
use gmm_points::*;

fn data_file(name: &str) -> String {
    format!("{}/../data/adbench/gmm/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `gmm_points`' gradient against its objective, in interleaved rounds of `calls` calls.
fn slice_ratio<const D: usize, const K: usize, const Q: usize>(
    name: &str,
    calls: u32,
    (alphas, means, icf): (&[f64; K], &[[f64; D]; K], &[[f64; Q]; K]),
    points: &[[f64; D]],
) {
    let objective = || {
        gmm_points::<D, K, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(points),
        )
    };
    let gradient = || {
        gmm_points_grad::<D, K, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(points),
        )
    };
    interleaved::ratio(
        name,
        calls,
        ("gradient", gradient),
        ("objective", objective),
    );
}

/// GMM d10 K5 n1000 from ADBench's file, with the points in a slice and in an array.
fn gmm_1k() {
    const D: usize = 10;
    const K: usize = 5;
    const N: usize = 1000;
    const Q: usize = 55;
    let data: Gmm<D, K, N, Q> = gmm::load(data_file("gmm_1k_d10_K5.txt"));
    let (alphas, means, icf) = (&data.alphas, &data.means, &data.icf);
    let points: Vec<[f64; D]> = data.x.to_vec();
    println!(
        "gmm_d10_K5 slice: tape {} B + one point's {} B; the compile-time version's tape {} B",
        GmmPointsTape::<D, K, Q>::BYTES,
        GmmPointsLoop4Tape::<D, K, Q>::BYTES,
        GmmObjectiveTape::<D, K, N, Q>::BYTES
    );
    slice_ratio("gmm_d10_K5 slice", 20, (alphas, means, icf), &points);
    let gradient = || {
        gmm_points_grad::<D, K, Q>(
            black_box(alphas),
            black_box(means),
            black_box(icf),
            black_box(&points),
        )
    };
    // The compile-time version's gradient, its 0.5 MB tape allocated once, as a training loop
    // keeps it.
    let tape = RefCell::new(Box::new(GmmObjectiveTape::<D, K, N, Q>::new()));
    let const_gradient = || {
        let tape = &mut **tape.borrow_mut();
        let x = black_box(&*data.x);
        let value = gmm_objective_forward::<D, K, N, Q>(alphas, means, icf, x, tape);
        let mut g = ([0.0; K], [[0.0; D]; K], [[0.0; Q]; K]);
        gmm_objective_adjoint::<D, K, N, Q>(
            alphas, means, icf, x, tape, 1.0, &mut g.0, &mut g.1, &mut g.2,
        );
        (value, g)
    };
    interleaved::ratio(
        "gmm_d10_K5",
        20,
        ("slice gradient", gradient),
        ("compile-time gradient", const_gradient),
    );
}

/// GMM d2 K5 on ADBench's 2.5 M-point file (one point, repeated).
fn gmm_2_5m() {
    const D: usize = 2;
    const K: usize = 5;
    const Q: usize = 3;
    let data: Gmm<D, K, 1, Q> = gmm::read(
        std::path::Path::new(&data_file("gmm_2.5M_d2_K5.txt")),
        false,
    );
    let points = vec![data.x[0]; 2_500_000];
    let (alphas, means, icf) = (&data.alphas, &data.means, &data.icf);
    println!(
        "gmm_2.5M_d2_K5 slice: tape {} B + one point's {} B, for {} points",
        GmmPointsTape::<D, K, Q>::BYTES,
        GmmPointsLoop4Tape::<D, K, Q>::BYTES,
        points.len()
    );
    slice_ratio("gmm_2.5M_d2_K5 slice", 1, (alphas, means, icf), &points);
}

/// A one-hidden-layer network's squared error over rows, the rows known at run time.
#[differentiable(wrt(w, v))]
fn batch_loss(w: &[[f32; 16]; 32], v: &[f32; 32], xs: &[[f32; 16]], ys: &[f32]) -> f32 {
    let mut loss = 0.0;
    for i in 0..xs.len() {
        let mut out = 0.0;
        for j in 0..32 {
            let mut a = 0.0;
            for d in 0..16 {
                a += w[j][d] * xs[i][d];
            }
            out += v[j] * a.max(0.0);
        }
        let e = out - ys[i];
        loss += e * e;
    }
    loss
}

/// The same with the rows a compile-time constant.
#[differentiable(wrt(w, v))]
fn batch_loss_const<const N: usize>(
    w: &[[f32; 16]; 32],
    v: &[f32; 32],
    xs: &[[f32; 16]; N],
    ys: &[f32; N],
) -> f32 {
    let mut loss = 0.0;
    for i in 0..N {
        let mut out = 0.0;
        for j in 0..32 {
            let mut a = 0.0;
            for d in 0..16 {
                a += w[j][d] * xs[i][d];
            }
            out += v[j] * a.max(0.0);
        }
        let e = out - ys[i];
        loss += e * e;
    }
    loss
}

fn mini_batch() {
    const N: usize = 256;
    let w: [[f32; 16]; 32] = core::array::from_fn(|j| {
        core::array::from_fn(|d| ((j * 16 + d) as f32 * 0.37).sin() * 0.3)
    });
    let v: [f32; 32] = core::array::from_fn(|j| (j as f32 * 0.11).cos() * 0.2);
    let xs: Box<[[f32; 16]; N]> = Box::new(core::array::from_fn(|i| {
        core::array::from_fn(|d| ((i * 7 + d) as f32 * 0.13).sin())
    }));
    let ys: [f32; N] = core::array::from_fn(|i| (i as f32 * 0.05).cos());
    println!(
        "batch_loss: tape {} B + one row's {} B; the compile-time version's tape {} B",
        BatchLossTape::BYTES,
        BatchLossLoop0Tape::BYTES,
        BatchLossConstTape::<N>::BYTES
    );
    let tape = RefCell::new(Box::new(BatchLossConstTape::<N>::new()));
    let runtime = || batch_loss_grad(black_box(&w), black_box(&v), black_box(&xs[..]), &ys);
    let compile_time = || {
        let tape = &mut **tape.borrow_mut();
        let xs = black_box(&*xs);
        let value = batch_loss_const_forward::<N>(&w, &v, xs, &ys, tape);
        let (mut d_w, mut d_v) = ([[0.0; 16]; 32], [0.0; 32]);
        batch_loss_const_adjoint::<N>(&w, &v, xs, &ys, tape, 1.0, &mut d_w, &mut d_v);
        (value, d_w, d_v)
    };
    interleaved::ratio(
        "batch_loss_256_rows",
        20,
        ("run-time rows", runtime),
        ("compile-time rows", compile_time),
    );
}

/// An RNN over a sequence whose length is known at run time, with Griewank's binomial
/// schedule (10 snapshots).
#[differentiable(wrt(w, u))]
fn rnn_binomial(w: f64, u: f64, x: &[f64]) -> f64 {
    let mut h = 0.0;
    #[checkpoint(binomial(10))]
    for t in 0..x.len() {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

/// The same with a full tape and a compile-time length.
#[differentiable(wrt(w, u))]
fn rnn_full<const T: usize>(w: f64, u: f64, x: &[f64; T]) -> f64 {
    let mut h = 0.0;
    for t in 0..T {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

/// 1000 steps: the binomial schedule with 10 snapshots recomputes each step at most 4 times
/// (the least `t` with `C(10 + 1 + t, t) >= 1000`).
fn rnn() {
    const T: usize = 1000;
    let x: [f64; T] = core::array::from_fn(|t| (t as f64 * 0.37).sin());
    println!(
        "rnn_1000_steps: binomial tape {} B, full tape {} B",
        RnnBinomialTape::BYTES,
        RnnFullTape::<T>::BYTES
    );
    let tape = RefCell::new(Box::new(RnnFullTape::<T>::new()));
    let binomial = || rnn_binomial_grad(black_box(0.7), black_box(0.4), black_box(&x[..]));
    let full = || {
        let tape = &mut **tape.borrow_mut();
        let value = rnn_full_forward::<T>(black_box(0.7), black_box(0.4), &x, tape);
        let (mut d_w, mut d_u) = (0.0, 0.0);
        rnn_full_adjoint::<T>(0.7, 0.4, &x, tape, 1.0, &mut d_w, &mut d_u);
        (value, d_w, d_u)
    };
    interleaved::ratio(
        "rnn_1000_steps",
        20,
        ("binomial(10) gradient", binomial),
        ("full-tape gradient", full),
    );
}

/// Least squares over the rows of a flat row-major matrix of `w.len()` columns, each row indexed.
#[differentiable(wrt(w))]
fn rows_indexed(a: &[f64], w: &[f64], y: &[f64]) -> f64 {
    let d = w.len();
    let mut s = 0.0;
    for i in 0..y.len() {
        let mut r = -y[i];
        for j in 0..d {
            r += a[i * d + j] * w[j];
        }
        s += r * r;
    }
    s
}

/// [`rows_indexed`] with each row a sub-slice, zipped with `w`.
#[differentiable(wrt(w))]
fn rows_sliced(a: &[f64], w: &[f64], y: &[f64]) -> f64 {
    let d = w.len();
    let mut s = 0.0;
    for i in 0..y.len() {
        let row = &a[i * d..i * d + d];
        let mut r = -y[i];
        for (aij, wj) in row.iter().zip(w) {
            r += aij * wj;
        }
        s += r * r;
    }
    s
}

fn sub_slices() {
    let (n, d) = (2000, 16);
    let a: Vec<f64> = (0..n * d).map(|k| (k as f64 * 0.37).sin()).collect();
    let w: Vec<f64> = (0..d).map(|j| (j as f64 * 0.11).cos() * 0.3).collect();
    let y: Vec<f64> = (0..n).map(|i| (i as f64 * 0.05).cos()).collect();
    let (mut g1, mut g2) = (vec![0.0; d], vec![0.0; d]);
    let (v1, ()) = rows_sliced_grad(&a, &w, &y, &mut g1);
    let (v2, ()) = rows_indexed_grad(&a, &w, &y, &mut g2);
    assert!(
        (v1 - v2).abs() <= 1e-12 * v2.abs()
            && g1
                .iter()
                .zip(&g2)
                .all(|(p, q)| (p - q).abs() <= 1e-10 * q.abs().max(1.0))
    );
    interleaved::ratio(
        "rows_2000x16 objective",
        200,
        ("sub-slices", || {
            rows_sliced(black_box(&a), black_box(&w), &y)
        }),
        ("indexed", || rows_indexed(black_box(&a), black_box(&w), &y)),
    );
    let grads = RefCell::new((vec![0.0; d], vec![0.0; d]));
    interleaved::ratio(
        "rows_2000x16 gradient",
        200,
        ("sub-slices", || {
            rows_sliced_grad(black_box(&a), black_box(&w), &y, &mut grads.borrow_mut().0)
        }),
        ("indexed", || {
            rows_indexed_grad(black_box(&a), black_box(&w), &y, &mut grads.borrow_mut().1)
        }),
    );
}

fn main() {
    sub_slices();
    gmm_1k();
    gmm_2_5m();
    mini_batch();
    rnn();
}
