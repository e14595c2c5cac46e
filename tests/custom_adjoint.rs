//! A function whose adjoint is written by hand: the four items the macro would generate,
//! supplied directly, then called from `#[differentiable]` code like any other callee.
//!
//! Here the primal is an approximation of `erf` (Abramowitz and Stegun 7.1.26, error below
//! 1.5e-7); differentiating the approximation would give its derivative, not erf's. The
//! hand-written adjoint uses the exact derivative `2 / sqrt(pi) * exp(-x^2)` instead.

use core::f64::consts::{PI, SQRT_2};

use stackgrad::differentiable;

/// `erf(x)`, the primal.
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

/// The optional fifth item, for callers in forward mode (`#[differentiable(jvp)]`): the value
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
