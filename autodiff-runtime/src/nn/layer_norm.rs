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
/// rows of whole vectors are swept eight at a time ([`normalize_block`]), their chains
/// interleaved and their last additions across lanes done for the eight rows at once; other
/// widths, and the rows after the last whole block, row by row ([`normalize_row`]).
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
        let mut r = 0;
        if blocked::<C>() {
            let (x_blocks, _) = x.as_chunks::<BLOCK>();
            let (y_blocks, _) = y.as_chunks_mut::<BLOCK>();
            for (x, y) in x_blocks.iter().zip(y_blocks) {
                let (mean, rstd) = normalize_block(lanes, x, gain, bias, y);
                if let Some((m, s)) = &mut stats {
                    m[r..r + BLOCK].copy_from_slice(&mean);
                    s[r..r + BLOCK].copy_from_slice(&rstd);
                }
                r += BLOCK;
            }
        }
        for (x, y) in x[r..].iter().zip(&mut y[r..]) {
            let (mean, rstd) = normalize_row(lanes, x, gain, bias, y);
            if let Some((m, s)) = &mut stats {
                (m[r], s[r]) = (mean, rstd);
            }
            r += 1;
        }
    }
}

/// Rows per block of [`normalize_block`] and [`adjoint_block`].
const BLOCK: usize = 8;

/// Whether rows of `C` channels are swept [`BLOCK`] at a time: `C` a multiple of 8, so a row
/// is whole vectors (and not 0: rows of no channels have nothing to interleave).
const fn blocked<const C: usize>() -> bool {
    C.is_multiple_of(8) && C > 0
}

/// The sum of each row of `rows` in the order of [`sum8`], [`BLOCK`] rows at once: the rows
/// transposed, then the same additions as vectors.
#[inline(always)]
fn row_sums<S: Lanes>(lanes: S, rows: &[[f32; 8]; BLOCK]) -> [f32; BLOCK] {
    let t = lanes.transpose8(rows);
    let (a, b) = (
        lanes.add(lanes.load(&t[0]), lanes.load(&t[4])),
        lanes.add(lanes.load(&t[1]), lanes.load(&t[5])),
    );
    let (c, d) = (
        lanes.add(lanes.load(&t[2]), lanes.load(&t[6])),
        lanes.add(lanes.load(&t[3]), lanes.load(&t[7])),
    );
    lanes.store(lanes.add(lanes.add(a, b), lanes.add(c, d)))
}

/// The eight lane sums of `x`'s whole vectors: `acc[l] = Σ_j x[8 j + l]`, in order of `j`.
#[inline(always)]
fn lane_sum<S: Lanes>(lanes: S, xs: &[[f32; 8]]) -> [f32; 8] {
    let mut acc = lanes.splat(0.0);
    for x in xs {
        acc = lanes.add(acc, lanes.load(x));
    }
    lanes.store(acc)
}

/// The eight lane sums of `(x - mean)²` over `x`'s whole vectors, in order.
#[inline(always)]
fn lane_sum_sq<S: Lanes>(lanes: S, xs: &[[f32; 8]], mean: f32) -> [f32; 8] {
    let mean8 = lanes.splat(mean);
    let mut acc = lanes.splat(0.0);
    for x in xs {
        let d = lanes.sub(lanes.load(x), mean8);
        acc = lanes.add(acc, lanes.mul(d, d));
    }
    lanes.store(acc)
}

/// `1 / sqrt(var + eps)` from the sum of squared deviations of a row of `n` channels.
#[inline(always)]
fn rstd_of(sum_sq: f32, n: f32) -> f32 {
    1.0 / math::sqrtf(sum_sq / n + EPS)
}

/// Writes `(x - mean) rstd gain + bias` of `x`'s whole vectors into `y`'s.
#[inline(always)]
fn write_normalized<S: Lanes>(
    lanes: S,
    xs: &[[f32; 8]],
    (mean, rstd): (f32, f32),
    (gains, biases): (&[[f32; 8]], &[[f32; 8]]),
    ys: &mut [[f32; 8]],
) {
    let (mean8, rstd8) = (lanes.splat(mean), lanes.splat(rstd));
    for (((y, x), g), b) in ys.iter_mut().zip(xs).zip(gains).zip(biases) {
        let xhat = lanes.mul(lanes.sub(lanes.load(x), mean8), rstd8);
        *y = lanes.store(lanes.add(lanes.mul(xhat, lanes.load(g)), lanes.load(b)));
    }
}

