//! `#[record(bf16)]` and `#[record(f32)]` on a `let`: the tape keeps the value in a narrower float
//! type and the reverse sweep reads it back widened. The value is unchanged; the gradient is the
//! one of the recorded value rounded, which these tests compute independently (bfloat16 with
//! the `half` crate, `f32` with `as`) and compare bit for bit.

#![allow(clippy::needless_range_loop)]

use half::bf16;
use stackgrad::differentiable;

fn round_bf16(x: f32) -> f32 {
    bf16::from_f32(x).to_f32()
}

/// `Σ h_i²` with `h = x w` recorded: `∂/∂x_i = (2 h_i) w`, `∂/∂w = Σ (2 h_i) x_i`.
#[differentiable]
fn squares(x: &[f32; 64], w: f32) -> f32 {
    #[record(bf16)]
    let h: [f32; 64] = scale(x, w);
    let mut s = 0.0;
    for i in 0..64 {
        s += h[i] * h[i];
    }
    s
}

#[differentiable]
fn scale(x: &[f32; 64], w: f32) -> [f32; 64] {
    let mut y = [0.0; 64];
    for i in 0..64 {
        y[i] = x[i] * w;
    }
    y
}

/// The inputs: ordinary values, ties of the bfloat16 rounding (both parities), values that
/// round up into the next binade and to infinity, subnormals and zeros of both signs.
fn awkward_inputs() -> [f32; 64] {
    let mut x: [f32; 64] = core::array::from_fn(|i| ((i as f32) * 0.731).sin() * 3.0);
    let special = [
        1.0 + 1.0 / 256.0,                // 1 + 2^-8: a tie, rounds to even (down)
        1.0 + 3.0 / 256.0,                // 1 + 3 2^-8: a tie, rounds to even (up)
        1.0 + 1.0 / 256.0 + f32::EPSILON, // just above a tie: up
        1.999_999_9,                      // up into the next binade, 2
        -1.999_999_9,
        f32::MAX, // up to infinity
        f32::MIN_POSITIVE,
        f32::MIN_POSITIVE / 3.0, // subnormal
        -f32::MIN_POSITIVE / 7.0,
        0.0,
        -0.0,
        3.389_531_4e38, // the largest finite bfloat16
    ];
    x[..special.len()].copy_from_slice(&special);
    x
}

#[test]
fn bf16_records_give_the_gradient_of_the_rounded_values() {
    let x = awkward_inputs();
    let w = 1.0;
    let (value, (d_x, d_w)) = squares_grad(&x, w);
    // The value is the primal's, bit for bit: only the tape is narrowed.
    assert_eq!(value.to_bits(), squares(&x, w).to_bits());
    for i in 0..64 {
        // Both cotangents accumulate from +0.0, as the adjoints do (so -0.0 becomes +0.0).
        let d_h = 0.0 + 2.0 * round_bf16(x[i] * w);
        let expected = 0.0 + d_h * w;
        assert_eq!(
            d_x[i].to_bits(),
            expected.to_bits(),
            "x[{i}] = {:e}: {:e} against {expected:e}",
            x[i],
            d_x[i],
        );
    }
    assert!(
        d_w.is_nan() || d_w.is_infinite(),
        "f32::MAX in x: the sum overflows"
    );
}

#[test]
fn bf16_records_of_nan_stay_nan() {
    let mut x = [0.5f32; 64];
    x[3] = f32::NAN;
    x[4] = -f32::NAN;
    let (_, (d_x, _)) = squares_grad(&x, 1.0);
    assert!(d_x[3].is_nan() && d_x[4].is_nan());
    assert_eq!(d_x[5], 2.0 * 0.5);
}

#[test]
fn bf16_halves_the_recorded_field() {
    let f32_field = core::mem::size_of::<[f32; 64]>();
    let field = SquaresTape::FIELDS
        .iter()
        .find(|(name, ..)| *name == "h")
        .expect("h is recorded");
    assert_eq!(field.2.replace(' ', ""), "[u16;64]");
    assert_eq!(field.3, f32_field / 2);
}

/// A GPT-like layer: a recorded array read by three callees' adjoints (through one widened
/// local), inside a loop whose iterations each record their own value.
#[differentiable]
fn layers(x: &[f32; 8], w: &[[f32; 8]; 3]) -> f32 {
    let mut y: [f32; 8] = *x;
    let mut s = 0.0;
    for l in 0..3 {
        #[record(bf16)]
        let h: [f32; 8] = scale8(&y, w[l][0]);
        let a = dot8(&h, &w[l]);
        let b = dot8(&h, &h);
        let c = dot8(&w[l], &h);
        s += a * b - c;
        y = scale8(&h, 0.5);
    }
    s
}

