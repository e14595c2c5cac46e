//! Losses, each the mean over its rows: cross-entropy with integer targets (fused with
//! log-softmax) and mean squared error.
//!
//! Shapes: `logits` `[R][V]`, `targets` `[R]`, `pred` and `target` `[R][C]`; the loss is an `f32`.

use super::softmax::softmax_row;
use crate::wide::{WideLoop, with_wide_vectors};

tape! {
    /// What [`cross_entropy_adjoint`] reads: the softmax of the logits.
    pub struct CrossEntropyTape<const R: usize, const V: usize> {
        /// The softmax of each row of logits, `[R][V]`.
        pub probs: [[f32; V]; R] = [[0.0; V]; R],
    }
}

/// Checks a target class, naming the row and the vocabulary size when it is out of range.
#[track_caller]
fn class<const V: usize>(row: usize, target: usize) -> usize {
    assert!(
        target < V,
        "cross_entropy: target {target} of row {row} is out of range for {V} classes"
    );
    target
}

/// `-ln softmax(x)[target]`, writing the softmax into `probs`.
#[inline(always)]
fn nll(x: &[f32], target: usize, probs: &mut [f32]) -> f32 {
    let (max, ln_sum) = softmax_row(x, probs);
    (max - x[target]) + ln_sum
}

/// The mean over rows of `-ln softmax(logits[r])[targets[r]]`, computed as
/// `(max_v logits[r][v] - logits[r][targets[r]]) + ln Σ_v e^(logits[r][v] - max)`, so it is finite
/// and accurate for any finite logits.
///
/// Shapes: `logits` `[R][V]`, `targets` `[R]` (each `< V`) -> a scalar.
///
/// # Panics
///
/// If a target is not less than `V`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::cross_entropy;
///
/// // Uniform logits over 4 classes: ln 4 whatever the targets.
/// let loss = cross_entropy(&[[0.0f32; 4]; 2], &[0, 3]);
/// assert!((loss - 4.0f32.ln()).abs() < 1e-6);
/// // A confident, right prediction costs almost nothing, even at huge logits.
/// assert!(cross_entropy(&[[1000.0f32, 0.0]], &[0]) < 1e-6);
/// ```
///
/// A mean over no rows (or no classes) would be NaN: it fails to compile.
///
/// ```compile_fail,E0080
/// use autodiff_runtime::nn::cross_entropy;
///
/// let loss = cross_entropy::<0, 4>(&[], &[]);
/// ```
#[track_caller]
#[must_use]
pub fn cross_entropy<const R: usize, const V: usize>(
    logits: &[[f32; V]; R],
    targets: &[usize; R],
) -> f32 {
    const { assert!(R > 0 && V > 0, "a cross-entropy needs rows and classes") };
    let mut probs = [0.0; V];
    let mut sum = 0.0;
    for (r, (x, &t)) in logits.iter().zip(targets).enumerate() {
        sum += nll(x, class::<V>(r, t), &mut probs);
    }
    sum / R as f32
}

/// [`cross_entropy`], recording the probabilities.
///
/// # Panics
///
/// If a target is not less than `V`.
#[track_caller]
pub fn cross_entropy_forward<const R: usize, const V: usize>(
    logits: &[[f32; V]; R],
    targets: &[usize; R],
    tape: &mut CrossEntropyTape<R, V>,
) -> f32 {
    const { assert!(R > 0 && V > 0, "a cross-entropy needs rows and classes") };
    for (r, &t) in targets.iter().enumerate() {
        class::<V>(r, t);
    }
    let sum = with_wide_vectors(Rows {
        logits,
        targets,
        probs: &mut tape.probs,
    });
    sum / R as f32
}

/// The sum over rows of [`nll`], recording each row's softmax, as a loop for
/// [`with_wide_vectors`]: `exp_fast` over a row of 65 logits took 2.4 % of a batch-64 GPT step
/// in baseline x86-64 code. The targets are checked before.
struct Rows<'a, const R: usize, const V: usize> {
    logits: &'a [[f32; V]; R],
    targets: &'a [usize; R],
    probs: &'a mut [[f32; V]; R],
}

