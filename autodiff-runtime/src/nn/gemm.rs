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
//! column strips (the whole width when it is narrow, else strips of a fixed width, then 16, 8 and
//! single columns for the rest). A strip is swept a few rows at a time, holding that tile of `c`
//! in registers over a block of `KC = 128` inner indices: each inner step broadcasts one value of
//! `a` per row, loads one `W`-wide row of `b` and does `rows x W` multiply-adds. A tile whose
//! width is a multiple of 8 is written in explicit vectors ([`TileVector`]: 16 lanes on the
//! AVX-512 path when the width is a multiple of 16, one 16-lane and one 8-lane vector a row when
//! it is 24 (the GPT's head width: in 8-lane vectors alone it ran at half the peak of a core with
//! two 512-bit FMA units), else 8 lanes of AVX2 registers, which AVX-512 gives 32 of); other
//! widths are left to the compiler to vectorize. `b`'s rows are
//! read in place where they are contiguous (`nn`, `tn`); `nt` first copies the strip's `KC x W` panel of `b` transposed into a
//! stack buffer (at most 16 KiB, so it stays in L1), in 8 x 8 register blocks (AVX2 shuffles
//! where the CPU has them: `wide::Lanes::transpose8`). With at most 8 rows that copy costs more
//! than the product, so `nt` computes `cᵀ += b · aᵀ` instead, reading `b`'s rows in place and
//! transposing only `a` and `c`, in the same blocks when there are 8 rows (same sums in the same
//! order: same bits).
//!
//! # One build for every x86-64
//!
//! The tile must fit in the vector registers, or the accumulators spill to the stack at every
//! step: 24 accumulators of 8 lanes fit AVX-512's 32 registers but not AVX2's 16. So the kernels
//! are compiled once per instruction set ([`Isa`]), each with its own strip width and rows per
//! tile, and the best one the CPU has is chosen when the product runs:
//!
//! | path | when | tile (rows x columns) | multiply-add |
//! | --- | --- | --- | --- |
//! | [`Avx512`] | AVX-512 F/VL/BW/DQ/CD | 8 x 24 (8 lanes), 8 x 32 (16 lanes) | fused |
//! | [`Avx2`] | AVX2 + FMA | 6 x 16, 8 x 8 | fused |
//! | [`Portable`] | anything else (SSE2, NEON, ...) | 6 x 8 | multiply, then add |
//!
//! With `std`, the choice is made at run time by the `pulp` crate (`is_x86_feature_detected!`
//! behind a safe token that compiles the kernel with those target features enabled), so this
//! crate needs no `unsafe` and a binary built for plain x86-64 runs the AVX2 or AVX-512 kernels
//! where the CPU has them; `STACKGRAD_MAX_ISA` caps the choice ([`crate::cpu`]). Without `std` the choice follows the target features of the build
//! (`-C target-cpu=...`), and multiply-adds are never fused (`core` has no `mul_add`). The paths
//! round differently (fused or not, different summation blocks never: every path sums `k` in
//! order), so their results agree up to float rounding; a test runs every path the CPU has
//! against the portable one.
//!
//! # Choice of kernel (measured)
//!
//! `cargo bench --bench matmul` times these kernels against the
//! `matrixmultiply` crate (0.3) and the `gemm` crate (0.19, the one candle uses) on the GPT's
//! shapes; the table is in `BENCHMARKS.md`. On an AVX2 core the three are within about 20 % of
//! each other on the forward products, these kernels are faster at batch 1, and the libraries
//! are up to 1.4x faster on some adjoint pairs. The kernels stay anyway, because both libraries
//! break the ops' contract: they keep packing buffers on the heap (per call or per thread), so
//! they need `alloc` (this crate builds without it), and they are `unsafe fn`s taking raw
//! pointers (this crate has no `unsafe`).

use core::ops::Range;

use crate::cpu::{VectorPath as Path, vector_path};
use crate::wide::{Lanes, Plain, fused};

/// Inner indices per block: a strip's rows of `b` (`KC x W` floats) stay in L1 beside the
/// elements of `a` the tile reads. With `KC = 256`, `tn`'s 6 x 16 AVX2 tiles on the GPT's
/// `[512][24]ᵀ · [512][96]` read 16 KiB of `b` and one line of `a` per inner index, 32 KiB in
/// all, the size of L1: the batch-64 step on the AVX2 path was 3-4 % faster with 128 and
/// unchanged on the AVX-512 path (64 was slower again; BENCHMARKS).
const KC: usize = 128;

/// An instruction set the kernels are compiled for: what their register tiles must fit in.
pub(crate) trait Isa {
    /// `f32` lanes per vector register, as the tiles count them.
    const LANES: usize;
    /// Vector registers.
    const REGS: usize;
    /// Widest `c` swept as one strip; a wider one is cut into strips of [`Isa::STRIP`] columns.
    const WHOLE: usize;
    /// Width of the strips of a wide `c`.
    const STRIP: usize;
    /// Whether a multiply-add is one fused instruction (with `std`, which has `mul_add`).
    const FMA: bool;
    /// Eight-lane operations (the 8 x 8 register transposes) for this instruction set.
    fn lanes() -> impl Lanes;
    /// Whether strips whose width is a multiple of 16 are held in 16-lane vectors.
    const ZMM: bool = false;
    /// The 16-lane vectors, where [`Isa::ZMM`].
    fn zmm() -> impl TileVector {
        Eight(Plain)
    }
}

/// AVX2's eight-lane operations, for the two paths that have it.
#[inline(always)]
fn avx2_lanes() -> impl Lanes {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    return pulp::x86::V3::try_new().expect("the AVX2 and AVX-512 paths run where AVX2 is");
    #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
    Plain
}

/// Any CPU: 16 registers of 4 lanes (SSE2 on every x86-64; NEON has twice the registers). On
/// x86 with `std` the portable path runs [`Product::portable`] instead, and this only in tests.
#[cfg_attr(
    all(
        feature = "std",
        any(target_arch = "x86", target_arch = "x86_64"),
        not(test)
    ),
    allow(dead_code)
)]
pub(crate) enum Portable {}