#[differentiable]
fn scale8(x: &[f32; 8], w: f32) -> [f32; 8] {
    let mut y = [0.0; 8];
    for i in 0..8 {
        y[i] = x[i] * w;
    }
    y
}

#[differentiable]
fn dot8(a: &[f32; 8], b: &[f32; 8]) -> f32 {
    let mut s = 0.0;
    for i in 0..8 {
        s += a[i] * b[i];
    }
    s
}

/// [`layers`] by hand: the forward pass keeps each layer's `h` rounded to bfloat16 (what the
/// tape keeps), the reverse pass reads those, as the generated adjoint does.
fn layers_grad_by_hand(x: &[f32; 8], w: &[[f32; 8]; 3]) -> ([f32; 8], [[f32; 8]; 3]) {
    let dot = |a: &[f32; 8], b: &[f32; 8]| (0..8).fold(0.0f32, |s, i| s + a[i] * b[i]);
    let mut ys = [*x; 4];
    // Each layer's `h`, and `a`, `b` computed from it in full precision in the forward pass.
    let mut hs = [[0.0f32; 8]; 3];
    let mut abs = [(0.0f32, 0.0f32); 3];
    for l in 0..3 {
        let h: [f32; 8] = core::array::from_fn(|i| ys[l][i] * w[l][0]);
        abs[l] = (dot(&h, &w[l]), dot(&h, &h));
        hs[l] = h.map(round_bf16);
        ys[l + 1] = core::array::from_fn(|i| h[i] * 0.5);
    }
    let (mut d_y, mut d_w) = ([0.0f32; 8], [[0.0f32; 8]; 3]);
    for l in (0..3).rev() {
        let h = &hs[l];
        let (a, b) = abs[l];
        // s += a b - c, then y = h / 2.
        let mut d_h: [f32; 8] = core::array::from_fn(|i| d_y[i] * 0.5);
        for i in 0..8 {
            d_h[i] += b * w[l][i] + a * 2.0 * h[i] - w[l][i];
            d_w[l][i] += b * h[i] - h[i];
        }
        d_w[l][0] += dot(&d_h, &ys[l]);
        d_y = core::array::from_fn(|i| d_h[i] * w[l][0]);
    }
    (d_y, d_w)
}

#[test]
fn a_recorded_array_read_by_several_adjoints_in_a_loop() {
    let x: [f32; 8] = core::array::from_fn(|i| ((i as f32) * 1.37).cos() + 0.1);
    let w: [[f32; 8]; 3] = core::array::from_fn(|l| {
        core::array::from_fn(|i| (((l * 8 + i) as f32) * 0.61).sin() + 0.3)
    });
    let (value, (d_x, d_w)) = layers_grad(&x, &w);
    assert_eq!(value.to_bits(), layers(&x, &w).to_bits());
    let (e_x, e_w) = layers_grad_by_hand(&x, &w);
    let close = |a: f32, b: f32| (a - b).abs() <= 1e-5 * b.abs().max(1.0);
    for i in 0..8 {
        assert!(
            close(d_x[i], e_x[i]),
            "d_x[{i}]: {} against {}",
            d_x[i],
            e_x[i]
        );
        for l in 0..3 {
            assert!(
                close(d_w[l][i], e_w[l][i]),
                "d_w[{l}][{i}]: {} against {}",
                d_w[l][i],
                e_w[l][i]
            );
        }
    }
    // And the rounding is seen: the same function recording in f32 differs.
    let (_, (d_x_f32, _)) = layers_f32_grad(&x, &w);
    assert!((0..8).any(|i| d_x_f32[i] != d_x[i]));
}

#[differentiable]
fn layers_f32(x: &[f32; 8], w: &[[f32; 8]; 3]) -> f32 {
    let mut y: [f32; 8] = *x;
    let mut s = 0.0;
    for l in 0..3 {
        let h: [f32; 8] = scale8(&y, w[l][0]);
        let a = dot8(&h, &w[l]);
        let b = dot8(&h, &h);
        let c = dot8(&w[l], &h);
        s += a * b - c;
        y = scale8(&h, 0.5);
    }
    s
}

/// `#[record(f32)]` on an f64 value, read element by element and whole, in a checkpointed loop
/// (whose reverse sweep runs each iteration again and records into its step tape).
#[differentiable]
fn cubes(x: &[f64; 6]) -> f64 {
    let mut s = 0.0;
    #[checkpoint]
    for i in 0..6 {
        #[record(f32)]
        let h: [f64; 2] = [x[i] * 1.1, x[i] * x[i]];
        #[record(f32)]
        let g = x[i].sin();
        s += h[0] * g + h[1].sin();
    }
    s
}

