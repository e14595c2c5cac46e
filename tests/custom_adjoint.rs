//! A function whose adjoint is written by hand: the four items the macro would generate,
//! supplied directly, then called from `#[differentiable]` code like any other callee;
//! `#[differentiable(custom)]` on the primal adds the callee contract callers name it through.
//!
//! Here the primal is an approximation of `erf` (Abramowitz and Stegun 7.1.26, error below
//! 1.5e-7); differentiating the approximation would give its derivative, not erf's. The
//! hand-written adjoint uses the exact derivative `2 / sqrt(pi) * exp(-x^2)` instead.

use core::f64::consts::{PI, SQRT_2};

use stackgrad::differentiable;

/// `erf(x)`, the primal. `custom, jvp`: its `erf_jvp` is written by hand too.
#[differentiable(custom, jvp)]
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// What `erf_adjoint` reads besides `x`: nothing. A tape must still exist, with a `const fn
/// new()` (callers' tapes are built in `const` context), `Clone` and `Debug`.
#[derive(Clone, Debug, Default)]
pub struct ErfTape {}

impl ErfTape {
    pub const BYTES: usize = core::mem::size_of::<Self>();

    pub const fn new() -> Self {
        ErfTape {}
    }
}

/// The forward sweep: the value, recording what the adjoint needs.
pub fn erf_forward(x: f64, _tape: &mut ErfTape) -> f64 {
    erf(x)
}

/// The reverse sweep: ADDS `d_out * erf'(x)` into `d_x` (adjoints accumulate).
pub fn erf_adjoint(x: f64, _tape: &ErfTape, d_out: f64, d_x: &mut f64) {
    *d_x += d_out * 2.0 / PI.sqrt() * (-x * x).exp();
}

/// An optional item, for callers in forward mode (`#[differentiable(jvp)]`): the value
/// and the tangent `erf'(x) * t_x`.
pub fn erf_jvp(x: f64, t_x: f64) -> (f64, f64) {
    (erf(x), t_x * 2.0 / PI.sqrt() * (-x * x).exp())
}

/// The normal distribution's CDF, calling the hand-written `erf`.
#[differentiable(jvp)]
fn normal_cdf(x: f64, mu: f64, sigma: f64) -> f64 {
    0.5 * (1.0 + erf((x - mu) / (sigma * SQRT_2)))
}

/// The normal density: the exact derivative of the CDF with respect to `x`.
fn normal_pdf(x: f64, mu: f64, sigma: f64) -> f64 {
    let z = (x - mu) / sigma;
    (-0.5 * z * z).exp() / (sigma * (2.0 * PI).sqrt())
}

#[test]
fn the_hand_written_adjoint_gives_the_exact_gradient() {
    for (x, mu, sigma) in [
        (0.3, 0.0, 1.0),
        (-1.2, 0.5, 2.0),
        (2.5, 1.0, 0.7),
        (0.0, -0.4, 1.3),
    ] {
        let (value, (d_x, d_mu, d_sigma)) = normal_cdf_grad(x, mu, sigma);
        assert_eq!(value, normal_cdf(x, mu, sigma));
        let p = normal_pdf(x, mu, sigma);
        // dF/dx = p, dF/dmu = -p, dF/dsigma = -p (x - mu) / sigma: exact to rounding.
        assert!((d_x - p).abs() <= 1e-15, "d/dx at {x}: {d_x} vs {p}");
        assert!((d_mu + p).abs() <= 1e-15, "d/dmu at {x}: {d_mu} vs {}", -p);
        let want = -p * (x - mu) / sigma;
        assert!(
            (d_sigma - want).abs() <= 1e-15,
            "d/dsigma at {x}: {d_sigma} vs {want}"
        );
    }
}

#[test]
fn the_hand_written_tangent_gives_the_exact_directional_derivative() {
    for (x, mu, sigma, t) in [
        (0.3, 0.0, 1.0, [1.0, 0.5, -0.25]),
        (-1.2, 0.5, 2.0, [-0.3, 2.0, 1.0]),
    ] {
        let (value, tangent) = normal_cdf_jvp(x, mu, sigma, t[0], t[1], t[2]);
        assert_eq!(value, normal_cdf(x, mu, sigma));
        let p = normal_pdf(x, mu, sigma);
        let want = p * t[0] - p * t[1] - p * (x - mu) / sigma * t[2];
        assert!(
            (tangent - want).abs() <= 1e-15,
            "at {x}: {tangent} vs {want}"
        );
    }
}

