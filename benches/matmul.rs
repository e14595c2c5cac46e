//! The matrix-product kernels of `nn` against the `matrixmultiply` and `gemm` crates, on the shapes of the
//! miniature GPT (rows x in -> out): the attention's projections 512 x 24 -> 24, the feed-forward
//! layers 512 x 24 -> 96 and 512 x 96 -> 24, the output layer 512 x 24 -> 65 (batch 64 x context
//! 8 = 512 rows), and batch 1: 8 x 24 -> 96. `STACKGRAD_MAX_ISA=avx2` (or `portable`) runs ours on
//! a narrower path than the CPU's widest (`autodiff_runtime::cpu`).
//!
//! Three products per shape, which between them use every operand layout of the kernel:
//! `linear` (`x · wᵀ + b`), `matmul` (`a · b`) and `linear_adjoint` (`d_y · w` and `d_yᵀ · x`).
//! Each group's throughput is its FLOP (two per multiply-add), so criterion's `thrpt` is GFLOP/s
//! (printed as `Gelem/s`); the bench first prints this core's peak (`support/peak_fma.rs`,
//! shared with the GPT bench). Run with `cargo bench --bench matmul`; the results are in
//! `BENCHMARKS.md`. Every case writes into buffers allocated once, as the GPT's forward sweep writes
//! into its tape (`linear_forward_into`, `matmul_forward_into`) and its adjoints accumulate into
//! its cotangents: the times are the kernels' alone, with no page faults or copies of the output.

use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::cpu::{MAX_ISA_VAR, vector_path};
use autodiff_runtime::nn::{
    LinearTape, MatmulTape, linear_adjoint, linear_forward_into, matmul_forward_into,
};
use criterion::{Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Panics unless every element the strides address lies inside `a`, `b` and `c`: what makes the
/// raw-pointer calls below sound.
fn check_layout(
    (m, k, n): (usize, usize, usize),
    a: &[f32],
    a_strides: (usize, usize),
    b: &[f32],
    b_strides: (usize, usize),
    c: &[f32],
) {
    let last =
        |(rows, cols): (usize, usize), (rs, cs): (usize, usize)| (rows - 1) * rs + (cols - 1) * cs;
    assert!(m > 0 && k > 0 && n > 0);
    assert!(last((m, k), a_strides) < a.len() && last((k, n), b_strides) < b.len());
    assert_eq!(c.len(), m * n);
}

/// `c += a · b` by `matrixmultiply`, where `a` is `m x k` with element `(i, p)` at
/// `a[i * a_strides.0 + p * a_strides.1]`, `b` is `k x n` likewise, and `c` is row-major `m x n`.
fn sgemm(
    (m, k, n): (usize, usize, usize),
    a: &[f32],
    a_strides: (usize, usize),
    b: &[f32],
    b_strides: (usize, usize),
    c: &mut [f32],
) {
    check_layout((m, k, n), a, a_strides, b, b_strides, c);
    let s = |x: usize| isize::try_from(x).expect("stride fits isize");
    // SAFETY: the assertions above keep every element the strides address inside `a`, `b` and
    // `c`; `c` is a unique borrow, so it aliases neither `a` nor `b`.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            s(a_strides.0),
            s(a_strides.1),
            b.as_ptr(),
            s(b_strides.0),
            s(b_strides.1),
            1.0,
            c.as_mut_ptr(),
            s(n),
            1,
        );
    }
}