impl Isa for Portable {
    const LANES: usize = 4;
    const REGS: usize = 16;
    const WHOLE: usize = 8;
    const STRIP: usize = 8;
    const FMA: bool = false;

    #[inline(always)]
    fn lanes() -> impl Lanes {
        Plain
    }
}

/// AVX2 + FMA: 16 registers of 8 lanes.
pub(crate) enum Avx2 {}

impl Isa for Avx2 {
    const LANES: usize = 8;
    const REGS: usize = 16;
    const WHOLE: usize = 16;
    const STRIP: usize = 16;
    const FMA: bool = true;

    #[inline(always)]
    fn lanes() -> impl Lanes {
        avx2_lanes()
    }
}

/// AVX-512: 32 registers, counted as 8 lanes; strips whose width is a multiple of 16 are held
/// in 16-lane vectors ([`Isa::ZMM`]), the 24-column whole strip in 8-lane ones.
pub(crate) enum Avx512 {}

impl Isa for Avx512 {
    const LANES: usize = 8;
    const REGS: usize = 32;
    const WHOLE: usize = 24;
    const STRIP: usize = 32;
    const FMA: bool = true;
    const ZMM: bool = cfg!(all(
        feature = "std",
        any(target_arch = "x86", target_arch = "x86_64")
    ));

    #[inline(always)]
    fn lanes() -> impl Lanes {
        avx2_lanes()
    }

    #[inline(always)]
    fn zmm() -> impl TileVector {
        #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
        return pulp::x86::V4::try_new().expect("the AVX-512 path runs where AVX-512 is");
        #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
        Eight(Plain)
    }
}

