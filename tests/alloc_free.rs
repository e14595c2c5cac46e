//! The generated `f_forward`, `f_adjoint`, `f_grad`, `f_jvp` and `f_hvp` allocate nothing: a counting global
//! allocator sees zero allocations on the test's thread while they run (the harness allocates on
//! its own threads, which are not counted). Inputs and gradient buffers are built before counting.

#![allow(clippy::needless_range_loop)] // index loops are the construct under test

use std::hint::black_box;

use stackgrad::differentiable;

mod counting;
use counting::allocations_in;

/// The counter sees an allocation on this thread (so a zero below means something).
#[test]
fn the_counter_counts() {
    let count = allocations_in(|| {
        black_box(Box::new(black_box(1.0_f64)));
    });
    assert_eq!(count, 1);
}

const STEPS: usize = 50;
const HIDDEN: usize = 8;

#[differentiable(hvp)]
fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    s
}

/// A 50-step vector RNN: a tape of `[[f64; 8]; 50]` fields, a call to `dot` per step.
#[differentiable(hvp)]
fn rnn(x: &[f64; STEPS], w: &[[f64; HIDDEN]; HIDDEN], u: &[f64; HIDDEN]) -> f64 {
    let mut h = [0.0; HIDDEN];
    let mut s = 0.0;
    for t in 0..STEPS {
        let mut z = [0.0; HIDDEN];
        for i in 0..HIDDEN {
            z[i] = u[i] * x[t];
            for j in 0..HIDDEN {
                z[i] += w[i][j] * h[j];
            }
        }
        for i in 0..HIDDEN {
            h[i] = z[i].tanh();
        }
        s += dot::<HIDDEN>(&h, u) * x[t];
    }
    s
}

#[derive(Clone, Debug, Default)]
struct Layer {
    w: [[f64; 4]; 4],
    b: [f64; 4],
}

#[derive(Clone, Debug, Default)]
struct Net {
    layers: [Layer; 3],
    scale: f64,
}

/// Struct parameters, nested; a data-dependent early exit.
#[differentiable(hvp)]
fn net(p: &Net, x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    for k in 0..3 {
        let mut z = [0.0; 4];
        for i in 0..4 {
            z[i] = p.layers[k].b[i];
            for j in 0..4 {
                z[i] += p.layers[k].w[i][j] * h[j];
            }
        }
        for i in 0..4 {
            h[i] = z[i].tanh();
        }
        if h[0] > 0.99 {
            break;
        }
    }
    p.scale * (h[0] + h[1] * h[2] - h[3])
}

/// An array output: no `f_grad`, the seed is an array.
#[differentiable]
fn matvec(w: &[[f64; 16]; 16], x: &[f64; 16]) -> [f64; 16] {
    let mut y = [0.0; 16];
    for i in 0..16 {
        for j in 0..16 {
            y[i] += w[i][j] * x[j];
        }
        y[i] = y[i].tanh();
    }
    y
}

/// A mini-batch loss over a run-time number of rows in slices: one row's tape.
#[differentiable(hvp)]
fn batch(w: &[f64; 4], xs: &[[f64; 4]], ys: &[f64]) -> f64 {
    let mut loss = 0.0;
    for i in 0..xs.len() {
        let mut a = 0.0;
        for d in 0..4 {
            a += w[d] * xs[i][d];
        }
        let e = a.tanh() - ys[i];
        loss += e * e;
    }
    loss
}

/// A sequential loop over a run-time length: its steps go into `Vec` fields of the tape.
#[differentiable]
fn sequence(w: &[f64; 4], xs: &[[f64; 4]]) -> f64 {
    let mut h = 0.0;
    for t in 0..xs.len() {
        let mut a = 0.0;
        for d in 0..4 {
            a += w[d] * xs[t][d];
        }
        h = (h * 0.5 + a).tanh();
    }
    h
}

fn filled<const N: usize>(seed: f64) -> [f64; N] {
    core::array::from_fn(|i| ((i as f64 + 1.0) * seed).sin() * 0.5)
}

#[test]
fn dot_allocates_nothing() {
    let (a, b) = (filled::<1024>(0.3), filled::<1024>(0.7));
    let mut tape = DotTape::<1024>::new();
    let (mut d_a, mut d_b) = ([0.0; 1024], [0.0; 1024]);
    let count = allocations_in(|| {
        black_box(dot_forward(black_box(&a), black_box(&b), &mut tape));
        dot_adjoint(&a, &b, &tape, 1.0, &mut d_a, &mut d_b);
        black_box(dot_grad(black_box(&a), black_box(&b)));
        black_box(dot_jvp(black_box(&a), &b, &b, &a));
        black_box(dot_hvp(black_box(&a), &b, &b, &a));
    });
    assert_eq!(count, 0);
    assert_eq!(d_a, b, "the adjoint ran");
}

