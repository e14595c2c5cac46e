//! Finite-difference gradient checks (feature `alloc`): does an adjoint, generated or written by
//! hand, agree with the derivative of its own primal?
//!
//! A function with the four-item contract (`f`, `FTape`, `f_forward`, `f_adjoint`, see
//! stackgrad's docs/guide.md, "Custom adjoints") is checked through two closures over a flat
//! slice of its inputs: the primal `f(x)`, and the adjoint `adjoint(x, d_out, d_x)`, which runs
//! `f_forward` into a fresh tape and then `f_adjoint` with `d_out`, **adding** `d_out * ∂f/∂x`
//! into `d_x`.
//! [`check`] (or a configured [`GradCheck`]) then compares the adjoint with a finite difference of
//! `f` at `x`, element by element, and also checks the contract itself: the adjoint must scale
//! with `d_out` and add into its buffer, not overwrite it.
//!
//! The finite difference is Richardson-extrapolated central differences, evaluated in the
//! function's own float type (`f32` or `f64`) and combined in `f64`: along coordinate `i`, with
//! `h = step * max(1, |x_i|)`, `(4 D(h) - D(2h)) / 3` where `D(h) = (f(x + h) - f(x - h)) / 2h`.
//! Its error is `O(h^4)` plus the rounding of `f`, so the default step is `eps^(1/5)` of the float
//! type (`7.4e-4` for `f64`, `0.041` for `f32`). An element passes when
//! `|adjoint - fd| <= atol + rtol * max(|adjoint|, |fd|) + noise`, where `noise` is the rounding
//! error the difference can carry (`24 eps max|f| / h`, from 16 ulps per evaluation of `f`).
//! Near a kink (`abs`, `max`, a branch) within `2h` of `x` the difference is meaningless: pick
//! another point or a smaller [`step`](GradCheck::step).
//!
//! # Examples
//!
//! A hand-written adjoint for `erf` (here `libm`'s), checked, and a wrong one caught:
//!
//! ```
//! use autodiff_runtime::gradcheck::{self, GradCheckError};
//!
//! pub fn erf(x: f64) -> f64 { libm::erf(x) }
//! #[derive(Clone, Debug, Default)]
//! pub struct ErfTape {}
//! impl ErfTape { pub const fn new() -> Self { ErfTape {} } }
//! pub fn erf_forward(x: f64, _tape: &mut ErfTape) -> f64 { erf(x) }
//! pub fn erf_adjoint(x: f64, _tape: &ErfTape, d_out: f64, d_x: &mut f64) {
//!     *d_x += d_out * 2.0 / core::f64::consts::PI.sqrt() * (-x * x).exp();
//! }
//!
//! let adjoint = |x: &[f64], d_out: f64, d_x: &mut [f64]| {
//!     let mut tape = ErfTape::new();
//!     erf_forward(x[0], &mut tape);
//!     erf_adjoint(x[0], &tape, d_out, &mut d_x[0]);
//! };
//! let report = gradcheck::check(|x: &[f64]| erf(x[0]), adjoint, &[0.7])?;
//! assert_eq!(report.checked, 1);
//!
//! // Forgetting the factor 2 of the derivative:
//! let wrong = |x: &[f64], d_out: f64, d_x: &mut [f64]| {
//!     d_x[0] += d_out / core::f64::consts::PI.sqrt() * (-x[0] * x[0]).exp();
//! };
//! let err = gradcheck::check(|x: &[f64]| erf(x[0]), wrong, &[0.7]).unwrap_err();
//! assert!(matches!(err, GradCheckError::Mismatch(_)));
//! println!("{err}"); // which element, both values, the difference and what was allowed
//! # Ok::<(), GradCheckError>(())
//! ```

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::math::Float;

/// Rounding error of one evaluation of the checked function, in ulps of its value.
const NOISE_ULPS: f64 = 16.0;