/// The vectors a register tile is held in: 8 lanes of [`Lanes`], or AVX-512's 16.
pub(crate) trait TileVector: Copy {
    type V: Copy;
    /// Lanes per vector.
    const LANES: usize;
    fn splat(self, x: f32) -> Self::V;
    /// The first [`TileVector::LANES`] floats of `x`.
    fn load(self, x: &[f32]) -> Self::V;
    /// Into the first [`TileVector::LANES`] floats of `out`.
    fn store(self, v: Self::V, out: &mut [f32]);
    /// `a * b + c`, fused (see [`Lanes::mul_add`]).
    fn mul_add(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `a * b + c`, a multiply then an add.
    fn mul_then_add(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
}

/// Eight lanes.
#[derive(Clone, Copy)]
pub(crate) struct Eight<L>(L);

impl<L: Lanes> TileVector for Eight<L> {
    type V = L::F32x8;
    const LANES: usize = 8;

    #[inline(always)]
    fn splat(self, x: f32) -> L::F32x8 {
        self.0.splat(x)
    }

    #[inline(always)]
    fn load(self, x: &[f32]) -> L::F32x8 {
        self.0.load(x.first_chunk().expect("8 floats"))
    }

    #[inline(always)]
    fn store(self, v: L::F32x8, out: &mut [f32]) {
        out[..8].copy_from_slice(&self.0.store(v));
    }

    #[inline(always)]
    fn mul_add(self, a: L::F32x8, b: L::F32x8, c: L::F32x8) -> L::F32x8 {
        self.0.mul_add(a, b, c)
    }

    #[inline(always)]
    fn mul_then_add(self, a: L::F32x8, b: L::F32x8, c: L::F32x8) -> L::F32x8 {
        self.0.add(self.0.mul(a, b), c)
    }
}

/// AVX-512's 16 lanes: on a core with two 512-bit FMA units (most Xeons) twice the
/// multiply-adds per cycle of 8-lane vectors; on one that splits them (Zen 4) the same.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
impl TileVector for pulp::x86::V4 {
    type V = pulp::f32x16;
    const LANES: usize = 16;

    #[inline(always)]
    fn splat(self, x: f32) -> pulp::f32x16 {
        self.splat_f32x16(x)
    }

    #[inline(always)]
    fn load(self, x: &[f32]) -> pulp::f32x16 {
        pulp::bytemuck::cast(*x.first_chunk::<16>().expect("16 floats"))
    }

    #[inline(always)]
    fn store(self, v: pulp::f32x16, out: &mut [f32]) {
        out[..16].copy_from_slice(&pulp::bytemuck::cast::<_, [f32; 16]>(v));
    }

    #[inline(always)]
    fn mul_add(self, a: pulp::f32x16, b: pulp::f32x16, c: pulp::f32x16) -> pulp::f32x16 {
        self.mul_add_f32x16(a, b, c)
    }

    #[inline(always)]
    fn mul_then_add(self, a: pulp::f32x16, b: pulp::f32x16, c: pulp::f32x16) -> pulp::f32x16 {
        self.add_f32x16(self.mul_f32x16(a, b), c)
    }
}

/// Rows per register tile for a strip `w` columns wide: as many as fit in the registers beside
/// the row of `b` and one broadcast value of `a`, rounded down to 8, 6, 4, 2 or 1.
const fn tile_rows<I: Isa>(w: usize) -> usize {
    let lanes = if I::ZMM && w.is_multiple_of(16) {
        16
    } else {
        I::LANES
    };
    let vectors = w.div_ceil(lanes);
    let fit = I::REGS.saturating_sub(vectors + 1) / vectors;
    match fit {
        8.. => 8,
        6 | 7 => 6,
        4 | 5 => 4,
        2 | 3 => 2,
        _ => 1,
    }
}

/// A product to run with the kernels of one [`Isa`].
trait Product {
    fn run<I: Isa>(self);

    /// The product on the portable path of an x86 CPU (one without AVX2 and FMA, or capped by
    /// `STACKGRAD_MAX_ISA`): by [`runtime_dims`], the shapes passed as data, so that the user's
    /// crate compiles one copy for every shape instead of one per shape (a third of the GPT
    /// example's release rebuild went to these copies). Each element starts from the same value
    /// and adds the same products in the same order as `run::<Portable>`, so the results are
    /// the same bit for bit.
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    fn portable(self);
}

/// Runs `product` with the fastest kernels the CPU has ([`vector_path`]: capped by
/// `STACKGRAD_MAX_ISA`).
#[inline(always)]
fn dispatch(product: impl Product) {
    run_on(vector_path(), product);
}

/// Runs `product` on `path`.
///
/// # Panics
///
/// If this CPU cannot run `path`.
#[inline(always)]
fn run_on(path: Path, product: impl Product) {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    match path {
        Path::Portable => product.portable(),
        Path::Avx2 => pulp::x86::V3::try_new()
            .expect("this CPU has AVX2 and FMA")
            .vectorize(OnIsa::<_, Avx2>(product, core::marker::PhantomData)),
        Path::Avx512 => pulp::x86::V4::try_new()
            .expect("this CPU has AVX-512")
            .vectorize(OnIsa::<_, Avx512>(product, core::marker::PhantomData)),
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
    {
        assert!(path.runs_here(), "{path:?} is not enabled in this build");
        match path {
            Path::Portable => product.run::<Portable>(),
            Path::Avx2 => product.run::<Avx2>(),
            Path::Avx512 => product.run::<Avx512>(),
        }
    }
}

/// `product` run with the kernels of `I`, as `pulp` calls it: inlined for certain into the
/// function it compiles with the path's target features. A closure would not do: its body is a
/// function of its own, which rustc did not inline for the larger products, so their vector
/// intrinsics became calls (the adjoint of a linear layer ran 70x slower on AVX2).
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
struct OnIsa<P, I>(P, core::marker::PhantomData<I>);

#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
impl<P: Product, I: Isa> pulp::NullaryFnOnce for OnIsa<P, I> {
    type Output = ();

    #[inline(always)]
    fn call(self) {
        self.0.run::<I>();
    }
}

/// `a * b + c`, fused where the path has FMA.
#[inline(always)]
fn fma<I: Isa>(a: f32, b: f32, c: f32) -> f32 {
    if I::FMA { fused(a, b, c) } else { a * b + c }
}

/// `c[i][j0 .. j0 + W] += Σ_{p ∈ ks} a(i, p) · b(p)[..W]` for every row `i` of `c`, a register
/// tile of rows at a time; with `init`, `c[i][j0 .. j0 + W] = init[j0 .. j0 + W] + ..` instead
/// (`c` is not read).
#[inline(always)]
fn strip<'b, I: Isa, const W: usize, K: Kind<W>, const M: usize, const N: usize>(
    c: &mut [[f32; N]; M],
    init: Option<&[f32; N]>,
    j0: usize,
    ks: Range<usize>,
    a: impl Fn(usize, usize) -> f32 + Copy,
    b: impl Fn(usize) -> &'b [f32; W] + Copy,
) {
    let mut i = 0;
    // The largest tile that fits first, then smaller ones for the rows left over. Each condition
    // is a `const` block, so a tile height the width does not use is never compiled.
    if const { tile_rows::<I>(W) >= 8 } {
        i = tiles::<I, 8, W, K, M, N>(c, init, i, j0, &ks, a, b);
    }
    if const { tile_rows::<I>(W) >= 6 } {
        i = tiles::<I, 6, W, K, M, N>(c, init, i, j0, &ks, a, b);
    }
    if const { tile_rows::<I>(W) >= 4 } {
        i = tiles::<I, 4, W, K, M, N>(c, init, i, j0, &ks, a, b);
    }
    if const { tile_rows::<I>(W) >= 2 } {
        i = tiles::<I, 2, W, K, M, N>(c, init, i, j0, &ks, a, b);
    }
    tiles::<I, 1, W, K, M, N>(c, init, i, j0, &ks, a, b);
}

/// Tiles of `R` rows from row `i` on, while they fit; returns the first row left.
#[inline(always)]
fn tiles<'b, I: Isa, const R: usize, const W: usize, K: Kind<W>, const M: usize, const N: usize>(
    c: &mut [[f32; N]; M],
    init: Option<&[f32; N]>,
    mut i: usize,
    j0: usize,
    ks: &Range<usize>,
    a: impl Fn(usize, usize) -> f32 + Copy,
    b: impl Fn(usize) -> &'b [f32; W] + Copy,
) -> usize {
    while i + R <= M {
        K::tile::<I, R, M, N>(Tile { c, init, i0: i, j0 }, ks.clone(), a, b);
        i += R;
    }
    i
}

/// How a register tile of `W` columns is held: rows `i0 .. i0 + R`, columns `j0 .. j0 + W` of
/// `c`. A strip of whole vectors is held as [`TileVector`]s (written so, not left to the
/// compiler: with AVX-512 enabled it vectorized a 24-column tile in 16 lanes and shuffled rows
/// across halves); any other width as floats ([`Floats`]).
///
/// The kind is a type that [`each_strip`] names for each strip it runs, not a choice a tile makes
/// from `W`: rustc's monomorphization walks every function a generic function mentions, also in
/// `if const` branches it never compiles, so a tile choosing among eight kernels had rustc walk
/// all eight for every product shape, path, strip width and tile height (BENCHMARKS, "Compile
/// time").
trait Kind<const W: usize> {
    fn tile<'b, I: Isa, const R: usize, const M: usize, const N: usize>(
        t: Tile<'_, M, N>,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; W],
    );
}

/// One 8-lane vector a row.
enum V8 {}
/// One 16-lane vector a row where the path has them ([`Isa::ZMM`]), else two of 8.
enum V16 {}
/// One 16-lane and one 8-lane vector a row where the path has 16 lanes, else three of 8.
enum V24 {}
/// Two 16-lane vectors a row where the path has them, else four of 8.
enum V32 {}
/// `W` floats a row, for the compiler to vectorize (widths not a multiple of 8).
enum Floats {}

