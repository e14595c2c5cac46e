//! Float math in one place: `std` when it is present, [`libm`] otherwise.
//!
//! Every other module calls these functions (directly or through [`Float`]) so that the crate builds
//! without `std` and a build with `std` uses the platform's implementations.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::math;
//!
//! assert_eq!(math::sqrt(9.0), 3.0);
//! assert_eq!(math::sqrtf(9.0), 3.0);
//! assert!((math::erf(0.0)).abs() < 1e-15);
//! ```

use core::fmt::{Debug, Display};
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// Defines `f64` and `f32` versions of one-argument functions, each forwarding to the inherent `std`
/// method when the `std` feature is on and to `libm` otherwise.
macro_rules! unary {
    ($($(#[$doc:meta])* $f64_name:ident, $f32_name:ident => $libm64:ident, $libm32:ident;)*) => {$(
        $(#[$doc])*
        #[inline]
        #[must_use]
        pub fn $f64_name(x: f64) -> f64 {
            #[cfg(feature = "std")]
            return f64::$f64_name(x);
            #[cfg(not(feature = "std"))]
            return libm::$libm64(x);
        }

        $(#[$doc])*
        #[inline]
        #[must_use]
        pub fn $f32_name(x: f32) -> f32 {
            #[cfg(feature = "std")]
            return f32::$f64_name(x);
            #[cfg(not(feature = "std"))]
            return libm::$libm32(x);
        }
    )*};
}

unary! {
    /// Square root.
    sqrt, sqrtf => sqrt, sqrtf;
    /// `e^x`.
    exp, expf => exp, expf;
    /// Natural logarithm.
    ln, lnf => log, logf;
    /// Sine (radians).
    sin, sinf => sin, sinf;
    /// Cosine (radians).
    cos, cosf => cos, cosf;
    /// Hyperbolic tangent.
    tanh, tanhf => tanh, tanhf;
    /// Largest integer not greater than `x`.
    floor, floorf => floor, floorf;
}

/// `x` raised to the power `y`.
#[inline]
#[must_use]
pub fn pow(x: f64, y: f64) -> f64 {
    #[cfg(feature = "std")]
    return x.powf(y);
    #[cfg(not(feature = "std"))]
    return libm::pow(x, y);
}

/// `x` raised to the power `y`, in `f32`.
#[inline]
#[must_use]
pub fn powf(x: f32, y: f32) -> f32 {
    #[cfg(feature = "std")]
    return x.powf(y);
    #[cfg(not(feature = "std"))]
    return libm::powf(x, y);
}

/// The error function. `std` has no stable `erf`, so this is always `libm`.
#[inline]
#[must_use]
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// The complementary error function `1 - erf(x)`, accurate for large `x`. Always `libm`.
#[inline]
#[must_use]
pub fn erfc(x: f64) -> f64 {
    libm::erfc(x)
}

/// The scalar types parameters are made of: `f32` and `f64`.
///
/// The methods route through this module, so generic code works with and without `std`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::Float;
///
/// fn norm<F: Float>(xs: &[F]) -> F {
///     xs.iter().fold(F::ZERO, |acc, &x| acc + x * x).sqrt()
/// }
/// assert_eq!(norm(&[3.0f32, 4.0]), 5.0);
/// assert_eq!(norm(&[3.0f64, 4.0]), 5.0);
/// ```
pub trait Float:
    Copy
    + PartialOrd
    + Debug
    + Display
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + 'static
{
    /// `0.0`.
    const ZERO: Self;
    /// `1.0`.
    const ONE: Self;
    /// Size in bytes.
    const BYTES: usize;

    /// Converts from `f64`, rounding to nearest for `f32`.
    fn from_f64(x: f64) -> Self;
    /// Converts to `f64` (exact).
    fn to_f64(self) -> f64;
    /// Square root.
    #[must_use]
    fn sqrt(self) -> Self;
    /// `e^self`.
    #[must_use]
    fn exp(self) -> Self;
    /// Natural logarithm.
    #[must_use]
    fn ln(self) -> Self;
    /// Sine.
    #[must_use]
    fn sin(self) -> Self;
    /// Cosine.
    #[must_use]
    fn cos(self) -> Self;
    /// Hyperbolic tangent.
    #[must_use]
    fn tanh(self) -> Self;
    /// `self^y`.
    #[must_use]
    fn powf(self, y: Self) -> Self;

    /// Absolute value.
    #[inline]
    #[must_use]
    fn abs(self) -> Self {
        if self < Self::ZERO { -self } else { self }
    }

    /// The larger of the two; `other` when `self` is NaN.
    #[inline]
    #[must_use]
    fn max(self, other: Self) -> Self {
        if self >= other || other.is_nan() {
            self
        } else {
            other
        }
    }

    /// The smaller of the two; `other` when `self` is NaN.
    #[inline]
    #[must_use]
    fn min(self, other: Self) -> Self {
        if self <= other || other.is_nan() {
            self
        } else {
            other
        }
    }

    /// `-1`, `0` or `1` by the sign of `self` (`0` for zero, NaN stays NaN), like `torch.sign`.
    #[inline]
    #[must_use]
    fn sign(self) -> Self {
        if self > Self::ZERO {
            Self::ONE
        } else if self < Self::ZERO {
            -Self::ONE
        } else {
            self
        }
    }

    /// Whether the value is NaN.
    #[inline]
    #[allow(clippy::eq_op)]
    fn is_nan(self) -> bool {
        self != self
    }
}

/// Implements [`Float`] for one primitive by naming its functions in this module.
macro_rules! impl_float {
    ($t:ty, $sqrt:ident, $exp:ident, $ln:ident, $sin:ident, $cos:ident, $tanh:ident, $pow:ident) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const BYTES: usize = core::mem::size_of::<$t>();

            #[inline]
            #[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            #[inline]
            #[allow(clippy::unnecessary_cast)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn sqrt(self) -> Self {
                $sqrt(self)
            }
            #[inline]
            fn exp(self) -> Self {
                $exp(self)
            }
            #[inline]
            fn ln(self) -> Self {
                $ln(self)
            }
            #[inline]
            fn sin(self) -> Self {
                $sin(self)
            }
            #[inline]
            fn cos(self) -> Self {
                $cos(self)
            }
            #[inline]
            fn tanh(self) -> Self {
                $tanh(self)
            }
            #[inline]
            fn powf(self, y: Self) -> Self {
                $pow(self, y)
            }
        }
    };
}