/// `c += a · b` by the `gemm` crate, with the operands laid out as for [`sgemm`].
fn gemm(
    (m, k, n): (usize, usize, usize),
    a: &[f32],
    a_strides: (usize, usize),
    b: &[f32],
    b_strides: (usize, usize),
    c: &mut [f32],
) {
    check_layout((m, k, n), a, a_strides, b, b_strides, c);
    let s = |x: usize| isize::try_from(x).expect("stride fits isize");
    // SAFETY: as in `sgemm`: every addressed element lies inside its slice, and `c` aliases
    // neither operand. `c = 1 · c + 1 · a · b` on this thread.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            s(n),
            true,
            a.as_ptr(),
            s(a_strides.1),
            s(a_strides.0),
            b.as_ptr(),
            s(b_strides.1),
            s(b_strides.0),
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

fn random<const C: usize, const R: usize>(rng: &mut SmallRng) -> Box<[[f32; C]; R]> {
    Box::new(core::array::from_fn(|_| {
        core::array::from_fn(|_| rng.gen_range(-1.0..1.0))
    }))
}

/// Benches the three products for `R` rows, `I` inputs and `O` outputs.
/// A library product `c += a · b` with the signature [`sgemm`] and [`gemm`] share.
type Library =
    fn((usize, usize, usize), &[f32], (usize, usize), &[f32], (usize, usize), &mut [f32]);

/// The libraries every shape is timed with, beside this crate's kernels.
const LIBRARIES: [(&str, Library); 2] = [("matrixmultiply", sgemm), ("gemm", gemm)];

fn shape<const R: usize, const I: usize, const O: usize>(c: &mut Criterion) {
    let rng = &mut SmallRng::seed_from_u64(R as u64 * 10_000 + I as u64 * 100 + O as u64);
    let (x, w, d_y) = (
        random::<I, R>(rng),
        random::<I, O>(rng),
        random::<O, R>(rng),
    );
    let b = random::<O, 1>(rng)[0];
    let m = random::<O, I>(rng); // a right operand for `matmul`: I x O
    let size = format!("{R}x{I}x{O}");

    let flops = 2 * (R * I * O) as u64;
    let mut group = c.benchmark_group(format!("linear_{size}"));
    group.throughput(Throughput::Elements(flops));
    // One output buffer for every case, written before the timing starts.
    let mut y = random::<O, R>(rng);
    group.bench_function("nn", |bench| {
        bench.iter(|| {
            let (x, w, b) = (black_box(&*x), black_box(&*w), black_box(&b));
            linear_forward_into(x, w, b, &mut LinearTape::new(), &mut y);
            black_box(&mut y);
        });
    });
    for (name, lib) in LIBRARIES {
        group.bench_function(name, |bench| {
            bench.iter(|| {
                y.fill(b);
                let (x, w) = (black_box(x.as_flattened()), black_box(w.as_flattened()));
                lib((R, I, O), x, (I, 1), w, (1, I), y.as_flattened_mut());
                black_box(&mut y);
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group(format!("matmul_{size}"));
    group.throughput(Throughput::Elements(flops));
    group.bench_function("nn", |bench| {
        bench.iter(|| {
            let (x, m) = (black_box(&*x), black_box(&*m));
            matmul_forward_into(x, m, &mut MatmulTape::new(), &mut y);
            black_box(&mut y);
        });
    });
    for (name, lib) in LIBRARIES {
        group.bench_function(name, |bench| {
            bench.iter(|| {
                y.fill([0.0; O]);
                let (x, m) = (black_box(x.as_flattened()), black_box(m.as_flattened()));
                lib((R, I, O), x, (I, 1), m, (O, 1), y.as_flattened_mut());
                black_box(&mut y);
            });
        });
    }
    group.finish();

    // The cotangents accumulate into one set of buffers, allocated and written once (as the
    // GPT's are): fresh zeroed allocations per run put their page faults inside the timing.
    let (mut d_x, mut d_w, mut d_b) = (
        Box::new([[0.0f32; I]; R]),
        Box::new([[0.0f32; I]; O]),
        [0.0f32; O],
    );
    for v in d_x
        .as_flattened_mut()
        .iter_mut()
        .chain(d_w.as_flattened_mut())
    {
        *v = black_box(0.0);
    }
    let mut group = c.benchmark_group(format!("linear_adjoint_{size}"));
    group.throughput(Throughput::Elements(2 * flops));
    group.bench_function("nn", |bench| {
        bench.iter(|| {
            let tape = LinearTape::new();
            let d_y = black_box(&*d_y);
            linear_adjoint(&x, &w, &b, &tape, d_y, &mut d_x, &mut d_w, &mut d_b);
        });
    });
    for (name, lib) in LIBRARIES {
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let d_y = black_box(d_y.as_flattened());
                let (x, w) = (x.as_flattened(), w.as_flattened());
                lib((R, O, I), d_y, (O, 1), w, (I, 1), d_x.as_flattened_mut());
                lib((O, R, I), d_y, (1, O), x, (I, 1), d_w.as_flattened_mut());
                for row in d_y.chunks_exact(O) {
                    for (d_b, d) in d_b.iter_mut().zip(row) {
                        *d_b += d;
                    }
                }
            });
        });
    }
    group.finish();
}

fn gpt_shapes(c: &mut Criterion) {
    shape::<512, 24, 24>(c);
    shape::<512, 24, 96>(c);
    shape::<512, 96, 24>(c);
    shape::<512, 24, 65>(c);
    shape::<8, 24, 96>(c);
}

#[path = "support/peak_fma.rs"]
mod peak_fma;

fn main() {
    let peak = peak_fma::measure(vector_path().name());
    println!(
        "peak multiply-add rate of this core: {:.1} GFLOP/s ({}; {MAX_ISA_VAR}: {})",
        peak.gflops,
        peak.isa,
        std::env::var(MAX_ISA_VAR).unwrap_or_else(|_| "not set".into())
    );
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    gpt_shapes(&mut c);
    c.final_summary();
}
