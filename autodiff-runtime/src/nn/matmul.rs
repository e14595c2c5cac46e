//! Matrix product `a · b`.
//!
//! Shapes: `a` `[M][K]`, `b` `[K][N]` -> `[M][N]`. The products run on the kernels of
//! `nn::gemm` (see there for how, and `BENCHMARKS.md` for how fast against `matrixmultiply`).

use super::gemm;

tape! {
    /// What [`matmul_adjoint`] reads besides the arguments: nothing.
    pub struct MatmulTape<const M: usize, const K: usize, const N: usize> {}
}

/// The matrix product `a · b`.
///
/// Shapes: `a` `[M][K]`, `b` `[K][N]` -> `[M][N]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::matmul;
///
/// let a = [[1.0f32, 2.0], [3.0, 4.0]];
/// let b = [[5.0f32, 6.0], [7.0, 8.0]];
/// assert_eq!(matmul(&a, &b), [[19.0, 22.0], [43.0, 50.0]]);
/// ```
#[must_use]
pub fn matmul<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; N]; K],
) -> [[f32; N]; M] {
    let mut c = [[0.0; N]; M];
    gemm::nn(a, b, &mut c);
    c
}

/// [`matmul`], recording its (empty) tape.
pub fn matmul_forward<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; N]; K],
    _tape: &mut MatmulTape<M, K, N>,
) -> [[f32; N]; M] {
    matmul(a, b)
}

/// [`matmul_forward`] into `out`, every element of which it overwrites: a caller's forward sweep
/// writes a recorded output straight into its tape slot, with no copy.
pub fn matmul_forward_into<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; N]; K],
    _tape: &mut MatmulTape<M, K, N>,
    out: &mut [[f32; N]; M],
) {
    *out = [[0.0; N]; M];
    gemm::nn(a, b, out);
}

/// Adds `d_out · bᵀ` into `d_a` and `aᵀ · d_out` into `d_b`.
///
/// Shapes: `a`, `d_a` `[M][K]`; `b`, `d_b` `[K][N]`; `d_out` `[M][N]`.
pub fn matmul_adjoint<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; N]; K],
    _tape: &MatmulTape<M, K, N>,
    d_out: &[[f32; N]; M],
    d_a: &mut [[f32; K]; M],
    d_b: &mut [[f32; N]; K],
) {
    gemm::nt(d_out, b, None, d_a);
    gemm::tn(a, d_out, d_b);
}
