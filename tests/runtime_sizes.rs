//! Data whose size is known at run time only: slice parameters (`&[f64]`, `&[[f64; D]]`), loops
//! over `0..x.len()`, `0..n`, `x.iter()`, `.zip(..)` and `.enumerate()`, whose iterations share
//! only accumulators (one iteration's tape, whatever the length), and a sequential loop over a
//! run-time length under `#[checkpoint(binomial(S))]`. Gradients against central differences,
//! and against the same code with compile-time sizes.

#![allow(clippy::needless_range_loop)] // index loops are how these models are written

mod common;

use common::{GradCheck, data, unflatten};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stackgrad::differentiable;

#[path = "models/gmm.rs"]
mod gmm;
#[path = "models/gmm_points.rs"]
mod gmm_points;

/// A least-squares fit of a line to points `(x[i], y[i])`: a sum over `0..x.len()`, divided by
/// the length.
#[differentiable]
fn fit(w: f64, b: f64, x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = w * x[i] + b - y[i];
        s += r * r;
    }
    s / x.len() as f64
}

#[test]
fn a_sum_over_a_slice_length() {
    for n in [0, 1, 7, 100] {
        let (x, y) = (data(1, n, -2.0, 2.0), data(2, n, -1.0, 3.0));
        let (value, (d_w, d_b)) = fit_grad(0.7, -0.2, &x, &y);
        // The closed form: d/dw = 2/n Σ r x, d/db = 2/n Σ r.
        let r: Vec<f64> = (0..n).map(|i| 0.7 * x[i] - 0.2 - y[i]).collect();
        let len = n as f64;
        if n == 0 {
            assert!(value.is_nan() && d_w == 0.0 && d_b == 0.0);
            continue;
        }
        assert_eq!(value, fit(0.7, -0.2, &x, &y));
        let dw: f64 = (0..n).map(|i| 2.0 * r[i] * x[i]).sum::<f64>() / len;
        let db: f64 = r.iter().map(|r| 2.0 * r).sum::<f64>() / len;
        assert!((d_w - dw).abs() <= 1e-12 * dw.abs().max(1.0), "{d_w} {dw}");
        assert!((d_b - db).abs() <= 1e-12 * db.abs().max(1.0), "{d_b} {db}");
    }
    // Nothing of the loop is recorded: the tape is empty, whatever the length.
    assert_eq!(FitTape::BYTES, 0);
}

#[test]
fn try_forward_returns_an_error_for_an_index_outside_a_slice() {
    let (x, y) = (data(1, 10, -2.0, 2.0), data(2, 10, -1.0, 3.0));
    let mut tape = FitTape::new();
    assert_eq!(
        fit_try_forward(0.7, -0.2, &x, &y, &mut tape),
        Ok(fit(0.7, -0.2, &x, &y))
    );
    // `y` shorter than `x`: `fit_forward` would panic on `y[i]`.
    assert_eq!(
        fit_try_forward(0.7, -0.2, &x, &y[..9], &mut tape),
        Err("an index is outside the slice `y`")
    );
}

/// `for v in x.iter()`, `for v in x`, `for &v in x`, `.zip(..)` and `.enumerate()` over slices.
#[differentiable]
fn iterators(p: &[f64; 2], x: &[f64], w: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += (1.0 + (p[0] * v).exp()).ln();
    }
    for v in x {
        s += 0.1 * p[1] * v;
    }
    for &v in w {
        s += 0.2 * p[0] * p[1] * v;
    }
    for (xi, wi) in x.iter().zip(w) {
        s += 0.05 * p[1] * xi * wi;
    }
    for (xi, wi) in x.iter().zip(w.iter()) {
        let r = p[0] * xi - p[1];
        s += wi * r * r;
    }
    for (i, xi) in x.iter().enumerate() {
        s -= 0.01 * (i as f64) * p[1] * xi.sin();
    }
    s
}

#[test]
fn iterators_over_slices() {
    let x = data(3, 40, -1.5, 1.5);
    // `zip` stops at the shorter slice.
    let w = data(4, 33, 0.0, 1.0);
    GradCheck::new("iterators").run(
        &common::cube::<2>(5, 20, -1.0, 1.0),
        |p| iterators(&p, &x, &w),
        |p| iterators_grad(&p, &x, &w),
    );
}

/// A one-hidden-layer network's mean squared error over `n` rows of a slice of arrays; the
/// hidden values live inside the loop, the loss accumulates.
#[differentiable]
fn mlp_loss(w: &[[f64; 2]; 3], v: &[f64; 3], xs: &[[f64; 2]], ys: &[f64], n: usize) -> f64 {
    let mut loss = 0.0;
    for i in 0..n {
        let mut out = 0.0;
        for j in 0..3 {
            let h = (w[j][0] * xs[i][0] + w[j][1] * xs[i][1]).tanh();
            out += v[j] * h;
        }
        let e = out - ys[i];
        loss += e * e;
    }
    loss / n as f64
}

/// The same with the number of rows a compile-time constant.
#[differentiable(wrt(w, v))]
fn mlp_loss_const<const N: usize>(
    w: &[[f64; 2]; 3],
    v: &[f64; 3],
    xs: &[[f64; 2]; N],
    ys: &[f64; N],
) -> f64 {
    let mut loss = 0.0;
    for i in 0..N {
        let mut out = 0.0;
        for j in 0..3 {
            let h = (w[j][0] * xs[i][0] + w[j][1] * xs[i][1]).tanh();
            out += v[j] * h;
        }
        let e = out - ys[i];
        loss += e * e;
    }
    loss / N as f64
}

#[test]
fn a_mini_batch_over_a_run_time_number_of_rows() {
    const N: usize = 50;
    let flat = data(6, 2 * N, -1.0, 1.0);
    let xs: [[f64; 2]; N] = core::array::from_fn(|i| [flat[2 * i], flat[2 * i + 1]]);
    let ys: [f64; N] = data(7, N, -0.5, 0.5).try_into().unwrap();
    GradCheck::new("mlp_loss").run(
        &common::cube::<9>(8, 20, -1.0, 1.0),
        |p| {
            let (w, v): ([[f64; 2]; 3], [f64; 3]) = unflatten(&p);
            mlp_loss(&w, &v, &xs, &ys, N)
        },
        |p| {
            let (w, v): ([[f64; 2]; 3], [f64; 3]) = unflatten(&p);
            let (value, (d_w, d_v)) = mlp_loss_grad(&w, &v, &xs, &ys, N);
            (value, flatten(&(d_w, d_v)).try_into().unwrap())
        },
    );
    // The same gradient as the compile-time version, to rounding, with a tape of one row.
    let w = [[0.3, -0.7], [1.1, 0.2], [-0.4, 0.9]];
    let v = [0.5, -1.2, 0.8];
    let (value, (d_w, d_v)) = mlp_loss_grad(&w, &v, &xs, &ys, N);
    let (value_c, (d_w_c, d_v_c)) = mlp_loss_const_grad(&w, &v, &xs, &ys);
    assert!((value - value_c).abs() <= 1e-14 * value_c.abs());
    for (a, b) in flatten(&(d_w, d_v)).iter().zip(flatten(&(d_w_c, d_v_c))) {
        assert!((a - b).abs() <= 1e-13 * b.abs().max(1e-3), "{a} {b}");
    }
    const { assert!(MlpLossTape::BYTES < MlpLossConstTape::<N>::BYTES / 10) };
    // `f_grad` runs each row forward and back at once; `f_forward` then `f_adjoint` (whose
    // seed comes later) runs each row again in the reverse sweep: the same gradient.
    let mut tape = MlpLossTape::new();
    let forward = mlp_loss_forward(&w, &v, &xs, &ys, N, &mut tape);
    let (mut a_w, mut a_v) = ([[0.0; 2]; 3], [0.0; 3]);
    mlp_loss_adjoint(&w, &v, &xs, &ys, N, &tape, 1.0, &mut a_w, &mut a_v);
    assert_eq!(forward, value);
    for (a, b) in flatten(&(a_w, a_v)).iter().zip(flatten(&(d_w, d_v))) {
        assert!((a - b).abs() <= 1e-13 * b.abs().max(1e-3), "{a} {b}");
    }
    // Fewer rows than the slices hold: only the first `n` count.
    let (short, _) = mlp_loss_grad(&w, &v, &xs, &ys, 10);
    let first: [[f64; 2]; 10] = xs[..10].try_into().unwrap();
    let first_ys: [f64; 10] = ys[..10].try_into().unwrap();
    assert_eq!(short, mlp_loss_const(&w, &v, &first, &first_ys));
}

fn flatten<T: common::Flat>(t: &T) -> Vec<f64> {
    let mut out = Vec::new();
    t.write(&mut out);
    out
}

