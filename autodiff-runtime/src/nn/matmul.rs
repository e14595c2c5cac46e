//! Matrix product, and the blocked kernel every matrix product in [`crate::nn`] runs on.
//!
//! Shapes: `a` `[M][K]`, `b` `[K][N]`, `c` `[M][N]`.
//!
//! # Choice of kernel (measured)
//!
//! `cargo bench -p autodiff-runtime --bench matmul` on the shapes of the miniature GPT (rows x in
//! -> out), median time per call, against `matrixmultiply` 0.3.11 (default features: runtime
//! detection of AVX2/FMA/AVX-512) on an Intel Xeon with AVX-512, one thread, release profile,
//! default target (x86-64 baseline, SSE2). The machine was shared (load 3-4 on 2 cores), so the
//! figures vary by about 20 % between runs; the ratios held in all three runs.
//!
//! | shape | product | this kernel | matrixmultiply | ratio |
//! | --- | --- | --- | --- | --- |
//! | 512 x 24 -> 96 | `linear` (`x · wᵀ + b`) | 287 µs | 93 µs | 3.1 |
//! | | `matmul` (`a · b`) | 198 µs | 70 µs | 2.8 |
//! | | `linear_adjoint` (`d_y · w`, `d_yᵀ · x`) | 491 µs | 192 µs | 2.6 |
//! | 512 x 96 -> 24 | `linear` | 234 µs | 103 µs | 2.3 |
//! | | `matmul` | 242 µs | 101 µs | 2.4 |
//! | | `linear_adjoint` | 686 µs | 166 µs | 4.1 |
//! | 512 x 24 -> 65 | `linear` | 314 µs | 114 µs | 2.8 |
//! | | `matmul` | 260 µs | 93 µs | 2.8 |
//! | | `linear_adjoint` | 430 µs | 153 µs | 2.8 |
//! | 8 x 24 -> 96 (batch 1) | `linear` | 8.6 µs | 4.5 µs | 1.9 |
//! | | `matmul` | 8.7 µs | 4.4 µs | 2.0 |
//! | | `linear_adjoint` | 11.2 µs | 5.9 µs | 1.9 |
//!
//! The crate is clearly faster here, by 2-4x, because it picks AVX-512 and FMA at run time while
//! this safe kernel is compiled for the baseline target (4-lane SSE2, no FMA). The kernel stays
//! anyway, because the crate cannot meet the contract of these ops: `matrixmultiply::sgemm`
//! allocates its packing buffers on the heap at every call (the ops must not allocate, and the
//! tests of the generated code count allocations), needs the `alloc` crate (this crate builds
//! without it), runs its generic kernel without run-time detection once `std` is off, and is an
//! `unsafe fn`. The gap closes with the target: the same kernel compiled with
//! `RUSTFLAGS="-C target-cpu=native"` (standalone, outside criterion) ran `512 x 24 -> 96` in
//! about 100-140 µs instead of 170-210 µs, as the compiler then vectorizes the row updates with
//! AVX-512. Revisit if the GPT's profile shows the products dominate: an opt-in `std` feature
//! that routes these calls to `matrixmultiply` would be the place.
//!
//! # The kernel
//!
//! [`gemm`] computes `c += a · b` for row-major `c` and operands given with any strides, so the
//! transposed products of the adjoints (`d_a += d_c · bᵀ`, `d_b += aᵀ · d_c`) and of
//! [`linear`](super::linear) (`x · wᵀ`) need no transposed copy. It copies `b` panel by panel
//! (`KC` rows by `NR` columns, zero-padded) into a 4 KiB stack buffer, and sweeps every group of `MR`
//! rows of `a` over the panel, keeping the `MR x NR` block of `c` in registers over the `KC`
//! products: the inner loop is a fixed-length row update that the compiler turns into vector
//! instructions (8 `mulps` + 8 `addps` per step with SSE2). The copy costs `K N` moves per call
//! against `M K N` products, and measured faster than reading a row-major `b` in place.

/// Rows of `c` computed together (and the number of `a` values broadcast per step); `block_from`
/// spells out its four rows.
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

/// `c += a · b` where `a` is `m x k`, `b` is `k x n` and `c` is row-major `m x n`
/// (`c.len() == m * n`).
pub(super) fn gemm(m: usize, k: usize, n: usize, a: Strided<'_>, b: Strided<'_>, c: &mut [f32]) {
    let mut panel = [[0.0f32; NR]; KC];
    for pc in (0..k).step_by(KC) {
        let kc = KC.min(k - pc);
        for jr in (0..n).step_by(NR) {
            let nr = NR.min(n - jr);
            for (p, row) in panel[..kc].iter_mut().enumerate() {
                for (j, x) in row.iter_mut().enumerate() {
                    *x = if j < nr { b.at(pc + p, jr + j) } else { 0.0 };
                }
            }
            for ic in (0..m).step_by(MR) {
                let block = block_from(a, m, ic, pc, kc, &panel[..kc]);
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

/// The `MR x NR` block `a[ic.., pc..pc + kc] · b_rows` (`kc` rows), choosing how to read the `MR`
/// values of a column of `a`: from `MR` row slices, from one contiguous run, or (at the bottom edge
/// of a transposed `a`) one by one. Rows past `m` repeat the last row; the caller drops them.
#[inline(always)]
fn block_from(
    a: Strided<'_>,
    m: usize,
    ic: usize,
    pc: usize,
    kc: usize,
    b_rows: &[[f32; NR]],
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
        let a_cols = (pc..pc + kc).map(|p| {
            let run = &a.data[p * a.cs + ic..][..MR];
            [run[0], run[1], run[2], run[3]]
        });
        block(a_cols, b_rows)
    } else {
        let a_cols = (pc..pc + kc).map(|p| core::array::from_fn(|i| a.at(row(i), p)));
        block(a_cols, b_rows)
    }
}

/// The micro-kernel: sums `a_col ⊗ b_row` over the paired columns of `a` and rows of `b`, in
/// registers.
#[inline(always)]
fn block(a_cols: impl Iterator<Item = [f32; MR]>, b_rows: &[[f32; NR]]) -> [[f32; NR]; MR] {
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
/// Shapes: `a`, `d_a` `[M][K]`; `b`, `d_b` `[K][N]`; `d_out` `[M][N]`.
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