/// A gradient check's settings: tolerances and step, with defaults for the float type `F`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::gradcheck::GradCheck;
///
/// // f(x, y) = x^2 y in f32, gradient (2 x y, x^2).
/// let f = |v: &[f32]| v[0] * v[0] * v[1];
/// let adjoint = |v: &[f32], d_out: f32, d: &mut [f32]| {
///     d[0] += d_out * 2.0 * v[0] * v[1];
///     d[1] += d_out * v[0] * v[0];
/// };
/// let report = GradCheck::<f32>::new().rtol(1e-3).check(f, adjoint, &[1.5, -0.5])?;
/// let worst = report.worst.unwrap();
/// assert!(worst.error <= worst.allowed);
/// # Ok::<(), autodiff_runtime::gradcheck::GradCheckError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradCheck<F> {
    rtol: f64,
    atol: f64,
    step: f64,
    float: PhantomData<F>,
}

impl<F: Float> Default for GradCheck<F> {
    /// As [`GradCheck::new`].
    fn default() -> Self {
        GradCheck::new()
    }
}

impl<F: Float> GradCheck<F> {
    /// The defaults for `F`: `rtol` `1e-6` for `f64` and `1e-3` for `f32` (any coarser type),
    /// `atol` `0` (the rounding noise is allowed for separately), relative step `eps^(1/5)`.
    ///
    /// # Examples
    ///
    /// See [`GradCheck`].
    #[must_use]
    pub fn new() -> Self {
        let eps = epsilon::<F>();
        GradCheck {
            rtol: if eps <= f64::EPSILON { 1e-6 } else { 1e-3 },
            atol: 0.0,
            step: libm::pow(eps, 0.2),
            float: PhantomData,
        }
    }

    /// The relative tolerance.
    ///
    /// # Panics
    ///
    /// If `rtol` is negative or not finite.
    ///
    /// # Examples
    ///
    /// See [`GradCheck`].
    #[track_caller]
    #[must_use]
    pub fn rtol(mut self, rtol: f64) -> Self {
        assert!(
            rtol >= 0.0 && rtol.is_finite(),
            "rtol must be finite and non-negative, got {rtol}"
        );
        self.rtol = rtol;
        self
    }

    /// The absolute tolerance, for gradient entries that are zero or tiny next to the others.
    ///
    /// # Panics
    ///
    /// If `atol` is negative or not finite.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::gradcheck::GradCheck;
    ///
    /// let check = GradCheck::<f64>::new().atol(1e-12);
    /// # let _ = check;
    /// ```
    #[track_caller]
    #[must_use]
    pub fn atol(mut self, atol: f64) -> Self {
        assert!(
            atol >= 0.0 && atol.is_finite(),
            "atol must be finite and non-negative, got {atol}"
        );
        self.atol = atol;
        self
    }

    /// The relative step: coordinate `i` moves by `step * max(1, |x_i|)` (and twice that).
    ///
    /// # Panics
    ///
    /// If `step` is not finite and positive.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::gradcheck::GradCheck;
    ///
    /// // |x| has a kink at 0: keep the probes of x = 1e-3 on one side of it.
    /// let report = GradCheck::<f64>::new().step(1e-5).check(
    ///     |x: &[f64]| x[0].abs(),
    ///     |x: &[f64], d_out: f64, d: &mut [f64]| d[0] += d_out * x[0].signum(),
    ///     &[1e-3],
    /// )?;
    /// # let _ = report;
    /// # Ok::<(), autodiff_runtime::gradcheck::GradCheckError>(())
    /// ```
    #[track_caller]
    #[must_use]
    pub fn step(mut self, step: f64) -> Self {
        assert!(
            step > 0.0 && step.is_finite(),
            "step must be finite and positive, got {step}"
        );
        self.step = step;
        self
    }