#[test]
fn f32_records_of_f64_values_in_a_checkpointed_loop() {
    let x: [f64; 6] = core::array::from_fn(|i| 0.3 + (i as f64) * 0.71);
    let (value, d_x) = cubes_grad(&x);
    assert_eq!(value.to_bits(), cubes(&x).to_bits());
    for i in 0..6 {
        let r = |v: f64| v as f32 as f64;
        let (h0, h1, g) = (r(x[i] * 1.1), r(x[i] * x[i]), r(x[i].sin()));
        // s += h0 g + sin h1: d_h0 = g, d_h1 = cos h1, d_g = h0, then through the definitions.
        let expected = g * 1.1 + 2.0 * h1.cos() * x[i] + h0 * x[i].cos();
        let err = (d_x[i] - expected).abs();
        assert!(
            err <= 1e-13 * expected.abs(),
            "d_x[{i}]: {} against {expected}",
            d_x[i]
        );
        // The gradient of the values not rounded differs around the 8th digit: the rounding is
        // seen.
        let exact = {
            let (h0, h1, g) = (x[i] * 1.1, x[i] * x[i], x[i].sin());
            g * 1.1 + 2.0 * h1.cos() * x[i] + h0 * x[i].cos()
        };
        assert!((d_x[i] - exact).abs() > 1e-12 * exact.abs());
    }
}

/// A narrowed `cos` is not read as the derivative of the `sin` of the same value (which reads
/// a `cos` the primal computed where it can): only the terms that read `c` see its rounding.
#[differentiable]
fn rounded_cos(t: f64) -> f64 {
    #[record(f32)]
    let c = t.cos();
    let s = t.sin();
    s * s + c
}

#[test]
fn a_narrowed_record_is_not_a_siblings_derivative() {
    for t in [0.3, 1.1, -2.4] {
        let (_, d) = rounded_cos_grad(t);
        // d/dt (sin² t + cos t): the `sin²` term in full precision, `cos`'s own derivative
        // `-sin t` reads nothing rounded either.
        let expected = 2.0 * t.sin() * t.cos() - t.sin();
        assert!(
            (d - expected).abs() <= 1e-14 * expected.abs().max(1.0),
            "{d} against {expected}"
        );
    }
}

/// `hvp` and `jvp` functions accept the attribute; their tangent programs record in full
/// precision, so `f_hvp` equals the same function's without the attribute.
#[differentiable(hvp)]
fn quartic(x: &[f64; 3]) -> f64 {
    #[record(f32)]
    let h: [f64; 3] = [x[0] * x[1], x[1] * x[2], x[2] * x[0]];
    h[0] * h[0] + h[1] * h[2]
}

#[differentiable(hvp)]
fn quartic_plain(x: &[f64; 3]) -> f64 {
    let h: [f64; 3] = [x[0] * x[1], x[1] * x[2], x[2] * x[0]];
    h[0] * h[0] + h[1] * h[2]
}

#[test]
fn hvp_and_jvp_of_a_function_with_records() {
    let x = [0.7, -1.3, 2.1];
    let v = [0.2, 0.5, -0.4];
    let (value, grad, hv) = quartic_hvp(&x, &v);
    let (value_p, grad_p, hv_p) = quartic_plain_hvp(&x, &v);
    assert_eq!(value, value_p);
    assert_eq!(grad, grad_p);
    assert_eq!(hv, hv_p);
    assert_eq!(quartic_jvp(&x, &v), quartic_plain_jvp(&x, &v));
    // Only the reverse sweep of f_grad reads the narrowed records.
    let (_, d_x) = quartic_grad(&x);
    for i in 0..3 {
        assert!((d_x[i] - grad_p[i]).abs() <= 1e-6 * grad_p[i].abs());
    }
}

/// `#[record(bf16)]` on an `f64` value: rounded to `f32`, then to bfloat16.
#[differentiable]
fn wide_squares(x: &[f64; 5]) -> f64 {
    #[record(bf16)]
    let h: [f64; 5] = [x[0] * 3.0, x[1] * 3.0, x[2] * 3.0, x[3] * 3.0, x[4] * 3.0];
    h[0] * h[0] + h[1] * h[1] + h[2] * h[2] + h[3] * h[3] + h[4] * h[4]
}

#[test]
fn bf16_records_of_f64_values() {
    let x = [0.1, -0.7, 1.0 + 1.0 / 256.0 / 3.0, 2.5e-3, -11.0];
    let (value, d_x) = wide_squares_grad(&x);
    assert_eq!(value.to_bits(), wide_squares(&x).to_bits());
    for i in 0..5 {
        let h = f64::from(round_bf16((x[i] * 3.0) as f32));
        let expected = 0.0 + (0.0 + 2.0 * h) * 3.0;
        assert_eq!(d_x[i].to_bits(), expected.to_bits(), "d_x[{i}]");
    }
}

