//! Running an element-wise loop compiled for the widest vectors the CPU has.
//!
//! A build for plain x86-64 vectorizes loops with SSE2: four `f32` lanes, and a register file so
//! small that a loop with many constants (AdamW's update has eight) spills them to the stack. The
//! same loop compiled with AVX2 enabled works on eight lanes in sixteen wider registers. With
//! `std` on x86, [`with_wide_vectors`] detects AVX2 and FMA at run time (through `pulp`, which
//! needs no `unsafe` here) and runs the loop compiled with them, or with AVX-512 where the CPU
//! has that too (the same eight-lane operations with 32 registers instead of 16, and the
//! compiler free to use 16-lane vectors: on a Zen 4 core the GPT step was about 2 % faster);
//! elsewhere it runs it as is. `STACKGRAD_MAX_ISA` caps the choice as it caps the matrix
//! kernels' ([`crate::cpu`]).
//! (The matrix kernels in `nn::gemm` have a dispatch of their own: each instruction set there
//! also needs its own register tile, so they are generic over it; an element-wise loop is not.)
//!
//! The results are the same bit for bit either way: Rust never fuses a multiply and an add on its
//! own, and every other operation (`sqrt` and division included) rounds the same at every width.
//!
//! A loop over short rows with sums in it (layer norm) is not vectorized well by the compiler
//! even so: it keeps each lane's chain of additions scalar. Such a loop is written against
//! [`Lanes`], eight `f32` lanes with explicit operations, and [`with_lanes`] runs it on AVX2
//! registers or on plain arrays, again with the same bits.

use crate::cpu::VectorPath;

/// A loop to run with [`with_wide_vectors`]. Its [`WideLoop::run`] must be `#[inline(always)]`
/// (and so must what it calls in its hot loop): only code inlined into the function compiled with
/// AVX2 enabled is compiled that way. A closure would not do: its body is a function of its own,
/// which the compiler is free not to inline.
pub(crate) trait WideLoop {
    type Output;
    fn run(self) -> Self::Output;
}

/// Runs `body` compiled with AVX2 and FMA enabled where the CPU has them (see the module's doc):
/// a [`with_lanes`] loop that does not use its lanes.
#[inline(always)]
pub(crate) fn with_wide_vectors<L: WideLoop>(body: L) -> L::Output {
    with_lanes(Wide(body))
}

/// A [`WideLoop`] as a [`LanesLoop`].
struct Wide<L>(L);

impl<L: WideLoop> LanesLoop for Wide<L> {
    type Output = L::Output;

    #[inline(always)]
    fn run<S: Lanes>(self, _: S) -> L::Output {
        self.0.run()
    }
}

/// Eight `f32` lanes, for loops whose sums the compiler will not vectorize on its own: it keeps
/// a sum over a short row in the scalar order it was written in, lane by lane, where the same
/// additions fit one vector register. A loop written against this trait (a [`LanesLoop`]) is
/// compiled twice: over [`Plain`] arrays, and over AVX2 registers where the CPU has them. Each
/// operation rounds every lane the same way in both (no fused multiply-add), and [`Lanes::store`]
/// hands the lanes back as an array, so the results are the same bit for bit.
pub(crate) trait Lanes: Copy {
    /// Eight lanes.
    type F32x8: Copy;
    fn splat(self, x: f32) -> Self::F32x8;
    fn load(self, x: &[f32; 8]) -> Self::F32x8;
    fn store(self, v: Self::F32x8) -> [f32; 8];
    fn add(self, a: Self::F32x8, b: Self::F32x8) -> Self::F32x8;
    fn sub(self, a: Self::F32x8, b: Self::F32x8) -> Self::F32x8;
    fn mul(self, a: Self::F32x8, b: Self::F32x8) -> Self::F32x8;
    /// `a * b + c`, fused on AVX2 + FMA registers; on [`Plain`] arrays, fused with `std` and a
    /// multiply then an add without it (`core` has no `mul_add`). The one operation that does
    /// not round alike everywhere: it is for the matrix kernels, whose paths differ in this
    /// anyway (`nn::gemm`), not for loops that must give the same bits on every CPU.
    fn mul_add(self, a: Self::F32x8, b: Self::F32x8, c: Self::F32x8) -> Self::F32x8;
    /// The transpose of an 8 x 8 block, through registers.
    fn transpose8(self, r: &[[f32; 8]; 8]) -> [[f32; 8]; 8];
    /// `x` where `h > 0`, `+0.0` elsewhere (a ReLU's mask; a NaN `h` masks), lane by lane as
    /// [`kept`].
    fn where_positive(self, x: Self::F32x8, h: Self::F32x8) -> Self::F32x8;
}

