//! The matrix-product kernels every product in [`crate::nn`] runs on.
//!
//! Shapes: `c` `[M][N]` (row-major, accumulated into), the inner dimension `K`:
//! - [`nn`]: `c += a · b`, `a` `[M][K]`, `b` `[K][N]`;
//! - [`tn`]: `c += aᵀ · b`, `a` `[K][M]`, `b` `[K][N]`;
//! - [`nt`]: `c += a · bᵀ`, `a` `[M][K]`, `b` `[N][K]`.
//!
//! Between them they cover the products of `linear` (`x · wᵀ`), its adjoint (`d_y · w`,
//! `d_yᵀ · x`), `matmul` and its adjoint without a transposed copy of any operand.
//!
//! # How
//!
//! All sizes are const generics, so each product is compiled for its own shape. `c` is cut into
//! column strips: the whole width when `N <= 32`, else strips of 32 columns (four 8-lane
//! vectors), then 16, 8 and single columns for the rest. A strip is swept `MR = 4` rows at a time
//! (8 for strips of at most 24 columns), holding that tile of `c` in registers over a block of
//! `KC = 256` inner indices: each inner step broadcasts one value of `a` per row, loads one
//! `W`-wide row of `b` and does `rows x W` fused multiply-adds, which the compiler turns into
//! vector instructions for the target. `b`'s rows are read in place where they are contiguous (`nn`, `tn`); `nt` first copies the strip's
//! `KC x W` panel of `b` transposed into a stack buffer (at most 32 KiB, so it stays in L1), in
//! 8 x 8 register blocks.
//!
//! Fused multiply-adds are used when the target has them (`-C target-cpu=native` on any x86-64 of
//! the last decade) and `std` is on (`f32::mul_add`); otherwise a multiply and an add.
//!
//! # Choice of kernel (measured)
//!
//! `cargo bench -p autodiff-runtime --bench matmul` times these kernels against the
//! `matrixmultiply` crate (0.3, run-time dispatch to AVX-512/FMA) on the GPT's shapes; the table
//! is in `BENCHMARKS.md`. With the project's `-C target-cpu=native` the two are within about 15 %
//! of each other on the forward products and these kernels are faster on the adjoint pairs
//! (1.0-3.1x) and at batch 1 (1.7-3.1x), where the shapes are known at compile time and no
//! packing buffer is needed. They stay because `matrixmultiply::sgemm` would also break the ops'
//! contract: it allocates its packing buffers on the heap at every call (the generated code and
//! the ops must not allocate, and a test counts allocations), needs `alloc` (this crate builds
//! without it), and is an `unsafe fn`. What the kernels do not do is use 512-bit vectors: the
//! compiler prefers 256-bit ones on this CPU, and changing that needs an unstable target feature
//! or `unsafe` intrinsics (loads and stores take raw pointers); that would be the next 2x for the
//! products.

use core::ops::Range;

use super::transpose8;

/// Rows of `c` per register tile.
const MR: usize = 4;
/// Widest column strip: four 8-lane vectors per row of the tile.
const NW: usize = 32;
/// Inner indices per block: a strip's rows of `b` (`KC x NW` floats, 32 KiB) stay in L1.
const KC: usize = 256;

/// `a * b + c`, fused where the target has FMA.
#[inline(always)]
fn fma(a: f32, b: f32, c: f32) -> f32 {
    #[cfg(all(feature = "std", target_feature = "fma"))]
    return a.mul_add(b, c);
    #[cfg(not(all(feature = "std", target_feature = "fma")))]
    return a * b + c;
}

/// `c[i][j0 .. j0 + W] += Σ_{p ∈ ks} a(i, p) · b(p)[..W]` for every row `i` of `c`, `MR` rows at a
/// time; with `init`, `c[i][j0 .. j0 + W] = init[j0 .. j0 + W] + ..` instead (`c` is not read).
#[inline(always)]
fn strip<'b, const W: usize, const M: usize, const N: usize>(
    c: &mut [[f32; N]; M],
    init: Option<&[f32; N]>,
    j0: usize,
    ks: Range<usize>,
    a: impl Fn(usize, usize) -> f32 + Copy,
    b: impl Fn(usize) -> &'b [f32; W] + Copy,
) {
    let mut i = 0;
    // Strips of up to three vectors have room in the 32 vector registers of AVX-512 for eight
    // rows at a time (24 accumulators), which halves the loads of `b` per multiply-add.
    if W <= 24 {
        while i + 2 * MR <= M {
            tile::<{ 2 * MR }, W, M, N>(c, init, i, j0, ks.clone(), a, b);
            i += 2 * MR;
        }
    }
    while i + MR <= M {
        tile::<MR, W, M, N>(c, init, i, j0, ks.clone(), a, b);
        i += MR;
    }
    while i < M {
        tile::<1, W, M, N>(c, init, i, j0, ks.clone(), a, b);
        i += 1;
    }
}

