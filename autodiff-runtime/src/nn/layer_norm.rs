//! Layer normalization over the channels of each row, with a learned gain and bias.
//!
//! Shapes: `x`, `y`, `d_x`, `d_out` `[R][C]`; `gain`, `bias` `[C]`; mean and reciprocal standard
//! deviation `[R]`.

use super::sum_lanes;
use crate::math;
use crate::wide::{WideLoop, with_wide_vectors};

/// Added to the variance before the square root, as in PyTorch's default.
const EPS: f32 = 1e-5;

tape! {
    /// What [`layer_norm_adjoint`] reads: the statistics of each row.
    pub struct LayerNormTape<const R: usize, const C: usize> {
        /// Mean of each row of `x`, `[R]`.
        pub mean: [f32; R] = [0.0; R],
        /// `1 / sqrt(var + 1e-5)` of each row of `x` (biased variance), `[R]`.
        pub rstd: [f32; R] = [0.0; R],
    }
}

/// Normalizes each row to mean 0 and variance 1 (biased variance, `eps = 1e-5`), then scales by
/// `gain` and shifts by `bias`, channel by channel.
///
/// Shapes: `x` `[R][C]`, `gain` `[C]`, `bias` `[C]` -> `[R][C]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::layer_norm;
///
/// // Mean 2, variance 2/3.
/// let y = layer_norm(&[[1.0f32, 2.0, 3.0]], &[1.0, 1.0, 2.0], &[0.0, 5.0, 0.0]);
/// let s = 1.5f32.sqrt();
/// assert!((y[0][0] + s).abs() < 1e-4 && (y[0][2] - 2.0 * s).abs() < 1e-4);
/// assert!((y[0][1] - 5.0).abs() < 1e-6);
/// ```
#[must_use]
pub fn layer_norm<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    gain: &[f32; C],
    bias: &[f32; C],
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    for (x, y) in x.iter().zip(&mut y) {
        normalize_row(x, gain, bias, y);
    }
    y
}

/// Writes the normalized row into `y` and returns its mean and reciprocal standard deviation,
/// compiled for the widest vectors the CPU has. One row per call: inlined into a loop over rows,
/// the compiler vectorized across rows with gathers.
#[inline(never)]
fn normalize_row<const C: usize>(
    x: &[f32; C],
    gain: &[f32; C],
    bias: &[f32; C],
    y: &mut [f32; C],
) -> (f32, f32) {
    /// The arguments of one row, as a loop for [`with_wide_vectors`].
    struct Row<'a, const C: usize> {
        x: &'a [f32; C],
        gain: &'a [f32; C],
        bias: &'a [f32; C],
        y: &'a mut [f32; C],
    }
    impl<const C: usize> WideLoop for Row<'_, C> {
        type Output = (f32, f32);
        #[inline(always)]
        fn run(self) -> (f32, f32) {
            let Row { x, gain, bias, y } = self;
            let n = C as f32;
            let mean = sum_lanes(x) / n;
            let sq = x.map(|x| (x - mean) * (x - mean));
            let rstd = 1.0 / math::sqrtf(sum_lanes(&sq) / n + EPS);
            for (((y, x), g), b) in y.iter_mut().zip(x).zip(gain).zip(bias) {
                *y = (x - mean) * rstd * g + b;
            }
            (mean, rstd)
        }
    }
    with_wide_vectors(Row { x, gain, bias, y })
}

/// [`layer_norm`], recording the mean and reciprocal standard deviation of each row.
pub fn layer_norm_forward<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    gain: &[f32; C],
    bias: &[f32; C],
    tape: &mut LayerNormTape<R, C>,
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    for (r, (x, y)) in x.iter().zip(&mut y).enumerate() {
        (tape.mean[r], tape.rstd[r]) = normalize_row(x, gain, bias, y);
    }
    y
}

/// Adds the cotangents of `x`, `gain` and `bias` into `d_x`, `d_gain` and `d_bias`. With
/// `x̂ = (x - mean) rstd` and `g = d_out ⊙ gain`:
/// `d_x += rstd (g - mean(g) - x̂ mean(g ⊙ x̂))`, `d_gain += Σ_r d_out ⊙ x̂`, `d_bias += Σ_r d_out`.
///
/// Shapes: `x`, `d_out`, `d_x` `[R][C]`; `gain`, `bias`, `d_gain`, `d_bias` `[C]`.
#[allow(clippy::too_many_arguments)]
pub fn layer_norm_adjoint<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    gain: &[f32; C],
    _bias: &[f32; C],
    tape: &LayerNormTape<R, C>,
    d_out: &[[f32; C]; R],
    d_x: &mut [[f32; C]; R],
    d_gain: &mut [f32; C],
    d_bias: &mut [f32; C],
) {
    /// The arguments, as a loop for [`with_wide_vectors`].
    struct Adjoint<'a, const R: usize, const C: usize> {
        x: &'a [[f32; C]; R],
        gain: &'a [f32; C],
        tape: &'a LayerNormTape<R, C>,
        d_out: &'a [[f32; C]; R],
        d_x: &'a mut [[f32; C]; R],
        d_params: (&'a mut [f32; C], &'a mut [f32; C]),
    }
    impl<const R: usize, const C: usize> WideLoop for Adjoint<'_, R, C> {
        type Output = ();
        #[inline(always)]
        fn run(self) {
            adjoint_rows(
                self.x,
                self.gain,
                self.tape,
                self.d_out,
                self.d_x,
                self.d_params,
            );
        }
    }
    let d_params = (d_gain, d_bias);
    with_wide_vectors(Adjoint {
        x,
        gain,
        tape,
        d_out,
        d_x,
        d_params,
    });
}

/// The body of [`layer_norm_adjoint`].
#[inline(always)]
fn adjoint_rows<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    gain: &[f32; C],
    tape: &LayerNormTape<R, C>,
    d_out: &[[f32; C]; R],
    d_x: &mut [[f32; C]; R],
    (d_gain, d_bias): (&mut [f32; C], &mut [f32; C]),
) {
    let n = C as f32;
    let stats = tape.mean.iter().zip(&tape.rstd);
    for (((x, d_out), d_x), (&mean, &rstd)) in x.iter().zip(d_out).zip(d_x).zip(stats) {
        let xhat = x.map(|x| (x - mean) * rstd);
        let mut g = [0.0; C];
        let mut g_xhat = [0.0; C];
        for (((g, g_xhat), (d, gain)), xhat) in g
            .iter_mut()
            .zip(&mut g_xhat)
            .zip(d_out.iter().zip(gain))
            .zip(&xhat)
        {
            *g = d * gain;
            *g_xhat = *g * xhat;
        }
        let mean_g = sum_lanes(&g) / n;
        let mean_g_xhat = sum_lanes(&g_xhat) / n;
        let d_params = d_gain.iter_mut().zip(d_bias.iter_mut());
        for ((((d, g), xhat), d_x), (d_gain, d_bias)) in
            d_out.iter().zip(&g).zip(&xhat).zip(d_x).zip(d_params)
        {
            *d_bias += d;
            *d_gain += d * xhat;
            *d_x += rstd * (g - mean_g - xhat * mean_g_xhat);
        }
    }
}
