//! Causal multi-head self-attention: `softmax(q kᵀ / sqrt(D) + causal mask) v`, head by head.
//!
//! Two layouts of the same numbers, with the same kernel underneath:
//! - [`causal_self_attention`]: `q`, `k`, `v`, output and their cotangents `[B][T][H][D]`, the
//!   channels `C = H * D` of a token split into heads. Every size is a plain const generic that
//!   the compiler infers at a call.
//! - [`causal_self_attention_rows`]: the same as `[R][C]` token rows (`R = B * T`), the layout a
//!   linear layer produces, so a model needs no regrouping copies; `T`, `H` and `D` are named at
//!   the call (`causal_self_attention_rows::<T, H, D, R, C>`), and `R = B T`, `C = H D` are
//!   checked at compile time.
//!
//! Probabilities are kept as `[B][T][H][T]` (`[R][H][T]` for rows): for query `t` of head `h`, the
//! weights of the keys `s`, zero for `s > t`.
//!
//! # The kernel
//!
//! One sequence and one head at a time, all `T` keys at once: the head's keys and values are
//! copied transposed (`[D][T]`, `T = 8` floats to a vector) so that the scores of a query, the
//! exponentials ([`math::exp_fast`](crate::math::exp_fast)), the probabilities and, in the
//! adjoint, `d_v`, `d_k` and the score cotangents are `T`-wide vector operations. Masked keys are
//! given probability exactly `0`, so the adjoint runs over all `T` keys and adds exact zeros for
//! them.

use crate::math;

/// The `[T][H][D]` queries, keys or values of one sequence.
type Seq<const T: usize, const H: usize, const D: usize> = [[[f32; D]; H]; T];

/// `probs[t][h][s]` of one sequence.
type Probs<const T: usize, const H: usize> = [[[f32; T]; H]; T];

tape! {
    /// What [`causal_self_attention_adjoint`] reads: the attention probabilities.
    pub struct CausalSelfAttentionTape<
        const B: usize, const T: usize, const H: usize, const D: usize
    > {
        /// `probs[b][t][h][s]`: how much query `t` attends to key `s` in head `h` (zero for
        /// `s > t`), `[B][T][H][T]`.
        pub probs: [Probs<T, H>; B] = [[[[0.0; T]; H]; T]; B],
    }
}

tape! {
    /// What [`causal_self_attention_rows_adjoint`] reads: the attention probabilities.
    pub struct CausalSelfAttentionRowsTape<
        const T: usize, const H: usize, const D: usize, const R: usize, const C: usize
    > {
        /// `probs[b * T + t][h][s]`: how much query `t` of sequence `b` attends to key `s` in head
        /// `h` (zero for `s > t`), `[R][H][T]`.
        pub probs: [[[f32; T]; H]; R] = [[[0.0; T]; H]; R],
    }
}

/// One sequence's channels as one slice.
fn flat<const T: usize, const H: usize, const D: usize>(s: &Seq<T, H, D>) -> &[f32] {
    s.as_flattened().as_flattened()
}

/// Sequence `b` of the token rows `m`, as one slice.
fn seq<const T: usize, const C: usize>(m: &[[f32; C]], b: usize) -> &[f32] {
    m[b * T..][..T].as_flattened()
}

fn scale<const D: usize>() -> f32 {
    1.0 / math::sqrtf(D as f32)
}

/// Head `h` of the `T` token rows `m` (each `H * D` long, token-major).
#[inline(always)]
fn head<const T: usize, const D: usize>(m: &[f32], h: usize) -> [[f32; D]; T] {
    let c = m.len() / T;
    let mut out = [[0.0; D]; T];
    for (t, out) in out.iter_mut().enumerate() {
        out.copy_from_slice(&m[t * c + h * D..][..D]);
    }
    out
}

/// `[T][D]` to `[D][T]`.
#[inline(always)]
fn transpose<const T: usize, const D: usize>(m: &[[f32; D]; T]) -> [[f32; T]; D] {
    let mut out = [[0.0; T]; D];
    for (t, row) in m.iter().enumerate() {
        for (d, &x) in row.iter().enumerate() {
            out[d][t] = x;
        }
    }
    out
}

/// Adds the `[T][D]` head `x` into head `h` of the token rows `m`.
#[inline(always)]
fn add_head<const T: usize, const D: usize>(m: &mut [f32], h: usize, x: &[[f32; D]; T]) {
    let c = m.len() / T;
    for (t, x) in x.iter().enumerate() {
        for (m, x) in m[t * c + h * D..][..D].iter_mut().zip(x) {
            *m += x;
        }
    }
}

