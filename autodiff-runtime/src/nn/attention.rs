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
//! One sequence at a time, all `T` queries of a head at once: the sequence's queries are
//! transposed once (`[H][D][T]`; `T = 8` floats make one vector; through 8 x 8 register blocks
//! when `T = 8` and `C` is a multiple of 8), keys and values are read in place, so the scores of
//! a key for every query, the causal mask (an additive `0` / `-inf`), the softmax (a lane-wise
//! max and sum over the keys) and the output are `T`-wide vector operations with no horizontal
//! reductions, and the exponentials ([`math::exp_fast`](crate::math::exp_fast)) one flat loop
//! over the `T x T` block (16 lanes with AVX-512); the output goes back to rows through the same
//! transpose. Masked keys get probability exactly `0`, so the adjoint runs over all `T x T` pairs
//! and adds exact zeros for them. The adjoint's key and value cotangents are `T`-wide vectors
//! over the keys, from the blocks of probabilities and score cotangents transposed once per head.

use crate::cpu::{VectorPath, vector_path};
use crate::math;
use crate::wide::{Lanes, LanesLoop, with_lanes_on};

/// The `[T][H][D]` queries, keys or values of one sequence.
type Seq<const T: usize, const H: usize, const D: usize> = [[[f32; D]; H]; T];

/// Queries, keys and values.
type Qkv<'a, M> = (&'a M, &'a M, &'a M);

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

fn scale<const D: usize>() -> f32 {
    1.0 / math::sqrtf(D as f32)
}

/// Whether a sequence transposes in 8 x 8 blocks: `T = 8` tokens, channels a multiple of 8.
const fn blocked<const T: usize, const H: usize, const D: usize>() -> bool {
    T == 8 && (H * D).is_multiple_of(8)
}

/// The heads of one sequence transposed, `[H][D][T]`: `out[h][d][t] = m[t][h][d]`.
#[inline(always)]
fn transpose_heads<S: Lanes, const T: usize, const H: usize, const D: usize>(
    lanes: S,
    m: &Seq<T, H, D>,
) -> [[[f32; T]; D]; H] {
    let mut out = [[[0.0; T]; D]; H];
    if blocked::<T, H, D>() {
        let cols = out.as_flattened_mut();
        for j in 0..H * D / 8 {
            let block: [[f32; 8]; 8] = core::array::from_fn(|t| {
                *m[t].as_flattened()[8 * j..]
                    .first_chunk::<8>()
                    .expect("8 channels")
            });
            for (col, x) in cols[8 * j..].iter_mut().zip(&lanes.transpose8(&block)) {
                col.copy_from_slice(x);
            }
        }
        return out;
    }
    for (t, heads) in m.iter().enumerate() {
        for (out, head) in out.iter_mut().zip(heads) {
            for (out, &x) in out.iter_mut().zip(head) {
                out[t] = x;
            }
        }
    }
    out
}

/// Puts the `[H][D][T]` transposed heads `x` into the sequence `m` (`[T][H][D]`), element by
/// element with `put` (`*m = x` to overwrite, `*m += x` to add).
#[inline(always)]
fn put_transposed<S: Lanes, const T: usize, const H: usize, const D: usize>(
    lanes: S,
    m: &mut Seq<T, H, D>,
    x: &[[[f32; T]; D]; H],
    put: impl Fn(&mut f32, f32),
) {
    if blocked::<T, H, D>() {
        let cols = x.as_flattened();
        for j in 0..H * D / 8 {
            let block: [[f32; 8]; 8] =
                core::array::from_fn(|c| *cols[8 * j + c].first_chunk::<8>().expect("T = 8"));
            for (t, x) in lanes.transpose8(&block).iter().enumerate() {
                for (m, &x) in m[t].as_flattened_mut()[8 * j..][..8].iter_mut().zip(x) {
                    put(m, x);
                }
            }
        }
        return;
    }
    for (t, heads) in m.iter_mut().enumerate() {
        for (head, x) in heads.iter_mut().zip(x) {
            for (m, x) in head.iter_mut().zip(x) {
                put(m, x[t]);
            }
        }
    }
}