/// Values computed before the loop (a mutable array written there, read inside), an array
/// accumulator, one written out (`total = total - ..`), and a nonlinear use of the
/// accumulators after the loop.
#[allow(clippy::assign_op_pattern)] // the written-out form is the construct under test
#[differentiable]
fn scaled(p: &[f64; 3], xs: &[[f64; 2]]) -> f64 {
    let mut scale = [0.0; 2];
    for d in 0..2 {
        scale[d] = p[d].exp();
    }
    let mut g = [0.0; 3];
    let mut total = 0.0;
    for x in xs.iter() {
        let q = scale[0] * x[0] + scale[1] * x[1];
        for j in 0..3 {
            g[j] += (p[j] * q).sin();
        }
        total = total - q * q * p[2];
    }
    g[0] * g[1] + g[2].exp() + total.tanh()
}

#[test]
fn state_from_before_the_loop_and_array_accumulators() {
    let flat = data(9, 60, -1.0, 1.0);
    let xs: Vec<[f64; 2]> = flat.chunks(2).map(|c| [c[0], c[1]]).collect();
    GradCheck::new("scaled").run(
        &common::cube::<3>(10, 20, -0.5, 0.5),
        |p| scaled(&p, &xs),
        |p| scaled_grad(&p, &xs),
    );
}

/// An RNN over a sequence whose length is known at run time: a sequential loop, reversed with
/// Griewank's binomial schedule (4 snapshots).
#[differentiable]
fn rnn(w: f64, u: f64, x: &[f64]) -> f64 {
    let mut h = 0.0;
    #[checkpoint(binomial(4))]
    for t in 0..x.len() {
        h = (w * h + u * x[t]).tanh();
    }
    h * h
}

/// The same with a full tape and a compile-time length.
#[differentiable(wrt(w, u))]
fn rnn_const<const T: usize>(w: f64, u: f64, x: &[f64; T]) -> f64 {
    let mut h = 0.0;
    for t in 0..T {
        h = (w * h + u * x[t]).tanh();
    }
    h * h
}

#[test]
fn a_sequential_loop_over_a_run_time_length_with_binomial_checkpoints() {
    const T: usize = 300;
    let x: [f64; T] = data(11, T, -1.0, 1.0).try_into().unwrap();
    GradCheck::new("rnn").run(
        &common::cube::<2>(12, 20, -0.9, 0.9),
        |p| rnn(p[0], p[1], &x),
        |p| {
            let (value, (d_w, d_u)) = rnn_grad(p[0], p[1], &x);
            (value, [d_w, d_u])
        },
    );
    // The same value and gradient as the full tape's, at every length.
    fn prefix<const L: usize>(x: &[f64]) {
        let prefix: [f64; L] = x[..L].try_into().unwrap();
        let (value, (d_w, d_u)) = rnn_grad(0.8, -0.6, &prefix);
        let (value_c, (d_w_c, d_u_c)) = rnn_const_grad::<L>(0.8, -0.6, &prefix);
        assert_eq!(value, value_c, "length {L}");
        assert!(
            (d_w - d_w_c).abs() <= 1e-13 * d_w_c.abs().max(1e-6),
            "length {L}"
        );
        assert!(
            (d_u - d_u_c).abs() <= 1e-13 * d_u_c.abs().max(1e-6),
            "length {L}"
        );
    }
    prefix::<0>(&x);
    prefix::<1>(&x);
    prefix::<5>(&x);
    prefix::<37>(&x);
    prefix::<T>(&x);
    // The tape keeps the state before the loop, whatever the length.
    const { assert!(RnnTape::BYTES <= 16) };
}

/// The same RNN with no checkpoint: with the `alloc` feature (on by default), a sequential loop
/// over a run-time length records into `Vec` fields of the tape, sized when the loop starts
/// (also in the tangent program that `f_hvp` differentiates).
#[differentiable(hvp)]
fn rnn_taped(w: f64, u: f64, x: &[f64]) -> f64 {
    let mut h = 0.0;
    for t in 0..x.len() {
        h = (w * h + u * x[t]).tanh();
    }
    h * h
}

/// Sequences of `m` steps each, one after the other in `x`, the state carried through all of
/// them, inside a loop of constant bounds: `Vec` fields inside `Vec` fields inside arrays.
#[differentiable(wrt(w, u))]
fn rnn_nested(w: &[f64; 2], u: f64, x: &[f64], m: usize) -> f64 {
    let mut h = 0.0;
    let mut total = 0.0;
    for layer in 0..2 {
        for s in 0..x.len() / m {
            let mut c = 0.0;
            for t in 0..m {
                c = c * 0.5 + x[s * m + t];
                h = (w[layer] * h + u * c).tanh();
            }
            total += h * c;
        }
    }
    total
}

/// The same with compile-time sizes: `S` sequences of `M` steps.
#[differentiable(wrt(w, u))]
fn rnn_nested_const<const S: usize, const M: usize>(
    w: &[f64; 2],
    u: f64,
    x: &[[f64; M]; S],
) -> f64 {
    let mut h = 0.0;
    let mut total = 0.0;
    for layer in 0..2 {
        for s in 0..S {
            let mut c = 0.0;
            for t in 0..M {
                c = c * 0.5 + x[s][t];
                h = (w[layer] * h + u * c).tanh();
            }
            total += h * c;
        }
    }
    total
}

#[test]
fn a_sequential_loop_over_a_run_time_length_records_into_vecs() {
    const T: usize = 300;
    let x: [f64; T] = data(21, T, -1.0, 1.0).try_into().unwrap();
    GradCheck::new("rnn_taped").run(
        &common::cube::<2>(22, 20, -0.9, 0.9),
        |p| rnn_taped(p[0], p[1], &x),
        |p| {
            let (value, (d_w, d_u)) = rnn_taped_grad(p[0], p[1], &x);
            (value, [d_w, d_u])
        },
    );
    // Exactly the full tape's value and gradient (the same operations in the same order).
    fn prefix<const L: usize>(x: &[f64]) {
        let prefix: [f64; L] = x[..L].try_into().unwrap();
        let taped = rnn_taped_grad(0.8, -0.6, &prefix);
        let (value_c, (d_w_c, d_u_c)) = rnn_const_grad::<L>(0.8, -0.6, &prefix);
        assert_eq!(taped, (value_c, (d_w_c, d_u_c)), "length {L}");
    }
    prefix::<0>(&x);
    prefix::<1>(&x);
    prefix::<37>(&x);
    prefix::<T>(&x);
    // The fixed part holds no step; the `Vec`s hold the steps of the longest call so far.
    let mut tape = RnnTapedTape::new();
    assert_eq!(tape.bytes(), RnnTapedTape::BYTES);
    rnn_taped_forward(0.8, -0.6, &x, &mut tape);
    let after_long = tape.bytes();
    assert!(after_long >= RnnTapedTape::BYTES + T * 8, "{after_long}");
    let value = rnn_taped_forward(0.8, -0.6, &x[..10], &mut tape);
    assert_eq!(
        tape.bytes(),
        after_long,
        "a shorter call reuses the same buffers"
    );
    let (mut d_w, mut d_u) = (0.0, 0.0);
    rnn_taped_adjoint(0.8, -0.6, &x[..10], &tape, 1.0, &mut d_w, &mut d_u);
    let short: [f64; 10] = x[..10].try_into().unwrap();
    assert_eq!((value, (d_w, d_u)), rnn_const_grad::<10>(0.8, -0.6, &short));
    // The tangent and H v: against the gradient along `v`, and central differences of it.
    let grad = |w: f64, u: f64| {
        let (_, (d_w, d_u)) = rnn_taped_grad(w, u, &x);
        [d_w, d_u]
    };
    let mut rng = SmallRng::seed_from_u64(25);
    for _ in 0..10 {
        let (w, u) = (rng.gen_range(-0.9..0.9), rng.gen_range(-0.9..0.9));
        let v = [rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)];
        let g = grad(w, u);
        let (_, dv) = rnn_taped_jvp(w, u, &x, v[0], v[1]);
        let along = g[0] * v[0] + g[1] * v[1];
        assert!(
            (dv - along).abs() <= 1e-12 * along.abs().max(1.0),
            "{dv} {along}"
        );
        let (_, g_h, hv) = rnn_taped_hvp(w, u, &x, v[0], v[1]);
        assert!((g_h.0 - g[0]).abs() <= 1e-13 * g[0].abs().max(1.0));
        let h = 1e-5;
        let (g_p, g_m) = (
            grad(w + h * v[0], u + h * v[1]),
            grad(w - h * v[0], u - h * v[1]),
        );
        for (i, hv) in [hv.0, hv.1].into_iter().enumerate() {
            let fd = (g_p[i] - g_m[i]) / (2.0 * h);
            assert!(
                (hv - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                "{i}: {hv} {fd}"
            );
        }
    }
}