#[test]
fn the_callee_tape_is_part_of_the_callers() {
    // The caller keeps an `ErfTape` (zero bytes here) inside its own tape.
    assert_eq!(ErfTape::BYTES, 0);
    assert!(
        NormalCdfTape::FIELDS.iter().any(|f| f.2 == "ErfTape"),
        "{:?}",
        NormalCdfTape::FIELDS
    );
}

/// A hand-written callee with an array output: the rotation of a point by `angle`, and a tape
/// that counts how the caller's forward sweep called it. `custom` adds its callee contract
/// (`RotateCall` and `rotate_adjoint_call`), through which a caller that passes an array without
/// naming constants (`rotate(p, a)`) names the tape and calls the adjoint.
#[differentiable(custom)]
pub fn rotate(p: &[f64; 2], angle: f64) -> [f64; 2] {
    let (s, c) = angle.sin_cos();
    [c * p[0] - s * p[1], s * p[0] + c * p[1]]
}

#[derive(Clone, Debug, Default)]
pub struct RotateTape {
    /// Calls of `rotate_forward` and of `rotate_forward_into`.
    pub calls: [u32; 2],
}

impl RotateTape {
    pub const BYTES: usize = core::mem::size_of::<Self>();
    pub const fn new() -> Self {
        RotateTape { calls: [0; 2] }
    }
}

pub fn rotate_forward(p: &[f64; 2], angle: f64, tape: &mut RotateTape) -> [f64; 2] {
    tape.calls[0] += 1;
    rotate(p, angle)
}

/// Writes what `rotate_forward` returns into `out`: a caller whose tape keeps the value calls
/// this with the value's place in its tape.
pub fn rotate_forward_into(p: &[f64; 2], angle: f64, tape: &mut RotateTape, out: &mut [f64; 2]) {
    tape.calls[1] += 1;
    *out = rotate(p, angle);
}

pub fn rotate_adjoint(
    p: &[f64; 2],
    angle: f64,
    _tape: &RotateTape,
    d_out: &[f64; 2],
    d_p: &mut [f64; 2],
    d_angle: &mut f64,
) {
    let (s, c) = angle.sin_cos();
    d_p[0] += c * d_out[0] + s * d_out[1];
    d_p[1] += -s * d_out[0] + c * d_out[1];
    let r = rotate(p, angle);
    *d_angle += -r[1] * d_out[0] + r[0] * d_out[1];
}

/// `q = rotate(p, a)`, kept (the product reads it), then `q[0] q[1]` scaled by `a`.
#[differentiable]
fn rotated_product(p: &[f64; 2], a: f64) -> f64 {
    let q: [f64; 2] = rotate(p, a);
    a * q[0] * q[1]
}

#[test]
fn an_array_callee_writes_its_kept_value_into_the_callers_tape() {
    let (p, a) = ([0.7, -1.3], 0.4);
    let mut tape = RotatedProductTape::new();
    let value = rotated_product_forward(&p, a, &mut tape);
    assert_eq!(value, rotated_product(&p, a));
    assert_eq!(
        tape.rotate.calls,
        [0, 1],
        "the forward sweep calls rotate_forward_into"
    );

    // Closed form: with r = |p|², θ0 the angle of p, q0 q1 = r sin(2(θ0 + a)) / 2, so
    // f = a r sin(2φ) / 2 with φ = θ0 + a; ∂f/∂a = r sin(2φ) / 2 + a r cos(2φ);
    // ∂f/∂p = a (q1 ∂q0/∂p + q0 ∂q1/∂p) = a Rᵀ [q1, q0].
    let q = rotate(&p, a);
    let (s, c) = a.sin_cos();
    let want_p = [a * (c * q[1] + s * q[0]), a * (-s * q[1] + c * q[0])];
    let r = p[0] * p[0] + p[1] * p[1];
    let phi = p[1].atan2(p[0]) + a;
    let want_a = r * (2.0 * phi).sin() / 2.0 + a * r * (2.0 * phi).cos();
    let (mut d_p, mut d_a) = ([0.0; 2], 0.0);
    rotated_product_adjoint(&p, a, &tape, 1.0, &mut d_p, &mut d_a);
    for (got, want) in d_p.iter().chain([&d_a]).zip(want_p.iter().chain([&want_a])) {
        assert!((got - want).abs() < 1e-12, "{got} against {want}");
    }
}
