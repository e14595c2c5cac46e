//! Matrix product, and the blocked kernel every matrix product in [`crate::nn`] runs on.
//!
//! Shapes: `a` [M][K], `b` [K][N], `c` [M][N].
//!
//! # Choice of kernel (measured)
//!
//! MEASUREMENT_PLACEHOLDER
//!
//! # The kernel
//!
//! [`gemm`] computes `c += a · b` for row-major `c` and operands given with any strides, so the
//! transposed products of the adjoints (`d_a += d_c · bᵀ`, `d_b += aᵀ · d_c`) and of
//! [`linear`](super::linear) (`x · wᵀ`) need no transposed copy. It walks `b` in panels of `KC`
//! rows by `NR` columns (copied into a small stack buffer when `b` is not row-major or the panel is
//! narrower than `NR`) and, for each panel, every group of `MR` rows of `a`, keeping the `MR x NR`
//! block of `c` in registers over the `KC` products: the inner loop is a fixed-length row update
//! that the compiler turns into vector instructions.

/// Rows of `c` computed together (and the number of `a` values broadcast per step).
const MR: usize = 4;
/// Columns of `c` computed together: two 4-lane or one 8-lane vector per row.
const NR: usize = 8;
/// Rows of a panel of `b`; the packed panel (`KC * NR` floats, 4 KiB) stays in L1.
const KC: usize = 128;

/// A read-only matrix: element `(i, j)` is `data[i * rs + j * cs]`.
#[derive(Clone, Copy)]
pub(super) struct Strided<'a> {
    data: &'a [f32],
    rs: usize,
    cs: usize,
}

impl<'a> Strided<'a> {
    /// The matrix stored in `m`, one array per row.
    pub(super) fn rows<const C: usize>(m: &'a [[f32; C]]) -> Self {
        Strided {
            data: m.as_flattened(),
            rs: C,
            cs: 1,
        }
    }

    /// The transpose of the matrix stored in `m`: its rows are the columns of `m`.
    pub(super) fn transposed<const C: usize>(m: &'a [[f32; C]]) -> Self {
        Strided {
            data: m.as_flattened(),
            rs: 1,
            cs: C,
        }
    }

    fn at(self, i: usize, j: usize) -> f32 {
        self.data[i * self.rs + j * self.cs]
    }
}

/// `c += a · b` where `a` is `m x k`, `b` is `k x n` and `c` is row-major `m x n` (`c.len() == m * n`).
pub(super) fn gemm(m: usize, k: usize, n: usize, a: Strided<'_>, b: Strided<'_>, c: &mut [f32]) {
    let mut panel = [[0.0f32; NR]; KC];
    for pc in (0..k).step_by(KC) {
        let kc = KC.min(k - pc);
        for jr in (0..n).step_by(NR) {
            let nr = NR.min(n - jr);
            let direct = b.cs == 1 && nr == NR;
            if !direct {
                for (p, row) in panel[..kc].iter_mut().enumerate() {
                    for (j, x) in row.iter_mut().enumerate() {
                        *x = if j < nr { b.at(pc + p, jr + j) } else { 0.0 };
                    }
                }
            }
            for ic in (0..m).step_by(MR) {
                let block = if direct {
                    let b_rows = b.data[pc * b.rs + jr..]
                        .chunks(b.rs)
                        .take(kc)
                        .map_while(<[f32]>::first_chunk::<NR>);
                    block_from(a, m, ic, pc, kc, b_rows)
                } else {
                    block_from(a, m, ic, pc, kc, panel[..kc].iter())
                };
                for (i, acc) in block.iter().enumerate().take(m - ic) {
                    let c_row = &mut c[(ic + i) * n + jr..][..nr];
                    for (c, x) in c_row.iter_mut().zip(acc) {
                        *c += x;
                    }
                }
            }
        }
    }
}

