//! Layer normalization over the channels of each row, with a learned gain and bias.
//!
//! Shapes: `x`, `y`, `d_x`, `d_out` `[R][C]`; `gain`, `bias` `[C]`; mean and reciprocal standard
//! deviation `[R]`.

use crate::math;
use crate::wide::{Lanes, LanesLoop, sum8, with_lanes};

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
    with_lanes(Forward {
        x,
        gain,
        bias,
        y: &mut y,
        stats: None,
    });
    y
}

/// [`layer_norm`], recording the mean and reciprocal standard deviation of each row.
pub fn layer_norm_forward<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    gain: &[f32; C],
    bias: &[f32; C],
    tape: &mut LayerNormTape<R, C>,
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    layer_norm_forward_into(x, gain, bias, tape, &mut y);
    y
}

/// [`layer_norm_forward`] into `out`, every element of which it overwrites: a caller's forward
/// sweep writes a recorded output straight into its tape slot, with no copy and no zero fill.
pub fn layer_norm_forward_into<const R: usize, const C: usize>(
    x: &[[f32; C]; R],
    gain: &[f32; C],
    bias: &[f32; C],
    tape: &mut LayerNormTape<R, C>,
    out: &mut [[f32; C]; R],
) {
    with_lanes(Forward {
        x,
        gain,
        bias,
        y: out,
        stats: Some((&mut tape.mean, &mut tape.rstd)),
    });
}

/// The rows of [`layer_norm`], and where to record their statistics, as a loop for
/// [`with_lanes`]: a row's sums are a chain of dependent additions however they are written, so
/// the rows are swept in one function, where the CPU overlaps one row's chain with the next.
struct Forward<'a, const R: usize, const C: usize> {
    x: &'a [[f32; C]; R],
    gain: &'a [f32; C],
    bias: &'a [f32; C],
    y: &'a mut [[f32; C]; R],
    stats: Option<(&'a mut [f32; R], &'a mut [f32; R])>,
}

impl<const R: usize, const C: usize> LanesLoop for Forward<'_, R, C> {
    type Output = ();

    #[inline(always)]
    fn run<S: Lanes>(self, lanes: S) {
        let Forward {
            x,
            gain,
            bias,
            y,
            mut stats,
        } = self;
        for (r, (x, y)) in x.iter().zip(y).enumerate() {
            let (mean, rstd) = normalize_row(lanes, x, gain, bias, y);
            if let Some((m, s)) = &mut stats {
                (m[r], s[r]) = (mean, rstd);
            }
        }
    }
}

/// Writes the normalized row into `y` and returns its mean and reciprocal standard deviation.
/// Eight channels at a time, each sum in the order of `nn::sum_lanes`.
#[inline(always)]
fn normalize_row<S: Lanes, const C: usize>(
    lanes: S,
    x: &[f32; C],
    gain: &[f32; C],
    bias: &[f32; C],
    y: &mut [f32; C],
) -> (f32, f32) {
    let n = C as f32;
    let (xs, x_rest) = x.as_chunks::<8>();
    let mut acc = lanes.splat(0.0);
    for x in xs {
        acc = lanes.add(acc, lanes.load(x));
    }
    let mut sum = lanes.store(acc);
    for (sum, &x) in sum.iter_mut().zip(x_rest) {
        *sum += x;
    }
    let mean = sum8(sum) / n;
    let mean8 = lanes.splat(mean);
    let mut acc = lanes.splat(0.0);
    for x in xs {
        let d = lanes.sub(lanes.load(x), mean8);
        acc = lanes.add(acc, lanes.mul(d, d));
    }
    let mut sum = lanes.store(acc);
    for (sum, &x) in sum.iter_mut().zip(x_rest) {
        *sum += (x - mean) * (x - mean);
    }
    let rstd = 1.0 / math::sqrtf(sum8(sum) / n + EPS);
    let rstd8 = lanes.splat(rstd);
    let (ys, y_rest) = y.as_chunks_mut::<8>();
    let (gains, gain_rest) = gain.as_chunks::<8>();
    let (biases, bias_rest) = bias.as_chunks::<8>();
    for (((y, x), g), b) in ys.iter_mut().zip(xs).zip(gains).zip(biases) {
        let xhat = lanes.mul(lanes.sub(lanes.load(x), mean8), rstd8);
        *y = lanes.store(lanes.add(lanes.mul(xhat, lanes.load(g)), lanes.load(b)));
    }
    let rest = y_rest.iter_mut().zip(x_rest).zip(gain_rest).zip(bias_rest);
    for (((y, x), g), b) in rest {
        *y = (x - mean) * rstd * g + b;
    }
    (mean, rstd)
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
    with_lanes(Adjoint {
        x,
        gain,
        tape,
        d_out,
        d_x,
        d_params: (d_gain, d_bias),
    });
}

