fn lane_rows(l: &[f64; 10], m: &[[f64; 3]; 2], x: &[f64; 4]) -> [f64; 2] {
    let mut q = [0.0; 4];
    for a in 0..4 {
        for b in a + 1..4 {
            let c = (0.5 * x[a]).exp();
            let e = c * x[a];
            q[b] += l[a * (7 - a) / 2 + b - a - 1] * e;
        }
    }
    let mut r = [0.0; 5];
    for k in 0..2 {
        for j in (0..=2).rev() {
            r[j + 1] += m[k][j] * x[k] - 0.5 * l[j + 4];
        }
    }
    for k in 0..2 {
        for j in 0..2 {
            r[j] += l[2 * j] * x[k];
        }
        for j in 0..3 {
            r[j + 2] -= q[k] * x[j];
        }
        for j in 0..3 {
            q[j] = q[j] * x[k] + l[j + 1] * l[j];
        }
        for j in 0..3 {
            q[j + 1] += m[k][j].max(x[k]);
        }
    }
    let mut s = 0.0;
    for d in 0..4 {
        s += q[d] * q[d];
    }
    [s + r[0], r[1] * r[2] + r[3] - r[4].sin()]
}
///The tape of [`lane_rows`]: what [`lane_rows_adjoint`] reads, recorded by [`lane_rows_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct LaneRowsTape {
    ///`e` (line 14)
    e: [[f64; 3]; 4],
    ///`q` (line 8) after its last write
    q: [f64; 4],
    ///`r[..]` where it is read
    r_2: f64,
    ///`r[..]` where it is read
    r_1: f64,
    ///`r[..]` where it is read
    r: f64,
}
impl LaneRowsTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("e", "e (line 14)", "[[f64 ; 3] ; 4]", ::core::mem::size_of::<[[f64; 3]; 4]>()),
        (
            "q",
            "q (line 8) after its last write",
            "[f64 ; 4]",
            ::core::mem::size_of::<[f64; 4]>(),
        ),
        ("r_2", "r[..] where it is read", "f64", ::core::mem::size_of::<f64>()),
        ("r_1", "r[..] where it is read", "f64", ::core::mem::size_of::<f64>()),
        ("r", "r[..] where it is read", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            e: [[0.0; 3]; 4],
            q: [0.0; 4],
            r_2: 0.0,
            r_1: 0.0,
            r: 0.0,
        }
    }
}
impl ::core::default::Default for LaneRowsTape {
    fn default() -> Self {
        Self::new()
    }
}
impl LaneRowsTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`lane_rows`] and records in `tape` what [`lane_rows_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn lane_rows_forward(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    tape: &mut LaneRowsTape,
) -> [f64; 2] {
    let mut q: [f64; 4] = [0.0; 4];
    for (k0, a) in (0..4).enumerate() {
        for (k1, b) in (a + 1..4).enumerate() {
            let t0 = 0.5 * x[a];
            let c: f64 = t0.exp();
            let e: f64 = c * x[a];
            tape.e[k0][k1] = e;
            let t1 = l[((((a * (7 - a)) / 2) + b) - a) - 1] * e;
            q[b] = q[b] + t1;
        }
    }
    let mut r: [f64; 5] = [0.0; 5];
    for k in (0..2) {
        for j in (0..=2).rev() {
            let t2 = m[k][j] * x[k];
            let t3 = 0.5 * l[j + 4];
            let t4 = t2 - t3;
            r[j + 1] = r[j + 1] + t4;
        }
    }
    for k_1 in (0..2) {
        for j_1 in (0..2) {
            let t5 = l[2 * j_1] * x[k_1];
            r[j_1] = r[j_1] + t5;
        }
        for j_2 in (0..3) {
            let t6 = q[k_1] * x[j_2];
            r[j_2 + 2] = r[j_2 + 2] - t6;
        }
        for j_3 in (0..3) {
            let t7 = q[j_3] * x[k_1];
            let t8 = l[j_3 + 1] * l[j_3];
            q[j_3] = t7 + t8;
        }
        for j_4 in (0..3) {
            let t9 = m[k_1][j_4].max(x[k_1]);
            q[j_4 + 1] = q[j_4 + 1] + t9;
        }
    }
    tape.q = q;
    let mut s: f64 = 0.0;
    for d in (0..4) {
        let t10 = q[d] * q[d];
        s = s + t10;
    }
    let t11 = s + r[0];
    tape.r_2 = r[1];
    tape.r_1 = r[2];
    let t12 = r[1] * r[2];
    let t13 = t12 + r[3];
    tape.r = r[4];
    let t14 = r[4].sin();
    let t15 = t13 - t14;
    [t11, t15]
}
///[`lane_rows_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn lane_rows_forward_into(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    tape: &mut LaneRowsTape,
    out: &mut [f64; 2],
) {
    let mut q: [f64; 4] = [0.0; 4];
    for (k0, a) in (0..4).enumerate() {
        for (k1, b) in (a + 1..4).enumerate() {
            let t0 = 0.5 * x[a];
            let c: f64 = t0.exp();
            let e: f64 = c * x[a];
            tape.e[k0][k1] = e;
            let t1 = l[((((a * (7 - a)) / 2) + b) - a) - 1] * e;
            q[b] = q[b] + t1;
        }
    }
    let mut r: [f64; 5] = [0.0; 5];
    for k in (0..2) {
        for j in (0..=2).rev() {
            let t2 = m[k][j] * x[k];
            let t3 = 0.5 * l[j + 4];
            let t4 = t2 - t3;
            r[j + 1] = r[j + 1] + t4;
        }
    }
    for k_1 in (0..2) {
        for j_1 in (0..2) {
            let t5 = l[2 * j_1] * x[k_1];
            r[j_1] = r[j_1] + t5;
        }
        for j_2 in (0..3) {
            let t6 = q[k_1] * x[j_2];
            r[j_2 + 2] = r[j_2 + 2] - t6;
        }
        for j_3 in (0..3) {
            let t7 = q[j_3] * x[k_1];
            let t8 = l[j_3 + 1] * l[j_3];
            q[j_3] = t7 + t8;
        }
        for j_4 in (0..3) {
            let t9 = m[k_1][j_4].max(x[k_1]);
            q[j_4 + 1] = q[j_4 + 1] + t9;
        }
    }
    tape.q = q;
    let mut s: f64 = 0.0;
    for d in (0..4) {
        let t10 = q[d] * q[d];
        s = s + t10;
    }
    let t11 = s + r[0];
    tape.r_2 = r[1];
    tape.r_1 = r[2];
    let t12 = r[1] * r[2];
    let t13 = t12 + r[3];
    tape.r = r[4];
    let t14 = r[4].sin();
    let t15 = t13 - t14;
    *out = [t11, t15];
}
/**The reverse sweep of [`lane_rows`]: adds `d_out` times the derivative of `lane_rows` with respect to `l`, `m` into `d_l`, `d_m`.

`tape` must have been filled by [`lane_rows_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn lane_rows_adjoint(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    tape: &LaneRowsTape,
    d_out: &[f64; 2],
    d_l: &mut [f64; 10],
    d_m: &mut [[f64; 3]; 2],
) {
    let mut d_q: [f64; 4] = [0.0; 4];
    let mut d_r: [f64; 5] = [0.0; 5];
    let mut d_s: f64 = -0.0;
    let d_t11: f64 = (*d_out)[0];
    let d_t15: f64 = (*d_out)[1];
    let d_t14: f64 = -d_t15;
    d_r[4] += d_t14 * tape.r.cos();
    d_r[3] += d_t15;
    d_r[1] += d_t15 * tape.r_1;
    d_r[2] += d_t15 * tape.r_2;
    d_s += d_t11;
    d_r[0] += d_t11;
    for (k9, d) in (0..4).enumerate().rev() {
        d_q[d] += d_s * 2.0 * tape.q[d];
    }
    for (k4, k_1) in (0..2).enumerate().rev() {
        for (k8, j_4) in (0..3).enumerate().rev() {
            let d_t9: f64 = d_q[j_4 + 1];
            d_m[k_1][j_4] += if m[k_1][j_4] >= x[k_1] { d_t9 } else { 0.0 };
        }
        for (k7, j_3) in (0..3).enumerate().rev() {
            let d_q_1: f64 = d_q[j_3];
            d_q[j_3] = -0.0;
            d_l[j_3 + 1] += d_q_1 * l[j_3];
            d_l[j_3] += d_q_1 * l[j_3 + 1];
            d_q[j_3] += d_q_1 * x[k_1];
        }
        for (k6, j_2) in (0..3).enumerate().rev() {
            let d_t6: f64 = -d_r[j_2 + 2];
            d_q[k_1] += d_t6 * x[j_2];
        }
        for (k5, j_1) in (0..2).enumerate().rev() {
            let d_t5: f64 = d_r[j_1];
            d_l[2 * j_1] += d_t5 * x[k_1];
        }
    }
    for (k2, k) in (0..2).enumerate().rev() {
        for (k3, j) in (0..2 + 1).rev().enumerate().rev() {
            let d_t2: f64 = d_r[j + 1];
            d_l[j + 4] += -(d_r[j + 1] * 0.5);
            d_m[k][j] += d_t2 * x[k];
        }
    }
    for (k0, a) in (0..4).enumerate().rev() {
        for (k1, b) in (a + 1..4).enumerate().rev() {
            let d_t1: f64 = d_q[b];
            d_l[((((a * (7 - a)) / 2) + b) - a) - 1] += d_t1 * tape.e[k0][k1];
        }
    }
}
///The value of [`lane_rows`] and its directional derivative: the derivative with respect to `l`, `m` along the tangents `t_l`, `t_m` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn lane_rows_jvp(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    t_l: &[f64; 10],
    t_m: &[[f64; 3]; 2],
) -> ([f64; 2], [f64; 2]) {
    let mut q: [f64; 4] = [0.0; 4];
    let mut t_q: [f64; 4] = [0.0; 4];
    for a in (0..4) {
        for b in (a + 1..4) {
            let t0 = 0.5 * x[a];
            let c: f64 = t0.exp();
            let e: f64 = c * x[a];
            let t1 = l[((((a * (7 - a)) / 2) + b) - a) - 1] * e;
            q[b] = q[b] + t1;
        }
    }
    for a in (0..4) {
        for b in (a + 1..4) {
            let t0 = 0.5 * x[a];
            let c: f64 = t0.exp();
            let e: f64 = c * x[a];
            let t_t1: f64 = t_l[((((a * (7 - a)) / 2) + b) - a) - 1] * e;
            t_q[b] = t_q[b] + t_t1;
        }
    }
    let mut r: [f64; 5] = [0.0; 5];
    let mut t_r: [f64; 5] = [0.0; 5];
    for k in (0..2) {
        for j in (0..=2).rev() {
            let t2 = m[k][j] * x[k];
            let t3 = 0.5 * l[j + 4];
            let t4 = t2 - t3;
            r[j + 1] = r[j + 1] + t4;
        }
    }
    for k in (0..2) {
        for j in (0..=2).rev() {
            let t_t2: f64 = t_m[k][j] * x[k];
            let t_t3: f64 = 0.5_f64 * t_l[j + 4];
            let t_t4: f64 = t_t2 - t_t3;
            t_r[j + 1] = t_r[j + 1] + t_t4;
        }
    }
    for k_1 in (0..2) {
        for j_1 in (0..2) {
            let t5 = l[2 * j_1] * x[k_1];
            r[j_1] = r[j_1] + t5;
        }
        for j_2 in (0..3) {
            let t6 = q[k_1] * x[j_2];
            r[j_2 + 2] = r[j_2 + 2] - t6;
        }
        for j_3 in (0..3) {
            let t7 = q[j_3] * x[k_1];
            let t8 = l[j_3 + 1] * l[j_3];
            q[j_3] = t7 + t8;
        }
        for j_4 in (0..3) {
            let t9 = m[k_1][j_4].max(x[k_1]);
            q[j_4 + 1] = q[j_4 + 1] + t9;
        }
    }
    for k_1 in (0..2) {
        for j_1 in (0..2) {
            let t_t5: f64 = t_l[2 * j_1] * x[k_1];
            t_r[j_1] = t_r[j_1] + t_t5;
        }
        for j_2 in (0..3) {
            let t_t6: f64 = t_q[k_1] * x[j_2];
            t_r[j_2 + 2] = t_r[j_2 + 2] - t_t6;
        }
        for j_3 in (0..3) {
            let t_t7: f64 = t_q[j_3] * x[k_1];
            let t_t8: f64 = t_l[j_3 + 1] * l[j_3] + l[j_3 + 1] * t_l[j_3];
            t_q[j_3] = t_t7 + t_t8;
        }
        for j_4 in (0..3) {
            let t_t9: f64 = if m[k_1][j_4] >= x[k_1] { t_m[k_1][j_4] } else { 0.0 };
            t_q[j_4 + 1] = t_q[j_4 + 1] + t_t9;
        }
    }
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    for d in (0..4) {
        let t10 = q[d] * q[d];
        let t_t10: f64 = 2.0 * q[d] * t_q[d];
        t_s = t_s + t_t10;
        s = s + t10;
    }
    let t11 = s + r[0];
    let t_t11: f64 = t_s + t_r[0];
    let t12 = r[1] * r[2];
    let t_t12: f64 = t_r[1] * r[2] + r[1] * t_r[2];
    let t13 = t12 + r[3];
    let t_t13: f64 = t_t12 + t_r[3];
    let t14 = r[4].sin();
    let t_t14: f64 = t_r[4] * r[4].cos();
    let t15 = t13 - t14;
    let t_t15: f64 = t_t13 - t_t14;
    let t16 = [t11, t15];
    let t_t16: [f64; 2] = [t_t11, t_t15];
    (t16, t_t16)
}
///[`lane_rows_jvp`] along `W` directions at once (vector forward mode): the value of [`lane_rows`] and its derivatives with respect to `l`, `m` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn lane_rows_jvp_vec<const __W: usize>(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    t_l: &[[f64; __W]; 10],
    t_m: &[[[f64; __W]; 3]; 2],
) -> ([f64; 2], [[f64; __W]; 2]) {
    let mut q: [f64; 4] = [0.0; 4];
    let mut t_q: [[f64; __W]; 4] = [[0.0; __W]; 4];
    for a in (0..4) {
        for b in (a + 1..4) {
            let t0 = 0.5 * x[a];
            let c: f64 = t0.exp();
            let e: f64 = c * x[a];
            let t1 = l[((((a * (7 - a)) / 2) + b) - a) - 1] * e;
            q[b] = q[b] + t1;
        }
    }
    for a in (0..4) {
        {
            let __flat_start: usize = a + 1;
            let __flat_len: usize = {
                let __end: usize = 4;
                __end.saturating_sub(__flat_start)
            };
            if __flat_len > 0 {
                let __flat_base0: usize = ((((a * (7 - a)) / 2) + __flat_start) - a) - 1;
                let __row0 = &(*t_l)
                    .as_flattened()[__flat_base0 * __W..][..__flat_len * __W];
                let __flat_base1: usize = __flat_start;
                let __row1 = &mut t_q
                    .as_flattened_mut()[__flat_base1 * __W..][..__flat_len * __W];
                let t0 = 0.5 * x[a];
                let c: f64 = t0.exp();
                let e: f64 = c * x[a];
                for __e in 0..__flat_len * __W {
                    let t_t1: f64 = __row0[__e] * e;
                    __row1[__e] = __row1[__e] + t_t1;
                }
            }
        }
    }
    let mut r: [f64; 5] = [0.0; 5];
    let mut t_r: [[f64; __W]; 5] = [[0.0; __W]; 5];
    for k in (0..2) {
        for j in (0..=2).rev() {
            let t2 = m[k][j] * x[k];
            let t3 = 0.5 * l[j + 4];
            let t4 = t2 - t3;
            r[j + 1] = r[j + 1] + t4;
        }
    }
    for k in (0..2) {
        {
            let __flat_start: usize = 0;
            let __flat_len: usize = {
                let __end: usize = 2;
                if __end >= __flat_start { __end - __flat_start + 1 } else { 0 }
            };
            if __flat_len > 0 {
                let __flat_base0: usize = __flat_start;
                let __row0 = &t_m[k]
                    .as_flattened()[__flat_base0 * __W..][..__flat_len * __W];
                let __flat_base1: usize = __flat_start + 4;
                let __row1 = &(*t_l)
                    .as_flattened()[__flat_base1 * __W..][..__flat_len * __W];
                let __flat_base2: usize = __flat_start + 1;
                let __row2 = &mut t_r
                    .as_flattened_mut()[__flat_base2 * __W..][..__flat_len * __W];
                for __e in 0..__flat_len * __W {
                    let t_t2: f64 = __row0[__e] * x[k];
                    let t_t3: f64 = 0.5_f64 * __row1[__e];
                    let t_t4: f64 = t_t2 - t_t3;
                    __row2[__e] = __row2[__e] + t_t4;
                }
            }
        }
    }
    for k_1 in (0..2) {
        for j_1 in (0..2) {
            let t5 = l[2 * j_1] * x[k_1];
            r[j_1] = r[j_1] + t5;
        }
        for j_2 in (0..3) {
            let t6 = q[k_1] * x[j_2];
            r[j_2 + 2] = r[j_2 + 2] - t6;
        }
        for j_3 in (0..3) {
            let t7 = q[j_3] * x[k_1];
            let t8 = l[j_3 + 1] * l[j_3];
            q[j_3] = t7 + t8;
        }
        for j_4 in (0..3) {
            let t9 = m[k_1][j_4].max(x[k_1]);
            q[j_4 + 1] = q[j_4 + 1] + t9;
        }
    }
    for k_1 in (0..2) {
        for j_1 in (0..2) {
            let t_t5: [f64; __W] = ::core::array::from_fn(|__l| {
                t_l[2 * j_1][__l] * x[k_1]
            });
            t_r[j_1] = ::core::array::from_fn(|__l| t_r[j_1][__l] + t_t5[__l]);
        }
        for j_2 in (0..3) {
            let t_t6: [f64; __W] = ::core::array::from_fn(|__l| t_q[k_1][__l] * x[j_2]);
            t_r[j_2 + 2] = ::core::array::from_fn(|__l| t_r[j_2 + 2][__l] - t_t6[__l]);
        }
        for j_3 in (0..3) {
            let t_t7: [f64; __W] = ::core::array::from_fn(|__l| t_q[j_3][__l] * x[k_1]);
            let t_t8: [f64; __W] = ::core::array::from_fn(|__l| {
                t_l[j_3 + 1][__l] * l[j_3] + l[j_3 + 1] * t_l[j_3][__l]
            });
            t_q[j_3] = ::core::array::from_fn(|__l| t_t7[__l] + t_t8[__l]);
        }
        for j_4 in (0..3) {
            let t_t9: [f64; __W] = ::core::array::from_fn(|__l| {
                if m[k_1][j_4] >= x[k_1] { t_m[k_1][j_4][__l] } else { 0.0 }
            });
            t_q[j_4 + 1] = ::core::array::from_fn(|__l| t_q[j_4 + 1][__l] + t_t9[__l]);
        }
    }
    let mut s: f64 = 0.0;
    let mut t_s: [f64; __W] = [0.0; __W];
    for d in (0..4) {
        let t10 = q[d] * q[d];
        let t_t10: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * q[d] * t_q[d][__l]);
        t_s = ::core::array::from_fn(|__l| t_s[__l] + t_t10[__l]);
        s = s + t10;
    }
    let t11 = s + r[0];
    let t_t11: [f64; __W] = ::core::array::from_fn(|__l| t_s[__l] + t_r[0][__l]);
    let t12 = r[1] * r[2];
    let t_t12: [f64; __W] = ::core::array::from_fn(|__l| {
        t_r[1][__l] * r[2] + r[1] * t_r[2][__l]
    });
    let t13 = t12 + r[3];
    let t_t13: [f64; __W] = ::core::array::from_fn(|__l| t_t12[__l] + t_r[3][__l]);
    let t14 = r[4].sin();
    let t_t14: [f64; __W] = ::core::array::from_fn(|__l| t_r[4][__l] * r[4].cos());
    let t15 = t13 - t14;
    let t_t15: [f64; __W] = ::core::array::from_fn(|__l| t_t13[__l] - t_t14[__l]);
    let t16 = [t11, t15];
    let t_t16: [[f64; __W]; 2] = [t_t11, t_t15];
    (t16, t_t16)
}
const _: fn(&[f64; 10], &[[f64; 3]; 2], &[f64; 4]) -> [f64; 2] = lane_rows;
///The call contract of [`lane_rows`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `lane_rows`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `lane_rows`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `lane_rows::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait LaneRowsCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
    __A2: ?::core::marker::Sized,
> LaneRowsCall<__A0, __A1, __A2> for () {
    type Out = [f64; 2];
    type Tape = LaneRowsTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`lane_rows` does not differentiate its parameter `x`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `x` in `lane_rows` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
trait LaneRowsNoDerivativeX {}
impl LaneRowsNoDerivativeX for () {}
#[doc(hidden)]
trait LaneRowsSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LaneRowsSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LaneRowsSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`lane_rows_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`LaneRowsTape`] through `LaneRowsCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn lane_rows_adjoint_call<'__stackgrad>(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    tape: &LaneRowsTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl LaneRowsSlot<'__stackgrad, [f64; 10]>,
    __stackgrad_d1: impl LaneRowsSlot<'__stackgrad, [[f64; 3]; 2]>,
    __stackgrad_d2: impl LaneRowsNoDerivativeX,
) {
    let mut __stackgrad_d0_scratch: [f64; 10];
    let __stackgrad_d0: &mut [f64; 10] = match LaneRowsSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 10];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [[f64; 3]; 2];
    let __stackgrad_d1: &mut [[f64; 3]; 2] = match LaneRowsSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [[0.0; 3]; 2];
            &mut __stackgrad_d1_scratch
        }
    };
    lane_rows_adjoint(l, m, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait LaneRowsTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LaneRowsTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LaneRowsTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LaneRowsTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`lane_rows_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn lane_rows_jvp_call<'__stackgrad>(
    l: &[f64; 10],
    m: &[[f64; 3]; 2],
    x: &[f64; 4],
    __stackgrad_t0: impl LaneRowsTangent<'__stackgrad, [f64; 10]>,
    __stackgrad_t1: impl LaneRowsTangent<'__stackgrad, [[f64; 3]; 2]>,
    __stackgrad_t2: impl ::core::marker::Sized,
) -> ([f64; 2], [f64; 2]) {
    let __stackgrad_t0_zero: [f64; 10];
    let __stackgrad_t0: &[f64; 10] = match LaneRowsTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 10];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: [[f64; 3]; 2];
    let __stackgrad_t1: &[[f64; 3]; 2] = match LaneRowsTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = [[0.0; 3]; 2];
            &__stackgrad_t1_zero
        }
    };
    lane_rows_jvp(l, m, x, __stackgrad_t0, __stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `lane_rows`'s parameter `l`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait LaneRowsZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LaneRowsZero0 for [f64; 10] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 10]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `lane_rows`'s parameter `m`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait LaneRowsZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LaneRowsZero1 for [[f64; 3]; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 3]; 2]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `lane_rows`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait LaneRowsZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LaneRowsZero2 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