/// The `MR x NR` block `a[ic.., pc..pc + kc] · b_rows`, choosing how to read the `MR` values of a
/// column of `a`: from `MR` row slices, from one contiguous run, or (at the bottom edge of a
/// transposed `a`) one by one. Rows past `m` repeat the last row; the caller drops them.
#[inline(always)]
fn block_from<'b>(
    a: Strided<'_>,
    m: usize,
    ic: usize,
    pc: usize,
    kc: usize,
    b_rows: impl Iterator<Item = &'b [f32; NR]>,
) -> [[f32; NR]; MR] {
    let row = |i: usize| (ic + i).min(m - 1);
    if a.cs == 1 {
        let r = |i: usize| &a.data[row(i) * a.rs + pc..][..kc];
        let a_cols = r(0)
            .iter()
            .zip(r(1))
            .zip(r(2))
            .zip(r(3))
            .map(|(((&a0, &a1), &a2), &a3)| [a0, a1, a2, a3]);
        block(a_cols, b_rows)
    } else if a.rs == 1 && ic + MR <= m {
        let a_cols = a.data[pc * a.cs + ic..]
            .chunks(a.cs)
            .take(kc)
            .map_while(<[f32]>::first_chunk::<MR>)
            .copied();
        block(a_cols, b_rows)
    } else {
        let a_cols = (pc..pc + kc).map(|p| core::array::from_fn(|i| a.at(row(i), p)));
        block(a_cols, b_rows)
    }
}

/// The micro-kernel: sums `a_col ⊗ b_row` over the paired columns of `a` and rows of `b`, in
/// registers.
#[inline(always)]
fn block<'b>(
    a_cols: impl Iterator<Item = [f32; MR]>,
    b_rows: impl Iterator<Item = &'b [f32; NR]>,
) -> [[f32; NR]; MR] {
    let mut acc = [[0.0f32; NR]; MR];
    for (a_col, b_row) in a_cols.zip(b_rows) {
        for (acc_row, &a) in acc.iter_mut().zip(&a_col) {
            for (acc, &b) in acc_row.iter_mut().zip(b_row) {
                *acc += a * b;
            }
        }
    }
    acc
}

tape! {
    /// What [`matmul_adjoint`] reads besides the arguments: nothing.
    pub struct MatmulTape<const M: usize, const K: usize, const N: usize> {}
}

/// The matrix product `a · b`.
///
/// Shapes: `a` [M][K], `b` [K][N] -> [M][N].
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
    gemm(
        M,
        K,
        N,
        Strided::rows(a),
        Strided::rows(b),
        c.as_flattened_mut(),
    );
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

/// Adds `d_out · bᵀ` into `d_a` and `aᵀ · d_out` into `d_b`.
///
/// Shapes: `a`, `d_a` [M][K]; `b`, `d_b` [K][N]; `d_out` [M][N].
pub fn matmul_adjoint<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; N]; K],
    _tape: &MatmulTape<M, K, N>,
    d_out: [[f32; N]; M],
    d_a: &mut [[f32; K]; M],
    d_b: &mut [[f32; N]; K],
) {
    gemm(
        M,
        N,
        K,
        Strided::rows(&d_out),
        Strided::transposed(b),
        d_a.as_flattened_mut(),
    );
    gemm(
        K,
        M,
        N,
        Strided::transposed(a),
        Strided::rows(&d_out),
        d_b.as_flattened_mut(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path of the kernel (row-major and transposed operands, edges in all three dimensions,
    /// several `KC` panels) against the textbook triple loop on small integers, which are exact.
    #[test]
    fn gemm_matches_the_triple_loop_on_every_path() {
        const M: usize = 7;
        const K: usize = 2 * KC + 3;
        const N: usize = 2 * NR + 3;
        let a: [[f32; K]; M] =
            core::array::from_fn(|i| core::array::from_fn(|p| ((i * 3 + p) % 5) as f32 - 2.0));
        let b: [[f32; N]; K] =
            core::array::from_fn(|p| core::array::from_fn(|j| ((p + 2 * j) % 7) as f32 - 3.0));
        let at: [[f32; M]; K] = core::array::from_fn(|p| core::array::from_fn(|i| a[i][p]));
        let bt: [[f32; K]; N] = core::array::from_fn(|j| core::array::from_fn(|p| b[p][j]));
        let expected: [[f32; N]; M] = core::array::from_fn(|i| {
            core::array::from_fn(|j| (0..K).map(|p| a[i][p] * b[p][j]).sum::<f32>() + 1.0)
        });
        let operands = [
            (Strided::rows(&a), Strided::rows(&b)),
            (Strided::rows(&a), Strided::transposed(&bt)),
            (Strided::transposed(&at), Strided::rows(&b)),
            (Strided::transposed(&at), Strided::transposed(&bt)),
        ];
        for (case, (sa, sb)) in operands.into_iter().enumerate() {
            let mut c = [[1.0f32; N]; M];
            gemm(M, K, N, sa, sb, c.as_flattened_mut());
            assert_eq!(c, expected, "operand layout {case}");
        }
    }
}
