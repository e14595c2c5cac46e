//! Softmax and log-softmax over the last axis, and the numerically stable row kernel they share
//! with the cross-entropy loss. The exponentials are [`math::exp_fast`] (within 2 ulp), so a row
//! is vector code.
//!
//! Shapes: `x`, `y`, `d_x`, `d_out`, probabilities `[R][C]`.

use super::{max_lanes, sum_lanes};
use crate::math;

/// Writes the softmax of `x` into `p` (same length) and returns `max x` and `ln Σ e^(x - max x)`
/// (whose sum is `ln Σ e^x`): subtracting the maximum keeps every exponential in range, and keeping
/// the two terms apart lets callers subtract `x` from the maximum first, exactly.
#[inline(always)]
pub(super) fn softmax_row(x: &[f32], p: &mut [f32]) -> (f32, f32) {
    let max = max_lanes(x);
    for (p, &x) in p.iter_mut().zip(x) {
        *p = math::exp_fast(x - max);
    }
    let sum = sum_lanes(p);
    let inv = 1.0 / sum;
    for p in p.iter_mut() {
        *p *= inv;
    }
    (max, math::lnf(sum))
}

/// `d_x += p ⊙ (d - Σ p d)`: the adjoint of a softmax row with probabilities `p`.
pub(super) fn softmax_row_adjoint(p: &[f32], d: &[f32], d_x: &mut [f32]) {
    let dot: f32 = p.iter().zip(d).map(|(p, d)| p * d).sum();
    for ((d_x, p), d) in d_x.iter_mut().zip(p).zip(d) {
        *d_x += p * (d - dot);
    }
}

tape! {
    /// What [`softmax_adjoint`] reads: the probabilities.
    pub struct SoftmaxTape<const R: usize, const C: usize> {
        /// The output of the forward pass, `[R][C]`.
        pub probs: [[f32; C]; R] = [[0.0; C]; R],
    }
}

/// Softmax of every row: `y[r][c] = e^x[r][c] / Σ_c' e^x[r][c']`.
///
/// Shapes: `x` `[R][C]` -> `[R][C]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::softmax;
///
/// // Shifting a row changes nothing; huge logits do not overflow.
/// let y = softmax(&[[0.0f32, 2.0f32.ln()], [1000.0, 1000.0 + 2.0f32.ln()]]);
/// assert!((y[0][0] - 1.0 / 3.0).abs() < 1e-6 && (y[0][1] - 2.0 / 3.0).abs() < 1e-6);
/// assert!((y[1][0] - 1.0 / 3.0).abs() < 1e-4);
/// ```
#[must_use]
pub fn softmax<const R: usize, const C: usize>(x: &[[f32; C]; R]) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    for (x, y) in x.iter().zip(&mut y) {
        softmax_row(x, y);
    }
    y
}

/// [`softmax`], recording the probabilities.
pub fn softmax_forward<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    tape: &mut SoftmaxTape<R, C>,
) -> [[f32; C]; R] {
    record_probs(x, tape);
    tape.probs
}

/// [`softmax_forward`] into `out`, every element of which it overwrites: a caller's forward
/// sweep writes a recorded output into its tape slot with it. The probabilities are in the
/// op's own tape too, so this is one copy, where the value form makes two.
pub fn softmax_forward_into<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    tape: &mut SoftmaxTape<R, C>,
    out: &mut [[f32; C]; R],
) {
    record_probs(x, tape);
    *out = tape.probs;
}

/// The softmax of every row of `x`, into the tape.
fn record_probs<const R: usize, const C: usize>(x: &[[f32; C]; R], tape: &mut SoftmaxTape<R, C>) {
    for (x, p) in x.iter().zip(&mut tape.probs) {
        softmax_row(x, p);
    }
}

/// Adds `p ⊙ (d_out - Σ_c p d_out)`, row by row, into `d_x`.
///
/// Shapes: `x`, `d_out`, `d_x` `[R][C]`.
pub fn softmax_adjoint<const R: usize, const C: usize>(
    _x: &[[f32; C]; R],
    tape: &SoftmaxTape<R, C>,
    d_out: &[[f32; C]; R],
    d_x: &mut [[f32; C]; R],
) {
    for ((p, d), d_x) in tape.probs.iter().zip(d_out).zip(d_x) {
        softmax_row_adjoint(p, d, d_x);
    }
}

tape! {
    /// What [`log_softmax_adjoint`] reads: the probabilities `e^y`.
    pub struct LogSoftmaxTape<const R: usize, const C: usize> {
        /// The softmax of each row, `[R][C]`.
        pub probs: [[f32; C]; R] = [[0.0; C]; R],
    }
}

/// Log-softmax of every row, `y[r][c] = x[r][c] - ln Σ_c' e^x[r][c']`, stable for any logits.
///
/// Shapes: `x` `[R][C]` -> `[R][C]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::log_softmax;
///
/// let y = log_softmax(&[[1000.0f32, 1000.0]]);
/// assert_eq!(y, [[-2.0f32.ln(), -2.0f32.ln()]]);
/// ```
#[must_use]
pub fn log_softmax<const R: usize, const C: usize>(x: &[[f32; C]; R]) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    let mut probs = [0.0; C];
    for (x, y) in x.iter().zip(&mut y) {
        log_softmax_row(x, &mut probs, y);
    }
    y
}

fn log_softmax_row(x: &[f32], probs: &mut [f32], y: &mut [f32]) {
    let (max, ln_sum) = softmax_row(x, probs);
    for (y, x) in y.iter_mut().zip(x) {
        *y = (x - max) - ln_sum;
    }
}

/// [`log_softmax`], recording the probabilities.
pub fn log_softmax_forward<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    tape: &mut LogSoftmaxTape<R, C>,
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    log_softmax_forward_into(x, tape, &mut y);
    y
}

/// [`log_softmax_forward`] into `out`, every element of which it overwrites: a caller's forward
/// sweep writes a recorded output straight into its tape slot, with no copy.
pub fn log_softmax_forward_into<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    tape: &mut LogSoftmaxTape<R, C>,
    out: &mut [[f32; C]; R],
) {
    for ((x, y), probs) in x.iter().zip(out).zip(&mut tape.probs) {
        log_softmax_row(x, probs, y);
    }
}

/// Adds `d_out - p Σ_c d_out`, row by row, into `d_x`.
///
/// Shapes: `x`, `d_out`, `d_x` `[R][C]`.
pub fn log_softmax_adjoint<const R: usize, const C: usize>(
    _x: &[[f32; C]; R],
    tape: &LogSoftmaxTape<R, C>,
    d_out: &[[f32; C]; R],
    d_x: &mut [[f32; C]; R],
) {
    for ((p, d), d_x) in tape.probs.iter().zip(d_out).zip(d_x) {
        let sum: f32 = d.iter().sum();
        for ((d_x, p), d) in d_x.iter_mut().zip(p).zip(d) {
            *d_x += d - p * sum;
        }
    }
}