#[test]
fn rnn_with_calls_allocates_nothing() {
    let x = filled::<STEPS>(0.11);
    let w: [[f64; HIDDEN]; HIDDEN] = core::array::from_fn(|i| filled(0.2 + i as f64));
    let u = filled::<HIDDEN>(1.3);
    let mut tape = RnnTape::new();
    let (mut d_x, mut d_w, mut d_u) = ([0.0; STEPS], [[0.0; HIDDEN]; HIDDEN], [0.0; HIDDEN]);
    let count = allocations_in(|| {
        black_box(rnn_forward(black_box(&x), &w, &u, &mut tape));
        rnn_adjoint(&x, &w, &u, &tape, 1.0, &mut d_x, &mut d_w, &mut d_u);
        black_box(rnn_grad(black_box(&x), &w, &u));
        black_box(rnn_jvp(black_box(&x), &w, &u, &x, &w, &u));
        black_box(rnn_hvp(black_box(&x), &w, &u, &x, &w, &u));
    });
    assert_eq!(count, 0);
    assert!(d_u.iter().any(|&g| g != 0.0), "the adjoint ran");
}

#[test]
fn struct_parameters_allocate_nothing() {
    let mut p = Net {
        scale: 1.5,
        ..Net::default()
    };
    for (k, layer) in p.layers.iter_mut().enumerate() {
        layer.w = core::array::from_fn(|i| filled(0.3 + (4 * k + i) as f64));
        layer.b = filled(2.1 + k as f64);
    }
    let x = filled::<4>(0.9);
    let mut tape = NetTape::new();
    let (mut d_p, mut d_x) = (Net::default(), [0.0; 4]);
    let count = allocations_in(|| {
        black_box(net_forward(black_box(&p), &x, &mut tape));
        net_adjoint(&p, &x, &tape, 1.0, &mut d_p, &mut d_x);
        black_box(net_grad(black_box(&p), &x));
        black_box(net_jvp(black_box(&p), &x, &p, &x));
        black_box(net_hvp(black_box(&p), &x, &p, &x));
    });
    assert_eq!(count, 0);
    assert!(d_p.scale != 0.0, "the adjoint ran");
}

#[test]
fn array_output_allocates_nothing() {
    let w: [[f64; 16]; 16] = core::array::from_fn(|i| filled(0.1 * (i as f64 + 1.0)));
    let x = filled::<16>(0.5);
    let d_out = filled::<16>(1.7);
    let mut tape = MatvecTape::new();
    let (mut d_w, mut d_x) = ([[0.0; 16]; 16], [0.0; 16]);
    let count = allocations_in(|| {
        black_box(matvec_forward(black_box(&w), &x, &mut tape));
        matvec_adjoint(&w, &x, &tape, &d_out, &mut d_w, &mut d_x);
    });
    assert_eq!(count, 0);
    assert!(d_x.iter().any(|&g| g != 0.0), "the adjoint ran");
}

#[test]
fn a_run_time_number_of_rows_allocates_nothing() {
    let w = filled::<4>(0.4);
    let xs: Vec<[f64; 4]> = (0..300).map(|i| filled(0.01 * i as f64 + 0.1)).collect();
    let ys: Vec<f64> = (0..300).map(|i| (i as f64 * 0.2).sin()).collect();
    let mut tape = BatchTape::new();
    let mut d_w = [0.0; 4];
    // The first call: nothing to set up either, the tapes are fixed-size.
    let count = allocations_in(|| {
        black_box(batch_forward(black_box(&w), &xs, &ys, &mut tape));
        batch_adjoint(&w, &xs, &ys, &tape, 1.0, &mut d_w);
        for _ in 0..3 {
            black_box(batch_grad(black_box(&w), &xs, &ys));
        }
        black_box(batch_jvp(black_box(&w), &xs, &ys, &w));
        black_box(batch_hvp(black_box(&w), &xs, &ys, &w));
    });
    assert_eq!(count, 0);
    assert!(d_w.iter().any(|&g| g != 0.0), "the adjoint ran");
}

#[test]
fn a_taped_run_time_loop_allocates_on_the_first_call_only() {
    let w = filled::<4>(0.3);
    let xs: Vec<[f64; 4]> = (0..200).map(|i| filled(0.02 * i as f64 + 0.1)).collect();
    let mut tape = SequenceTape::new();
    let mut d_w = [0.0; 4];
    // The first call sizes the tape's `Vec`s.
    let first = allocations_in(|| {
        black_box(sequence_forward(black_box(&w), &xs, &mut tape));
    });
    assert!(first > 0, "the first call allocates the steps");
    // Later calls of the same or a smaller length reuse them.
    let count = allocations_in(|| {
        for n in [200, 50, 200] {
            black_box(sequence_forward(black_box(&w), &xs[..n], &mut tape));
            sequence_adjoint(&w, &xs[..n], &tape, 1.0, &mut d_w);
        }
    });
    assert_eq!(count, 0);
    assert!(d_w.iter().any(|&g| g != 0.0), "the adjoint ran");
}