/// The attention output of one sequence, written into `y` (every element), with the probabilities into `probs`
/// (`[s][h][t]`).
///
/// Everything is computed transposed, one vector per key `s` with the queries `t` in its lanes:
/// scores `st[s] = scale Σ_d k[s][d] qᵀ[d]`, the softmax over `s` is then lane-wise (no
/// horizontal reductions), and `yᵀ[d] = Σ_s v[s][d] pᵀ[s]`. Keys and values are read in place
/// (one broadcast per element); the queries and the output are transposed once per sequence.
#[inline(always)]
fn sequence_forward<S: Lanes, const T: usize, const H: usize, const D: usize>(
    lanes: S,
    (q, k, v): (&Seq<T, H, D>, &Seq<T, H, D>, &Seq<T, H, D>),
    y: &mut Seq<T, H, D>,
    probs: &mut Probs<T, H>,
) {
    let qt = transpose_heads(lanes, q);
    let mut yt = [[[0.0; T]; D]; H];
    // The causal mask as an additive bias: key `s` is visible to queries `t >= s` only.
    let mask: [[f32; T]; T] = core::array::from_fn(|s| {
        core::array::from_fn(|t| if t >= s { 0.0 } else { f32::NEG_INFINITY })
    });
    for (h, (qt, yt)) in qt.iter().zip(&mut yt).enumerate() {
        // Every accumulator is a fresh local reduced over its innermost loop, so it stays in a
        // register.
        let mut st = [[0.0; T]; T];
        let mut max = [f32::NEG_INFINITY; T];
        for (s, st) in st.iter_mut().enumerate() {
            let mut row = [0.0; T];
            for (&k, qt) in k[s][h].iter().zip(qt) {
                for (r, &q) in row.iter_mut().zip(qt) {
                    *r += k * q;
                }
            }
            for (((st, &r), max), &mask) in st.iter_mut().zip(&row).zip(&mut max).zip(&mask[s]) {
                *st = scale::<D>() * r + mask;
                *max = if *st > *max { *st } else { *max };
            }
        }
        // The exponentials over the whole block at once, as one flat loop: with AVX-512 the
        // compiler runs it on 16 lanes (two keys a vector), where a loop over a key's `T = 8`
        // lanes would use half of each vector. exp(-inf) is exactly 0: masked keys get
        // probability 0.
        let max = [max; T];
        for (e, &max) in st.as_flattened_mut().iter_mut().zip(max.as_flattened()) {
            *e = math::exp_fast(*e - max);
        }
        let mut sum = [0.0; T];
        for st in &st {
            for (sum, &e) in sum.iter_mut().zip(st) {
                *sum += e;
            }
        }
        let inv = [sum.map(|sum| 1.0 / sum); T];
        for (e, &inv) in st.as_flattened_mut().iter_mut().zip(inv.as_flattened()) {
            *e *= inv;
        }
        for (probs, &e) in probs.iter_mut().zip(&st) {
            probs[h] = e;
        }
        for (d, yt) in yt.iter_mut().enumerate() {
            let mut acc = [0.0; T];
            for (pt, v) in st.iter().zip(v) {
                for (a, &p) in acc.iter_mut().zip(pt) {
                    *a += v[h][d] * p;
                }
            }
            *yt = acc;
        }
    }
    put_transposed(lanes, y, &yt, |y, x| *y = x);
}

/// The transpose of a `T x T` block (through registers when `T = 8`).
#[inline(always)]
fn transpose_square<S: Lanes, const T: usize>(lanes: S, m: &[[f32; T]; T]) -> [[f32; T]; T] {
    let mut out = [[0.0; T]; T];
    if T == 8 {
        let (rows, _) = m.as_flattened().as_chunks::<8>();
        let block: &[[f32; 8]; 8] = rows.try_into().expect("T = 8");
        out.as_flattened_mut()
            .copy_from_slice(lanes.transpose8(block).as_flattened());
        return out;
    }
    for (i, row) in m.iter().enumerate() {
        for (out, &x) in out.iter_mut().zip(row) {
            out[i] = x;
        }
    }
    out
}

