//! A transformer block's feed-forward network added to its residual stream:
//! `res + relu(x · w1ᵀ + b1) · w2ᵀ + b2`, as one op.
//!
//! Shapes: `x` `[R][C]`, `w1` `[F][C]`, `b1` `[F]`, `w2` `[C][F]`, `b2` `[C]`, `res` and the
//! output `[R][C]`; the hidden activation `[R][F]`.

use super::gemm;
use super::linear::{LinearTape, linear_adjoint};
use crate::wide::{relu_in_place, zero_where_not_positive};

tape! {
    /// What [`feed_forward_add_adjoint`] reads besides the arguments: the hidden activation.
    pub struct FeedForwardAddTape<const R: usize, const C: usize, const F: usize> {
        /// `hidden[r] = relu(x[r] · w1ᵀ + b1)`, `[R][F]`: the second layer's input (for `d_w2`)
        /// and, where it is positive, the ReLU's mask.
        pub hidden: [[f32; F]; R] = [[0.0; F]; R],
    }
}

/// The feed-forward network of a transformer block added to the residual stream `res`:
/// `res + relu(x · w1ᵀ + b1) · w2ᵀ + b2`, bit for bit
/// `linear_add(&linear_relu(x, w1, b1), w2, b2, res)`.
///
/// Fused, the hidden activation is recorded once, in the op's own tape, and the ReLU needs no
/// mask beside it (an output is positive exactly where the ReLU passed its input): where
/// `linear_relu` then `linear_add` record the activation in the caller's tape (for `d_w2`) and a
/// flag per element in `linear_relu`'s, this keeps a quarter less.
///
/// Shapes: `x` `[R][C]`, `w1` `[F][C]`, `b1` `[F]`, `w2` `[C][F]`, `b2` `[C]`, `res` `[R][C]` ->
/// `[R][C]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::feed_forward_add;
///
/// let x = [[1.0f32, 2.0]];
/// let w1 = [[1.0f32, 1.0], [-2.0, 0.0]]; // hidden: relu([3.5, -1.0]) = [3.5, 0.0]
/// let w2 = [[2.0f32, 5.0], [0.0, 1.0]];
/// let y = feed_forward_add(&x, &w1, &[0.5, 1.0], &w2, &[0.0, 1.0], &[[10.0, 20.0]]);
/// assert_eq!(y, [[17.0, 21.0]]);
/// ```
#[must_use]
pub fn feed_forward_add<const R: usize, const C: usize, const F: usize>(
    x: &[[f32; C]; R],
    w1: &[[f32; C]; F],
    b1: &[f32; F],
    w2: &[[f32; F]; C],
    b2: &[f32; C],
    res: &[[f32; C]; R],
) -> [[f32; C]; R] {
    let mut tape = FeedForwardAddTape::new();
    let mut y = [[0.0; C]; R];
    feed_forward_add_forward_into(x, w1, b1, w2, b2, res, &mut tape, &mut y);
    y
}

/// [`feed_forward_add`], recording the hidden activation.
#[allow(clippy::too_many_arguments)]
pub fn feed_forward_add_forward<const R: usize, const C: usize, const F: usize>(
    x: &[[f32; C]; R],
    w1: &[[f32; C]; F],
    b1: &[f32; F],
    w2: &[[f32; F]; C],
    b2: &[f32; C],
    res: &[[f32; C]; R],
    tape: &mut FeedForwardAddTape<R, C, F>,
) -> [[f32; C]; R] {
    let mut y = [[0.0; C]; R];
    feed_forward_add_forward_into(x, w1, b1, w2, b2, res, tape, &mut y);
    y
}

/// [`feed_forward_add_forward`] into `out`, every element of which it overwrites: a caller's
/// forward sweep writes a recorded output straight into its tape slot. `out` cannot be `res`:
/// write the sum into a new place.
#[allow(clippy::too_many_arguments)]
pub fn feed_forward_add_forward_into<const R: usize, const C: usize, const F: usize>(
    x: &[[f32; C]; R],
    w1: &[[f32; C]; F],
    b1: &[f32; F],
    w2: &[[f32; F]; C],
    b2: &[f32; C],
    res: &[[f32; C]; R],
    tape: &mut FeedForwardAddTape<R, C, F>,
    out: &mut [[f32; C]; R],
) {
    let hidden = &mut tape.hidden;
    gemm::nt(x, w1, Some(b1), hidden);
    relu_in_place(hidden.as_flattened_mut());
    gemm::nt(hidden, w2, Some(b2), out);
    for (y, res) in out.as_flattened_mut().iter_mut().zip(res.as_flattened()) {
        *y += res;
    }
}