/// [`normalize_row`] of [`BLOCK`] rows of whole vectors, the same bits: each row's operations
/// are the same in the same order, but the rows' sums, a chain of dependent additions in each
/// row, are interleaved, and their last additions across lanes ([`sum8`]) are done for the
/// eight rows at once through a transpose. Returns the rows' means and reciprocal standard
/// deviations.
#[inline(always)]
fn normalize_block<S: Lanes, const C: usize>(
    lanes: S,
    x: &[[f32; C]; BLOCK],
    gain: &[f32; C],
    bias: &[f32; C],
    y: &mut [[f32; C]; BLOCK],
) -> ([f32; BLOCK], [f32; BLOCK]) {
    // Loops, not `array::from_fn` over the rows: a closure is a function of its own, compiled
    // without the path's target features unless inlined, and its vector operations then become
    // calls (a first version written so ran ten times slower).
    let n = C as f32;
    let mut sums = [[0.0; 8]; BLOCK];
    for (sum, x) in sums.iter_mut().zip(x) {
        *sum = lane_sum(lanes, x.as_chunks::<8>().0);
    }
    let mut mean = row_sums(lanes, &sums);
    for mean in &mut mean {
        *mean /= n;
    }
    for ((sum, x), &mean) in sums.iter_mut().zip(x).zip(&mean) {
        *sum = lane_sum_sq(lanes, x.as_chunks::<8>().0, mean);
    }
    let mut rstd = row_sums(lanes, &sums);
    for rstd in &mut rstd {
        *rstd = rstd_of(*rstd, n);
    }
    let params = (gain.as_chunks::<8>().0, bias.as_chunks::<8>().0);
    for (r, (x, y)) in x.iter().zip(y).enumerate() {
        let (xs, ys) = (x.as_chunks::<8>().0, y.as_chunks_mut::<8>().0);
        write_normalized(lanes, xs, (mean[r], rstd[r]), params, ys);
    }
    (mean, rstd)
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
    let mut sum = lane_sum(lanes, xs);
    for (sum, &x) in sum.iter_mut().zip(x_rest) {
        *sum += x;
    }
    let mean = sum8(sum) / n;
    let mut sum = lane_sum_sq(lanes, xs, mean);
    for (sum, &x) in sum.iter_mut().zip(x_rest) {
        *sum += (x - mean) * (x - mean);
    }
    let rstd = rstd_of(sum8(sum), n);
    let (ys, y_rest) = y.as_chunks_mut::<8>();
    let (gains, gain_rest) = gain.as_chunks::<8>();
    let (biases, bias_rest) = bias.as_chunks::<8>();
    write_normalized(lanes, xs, (mean, rstd), (gains, biases), ys);
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
        let mut r = 0;
        if blocked::<C>() {
            let blocks = x
                .as_chunks::<BLOCK>()
                .0
                .iter()
                .zip(d_out.as_chunks::<BLOCK>().0);
            for ((x, d_out), d_x) in blocks.zip(d_x.as_chunks_mut::<BLOCK>().0) {
                let stats = (
                    tape.mean[r..].first_chunk().expect("a whole block"),
                    tape.rstd[r..].first_chunk().expect("a whole block"),
                );
                adjoint_block(lanes, x, stats, gain, d_out, d_x, (d_gain, d_bias));
                r += BLOCK;
            }
        }
        let stats = tape.mean[r..].iter().zip(&tape.rstd[r..]);
        let rows = x[r..].iter().zip(&d_out[r..]).zip(&mut d_x[r..]);
        for (((x, d_out), d_x), (&mean, &rstd)) in rows.zip(stats) {
            adjoint_row(lanes, (x, mean, rstd), gain, d_out, d_x, (d_gain, d_bias));
        }
    }
}

