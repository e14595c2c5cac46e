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
    let mut d_hidden = [[0.0; F]; R];
    linear_adjoint(
        &tape.hidden,
        w2,
        b2,
        &LinearTape::new(),
        d_out,
        &mut d_hidden,
        d_w2,
        d_b2,
    );
    zero_where_not_positive(d_hidden.as_flattened_mut(), tape.hidden.as_flattened());
    linear_adjoint(x, w1, b1, &LinearTape::new(), &d_hidden, d_x, d_w1, d_b1);
    for (d_res, d) in d_res
        .as_flattened_mut()
        .iter_mut()
        .zip(d_out.as_flattened())
    {
        *d_res += d;
    }
}
