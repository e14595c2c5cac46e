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