/// The register tile: rows `i0 .. i0 + R`, columns `j0 .. j0 + W` of `c`.
#[inline(always)]
fn tile<'b, const R: usize, const W: usize, const M: usize, const N: usize>(
    c: &mut [[f32; N]; M],
    init: Option<&[f32; N]>,
    i0: usize,
    j0: usize,
    ks: Range<usize>,
    a: impl Fn(usize, usize) -> f32,
    b: impl Fn(usize) -> &'b [f32; W],
) {
    let window = |row: &[f32; N]| -> [f32; W] {
        *row[j0..]
            .first_chunk::<W>()
            .expect("the strip lies inside c")
    };
    let mut acc: [[f32; W]; R] = match init {
        Some(row) => [window(row); R],
        None => core::array::from_fn(|r| window(&c[i0 + r])),
    };
    for p in ks {
        let b_row = b(p);
        for (r, acc_row) in acc.iter_mut().enumerate() {
            let a_ip = a(i0 + r, p);
            for (acc, &b_pj) in acc_row.iter_mut().zip(b_row) {
                *acc = fma(a_ip, b_pj, *acc);
            }
        }
    }
    for (r, acc_row) in acc.iter().enumerate() {
        c[i0 + r][j0..][..W].copy_from_slice(acc_row);
    }
}

/// A computation over one column strip of width `W` starting at column `j0`.
trait Strip {
    fn run<const W: usize>(&mut self, j0: usize);
}

/// Runs `f` over the column strips of an `N`-column `c`: the whole width when it is at most
/// `NW`, else strips of `NW`, then 16, 8 and 1 columns.
#[inline(always)]
fn each_strip<const N: usize>(f: &mut impl Strip) {
    if N <= NW {
        f.run::<N>(0);
        return;
    }
    let mut j = 0;
    while j + NW <= N {
        f.run::<NW>(j);
        j += NW;
    }
    if j + 16 <= N {
        f.run::<16>(j);
        j += 16;
    }
    if j + 8 <= N {
        f.run::<8>(j);
        j += 8;
    }
    while j < N {
        f.run::<1>(j);
        j += 1;
    }
}

/// The blocks of `KC` inner indices of `0..K`.
fn k_blocks<const K: usize>() -> impl Iterator<Item = Range<usize>> {
    (0..K).step_by(KC).map(|p| p..K.min(p + KC))
}

/// `c += a · b` for any `a` (element `(i, p)` is `a(i, p)`) and a row-major `b`, whose rows are
/// read in place: the body of [`nn`] and [`tn`].
#[inline(always)]
fn rows_of_b<const M: usize, const K: usize, const N: usize>(
    a: impl Fn(usize, usize) -> f32 + Copy,
    b: &[[f32; N]; K],
    c: &mut [[f32; N]; M],
) {
    struct RowsOfB<'x, A, const M: usize, const K: usize, const N: usize> {
        a: A,
        b: &'x [[f32; N]; K],
        c: &'x mut [[f32; N]; M],
        ks: Range<usize>,
    }
    impl<A: Fn(usize, usize) -> f32 + Copy, const M: usize, const K: usize, const N: usize> Strip
        for RowsOfB<'_, A, M, K, N>
    {
        #[inline(always)]
        fn run<const W: usize>(&mut self, j0: usize) {
            let b = self.b;
            strip::<W, M, N>(self.c, None, j0, self.ks.clone(), self.a, |p| {
                b[p][j0..]
                    .first_chunk::<W>()
                    .expect("the strip lies inside b")
            });
        }
    }
    for ks in k_blocks::<K>() {
        each_strip::<N>(&mut RowsOfB {
            a,
            b,
            c: &mut *c,
            ks,
        });
    }
}

/// `c += a · b`.
///
/// Shapes: `a` `[M][K]`, `b` `[K][N]`, `c` `[M][N]`.
pub(super) fn nn<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; N]; K],
    c: &mut [[f32; N]; M],
) {
    rows_of_b(|i, p| a[i][p], b, c);
}

/// `c += aᵀ · b`.
///
/// Shapes: `a` `[K][M]`, `b` `[K][N]`, `c` `[M][N]`.
pub(super) fn tn<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; M]; K],
    b: &[[f32; N]; K],
    c: &mut [[f32; N]; M],
) {
    rows_of_b(|i, p| a[p][i], b, c);
}