impl Kind<8> for V8 {
    #[inline(always)]
    fn tile<'b, I: Isa, const R: usize, const M: usize, const N: usize>(
        t: Tile<'_, M, N>,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; 8],
    ) {
        t.vectors::<I, R, 1, 8, _>(Eight(I::lanes()), ks, a, b);
    }
}

impl Kind<16> for V16 {
    #[inline(always)]
    fn tile<'b, I: Isa, const R: usize, const M: usize, const N: usize>(
        t: Tile<'_, M, N>,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; 16],
    ) {
        if const { I::ZMM } {
            t.vectors::<I, R, 1, 16, _>(I::zmm(), ks, a, b);
        } else {
            t.vectors::<I, R, 2, 16, _>(Eight(I::lanes()), ks, a, b);
        }
    }
}

impl Kind<24> for V24 {
    #[inline(always)]
    fn tile<'b, I: Isa, const R: usize, const M: usize, const N: usize>(
        t: Tile<'_, M, N>,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; 24],
    ) {
        if const { I::ZMM } {
            t.wide_and_eight::<I, R, 24, _, _>(I::zmm(), Eight(I::lanes()), ks, a, b);
        } else {
            t.vectors::<I, R, 3, 24, _>(Eight(I::lanes()), ks, a, b);
        }
    }
}

impl Kind<32> for V32 {
    #[inline(always)]
    fn tile<'b, I: Isa, const R: usize, const M: usize, const N: usize>(
        t: Tile<'_, M, N>,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; 32],
    ) {
        if const { I::ZMM } {
            t.vectors::<I, R, 2, 32, _>(I::zmm(), ks, a, b);
        } else {
            t.vectors::<I, R, 4, 32, _>(Eight(I::lanes()), ks, a, b);
        }
    }
}

impl<const W: usize> Kind<W> for Floats {
    #[inline(always)]
    fn tile<'b, I: Isa, const R: usize, const M: usize, const N: usize>(
        t: Tile<'_, M, N>,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; W],
    ) {
        t.floats::<I, R, W>(ks, a, b);
    }
}

/// Where a register tile lies in `c`, and the row it starts from instead of `c` (`init`).
struct Tile<'c, const M: usize, const N: usize> {
    c: &'c mut [[f32; N]; M],
    init: Option<&'c [f32; N]>,
    i0: usize,
    j0: usize,
}

impl<const M: usize, const N: usize> Tile<'_, M, N> {
    /// `W` columns of row `r` of the tile's start (`init` or `c`).
    #[inline(always)]
    fn start<const W: usize>(&self, r: usize) -> &[f32; W] {
        let row = self.init.unwrap_or(&self.c[self.i0 + r]);
        row[self.j0..]
            .first_chunk::<W>()
            .expect("the strip lies inside c")
    }

    /// The tile as `V` vectors of `T` per row (`W = T::LANES V`).
    #[inline(always)]
    fn vectors<'b, I: Isa, const R: usize, const V: usize, const W: usize, T: TileVector>(
        self,
        t: T,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; W],
    ) {
        debug_assert_eq!(W, T::LANES * V);
        let chunk = |row: &[f32; W], v: usize| -> T::V { t.load(&row[T::LANES * v..]) };
        let mut acc: [[T::V; V]; R] =
            core::array::from_fn(|r| core::array::from_fn(|v| chunk(self.start::<W>(r), v)));
        for p in ks {
            let b_row = b(p);
            let b_p: [T::V; V] = core::array::from_fn(|v| chunk(b_row, v));
            for (r, acc_row) in acc.iter_mut().enumerate() {
                let a_ip = t.splat(a(self.i0 + r, p));
                for (acc, &b_pv) in acc_row.iter_mut().zip(&b_p) {
                    *acc = if I::FMA {
                        t.mul_add(a_ip, b_pv, *acc)
                    } else {
                        t.mul_then_add(a_ip, b_pv, *acc)
                    };
                }
            }
        }
        for (r, acc_row) in acc.iter().enumerate() {
            let row = &mut self.c[self.i0 + r][self.j0..];
            for (v, &acc) in acc_row.iter().enumerate() {
                t.store(acc, &mut row[T::LANES * v..]);
            }
        }
    }

    /// The tile as one 16-lane and one 8-lane vector per row (`W = 24` on the AVX-512 path):
    /// in 8-lane vectors alone it would issue at half the rate of a core with two 512-bit FMA
    /// units. Each element's sum is the one [`Tile::vectors`] computes, in the same order.
    #[inline(always)]
    fn wide_and_eight<'b, I: Isa, const R: usize, const W: usize, T: TileVector, E: TileVector>(
        self,
        t: T,
        e: E,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; W],
    ) {
        debug_assert_eq!(W, T::LANES + E::LANES);
        let halves = |row: &[f32; W]| (t.load(row), e.load(&row[T::LANES..]));
        let mut acc: [(T::V, E::V); R] = core::array::from_fn(|r| halves(self.start::<W>(r)));
        for p in ks {
            let (b_t, b_e) = halves(b(p));
            for (r, (acc_t, acc_e)) in acc.iter_mut().enumerate() {
                let a_ip = a(self.i0 + r, p);
                let (a_t, a_e) = (t.splat(a_ip), e.splat(a_ip));
                if I::FMA {
                    *acc_t = t.mul_add(a_t, b_t, *acc_t);
                    *acc_e = e.mul_add(a_e, b_e, *acc_e);
                } else {
                    *acc_t = t.mul_then_add(a_t, b_t, *acc_t);
                    *acc_e = e.mul_then_add(a_e, b_e, *acc_e);
                }
            }
        }
        for (r, &(acc_t, acc_e)) in acc.iter().enumerate() {
            let row = &mut self.c[self.i0 + r][self.j0..];
            t.store(acc_t, row);
            e.store(acc_e, &mut row[T::LANES..]);
        }
    }

    /// The tile as `W` floats per row, for the compiler to vectorize (widths not a multiple
    /// of 8: a whole narrow `c`, single columns).
    #[inline(always)]
    fn floats<'b, I: Isa, const R: usize, const W: usize>(
        self,
        ks: Range<usize>,
        a: impl Fn(usize, usize) -> f32,
        b: impl Fn(usize) -> &'b [f32; W],
    ) {
        let mut acc: [[f32; W]; R] = core::array::from_fn(|r| *self.start::<W>(r));
        for p in ks {
            let b_row = b(p);
            for (r, acc_row) in acc.iter_mut().enumerate() {
                let a_ip = a(self.i0 + r, p);
                for (acc, &b_pj) in acc_row.iter_mut().zip(b_row) {
                    *acc = fma::<I>(a_ip, b_pj, *acc);
                }
            }
        }
        for (r, acc_row) in acc.iter().enumerate() {
            self.c[self.i0 + r][self.j0..][..W].copy_from_slice(acc_row);
        }
    }
}

