//! The GPT's kernels other than the matrix products, at the miniature GPT's batch-64 shapes
//! (512 token rows of 24 channels, sequences of 8 tokens, 6 heads of 4): causal self-attention
//! (`causal_self_attention_rows_forward_into` and its adjoint), layer norm
//! (`layer_norm_forward_into` and its adjoint) and the feed-forward network's adjoint
//! (`feed_forward_add_adjoint`, 96 hidden units: its products and what lies between them). Each case writes into buffers allocated once, as
//! the GPT's sweeps do. Run with `cargo bench --bench layers`;
//! `STACKGRAD_MAX_ISA=avx2` (or `portable`) runs them on a narrower path than the CPU's widest.
//! The results are in `BENCHMARKS.md`.

use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::cpu::{MAX_ISA_VAR, vector_path};
use autodiff_runtime::nn::{
    CausalSelfAttentionRowsTape, FeedForwardAddTape, LayerNormTape,
    causal_self_attention_rows_adjoint, causal_self_attention_rows_forward_into,
    feed_forward_add_adjoint, feed_forward_add_forward_into, layer_norm_adjoint,
    layer_norm_forward_into,
};
use criterion::Criterion;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const R: usize = 512;
const C: usize = 24;
const T: usize = 8;
const H: usize = 6;
const D: usize = 4;
const F: usize = 96;

type Rows = [[f32; C]; R];

fn random_rows(rng: &mut SmallRng) -> Box<Rows> {
    let mut m: Box<Rows> = Box::new([[0.0; C]; R]);
    for x in m.as_flattened_mut() {
        *x = rng.gen_range(-1.0..1.0);
    }
    m
}

fn attention(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(7);
    let (q, k, v, d_out) = (
        random_rows(&mut rng),
        random_rows(&mut rng),
        random_rows(&mut rng),
        random_rows(&mut rng),
    );
    let mut tape = Box::new(CausalSelfAttentionRowsTape::<T, H, D, R, C>::new());
    let mut y = random_rows(&mut rng);
    let (mut d_q, mut d_k, mut d_v) = (
        random_rows(&mut rng),
        random_rows(&mut rng),
        random_rows(&mut rng),
    );
    // The adjoint reads the tape: filled once here, so it is timed on real probabilities
    // whether or not the forward case runs.
    causal_self_attention_rows_forward_into::<T, H, D, R, C>(&q, &k, &v, &mut tape, &mut y);
    let mut group = c.benchmark_group("attention_512x24_T8_H6_D4");
    group.bench_function("forward", |b| {
        b.iter(|| {
            causal_self_attention_rows_forward_into::<T, H, D, R, C>(
                black_box(&q),
                black_box(&k),
                black_box(&v),
                &mut tape,
                &mut y,
            );
        });
    });
    group.bench_function("adjoint", |b| {
        b.iter(|| {
            causal_self_attention_rows_adjoint::<T, H, D, R, C>(
                black_box(&q),
                black_box(&k),
                black_box(&v),
                &tape,
                black_box(&d_out),
                &mut d_q,
                &mut d_k,
                &mut d_v,
            );
        });
    });
    group.finish();
    black_box((&y, &d_q, &d_k, &d_v));
}

fn layer_norm(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(8);
    let (x, d_out) = (random_rows(&mut rng), random_rows(&mut rng));
    let gain: [f32; C] = core::array::from_fn(|_| rng.gen_range(0.5..1.5));
    let bias: [f32; C] = core::array::from_fn(|_| rng.gen_range(-0.5..0.5));
    let mut tape = Box::new(LayerNormTape::<R, C>::new());
    let mut y = random_rows(&mut rng);
    let mut d_x = random_rows(&mut rng);
    let (mut d_gain, mut d_bias) = ([0.0; C], [0.0; C]);
    layer_norm_forward_into::<R, C>(&x, &gain, &bias, &mut tape, &mut y);
    let mut group = c.benchmark_group("layer_norm_512x24");
    group.bench_function("forward", |b| {
        b.iter(|| {
            layer_norm_forward_into::<R, C>(black_box(&x), &gain, &bias, &mut tape, &mut y);
        });
    });
    group.bench_function("adjoint", |b| {
        b.iter(|| {
            layer_norm_adjoint::<R, C>(
                black_box(&x),
                &gain,
                &bias,
                &tape,
                black_box(&d_out),
                &mut d_x,
                &mut d_gain,
                &mut d_bias,
            );
        });
    });
    group.finish();
    black_box((&y, &d_x, &d_gain, &d_bias));
}

fn feed_forward(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(9);
    let (x, res, d_out) = (
        random_rows(&mut rng),
        random_rows(&mut rng),
        random_rows(&mut rng),
    );
    let mut weights = |rows: usize, cols: usize| -> Vec<f32> {
        (0..rows * cols).map(|_| rng.gen_range(-0.3..0.3)).collect()
    };
    let (w1, w2) = (weights(F, C), weights(C, F));
    let w1: &[[f32; C]; F] = w1.as_chunks().0.try_into().expect("F rows");
    let w2: &[[f32; F]; C] = w2.as_chunks().0.try_into().expect("C rows");
    let (b1, b2) = ([0.1; F], [-0.1; C]);
    let mut tape = Box::new(FeedForwardAddTape::<R, C, F>::new());
    let mut y = random_rows(&mut rng);
    feed_forward_add_forward_into::<R, C, F>(&x, w1, &b1, w2, &b2, &res, &mut tape, &mut y);
    let (mut d_x, mut d_res) = (random_rows(&mut rng), random_rows(&mut rng));
    let (mut d_w1, mut d_w2) = (Box::new([[0.0; C]; F]), Box::new([[0.0; F]; C]));
    let (mut d_b1, mut d_b2) = ([0.0; F], [0.0; C]);
    let mut group = c.benchmark_group("feed_forward_512x24_F96");
    group.bench_function("adjoint", |b| {
        b.iter(|| {
            feed_forward_add_adjoint::<R, C, F>(
                black_box(&x),
                w1,
                &b1,
                w2,
                &b2,
                &res,
                &tape,
                black_box(&d_out),
                &mut d_x,
                &mut d_w1,
                &mut d_b1,
                &mut d_w2,
                &mut d_b2,
                &mut d_res,
            );
        });
    });
    group.finish();
    black_box((&y, &d_x, &d_w1, &d_b1, &d_w2, &d_b2, &d_res));
}

fn main() {
    println!(
        "kernels on the {} path ({MAX_ISA_VAR}: {})",
        vector_path().name(),
        std::env::var(MAX_ISA_VAR).unwrap_or_else(|_| "not set".into())
    );
    let mut c = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    attention(&mut c);
    layer_norm(&mut c);
    feed_forward(&mut c);
    c.final_summary();
}