#[test]
fn nested_sequential_loops_over_run_time_lengths() {
    const S: usize = 7;
    const M: usize = 5;
    let flat = data(23, S * M, -1.0, 1.0);
    let x: [[f64; M]; S] = std::array::from_fn(|s| flat[s * M..][..M].try_into().unwrap());
    let params = |p: &[f64; 3]| ([p[0], p[1]], p[2]);
    GradCheck::new("rnn_nested").run(
        &common::cube::<3>(24, 20, -0.9, 0.9),
        |p| {
            let (w, u) = params(&p);
            rnn_nested(&w, u, &flat, M)
        },
        |p| {
            let (w, u) = params(&p);
            let (value, (d_w, d_u)) = rnn_nested_grad(&w, u, &flat, M);
            (value, [d_w[0], d_w[1], d_u])
        },
    );
    let (w, u) = ([0.7, -0.4], 0.9);
    assert_eq!(
        rnn_nested_grad(&w, u, &flat, M),
        rnn_nested_const_grad::<S, M>(&w, u, &x)
    );
}

/// An accumulator also read inside the loop (`s += w * v * s.tanh()`): its value before each
/// step matters, so the steps are recorded (with `alloc`).
#[differentiable]
fn self_reading(x: &[f64], w: f64) -> f64 {
    let mut s: f64 = 0.5;
    for v in x.iter() {
        s += w * v * s.tanh();
    }
    s
}

#[test]
fn an_accumulator_read_inside_its_loop() {
    let x = data(26, 40, -1.0, 1.0);
    GradCheck::new("self_reading").run(
        &common::cube::<1>(27, 20, -0.9, 0.9),
        |p| self_reading(&x, p[0]),
        |p| {
            let (value, d_w) = self_reading_grad(&x, p[0]);
            (value, [d_w])
        },
    );
}

type Params<const D: usize, const K: usize, const Q: usize> =
    ([f64; K], [[f64; D]; K], [[f64; Q]; K]);

/// ADBench's GMM with the points in a slice: the gradient against central differences and
/// against the compile-time version on ADBench's d2 K5 file (1000 points), and a tape that does
/// not depend on the number of points.
#[test]
fn gmm_with_the_points_in_a_slice() {
    const D: usize = 2;
    const K: usize = 5;
    const N: usize = 1000;
    const Q: usize = D + D * (D - 1) / 2;
    const P: usize = K + K * D + K * Q;
    let data: gmm::Gmm<D, K, N, Q> = gmm::load(format!(
        "{}/data/adbench/gmm/gmm_1k_d2_K5.txt",
        env!("CARGO_MANIFEST_DIR")
    ));
    let points: Vec<[f64; D]> = data.x.to_vec();
    let mut start = Vec::new();
    common::Flat::write(&(data.alphas, data.means, data.icf), &mut start);
    let start: [f64; P] = start.try_into().unwrap();
    let mut rng = SmallRng::seed_from_u64(13);
    let around: Vec<[f64; P]> = (0..20)
        .map(|i| match i {
            0 => start,
            _ => start.map(|v| v + rng.gen_range(-0.2..0.2)),
        })
        .collect();
    let grad = |point: [f64; P]| {
        let (alphas, means, icf): Params<D, K, Q> = unflatten(&point);
        let (value, g) = gmm_points::gmm_points_grad::<D, K, Q>(&alphas, &means, &icf, &points);
        (value, flatten(&g).try_into().unwrap())
    };
    GradCheck::new("gmm_points").run(
        &around,
        |point| {
            let (alphas, means, icf): Params<D, K, Q> = unflatten(&point);
            gmm_points::gmm_points::<D, K, Q>(&alphas, &means, &icf, &points)
        },
        grad,
    );
    for &point in &around[..3] {
        let (alphas, means, icf): Params<D, K, Q> = unflatten(&point);
        let (value, g) = grad(point);
        let mut tape = Box::new(gmm::GmmObjectiveTape::<D, K, N, Q>::new());
        let value_c =
            gmm::gmm_objective_forward::<D, K, N, Q>(&alphas, &means, &icf, &data.x, &mut tape);
        let mut g_c: Params<D, K, Q> = ([0.0; K], [[0.0; D]; K], [[0.0; Q]; K]);
        gmm::gmm_objective_adjoint::<D, K, N, Q>(
            &alphas, &means, &icf, &data.x, &tape, 1.0, &mut g_c.0, &mut g_c.1, &mut g_c.2,
        );
        assert!((value - value_c).abs() <= 1e-12 * value_c.abs());
        for (a, b) in g.iter().zip(flatten(&g_c)) {
            assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} {b}");
        }
    }
    // One point's tape, whatever the number of points.
    const {
        assert!(
            gmm_points::GmmPointsTape::<D, K, Q>::BYTES
                + gmm_points::GmmPointsLoop4Tape::<D, K, Q>::BYTES
                < 4096
        )
    };
}

/// Forward and second order over a run-time number of rows: `f_jvp` and `f_hvp` take the slices
/// as they are (no tangent: they are not differentiated).
#[differentiable(hvp)]
fn batch(w: &[f64; 3], xs: &[[f64; 3]], ys: &[f64]) -> f64 {
    let mut loss = 0.0;
    for i in 0..xs.len() {
        let mut a = 0.0;
        for d in 0..3 {
            a += w[d] * xs[i][d];
        }
        let e = a.tanh() - ys[i];
        loss += e * e;
    }
    loss
}

#[test]
fn jvp_and_hvp_over_a_run_time_number_of_rows() {
    let flat = data(14, 3 * 40, -1.0, 1.0);
    let xs: Vec<[f64; 3]> = flat.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let ys = data(15, 40, -0.5, 0.5);
    GradCheck::new("batch").run(
        &common::cube::<3>(16, 20, -1.0, 1.0),
        |w| batch(&w, &xs, &ys),
        |w| batch_grad(&w, &xs, &ys),
    );
    let mut rng = SmallRng::seed_from_u64(17);
    for _ in 0..10 {
        let w: [f64; 3] = core::array::from_fn(|_| rng.gen_range(-1.0..1.0));
        let v: [f64; 3] = core::array::from_fn(|_| rng.gen_range(-1.0..1.0));
        let (value, g) = batch_grad(&w, &xs, &ys);
        // The directional derivative is the gradient along `v`.
        let (value_t, dv) = batch_jvp(&w, &xs, &ys, &v);
        let along: f64 = (0..3).map(|i| g[i] * v[i]).sum();
        assert_eq!(value_t, value);
        assert!(
            (dv - along).abs() <= 1e-12 * along.abs().max(1.0),
            "{dv} {along}"
        );
        // H v against central differences of the gradient along `v`.
        let (_, g_h, hv) = batch_hvp(&w, &xs, &ys, &v);
        // The same gradient (`f_grad` adds the rows in the other order).
        for i in 0..3 {
            assert!((g_h[i] - g[i]).abs() <= 1e-13 * g[i].abs().max(1.0));
        }
        let h = 1e-5;
        let plus: [f64; 3] = core::array::from_fn(|i| w[i] + h * v[i]);
        let minus: [f64; 3] = core::array::from_fn(|i| w[i] - h * v[i]);
        let (g_p, g_m) = (
            batch_grad(&plus, &xs, &ys).1,
            batch_grad(&minus, &xs, &ys).1,
        );
        for i in 0..3 {
            let fd = (g_p[i] - g_m[i]) / (2.0 * h);
            assert!(
                (hv[i] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                "{i}: {} {fd}",
                hv[i]
            );
        }
    }
}

/// A differentiated slice: `d_x: &mut [f64]` in the adjoint, a buffer `f_grad` writes, a tangent
/// slice in `f_jvp`.
#[differentiable(wrt(x, w), jvp)]
fn softplus_sum(x: &[f64], w: f64) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += (1.0 + (w * v).exp()).ln();
    }
    s * 0.5
}

#[test]
fn a_differentiated_slice() {
    GradCheck::new("softplus_sum").run(
        &common::cube::<6>(18, 20, -1.5, 1.5),
        |p| softplus_sum(&p[..5], p[5]),
        |p| {
            // A buffer holding garbage: `f_grad` zeroes it first.
            let mut d_x = [7.0; 5];
            let (value, d_w) = softplus_sum_grad(&p[..5], p[5], &mut d_x);
            let mut g = [0.0; 6];
            g[..5].copy_from_slice(&d_x);
            g[5] = d_w;
            (value, g)
        },
    );
    let x = data(19, 300, -2.0, 2.0);
    let mut d_x = vec![0.0; 300];
    let (_, d_w) = softplus_sum_grad(&x, 0.7, &mut d_x);
    // The adjoint accumulates: twice from zero is twice the gradient.
    let mut tape = SoftplusSumTape::new();
    softplus_sum_forward(&x, 0.7, &mut tape);
    let (mut a_x, mut a_w) = (vec![0.0; 300], 0.0);
    softplus_sum_adjoint(&x, 0.7, &tape, 1.0, &mut a_x, &mut a_w);
    softplus_sum_adjoint(&x, 0.7, &tape, 1.0, &mut a_x, &mut a_w);
    assert!((a_w - 2.0 * d_w).abs() <= 1e-12 * d_w.abs());
    for (a, g) in a_x.iter().zip(&d_x) {
        assert!((a - 2.0 * g).abs() <= 1e-12 * g.abs().max(1e-12));
    }
    // The tangent along (t_x, t_w) is the gradient's dot product with it.
    let t_x = data(20, 300, -1.0, 1.0);
    let (_, dv) = softplus_sum_jvp(&x, 0.7, &t_x, 0.3);
    let along: f64 = d_x.iter().zip(&t_x).map(|(g, t)| g * t).sum::<f64>() + d_w * 0.3;
    assert!(
        (dv - along).abs() <= 1e-12 * along.abs().max(1.0),
        "{dv} {along}"
    );
}

