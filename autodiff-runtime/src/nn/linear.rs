//! Fully connected layer `y = x · wᵀ + b` over a batch of rows.
//!
//! Shapes: `x` `[R][I]`, `w` `[O][I]` (one row per output, as in PyTorch), `b` `[O]`, `y` `[R][O]`.

use super::gemm;

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