/// A recorded array read whole inside a branch and after it, in a loop: the branch widens it
/// into its own local, the read after it into one of the loop body's.
#[differentiable]
fn branchy(x: &[f32; 8], c: f32) -> f32 {
    let mut s = 0.0;
    for l in 0..2 {
        #[record(bf16)]
        let h: [f32; 8] = scale8(x, c + l as f32);
        if c > 0.0 {
            s += dot8(&h, &h);
        }
        s += dot8(&h, x);
    }
    s
}

#[test]
fn a_recorded_array_read_in_a_branch_and_after_it() {
    let x: [f32; 8] = core::array::from_fn(|i| ((i as f32) * 0.77).sin() + 0.2);
    for c in [0.6f32, -0.45] {
        let (value, (d_x, d_c)) = branchy_grad(&x, c);
        assert_eq!(value.to_bits(), branchy(&x, c).to_bits());
        let (mut e_x, mut e_c) = ([0.0f32; 8], 0.0f32);
        for l in 0..2 {
            let w = c + l as f32;
            let h: [f32; 8] = core::array::from_fn(|i| round_bf16(x[i] * w));
            for i in 0..8 {
                // d_h = (2 h if c > 0) + x; then h = x w.
                let d_h = if c > 0.0 { 2.0 * h[i] } else { 0.0 } + x[i];
                e_x[i] += d_h * w + h[i];
                e_c += d_h * x[i];
            }
        }
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-5 * b.abs().max(1.0);
        for i in 0..8 {
            assert!(
                close(d_x[i], e_x[i]),
                "c = {c}, d_x[{i}]: {} against {}",
                d_x[i],
                e_x[i]
            );
        }
        assert!(close(d_c, e_c), "c = {c}, d_c: {d_c} against {e_c}");
    }
}

/// A value computed from a recorded one decides a branch: the branch the reverse sweep takes is
/// the forward sweep's (recorded), never one decided again from the rounded value.
#[differentiable]
fn branch_on_derived(x: f32, w: f32) -> f32 {
    #[record(bf16)]
    let h = w.sqrt();
    let t = h * 3.0;
    if t > 2.0 { (x * h).exp() } else { x - h }
}

#[test]
fn branches_on_values_derived_from_records_are_the_forward_sweeps() {
    // h = 0.6665: t = 1.9995 takes the `else` branch; bf16(h) = 0.66796875 would give t > 2.
    let w = 0.6665f32 * 0.6665;
    assert!(w.sqrt() * 3.0 <= 2.0 && round_bf16(w.sqrt()) * 3.0 > 2.0);
    let (value, (d_x, d_w)) = branch_on_derived_grad(1.25, w);
    assert_eq!(value, 1.25 - w.sqrt());
    assert_eq!(d_x, 1.0);
    // d(-sqrt w)/dw = -1 / (2 sqrt w), with sqrt w read back rounded.
    let expected = -0.5 / round_bf16(w.sqrt());
    assert!(
        (d_w - expected).abs() <= 1e-6 * expected.abs(),
        "{d_w} against {expected}"
    );
}

/// An index computed from a recorded value: the reverse sweep reads the index the forward sweep
/// computed, not one computed again from the rounded value.
#[differentiable]
fn pick(x: &[f64; 4], w: f64) -> f64 {
    #[record(f32)]
    let h = w * 1.0;
    let k = (h * 2.0) as usize % 4;
    x[k] * h
}

#[test]
fn indices_computed_from_records_are_the_forward_sweeps() {
    // Just below 1.5: the index is 2, and 3 from the value rounded to f32 (1.5).
    let w = 1.5 - 1e-9;
    assert_eq!(((w as f32 as f64) * 2.0) as usize, 3);
    let x = [0.5, -1.0, 2.0, 4.0];
    let (value, (d_x, d_w)) = pick_grad(&x, w);
    assert_eq!(value, 2.0 * w);
    assert_eq!(d_x, [0.0, 0.0, 1.5, 0.0]);
    assert_eq!(d_w, 2.0);
}

const TABLE: [f64; 2] = [1.17, 1.15];

/// A recorded value made from a `const` array alone, in a block, and read nowhere after: the
/// macro cannot see the array's element type, and `sin` makes it a float (genprog's seed 4242
/// found this failing to compile with "`#[record(..)]` applies to a float or an array of
/// floats").
#[differentiable]
fn unread_constant(x: f64) -> f64 {
    #[record(f32)]
    let _c = {
        let t = TABLE[1].sin();
        t * t
    };
    x * x
}

#[test]
fn a_recorded_constant_computed_in_a_block() {
    assert_eq!(unread_constant_grad(1.5), (2.25, 3.0));
}