#[test]
#[should_panic(expected = "softplus_sum: the gradient buffer `d_x` has 3 elements, but `x` has 4")]
fn a_gradient_buffer_of_another_length_panics_with_a_message() {
    softplus_sum_grad(&[1.0, 2.0, 3.0, 4.0], 0.5, &mut [0.0; 3]);
}

#[test]
#[should_panic(expected = "softplus_sum: the tangent `t_x` has 5 elements, but `x` has 4")]
fn a_tangent_of_another_length_panics_with_a_message() {
    softplus_sum_jvp(&[1.0, 2.0, 3.0, 4.0], 0.5, &[0.0; 5], 1.0);
}

/// Log-sum-exp over a slice, stabilised by the maximum: a running `max` over a run-time length
/// is an accumulator too.
#[differentiable(wrt(x), jvp)]
fn lse(x: &[f64]) -> f64 {
    let mut m = f64::NEG_INFINITY;
    for v in x.iter() {
        m = m.max(*v);
    }
    let mut s = 0.0;
    for v in x.iter() {
        s += (v - m).exp();
    }
    s.ln() + m
}

/// The square of the largest `w x[i]`, and of the smallest.
#[differentiable(wrt(x, w))]
fn extremes(x: &[f64], w: f64) -> f64 {
    let mut hi = f64::NEG_INFINITY;
    let mut lo = f64::INFINITY;
    for v in x.iter() {
        let y = w * v;
        hi = hi.max(y);
        lo = lo.min(y);
    }
    hi * hi + 0.5 * lo * lo * lo
}

#[test]
fn running_maxima_and_minima() {
    // The gradient of log-sum-exp is the softmax, also where the maximum is tied.
    for x in [
        data(21, 500, -3.0, 3.0),
        vec![1.0, 2.0, 2.0, -1.0, 2.0],
        vec![0.5],
    ] {
        let mut d_x = vec![0.0; x.len()];
        let (value, ()) = lse_grad(&x, &mut d_x);
        let total: f64 = x.iter().map(|v| v.exp()).sum();
        assert!((value - total.ln()).abs() <= 1e-12 * value.abs().max(1.0));
        for (g, v) in d_x.iter().zip(&x) {
            assert!(
                (g - v.exp() / total).abs() <= 1e-13,
                "{g} {}",
                v.exp() / total
            );
        }
        let mut tape = LseTape::new();
        lse_forward(&x, &mut tape);
        let mut a_x = vec![0.0; x.len()];
        lse_adjoint(&x, &tape, 2.0, &mut a_x);
        for (a, g) in a_x.iter().zip(&d_x) {
            assert!((a - 2.0 * g).abs() <= 1e-13);
        }
    }
    GradCheck::new("extremes").run(
        &common::cube::<6>(22, 20, -2.0, 2.0),
        |p| extremes(&p[..5], p[5]),
        |p| {
            let mut d_x = [0.0; 5];
            let (value, d_w) = extremes_grad(&p[..5], p[5], &mut d_x);
            let mut g = [0.0; 6];
            g[..5].copy_from_slice(&d_x);
            g[5] = d_w;
            (value, g)
        },
    );
    // Ties: the first of the largest gets the derivative (the receiver of `max` keeps it).
    let x = [1.0, 3.0, -2.0, 3.0, -2.0];
    let mut d_x = [0.0; 5];
    let (value, d_w) = extremes_grad(&x, 1.0, &mut d_x);
    assert_eq!(value, 9.0 - 4.0);
    assert_eq!(d_x, [0.0, 6.0, 6.0, 0.0, 0.0]); // 2 hi at x[1]; 1.5 lo^2 at x[2]
    assert_eq!(d_w, 2.0 * 3.0 * 3.0 + 1.5 * 4.0 * -2.0);
}

/// The largest `w x[i]`, or `c` where none is larger: a loop that computes one running
/// maximum and nothing else, whose reverse sweep runs only the iteration that set it.
#[differentiable(wrt(x, w, c))]
fn scaled_max(x: &[f64], w: f64, c: f64) -> f64 {
    let mut m = c;
    for v in x.iter() {
        m = m.max(w * v);
    }
    m * m
}

/// The smallest `x[i]^2 + i`, the same way.
#[differentiable(wrt(x))]
fn shifted_min(x: &[f64]) -> f64 {
    let mut m = f64::INFINITY;
    for i in 0..x.len() {
        let t = x[i] * x[i];
        m = m.min(t + i as f64);
    }
    3.0 * m
}

#[test]
fn a_loop_of_one_running_extremum_passes_its_cotangent_to_one_iteration() {
    // (x, w, c, the d_x, d_w, d_c of the closed form: 2 m at the first of the largest `w x[i]`
    // and `x[i]` times that in `d_w`, or 2 m in `d_c` where `c` is not beaten.)
    type Case = (Vec<f64>, f64, f64, Vec<f64>, f64, f64);
    let cases: [Case; 6] = [
        (
            vec![1.0, 4.0, -2.0, 3.0],
            1.5,
            0.0,
            vec![0.0, 18.0, 0.0, 0.0],
            48.0,
            0.0,
        ),
        // A negative scale: the smallest `x[i]` wins.
        (
            vec![1.0, 4.0, -2.0, 3.0],
            -1.0,
            0.0,
            vec![0.0, 0.0, -4.0, 0.0],
            -8.0,
            0.0,
        ),
        // Ties: the first of them.
        (
            vec![2.0, 5.0, 5.0, 1.0, 5.0],
            1.0,
            0.0,
            vec![0.0, 10.0, 0.0, 0.0, 0.0],
            50.0,
            0.0,
        ),
        // Not beaten, and tied with `c`: `c` keeps it.
        (vec![1.0, 2.0], 1.0, 3.0, vec![0.0, 0.0], 0.0, 6.0),
        (vec![1.0, 3.0], 1.0, 3.0, vec![0.0, 0.0], 0.0, 6.0),
        // No iteration at all.
        (vec![], 2.0, -1.5, vec![], 0.0, -3.0),
    ];
    let mut tape = ScaledMaxTape::new();
    for (x, w, c, d_x_cf, d_w_cf, d_c_cf) in cases {
        let mut d_x = vec![0.0; x.len()];
        let (value, (d_w, d_c)) = scaled_max_grad(&x, w, c, &mut d_x);
        assert_eq!(value, scaled_max(&x, w, c));
        assert_eq!((d_x, d_w, d_c), (d_x_cf, d_w_cf, d_c_cf), "{x:?} {w} {c}");
        // The same tape again, for other inputs (nothing of the last call kept).
        let mut a_x = vec![0.0; x.len()];
        scaled_max_forward(&x, w, c, &mut tape);
        let (mut a_w, mut a_c) = (0.0, 0.0);
        scaled_max_adjoint(&x, w, c, &tape, 0.5, &mut a_x, &mut a_w, &mut a_c);
        assert_eq!((a_w, a_c), (0.5 * d_w_cf, 0.5 * d_c_cf));
    }
    // Against central differences on random inputs, away from ties.
    GradCheck::new("scaled_max").run(
        &common::cube::<7>(24, 20, -2.0, 2.0),
        |p| scaled_max(&p[..5], p[5], p[6]),
        |p| {
            let mut d_x = [0.0; 5];
            let (value, (d_w, d_c)) = scaled_max_grad(&p[..5], p[5], p[6], &mut d_x);
            let mut g = [0.0; 7];
            g[..5].copy_from_slice(&d_x);
            (g[5], g[6]) = (d_w, d_c);
            (value, g)
        },
    );
    // The smallest of 4, 1 + 1, 1 + 2, 0.25 + 3: x[1], with `2 x[1]` times 3.
    let mut d_x = [0.0; 4];
    let (value, ()) = shifted_min_grad(&[2.0, -1.0, 1.0, 0.5], &mut d_x);
    assert_eq!((value, d_x), (6.0, [0.0, -6.0, 0.0, 0.0]));
}