    /// Checks `adjoint` against finite differences of `f` at `x`.
    ///
    /// `f` is the primal on the inputs as a flat slice. `adjoint(x, d_out, d_x)` must **add**
    /// `d_out * ∂f/∂x_i` into `d_x[i]` (a slice as long as `x`), as `f_adjoint` does after
    /// `f_forward` recorded its tape. The adjoint is called twice: with `d_out = 1` into zeros
    /// (the gradient compared with the finite difference), then with `d_out = 2` into that
    /// gradient, which must give three times it.
    ///
    /// # Errors
    ///
    /// - [`GradCheckError::NotFinite`] if `f` at a probe, or the adjoint, is not finite;
    /// - [`GradCheckError::Mismatch`] with the [`Report`] if an element is off by more than the
    ///   tolerance (the report names the worst);
    /// - [`GradCheckError::Contract`] if the adjoint overwrites its buffer or ignores `d_out`.
    ///
    /// # Examples
    ///
    /// See [the module documentation](self).
    pub fn check(
        &self,
        f: impl Fn(&[F]) -> F,
        adjoint: impl Fn(&[F], F, &mut [F]),
        x: &[F],
    ) -> Result<Report, GradCheckError> {
        let eps = epsilon::<F>();
        let value = |at: &[F], index: Option<usize>| {
            let v = f(at).to_f64();
            if v.is_finite() {
                Ok(v)
            } else {
                Err(GradCheckError::NotFinite {
                    what: Evaluated::Function,
                    index,
                    value: v,
                })
            }
        };
        value(x, None)?;
        let mut gradient = vec![F::ZERO; x.len()];
        adjoint(x, F::ONE, &mut gradient);
        if let Some(i) = gradient.iter().position(|g| !g.to_f64().is_finite()) {
            return Err(GradCheckError::NotFinite {
                what: Evaluated::Adjoint,
                index: Some(i),
                value: gradient[i].to_f64(),
            });
        }

        let mut report = Report {
            checked: x.len(),
            worst: None,
        };
        let mut worst_ratio = -1.0;
        let mut probe: Vec<F> = x.to_vec();
        for (i, (&xi, &gi)) in x.iter().zip(&gradient).enumerate() {
            let x0 = xi.to_f64();
            let h = self.step * x0.abs().max(1.0);
            // f at x + k h for k in [1, -1, 2, -2]; the differences use the steps actually taken.
            let mut at = |k: f64| {
                probe[i] = F::from_f64(x0 + k * h);
                let taken = probe[i].to_f64();
                let v = value(&probe, Some(i));
                probe[i] = xi;
                v.map(|v| (v, taken))
            };
            let ((p1, xp1), (m1, xm1)) = (at(1.0)?, at(-1.0)?);
            let ((p2, xp2), (m2, xm2)) = (at(2.0)?, at(-2.0)?);
            let d1 = (p1 - m1) / (xp1 - xm1);
            let d2 = (p2 - m2) / (xp2 - xm2);
            let fd = (4.0 * d1 - d2) / 3.0;
            let f_max = [p1, m1, p2, m2].iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let noise = 1.5 * NOISE_ULPS * eps * f_max / h;
            let g = gi.to_f64();
            let error = (g - fd).abs();
            let allowed = self.atol + self.rtol * g.abs().max(fd.abs()) + noise;
            let ratio = if error == 0.0 { 0.0 } else { error / allowed };
            if ratio > worst_ratio {
                worst_ratio = ratio;
                report.worst = Some(Element {
                    index: i,
                    x: x0,
                    adjoint: g,
                    finite_difference: fd,
                    error,
                    allowed,
                });
            }
        }
        if worst_ratio > 1.0 {
            return Err(GradCheckError::Mismatch(report));
        }

        // The contract: `d_out = 2` into the gradient must give three times it.
        let mut twice = gradient.clone();
        adjoint(x, F::from_f64(2.0), &mut twice);
        for (i, (&g, &found)) in gradient.iter().zip(&twice).enumerate() {
            let expected = g + F::from_f64(2.0) * g;
            let (e, got) = (expected.to_f64(), found.to_f64());
            if (e - got).abs() > 4.0 * eps * e.abs() + f64::from(f32::MIN_POSITIVE) {
                return Err(GradCheckError::Contract {
                    index: i,
                    gradient: g.to_f64(),
                    found: got,
                });
            }
        }
        Ok(report)
    }
}

