//! The peak multiply-add throughput of the core a bench runs on: independent chains of
//! `acc = acc * x + y` in the widest vectors the CPU has (AVX-512, AVX2 + FMA, else SSE2/NEON
//! with a multiply and an add), chosen at run time as the matrix kernels choose theirs (and
//! capped as theirs are, by `STACKGRAD_MAX_ISA`).
//!
//! Benches divide a FLOP count by this to say how far a step is from its floor on the machine at
//! hand, whatever its instruction set.

use std::hint::black_box;
use std::time::Instant;

/// The peak of this core.
#[derive(Clone, Copy, Debug)]
pub struct Peak {
    /// The instruction set the chains ran on.
    pub isa: &'static str,
    /// Floating-point operations per second (a multiply-add is two), in GFLOP/s.
    pub gflops: f64,
}

/// Independent accumulators: more than an FMA unit's latency times the units (4 x 2 on most
/// cores), few enough to stay in 16 registers.
const CHAINS: usize = 12;

/// `iters` rounds of `CHAINS` multiply-adds of `L` lanes each, written over plain arrays (the
/// portable path: SSE2 or NEON, a multiply then an add); returns a sum so nothing is dead.
fn chains<const L: usize>(iters: usize) -> f32 {
    // acc -> acc * x + y has its fixed point at 1: the values stay normal however long it runs.
    let (x, y) = (black_box([0.999_999_9f32; L]), black_box([1e-7f32; L]));
    let mut acc = black_box([[0.5f32; L]; CHAINS]);
    for _ in 0..iters {
        for acc in &mut acc {
            for ((a, x), y) in acc.iter_mut().zip(&x).zip(&y) {
                *a = *a * x + y;
            }
        }
    }
    acc.iter().flatten().sum()
}

/// The same chains in the vectors of a `pulp` instruction set, each multiply-add one fused
/// instruction. Written with the vector type itself, not arrays for the compiler to vectorize:
/// with AVX-512 enabled, rustc 1.95 turned the array form into gathers across the chains and
/// measured 2 GFLOP/s on a Zen 4 core that does about 100.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
struct FusedChains {
    iters: usize,
}

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
impl pulp::WithSimd for FusedChains {
    type Output = f32;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> f32 {
        let x = black_box(simd.splat_f32s(0.999_999_9));
        let y = black_box(simd.splat_f32s(1e-7));
        let mut acc = black_box([simd.splat_f32s(0.5); CHAINS]);
        for _ in 0..self.iters {
            for acc in &mut acc {
                *acc = simd.mul_add_e_f32s(*acc, x, y);
            }
        }
        acc.iter().map(|&acc| simd.reduce_sum_f32s(acc)).sum()
    }
}

/// `f32` lanes in one vector of `S`.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn lanes<S: pulp::Simd>() -> usize {
    core::mem::size_of::<S::f32s>() / core::mem::size_of::<f32>()
}

/// Best of five timed runs of `run(iters)`, as GFLOP/s for `lanes` lanes.
fn best(lanes: usize, run: impl Fn(usize) -> f32) -> f64 {
    let iters = 4_000_000;
    black_box(run(iters / 10)); // warm up the clock
    let flops = (2 * CHAINS * lanes * iters) as f64;
    (0..5)
        .map(|_| {
            let start = Instant::now();
            black_box(run(iters));
            flops / start.elapsed().as_secs_f64() / 1e9
        })
        .fold(0.0, f64::max)
}

/// Measures the peak (about a second) on the widest vectors up to `path`, the name of the path
/// the kernels run on (`cpu::vector_path().name()`: `"avx512"`, `"avx2"` or `"portable"`), so
/// a cap set with `STACKGRAD_MAX_ISA` caps the peak a step is compared with too.
pub fn measure(path: &str) -> Peak {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        if let Some(simd) = pulp::x86::V4::try_new().filter(|_| path == "avx512") {
            let gflops = best(lanes::<pulp::x86::V4>(), |iters| {
                pulp::Simd::vectorize(simd, FusedChains { iters })
            });
            return Peak {
                isa: "AVX-512",
                gflops,
            };
        }
        if let Some(simd) = pulp::x86::V3::try_new().filter(|_| path != "portable") {
            let gflops = best(lanes::<pulp::x86::V3>(), |iters| {
                pulp::Simd::vectorize(simd, FusedChains { iters })
            });
            return Peak {
                isa: "AVX2 + FMA",
                gflops,
            };
        }
    }
    let _ = path;
    Peak {
        isa: "portable (4 lanes, multiply then add)",
        gflops: best(4, chains::<4>),
    }
}
