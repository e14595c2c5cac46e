//! Differentiable functions in a `#![no_std]` crate with no dependency but the macro.
//!
//! `core` has no `sqrt` or `exp` for floats; a `no_std` user brings them with a trait (here a
//! small Newton-iteration square root), and the adjoint resolves the same methods.
#![no_std]

#[cfg(test)]
extern crate std;

use autodiff_macros::differentiable;

/// A float square root for `no_std`, as a libm binding would provide it.
pub trait Sqrt {
    fn sqrt(self) -> Self;
}

impl Sqrt for f64 {
    fn sqrt(self) -> f64 {
        if self <= 0.0 {
            return 0.0;
        }
        let mut r = if self > 1.0 { self } else { 1.0 };
        for _ in 0..60 {
            r = 0.5 * (r + self / r);
        }
        r
    }
}

/// Huber loss: quadratic near 0, linear beyond `delta`; methods from `core` only.
#[differentiable]
pub fn huber(r: f64, delta: f64) -> f64 {
    let a = r.abs();
    if a <= delta {
        return 0.5 * r * r;
    }
    delta * (a - 0.5 * delta)
}

/// Calls, `max`/`min`/`clamp`/`recip`, and a trait-provided `sqrt`.
#[differentiable]
pub fn norm_clamped(x: f64, y: f64) -> f64 {
    let n = (x * x + y * y).sqrt();
    let h = huber(n, 1.0);
    h.max(0.1) + x.clamp(-1.0, 1.0) * (2.0 + y * y).recip() - y.min(0.2)
}

/// A tuple output in `f32`, differentiated with respect to the point only.
#[differentiable(wrt(x, y))]
pub fn rotate(x: f32, y: f32, c: f32, s: f32) -> (f32, f32) {
    (c * x - s * y, s * x + c * y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huber_gradient_matches_closed_form() {
        for (r, want) in [(0.5, 0.5), (-0.25, -0.25), (3.0, 1.0), (-2.0, -1.0)] {
            let (_, (g, _)) = huber_grad(r, 1.0);
            assert!((g - want).abs() < 1e-12, "huber'({r}) = {g}, want {want}");
        }
    }

    #[test]
    fn norm_clamped_matches_finite_differences() {
        for &(x, y) in &[(0.3, 0.4), (1.5, -2.0), (-0.2, 0.9), (4.0, 5.0)] {
            let (_, (gx, gy)) = norm_clamped_grad(x, y);
            let h = 1e-6;
            let fx = (norm_clamped(x + h, y) - norm_clamped(x - h, y)) / (2.0 * h);
            let fy = (norm_clamped(x, y + h) - norm_clamped(x, y - h)) / (2.0 * h);
            assert!(
                (gx - fx).abs() < 1e-6 && (gy - fy).abs() < 1e-6,
                "({x}, {y}): ({gx}, {gy}) vs ({fx}, {fy})"
            );
        }
    }

    #[test]
    fn rotate_adjoint_is_the_transpose() {
        let (c, s) = (0.6_f32, 0.8_f32);
        let mut tape = RotateTape::new();
        rotate_forward(1.0, 2.0, c, s, &mut tape);
        let (mut dx, mut dy) = (0.0, 0.0);
        rotate_adjoint(1.0, 2.0, c, s, &tape, (1.0, 0.0), &mut dx, &mut dy);
        assert_eq!((dx, dy), (c, -s));
    }
}
