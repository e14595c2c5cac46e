//! Fully connected layer `y = x · wᵀ + b` over a batch of rows, alone, followed by a ReLU, or
//! added to a residual stream.
//!
//! Shapes: `x` `[R][I]`, `w` `[O][I]` (one row per output, as in PyTorch), `b` `[O]`, `y` `[R][O]`,
//! `res` `[R][O]`.

use super::gemm;
use crate::wide::{WideLoop, kept, relu_in_place, with_wide_vectors};

tape! {
    /// What [`linear_adjoint`] reads besides the arguments: nothing.
    pub struct LinearTape<const R: usize, const I: usize, const O: usize> {}
}

/// The affine map `y[r] = w · x[r] + b` of every row.
///
/// Shapes: `x` `[R][I]`, `w` `[O][I]`, `b` `[O]` -> `[R][O]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::linear;
///
/// let x = [[1.0f32, 2.0], [0.0, -1.0]];
/// let w = [[1.0f32, 1.0], [2.0, 0.0], [0.0, 3.0]];
/// let b = [0.5f32, 0.0, -1.0];
/// assert_eq!(linear(&x, &w, &b), [[3.5, 2.0, 5.0], [-0.5, 0.0, -4.0]]);
/// ```
#[must_use]
pub fn linear<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
) -> [[f32; O]; R] {
    let mut y = [[0.0; O]; R];
    gemm::nt(x, w, Some(b), &mut y);
    y
}

/// [`linear`], recording its (empty) tape.
pub fn linear_forward<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    _tape: &mut LinearTape<R, I, O>,
) -> [[f32; O]; R] {
    linear(x, w, b)
}

/// [`linear_forward`] into `out`, every element of which it overwrites: a caller's forward sweep
/// writes a recorded output straight into its tape slot, with no copy and no zero fill first.
pub fn linear_forward_into<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    _tape: &mut LinearTape<R, I, O>,
    out: &mut [[f32; O]; R],
) {
    gemm::nt(x, w, Some(b), out);
}

/// Adds `d_out · w` into `d_x`, `d_outᵀ · x` into `d_w` and the column sums of `d_out` into `d_b`.
///
/// Shapes: `x`, `d_x` `[R][I]`; `w`, `d_w` `[O][I]`; `b`, `d_b` `[O]`; `d_out` `[R][O]`.
#[allow(clippy::too_many_arguments)]
pub fn linear_adjoint<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    _b: &[f32; O],
    _tape: &LinearTape<R, I, O>,
    d_out: &[[f32; O]; R],
    d_x: &mut [[f32; I]; R],
    d_w: &mut [[f32; I]; O],
    d_b: &mut [f32; O],
) {
    gemm::nn(d_out, w, d_x);
    gemm::tn(d_out, x, d_w);
    for row in d_out {
        for (d_b, d) in d_b.iter_mut().zip(row) {
            *d_b += d;
        }
    }
}

tape! {
    /// What [`linear_relu_adjoint`] reads besides the arguments: which outputs the ReLU passed.
    pub struct LinearReluTape<const R: usize, const I: usize, const O: usize> {
        /// `active[r][o]`: whether `x[r] · w[o] + b[o] > 0`, `[R][O]` (a byte each, a quarter of
        /// the output's size).
        pub active: [[bool; O]; R] = [[false; O]; R],
    }
}

/// A linear layer followed by a ReLU, `relu(x · wᵀ + b)`, in one pass over the output.
///
/// The fused form needs no copy of the pre-activation: its tape keeps one flag per output, and
/// the sweep that calls it records only the result (for the next layer), where `linear` then
/// `relu` record the pre-activation for the ReLU's adjoint as well.
///
/// Shapes: `x` `[R][I]`, `w` `[O][I]`, `b` `[O]` -> `[R][O]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::linear_relu;
///
/// let x = [[1.0f32, 2.0]];
/// let w = [[1.0f32, 1.0], [-2.0, 0.0]];
/// assert_eq!(linear_relu(&x, &w, &[0.5, 1.0]), [[3.5, 0.0]]);
/// ```
#[must_use]
pub fn linear_relu<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
) -> [[f32; O]; R] {
    let mut y = linear(x, w, b);
    relu_in_place(y.as_flattened_mut());
    y
}

/// [`linear_relu`], recording which outputs are positive.
pub fn linear_relu_forward<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    tape: &mut LinearReluTape<R, I, O>,
) -> [[f32; O]; R] {
    let mut y = [[0.0; O]; R];
    linear_relu_forward_into(x, w, b, tape, &mut y);
    y
}

/// [`linear_relu_forward`] into `out`, every element of which it overwrites (see
/// [`linear_forward_into`]).
pub fn linear_relu_forward_into<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    tape: &mut LinearReluTape<R, I, O>,
    out: &mut [[f32; O]; R],
) {
    gemm::nt(x, w, Some(b), out);
    for (y, active) in out
        .as_flattened_mut()
        .iter_mut()
        .zip(tape.active.as_flattened_mut())
    {
        *active = *y > 0.0;
        *y = kept(*y, *active);
    }
}