/// k-means' objective: each point's squared distance to its nearest centroid, the numbers of
/// points and of centroids both known at run time only (a run-time loop inside another, a
/// `min` accumulator, a differentiated slice of arrays).
#[differentiable(wrt(cs))]
fn kmeans(cs: &[[f64; 2]], xs: &[[f64; 2]]) -> f64 {
    let mut total = 0.0;
    for x in xs.iter() {
        let mut best = f64::INFINITY;
        for c in cs.iter() {
            let mut d2 = 0.0;
            for d in 0..2 {
                let e = x[d] - c[d];
                d2 += e * e;
            }
            best = best.min(d2);
        }
        total += best;
    }
    total
}

#[test]
fn nested_run_time_loops() {
    let flat = data(23, 2 * 60, -2.0, 2.0);
    let xs: Vec<[f64; 2]> = flat.chunks(2).map(|c| [c[0], c[1]]).collect();
    let grad = |p: [f64; 6]| {
        let cs = [[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]];
        let mut d_cs = [[0.0; 2]; 3];
        let (value, ()) = kmeans_grad(&cs, &xs, &mut d_cs);
        (
            value,
            [
                d_cs[0][0], d_cs[0][1], d_cs[1][0], d_cs[1][1], d_cs[2][0], d_cs[2][1],
            ],
        )
    };
    // Away from ties between centroids (where the nearest one switches), the closed form: the
    // gradient of centroid k sums 2 (c_k - x) over the points nearest to it.
    let points = common::cube::<6>(24, 20, -1.5, 1.5);
    for &p in &points {
        let cs = [[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]];
        let mut closed = [0.0; 6];
        let mut total = 0.0;
        for x in &xs {
            let dist = |c: &[f64; 2]| (x[0] - c[0]).powi(2) + (x[1] - c[1]).powi(2);
            let k = (0..3)
                .min_by(|&a, &b| dist(&cs[a]).total_cmp(&dist(&cs[b])))
                .unwrap();
            total += dist(&cs[k]);
            closed[2 * k] += 2.0 * (cs[k][0] - x[0]);
            closed[2 * k + 1] += 2.0 * (cs[k][1] - x[1]);
        }
        let (value, g) = grad(p);
        assert!((value - total).abs() <= 1e-12 * total);
        for i in 0..6 {
            assert!(
                (g[i] - closed[i]).abs() <= 1e-12 * closed[i].abs().max(1.0),
                "{i}: {} {}",
                g[i],
                closed[i]
            );
        }
        // `f_adjoint`, each point and each centroid run again, agrees.
        let mut tape = KmeansTape::new();
        kmeans_forward(&cs, &xs, &mut tape);
        let mut d_cs = [[0.0; 2]; 3];
        kmeans_adjoint(&cs, &xs, &tape, 1.0, &mut d_cs);
        let flat: Vec<f64> = d_cs.iter().flatten().copied().collect();
        for i in 0..6 {
            assert!((flat[i] - closed[i]).abs() <= 1e-12 * closed[i].abs().max(1.0));
        }
    }
    GradCheck::new("kmeans").run(
        &points,
        |p| {
            let cs = [[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]];
            kmeans(&cs, &xs)
        },
        grad,
    );
}

#[differentiable]
fn soft(v: f64) -> f64 {
    (1.0 + v.exp()).ln()
}

/// Run-time loops with what else the language has: a call and a branch in the body, `continue`
/// and `break`, `.rev()` and `.step_by(k)` on a run-time range, a bound computed from `len()`,
/// and a run-time loop inside a loop of constant bound.
#[differentiable(wrt(p))]
fn assorted(p: &[f64; 3], xs: &[f64]) -> f64 {
    let mut total = 0.0;
    for (i, x) in xs.iter().enumerate() {
        if i % 3 == 2 {
            continue;
        }
        let y = if *x > 0.0 { p[0] * x } else { p[1] * x * x };
        total += soft(y);
    }
    let half = xs.len() / 2;
    for i in (0..half).rev() {
        total -= 0.1 * (p[2] * xs[i]).sin();
    }
    for i in (1..xs.len()).step_by(2) {
        total += p[0] * p[1] * xs[i];
    }
    for k in 0..2 {
        let w = p[k] * 0.5;
        let mut inner = 0.0;
        for x in xs.iter() {
            inner += (w * x).tanh();
        }
        total += inner * inner * 0.01;
    }
    let mut stop = 0.0;
    for x in xs.iter() {
        if *x > 1.2 {
            break;
        }
        stop += p[2] * x;
    }
    total + stop
}

#[test]
fn run_time_loops_with_calls_branches_and_exits() {
    for xs in [data(25, 40, -1.5, 1.5), vec![2.0, -1.0, 0.5], vec![]] {
        GradCheck::new("assorted").run(
            &common::cube::<3>(26, 20, -1.0, 1.0),
            |p| assorted(&p, &xs),
            |p| assorted_grad(&p, &xs),
        );
        // The adjoint, with each loop run again in the reverse sweep, agrees with `f_grad`.
        let p = [0.3, -0.8, 0.6];
        let (_, g) = assorted_grad(&p, &xs);
        let mut tape = AssortedTape::new();
        assorted_forward(&p, &xs, &mut tape);
        let mut a = [0.0; 3];
        assorted_adjoint(&p, &xs, &tape, 1.0, &mut a);
        for i in 0..3 {
            assert!((a[i] - g[i]).abs() <= 1e-12 * g[i].abs().max(1.0));
        }
    }
}

/// An f32 function of f32 slices.
#[differentiable(wrt(w, xs))]
fn weighted32(w: f32, xs: &[f32], ys: &[f32]) -> f32 {
    let mut s = 0.0;
    for (x, y) in xs.iter().zip(ys.iter()) {
        s += (w * x - y) * (w * x - y);
    }
    s
}

#[test]
fn f32_slices() {
    let xs: Vec<f32> = data(27, 30, -1.0, 1.0).iter().map(|&v| v as f32).collect();
    let ys: Vec<f32> = data(28, 30, -1.0, 1.0).iter().map(|&v| v as f32).collect();
    let mut d_xs = vec![0.0f32; 30];
    let (value, d_w) = weighted32_grad(0.7, &xs, &ys, &mut d_xs);
    let (mut v, mut dw) = (0.0f64, 0.0f64);
    for i in 0..30 {
        let r = 0.7 * f64::from(xs[i]) - f64::from(ys[i]);
        v += r * r;
        dw += 2.0 * r * f64::from(xs[i]);
        let dx = 2.0 * r * 0.7;
        assert!((f64::from(d_xs[i]) - dx).abs() <= 1e-5 * dx.abs().max(1.0));
    }
    assert!((f64::from(value) - v).abs() <= 1e-5 * v.max(1.0));
    assert!((f64::from(d_w) - dw).abs() <= 1e-5 * dw.abs().max(1.0));
}

/// Second order over a differentiated slice: `f(x, w) = Σ softplus(w x_i) + (Σ x_i)² / 2`.
#[differentiable(wrt(x, w), hvp)]
fn curved(x: &[f64], w: f64) -> f64 {
    let mut s = 0.0;
    let mut t = 0.0;
    for v in x.iter() {
        s += (1.0 + (w * v).exp()).ln();
        t += *v;
    }
    s + 0.5 * t * t
}

#[test]
fn hvp_over_a_differentiated_slice() {
    let x = data(29, 50, -1.5, 1.5);
    let v_x = data(30, 50, -1.0, 1.0);
    let (w, v_w) = (0.8, -0.4);
    let (mut g_x, mut hv_x) = (vec![1.0; 50], vec![2.0; 50]);
    let (value, g_w, hv_w) = curved_hvp(&x, w, &v_x, v_w, &mut g_x, &mut hv_x);
    // Closed forms, with σ the logistic function: ∂f/∂x_i = w σ(w x_i) + Σx, ∂f/∂w = Σ x_i σ;
    // ∂²f/∂x_i² = w² σ', ∂²f/∂x_i∂x_j += 1, ∂²f/∂x_i∂w = σ + w x_i σ', ∂²f/∂w² = Σ x_i² σ'.
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    let total: f64 = x.iter().sum();
    let v_total: f64 = v_x.iter().sum();
    let (mut h_w, mut f) = (0.0, 0.5 * total * total);
    for i in 0..50 {
        let (s, ds) = (sig(w * x[i]), sig(w * x[i]) * (1.0 - sig(w * x[i])));
        f += (1.0 + (w * x[i]).exp()).ln();
        let g = w * s + total;
        assert!((g_x[i] - g).abs() <= 1e-12 * g.abs().max(1.0));
        let hv = w * w * ds * v_x[i] + v_total + (s + w * x[i] * ds) * v_w;
        assert!(
            (hv_x[i] - hv).abs() <= 1e-12 * hv.abs().max(1.0),
            "{i}: {} {hv}",
            hv_x[i]
        );
        h_w += (s + w * x[i] * ds) * v_x[i] + x[i] * x[i] * ds * v_w;
    }
    assert!((value - f).abs() <= 1e-12 * f.abs());
    let g_w_closed: f64 = (0..50).map(|i| x[i] * sig(w * x[i])).sum();
    assert!((g_w - g_w_closed).abs() <= 1e-12 * g_w_closed.abs().max(1.0));
    assert!(
        (hv_w - h_w).abs() <= 1e-12 * h_w.abs().max(1.0),
        "{hv_w} {h_w}"
    );
}