/// The arguments of [`layer_norm_adjoint`], as a loop for [`with_lanes`].
struct Adjoint<'a, const R: usize, const C: usize> {
    x: &'a [[f32; C]; R],
    gain: &'a [f32; C],
    tape: &'a LayerNormTape<R, C>,
    d_out: &'a [[f32; C]; R],
    d_x: &'a mut [[f32; C]; R],
    d_params: (&'a mut [f32; C], &'a mut [f32; C]),
}

impl<const R: usize, const C: usize> LanesLoop for Adjoint<'_, R, C> {
    type Output = ();

    #[inline(always)]
    fn run<S: Lanes>(self, lanes: S) {
        let Adjoint {
            x,
            gain,
            tape,
            d_out,
            d_x,
            d_params: (d_gain, d_bias),
        } = self;
        let stats = tape.mean.iter().zip(&tape.rstd);
        for (((x, d_out), d_x), (&mean, &rstd)) in x.iter().zip(d_out).zip(d_x).zip(stats) {
            adjoint_row(lanes, (x, mean, rstd), gain, d_out, d_x, (d_gain, d_bias));
        }
    }
}

/// One row of [`layer_norm_adjoint`], eight channels at a time (the sums in the order of
/// `nn::sum_lanes`): `x̂` and `g` are computed twice, for the sums and for the cotangents, rather
/// than kept in arrays between the two passes.
#[inline(always)]
fn adjoint_row<S: Lanes, const C: usize>(
    lanes: S,
    (x, mean, rstd): (&[f32; C], f32, f32),
    gain: &[f32; C],
    d_out: &[f32; C],
    d_x: &mut [f32; C],
    (d_gain, d_bias): (&mut [f32; C], &mut [f32; C]),
) {
    let n = C as f32;
    let (xs, x_rest) = x.as_chunks::<8>();
    let (gains, gain_rest) = gain.as_chunks::<8>();
    let (ds, d_rest) = d_out.as_chunks::<8>();
    let (mean8, rstd8) = (lanes.splat(mean), lanes.splat(rstd));
    let xhat8 = |x| lanes.mul(lanes.sub(lanes.load(x), mean8), rstd8);
    let (mut sum_g, mut sum_g_xhat) = (lanes.splat(0.0), lanes.splat(0.0));
    for ((x, gain), d) in xs.iter().zip(gains).zip(ds) {
        let g = lanes.mul(lanes.load(d), lanes.load(gain));
        sum_g = lanes.add(sum_g, g);
        sum_g_xhat = lanes.add(sum_g_xhat, lanes.mul(g, xhat8(x)));
    }
    let (mut sum_g, mut sum_g_xhat) = (lanes.store(sum_g), lanes.store(sum_g_xhat));
    for (((sum_g, sum_g_xhat), x), (d, gain)) in sum_g
        .iter_mut()
        .zip(&mut sum_g_xhat)
        .zip(x_rest)
        .zip(d_rest.iter().zip(gain_rest))
    {
        let g = d * gain;
        *sum_g += g;
        *sum_g_xhat += g * ((x - mean) * rstd);
    }
    let mean_g = sum8(sum_g) / n;
    let mean_g_xhat = sum8(sum_g_xhat) / n;
    let (mean_g8, mean_g_xhat8) = (lanes.splat(mean_g), lanes.splat(mean_g_xhat));
    let (d_xs, d_x_rest) = d_x.as_chunks_mut::<8>();
    let (d_gains, d_gain_rest) = d_gain.as_chunks_mut::<8>();
    let (d_biases, d_bias_rest) = d_bias.as_chunks_mut::<8>();
    let params = d_gains.iter_mut().zip(d_biases);
    for ((((x, gain), d), d_x), (d_gain, d_bias)) in
        xs.iter().zip(gains).zip(ds).zip(d_xs).zip(params)
    {
        let (xhat, d8) = (xhat8(x), lanes.load(d));
        let g = lanes.mul(d8, lanes.load(gain));
        *d_bias = lanes.store(lanes.add(lanes.load(d_bias), d8));
        *d_gain = lanes.store(lanes.add(lanes.load(d_gain), lanes.mul(d8, xhat)));
        let centred = lanes.sub(lanes.sub(g, mean_g8), lanes.mul(xhat, mean_g_xhat8));
        *d_x = lanes.store(lanes.add(lanes.load(d_x), lanes.mul(rstd8, centred)));
    }
    let params = d_gain_rest.iter_mut().zip(d_bias_rest);
    for ((((x, gain), d), d_x), (d_gain, d_bias)) in x_rest
        .iter()
        .zip(gain_rest)
        .zip(d_rest)
        .zip(d_x_rest)
        .zip(params)
    {
        let xhat = (x - mean) * rstd;
        let g = d * gain;
        *d_bias += d;
        *d_gain += d * xhat;
        *d_x += rstd * (g - mean_g - xhat * mean_g_xhat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wide::Plain;

    /// Rows of 21 channels (two groups of eight lanes and five more): the run on plain arrays
    /// and the one on the widest vectors this CPU has give the same bits, forward and back.
    #[test]
    fn lanes_round_like_plain_arrays() {
        const R: usize = 3;
        const C: usize = 21;
        #[allow(clippy::cast_precision_loss)]
        let value = |i: usize| ((i * 7919 % 1013) as f32 - 506.0) * 3.1e-3;
        let x: [[f32; C]; R] = core::array::from_fn(|r| core::array::from_fn(|c| value(r * C + c)));
        let gain: [f32; C] = core::array::from_fn(|c| 1.0 + value(c + 100));
        let bias: [f32; C] = core::array::from_fn(|c| value(c + 200));
        let d_out: [[f32; C]; R] =
            core::array::from_fn(|r| core::array::from_fn(|c| value(r * 5 + c + 300)));

        let mut tape = LayerNormTape::new();
        let y = layer_norm_forward(&x, &gain, &bias, &mut tape);
        let (mut plain_y, mut plain_tape) = ([[0.0; C]; R], LayerNormTape::<R, C>::new());
        Forward {
            x: &x,
            gain: &gain,
            bias: &bias,
            y: &mut plain_y,
            stats: Some((&mut plain_tape.mean, &mut plain_tape.rstd)),
        }
        .run(Plain);
        let bits = |rows: &[[f32; C]; R]| rows.map(|row| row.map(f32::to_bits));
        assert_eq!(bits(&y), bits(&plain_y));
        assert_eq!(
            tape.mean.map(f32::to_bits),
            plain_tape.mean.map(f32::to_bits)
        );
        assert_eq!(
            tape.rstd.map(f32::to_bits),
            plain_tape.rstd.map(f32::to_bits)
        );

        let mut wide = ([[0.5; C]; R], [0.25; C], [0.125; C]);
        let mut plain = wide;
        layer_norm_adjoint(
            &x,
            &gain,
            &bias,
            &tape,
            &d_out,
            &mut wide.0,
            &mut wide.1,
            &mut wide.2,
        );
        Adjoint {
            x: &x,
            gain: &gain,
            tape: &tape,
            d_out: &d_out,
            d_x: &mut plain.0,
            d_params: (&mut plain.1, &mut plain.2),
        }
        .run(Plain);
        assert_eq!(bits(&wide.0), bits(&plain.0));
        assert_eq!(wide.1.map(f32::to_bits), plain.1.map(f32::to_bits));
        assert_eq!(wide.2.map(f32::to_bits), plain.2.map(f32::to_bits));
        assert_ne!(
            bits(&wide.0),
            bits(&[[0.5; C]; R]),
            "the adjoint added something"
        );
    }
}
