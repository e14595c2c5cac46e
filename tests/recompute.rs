//! `#[recompute] let`: the reverse sweep evaluates the definition again instead of reading a
//! recorded value. Same gradient, smaller tape.

#![allow(clippy::needless_range_loop)]

use std::cell::Cell;

use stackgrad::differentiable;

#[differentiable]
fn layer(x: &[f64; 16], w: &[f64; 16]) -> f64 {
    let mut s = 0.0;
    for i in 0..16 {
        let a = (w[i] * x[i]).tanh();
        let b = a * a + x[i];
        s += b * a;
    }
    s
}

#[differentiable]
fn layer_recomputed(x: &[f64; 16], w: &[f64; 16]) -> f64 {
    let mut s = 0.0;
    for i in 0..16 {
        #[recompute]
        let a = (w[i] * x[i]).tanh();
        #[recompute]
        let b = a * a + x[i];
        s += b * a;
    }
    s
}

/// A recomputed call: the primal is called again in the reverse sweep.
#[differentiable]
fn square_all(x: &[f64; 4]) -> [f64; 4] {
    let mut y = [0.0; 4];
    for i in 0..4 {
        y[i] = x[i] * x[i];
    }
    y
}

#[differentiable]
fn calls(x: &[f64; 4]) -> f64 {
    let y: [f64; 4] = square_all(x);
    let z: [f64; 4] = square_all(&y);
    z[0] + z[1] * z[2] - z[3]
}

#[differentiable]
fn calls_recomputed(x: &[f64; 4]) -> f64 {
    #[recompute]
    let y: [f64; 4] = square_all(x);
    let z: [f64; 4] = square_all(&y);
    z[0] + z[1] * z[2] - z[3]
}

#[test]
fn recomputed_values_give_the_same_gradient_with_a_smaller_tape() {
    let x: [f64; 16] = core::array::from_fn(|i| (i as f64 * 0.7).sin());
    let w: [f64; 16] = core::array::from_fn(|i| (i as f64 * 1.3).cos());
    assert_eq!(layer_grad(&x, &w), layer_recomputed_grad(&x, &w));
    // Checked when this test compiles: the recomputed values are not recorded.
    const { assert!(LayerRecomputedTape::BYTES < LayerTape::BYTES) };
}

