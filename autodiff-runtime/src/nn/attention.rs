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
//! Probabilities are kept key-major, `[B][T][H][T]` (`[R][H][T]` for rows): `probs[b][s][h][t]`
//! is how much query `t` attends to key `s` in head `h`, zero for `s > t`.
//!
//! # The kernel
//!
//! One sequence and one head at a time, all `T` queries at once: the head's queries are copied
//! transposed (`[D][T]`; `T = 8` floats make one vector), so the scores of a key for every query,
//! the softmax (a lane-wise max and sum over the keys), the exponentials
//! ([`math::exp_fast`](crate::math::exp_fast)) and the output are `T`-wide vector operations
//! with no horizontal reductions. Masked keys get probability exactly `0`, so the adjoint runs
//! over all `T x T` pairs and adds exact zeros for them.

use crate::math;

/// The `[T][H][D]` queries, keys or values of one sequence.
type Seq<const T: usize, const H: usize, const D: usize> = [[[f32; D]; H]; T];

/// `probs[s][h][t]` of one sequence: key, head, query.
type Probs<const T: usize, const H: usize> = [[[f32; T]; H]; T];

tape! {
    /// What [`causal_self_attention_adjoint`] reads: the attention probabilities.
    pub struct CausalSelfAttentionTape<
        const B: usize, const T: usize, const H: usize, const D: usize
    > {
        /// `probs[b][s][h][t]`: how much query `t` attends to key `s` in head `h` (zero for
        /// `s > t`), `[B][T][H][T]`.
        pub probs: [Probs<T, H>; B] = [[[[0.0; T]; H]; T]; B],
    }
}

tape! {
    /// What [`causal_self_attention_rows_adjoint`] reads: the attention probabilities.
    pub struct CausalSelfAttentionRowsTape<
        const T: usize, const H: usize, const D: usize, const R: usize, const C: usize
    > {
        /// `probs[b * T + s][h][t]`: how much query `t` of sequence `b` attends to key `s` in head
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
/// added into `y`, with the probabilities into `probs` (`[s][h][t]`).
///
/// Everything is computed transposed, one vector per key `s` with the queries `t` in its lanes:
/// scores `st[s] = scale Σ_d k[s][d] qᵀ[d]`, the softmax over `s` is then lane-wise (no
/// horizontal reductions), and `yᵀ[d] = Σ_s v[s][d] pᵀ[s]`.
#[allow(clippy::needless_range_loop)] // `h` picks channels of q, k, v, y and the middle axis of probs
fn sequence_forward<const T: usize, const H: usize, const D: usize>(
    (q, k, v): (&[f32], &[f32], &[f32]),
    y: &mut [f32],
    probs: &mut Probs<T, H>,
) {
    for h in 0..H {
        let qt = transpose(&head::<T, D>(q, h));
        let kh = head::<T, D>(k, h);
        let vh = head::<T, D>(v, h);
        let mut st = [[0.0; T]; T];
        for (st, k) in st.iter_mut().zip(&kh) {
            for (&k, qt) in k.iter().zip(&qt) {
                for (st, &q) in st.iter_mut().zip(qt) {
                    *st += k * q;
                }
            }
        }
        // Key `s` is visible to queries `t >= s` only.
        let mut max = [f32::NEG_INFINITY; T];
        for (s, st) in st.iter_mut().enumerate() {
            for (t, (st, max)) in st.iter_mut().zip(&mut max).enumerate() {
                *st = if t >= s {
                    scale::<D>() * *st
                } else {
                    f32::NEG_INFINITY
                };
                *max = if *st > *max { *st } else { *max };
            }
        }
        let mut sum = [0.0; T];
        for st in &mut st {
            for ((e, &max), sum) in st.iter_mut().zip(&max).zip(&mut sum) {
                // exp(-inf) is exactly 0: masked keys get probability 0.
                *e = math::exp_fast(*e - max);
                *sum += *e;
            }
        }
        let inv = sum.map(|sum| 1.0 / sum);
        let mut yt = [[0.0; T]; D];
        for (s, pt) in st.iter().enumerate() {
            let p = &mut probs[s][h];
            for ((p, &e), &inv) in p.iter_mut().zip(pt).zip(&inv) {
                *p = e * inv;
            }
            for (yt, &v) in yt.iter_mut().zip(&vh[s]) {
                for (y, &p) in yt.iter_mut().zip(p.iter()) {
                    *y += v * p;
                }
            }
        }
        add_head(y, h, &transpose(&yt));
    }
}

/// Adds the cotangents of one sequence's `q`, `k`, `v` into `d_q`, `d_k`, `d_v`, given the
/// output's cotangent `g` (all `T` token rows of `H * D` channels) and the probabilities
/// (`[s][h][t]`), transposed as in [`sequence_forward`]: with `pᵀ[s]`, `gᵀ[d]` vectors over `t`,
/// `d_pᵀ[s] = Σ_d v[s][d] gᵀ[d]`, `dsᵀ[s] = scale pᵀ[s] (d_pᵀ[s] - Σ_s' pᵀ[s'] d_pᵀ[s'])`,
/// `d_qᵀ[d] = Σ_s k[s][d] dsᵀ[s]`, `d_k[s] = Σ_t dsᵀ[s][t] q[t]`, `d_v[s] = Σ_t pᵀ[s][t] g[t]`.
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
        let vh = head::<T, D>(v, h);
        let gh = head::<T, D>(g, h);
        let gt = transpose(&gh);
        let mut d_pt = [[0.0; T]; T];
        let mut dot = [0.0; T];
        for ((d_pt, v), probs) in d_pt.iter_mut().zip(&vh).zip(probs) {
            for (&v, gt) in v.iter().zip(&gt) {
                for (d_p, &g) in d_pt.iter_mut().zip(gt) {
                    *d_p += v * g;
                }
            }
            for ((dot, &p), &d_p) in dot.iter_mut().zip(&probs[h]).zip(d_pt.iter()) {
                *dot += p * d_p;
            }
        }
        let (mut d_qt, mut d_kh, mut d_vh) = ([[0.0; T]; D], [[0.0; D]; T], [[0.0; D]; T]);
        for (s, d_pt) in d_pt.iter().enumerate() {
            let pt = &probs[s][h];
            let mut dst = [0.0; T];
            for (((ds, &p), &d_p), &dot) in dst.iter_mut().zip(pt).zip(d_pt).zip(&dot) {
                *ds = scale::<D>() * p * (d_p - dot);
            }
            for (d_qt, &k) in d_qt.iter_mut().zip(&kh[s]) {
                for (d_q, &ds) in d_qt.iter_mut().zip(&dst) {
                    *d_q += k * ds;
                }
            }
            for (t, (&ds, &p)) in dst.iter().zip(pt).enumerate() {
                for (((d_k, d_v), &q), &g) in
                    d_kh[s].iter_mut().zip(&mut d_vh[s]).zip(&qh[t]).zip(&gh[t])
                {
                    *d_k += ds * q;
                    *d_v += p * g;
                }
            }
        }
        add_head(d_q, h, &transpose(&d_qt));
        add_head(d_k, h, &d_kh);
        add_head(d_v, h, &d_vh);
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
    d_out: &[Seq<T, H, D>; B],
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
    d_out: &[[f32; C]; R],
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