/// Adds the cotangents of every argument into its `d_` buffer: `d_out` into `d_res`, and through
/// the two layers, with the ReLU's derivative taken as 0 where its input was not positive (as
/// `linear_relu_adjoint` does).
///
/// The rows go through both layers in blocks of 64 (then 8, then 1), so that the
/// hidden cotangent of a block (24 KiB at 96 hidden units) stays in L1 between the product that
/// writes it and the two that read it. Every cotangent gets the same bits as from the whole batch
/// at once: the weights' and biases' sums run over the rows in the same order, a block's partial
/// sums passing through their `d_` buffers exactly.
///
/// Shapes: `x`, `d_x`, `res`, `d_res`, `d_out` `[R][C]`; `w1`, `d_w1` `[F][C]`; `b1`, `d_b1`
/// `[F]`; `w2`, `d_w2` `[C][F]`; `b2`, `d_b2` `[C]`.
#[allow(clippy::too_many_arguments)]
pub fn feed_forward_add_adjoint<const R: usize, const C: usize, const F: usize>(
    x: &[[f32; C]; R],
    w1: &[[f32; C]; F],
    b1: &[f32; F],
    w2: &[[f32; F]; C],
    b2: &[f32; C],
    _res: &[[f32; C]; R],
    tape: &FeedForwardAddTape<R, C, F>,
    d_out: &[[f32; C]; R],
    d_x: &mut [[f32; C]; R],
    d_w1: &mut [[f32; C]; F],
    d_b1: &mut [f32; F],
    d_w2: &mut [[f32; F]; C],
    d_b2: &mut [f32; C],
    d_res: &mut [[f32; C]; R],
) {
    let weights = Weights { w1, b1, w2, b2 };
    let mut grads = Grads {
        d_w1,
        d_b1,
        d_w2,
        d_b2,
    };
    let mut r = 0;
    while r + BLOCK_ROWS <= R {
        block_adjoint::<BLOCK_ROWS, C, F>(r, x, &weights, &tape.hidden, d_out, d_x, &mut grads);
        r += BLOCK_ROWS;
    }
    while r + 8 <= R {
        block_adjoint::<8, C, F>(r, x, &weights, &tape.hidden, d_out, d_x, &mut grads);
        r += 8;
    }
    while r < R {
        block_adjoint::<1, C, F>(r, x, &weights, &tape.hidden, d_out, d_x, &mut grads);
        r += 1;
    }
    for (d_res, d) in d_res
        .as_flattened_mut()
        .iter_mut()
        .zip(d_out.as_flattened())
    {
        *d_res += d;
    }
}

/// Rows per block of [`feed_forward_add_adjoint`]. Measured on the GPT's shapes (BENCHMARKS,
/// "The feed-forward adjoint in blocks of rows").
const BLOCK_ROWS: usize = 64;

/// The two layers' weights and biases.
struct Weights<'a, const C: usize, const F: usize> {
    w1: &'a [[f32; C]; F],
    b1: &'a [f32; F],
    w2: &'a [[f32; F]; C],
    b2: &'a [f32; C],
}

/// Their cotangents.
struct Grads<'a, const C: usize, const F: usize> {
    d_w1: &'a mut [[f32; C]; F],
    d_b1: &'a mut [f32; F],
    d_w2: &'a mut [[f32; F]; C],
    d_b2: &'a mut [f32; C],
}

/// Rows `r .. r + M` of `m`.
fn rows<const M: usize, const N: usize>(m: &[[f32; N]], r: usize) -> &[[f32; N]; M] {
    m[r..][..M].try_into().expect("M rows")
}

/// [`feed_forward_add_adjoint`] for rows `r .. r + M`, but `d_res`.
#[allow(clippy::too_many_arguments)]
fn block_adjoint<const M: usize, const C: usize, const F: usize>(
    r: usize,
    x: &[[f32; C]],
    w: &Weights<'_, C, F>,
    hidden: &[[f32; F]],
    d_out: &[[f32; C]],
    d_x: &mut [[f32; C]],
    g: &mut Grads<'_, C, F>,
) {
    let (x, hidden, d_out) = (
        rows::<M, C>(x, r),
        rows::<M, F>(hidden, r),
        rows::<M, C>(d_out, r),
    );
    let d_x: &mut [[f32; C]; M] = (&mut d_x[r..][..M]).try_into().expect("M rows");
    let mut d_hidden = [[0.0; F]; M];
    linear_adjoint(
        hidden,
        w.w2,
        w.b2,
        &LinearTape::new(),
        d_out,
        &mut d_hidden,
        g.d_w2,
        g.d_b2,
    );
    zero_where_not_positive(d_hidden.as_flattened_mut(), hidden.as_flattened());
    linear_adjoint(
        x,
        w.w1,
        w.b1,
        &LinearTape::new(),
        &d_hidden,
        d_x,
        g.d_w1,
        g.d_b1,
    );
}
