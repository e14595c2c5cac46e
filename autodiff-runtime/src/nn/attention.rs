//! Causal multi-head self-attention: `softmax(q kᵀ / sqrt(D) + causal mask) v`, head by head.
//!
//! Shapes: `q`, `k`, `v`, output and their cotangents `[B][T][H][D]` (the channels `C = H * D` of a
//! token split into heads, in the same memory order as `[B][T][C]`); probabilities `[B][H][T][T]`,
//! row `t` nonzero only for keys `s <= t`. Taking the heads as their own axis keeps every size a
//! plain const generic (no `C / H` in a type) and lets the compiler infer all four at a call.

use super::softmax::{softmax_row, softmax_row_adjoint};
use crate::math;

/// The `[T]`[H]`[D]` queries, keys or values of one sequence.
type Seq<const T: usize, const H: usize, const D: usize> = [[[f32; D]; H]; T];

tape! {
    /// What [`causal_self_attention_adjoint`] reads: the attention probabilities.
    pub struct CausalSelfAttentionTape<
        const B: usize, const T: usize, const H: usize, const D: usize
    > {
        /// `probs[b][h][t][s]`: how much query `t` attends to key `s` (zero for `s > t`),
        /// `[B][H][T][T]`.
        pub probs: [[[[f32; T]; T]; H]; B] = [[[[0.0; T]; T]; H]; B],
    }
}

fn scale<const D: usize>() -> f32 {
    1.0 / math::sqrtf(D as f32)
}

fn dot<const D: usize>(a: &[f32; D], b: &[f32; D]) -> f32 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// `y += alpha * x`.
fn axpy<const D: usize>(y: &mut [f32; D], alpha: f32, x: &[f32; D]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += alpha * x;
    }
}

/// The output of query `t` in head `h`, writing its probabilities over all `T` keys into `p`.
fn attend<const T: usize, const H: usize, const D: usize>(
    (q, k, v): (&Seq<T, H, D>, &Seq<T, H, D>, &Seq<T, H, D>),
    t: usize,
    h: usize,
    p: &mut [f32; T],
) -> [f32; D] {
    let mut scores = [0.0; T];
    for (score, k) in scores.iter_mut().zip(&k[..=t]) {
        *score = scale::<D>() * dot(&q[t][h], &k[h]);
    }
    softmax_row(&scores[..=t], &mut p[..=t]);
    p[t + 1..].fill(0.0);
    let mut out = [0.0; D];
    for (&p, v) in p.iter().zip(&v[..=t]) {
        axpy(&mut out, p, &v[h]);
    }
    out
}

/// Causal self-attention of every sequence and head: query `t` attends to keys `0..=t` with
/// weights `softmax(q[t] · k[s] / sqrt(D))` and returns the weighted sum of their values.
///
/// Shapes: `q`, `k`, `v` `[B][T][H][D]` -> `[B][T][H][D]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::causal_self_attention;
///
/// // One sequence of two tokens, one head of size 1.
/// let q = [[[[0.0f32]], [[0.0]]]];
/// let v = [[[[1.0f32]], [[3.0]]]];
/// let y = causal_self_attention(&q, &q, &v);
/// // The first token sees only itself; the second averages both (equal scores).
/// assert_eq!(y, [[[[1.0]], [[2.0]]]]);
/// ```
#[must_use]
pub fn causal_self_attention<const B: usize, const T: usize, const H: usize, const D: usize>(
    q: &[Seq<T, H, D>; B],
    k: &[Seq<T, H, D>; B],
    v: &[Seq<T, H, D>; B],
) -> [Seq<T, H, D>; B] {
    attend_all(q, k, v, None)
}

/// Every output, writing the probabilities into `probs` when given.
fn attend_all<const B: usize, const T: usize, const H: usize, const D: usize>(
    q: &[Seq<T, H, D>; B],
    k: &[Seq<T, H, D>; B],
    v: &[Seq<T, H, D>; B],
    mut probs: Option<&mut [[[[f32; T]; T]; H]; B]>,
) -> [Seq<T, H, D>; B] {
    let mut y = [[[[0.0; D]; H]; T]; B];
    let mut scratch = [0.0; T];
    for (b, y) in y.iter_mut().enumerate() {
        for (t, y) in y.iter_mut().enumerate() {
            for (h, y) in y.iter_mut().enumerate() {
                let p = match probs.as_deref_mut() {
                    Some(probs) => &mut probs[b][h][t],
                    None => &mut scratch,
                };
                *y = attend((&q[b], &k[b], &v[b]), t, h, p);
            }
        }
    }
    y
}

/// [`causal_self_attention`], recording the attention probabilities.
pub fn causal_self_attention_forward<
    const B: usize,
    const T: usize,
    const H: usize,
    const D: usize,
>(
    q: &[Seq<T, H, D>; B],
    k: &[Seq<T, H, D>; B],
    v: &[Seq<T, H, D>; B],
    tape: &mut CausalSelfAttentionTape<B, T, H, D>,
) -> [Seq<T, H, D>; B] {
    attend_all(q, k, v, Some(&mut tape.probs))
}

/// Adds the cotangents of `q`, `k` and `v` into `d_q`, `d_k` and `d_v`. For query `t` of head `h`
/// with probabilities `p` and `g = d_out[t]`: `d_v[s] += p[s] g`,
/// `ds[s] = p[s] (g · v[s] - Σ_s' p[s'] g · v[s'])`, `d_q[t] += Σ_s ds[s] k[s] / sqrt(D)` and
/// `d_k[s] += ds[s] q[t] / sqrt(D)`.
///
/// Shapes: all `[B][T][H][D]`.
#[allow(clippy::too_many_arguments)]
pub fn causal_self_attention_adjoint<
    const B: usize,
    const T: usize,
    const H: usize,
    const D: usize,
>(
    q: &[Seq<T, H, D>; B],
    k: &[Seq<T, H, D>; B],
    v: &[Seq<T, H, D>; B],
    tape: &CausalSelfAttentionTape<B, T, H, D>,
    d_out: [Seq<T, H, D>; B],
    d_q: &mut [Seq<T, H, D>; B],
    d_k: &mut [Seq<T, H, D>; B],
    d_v: &mut [Seq<T, H, D>; B],
) {
    for b in 0..B {
        let (q, k, v) = (&q[b], &k[b], &v[b]);
        let (d_q, d_k, d_v) = (&mut d_q[b], &mut d_k[b], &mut d_v[b]);
        for (h, probs) in tape.probs[b].iter().enumerate() {
            for (t, p) in probs.iter().enumerate() {
                let g = &d_out[b][t][h];
                let mut d_p = [0.0; T];
                for (((d_p, &p), v), d_v) in d_p.iter_mut().zip(p).zip(&v[..=t]).zip(&mut d_v[..=t])
                {
                    *d_p = dot(g, &v[h]);
                    axpy(&mut d_v[h], p, g);
                }
                let mut d_score = [0.0; T];
                softmax_row_adjoint(&p[..=t], &d_p[..=t], &mut d_score[..=t]);
                for ((&ds, k), d_k) in d_score.iter().zip(&k[..=t]).zip(&mut d_k[..=t]) {
                    axpy(&mut d_q[t][h], scale::<D>() * ds, &k[h]);
                    axpy(&mut d_k[h], scale::<D>() * ds, &q[t][h]);
                }
            }
        }
    }
}