/// Adds the cotangents of `x`, `w` and `b` into `d_x`, `d_w` and `d_b`: those of [`linear`] for
/// `d_out` with the entries the ReLU stopped set to 0 (its derivative at 0 is taken as 0).
///
/// Shapes: `x`, `d_x` `[R][I]`; `w`, `d_w` `[O][I]`; `b`, `d_b` `[O]`; `d_out` `[R][O]`.
#[allow(clippy::too_many_arguments)]
pub fn linear_relu_adjoint<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    tape: &LinearReluTape<R, I, O>,
    d_out: &[[f32; O]; R],
    d_x: &mut [[f32; I]; R],
    d_w: &mut [[f32; I]; O],
    d_b: &mut [f32; O],
) {
    let mut d_pre = [[0.0; O]; R];
    with_wide_vectors(Mask {
        d_pre: d_pre.as_flattened_mut(),
        d: d_out.as_flattened(),
        active: tape.active.as_flattened(),
    });
    linear_adjoint(x, w, b, &LinearTape::new(), &d_pre, d_x, d_w, d_b);
}

/// `d_pre = d` where the ReLU was active, `0` elsewhere, as a loop for [`with_wide_vectors`]
/// (baseline x86-64 code took about 2 % of a batch-64 GPT step here).
struct Mask<'a> {
    d_pre: &'a mut [f32],
    d: &'a [f32],
    active: &'a [bool],
}

impl WideLoop for Mask<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        for ((d_pre, &d), &active) in self.d_pre.iter_mut().zip(self.d).zip(self.active) {
            *d_pre = kept(d, active);
        }
    }
}

tape! {
    /// What [`linear_add_adjoint`] reads besides the arguments: nothing.
    pub struct LinearAddTape<const R: usize, const I: usize, const O: usize> {}
}

/// A linear layer added to a residual stream, `res + (x · wᵀ + b)`, in one pass over the output.
///
/// A transformer block's projections end this way. Fused, the sweep that calls it records
/// neither the layer's output nor a copy of it: `x = linear_add(&a, &w, &b, &x)` needs only `a`
/// (for `d_w`), where `o = linear(&a, ..)` then `residual_add(&x, &o)` records `o` as well.
/// The value is bit for bit that of `residual_add(res, &linear(x, w, b))`.
///
/// Shapes: `x` `[R][I]`, `w` `[O][I]`, `b` `[O]`, `res` `[R][O]` -> `[R][O]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::linear_add;
///
/// let x = [[1.0f32, 2.0]];
/// let w = [[1.0f32, 1.0], [-2.0, 0.0]];
/// assert_eq!(linear_add(&x, &w, &[0.5, 1.0], &[[10.0, 20.0]]), [[13.5, 19.0]]);
/// ```
#[must_use]
pub fn linear_add<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    res: &[[f32; O]; R],
) -> [[f32; O]; R] {
    let mut y = [[0.0; O]; R];
    linear_add_forward_into(x, w, b, res, &mut LinearAddTape::new(), &mut y);
    y
}

/// [`linear_add`], recording its (empty) tape.
pub fn linear_add_forward<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    res: &[[f32; O]; R],
    _tape: &mut LinearAddTape<R, I, O>,
) -> [[f32; O]; R] {
    linear_add(x, w, b, res)
}

/// [`linear_add_forward`] into `out`, every element of which it overwrites (see
/// [`linear_forward_into`]). `out` cannot be `res`: write the sum into a new place.
pub fn linear_add_forward_into<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    res: &[[f32; O]; R],
    _tape: &mut LinearAddTape<R, I, O>,
    out: &mut [[f32; O]; R],
) {
    gemm::nt(x, w, Some(b), out);
    for (y, res) in out.as_flattened_mut().iter_mut().zip(res.as_flattened()) {
        *y += res;
    }
}

/// Adds the cotangents of `x`, `w` and `b` (those of [`linear`]) into `d_x`, `d_w` and `d_b`,
/// and `d_out` into `d_res`.
///
/// Shapes: `x`, `d_x` `[R][I]`; `w`, `d_w` `[O][I]`; `b`, `d_b` `[O]`; `res`, `d_res`, `d_out`
/// `[R][O]`.
#[allow(clippy::too_many_arguments)]
pub fn linear_add_adjoint<const R: usize, const I: usize, const O: usize>(
    x: &[[f32; I]; R],
    w: &[[f32; I]; O],
    b: &[f32; O],
    _res: &[[f32; O]; R],
    _tape: &LinearAddTape<R, I, O>,
    d_out: &[[f32; O]; R],
    d_x: &mut [[f32; I]; R],
    d_w: &mut [[f32; I]; O],
    d_b: &mut [f32; O],
    d_res: &mut [[f32; O]; R],
) {
    linear_adjoint(x, w, b, &LinearTape::new(), d_out, d_x, d_w, d_b);
    for (d_res, d) in d_res
        .as_flattened_mut()
        .iter_mut()
        .zip(d_out.as_flattened())
    {
        *d_res += d;
    }
}
