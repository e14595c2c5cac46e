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

/// `e^x` in `f32` from a polynomial, branch-free so that a loop of it compiles to vector
/// instructions (the `std`/`libm` `expf` is a function call per element). Used by the softmax
/// kernels of [`crate::nn`].
///
/// Within 2 ulp of the correctly rounded `e^x` for every `x` where `e^x` is a normal `f32`
/// (`-87.3 < x < 88.7`; tested against `f64` on a dense grid); `0` below that, `+inf` above, NaN
/// for NaN.
///
/// How: `e^x = 2^n e^r` with `n = round(x / ln 2)` and `|r| <= ln 2 / 2`; `r` is computed in two
/// parts (`ln 2` split into a part exact in `f32` and the rest) so no accuracy is lost, `e^r` is its
/// Taylor polynomial to degree 7 (truncation below `5e-9` relative), and `2^n` is assembled from
/// its exponent bits.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::math;
///
/// assert!((math::exp_fast(1.0) - core::f32::consts::E).abs() <= f32::EPSILON * 3.0);
/// assert_eq!(math::exp_fast(0.0), 1.0);
/// assert_eq!(math::exp_fast(-200.0), 0.0);
/// assert_eq!(math::exp_fast(f32::INFINITY), f32::INFINITY);
/// ```
#[inline(always)]
#[must_use]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
pub fn exp_fast(x: f32) -> f32 {
    // Arguments are clamped to [LO, HI]: n stays in -126..=128, and from HI up the result
    // overflows to +inf by itself; below LO the result is a subnormal, returned as 0.
    const HI: f32 = 88.8;
    const LO: f32 = -87.33;
    // 1.5 * 2^23: adding it rounds to the nearest integer, which lands in the low mantissa bits.
    const ROUND: f32 = 12_582_912.0;
    // ln 2 = LN2_HI + LN2_LO, where LN2_HI has few enough bits that n * LN2_HI is exact.
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // Selects and integer bit arithmetic only (no branches, no float-to-int conversion), so a loop
    // of it vectorizes. NaN passes through: every step of a NaN is NaN.
    let xc = if x > HI { HI } else { x };
    let xc = if xc < LO { LO } else { xc };
    let shifted = xc * core::f32::consts::LOG2_E + ROUND;
    let n_float = shifted - ROUND;
    let n = shifted.to_bits() as i32 - ROUND.to_bits() as i32;
    let r = (xc - n_float * LN2_HI) - n_float * LN2_LO;
    let mut poly = 1.0 / 5040.0;
    for c in [
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ] {
        poly = poly * r + c;
    }
    // 2^n need not be a normal f32 (n = 128 or -126 with the polynomial's rounding): take it as
    // 2^h 2^(n - h), each factor normal.
    let h = n >> 1;
    let pow2 = |e: i32| f32::from_bits(((e + 127) as u32) << 23);
    let y = poly * pow2(h) * pow2(n - h);
    if x < LO { 0.0 } else { y }
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
    /// The smallest positive normal value; below it lie the subnormals.
    const MIN_POSITIVE: Self;

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

    /// `0` for a subnormal value (of either sign), the value itself otherwise.
    ///
    /// Arithmetic on subnormals runs tens of times slower on most CPUs; optimizer state that decays
    /// geometrically (Adam's moments of a parameter whose gradient stays zero) reaches them after a
    /// few hundred steps. Flushing them changes nothing above `MIN_POSITIVE`.
    #[inline]
    #[must_use]
    fn flush_subnormal(self) -> Self {
        if self.abs() < Self::MIN_POSITIVE {
            Self::ZERO
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
            const MIN_POSITIVE: Self = <$t>::MIN_POSITIVE;

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

    /// `exp_fast` against `f64` `exp` on a grid of 2^20 points over the whole normal range, and
    /// at the edges.
    #[test]
    fn exp_fast_is_within_two_ulp() {
        let (lo, hi) = (-87.3f64, 88.7f64);
        let n = 1 << 20;
        let mut worst = 0.0f64;
        for i in 0..=n {
            let x = (lo + (hi - lo) * f64::from(i) / f64::from(n)) as f32;
            let want = f64::from(x).exp();
            let ulp = f64::from(f32::EPSILON) * f64::from(2.0f32.powi(want.log2().floor() as i32));
            worst = worst.max((f64::from(exp_fast(x)) - want).abs() / ulp);
        }
        assert!(worst <= 2.0, "worst error {worst} ulp");
        assert_eq!(exp_fast(0.0), 1.0);
        assert_eq!(exp_fast(-100.0), 0.0);
        assert_eq!(exp_fast(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_fast(100.0), f32::INFINITY);
        assert_eq!(exp_fast(f32::INFINITY), f32::INFINITY);
        assert!(exp_fast(f32::NAN).is_nan());
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

    #[test]
    fn flush_subnormal_zeroes_exactly_the_subnormals() {
        assert_eq!(1e-39f32.flush_subnormal(), 0.0);
        assert_eq!((-1e-39f32).flush_subnormal(), 0.0);
        assert_eq!(f32::MIN_POSITIVE.flush_subnormal(), f32::MIN_POSITIVE);
        assert_eq!((-2e-38f32).flush_subnormal(), -2e-38);
        assert_eq!(1e-310f64.flush_subnormal(), 0.0);
        assert_eq!(1e-300f64.flush_subnormal(), 1e-300);
        assert!(f32::NAN.flush_subnormal().is_nan());
        assert_eq!(f32::INFINITY.flush_subnormal(), f32::INFINITY);
    }
}