/// Adds the cotangents of one sequence's `q`, `k`, `v` into `d_q`, `d_k`, `d_v`, given the
/// output's cotangent `g` and the probabilities (`[s][h][t]`), transposed as in
/// [`sequence_forward`]: with `pᵀ[s]`, `gᵀ[d]` vectors over `t`,
/// `d_pᵀ[s] = Σ_d v[s][d] gᵀ[d]`, `dsᵀ[s] = scale pᵀ[s] (d_pᵀ[s] - Σ_s' pᵀ[s'] d_pᵀ[s'])`,
/// `d_qᵀ[d] = Σ_s k[s][d] dsᵀ[s]`. The keys' and values' cotangents are vectors over `s`, from
/// the `T x T` blocks `ds` and `p` transposed to `[t][s]`: `d_kᵀ[d] = Σ_t q[t][d] ds[t]`,
/// `d_vᵀ[d] = Σ_t g[t][d] p[t]`; each sum runs over `t` in order, as a sum per key would.
#[allow(clippy::similar_names)]
#[inline(always)]
fn sequence_adjoint<S: Lanes, const T: usize, const H: usize, const D: usize>(
    lanes: S,
    (q, k, v): (&Seq<T, H, D>, &Seq<T, H, D>, &Seq<T, H, D>),
    probs: &Probs<T, H>,
    g: &Seq<T, H, D>,
    (d_q, d_k, d_v): (&mut Seq<T, H, D>, &mut Seq<T, H, D>, &mut Seq<T, H, D>),
) {
    let gt = transpose_heads(lanes, g);
    let mut d_qt = [[[0.0; T]; D]; H];
    let mut d_kt = [[[0.0; T]; D]; H];
    let mut d_vt = [[[0.0; T]; D]; H];
    for (h, (gt, (d_qt, (d_kt, d_vt)))) in gt
        .iter()
        .zip(d_qt.iter_mut().zip(d_kt.iter_mut().zip(&mut d_vt)))
        .enumerate()
    {
        let mut d_pt = [[0.0; T]; T];
        let mut dot = [0.0; T];
        for ((d_pt, v), probs) in d_pt.iter_mut().zip(v).zip(probs) {
            let mut row = [0.0; T];
            for (&v, gt) in v[h].iter().zip(gt) {
                for (r, &g) in row.iter_mut().zip(gt) {
                    *r += v * g;
                }
            }
            for ((dot, &p), &r) in dot.iter_mut().zip(&probs[h]).zip(&row) {
                *dot += p * r;
            }
            *d_pt = row;
        }
        let mut acc_q = [[0.0; T]; D];
        let mut ds = [[0.0; T]; T];
        let mut p = [[0.0; T]; T];
        for (s, (d_pt, (ds, p))) in d_pt.iter().zip(ds.iter_mut().zip(&mut p)).enumerate() {
            *p = probs[s][h];
            for (((ds, &p), &d_p), &dot) in ds.iter_mut().zip(&*p).zip(d_pt).zip(&dot) {
                *ds = scale::<D>() * p * (d_p - dot);
            }
            for (acc, &k) in acc_q.iter_mut().zip(&k[s][h]) {
                for (a, &ds) in acc.iter_mut().zip(&*ds) {
                    *a += k * ds;
                }
            }
        }
        *d_qt = acc_q;
        let (ds, p) = (transpose_square(lanes, &ds), transpose_square(lanes, &p));
        for (d, (d_kt, d_vt)) in d_kt.iter_mut().zip(d_vt).enumerate() {
            let (mut acc_k, mut acc_v) = ([0.0; T], [0.0; T]);
            for (t, (ds, p)) in ds.iter().zip(&p).enumerate() {
                let (q, g) = (q[t][h][d], g[t][h][d]);
                for ((a_k, a_v), (&ds, &p)) in
                    acc_k.iter_mut().zip(&mut acc_v).zip(ds.iter().zip(p))
                {
                    *a_k += ds * q;
                    *a_v += p * g;
                }
            }
            *d_kt = acc_k;
            *d_vt = acc_v;
        }
    }
    put_transposed(lanes, d_q, &d_qt, |d, x| *d += x);
    put_transposed(lanes, d_k, &d_kt, |d, x| *d += x);
    put_transposed(lanes, d_v, &d_vt, |d, x| *d += x);
}