impl<const R: usize, const V: usize> WideLoop for Rows<'_, R, V> {
    type Output = f32;

    #[inline(always)]
    fn run(self) -> f32 {
        let rows = self.logits.iter().zip(self.targets).zip(self.probs);
        let mut sum = 0.0;
        for ((x, &t), probs) in rows {
            sum += nll(x, t, probs);
        }
        sum
    }
}

/// Adds `d_out / R * (softmax(logits[r]) - one_hot(targets[r]))` into each row of `d_logits`.
///
/// Shapes: `logits`, `d_logits` `[R][V]`; `targets` `[R]`.
///
/// # Panics
///
/// If a target is not less than `V`.
#[track_caller]
pub fn cross_entropy_adjoint<const R: usize, const V: usize>(
    _logits: &[[f32; V]; R],
    targets: &[usize; R],
    tape: &CrossEntropyTape<R, V>,
    d_out: f32,
    d_logits: &mut [[f32; V]; R],
) {
    let scale = d_out / R as f32;
    let rows = tape.probs.iter().zip(targets).zip(d_logits).enumerate();
    for (r, ((probs, &t), d_logits)) in rows {
        for (d, p) in d_logits.iter_mut().zip(probs) {
            *d += scale * p;
        }
        d_logits[class::<V>(r, t)] -= scale;
    }
}

tape! {
    /// What [`mse_adjoint`] reads besides the arguments: nothing.
    pub struct MseTape<const R: usize, const C: usize> {}
}

/// The mean squared error `Σ (pred - target)² / (R C)`.
///
/// Shapes: `pred`, `target` `[R][C]` -> a scalar.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::mse;
///
/// assert_eq!(mse(&[[1.0f32, 2.0]], &[[0.0, 4.0]]), 2.5); // (1 + 4) / 2
/// ```
///
/// A mean over no entries would be NaN: it fails to compile.
///
/// ```compile_fail,E0080
/// use autodiff_runtime::nn::mse;
///
/// let loss = mse::<0, 2>(&[], &[]);
/// ```
#[must_use]
pub fn mse<const R: usize, const C: usize>(pred: &[[f32; C]; R], target: &[[f32; C]; R]) -> f32 {
    const { assert!(R > 0 && C > 0, "a mean squared error needs entries") };
    let (pred, target) = (pred.as_flattened(), target.as_flattened());
    let sum: f32 = pred
        .iter()
        .zip(target)
        .map(|(p, t)| (p - t) * (p - t))
        .sum();
    sum / (R * C) as f32
}

/// [`mse`], recording its (empty) tape.
pub fn mse_forward<const R: usize, const C: usize>(
    pred: &[[f32; C]; R],
    target: &[[f32; C]; R],
    _tape: &mut MseTape<R, C>,
) -> f32 {
    mse(pred, target)
}

/// Adds `2 d_out (pred - target) / (R C)` into `d_pred` and its negative into `d_target`.
///
/// Shapes: `pred`, `target`, `d_pred`, `d_target` `[R][C]`.
pub fn mse_adjoint<const R: usize, const C: usize>(
    pred: &[[f32; C]; R],
    target: &[[f32; C]; R],
    _tape: &MseTape<R, C>,
    d_out: f32,
    d_pred: &mut [[f32; C]; R],
    d_target: &mut [[f32; C]; R],
) {
    let scale = 2.0 * d_out / (R * C) as f32;
    let (pred, target) = (pred.as_flattened(), target.as_flattened());
    let d_pairs = d_pred
        .as_flattened_mut()
        .iter_mut()
        .zip(d_target.as_flattened_mut());
    for ((d_p, d_t), (p, t)) in d_pairs.zip(pred.iter().zip(target)) {
        let g = scale * (p - t);
        *d_p += g;
        *d_t -= g;
    }
}