/// `x` where `keep`, else `+0.0` (a ReLU and its derivative's mask), as a bit mask: a loop of it
/// vectorizes to a compare and an `and`. Over a buffer updated in place, compiled with AVX2,
/// the compiler still makes it a masked store (`vmaskmovps`) of the zeros, which AMD cores run
/// as microcode (the feed-forward network's mask took 4.5 % of a batch-64 GPT step); such a
/// loop is written with [`Lanes::where_positive`] instead.
#[inline(always)]
pub(crate) fn kept(x: f32, keep: bool) -> f32 {
    f32::from_bits(x.to_bits() & u32::from(keep).wrapping_neg())
}

/// `a * b + c` in one rounding: `mul_add` needs `std`; `core` has no fused multiply-add, so
/// without `std` it is a multiply and an add.
#[inline(always)]
pub(crate) fn fused(a: f32, b: f32, c: f32) -> f32 {
    #[cfg(feature = "std")]
    return a.mul_add(b, c);
    #[cfg(not(feature = "std"))]
    return a * b + c;
}

/// Eight lanes as an array: any CPU.
#[derive(Clone, Copy)]
pub(crate) struct Plain;

impl Lanes for Plain {
    type F32x8 = [f32; 8];

    #[inline(always)]
    fn splat(self, x: f32) -> [f32; 8] {
        [x; 8]
    }

    #[inline(always)]
    fn load(self, x: &[f32; 8]) -> [f32; 8] {
        *x
    }

    #[inline(always)]
    fn store(self, v: [f32; 8]) -> [f32; 8] {
        v
    }

    #[inline(always)]
    fn add(self, a: [f32; 8], b: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|j| a[j] + b[j])
    }

    #[inline(always)]
    fn sub(self, a: [f32; 8], b: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|j| a[j] - b[j])
    }

    #[inline(always)]
    fn mul(self, a: [f32; 8], b: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|j| a[j] * b[j])
    }

    #[inline(always)]
    fn mul_add(self, a: [f32; 8], b: [f32; 8], c: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|j| fused(a[j], b[j], c[j]))
    }

    #[inline(always)]
    fn transpose8(self, r: &[[f32; 8]; 8]) -> [[f32; 8]; 8] {
        plain_transpose8(r)
    }

    #[inline(always)]
    fn where_positive(self, x: [f32; 8], h: [f32; 8]) -> [f32; 8] {
        core::array::from_fn(|j| kept(x[j], h[j] > 0.0))
    }
}

