//! `#[recompute] let`: the reverse sweep evaluates the definition again instead of reading a
//! recorded value. Same gradient, smaller tape.

#![allow(clippy::needless_range_loop)]

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