/// [`sequence_forward`] compiled for `path` (the widest vectors the CPU has, from
/// [`vector_path`]): with `T = 8` one AVX2 vector holds a key's scores for every query.
fn sequence_forward_on<const T: usize, const H: usize, const D: usize>(
    path: VectorPath,
    qkv: Qkv<'_, Seq<T, H, D>>,
    y: &mut Seq<T, H, D>,
    probs: &mut Probs<T, H>,
) {
    /// The arguments of [`sequence_forward`], as a loop for [`with_lanes_on`].
    struct Forward<'a, const T: usize, const H: usize, const D: usize> {
        qkv: Qkv<'a, Seq<T, H, D>>,
        y: &'a mut Seq<T, H, D>,
        probs: &'a mut Probs<T, H>,
    }
    impl<const T: usize, const H: usize, const D: usize> LanesLoop for Forward<'_, T, H, D> {
        type Output = ();
        #[inline(always)]
        fn run<S: Lanes>(self, lanes: S) {
            sequence_forward(lanes, self.qkv, self.y, self.probs);
        }
    }
    with_lanes_on(path, Forward { qkv, y, probs });
}

/// [`sequence_adjoint`] compiled for `path`.
fn sequence_adjoint_on<const T: usize, const H: usize, const D: usize>(
    path: VectorPath,
    qkv: Qkv<'_, Seq<T, H, D>>,
    probs: &Probs<T, H>,
    g: &Seq<T, H, D>,
    d_qkv: (&mut Seq<T, H, D>, &mut Seq<T, H, D>, &mut Seq<T, H, D>),
) {
    /// The arguments of [`sequence_adjoint`], as a loop for [`with_lanes_on`].
    struct Adjoint<'a, const T: usize, const H: usize, const D: usize> {
        qkv: Qkv<'a, Seq<T, H, D>>,
        probs: &'a Probs<T, H>,
        g: &'a Seq<T, H, D>,
        d_qkv: (
            &'a mut Seq<T, H, D>,
            &'a mut Seq<T, H, D>,
            &'a mut Seq<T, H, D>,
        ),
    }
    impl<const T: usize, const H: usize, const D: usize> LanesLoop for Adjoint<'_, T, H, D> {
        type Output = ();
        #[inline(always)]
        fn run<S: Lanes>(self, lanes: S) {
            sequence_adjoint(lanes, self.qkv, self.probs, self.g, self.d_qkv);
        }
    }
    with_lanes_on(
        path,
        Adjoint {
            qkv,
            probs,
            g,
            d_qkv,
        },
    );
}

/// Sequence `b` of `T` token rows of `C = H * D` channels, seen as `[T][H][D]`.
fn seq<const T: usize, const H: usize, const D: usize, const C: usize>(
    m: &[[f32; C]],
    b: usize,
) -> &Seq<T, H, D> {
    let (heads, _) = m[b * T..][..T].as_flattened().as_chunks::<D>();
    let (tokens, _) = heads.as_chunks::<H>();
    tokens
        .try_into()
        .expect("T tokens of H heads of D channels")
}