/// [`GradCheck::new`]`.check(f, adjoint, x)`: the default tolerances of the float type.
///
/// # Errors
///
/// As [`GradCheck::check`].
///
/// # Examples
///
/// See [the module documentation](self).
pub fn check<F: Float>(
    f: impl Fn(&[F]) -> F,
    adjoint: impl Fn(&[F], F, &mut [F]),
    x: &[F],
) -> Result<Report, GradCheckError> {
    GradCheck::new().check(f, adjoint, x)
}

/// The outcome of a check: how many elements, and the one closest to (or furthest past) its
/// tolerance.
///
/// # Examples
///
/// See [`GradCheck`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// Gradient elements compared.
    pub checked: usize,
    /// The element with the largest error relative to what was allowed; `None` for no inputs.
    pub worst: Option<Element>,
}

/// One gradient element compared with its finite difference.
///
/// # Examples
///
/// See [`GradCheck`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Element {
    /// Its position in the input slice.
    pub index: usize,
    /// The input's value.
    pub x: f64,
    /// What the adjoint gave (with `d_out = 1`).
    pub adjoint: f64,
    /// The finite difference.
    pub finite_difference: f64,
    /// `|adjoint - finite_difference|`.
    pub error: f64,
    /// The largest error allowed here: `atol + rtol * max(|adjoint|, |fd|) + noise`.
    pub allowed: f64,
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "element {} (x = {:e}): adjoint {:e}, finite difference {:e}, difference {:.3e} (allowed {:.3e})",
            self.index, self.x, self.adjoint, self.finite_difference, self.error, self.allowed
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.worst {
            Some(worst) => write!(f, "{} elements checked, worst {worst}", self.checked),
            None => write!(f, "no elements to check"),
        }
    }
}

/// What was not finite in a [`GradCheckError::NotFinite`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluated {
    /// The primal, at `x` or at a probe.
    Function,
    /// The adjoint's gradient.
    Adjoint,
}

/// Why a gradient check failed.
///
/// # Examples
///
/// See [the module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum GradCheckError {
    /// An element differs from its finite difference by more than allowed; the report names the
    /// worst.
    Mismatch(Report),
    /// The adjoint does not add `d_out * gradient` into its buffer: called with `d_out = 2` on a
    /// buffer holding the gradient, element `index` should be three times `gradient`.
    Contract {
        /// The element.
        index: usize,
        /// Its gradient (the first call, `d_out = 1`).
        gradient: f64,
        /// What the buffer held after the second call.
        found: f64,
    },
    /// The function or the adjoint gave NaN or an infinity.
    NotFinite {
        /// Which of the two.
        what: Evaluated,
        /// The input moved for a probe of the function, or the gradient element; `None` at `x`.
        index: Option<usize>,
        /// The value.
        value: f64,
    },
}

impl fmt::Display for GradCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GradCheckError::Mismatch(report) => {
                write!(f, "the adjoint disagrees with finite differences: {report}")
            }
            GradCheckError::Contract {
                index,
                gradient,
                found,
            } => write!(
                f,
                "the adjoint must add `d_out * gradient` into its buffer: element {index} held {gradient:e}, \
                 after a call with d_out = 2 it is {found:e}, expected {:e}",
                3.0 * gradient
            ),
            GradCheckError::NotFinite {
                what: Evaluated::Function,
                index: None,
                value,
            } => write!(f, "the function is {value} at x"),
            GradCheckError::NotFinite {
                what: Evaluated::Function,
                index: Some(i),
                value,
            } => write!(f, "the function is {value} at a probe of element {i}"),
            GradCheckError::NotFinite {
                what: Evaluated::Adjoint,
                index,
                value,
            } => write!(
                f,
                "the adjoint gives {value} for element {}",
                index.unwrap_or(0)
            ),
        }
    }
}

impl core::error::Error for GradCheckError {}

/// The machine epsilon of `F`: the gap between 1 and the next value.
fn epsilon<F: Float>() -> f64 {
    let mut eps = 1.0f64;
    while F::from_f64(1.0 + eps / 2.0) != F::ONE {
        eps /= 2.0;
    }
    eps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epsilon_of_each_float_type() {
        assert_eq!(epsilon::<f32>(), f64::from(f32::EPSILON));
        assert_eq!(epsilon::<f64>(), f64::EPSILON);
    }
}