#[test]
#[should_panic(expected = "curved_hvp: the direction `v_x` has 2 elements, but `x` has 3")]
fn an_hvp_direction_of_another_length_panics_with_a_message() {
    curved_hvp(
        &[1.0, 2.0, 3.0],
        0.5,
        &[0.0; 2],
        1.0,
        &mut [0.0; 3],
        &mut [0.0; 3],
    );
}

/// k-means with `d` known at run time too (flat slices), as GradBench's eval needs it: points of
/// independent iterations, centroids a sequential loop under the binomial schedule (whose
/// running minimum's tangent depends on the order), each distance an inner loop; `hvp` along
/// the all-ones vector is the (diagonal) Hessian's diagonal.
#[differentiable(wrt(c), hvp)]
fn kmeans_flat(c: &[f64], p: &[f64], d: usize) -> f64 {
    let k = c.len() / d;
    let n = p.len() / d;
    let mut total = 0.0;
    for i in 0..n {
        let mut best = f64::INFINITY;
        #[checkpoint(binomial(3))]
        for j in 0..k {
            let mut dist = 0.0;
            for t in 0..d {
                let e = c[j * d + t] - p[i * d + t];
                dist += e * e;
            }
            best = best.min(dist);
        }
        total += best;
    }
    total
}

#[test]
fn kmeans_with_run_time_dimensions_and_its_hessian_diagonal() {
    let (n, k, d) = (200, 7, 3);
    let p = data(31, n * d, 0.0, 1.0);
    let c: Vec<f64> = p[(n - k) * d..].to_vec();
    let mut g = vec![0.0; k * d];
    let (value, ()) = kmeans_flat_grad(&c, &p, d, &mut g);
    let (mut g_h, mut h) = (vec![0.0; k * d], vec![0.0; k * d]);
    let (value_h, (), ()) = kmeans_flat_hvp(&c, &p, d, &vec![1.0; k * d], &mut g_h, &mut h);
    // Closed forms: the gradient of centroid j sums 2 (c_j - p_i) over its points, the
    // Hessian's diagonal is 2 for each of them.
    let (mut total, mut closed_g, mut closed_h) = (0.0, vec![0.0; k * d], vec![0.0; k * d]);
    for i in 0..n {
        let dist = |j: usize| {
            (0..d)
                .map(|t| (c[j * d + t] - p[i * d + t]).powi(2))
                .sum::<f64>()
        };
        let j = (0..k).min_by(|&a, &b| dist(a).total_cmp(&dist(b))).unwrap();
        total += dist(j);
        for t in 0..d {
            closed_g[j * d + t] += 2.0 * (c[j * d + t] - p[i * d + t]);
            closed_h[j * d + t] += 2.0;
        }
    }
    assert!((value - total).abs() <= 1e-12 * total && value_h == value);
    for m in 0..k * d {
        assert!((g[m] - closed_g[m]).abs() <= 1e-12 * closed_g[m].abs().max(1.0));
        assert!((g_h[m] - closed_g[m]).abs() <= 1e-12 * closed_g[m].abs().max(1.0));
        assert!(
            (h[m] - closed_h[m]).abs() <= 1e-12 * closed_h[m],
            "{m}: {} {}",
            h[m],
            closed_h[m]
        );
    }
}

/// An RNN over each of `n` sequences of a run-time length, summed: the loop over the sequences
/// has independent iterations (run again one by one in the reverse sweep), the loop over the
/// steps carries the state (recorded into the `Vec`s of the outer loop's step tape, made once
/// and reused by every iteration).
#[differentiable(wrt(w, u))]
fn rnn_batch(w: f64, u: f64, xs: &[f64], n: usize) -> f64 {
    let len = xs.len() / n;
    let mut total = 0.0;
    for s in 0..n {
        let mut h = 0.0;
        for t in 0..len {
            h = (w * h + u * xs[s * len + t]).tanh();
        }
        total += h * h;
    }
    total
}

/// Least squares on a polynomial whose powers are a running product (`mul *= t`): a state the
/// inner loop carries inside a loop of independent iterations, GradBench's `llsq` as its C++
/// reference writes it.
#[differentiable(wrt(x))]
fn poly_fit(x: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    for i in 0..n {
        let t = -1.0 + (i as f64) * 2.0 / ((n - 1) as f64);
        let mut r = t.sin();
        let mut mul = 1.0;
        for j in 0..x.len() {
            r -= x[j] * mul;
            mul *= t;
        }
        sum += r * r;
    }
    sum / 2.0
}

#[test]
fn a_sequential_loop_inside_independent_iterations() {
    let xs = data(7, 3 * 40, -1.0, 1.0);
    let (w, u) = (0.7, -0.4);
    let (value, (d_w, d_u)) = rnn_batch_grad(w, u, &xs, 3);
    assert_eq!(value, rnn_batch(w, u, &xs, 3));
    let e = 1e-6;
    let fd_w = (rnn_batch(w + e, u, &xs, 3) - rnn_batch(w - e, u, &xs, 3)) / (2.0 * e);
    let fd_u = (rnn_batch(w, u + e, &xs, 3) - rnn_batch(w, u - e, &xs, 3)) / (2.0 * e);
    assert!(
        (d_w - fd_w).abs() < 1e-7 * fd_w.abs().max(1.0),
        "{d_w} {fd_w}"
    );
    assert!(
        (d_u - fd_u).abs() < 1e-7 * fd_u.abs().max(1.0),
        "{d_u} {fd_u}"
    );
    // `f_adjoint` (each outer iteration run again) gives what `f_grad` (run forward and swept
    // back at once) gives, on one kept tape, for two lengths in turn.
    let mut tape = RnnBatchTape::new();
    for n in [3, 2, 3] {
        let xs = &xs[..n * 40];
        rnn_batch_forward(w, u, xs, n, &mut tape);
        let (mut a_w, mut a_u) = (0.0, 0.0);
        rnn_batch_adjoint(w, u, xs, n, &tape, 1.0, &mut a_w, &mut a_u);
        let (_, (g_w, g_u)) = rnn_batch_grad(w, u, xs, n);
        assert!((a_w - g_w).abs() < 1e-13 && (a_u - g_u).abs() < 1e-13);
    }

    let x = data(8, 9, -0.5, 0.5);
    let mut d_x = vec![0.0; 9];
    let (value, ()) = poly_fit_grad(&x, 300, &mut d_x);
    assert_eq!(value, poly_fit(&x, 300));
    for j in 0..9 {
        let (mut p, mut m) = (x.clone(), x.clone());
        p[j] += 1e-6;
        m[j] -= 1e-6;
        let fd = (poly_fit(&p, 300) - poly_fit(&m, 300)) / 2e-6;
        assert!(
            (d_x[j] - fd).abs() < 1e-6 * fd.abs().max(1.0),
            "{j}: {} {fd}",
            d_x[j]
        );
    }
}

/// A const-generic callee that differentiates a slice of arrays (its slots in the contract name
/// the slice's type, `[[f64; D]]`, through a trait parameter), called in reverse and forward
/// mode by a caller that differentiates the slice too.
#[differentiable(wrt(x, rows), jvp)]
fn row_dot<const D: usize>(x: f64, rows: &[[f64; D]]) -> f64 {
    let mut s = 0.0;
    for i in 0..rows.len() {
        for j in 0..D {
            s += rows[i][j] * rows[i][j] * x;
        }
    }
    s
}

#[differentiable(wrt(x, rows), jvp)]
fn row_dot_caller(x: f64, rows: &[[f64; 2]]) -> f64 {
    row_dot(x, rows) * x
}