/// [`seq`], mutable.
fn seq_mut<const T: usize, const H: usize, const D: usize, const C: usize>(
    m: &mut [[f32; C]],
    b: usize,
) -> &mut Seq<T, H, D> {
    let (heads, _) = m[b * T..][..T].as_flattened_mut().as_chunks_mut::<D>();
    let (tokens, _) = heads.as_chunks_mut::<H>();
    tokens
        .try_into()
        .expect("T tokens of H heads of D channels")
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
    let mut y = [[[[0.0; D]; H]; T]; B];
    batch_forward((q, k, v), None, &mut y);
    y
}

/// Every sequence, writing the probabilities into `probs` when given (else into a one-sequence
/// scratch).
fn batch_forward<const B: usize, const T: usize, const H: usize, const D: usize>(
    (q, k, v): Qkv<'_, [Seq<T, H, D>; B]>,
    mut probs: Option<&mut [Probs<T, H>; B]>,
    out: &mut [Seq<T, H, D>; B],
) {
    let mut scratch = [[[0.0; T]; H]; T];
    let path = vector_path();
    for (b, y) in out.iter_mut().enumerate() {
        let probs = match probs.as_deref_mut() {
            Some(all) => &mut all[b],
            None => &mut scratch,
        };
        sequence_forward_on::<T, H, D>(path, (&q[b], &k[b], &v[b]), y, probs);
    }
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
    batch_forward((q, k, v), Some(&mut tape.probs), &mut y);
    y
}

/// [`causal_self_attention_forward`] into `out`, every element of which it overwrites: a
/// caller's forward sweep writes a recorded output straight into its tape slot, with no copy.
pub fn causal_self_attention_forward_into<
    const B: usize,
    const T: usize,
    const H: usize,
    const D: usize,