/// The attention output of one sequence (`T` token rows of `H * D` channels in `q`, `k`, `v`),
/// written into `y`, with the probabilities into `probs`.
fn sequence_forward<const T: usize, const H: usize, const D: usize>(
    (q, k, v): (&[f32], &[f32], &[f32]),
    y: &mut [f32],
    probs: &mut Probs<T, H>,
) {
    for h in 0..H {
        let qh = head::<T, D>(q, h);
        let kt = transpose(&head::<T, D>(k, h));
        let vh = head::<T, D>(v, h);
        let mut out = [[0.0; D]; T];
        for t in 0..T {
            let mut scores = [0.0; T];
            for (&q, k) in qh[t].iter().zip(&kt) {
                for (score, &k) in scores.iter_mut().zip(k) {
                    *score += q * k;
                }
            }
            let max = scores[..=t]
                .iter()
                .fold(f32::NEG_INFINITY, |m, &x| m.max(x));
            let mut e = [0.0; T];
            for (s, (e, &score)) in e.iter_mut().zip(&scores).enumerate() {
                let x = math::exp_fast(scale::<D>() * (score - max));
                *e = if s <= t { x } else { 0.0 };
            }
            let inv = 1.0 / e[..=t].iter().sum::<f32>();
            let p = &mut probs[t][h];
            for (p, e) in p.iter_mut().zip(&e) {
                *p = e * inv;
            }
            for (&p, v) in p[..=t].iter().zip(&vh) {
                for (out, v) in out[t].iter_mut().zip(v) {
                    *out += p * v;
                }
            }
        }
        add_head(y, h, &out);
    }
}