#[test]
fn a_const_generic_callee_differentiating_a_slice_of_arrays() {
    let rows = [[0.5, -1.0], [2.0, 0.25], [1.5, 1.0]];
    let x = 0.7;
    let q: f64 = rows.iter().flatten().map(|v| v * v).sum();
    // f = q x², ∂f/∂x = 2 q x, ∂f/∂rows[i][j] = 2 rows[i][j] x².
    let mut d_rows = [[0.0; 2]; 3];
    let (value, d_x) = row_dot_caller_grad(x, &rows, &mut d_rows);
    assert!((value - q * x * x).abs() <= 1e-12 * value.abs());
    assert!((d_x - 2.0 * q * x).abs() <= 1e-12 * d_x.abs());
    for i in 0..3 {
        for j in 0..2 {
            let want = 2.0 * rows[i][j] * x * x;
            assert!((d_rows[i][j] - want).abs() <= 1e-12 * want.abs().max(1.0));
        }
    }
    // Along t_x = 1 and t_rows = rows: 2 q x + 2 q x² (each row's part doubles).
    let (_, tangent) = row_dot_caller_jvp(x, &rows, 1.0, &rows);
    let want = 2.0 * q * x + 2.0 * q * x * x;
    assert!((tangent - want).abs() <= 1e-12 * want.abs());
}

/// Under `hvp`, a slice passed on as data to a callee that leaves it out (its tangent program
/// takes the slice itself for the tangent it ignores), and a differentiated slice passed to a
/// callee that differentiates it too.
#[differentiable(wrt(x), hvp)]
fn waves(x: f64, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in w.iter() {
        s += (v * x).sin();
    }
    s
}

#[differentiable(wrt(x), hvp)]
fn waves_caller(x: f64, w: &[f64]) -> f64 {
    waves(x, w) * x.cos()
}

#[differentiable(wrt(x, w), hvp)]
fn weighted_waves(x: f64, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in w.iter() {
        s += v * v * (v * x).sin();
    }
    s
}

#[differentiable(wrt(x, w), hvp)]
fn weighted_waves_caller(x: f64, w: &[f64]) -> f64 {
    weighted_waves(x, w) * x
}

#[test]
fn slices_passed_to_callees_under_hvp_against_differences_of_the_gradient() {
    let w = data(31, 5, -1.0, 1.0);
    let x = 0.6;
    // d²/dx² of waves_caller, against central differences of its gradient.
    let h = 1e-5;
    let (value, g, hv) = waves_caller_hvp(x, &w, 1.0);
    assert!((value - waves_caller(x, &w)).abs() <= 1e-12);
    let fd_g = (waves_caller(x + h, &w) - waves_caller(x - h, &w)) / (2.0 * h);
    assert!(
        (g - fd_g).abs() <= 1e-6 * fd_g.abs().max(1.0),
        "{g} against {fd_g}"
    );
    let fd_h = (waves_caller_grad(x + h, &w).1 - waves_caller_grad(x - h, &w).1) / (2.0 * h);
    assert!(
        (hv - fd_h).abs() <= 1e-6 * fd_h.abs().max(1.0),
        "{hv} against {fd_h}"
    );
    // H v along (v_x, v_w) for the caller differentiating the slice: differences of the
    // gradient along the same direction.
    let v_w = data(32, 5, -1.0, 1.0);
    let v_x = 0.3;
    let (mut g_w, mut hv_w) = (vec![0.0; 5], vec![0.0; 5]);
    let (_, g_x, hv_x) = weighted_waves_caller_hvp(x, &w, v_x, &v_w, &mut g_w, &mut hv_w);
    let grad_at = |s: f64| {
        let wp: Vec<f64> = (0..5).map(|i| w[i] + s * v_w[i]).collect();
        let mut d_w = vec![0.0; 5];
        let (_, d_x) = weighted_waves_caller_grad(x + s * v_x, &wp, &mut d_w);
        (d_x, d_w)
    };
    let ((gx_p, gw_p), (gx_m, gw_m)) = (grad_at(h), grad_at(-h));
    let g0 = grad_at(0.0);
    assert!((g_x - g0.0).abs() <= 1e-12 * g0.0.abs().max(1.0));
    let fd = (gx_p - gx_m) / (2.0 * h);
    assert!(
        (hv_x - fd).abs() <= 1e-6 * fd.abs().max(1.0),
        "{hv_x} against {fd}"
    );
    for i in 0..5 {
        assert!((g_w[i] - g0.1[i]).abs() <= 1e-12 * g0.1[i].abs().max(1.0));
        let fd = (gw_p[i] - gw_m[i]) / (2.0 * h);
        assert!(
            (hv_w[i] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
            "{} against {fd}",
            hv_w[i]
        );
    }
}

/// Two loops of independent iterations: the first reaches the value through `ln` (not fused),
/// the second linearly (fused into `f_grad`'s forward sweep though it is not the first; its
/// `sin` is not recorded then), reading a value the first one's result makes.
#[differentiable(wrt(x, w))]
fn two_loops(x: &[f64], w: f64) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += v * v;
    }
    let scale = (1.0 + s).ln() * w;
    let mut t = 0.0;
    for v in x.iter() {
        t += (scale * v).sin();
    }
    t * 0.5 + scale
}