/// [`Plain`]'s transpose: the interleaving steps of a register transpose, which the compiler
/// may turn into vector shuffles (a plain index loop became gathers and scatters, several times
/// slower; in some contexts these steps stay element moves too, hence [`Lanes::transpose8`]).
#[inline(always)]
fn plain_transpose8(r: &[[f32; 8]; 8]) -> [[f32; 8]; 8] {
    type V = [f32; 8];
    let lo = |a: V, b: V| [a[0], b[0], a[1], b[1], a[4], b[4], a[5], b[5]];
    let hi = |a: V, b: V| [a[2], b[2], a[3], b[3], a[6], b[6], a[7], b[7]];
    let lo64 = |a: V, b: V| [a[0], a[1], b[0], b[1], a[4], a[5], b[4], b[5]];
    let hi64 = |a: V, b: V| [a[2], a[3], b[2], b[3], a[6], a[7], b[6], b[7]];
    let lo128 = |a: V, b: V| [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]];
    let hi128 = |a: V, b: V| [a[4], a[5], a[6], a[7], b[4], b[5], b[6], b[7]];
    let t = [
        lo(r[0], r[1]),
        hi(r[0], r[1]),
        lo(r[2], r[3]),
        hi(r[2], r[3]),
        lo(r[4], r[5]),
        hi(r[4], r[5]),
        lo(r[6], r[7]),
        hi(r[6], r[7]),
    ];
    let u = [
        lo64(t[0], t[2]),
        hi64(t[0], t[2]),
        lo64(t[1], t[3]),
        hi64(t[1], t[3]),
        lo64(t[4], t[6]),
        hi64(t[4], t[6]),
        lo64(t[5], t[7]),
        hi64(t[5], t[7]),
    ];
    [
        lo128(u[0], u[4]),
        lo128(u[1], u[5]),
        lo128(u[2], u[6]),
        lo128(u[3], u[7]),
        hi128(u[0], u[4]),
        hi128(u[1], u[5]),
        hi128(u[2], u[6]),
        hi128(u[3], u[7]),
    ]
}

#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
impl Lanes for pulp::x86::V3 {
    type F32x8 = pulp::f32x8;

    #[inline(always)]
    fn splat(self, x: f32) -> pulp::f32x8 {
        self.splat_f32x8(x)
    }

    #[inline(always)]
    fn load(self, x: &[f32; 8]) -> pulp::f32x8 {
        pulp::bytemuck::cast(*x)
    }

    #[inline(always)]
    fn store(self, v: pulp::f32x8) -> [f32; 8] {
        pulp::bytemuck::cast(v)
    }

    #[inline(always)]
    fn add(self, a: pulp::f32x8, b: pulp::f32x8) -> pulp::f32x8 {
        self.add_f32x8(a, b)
    }

    #[inline(always)]
    fn sub(self, a: pulp::f32x8, b: pulp::f32x8) -> pulp::f32x8 {
        self.sub_f32x8(a, b)
    }

    #[inline(always)]
    fn mul(self, a: pulp::f32x8, b: pulp::f32x8) -> pulp::f32x8 {
        self.mul_f32x8(a, b)
    }

    #[inline(always)]
    fn mul_add(self, a: pulp::f32x8, b: pulp::f32x8, c: pulp::f32x8) -> pulp::f32x8 {
        self.mul_add_f32x8(a, b, c)
    }

    /// Pairs of rows interleaved (`unpcklps`/`unpckhps`), then pairs of pairs (`shufps`), then
    /// the 128-bit halves (`vperm2f128`): 24 shuffles.
    #[inline(always)]
    fn transpose8(self, r: &[[f32; 8]; 8]) -> [[f32; 8]; 8] {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::__m256;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::__m256;
        let avx = self.avx;
        let r: [__m256; 8] = r.map(pulp::bytemuck::cast);
        let t: [__m256; 8] = core::array::from_fn(|i| {
            let (a, b) = (r[i & !1], r[i | 1]);
            if i % 2 == 0 {
                avx._mm256_unpacklo_ps(a, b)
            } else {
                avx._mm256_unpackhi_ps(a, b)
            }
        });
        let u: [__m256; 8] = core::array::from_fn(|i| {
            let (a, b) = (t[i / 4 * 4 + i / 2 % 2], t[i / 4 * 4 + i / 2 % 2 + 2]);
            if i % 2 == 0 {
                avx._mm256_shuffle_ps::<0x44>(a, b)
            } else {
                avx._mm256_shuffle_ps::<0xEE>(a, b)
            }
        });
        let out: [__m256; 8] = core::array::from_fn(|i| {
            if i < 4 {
                avx._mm256_permute2f128_ps::<0x20>(u[i], u[i + 4])
            } else {
                avx._mm256_permute2f128_ps::<0x31>(u[i - 4], u[i])
            }
        });
        out.map(pulp::bytemuck::cast)
    }