/// Adds the cotangents of one sequence's `q`, `k`, `v` into `d_q`, `d_k`, `d_v`, given the
/// output's cotangent `g` (all `T` token rows of `H * D` channels).
#[allow(clippy::similar_names)]
fn sequence_adjoint<const T: usize, const H: usize, const D: usize>(
    (q, k, v): (&[f32], &[f32], &[f32]),
    probs: &Probs<T, H>,
    g: &[f32],
    (d_q, d_k, d_v): (&mut [f32], &mut [f32], &mut [f32]),
) {
    for h in 0..H {
        let qh = head::<T, D>(q, h);
        let kh = head::<T, D>(k, h);
        let vt = transpose(&head::<T, D>(v, h));
        let gh = head::<T, D>(g, h);
        let (mut d_qh, mut d_kt, mut d_vt) = ([[0.0; D]; T], [[0.0; T]; D], [[0.0; T]; D]);
        for t in 0..T {
            let p = &probs[t][h];
            // d_v[s] += p[s] g[t];  d_p[s] = g[t] · v[s]
            let mut d_p = [0.0; T];
            for ((&g, d_vt), vt) in gh[t].iter().zip(&mut d_vt).zip(&vt) {
                for (((d_v, d_p), &p), &v) in d_vt.iter_mut().zip(&mut d_p).zip(p).zip(vt) {
                    *d_v += p * g;
                    *d_p += g * v;
                }
            }
            // The softmax's adjoint, with the score scale folded in.
            let dot: f32 = p.iter().zip(&d_p).map(|(p, d)| p * d).sum();
            let mut ds = [0.0; T];
            for ((ds, &p), &d_p) in ds.iter_mut().zip(p).zip(&d_p) {
                *ds = scale::<D>() * p * (d_p - dot);
            }
            // d_q[t] += Σ_s ds[s] k[s];  d_k[s] += ds[s] q[t]
            for (&ds, k) in ds.iter().zip(&kh) {
                for (d_q, &k) in d_qh[t].iter_mut().zip(k) {
                    *d_q += ds * k;
                }
            }
            for (&q, d_kt) in qh[t].iter().zip(&mut d_kt) {
                for (d_k, &ds) in d_kt.iter_mut().zip(&ds) {
                    *d_k += ds * q;
                }
            }
        }
        add_head(d_q, h, &d_qh);
        add_head(d_k, h, &transpose(&d_kt));
        add_head(d_v, h, &transpose(&d_vt));
    }
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
    let mut tape = [[[0.0; T]; H]; T];
    let mut y = [[[[0.0; D]; H]; T]; B];
    for b in 0..B {
        let y = y[b].as_flattened_mut().as_flattened_mut();
        sequence_forward::<T, H, D>((flat(&q[b]), flat(&k[b]), flat(&v[b])), y, &mut tape);
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
    let mut y = [[[[0.0; D]; H]; T]; B];
    for (b, probs) in tape.probs.iter_mut().enumerate() {
        let y = y[b].as_flattened_mut().as_flattened_mut();
        sequence_forward::<T, H, D>((flat(&q[b]), flat(&k[b]), flat(&v[b])), y, probs);
    }
    y
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
    for (b, probs) in tape.probs.iter().enumerate() {
        sequence_adjoint::<T, H, D>(
            (flat(&q[b]), flat(&k[b]), flat(&v[b])),
            probs,
            flat(&d_out[b]),
            (
                d_q[b].as_flattened_mut().as_flattened_mut(),
                d_k[b].as_flattened_mut().as_flattened_mut(),
                d_v[b].as_flattened_mut().as_flattened_mut(),
            ),
        );
    }
}

/// Compile-time checks of the rows layout: `R` rows are whole sequences of `T`, `C = H * D`.
const fn check_rows<
    const T: usize,
    const H: usize,
    const D: usize,
    const R: usize,
    const C: usize,
>() {
    assert!(
        T > 0 && R % T == 0,
        "R must be a whole number of sequences of T tokens"
    );
    assert!(C == H * D, "C must be H * D");
}

/// [`causal_self_attention`] on token rows: `q`, `k`, `v` hold `R / T` sequences of `T` tokens,
/// each token's `C = H * D` channels being its `H` heads of size `D` in turn (the layout of a
/// linear layer's output).
///
/// Shapes: `q`, `k`, `v` `[R][C]` -> `[R][C]`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::nn::causal_self_attention_rows;
///
/// // One sequence of two tokens (T = 2), two heads of size 1 (H = 2, D = 1, C = 2).
/// let q = [[0.0f32, 0.0], [0.0, 0.0]];
/// let v = [[1.0f32, 10.0], [3.0, 30.0]];
/// let y = causal_self_attention_rows::<2, 2, 1, 2, 2>(&q, &q, &v);
/// assert_eq!(y, [[1.0, 10.0], [2.0, 20.0]]);
/// ```
#[must_use]
pub fn causal_self_attention_rows<
    const T: usize,
    const H: usize,
    const D: usize,
    const R: usize,
    const C: usize,
>(
    q: &[[f32; C]; R],
    k: &[[f32; C]; R],
    v: &[[f32; C]; R],
) -> [[f32; C]; R] {
    const { check_rows::<T, H, D, R, C>() };
    let mut probs = [[[0.0; T]; H]; T];
    let mut y = [[0.0; C]; R];
    for (b, y) in y.chunks_exact_mut(T).enumerate() {
        sequence_forward::<T, H, D>(
            (
                seq::<T, C>(&q[..], b),
                seq::<T, C>(&k[..], b),
                seq::<T, C>(&v[..], b),
            ),
            y.as_flattened_mut(),
            &mut probs,
        );
    }
    y
}

/// [`causal_self_attention_rows`], recording the attention probabilities.
pub fn causal_self_attention_rows_forward<
    const T: usize,
    const H: usize,
    const D: usize,
    const R: usize,
    const C: usize,
>(
    q: &[[f32; C]; R],
    k: &[[f32; C]; R],
    v: &[[f32; C]; R],
    tape: &mut CausalSelfAttentionRowsTape<T, H, D, R, C>,
) -> [[f32; C]; R] {
    const { check_rows::<T, H, D, R, C>() };
    let mut y = [[0.0; C]; R];
    for (b, (y, probs)) in y
        .chunks_exact_mut(T)
        .zip(tape.probs.chunks_exact_mut(T))
        .enumerate()
    {
        let probs: &mut Probs<T, H> = probs.try_into().expect("chunks of T rows");
        sequence_forward::<T, H, D>(
            (
                seq::<T, C>(&q[..], b),
                seq::<T, C>(&k[..], b),
                seq::<T, C>(&v[..], b),
            ),
            y.as_flattened_mut(),
            probs,
        );
    }
    y
}

/// Adds the cotangents of `q`, `k` and `v` into `d_q`, `d_k` and `d_v`, as
/// [`causal_self_attention_adjoint`] does for the `[B][T][H][D]` layout.
///
/// Shapes: all `[R][C]`.
#[allow(clippy::too_many_arguments)]
pub fn causal_self_attention_rows_adjoint<
    const T: usize,
    const H: usize,
    const D: usize,
    const R: usize,
    const C: usize,
>(
    q: &[[f32; C]; R],
    k: &[[f32; C]; R],
    v: &[[f32; C]; R],
    tape: &CausalSelfAttentionRowsTape<T, H, D, R, C>,
    d_out: [[f32; C]; R],
    d_q: &mut [[f32; C]; R],
    d_k: &mut [[f32; C]; R],
    d_v: &mut [[f32; C]; R],
) {
    const { check_rows::<T, H, D, R, C>() };
    let chunks = d_q
        .chunks_exact_mut(T)
        .zip(d_k.chunks_exact_mut(T))
        .zip(d_v.chunks_exact_mut(T))
        .zip(tape.probs.chunks_exact(T));
    for (b, (((d_q, d_k), d_v), probs)) in chunks.enumerate() {
        let probs: &Probs<T, H> = probs.try_into().expect("chunks of T rows");
        sequence_adjoint::<T, H, D>(
            (
                seq::<T, C>(&q[..], b),
                seq::<T, C>(&k[..], b),
                seq::<T, C>(&v[..], b),
            ),
            probs,
            seq::<T, C>(&d_out[..], b),
            (
                d_q.as_flattened_mut(),
                d_k.as_flattened_mut(),
                d_v.as_flattened_mut(),
            ),
        );
    }
}
