//! Running an element-wise loop compiled for the widest vectors the CPU has.
//!
//! A build for plain x86-64 vectorizes loops with SSE2: four `f32` lanes, and a register file so
//! small that a loop with many constants (AdamW's update has eight) spills them to the stack. The
//! same loop compiled with AVX2 enabled works on eight lanes in sixteen wider registers. With
//! `std` on x86, [`with_wide_vectors`] detects AVX2 and FMA at run time (through `pulp`, which
//! needs no `unsafe` here) and runs the loop compiled with them; elsewhere it runs it as is.
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

/// A loop to run with [`with_wide_vectors`]. Its [`WideLoop::run`] must be `#[inline(always)]`
/// (and so must what it calls in its hot loop): only code inlined into the function compiled with
/// AVX2 enabled is compiled that way. A closure would not do: its body is a function of its own,
/// which the compiler is free not to inline.
pub(crate) trait WideLoop {
    type Output;
    fn run(self) -> Self::Output;
}

/// Runs `body` compiled with AVX2 and FMA enabled where the CPU has them (see the module's doc).
#[inline(always)]
pub(crate) fn with_wide_vectors<L: WideLoop>(body: L) -> L::Output {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if let Some(v3) = pulp::x86::V3::try_new() {
        return v3.vectorize(Pulp(body));
    }
    body.run()
}

/// `pulp`'s name for a function to compile with the target's features.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
struct Pulp<L>(L);

#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
impl<L: WideLoop> pulp::NullaryFnOnce for Pulp<L> {
    type Output = L::Output;

    #[inline(always)]
    fn call(self) -> L::Output {
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
}

/// A loop written with [`Lanes`], for [`with_lanes`]. As for [`WideLoop`], its `run` and what it
/// calls in the hot loop must be `#[inline(always)]`.
pub(crate) trait LanesLoop {
    type Output;
    fn run<S: Lanes>(self, lanes: S) -> Self::Output;
}

/// Runs `body` on AVX2 registers where the CPU has them, else on [`Plain`] arrays.
#[inline(always)]
pub(crate) fn with_lanes<L: LanesLoop>(body: L) -> L::Output {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if let Some(v3) = pulp::x86::V3::try_new() {
        return v3.vectorize(PulpLanes(v3, body));
    }
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
    /// [`with_wide_vectors`] (AVX2 where this CPU has it) gives the same bits.
    #[test]
    fn wide_vectors_round_like_the_plain_build() {
        const N: usize = 1003;
        #[allow(clippy::cast_precision_loss)]
        let g: [f32; N] = core::array::from_fn(|i| ((i * 7919 % 1000) as f32 - 500.0) * 1.37e-3);
        #[allow(clippy::cast_precision_loss)]
        let start: [f32; N] = core::array::from_fn(|i| (i as f32).sin());
        let (mut p1, mut v1) = (start, [1e-3; N]);
        let (mut p2, mut v2) = (start, [1e-3; N]);
        for _ in 0..5 {
            Update {
                p: &mut p1,
                g: &g,
                v: &mut v1,
            }
            .run();
            with_wide_vectors(Update {
                p: &mut p2,
                g: &g,
                v: &mut v2,
            });
        }
        let bits = |x: &[f32; N]| x.map(f32::to_bits);
        assert_eq!(bits(&p1), bits(&p2));
        assert_eq!(bits(&v1), bits(&v2));
        assert_ne!(bits(&p1), bits(&start), "the update changed the parameters");
    }
}