    /// A compare (`vcmpps`, ordered: a NaN compares false) and an `and`: as a select (a blend
    /// with zero), the compiler made the masking of a buffer in place a masked store again.
    #[inline(always)]
    fn where_positive(self, x: pulp::f32x8, h: pulp::f32x8) -> pulp::f32x8 {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::{__m256, _CMP_GT_OQ};
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::{__m256, _CMP_GT_OQ};
        let avx = self.avx;
        let (x, h): (__m256, __m256) = (pulp::bytemuck::cast(x), pulp::bytemuck::cast(h));
        let positive = avx._mm256_cmp_ps::<_CMP_GT_OQ>(h, avx._mm256_setzero_ps());
        pulp::bytemuck::cast(avx._mm256_and_ps(x, positive))
    }
}

/// A loop written with [`Lanes`], for [`with_lanes`]. As for [`WideLoop`], its `run` and what it
/// calls in the hot loop must be `#[inline(always)]`.
pub(crate) trait LanesLoop {
    type Output;
    fn run<S: Lanes>(self, lanes: S) -> Self::Output;
}

/// Runs `body` on AVX2 registers where the CPU has them (compiled with AVX-512 enabled where it
/// has that too), else on [`Plain`] arrays: as [`crate::cpu::vector_path`] says, so
/// `STACKGRAD_MAX_ISA` caps these loops as it caps the matrix kernels.
#[inline(always)]
pub(crate) fn with_lanes<L: LanesLoop>(body: L) -> L::Output {
    with_lanes_on(crate::cpu::vector_path(), body)
}

/// [`with_lanes`] on `path` (tests run every path the CPU has this way). Where the build has no
/// run-time dispatch (no `std`, or not x86) it runs on [`Plain`] arrays whatever `path` is.
///
/// # Panics
///
/// With run-time dispatch, if this CPU cannot run `path`.
#[inline(always)]
pub(crate) fn with_lanes_on<L: LanesLoop>(path: VectorPath, body: L) -> L::Output {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    match path {
        VectorPath::Avx512 => {
            let v4 = pulp::x86::V4::try_new().expect("the AVX-512 path runs where AVX-512 is");
            return v4.vectorize(PulpLanes(*v4, body));
        }
        VectorPath::Avx2 => {
            let v3 = pulp::x86::V3::try_new().expect("the AVX2 path runs where AVX2 is");
            return v3.vectorize(PulpLanes(v3, body));
        }
        VectorPath::Portable => {}
    }
    let _ = path;
    body.run(Plain)
}

/// [`with_lanes`]'s loop, as `pulp` calls it.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
struct PulpLanes<L>(pulp::x86::V3, L);

#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
impl<L: LanesLoop> pulp::NullaryFnOnce for PulpLanes<L> {
    type Output = L::Output;

    #[inline(always)]
    fn call(self) -> L::Output {
        self.1.run(self.0)
    }
}

/// `x = max(x, 0)` in place, a ReLU (`+0.0` where `x` is not positive, NaN included), with
/// [`with_lanes`]; the same bits as [`kept`]`(x, x > 0.0)`.
pub(crate) fn relu_in_place(x: &mut [f32]) {
    zero_where(x, None);
}

/// `d = +0.0` where `h` is not positive (a ReLU's derivative's mask; a NaN `h` masks), in place,
/// with [`with_lanes`]; the same bits as [`kept`]`(d, h > 0.0)`. In place, the plain
/// loop became a microcoded masked store on AVX2 (see [`kept`]).
pub(crate) fn zero_where_not_positive(d: &mut [f32], h: &[f32]) {
    zero_where(d, Some(h));
}