/// A computation over one column strip of width `W` starting at column `j0`, its tiles held
/// as `K` says.
trait Strip {
    fn run<I: Isa, const W: usize, K: Kind<W>>(&mut self, j0: usize);
}

/// Runs `f` over the column strips of an `N`-column `c`: the whole width when it is at most
/// `I::WHOLE`, else strips of `I::STRIP`, then 16, 8 and 1 columns. Every choice is a `const`
/// block, so only the widths `N` needs are compiled, and each names the kind of its tiles.
#[inline(always)]
fn each_strip<I: Isa, const N: usize>(f: &mut impl Strip) {
    if const { N <= I::WHOLE } {
        // The kind of a whole strip `N` wide: `N` is a constant here, the kinds' widths are
        // literals, so each branch names its own.
        if const { N == 8 } {
            f.run::<I, 8, V8>(0);
        } else if const { N == 16 } {
            f.run::<I, 16, V16>(0);
        } else if const { N == 24 } {
            f.run::<I, 24, V24>(0);
        } else {
            f.run::<I, N, Floats>(0);
        }
        return;
    }
    let strips = const { N / I::STRIP };
    for s in 0..strips {
        // `I::STRIP` is one of these widths: a const generic cannot be an associated const.
        let j = s * I::STRIP;
        if const { I::STRIP == 32 } {
            f.run::<I, 32, V32>(j);
        } else if const { I::STRIP == 16 } {
            f.run::<I, 16, V16>(j);
        } else {
            f.run::<I, 8, V8>(j);
        }
    }
    let mut j = strips * I::STRIP;
    if const { N % I::STRIP >= 16 } {
        f.run::<I, 16, V16>(j);
        j += 16;
    }
    if const { (N % I::STRIP) % 16 >= 8 } {
        f.run::<I, 8, V8>(j);
        j += 8;
    }
    if const { !(N % I::STRIP).is_multiple_of(8) } {
        while j < N {
            f.run::<I, 1, Floats>(j);
            j += 1;
        }
    }
}

/// The blocks of `KC` inner indices of `0..K`.
fn k_blocks<const K: usize>() -> impl Iterator<Item = Range<usize>> {
    (0..K).step_by(KC).map(|p| p..K.min(p + KC))
}

/// `c += a · b` for any `a` (element `(i, p)` is `a(i, p)`) and a row-major `b`, whose rows are
/// read in place: the body of [`nn`] and [`tn`].
#[inline(always)]
fn rows_of_b<I: Isa, const M: usize, const K: usize, const N: usize>(
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
        fn run<I: Isa, const W: usize, T: Kind<W>>(&mut self, j0: usize) {
            let b = self.b;
            strip::<I, W, T, M, N>(self.c, None, j0, self.ks.clone(), self.a, |p| {
                b[p][j0..]
                    .first_chunk::<W>()
                    .expect("the strip lies inside b")
            });
        }
    }
    for ks in k_blocks::<K>() {
        each_strip::<I, N>(&mut RowsOfB {
            a,
            b,
            c: &mut *c,
            ks,
        });
    }
}

/// The product of [`nn`].
struct Nn<'x, const M: usize, const K: usize, const N: usize> {
    a: &'x [[f32; K]; M],
    b: &'x [[f32; N]; K],
    c: &'x mut [[f32; N]; M],
}

impl<const M: usize, const K: usize, const N: usize> Product for Nn<'_, M, K, N> {
    #[inline(always)]
    fn run<I: Isa>(self) {
        let a = self.a;
        rows_of_b::<I, M, K, N>(|i, p| a[i][p], self.b, self.c);
    }

    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    fn portable(self) {
        let dims = runtime_dims::Dims { m: M, k: K, n: N };
        runtime_dims::rows_of_b(
            dims,
            false,
            self.a.as_flattened(),
            self.b.as_flattened(),
            self.c.as_flattened_mut(),
        );
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
    dispatch(Nn { a, b, c });
}

/// The product of [`tn`].
struct Tn<'x, const M: usize, const K: usize, const N: usize> {
    a: &'x [[f32; M]; K],
    b: &'x [[f32; N]; K],
    c: &'x mut [[f32; N]; M],
}

impl<const M: usize, const K: usize, const N: usize> Product for Tn<'_, M, K, N> {
    #[inline(always)]
    fn run<I: Isa>(self) {
        let a = self.a;
        rows_of_b::<I, M, K, N>(|i, p| a[p][i], self.b, self.c);
    }

    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    fn portable(self) {
        let dims = runtime_dims::Dims { m: M, k: K, n: N };
        runtime_dims::rows_of_b(
            dims,
            true,
            self.a.as_flattened(),
            self.b.as_flattened(),
            self.c.as_flattened_mut(),
        );
    }
}

/// `c += aᵀ · b`.
///
/// Shapes: `a` `[K][M]`, `b` `[K][N]`, `c` `[M][N]`.
pub(super) fn tn<const M: usize, const K: usize, const N: usize>(
    a: &[[f32; M]; K],
    b: &[[f32; N]; K],
    c: &mut [[f32; N]; M],
) {
    dispatch(Tn { a, b, c });
}