/// The eight lane sums of `g = d_out gain` and of `g x̂` over a row's whole vectors, in order.
#[inline(always)]
fn adjoint_lane_sums<S: Lanes>(
    lanes: S,
    xs: &[[f32; 8]],
    (mean, rstd): (f32, f32),
    gains: &[[f32; 8]],
    ds: &[[f32; 8]],
) -> ([f32; 8], [f32; 8]) {
    let (mean8, rstd8) = (lanes.splat(mean), lanes.splat(rstd));
    let (mut sum_g, mut sum_g_xhat) = (lanes.splat(0.0), lanes.splat(0.0));
    for ((x, gain), d) in xs.iter().zip(gains).zip(ds) {
        let g = lanes.mul(lanes.load(d), lanes.load(gain));
        let xhat = lanes.mul(lanes.sub(lanes.load(x), mean8), rstd8);
        sum_g = lanes.add(sum_g, g);
        sum_g_xhat = lanes.add(sum_g_xhat, lanes.mul(g, xhat));
    }
    (lanes.store(sum_g), lanes.store(sum_g_xhat))
}

/// Adds a row's cotangents over its whole vectors, given the means of `g` and `g x̂`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn adjoint_apply<S: Lanes>(
    lanes: S,
    xs: &[[f32; 8]],
    (mean, rstd): (f32, f32),
    gains: &[[f32; 8]],
    ds: &[[f32; 8]],
    (mean_g, mean_g_xhat): (f32, f32),
    d_xs: &mut [[f32; 8]],
    (d_gains, d_biases): (&mut [[f32; 8]], &mut [[f32; 8]]),
) {
    let (mean8, rstd8) = (lanes.splat(mean), lanes.splat(rstd));
    let (mean_g8, mean_g_xhat8) = (lanes.splat(mean_g), lanes.splat(mean_g_xhat));
    let params = d_gains.iter_mut().zip(d_biases);
    for ((((x, gain), d), d_x), (d_gain, d_bias)) in
        xs.iter().zip(gains).zip(ds).zip(d_xs).zip(params)
    {
        let xhat = lanes.mul(lanes.sub(lanes.load(x), mean8), rstd8);
        let d8 = lanes.load(d);
        let g = lanes.mul(d8, lanes.load(gain));
        *d_bias = lanes.store(lanes.add(lanes.load(d_bias), d8));
        *d_gain = lanes.store(lanes.add(lanes.load(d_gain), lanes.mul(d8, xhat)));
        let centred = lanes.sub(lanes.sub(g, mean_g8), lanes.mul(xhat, mean_g_xhat8));
        *d_x = lanes.store(lanes.add(lanes.load(d_x), lanes.mul(rstd8, centred)));
    }
}