>(
    q: &[Seq<T, H, D>; B],
    k: &[Seq<T, H, D>; B],
    v: &[Seq<T, H, D>; B],
    tape: &mut CausalSelfAttentionTape<B, T, H, D>,
    out: &mut [Seq<T, H, D>; B],
) {
    batch_forward((q, k, v), Some(&mut tape.probs), out);
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
    let path = vector_path();
    for (b, probs) in tape.probs.iter().enumerate() {
        sequence_adjoint_on::<T, H, D>(
            path,
            (&q[b], &k[b], &v[b]),
            probs,
            &d_out[b],
            (&mut d_q[b], &mut d_k[b], &mut d_v[b]),
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
        T > 0 && R.is_multiple_of(T),
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
    let mut y = [[0.0; C]; R];
    rows_forward::<T, H, D, R, C>((q, k, v), None, &mut y);
    y
}

/// Every sequence of the rows, writing the probabilities into `probs` when given (else into a
/// one-sequence scratch).
fn rows_forward<const T: usize, const H: usize, const D: usize, const R: usize, const C: usize>(
    (q, k, v): Qkv<'_, [[f32; C]; R]>,
    mut probs: Option<&mut [[[f32; T]; H]; R]>,
    out: &mut [[f32; C]; R],
) {
    const { check_rows::<T, H, D, R, C>() };
    let mut scratch = [[[0.0; T]; H]; T];
    let path = vector_path();
    for b in 0..R / T {
        let probs: &mut Probs<T, H> = match probs.as_deref_mut() {
            Some(all) => (&mut all[b * T..][..T]).try_into().expect("T rows"),
            None => &mut scratch,
        };
        sequence_forward_on::<T, H, D>(
            path,
            (
                seq::<T, H, D, C>(q, b),
                seq::<T, H, D, C>(k, b),
                seq::<T, H, D, C>(v, b),
            ),
            seq_mut::<T, H, D, C>(out, b),
            probs,
        );
    }
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
    let mut y = [[0.0; C]; R];
    rows_forward::<T, H, D, R, C>((q, k, v), Some(&mut tape.probs), &mut y);
    y
}

/// [`causal_self_attention_rows_forward`] into `out`, every element of which it overwrites: a
/// caller's forward sweep writes a recorded output straight into its tape slot, with no copy.
pub fn causal_self_attention_rows_forward_into<
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
    out: &mut [[f32; C]; R],
) {
    rows_forward::<T, H, D, R, C>((q, k, v), Some(&mut tape.probs), out);
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
    let path = vector_path();
    for (b, probs) in tape.probs.chunks_exact(T).enumerate() {
        let probs: &Probs<T, H> = probs.try_into().expect("chunks of T rows");
        sequence_adjoint_on::<T, H, D>(
            path,
            (
                seq::<T, H, D, C>(q, b),
                seq::<T, H, D, C>(k, b),
                seq::<T, H, D, C>(v, b),
            ),
            probs,
            seq::<T, H, D, C>(d_out, b),
            (
                seq_mut::<T, H, D, C>(d_q, b),
                seq_mut::<T, H, D, C>(d_k, b),
                seq_mut::<T, H, D, C>(d_v, b),
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wide::Plain;
    use alloc::vec::Vec;

    /// A sequence of `T` tokens with values in `[-1, 1)` from `seed`.
    #[allow(clippy::cast_precision_loss)]
    fn filled<const T: usize, const H: usize, const D: usize>(seed: usize) -> Seq<T, H, D> {
        let mut m = [[[0.0; D]; H]; T];
        for (i, x) in m
            .as_flattened_mut()
            .as_flattened_mut()
            .iter_mut()
            .enumerate()
        {
            *x = (((i + 1) * (seed + 7919)) % 1009) as f32 / 504.5 - 1.0;
        }
        m
    }

    /// One sequence's forward and adjoint (adding into non-zero cotangents), as the bits of the
    /// output, the cotangents and the probabilities.
    struct Sequence<const T: usize, const H: usize, const D: usize>(usize);

    impl<const T: usize, const H: usize, const D: usize> LanesLoop for Sequence<T, H, D> {
        type Output = Vec<u32>;
        #[inline(always)]
        fn run<S: Lanes>(self, lanes: S) -> Vec<u32> {
            let [q, k, v, g] = core::array::from_fn(|i| filled::<T, H, D>(4 * self.0 + i));
            let (mut y, mut probs) = ([[[0.0; D]; H]; T], [[[0.0; T]; H]; T]);
            let (mut d_q, mut d_k, mut d_v) = (g, q, k);
            sequence_forward(lanes, (&q, &k, &v), &mut y, &mut probs);
            sequence_adjoint(
                lanes,
                (&q, &k, &v),
                &probs,
                &g,
                (&mut d_q, &mut d_k, &mut d_v),
            );
            let mut bits: Vec<u32> = [y, d_q, d_k, d_v]
                .iter()
                .flat_map(|m| m.as_flattened().as_flattened().iter().map(|x| x.to_bits()))
                .collect();
            bits.extend(
                probs
                    .as_flattened()
                    .as_flattened()
                    .iter()
                    .map(|x| x.to_bits()),
            );
            bits
        }
    }

    fn same_bits_on_every_path<const T: usize, const H: usize, const D: usize>() {
        for seed in 0..4 {
            let plain = Sequence::<T, H, D>(seed).run(Plain);
            for path in VectorPath::available() {
                let got = with_lanes_on(path, Sequence::<T, H, D>(seed));
                assert_eq!(got, plain, "T = {T}, H = {H}, D = {D}, seed {seed}: {path}");
            }
        }
    }

    /// The kernels round alike on every path this CPU has: no fused multiply-adds, and the
    /// compiler's vectorization of the plain loops (8 or 16 lanes, or none in a debug build)
    /// never reorders or fuses an operation, so what this compares is the explicit lane
    /// operations, such as the transposes: the GPT's shape and the 8 x 8 register transposes
    /// (`T = 8`), and shapes transposed element by element. The portable path is plain arrays
    /// itself; on a CPU with neither AVX2 nor AVX-512 there is nothing to compare.
    #[test]
    fn every_path_gives_the_plain_arrays_bits() {
        same_bits_on_every_path::<8, 6, 4>();
        same_bits_on_every_path::<8, 3, 8>();
        same_bits_on_every_path::<4, 2, 3>();
        same_bits_on_every_path::<5, 1, 2>();
    }
}