impl_float!(f64, sqrt, exp, ln, sin, cos, tanh, pow);
impl_float!(f32, sqrtf, expf, lnf, sinf, cosf, tanhf, powf);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_agree_with_known_values() {
        assert_eq!(sqrt(2.0), core::f64::consts::SQRT_2);
        assert!((exp(1.0) - core::f64::consts::E).abs() < 1e-15);
        assert!((ln(core::f64::consts::E) - 1.0).abs() < 1e-15);
        assert!((cosf(0.0) - 1.0).abs() < f32::EPSILON);
        assert!((tanh(0.5) - 0.462_117_157_260_009_8).abs() < 1e-15);
        assert_eq!(floor(-1.5), -2.0);
        assert_eq!(pow(2.0, 10.0), 1024.0);
        // erf(1) = 0.8427007929497149 (Abramowitz & Stegun table 7.1).
        assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-15);
        assert!((erfc(1.0) - (1.0 - 0.842_700_792_949_714_9)).abs() < 1e-15);
    }

    #[test]
    fn sign_max_min_follow_torch_conventions() {
        assert_eq!(0.0f32.sign(), 0.0);
        assert_eq!((-3.0f64).sign(), -1.0);
        assert_eq!(2.5f64.sign(), 1.0);
        assert!(f64::NAN.sign().is_nan());
        assert_eq!(Float::max(1.0f32, 2.0), 2.0);
        assert_eq!(Float::min(1.0f32, 2.0), 1.0);
        assert_eq!(Float::max(f64::NAN, 2.0), 2.0);
        assert_eq!(Float::abs(-0.5f32), 0.5);
    }
}
