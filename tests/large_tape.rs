//! A tape larger than any thread's stack: 64 MiB, in a debug build. A tape's `new()` is a
//! `const fn`, so a large tape can live in a `static` (zero-initialised memory, never copied
//! through the stack); or, under `#[differentiable(heap)]`, its loops' records are `Vec`s, so
//! the tape itself is small and lives anywhere. Inputs and gradients are heap arrays.

#![allow(clippy::needless_range_loop)]

use std::sync::Mutex;

use stackgrad::differentiable;

const N: usize = 1 << 23;

/// One `tanh` per element: its result is recorded for the reverse sweep, 8 bytes x 2^23.
#[differentiable]
fn squash(x: &[f64; N], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += (w * x[i]).tanh();
    }
    s
}

static TAPE: Mutex<SquashTape> = Mutex::new(SquashTape::new());

/// The same function with its tape's loops on the heap.
#[differentiable(heap)]
fn squash_heap(x: &[f64; N], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += (w * x[i]).tanh();
    }
    s
}

/// A zeroed `[f64; N]` on the heap, built without a stack copy.
fn heap_array() -> Box<[f64; N]> {
    vec![0.0; N]
        .into_boxed_slice()
        .try_into()
        .expect("N elements")
}

#[test]
fn a_64_mib_tape_in_a_static() {
    const { assert!(SquashTape::BYTES >= 64 << 20) };
    let mut x = heap_array();
    for (i, v) in x.iter_mut().enumerate() {
        *v = ((i % 1000) as f64 / 500.0) - 1.0;
    }
    let w = 0.7;
    let mut tape = TAPE.lock().unwrap();
    let value = squash_forward(&x, w, &mut tape);
    let mut d_x = heap_array();
    let mut d_w = 0.0;
    squash_adjoint(&x, w, &tape, 1.0, &mut d_x, &mut d_w);
    // Closed forms: d/dx_i = w (1 - tanh^2), d/dw = sum x_i (1 - tanh^2).
    let mut want_w = 0.0;
    for i in 0..N {
        let t = (w * x[i]).tanh();
        want_w += x[i] * (1.0 - t * t);
        if i % 99_991 == 0 {
            assert!((d_x[i] - w * (1.0 - t * t)).abs() <= 1e-15, "d/dx[{i}]");
        }
    }
    assert_eq!(value, squash(&x, w));
    assert!(
        (d_w - want_w).abs() <= 1e-9 * want_w.abs(),
        "{d_w} vs {want_w}"
    );
}

#[test]
fn a_64_mib_tape_on_the_heap() {
    // The tape is a `Vec` header and a scalar: on the stack of a test thread.
    const { assert!(SquashHeapTape::BYTES <= 64) };
    let mut tape = SquashHeapTape::new();
    assert_eq!(tape.bytes(), SquashHeapTape::BYTES);
    let mut x = heap_array();
    for (i, v) in x.iter_mut().enumerate() {
        *v = ((i % 1000) as f64 / 500.0) - 1.0;
    }
    let w = 0.7;
    let value = squash_heap_forward(&x, w, &mut tape);
    assert!(tape.bytes() >= N * 8, "{}", tape.bytes());
    let mut d_x = heap_array();
    let mut d_w = 0.0;
    squash_heap_adjoint(&x, w, &tape, 1.0, &mut d_x, &mut d_w);
    // The same value and gradient as the fixed tape's, to the bit (the same operations).
    let mut fixed = TAPE.lock().unwrap();
    assert_eq!(value, squash_forward(&x, w, &mut fixed));
    let mut d_x_fixed = heap_array();
    let mut d_w_fixed = 0.0;
    squash_adjoint(&x, w, &fixed, 1.0, &mut d_x_fixed, &mut d_w_fixed);
    assert_eq!(d_w, d_w_fixed);
    assert!(d_x == d_x_fixed);
    // And against the closed form at a few points.
    for i in (0..N).step_by(99_991) {
        let t = (w * x[i]).tanh();
        assert!((d_x[i] - w * (1.0 - t * t)).abs() <= 1e-15, "d/dx[{i}]");
    }
}