/// `d = +0.0` where `h` (or `d` itself) is not positive.
fn zero_where(d: &mut [f32], h: Option<&[f32]>) {
    struct ZeroWhere<'a> {
        d: &'a mut [f32],
        h: Option<&'a [f32]>,
    }
    impl LanesLoop for ZeroWhere<'_> {
        type Output = ();

        #[inline(always)]
        fn run<S: Lanes>(self, lanes: S) {
            let mut d = self.d.chunks_exact_mut(8);
            match self.h {
                Some(h) => {
                    let mut h = h.chunks_exact(8);
                    for (d, h) in (&mut d).zip(&mut h) {
                        let d: &mut [f32; 8] = d.try_into().expect("8 floats");
                        let h = lanes.load(h.try_into().expect("8 floats"));
                        *d = lanes.store(lanes.where_positive(lanes.load(d), h));
                    }
                    for (d, &h) in d.into_remainder().iter_mut().zip(h.remainder()) {
                        *d = kept(*d, h > 0.0);
                    }
                }
                None => {
                    for d in &mut d {
                        let d: &mut [f32; 8] = d.try_into().expect("8 floats");
                        let v = lanes.load(d);
                        *d = lanes.store(lanes.where_positive(v, v));
                    }
                    for d in d.into_remainder() {
                        *d = kept(*d, *d > 0.0);
                    }
                }
            }
        }
    }
    assert!(
        h.is_none_or(|h| h.len() == d.len()),
        "d and h differ in length"
    );
    with_lanes(ZeroWhere { d, h });
}