#[test]
fn a_second_loop_fused_into_f_grad_against_central_differences() {
    let x = data(36, 9, -1.0, 1.0);
    let w = 0.7;
    let mut d_x = vec![0.0; 9];
    let (value, d_w) = two_loops_grad(&x, w, &mut d_x);
    assert!((value - two_loops(&x, w)).abs() <= 1e-12);
    let h = 1e-6;
    let fd_w = (two_loops(&x, w + h) - two_loops(&x, w - h)) / (2.0 * h);
    assert!(
        (d_w - fd_w).abs() <= 1e-6 * fd_w.abs().max(1.0),
        "{d_w} against {fd_w}"
    );
    // f_adjoint runs the second loop again (no fusion there): the same gradient.
    let mut tape = TwoLoopsTape::new();
    two_loops_forward(&x, w, &mut tape);
    let (mut a_x, mut a_w) = (vec![0.0; 9], 0.0);
    two_loops_adjoint(&x, w, &tape, 1.0, &mut a_x, &mut a_w);
    assert!((a_w - d_w).abs() <= 1e-12 * d_w.abs().max(1.0));
    for i in 0..9 {
        let (mut p, mut m) = (x.clone(), x.clone());
        p[i] += h;
        m[i] -= h;
        let fd = (two_loops(&p, w) - two_loops(&m, w)) / (2.0 * h);
        assert!(
            (d_x[i] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
            "{} against {fd}",
            d_x[i]
        );
        assert!((a_x[i] - d_x[i]).abs() <= 1e-12 * fd.abs().max(1.0));
    }
}

/// An array each of whose elements one statement defines before a loop that `f_grad` fuses
/// into its forward sweep (and `f_hvp` its tangent program's), read by element in that loop:
/// the reverse sweep recomputes such an array once, where its block begins, but the fused
/// iteration's reverse code runs inside the forward sweep, before that, and reads the forward's
/// own array. Found by genprog (seed 63, p085): "cannot find value `w_1`" in `f_grad`.
#[differentiable(hvp)]
fn shifted(p: &[f64; 2], xs: &[f64]) -> f64 {
    let mut w = [0.0; 2];
    for i in 0..2 {
        w[i] = 0.75 - p[i];
    }
    let mut acc = 0.0;
    for v in xs.iter() {
        acc += v / (w[1] * w[1] + 1.0) + w[0] * (v * w[1]).sin();
    }
    acc * 0.5
}

#[test]
fn an_array_recomputed_by_element_read_in_a_fused_loop() {
    let xs = data(37, 11, -1.0, 1.0);
    GradCheck::new("shifted").run(
        &common::cube::<2>(38, 20, -1.0, 1.0),
        |p| shifted(&p, &xs),
        |p| shifted_grad(&p, &xs),
    );
    let mut rng = SmallRng::seed_from_u64(39);
    for _ in 0..10 {
        let p: [f64; 2] = core::array::from_fn(|_| rng.gen_range(-1.0..1.0));
        let v: [f64; 2] = core::array::from_fn(|_| rng.gen_range(-1.0..1.0));
        let (value, g) = shifted_grad(&p, &xs);
        // f_adjoint runs the loop again (no fusion there): the same gradient.
        let mut tape = ShiftedTape::new();
        assert_eq!(shifted_forward(&p, &xs, &mut tape), value);
        let mut a = [0.0; 2];
        shifted_adjoint(&p, &xs, &tape, 1.0, &mut a);
        let (_, g_h, hv) = shifted_hvp(&p, &xs, &v);
        let h = 1e-5;
        let plus: [f64; 2] = core::array::from_fn(|i| p[i] + h * v[i]);
        let minus: [f64; 2] = core::array::from_fn(|i| p[i] - h * v[i]);
        let (g_p, g_m) = (shifted_grad(&plus, &xs).1, shifted_grad(&minus, &xs).1);
        for i in 0..2 {
            assert!((a[i] - g[i]).abs() <= 1e-12 * g[i].abs().max(1.0));
            assert!((g_h[i] - g[i]).abs() <= 1e-12 * g[i].abs().max(1.0));
            let fd = (g_p[i] - g_m[i]) / (2.0 * h);
            assert!(
                (hv[i] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                "{i}: {} {fd}",
                hv[i]
            );
        }
    }
}

/// Recorded loops over ranges of run-time bounds: inclusive (`0..=last`: one more iteration
/// than `last`), from a start other than 0, and over a signed bound that may be negative (no
/// iteration). Each calls `exp`, so each is recorded into the tape's `Vec`s sized to the range.
#[differentiable(wrt(x))]
fn ranges(x: &[f64], last: usize, from: usize, signed: i32) -> f64 {
    let mut s = 1.0;
    for i in 0..=last {
        s += (0.5 * x[i]).exp();
    }
    let mut t = 1.0;
    for i in from..x.len() {
        t += x[i].sin();
    }
    let mut u = 0.0;
    for j in 0..signed {
        u += (x[0] * j as f64).cos();
    }
    s.ln() * t.ln() + u
}

#[test]
fn recorded_loops_over_inclusive_offset_and_signed_ranges_against_central_differences() {
    let x = data(37, 6, -1.0, 1.0);
    for (last, from, signed) in [(5, 2, 3), (0, 5, -1), (3, 0, 0)] {
        let mut d_x = vec![0.0; 6];
        let (value, ()) = ranges_grad(&x, last, from, signed, &mut d_x);
        assert!((value - ranges(&x, last, from, signed)).abs() <= 1e-12 * value.abs().max(1.0));
        for i in 0..6 {
            let h = 1e-6;
            let (mut p, mut m) = (x.clone(), x.clone());
            p[i] += h;
            m[i] -= h;
            let fd = (ranges(&p, last, from, signed) - ranges(&m, last, from, signed)) / (2.0 * h);
            assert!(
                (d_x[i] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                "{} against {fd}",
                d_x[i]
            );
        }
    }
}

/// A running maximum from a finite start over a slice that may be empty or of one element: the
/// cotangent of the start when no iteration beats it (or none runs), the elements' otherwise.
#[differentiable(wrt(w, x))]
fn peak(w: f64, x: &[f64]) -> f64 {
    let mut m = w;
    for v in x.iter() {
        m = m.max(*v);
    }
    2.0 * m
}

#[test]
fn a_running_maximum_over_empty_and_short_slices() {
    for x in [vec![], vec![0.5], vec![1.5], vec![-1.0, 3.0, 0.0]] {
        let w = 1.0;
        let mut d_x = vec![0.0; x.len()];
        let (value, d_w) = peak_grad(w, &x, &mut d_x);
        assert_eq!(value, peak(w, &x));
        let top = x.iter().cloned().fold(w, f64::max);
        let from_w = top == w;
        assert_eq!(d_w, if from_w { 2.0 } else { 0.0 }, "{x:?}");
        for i in 0..x.len() {
            let want = if !from_w && x[i] == top { 2.0 } else { 0.0 };
            assert_eq!(d_x[i], want, "{x:?}");
        }
    }
}

#[differentiable]
fn squared(a: f64) -> f64 {
    a * a
}

/// Locals declared first and assigned later, by a call, an expression or an `if`, in a loop
/// of independent iterations where only an accumulator's update reads them: the iteration the
/// reverse sweep runs again leaves that update out, and must keep their declarations.
#[allow(unused_assignments)] // each local's first value is overwritten, as written
#[differentiable(wrt(w))]
fn assigned_later(w: f64, xs: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..xs.len() {
        let mut y = 0.0;
        y = squared(w * xs[i]);
        let mut z = 0.0;
        z = w * xs[i];
        let mut u = 0.0;
        if xs[i] > 0.0 {
            u = squared(z);
        } else {
            u = z.sin();
        }
        acc += y + z * z + u;
    }
    acc
}

#[test]
fn locals_assigned_after_their_declaration_in_a_loop_of_independent_iterations() {
    let xs = data(41, 9, -2.0, 2.0);
    for w in [0.7, -1.3] {
        let (value, d_w) = assigned_later_grad(w, &xs);
        // Closed forms: y = z² = (w x)², u = (w x)² where x > 0, else sin(w x).
        let (mut want, mut d_want) = (0.0, 0.0);
        for &x in &xs {
            let u = if x > 0.0 {
                (w * x).powi(2)
            } else {
                (w * x).sin()
            };
            let d_u = if x > 0.0 {
                2.0 * w * x * x
            } else {
                x * (w * x).cos()
            };
            want += 2.0 * (w * x).powi(2) + u;
            d_want += 4.0 * w * x * x + d_u;
        }
        assert!(
            (value - want).abs() < 1e-12 * want.abs().max(1.0),
            "{value} {want}"
        );
        assert!(
            (d_w - d_want).abs() < 1e-12 * d_want.abs().max(1.0),
            "{d_w} {d_want}"
        );
    }
}

/// Slices an innermost loop reaches at one index `base + i` in every iteration (the reverse
/// sweep borrows their rows once per loop), beside reads it must not borrow so: in a branch
/// only, where the row would run past the slice's end, or under `&&`; at two indices; over an
/// inclusive, a reversed and an empty range.
#[allow(clippy::needless_range_loop)] // indexed reads, as written
#[differentiable(wrt(w, v))]
fn rows(w: &[f64], v: &[f64], d: usize) -> f64 {
    let mut total = 0.0;
    for a in 0..d {
        for b in a + 1..d {
            total += w[a * d + b - a - 1] * v[b];
        }
        for b in (a..=d - 1).rev() {
            total += w[a * d + b] * w[a * d + b] * v[a];
        }
        for b in 0..2 * d {
            if b < d {
                total += v[b] * w[a * d + b];
            }
        }
        for b in 0..d {
            if b + 1 < d && v[b + 1] > -10.0 {
                total += v[b].sin();
            }
        }
        for b in 1..d {
            total += v[b] * v[b - 1] * w[b];
        }
    }
    total
}

#[test]
fn rows_of_slices_in_innermost_loops_against_central_differences() {
    let d = 4;
    let (w, v) = (data(51, d * d, -1.0, 1.0), data(52, d, -1.0, 1.0));
    let (mut d_w, mut d_v) = (vec![0.0; d * d], vec![0.0; d]);
    let (value, ()) = rows_grad(&w, &v, d, &mut d_w, &mut d_v);
    assert_eq!(value, rows(&w, &v, d));
    let h = 1e-6;
    for (which, grad) in [(0, &d_w), (1, &d_v)] {
        for j in 0..grad.len() {
            let at = |delta: f64| {
                let (mut w, mut v) = (w.clone(), v.clone());
                [&mut w, &mut v][which][j] += delta;
                rows(&w, &v, d)
            };
            let fd = (at(h) - at(-h)) / (2.0 * h);
            assert!(
                (grad[j] - fd).abs() < 1e-8 * (1.0 + fd.abs()),
                "{which} {j}: {} against {fd}",
                grad[j]
            );
        }
    }
}

/// Reads of a slice inside another read's index, on one branch of an `if` or on the right of
/// `&&`: every iteration computes the index, but only some read `idx`, and a row of `idx` over
/// the whole range would run past its end.
#[differentiable(wrt(z))]
fn gathered(z: &[f64], idx: &[usize]) -> f64 {
    let n = idx.len();
    let mut total = 0.0;
    for i in 0..n + 1 {
        total += z[if i + 1 < n { idx[i + 1] } else { 0 }] * z[i % 2];
    }
    for i in 0..n + 1 {
        total += z[if i + 1 < n && idx[i + 1] > 0 { 1 } else { 0 }] * 0.5;
    }
    total
}

#[test]
fn a_slice_read_in_a_branch_of_an_index_against_closed_forms() {
    let z = [0.5, -1.25, 2.0, 0.75];
    let idx = [3, 2, 0, 1];
    let mut d_z = [0.0; 4];
    let (value, ()) = gathered_grad(&z, &idx, &mut d_z);
    // The closed forms, by hand: first loop i = 0..=4 reads z[idx[i + 1]] (z[2], z[0], z[1]),
    // then z[0] twice, each times z[i % 2]; the second adds 0.5 z[1] where idx[i + 1] > 0 (i =
    // 0, 2) and 0.5 z[0] otherwise (i = 1, 3, 4).
    let (mut want, mut d_want) = (0.0, [0.0; 4]);
    for i in 0..5 {
        let j = if i + 1 < 4 { idx[i + 1] } else { 0 };
        want += z[j] * z[i % 2];
        d_want[j] += z[i % 2];
        d_want[i % 2] += z[j];
        let k = if i + 1 < 4 && idx[i + 1] > 0 { 1 } else { 0 };
        want += 0.5 * z[k];
        d_want[k] += 0.5;
    }
    assert!((value - want).abs() < 1e-12, "{value} {want}");
    for j in 0..4 {
        assert!(
            (d_z[j] - d_want[j]).abs() < 1e-12,
            "{j}: {} {}",
            d_z[j],
            d_want[j]
        );
    }
}