/// `c += a · bᵀ`; with `init`, `c = [init; M] + a · bᵀ` (the old `c` is not read: a linear
/// layer's bias goes in without a pass of its own).
///
/// Shapes: `a` `[M][K]`, `b` `[N][K]`, `c` `[M][N]`, `init` `[N]`.
pub(super) fn nt<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; K]; N],
    init: Option<&[f32; N]>,
    c: &mut [[f32; N]; M],
) {
    struct Nt<'x, const M: usize, const K: usize, const N: usize> {
        a: &'x [[f32; K]; M],
        b: &'x [[f32; K]; N],
        c: &'x mut [[f32; N]; M],
        init: Option<&'x [f32; N]>,
        ks: Range<usize>,
    }
    impl<const M: usize, const K: usize, const N: usize> Strip for Nt<'_, M, K, N> {
        #[inline(always)]
        fn run<const W: usize>(&mut self, j0: usize) {
            if K <= KC {
                self.packed::<W, K>(j0);
            } else {
                self.packed::<W, KC>(j0);
            }
        }
    }
    impl<const M: usize, const K: usize, const N: usize> Nt<'_, M, K, N> {
        /// The strip with its `P x W` panel of `bᵀ` copied to the stack first.
        #[inline(always)]
        fn packed<const W: usize, const P: usize>(&mut self, j0: usize) {
            let (a, b, ks) = (self.a, self.b, self.ks.clone());
            let pc = ks.start;
            let mut panel = [[0.0f32; W]; P];
            let rows = &b[j0..][..W];
            // 8 x 8 blocks through registers (an element loop became scattered stores), the
            // rest element by element.
            let (mut j8, mut p8) = (0, 0);
            if W.is_multiple_of(8) {
                p8 = ks.len() / 8 * 8;
                for jb in (0..W).step_by(8) {
                    for pb in (0..p8).step_by(8) {
                        let block: [[f32; 8]; 8] = core::array::from_fn(|j| {
                            *rows[jb + j][pc + pb..].first_chunk().expect("8 columns")
                        });
                        for (dst, src) in panel[pb..].iter_mut().zip(&transpose8(&block)) {
                            dst[jb..jb + 8].copy_from_slice(src);
                        }
                    }
                }
                j8 = W;
            }
            for (j, b_row) in rows.iter().enumerate() {
                let from = if j < j8 { p8 } else { 0 };
                for (dst, &x) in panel[from..].iter_mut().zip(&b_row[pc + from..ks.end]) {
                    dst[j] = x;
                }
            }
            let panel = &panel;
            strip::<W, M, N>(
                self.c,
                self.init,
                j0,
                ks,
                |i, p| a[i][p],
                |p| &panel[p - pc],
            );
        }
    }
    for ks in k_blocks::<K>() {
        // Only the first block starts from `init`; the others add to what it wrote.
        let init = if ks.start == 0 { init } else { None };
        each_strip::<N>(&mut Nt {
            a,
            b,
            c: &mut *c,
            init,
            ks,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small integers: every product below is exact in `f32`, fused or not.
    fn int_matrix<const R: usize, const C: usize>(seed: usize) -> [[f32; C]; R] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| ((i * 7 + j * 3 + seed) % 9) as f32 - 4.0)
        })
    }

    fn transpose<const R: usize, const C: usize>(m: &[[f32; C]; R]) -> [[f32; R]; C] {
        core::array::from_fn(|j| core::array::from_fn(|i| m[i][j]))
    }

    /// `c0 + a · b` by the textbook triple loop.
    fn reference<const M: usize, const K: usize, const N: usize>(
        a: &[[f32; K]; M],
        b: &[[f32; N]; K],
        c0: &[[f32; N]; M],
    ) -> [[f32; N]; M] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| c0[i][j] + (0..K).map(|p| a[i][p] * b[p][j]).sum::<f32>())
        })
    }

    /// The three kernels against the triple loop for one shape.
    fn check<const M: usize, const K: usize, const N: usize>() {
        let a = int_matrix::<M, K>(1);
        let b = int_matrix::<K, N>(2);
        let c0 = int_matrix::<M, N>(3);
        let expected = reference(&a, &b, &c0);
        let mut c = c0;
        nn(&a, &b, &mut c);
        assert_eq!(c, expected, "nn {M}x{K}x{N}");
        let mut c = c0;
        tn(&transpose(&a), &b, &mut c);
        assert_eq!(c, expected, "tn {M}x{K}x{N}");
        let mut c = c0;
        nt(&a, &transpose(&b), None, &mut c);
        assert_eq!(c, expected, "nt {M}x{K}x{N}");
        // With `init`: the old contents are ignored, `init` is every row's start.
        let mut c = [[f32::NAN; N]; M];
        nt(&a, &transpose(&b), Some(&c0[0]), &mut c);
        let zeros = [[0.0; N]; M];
        let mut expected = reference(&a, &b, &zeros);
        for row in &mut expected {
            for (x, b) in row.iter_mut().zip(&c0[0]) {
                *x += b;
            }
        }
        assert_eq!(c, expected, "nt with init {M}x{K}x{N}");
    }

    /// Every strip width (whole, 32, 16, 8, 1), whole and partial row tiles, and several `KC`
    /// blocks of the inner dimension.
    #[test]
    fn kernels_match_the_triple_loop_on_every_path() {
        check::<1, 1, 1>();
        check::<4, 3, 24>();
        check::<7, 5, 32>();
        check::<9, 24, 65>();
        check::<6, { 2 * KC + 3 }, 59>();
        check::<13, 17, 96>();
        check::<5, 96, 24>();
        check::<3, 8, 7>();
    }
}