#[test]
fn a_recomputed_call_gives_the_same_gradient() {
    let x = [0.5, -1.5, 2.0, 0.25];
    assert_eq!(calls_grad(&x), calls_recomputed_grad(&x));
    const { assert!(CallsRecomputedTape::BYTES < CallsTape::BYTES) };
    // Against the closed form: z = x^4, d/dx z0 + z1 z2 - z3.
    let (_, g) = calls_recomputed_grad(&x);
    let want = [
        4.0 * x[0].powi(3),
        4.0 * x[1].powi(3) * x[2].powi(4),
        4.0 * x[2].powi(3) * x[1].powi(4),
        -4.0 * x[3].powi(3),
    ];
    for i in 0..4 {
        assert!(
            (g[i] - want[i]).abs() <= 1e-12 * want[i].abs().max(1.0),
            "{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
}

#[differentiable]
fn widened(x: f32, y: f32) -> f32 {
    #[recompute]
    let w = (x as f64 * 2.0).exp();
    (w as f32) * y
}

#[test]
fn a_recomputed_cast_keeps_its_type() {
    let (v, (dx, dy)) = widened_grad(0.25, 3.0);
    let w = (0.5f64).exp() as f32;
    assert_eq!(v, w * 3.0);
    assert!((dx - 2.0 * w * 3.0).abs() <= 1e-5, "{dx}");
    assert_eq!(dy, w);
}

thread_local! {
    /// Calls of [`doubled`], the primal, which the reverse sweep of a `#[recompute]` `let`
    /// calls; per thread, since the tests that count them run in parallel (a shared counter
    /// was reset by one test between another's calls and its check).
    static DOUBLED_CALLS: Cell<usize> = const { Cell::new(0) };
}

/// `2 x`, written by hand (the four items of a callee), counting its primal's calls.
#[differentiable(custom)]
pub fn doubled(x: &[f64; 4]) -> [f64; 4] {
    DOUBLED_CALLS.set(DOUBLED_CALLS.get() + 1);
    x.map(|x| 2.0 * x)
}

#[derive(Clone, Debug, Default)]
pub struct DoubledTape {}

impl DoubledTape {
    pub const BYTES: usize = 0;
    pub const fn new() -> Self {
        DoubledTape {}
    }
}

pub fn doubled_forward(x: &[f64; 4], _tape: &mut DoubledTape) -> [f64; 4] {
    x.map(|x| 2.0 * x)
}

pub fn doubled_forward_into(x: &[f64; 4], _tape: &mut DoubledTape, out: &mut [f64; 4]) {
    *out = x.map(|x| 2.0 * x);
}

pub fn doubled_adjoint(_x: &[f64; 4], _tape: &DoubledTape, d_out: &[f64; 4], d_x: &mut [f64; 4]) {
    for i in 0..4 {
        d_x[i] += 2.0 * d_out[i];
    }
}

#[differentiable]
fn dot4(a: &[f64; 4], b: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s += a[i] * b[i];
    }
    s
}

/// A recomputed array with three readers (the last reads it twice), as the GPT's first layer
/// norm has its three linear layers.
#[differentiable]
fn three_readers(x: &[f64; 4], w: &[f64; 4]) -> f64 {
    #[recompute]
    let h: [f64; 4] = doubled(x);
    let a = dot4(&h, w);
    let b = dot4(&h, x);
    let c = dot4(&h, &h);
    a * b + c
}

#[test]
fn an_array_read_whole_is_computed_again_once_per_scope() {
    let (x, w) = ([0.5, -1.5, 2.0, 0.25], [1.0, 0.3, -0.7, 2.5]);
    DOUBLED_CALLS.set(0);
    let (value, (d_x, d_w)) = three_readers_grad(&x, &w);
    // The forward sweep calls `doubled_forward`; the reverse sweep calls the primal once for
    // all four reads.
    assert_eq!(DOUBLED_CALLS.get(), 1);
    // f = 4 (x . w)(x . x) + 4 x . x.
    let dot = |a: &[f64; 4], b: &[f64; 4]| -> f64 { (0..4).map(|i| a[i] * b[i]).sum() };
    let (xw, xx) = (dot(&x, &w), dot(&x, &x));
    assert!((value - (4.0 * xw * xx + 4.0 * xx)).abs() <= 1e-12);
    for i in 0..4 {
        let want_x = 4.0 * w[i] * xx + 8.0 * x[i] * xw + 8.0 * x[i];
        let want_w = 4.0 * x[i] * xx;
        assert!(
            (d_x[i] - want_x).abs() <= 1e-12 * want_x.abs().max(1.0),
            "d_x[{i}]"
        );
        assert!(
            (d_w[i] - want_w).abs() <= 1e-12 * want_w.abs().max(1.0),
            "d_w[{i}]"
        );
    }
}

/// Element reads of a recomputed array, in straight code and in a loop.
#[differentiable]
fn element_readers(x: &[f64; 4], w: f64) -> f64 {
    #[recompute]
    let h: [f64; 4] = doubled(x);
    let mut s = h[0] * h[1] * w + h[2] * h[3] + h[1] * w;
    for i in 0..3 {
        s += h[i] * h[i + 1];
    }
    s
}

#[test]
fn an_array_read_by_element_is_computed_again_once_per_scope() {
    let (x, w) = ([0.5, -1.5, 2.0, 0.25], 0.75);
    DOUBLED_CALLS.set(0);
    let (value, (d_x, d_w)) = element_readers_grad(&x, w);
    // Once for the straight code's five reads, once per iteration for the loop's two: each read
    // computing the array again called `doubled` 5 + 2 x 3 = 11 times.
    assert_eq!(DOUBLED_CALLS.get(), 4);
    // h = 2 x: f = 4 x0 x1 w + 4 x2 x3 + 2 x1 w + 4 (x0 x1 + x1 x2 + x2 x3).
    let [x0, x1, x2, x3] = x;
    let want =
        4.0 * x0 * x1 * w + 4.0 * x2 * x3 + 2.0 * x1 * w + 4.0 * (x0 * x1 + x1 * x2 + x2 * x3);
    assert!((value - want).abs() <= 1e-12);
    let want_x = [
        4.0 * x1 * w + 4.0 * x1,
        4.0 * x0 * w + 2.0 * w + 4.0 * (x0 + x2),
        4.0 * x3 + 4.0 * (x1 + x3),
        4.0 * x2 + 4.0 * x2,
    ];
    for i in 0..4 {
        assert!(
            (d_x[i] - want_x[i]).abs() <= 1e-12,
            "d_x[{i}]: {} {}",
            d_x[i],
            want_x[i]
        );
    }
    assert!((d_w - (4.0 * x0 * x1 + 2.0 * x1)).abs() <= 1e-12, "{d_w}");
}

#[derive(Clone, Copy, Debug, Default)]
pub struct P32 {
    pub a: f32,
    pub b: f32,
}

#[differentiable]
fn combine(v: &[f32; 2], a: f32, b: f64) -> f64 {
    (v[0] * a) as f64 * b + v[1] as f64
}

/// A recomputed array whose float type the macro leaves to rustc (struct fields, in a function
/// that mixes `f32` and `f64`): its local is declared with the type inferred.
#[differentiable]
fn mixed(p: &P32, y: f32, x: f64) -> f64 {
    #[recompute]
    let h = [p.a * 2.0, p.b * 2.0];
    combine(&h, y, x)
}

#[test]
fn a_recomputed_array_of_an_inferred_float_type() {
    let (p, y, x) = (P32 { a: 0.75, b: -1.25 }, 1.5f32, -0.5);
    let (value, (d_p, d_y, d_x)) = mixed_grad(&p, y, x);
    // f = (2 a y) x + 2 b, every product exact in f32.
    assert_eq!(value, 2.0 * 0.75 * 1.5 * -0.5 + 2.0 * -1.25);
    assert_eq!((d_p.a, d_p.b), (2.0 * 1.5 * -0.5, 2.0));
    assert_eq!((d_y, d_x), (2.0 * 0.75 * -0.5, 2.0 * 0.75 * 1.5));
}

/// A recomputed array under a raw identifier.
#[differentiable]
fn raw_name(x: &[f64; 4], w: &[f64; 4]) -> f64 {
    #[recompute]
    let r#ref: [f64; 4] = square_all(x);
    dot4(&r#ref, w) + dot4(&r#ref, x)
}

#[test]
fn a_recomputed_array_under_a_raw_identifier() {
    let (x, w) = ([0.5, -1.5, 2.0, 0.25], [1.0, 0.3, -0.7, 2.5]);
    let (_, (d_x, d_w)) = raw_name_grad(&x, &w);
    // f = Σ x² w + Σ x³.
    for i in 0..4 {
        let want_x = 2.0 * x[i] * w[i] + 3.0 * x[i] * x[i];
        assert!((d_x[i] - want_x).abs() <= 1e-12, "d_x[{i}]");
        assert_eq!(d_w[i], x[i] * x[i]);
    }
}

/// The index of the largest element (a plain function, not differentiated).
fn argmax4(v: &[f64; 4]) -> usize {
    (1..4).fold(0, |best, i| if v[i] > v[best] { i } else { best })
}

/// A recomputed array read only where the returned value's place is indexed: the reverse sweep
/// computes it for the index of the return value's cotangent.
#[differentiable]
fn pick(x: &[f64; 4]) -> f64 {
    #[recompute]
    let h: [f64; 4] = square_all(x);
    x[argmax4(&h)]
}

#[test]
fn a_recomputed_array_read_by_the_returned_place() {
    let x = [0.5, -1.5, 2.0, 0.25];
    let (value, d_x) = pick_grad(&x);
    assert_eq!(value, 2.0);
    assert_eq!(d_x, [0.0, 0.0, 1.0, 0.0]);
}