/// [`adjoint_row`] of [`BLOCK`] rows of whole vectors, the same bits, as [`normalize_block`]
/// is [`normalize_row`]: the rows' sums interleaved and finished through a transpose, then
/// their cotangents added vector by vector across the rows, each element's in row order.
#[inline(always)]
fn adjoint_block<S: Lanes, const C: usize>(
    lanes: S,
    x: &[[f32; C]; BLOCK],
    (mean, rstd): (&[f32; BLOCK], &[f32; BLOCK]),
    gain: &[f32; C],
    d_out: &[[f32; C]; BLOCK],
    d_x: &mut [[f32; C]; BLOCK],
    (d_gain, d_bias): (&mut [f32; C], &mut [f32; C]),
) {
    let n = C as f32;
    let gains = gain.as_chunks::<8>().0;
    // Loops, not `array::from_fn` (see `normalize_block`).
    let (mut sums_g, mut sums_g_xhat) = ([[0.0; 8]; BLOCK], [[0.0; 8]; BLOCK]);
    for r in 0..BLOCK {
        let (xs, ds) = (x[r].as_chunks::<8>().0, d_out[r].as_chunks::<8>().0);
        (sums_g[r], sums_g_xhat[r]) = adjoint_lane_sums(lanes, xs, (mean[r], rstd[r]), gains, ds);
    }
    let (mut mean_g, mut mean_g_xhat) = (row_sums(lanes, &sums_g), row_sums(lanes, &sums_g_xhat));
    for mean in mean_g.iter_mut().chain(&mut mean_g_xhat) {
        *mean /= n;
    }
    // Vector by vector across the block's rows, so the gain's and bias's cotangents stay in
    // registers over the eight rows (added in the same order, row by row).
    let (d_gains, d_biases) = (d_gain.as_chunks_mut::<8>().0, d_bias.as_chunks_mut::<8>().0);
    let params = d_gains.iter_mut().zip(d_biases);
    for (j, ((d_gain, d_bias), gain)) in params.zip(gains).enumerate() {
        let (mut acc_gain, mut acc_bias) = (lanes.load(d_gain), lanes.load(d_bias));
        let gain = lanes.load(gain);
        for r in 0..BLOCK {
            let x = lanes.load(&x[r].as_chunks::<8>().0[j]);
            let xhat = lanes.mul(lanes.sub(x, lanes.splat(mean[r])), lanes.splat(rstd[r]));
            let d8 = lanes.load(&d_out[r].as_chunks::<8>().0[j]);
            let g = lanes.mul(d8, gain);
            acc_bias = lanes.add(acc_bias, d8);
            acc_gain = lanes.add(acc_gain, lanes.mul(d8, xhat));
            let shift = lanes.mul(xhat, lanes.splat(mean_g_xhat[r]));
            let centred = lanes.sub(lanes.sub(g, lanes.splat(mean_g[r])), shift);
            let d_x = &mut d_x[r].as_chunks_mut::<8>().0[j];
            *d_x =
                lanes.store(lanes.add(lanes.load(d_x), lanes.mul(lanes.splat(rstd[r]), centred)));
        }
        (*d_gain, *d_bias) = (lanes.store(acc_gain), lanes.store(acc_bias));
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
    let (mut sum_g, mut sum_g_xhat) = adjoint_lane_sums(lanes, xs, (mean, rstd), gains, ds);
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
    let (d_xs, d_x_rest) = d_x.as_chunks_mut::<8>();
    let (d_gains, d_gain_rest) = d_gain.as_chunks_mut::<8>();
    let (d_biases, d_bias_rest) = d_bias.as_chunks_mut::<8>();
    let means = (mean_g, mean_g_xhat);
    adjoint_apply(
        lanes,
        xs,
        (mean, rstd),
        gains,
        ds,
        means,
        d_xs,
        (d_gains, d_biases),
    );
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
    use crate::cpu::VectorPath;
    use crate::wide::{Plain, with_lanes_on};

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

    /// 19 rows of 24 channels: two blocks of eight rows and three single rows. The block
    /// functions, and the op on every vector path this CPU has, give the bits of the row-by-row
    /// code, forward and back.
    #[test]
    fn blocks_of_rows_give_the_row_by_row_bits() {
        const R: usize = 19;
        const C: usize = 24;
        #[allow(clippy::cast_precision_loss)]
        let value = |i: usize| ((i * 7919 % 1013) as f32 - 506.0) * 3.1e-3;
        let x: [[f32; C]; R] =
            core::array::from_fn(|r| core::array::from_fn(|c| value(r * C + c) * (1.0 + r as f32)));
        let gain: [f32; C] = core::array::from_fn(|c| 1.0 + value(c + 100));
        let bias: [f32; C] = core::array::from_fn(|c| value(c + 200));
        let d_out: [[f32; C]; R] =
            core::array::from_fn(|r| core::array::from_fn(|c| value(r * 5 + c + 300)));
        let bits = |rows: &[[f32; C]; R]| rows.map(|row| row.map(f32::to_bits));

        // The reference: every row on its own, on plain arrays.
        let mut row_y = [[0.0; C]; R];
        let mut row_tape = LayerNormTape::<R, C>::new();
        for (r, (x, y)) in x.iter().zip(&mut row_y).enumerate() {
            (row_tape.mean[r], row_tape.rstd[r]) = normalize_row(Plain, x, &gain, &bias, y);
        }
        let mut row_d = ([[0.5; C]; R], [0.25; C], [0.125; C]);
        for (r, (x, d_x)) in x.iter().zip(&mut row_d.0).enumerate() {
            let stats = (x, row_tape.mean[r], row_tape.rstd[r]);
            adjoint_row(
                Plain,
                stats,
                &gain,
                &d_out[r],
                d_x,
                (&mut row_d.1, &mut row_d.2),
            );
        }

        // The block functions themselves, so that the test does not rest on the op taking
        // them: the second block of rows, on plain arrays, against the row functions.
        assert!(blocked::<C>(), "the op sweeps these rows in blocks");
        let x_block = x[BLOCK..].first_chunk::<BLOCK>().expect("a second block");
        let d_block = d_out[BLOCK..]
            .first_chunk::<BLOCK>()
            .expect("a second block");
        let mut y_block = [[0.0; C]; BLOCK];
        let (mean, rstd) = normalize_block(Plain, x_block, &gain, &bias, &mut y_block);
        let rows = BLOCK..2 * BLOCK;
        assert_eq!(
            y_block.map(|r| r.map(f32::to_bits)),
            bits(&row_y)[rows.clone()]
        );
        assert_eq!(
            mean.map(f32::to_bits),
            row_tape.mean.map(f32::to_bits)[rows.clone()]
        );
        assert_eq!(
            rstd.map(f32::to_bits),
            row_tape.rstd.map(f32::to_bits)[rows]
        );
        let mut block_d = ([[0.5; C]; BLOCK], [0.25; C], [0.125; C]);
        let mut rows_d = block_d;
        let d_params = (&mut block_d.1, &mut block_d.2);
        adjoint_block(
            Plain,
            x_block,
            (&mean, &rstd),
            &gain,
            d_block,
            &mut block_d.0,
            d_params,
        );
        for (r, d_x) in rows_d.0.iter_mut().enumerate() {
            let (stats, d_params) = (
                (&x_block[r], mean[r], rstd[r]),
                (&mut rows_d.1, &mut rows_d.2),
            );
            adjoint_row(Plain, stats, &gain, &d_block[r], d_x, d_params);
        }
        assert_eq!(
            block_d.0.map(|r| r.map(f32::to_bits)),
            rows_d.0.map(|r| r.map(f32::to_bits))
        );
        assert_eq!(block_d.1.map(f32::to_bits), rows_d.1.map(f32::to_bits));
        assert_eq!(block_d.2.map(f32::to_bits), rows_d.2.map(f32::to_bits));

        // The op on every vector path this CPU has (the portable one runs on plain arrays).
        for path in VectorPath::available() {
            let (mut y, mut tape) = ([[0.0; C]; R], LayerNormTape::<R, C>::new());
            let forward = Forward {
                x: &x,
                gain: &gain,
                bias: &bias,
                y: &mut y,
                stats: Some((&mut tape.mean, &mut tape.rstd)),
            };
            with_lanes_on(path, forward);
            let mut d = ([[0.5; C]; R], [0.25; C], [0.125; C]);
            let adjoint = Adjoint {
                x: &x,
                gain: &gain,
                tape: &tape,
                d_out: &d_out,
                d_x: &mut d.0,
                d_params: (&mut d.1, &mut d.2),
            };
            with_lanes_on(path, adjoint);
            assert_eq!(bits(&y), bits(&row_y), "{path:?}");
            assert_eq!(tape.mean.map(f32::to_bits), row_tape.mean.map(f32::to_bits));
            assert_eq!(tape.rstd.map(f32::to_bits), row_tape.rstd.map(f32::to_bits));
            assert_eq!(bits(&d.0), bits(&row_d.0), "{path:?}");
            assert_eq!(d.1.map(f32::to_bits), row_d.1.map(f32::to_bits), "{path:?}");
            assert_eq!(d.2.map(f32::to_bits), row_d.2.map(f32::to_bits), "{path:?}");
        }
        // The rows differ in scale, so a row given another's statistics would show.
        assert_ne!(row_tape.rstd[0].to_bits(), row_tape.rstd[9].to_bits());
    }
}