/// The product of [`nt`].
struct Nt<'x, const M: usize, const K: usize, const N: usize> {
    a: &'x [[f32; K]; M],
    b: &'x [[f32; K]; N],
    init: Option<&'x [f32; N]>,
    c: &'x mut [[f32; N]; M],
}

impl<const M: usize, const K: usize, const N: usize> Product for Nt<'_, M, K, N> {
    #[inline(always)]
    fn run<I: Isa>(self) {
        /// One block of inner indices `ks` of [`nt`].
        struct Block<'x, const M: usize, const K: usize, const N: usize> {
            a: &'x [[f32; K]; M],
            b: &'x [[f32; K]; N],
            c: &'x mut [[f32; N]; M],
            init: Option<&'x [f32; N]>,
            ks: Range<usize>,
        }
        impl<const M: usize, const K: usize, const N: usize> Strip for Block<'_, M, K, N> {
            #[inline(always)]
            fn run<I: Isa, const W: usize, T: Kind<W>>(&mut self, j0: usize) {
                if const { K <= KC } {
                    self.packed::<I, W, T, K>(j0);
                } else {
                    self.packed::<I, W, T, KC>(j0);
                }
            }
        }
        impl<const M: usize, const K: usize, const N: usize> Block<'_, M, K, N> {
            /// The strip with its `P x W` panel of `bᵀ` copied to the stack first.
            #[inline(always)]
            fn packed<I: Isa, const W: usize, T: Kind<W>, const P: usize>(&mut self, j0: usize) {
                let (a, b, ks) = (self.a, self.b, self.ks.clone());
                let pc = ks.start;
                let mut panel = [[0.0f32; W]; P];
                let rows = &b[j0..][..W];
                // 8 x 8 blocks through registers (an element loop became scattered stores), the
                // rest element by element.
                let (mut j8, mut p8) = (0, 0);
                let lanes = I::lanes();
                if W.is_multiple_of(8) {
                    p8 = ks.len() / 8 * 8;
                    for jb in (0..W).step_by(8) {
                        for pb in (0..p8).step_by(8) {
                            let block: [[f32; 8]; 8] = core::array::from_fn(|j| {
                                *rows[jb + j][pc + pb..].first_chunk().expect("8 columns")
                            });
                            for (dst, src) in panel[pb..].iter_mut().zip(&lanes.transpose8(&block))
                            {
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
                strip::<I, W, T, M, N>(
                    self.c,
                    self.init,
                    j0,
                    ks,
                    |i, p| a[i][p],
                    |p| &panel[p - pc],
                );
            }
        }
        let Nt { a, b, init, c } = self;
        // A `const` block: a shape compiles one of the two routes.
        if const { few_rows::<M, K, N>() } {
            transposed::<I, M, K, N>(a, b, init, c);
            return;
        }
        for ks in k_blocks::<K>() {
            // Only the first block starts from `init`; the others add to what it wrote.
            let init = if ks.start == 0 { init } else { None };
            each_strip::<I, N>(&mut Block {
                a,
                b,
                c: &mut *c,
                init,
                ks,
            });
        }
    }

    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    fn portable(self) {
        let dims = runtime_dims::Dims { m: M, k: K, n: N };
        let init = self.init.map(|v| v.as_slice());
        runtime_dims::nt(
            dims,
            self.a.as_flattened(),
            self.b.as_flattened(),
            init,
            self.c.as_flattened_mut(),
        );
    }
}

/// The portable path's products with the shapes as data, compiled once in this crate (see
/// [`Product::portable`]). Plain loops: LLVM vectorizes the row updates of [`rows_of_b`] with
/// the baseline SSE2; a CPU that takes this path has no wider vectors to use.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
mod runtime_dims {
    /// `c` is `m x n`, the inner dimension `k`.
    #[derive(Clone, Copy)]
    pub(super) struct Dims {
        pub m: usize,
        pub k: usize,
        pub n: usize,
    }

    /// `c += a · b` (`a` `m x k`), or `c += aᵀ · b` with `a_t` (`a` `k x m`); `b` is `k x n`.
    /// Each element adds its products in the order of `p`, unfused, from its old value.
    pub(super) fn rows_of_b(d: Dims, a_t: bool, a: &[f32], b: &[f32], c: &mut [f32]) {
        let Dims { m, k, n } = d;
        if k == 0 || n == 0 {
            return;
        }
        for (i, c_row) in c.chunks_exact_mut(n).take(m).enumerate() {
            for (p, b_row) in b.chunks_exact(n).take(k).enumerate() {
                let x = if a_t { a[p * m + i] } else { a[i * k + p] };
                for (c, &y) in c_row.iter_mut().zip(b_row) {
                    *c += x * y;
                }
            }
        }
    }

    /// `c += a · bᵀ` (`b` `n x k`); with `init`, each row of `c` starts from `init` instead.
    pub(super) fn nt(d: Dims, a: &[f32], b: &[f32], init: Option<&[f32]>, c: &mut [f32]) {
        let Dims { k, n, .. } = d;
        if n == 0 {
            return;
        }
        if k == 0 {
            if let Some(v) = init {
                c.chunks_exact_mut(n).for_each(|row| row.copy_from_slice(v));
            }
            return;
        }
        for (a_row, c_row) in a.chunks_exact(k).zip(c.chunks_exact_mut(n)) {
            for (j, (c, b_row)) in c_row.iter_mut().zip(b.chunks_exact(k)).enumerate() {
                let mut s = init.map_or(*c, |v| v[j]);
                for (&x, &y) in a_row.iter().zip(b_row) {
                    s += x * y;
                }
                *c = s;
            }
        }
    }
}

/// Rows of `c` up to which [`nt`] computes `cᵀ += b · aᵀ` instead, and the largest transposed
/// copy (floats) it keeps on the stack for that.
const FEW_ROWS: usize = 8;
const TRANSPOSED_FLOATS: usize = 8 * 1024;

/// Whether [`nt`] takes the transposed route: with few rows, copying `bᵀ`'s panels (`K x N`
/// floats, every call) costs more than the product itself (at `M = 8, K = 24, N = 96` the packing
/// took two thirds of the time), while transposing `a` and `c` moves only `(K + 2 N) M` floats.
const fn few_rows<const M: usize, const K: usize, const N: usize>() -> bool {
    M <= FEW_ROWS && K * M <= TRANSPOSED_FLOATS && N * M <= TRANSPOSED_FLOATS
}

/// [`nt`] as `cᵀ += b · aᵀ`: the rows of `b` are read in place, `a` and `c` are transposed on
/// the stack. Each element starts from the same value (`init` or `c`) and adds the same products
/// in the same order as the packed route, so the results are the same bit for bit.
#[inline(always)]
fn transposed<I: Isa, const M: usize, const K: usize, const N: usize>(
    a: &[[f32; K]; M],
    b: &[[f32; K]; N],
    init: Option<&[f32; N]>,
    c: &mut [[f32; N]; M],
) {
    let lanes = I::lanes();
    let mut a_t = [[0.0f32; M]; K];
    transpose_rows(lanes, |i| &a[i], &mut a_t);
    let mut c_t = [[0.0f32; M]; N];
    transpose_rows(lanes, |i| init.unwrap_or(&c[i]), &mut c_t);
    rows_of_b::<I, N, K, M>(|j, p| b[j][p], &a_t, &mut c_t);
    transpose_rows(lanes, |j| &c_t[j], c);
}

/// `dst[p][i] = row(i)[p]`: the transpose of `R` rows of `C` floats, in 8 x 8 register blocks
/// (with a batch of one sequence in the GPT, `R` or `C` is 8), the rest element by element.
#[inline(always)]
fn transpose_rows<'r, const R: usize, const C: usize>(
    lanes: impl Lanes,
    row: impl Fn(usize) -> &'r [f32; C],
    dst: &mut [[f32; R]; C],
) {
    let (r8, c8) = (R / 8 * 8, C / 8 * 8);
    for i in (0..r8).step_by(8) {
        for p in (0..c8).step_by(8) {
            let block: [[f32; 8]; 8] =
                core::array::from_fn(|k| *row(i + k)[p..].first_chunk().expect("8 columns"));
            for (dst, src) in dst[p..].iter_mut().zip(&lanes.transpose8(&block)) {
                dst[i..i + 8].copy_from_slice(src);
            }
        }
    }
    for i in 0..R {
        let from = if i < r8 { c8 } else { 0 };
        for (dst, &x) in dst[from..].iter_mut().zip(&row(i)[from..]) {
            dst[i] = x;
        }
    }
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
    dispatch(Nt { a, b, init, c });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::boxed::Box;
    use std::println;
    use std::vec::Vec;

    /// Small integers: every product below is exact in `f32`, fused or not.
    fn int_matrix<const R: usize, const C: usize>(seed: usize) -> [[f32; C]; R] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| ((i * 7 + j * 3 + seed) % 9) as f32 - 4.0)
        })
    }

    /// Values in `[-1, 1)` whose products round: the paths may differ in the last bits.
    fn float_matrix<const R: usize, const C: usize>(seed: u32) -> [[f32; C]; R] {
        let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        core::array::from_fn(|_| {
            core::array::from_fn(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
            })
        })
    }

    /// On the heap: a debug build's nested `from_fn` of a `512 x 96` matrix kept several copies
    /// on the stack and overflowed the test thread's 2 MiB.
    fn transpose<const R: usize, const C: usize>(m: &[[f32; C]; R]) -> Box<[[f32; R]; C]> {
        let mut t: Box<[[f32; R]; C]> = std::vec![[0.0f32; R]; C]
            .into_boxed_slice()
            .try_into()
            .expect("C rows");
        for (i, row) in m.iter().enumerate() {
            for (j, &x) in row.iter().enumerate() {
                t[j][i] = x;
            }
        }
        t
    }

    /// The portable path's two forms agree bit for bit: generic over the shapes (the only path
    /// on other architectures) and with the shapes as data (x86).
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    #[test]
    fn the_portable_forms_agree() {
        fn check<const M: usize, const K: usize, const N: usize>() {
            let (a, b) = (float_matrix::<M, K>(1), float_matrix::<K, N>(2));
            let (a_t, b_t) = (transpose(&a), transpose(&b));
            let c0 = float_matrix::<M, N>(3);
            let (mut x, mut y) = (Box::new(c0), Box::new(c0));
            Nn {
                a: &a,
                b: &b,
                c: &mut x,
            }
            .run::<Portable>();
            Nn {
                a: &a,
                b: &b,
                c: &mut y,
            }
            .portable();
            assert_eq!(x, y, "nn {M} {K} {N}");
            let (mut x, mut y) = (Box::new(c0), Box::new(c0));
            Tn {
                a: &a_t,
                b: &b,
                c: &mut x,
            }
            .run::<Portable>();
            Tn {
                a: &a_t,
                b: &b,
                c: &mut y,
            }
            .portable();
            assert_eq!(x, y, "tn {M} {K} {N}");
            for init in [None, Some(&c0[0])] {
                let (mut x, mut y) = (Box::new(c0), Box::new(c0));
                let (a, b) = (&a, &*b_t);
                Nt {
                    a,
                    b,
                    init,
                    c: &mut x,
                }
                .run::<Portable>();
                Nt {
                    a,
                    b,
                    init,
                    c: &mut y,
                }
                .portable();
                assert_eq!(x, y, "nt {M} {K} {N} {}", init.is_some());
            }
        }
        check::<3, 5, 7>();
        check::<8, 24, 96>();
        check::<2, 16, 8>();
        check::<17, 300, 40>();
        check::<64, 64, 33>();
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

    /// `c0 + a · b` by each kernel on `path`: `nn`, `tn`, `nt`, and `nt` starting from `init =
    /// c0[0]` (its result then has `c0[0]` in every row).
    fn products<const M: usize, const K: usize, const N: usize>(
        path: Path,
        a: &[[f32; K]; M],
        b: &[[f32; N]; K],
        c0: &[[f32; N]; M],
    ) -> [Box<[[f32; N]; M]>; 4] {
        let mut out = [(); 4].map(|()| Box::new(*c0));
        let [c_nn, c_tn, c_nt, c_init] = &mut out;
        run_on(path, Nn { a, b, c: c_nn });
        let a_t = transpose(a);
        run_on(
            path,
            Tn {
                a: &a_t,
                b,
                c: c_tn,
            },
        );
        let b_t = transpose(b);
        let (a, b) = (a, &*b_t);
        run_on(
            path,
            Nt {
                a,
                b,
                init: None,
                c: c_nt,
            },
        );
        **c_init = [[f32::NAN; N]; M];
        let init = Some(&c0[0]);
        run_on(
            path,
            Nt {
                a,
                b,
                init,
                c: c_init,
            },
        );
        out
    }

    const NAMES: [&str; 4] = ["nn", "tn", "nt", "nt with init"];

    /// The kernels of every path against the triple loop for one shape, exactly.
    fn check<const M: usize, const K: usize, const N: usize>() {
        let a = int_matrix::<M, K>(1);
        let b = int_matrix::<K, N>(2);
        let c0 = int_matrix::<M, N>(3);
        let expected = reference(&a, &b, &c0);
        let mut expected_init = reference(&a, &b, &[[0.0; N]; M]);
        for row in &mut expected_init {
            for (x, b) in row.iter_mut().zip(&c0[0]) {
                *x += b;
            }
        }
        for path in Path::available() {
            let got = products(path, &a, &b, &c0);
            for ((got, name), expected) in
                got.iter()
                    .zip(NAMES)
                    .zip([&expected, &expected, &expected, &expected_init])
            {
                assert_eq!(**got, *expected, "{path:?} {name} {M}x{K}x{N}");
            }
        }
    }

    /// Every strip width (whole, 32, 16, 8, 1), whole and partial row tiles, and several `KC`
    /// blocks of the inner dimension, on every path.
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
        check::<11, 4, 41>();
    }

    /// Every path this CPU has against the portable one on rounded values, at the GPT's shapes:
    /// equal up to the rounding of `K` multiply-adds (fused or not).
    fn agree<const M: usize, const K: usize, const N: usize>() {
        let a = float_matrix::<M, K>(1);
        let b = float_matrix::<K, N>(2);
        let c0 = float_matrix::<M, N>(3);
        let portable = products(Path::Portable, &a, &b, &c0);
        // Each term and the sum are at most K + 1 in size; each of K steps rounds once or twice.
        let tolerance = 2.0 * (K + 1) as f32 * (K + 1) as f32 * f32::EPSILON;
        for path in Path::available() {
            let got = products(path, &a, &b, &c0);
            for ((got, want), name) in got.iter().zip(&portable).zip(NAMES) {
                let (worst, at) = got
                    .as_flattened()
                    .iter()
                    .zip(want.as_flattened())
                    .map(|(g, w)| (g - w).abs())
                    .enumerate()
                    .fold(
                        (0.0f32, 0),
                        |(m, at), (k, d)| if d > m { (d, k) } else { (m, at) },
                    );
                assert!(
                    worst <= tolerance,
                    "{path:?} {name} {M}x{K}x{N}: off by {worst:e} at {at} (> {tolerance:e}); \
                     first entries {:?} against {:?}",
                    &got.as_flattened()[..4],
                    &want.as_flattened()[..4],
                );
            }
        }
    }

    /// [`nt`] on few rows (the transposed route) gives the same bits as the packed route on
    /// more rows, on every path: rounded values, with `init` and accumulating into `c`.
    #[test]
    fn transposed_nt_rounds_like_the_packed_one() {
        fn case<const K: usize, const N: usize>() {
            assert!(few_rows::<FEW_ROWS, K, N>() && !few_rows::<{ 2 * FEW_ROWS }, K, N>());
            let a = float_matrix::<{ 2 * FEW_ROWS }, K>(4);
            let b = float_matrix::<N, K>(5);
            let c0 = float_matrix::<{ 2 * FEW_ROWS }, N>(6);
            let few: &[[f32; K]; FEW_ROWS] = a[..FEW_ROWS].try_into().unwrap();
            let few_c0: &[[f32; N]; FEW_ROWS] = c0[..FEW_ROWS].try_into().unwrap();
            for path in Path::available() {
                for init in [None, Some(&c0[1])] {
                    let mut packed = c0;
                    run_on(
                        path,
                        Nt {
                            a: &a,
                            b: &b,
                            init,
                            c: &mut packed,
                        },
                    );
                    let mut transposed = *few_c0;
                    run_on(
                        path,
                        Nt {
                            a: few,
                            b: &b,
                            init,
                            c: &mut transposed,
                        },
                    );
                    let bits = |m: &[[f32; N]]| -> Vec<u32> {
                        m.as_flattened().iter().map(|x| x.to_bits()).collect()
                    };
                    assert_eq!(
                        bits(&transposed),
                        bits(&packed[..FEW_ROWS]),
                        "{path:?} {K}x{N}, init {}",
                        init.is_some()
                    );
                }
            }
        }
        case::<24, 96>();
        case::<96, 24>();
        case::<24, 65>();
        case::<{ KC + 5 }, 13>();
    }

    #[test]
    fn every_path_agrees_with_the_portable_one() {
        println!(
            "kernel paths on this CPU: {:?}",
            Path::available().collect::<Vec<_>>()
        );
        agree::<512, 24, 96>();
        agree::<512, 96, 24>();
        agree::<512, 24, 65>();
        agree::<96, 512, 24>();
        agree::<8, 24, 96>();
        agree::<8, 8, 8>();
    }
}