/// `Σ x` for eight lanes, the sum of [`super::nn`]'s `sum_lanes`: lanes `j` and `j + 4` first,
/// then pairwise.
#[inline(always)]
pub(crate) fn sum8(a: [f32; 8]) -> f32 {
    ((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Float;

    /// An update with what AdamW's has: multiply-adds the compiler must not fuse, a square root,
    /// a division and a comparison, over a length that leaves a remainder after the vector loop.
    struct Update<'a> {
        p: &'a mut [f32],
        g: &'a [f32],
        v: &'a mut [f32],
    }

    impl WideLoop for Update<'_> {
        type Output = ();

        #[inline(always)]
        fn run(self) {
            for ((p, &g), v) in self.p.iter_mut().zip(self.g).zip(self.v.iter_mut()) {
                *v = (0.999 * *v + 0.001 * g * g).flush_subnormal();
                *p -= 0.1 * g / (v.sqrt() * 1.0003 + 1e-8);
            }
        }
    }

    /// The same loop run as is (compiled for the build's target) and through
    /// [`with_wide_vectors`] on every path this CPU has gives the same bits.
    #[test]
    fn wide_vectors_round_like_the_plain_build() {
        const N: usize = 1003;
        #[allow(clippy::cast_precision_loss)]
        let g: [f32; N] = core::array::from_fn(|i| ((i * 7919 % 1000) as f32 - 500.0) * 1.37e-3);
        #[allow(clippy::cast_precision_loss)]
        let start: [f32; N] = core::array::from_fn(|i| (i as f32).sin());
        let (mut p1, mut v1) = (start, [1e-3; N]);
        for _ in 0..5 {
            Update {
                p: &mut p1,
                g: &g,
                v: &mut v1,
            }
            .run();
        }
        let bits = |x: &[f32; N]| x.map(f32::to_bits);
        assert_ne!(bits(&p1), bits(&start), "the update changed the parameters");
        for path in VectorPath::available() {
            let (mut p2, mut v2) = (start, [1e-3; N]);
            for _ in 0..5 {
                let update = Update {
                    p: &mut p2,
                    g: &g,
                    v: &mut v2,
                };
                with_lanes_on(path, Wide(update));
            }
            assert_eq!(bits(&p1), bits(&p2), "{path}");
            assert_eq!(bits(&v1), bits(&v2), "{path}");
        }
    }

    /// Every way of transposing an 8 x 8 block this CPU has moves each element to its place.
    #[test]
    fn transposes_move_each_element_to_its_place() {
        struct Transpose([[f32; 8]; 8]);
        impl LanesLoop for Transpose {
            type Output = [[f32; 8]; 8];
            #[inline(always)]
            fn run<S: Lanes>(self, lanes: S) -> [[f32; 8]; 8] {
                lanes.transpose8(&self.0)
            }
        }
        #[allow(clippy::cast_precision_loss)]
        let r: [[f32; 8]; 8] =
            core::array::from_fn(|i| core::array::from_fn(|j| (8 * i + j) as f32));
        let expected: [[f32; 8]; 8] = core::array::from_fn(|i| core::array::from_fn(|j| r[j][i]));
        assert_eq!(Plain.transpose8(&r), expected);
        for path in VectorPath::available() {
            assert_eq!(with_lanes_on(path, Transpose(r)), expected, "{path}");
        }
    }

    /// The values a ReLU mask meets: signs, zeros, a subnormal, infinities, NaNs.
    const SPECIAL: [f32; 9] = [
        1.5,
        -2.0,
        0.0,
        -0.0,
        f32::MIN_POSITIVE / 4.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];

    #[test]
    fn kept_is_the_branch_bit_for_bit() {
        for x in SPECIAL {
            for keep in [true, false] {
                let branch = if keep { x } else { 0.0 };
                assert_eq!(kept(x, keep).to_bits(), branch.to_bits(), "{x} {keep}");
            }
        }
    }

    /// [`Lanes::where_positive`] on every path this CPU has is [`kept`] lane by lane, for every
    /// pair of the special values as `(x, h)`.
    #[test]
    fn where_positive_masks_like_kept_on_every_path() {
        struct Masked([f32; 8], [f32; 8]);
        impl LanesLoop for Masked {
            type Output = [f32; 8];
            #[inline(always)]
            fn run<S: Lanes>(self, lanes: S) -> [f32; 8] {
                lanes.store(lanes.where_positive(lanes.load(&self.0), lanes.load(&self.1)))
            }
        }
        let pairs: [(f32, f32); 81] = core::array::from_fn(|i| (SPECIAL[i / 9], SPECIAL[i % 9]));
        for chunk in pairs.chunks(8) {
            let x: [f32; 8] = core::array::from_fn(|j| chunk.get(j).map_or(1.0, |p| p.0));
            let h: [f32; 8] = core::array::from_fn(|j| chunk.get(j).map_or(-1.0, |p| p.1));
            let expected = core::array::from_fn::<u32, 8, _>(|j| kept(x[j], h[j] > 0.0).to_bits());
            assert_eq!(Plain.where_positive(x, h).map(f32::to_bits), expected);
            for path in VectorPath::available() {
                let got = with_lanes_on(path, Masked(x, h)).map(f32::to_bits);
                assert_eq!(got, expected, "{path}");
            }
        }
    }

    /// The in-place loops over 81 elements (ten vectors and one left over) give [`kept`]'s bits.
    #[test]
    fn in_place_masks_are_kept_element_by_element() {
        let d: [f32; 81] = core::array::from_fn(|i| SPECIAL[i / 9]);
        let h: [f32; 81] = core::array::from_fn(|i| SPECIAL[i % 9]);
        let mut masked = d;
        zero_where_not_positive(&mut masked, &h);
        let mut relu = h;
        relu_in_place(&mut relu);
        for i in 0..81 {
            assert_eq!(masked[i].to_bits(), kept(d[i], h[i] > 0.0).to_bits(), "{i}");
            assert_eq!(relu[i].to_bits(), kept(h[i], h[i] > 0.0).to_bits(), "{i}");
        }
    }
}
