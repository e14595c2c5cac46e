fn nearest(c: &[f64], p: &[f64], d: usize) -> f64 {
    let mut total = 0.0;
    for i in 0..p.len() / d {
        let point = &p[i * d..i * d + d];
        let mut best = f64::INFINITY;
        for j in 0..c.len() / d {
            let centroid = &c[j * d..(j + 1) * d];
            let mut dist = 0.0;
            for (a, b) in centroid.iter().zip(point) {
                dist += (a - b) * (a - b);
            }
            best = best.min(dist);
        }
        total += best;
    }
    total
}
///The tape of [`nearest`]: what [`nearest_adjoint`] reads, recorded by [`nearest_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct NearestTape {}
impl NearestTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {}
    }
}
impl ::core::default::Default for NearestTape {
    fn default() -> Self {
        Self::new()
    }
}
impl NearestTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///One iteration's tape of checkpointed loop #0 of [`nearest`]: [`nearest_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct NearestLoop0Tape {
    ///`best` before checkpointed loop #1
    best_checkpoints: f64,
    ///`best` after loop #1
    best_final: f64,
}
impl NearestLoop0Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "best_checkpoints",
            "best before checkpointed loop #1",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        ("best_final", "best after loop #1", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            best_checkpoints: 0.0,
            best_final: 0.0,
        }
    }
}
impl ::core::default::Default for NearestLoop0Tape {
    fn default() -> Self {
        Self::new()
    }
}
///One iteration's tape of checkpointed loop #1 of [`nearest`]: [`nearest_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct NearestLoop1Tape {
    ///`best` (line 8) after its last write
    best: f64,
    ///`dist` (line 11) after its last write
    dist: f64,
}
impl NearestLoop1Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "best",
            "best (line 8) after its last write",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        (
            "dist",
            "dist (line 11) after its last write",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { best: 0.0, dist: 0.0 }
    }
}
impl ::core::default::Default for NearestLoop1Tape {
    fn default() -> Self {
        Self::new()
    }
}
///One iteration's tape of checkpointed loop #2 of [`nearest`]: [`nearest_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct NearestLoop2Tape {}
impl NearestLoop2Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {}
    }
}
impl ::core::default::Default for NearestLoop2Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`nearest`] and records in `tape` what [`nearest_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn nearest_forward(c: &[f64], p: &[f64], d: usize, tape: &mut NearestTape) -> f64 {
    let mut total: f64 = 0.0;
    for i in (0..p.len() / d) {
        let mut best: f64 = f64::INFINITY;
        for j in (0..c.len() / d) {
            let mut dist: f64 = 0.0;
            for i_1 in (0..::core::cmp::min(
                c[j * d..(j + 1) * d].len(),
                p[i * d..(i * d) + d].len(),
            )) {
                let t0 = c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1];
                let t1 = c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1];
                let t2 = t0 * t1;
                dist = dist + t2;
            }
            best = best.min(dist);
        }
        total = total + best;
    }
    total
}
///[`nearest_forward`], except that where [`nearest_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn nearest_try_forward(
    c: &[f64],
    p: &[f64],
    d: usize,
    tape: &mut NearestTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let mut total: f64 = 0.0;
        for i in (0..p.len() / d) {
            let mut best: f64 = f64::INFINITY;
            for j in (0..c.len() / d) {
                let mut dist: f64 = 0.0;
                for i_1 in (0..::core::cmp::min(
                    (c
                        .get(j * d..(j + 1) * d)
                        .ok_or("a sub-slice is outside the slice `c`")?)
                        .len(),
                    (p
                        .get(i * d..(i * d) + d)
                        .ok_or("a sub-slice is outside the slice `p`")?)
                        .len(),
                )) {
                    let t0 = (*(c
                        .get(j * d..(j + 1) * d)
                        .ok_or("a sub-slice is outside the slice `c`")?)
                        .get(i_1)
                        .ok_or("an index is outside the slice `c`")?)
                        - (*(p
                            .get(i * d..(i * d) + d)
                            .ok_or("a sub-slice is outside the slice `p`")?)
                            .get(i_1)
                            .ok_or("an index is outside the slice `p`")?);
                    let t1 = (*(c
                        .get(j * d..(j + 1) * d)
                        .ok_or("a sub-slice is outside the slice `c`")?)
                        .get(i_1)
                        .ok_or("an index is outside the slice `c`")?)
                        - (*(p
                            .get(i * d..(i * d) + d)
                            .ok_or("a sub-slice is outside the slice `p`")?)
                            .get(i_1)
                            .ok_or("an index is outside the slice `p`")?);
                    let t2 = t0 * t1;
                    dist = dist + t2;
                }
                best = best.min(dist);
            }
            total = total + best;
        }
        total
    })
}
/**The reverse sweep of [`nearest`]: adds `d_out` times the derivative of `nearest` with respect to `c` into `d_c`.

`tape` must have been filled by [`nearest_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn nearest_adjoint(
    c: &[f64],
    p: &[f64],
    d: usize,
    tape: &NearestTape,
    d_out: f64,
    d_c: &mut [f64],
) {
    if d_c.len() != c.len() {
        ::core::panic!(
            "nearest: the gradient buffer `d_c` has {} elements, but `c` has {}: pass one of the slice's length",
            d_c.len(), c.len()
        );
    }
    let mut d_total: f64 = -0.0;
    let mut d_best: f64 = -0.0;
    let mut d_dist: f64 = -0.0;
    d_total += d_out;
    {
        let mut total: f64 = 0.0;
        for (k0, i) in (0..p.len() / d).enumerate().rev() {
            let mut step0 = <NearestLoop0Tape>::new();
            'rerun0: {
                let mut best: f64 = f64::INFINITY;
                step0.best_checkpoints = best;
                for (k1, j) in (0..c.len() / d).enumerate() {
                    if k1 == 0 {
                        step0.best_checkpoints = best;
                    }
                    let mut dist: f64 = 0.0;
                    for i_1 in (0..::core::cmp::min(
                        c[j * d..(j + 1) * d].len(),
                        p[i * d..(i * d) + d].len(),
                    )) {
                        let t0 = c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1];
                        let t1 = c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1];
                        let t2 = t0 * t1;
                        dist = dist + t2;
                    }
                    best = best.min(dist);
                }
                step0.best_final = best;
            }
            d_best += d_total;
            {
                let mut best: f64 = step0.best_checkpoints;
                let best_final: f64 = step0.best_final;
                let d_best_final: f64 = d_best;
                let best_before: f64 = best;
                let mut best_set_at: usize = 0;
                if best_before != best_final {
                    for (k1, j) in (0..c.len() / d).enumerate() {
                        'advance1: {
                            let mut dist: f64 = 0.0;
                            for i_1 in (0..::core::cmp::min(
                                c[j * d..(j + 1) * d].len(),
                                p[i * d..(i * d) + d].len(),
                            )) {
                                let t0 = c[j * d..(j + 1) * d][i_1]
                                    - p[i * d..(i * d) + d][i_1];
                                let t1 = c[j * d..(j + 1) * d][i_1]
                                    - p[i * d..(i * d) + d][i_1];
                                let t2 = t0 * t1;
                                dist = dist + t2;
                            }
                            best = best.min(dist);
                        }
                        if best == best_final {
                            best_set_at = k1 + 1;
                            break;
                        }
                        best = best_before;
                    }
                }
                best = best_before;
                if best_set_at != 0 {
                    for (k1, j) in (0..c.len() / d)
                        .enumerate()
                        .skip(best_set_at - 1)
                        .take(1)
                    {
                        let mut step1 = <NearestLoop1Tape>::new();
                        'rerun1: {
                            step1.best = best;
                            let mut dist: f64 = 0.0;
                            for i_1 in (0..::core::cmp::min(
                                c[j * d..(j + 1) * d].len(),
                                p[i * d..(i * d) + d].len(),
                            )) {
                                let t0 = c[j * d..(j + 1) * d][i_1]
                                    - p[i * d..(i * d) + d][i_1];
                                let t1 = c[j * d..(j + 1) * d][i_1]
                                    - p[i * d..(i * d) + d][i_1];
                                let t2 = t0 * t1;
                                dist = dist + t2;
                            }
                            step1.dist = dist;
                            best = best.min(dist);
                        }
                        d_best = if best == best_final { d_best_final } else { -0.0 };
                        let d_best_1: f64 = d_best;
                        d_best = -0.0;
                        d_best += if step1.best <= step1.dist { d_best_1 } else { 0.0 };
                        d_dist += if step1.best <= step1.dist { 0.0 } else { d_best_1 };
                        {
                            let mut dist: f64 = 0.0;
                            for (k2, i_1) in (0..::core::cmp::min(
                                c[j * d..(j + 1) * d].len(),
                                p[i * d..(i * d) + d].len(),
                            ))
                                .enumerate()
                                .rev()
                            {
                                let mut step2 = <NearestLoop2Tape>::new();
                                let d_t2: f64 = d_dist;
                                let d_t0: f64 = d_t2
                                    * (c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1]);
                                let d_t1: f64 = d_t2
                                    * (c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1]);
                                d_c[j * d..(j + 1) * d][i_1] += d_t1;
                                d_c[j * d..(j + 1) * d][i_1] += d_t0;
                            }
                        }
                        let d_dist_1: f64 = d_dist;
                        d_dist = -0.0;
                    }
                }
                d_best = if step0.best_checkpoints == best_final {
                    d_best_final
                } else {
                    -0.0
                };
            }
            let d_best_2: f64 = d_best;
            d_best = -0.0;
        }
    }
}
///The value of [`nearest`] and its gradient with respect to `c`, in parameter order. The gradient with respect to each slice is written into the buffer after the arguments (of the slice's length; it is zeroed first), and the others are returned.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn nearest_grad(c: &[f64], p: &[f64], d: usize, d_c: &mut [f64]) -> (f64, ()) {
    if d_c.len() != c.len() {
        ::core::panic!(
            "nearest: the gradient buffer `d_c` has {} elements, but `c` has {}: pass one of the slice's length",
            d_c.len(), c.len()
        );
    }
    for e in d_c.iter_mut() {
        *e = 0.0;
    }
    let mut tape = <NearestTape>::new();
    let value: f64;
    {
        let d_out: f64 = 1.0;
        let mut d_total: f64 = -0.0;
        let mut d_best: f64 = -0.0;
        let mut d_dist: f64 = -0.0;
        value = {
            let tape = &mut tape;
            let mut total: f64 = 0.0;
            d_total = d_out;
            for (k0, i) in (0..p.len() / d).enumerate() {
                let mut step0 = <NearestLoop0Tape>::new();
                'rerun0: {
                    let mut best: f64 = f64::INFINITY;
                    step0.best_checkpoints = best;
                    for (k1, j) in (0..c.len() / d).enumerate() {
                        if k1 == 0 {
                            step0.best_checkpoints = best;
                        }
                        let mut dist: f64 = 0.0;
                        for i_1 in (0..::core::cmp::min(
                            c[j * d..(j + 1) * d].len(),
                            p[i * d..(i * d) + d].len(),
                        )) {
                            let t0 = c[j * d..(j + 1) * d][i_1]
                                - p[i * d..(i * d) + d][i_1];
                            let t1 = c[j * d..(j + 1) * d][i_1]
                                - p[i * d..(i * d) + d][i_1];
                            let t2 = t0 * t1;
                            dist = dist + t2;
                        }
                        best = best.min(dist);
                    }
                    step0.best_final = best;
                    total = total + best;
                }
                d_best += d_total;
                {
                    let mut best: f64 = step0.best_checkpoints;
                    let best_final: f64 = step0.best_final;
                    let d_best_final: f64 = d_best;
                    let best_before: f64 = best;
                    let mut best_set_at: usize = 0;
                    if best_before != best_final {
                        for (k1, j) in (0..c.len() / d).enumerate() {
                            'advance1: {
                                let mut dist: f64 = 0.0;
                                for i_1 in (0..::core::cmp::min(
                                    c[j * d..(j + 1) * d].len(),
                                    p[i * d..(i * d) + d].len(),
                                )) {
                                    let t0 = c[j * d..(j + 1) * d][i_1]
                                        - p[i * d..(i * d) + d][i_1];
                                    let t1 = c[j * d..(j + 1) * d][i_1]
                                        - p[i * d..(i * d) + d][i_1];
                                    let t2 = t0 * t1;
                                    dist = dist + t2;
                                }
                                best = best.min(dist);
                            }
                            if best == best_final {
                                best_set_at = k1 + 1;
                                break;
                            }
                            best = best_before;
                        }
                    }
                    best = best_before;
                    if best_set_at != 0 {
                        for (k1, j) in (0..c.len() / d)
                            .enumerate()
                            .skip(best_set_at - 1)
                            .take(1)
                        {
                            let mut step1 = <NearestLoop1Tape>::new();
                            'rerun1: {
                                step1.best = best;
                                let mut dist: f64 = 0.0;
                                for i_1 in (0..::core::cmp::min(
                                    c[j * d..(j + 1) * d].len(),
                                    p[i * d..(i * d) + d].len(),
                                )) {
                                    let t0 = c[j * d..(j + 1) * d][i_1]
                                        - p[i * d..(i * d) + d][i_1];
                                    let t1 = c[j * d..(j + 1) * d][i_1]
                                        - p[i * d..(i * d) + d][i_1];
                                    let t2 = t0 * t1;
                                    dist = dist + t2;
                                }
                                step1.dist = dist;
                                best = best.min(dist);
                            }
                            d_best = if best == best_final {
                                d_best_final
                            } else {
                                -0.0
                            };
                            let d_best_1: f64 = d_best;
                            d_best = -0.0;
                            d_best
                                += if step1.best <= step1.dist { d_best_1 } else { 0.0 };
                            d_dist
                                += if step1.best <= step1.dist { 0.0 } else { d_best_1 };
                            {
                                let mut dist: f64 = 0.0;
                                for (k2, i_1) in (0..::core::cmp::min(
                                    c[j * d..(j + 1) * d].len(),
                                    p[i * d..(i * d) + d].len(),
                                ))
                                    .enumerate()
                                    .rev()
                                {
                                    let mut step2 = <NearestLoop2Tape>::new();
                                    let d_t2: f64 = d_dist;
                                    let d_t0: f64 = d_t2
                                        * (c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1]);
                                    let d_t1: f64 = d_t2
                                        * (c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1]);
                                    d_c[j * d..(j + 1) * d][i_1] += d_t1;
                                    d_c[j * d..(j + 1) * d][i_1] += d_t0;
                                }
                            }
                            let d_dist_1: f64 = d_dist;
                            d_dist = -0.0;
                        }
                    }
                    d_best = if step0.best_checkpoints == best_final {
                        d_best_final
                    } else {
                        -0.0
                    };
                }
                let d_best_2: f64 = d_best;
                d_best = -0.0;
            }
            d_total = -0.0;
            total
        };
        let tape = &tape;
        d_total += d_out;
    }
    (value, ())
}
///The value of [`nearest`] and its directional derivative: the derivative with respect to `c` along the tangents `t_c` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn nearest_jvp(c: &[f64], p: &[f64], d: usize, t_c: &[f64]) -> (f64, f64) {
    if t_c.len() != c.len() {
        ::core::panic!(
            "nearest: the tangent `t_c` has {} elements, but `c` has {}: pass one of the slice's length",
            t_c.len(), c.len()
        );
    }
    let mut total: f64 = 0.0;
    let mut t_total: f64 = 0.0;
    for i in (0..p.len() / d) {
        let mut best: f64 = f64::INFINITY;
        let mut t_best: f64 = 0.0;
        for j in (0..c.len() / d) {
            let mut dist: f64 = 0.0;
            let mut t_dist: f64 = 0.0;
            for i_1 in (0..::core::cmp::min(
                c[j * d..(j + 1) * d].len(),
                p[i * d..(i * d) + d].len(),
            )) {
                let t0 = c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1];
                let t_t0: f64 = t_c[j * d..(j + 1) * d][i_1];
                let t1 = c[j * d..(j + 1) * d][i_1] - p[i * d..(i * d) + d][i_1];
                let t_t1: f64 = t_c[j * d..(j + 1) * d][i_1];
                let t2 = t0 * t1;
                let t_t2: f64 = t_t0 * t1 + t0 * t_t1;
                t_dist = t_dist + t_t2;
                dist = dist + t2;
            }
            t_best = (if best <= dist { t_best } else { 0.0 })
                + (if best <= dist { 0.0 } else { t_dist });
            best = best.min(dist);
        }
        t_total = t_total + t_best;
        total = total + best;
    }
    (total, t_total)
}
const _: () = {
    #[allow(dead_code, unused_variables, clippy::all)]
    fn only_const_items() {
        if let f64::INFINITY = f64::INFINITY {}
    }
};
const _: fn(&[f64], &[f64], usize) -> f64 = nearest;
///The call contract of [`nearest`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `nearest`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `nearest`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `nearest::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait NearestCall<
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
> NearestCall<__A0, __A1, __A2> for () {
    type Out = f64;
    type Tape = NearestTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`nearest` does not differentiate its parameter `p`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `p` in `nearest` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
trait NearestNoDerivativeP {}
impl NearestNoDerivativeP for () {}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`nearest` does not differentiate its parameter `d`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `d` in `nearest` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
trait NearestNoDerivativeD {}
impl NearestNoDerivativeD for () {}
#[doc(hidden)]
trait NearestSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> NearestSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> NearestSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`nearest` differentiates its slice parameter `c`, and this call passes no derivative buffer for it",
    label = "this call",
    note = "a zero one of the slice's run-time length would need an allocation: differentiate the argument in the caller too (its `wrt(..)`), or leave `c` out of `nearest`'s `wrt(..)`"
)]
trait NearestSliceBufferC<'__stackgrad, S: ?::core::marker::Sized + '__stackgrad> {
    fn slice(self) -> &'__stackgrad mut S;
}
impl<
    '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> NearestSliceBufferC<'__stackgrad, S> for &'__stackgrad mut S {
    fn slice(self) -> &'__stackgrad mut S {
        self
    }
}
impl<
    '__stackgrad,
    '__stackgrad_b: '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> NearestSliceBufferC<'__stackgrad, S> for &'__stackgrad mut &'__stackgrad_b mut S {
    fn slice(self) -> &'__stackgrad mut S {
        &mut **self
    }
}
///[`nearest_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`NearestTape`] through `NearestCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn nearest_adjoint_call<'__stackgrad>(
    c: &[f64],
    p: &[f64],
    d: usize,
    tape: &NearestTape,
    d_out: f64,
    __stackgrad_d0: impl NearestSliceBufferC<'__stackgrad, [f64]>,
    __stackgrad_d1: impl NearestNoDerivativeP,
    __stackgrad_d2: impl NearestNoDerivativeD,
) {
    let __stackgrad_d0: &mut [f64] = NearestSliceBufferC::slice(__stackgrad_d0);
    nearest_adjoint(c, p, d, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
trait NearestTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> NearestTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> NearestTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> NearestTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`nearest` differentiates its slice parameter `c`, and this call passes no tangent for it",
    label = "this call",
    note = "a zero one of the slice's run-time length would need an allocation: differentiate the argument in the caller too (its `wrt(..)`), or leave `c` out of `nearest`'s `wrt(..)`"
)]
trait NearestSliceTangentC<'__stackgrad, S: ?::core::marker::Sized + '__stackgrad> {
    fn slice(self) -> &'__stackgrad S;
}
impl<
    '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> NearestSliceTangentC<'__stackgrad, S> for &'__stackgrad S {
    fn slice(self) -> &'__stackgrad S {
        self
    }
}
impl<
    '__stackgrad,
    '__stackgrad_b: '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> NearestSliceTangentC<'__stackgrad, S> for &'__stackgrad &'__stackgrad_b S {
    fn slice(self) -> &'__stackgrad S {
        *self
    }
}
impl<'__stackgrad, T: '__stackgrad> NearestSliceTangentC<'__stackgrad, [T]> for () {
    fn slice(self) -> &'__stackgrad [T] {
        &[]
    }
}
///[`nearest_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn nearest_jvp_call<'__stackgrad>(
    c: &[f64],
    p: &[f64],
    d: usize,
    __stackgrad_t0: impl NearestSliceTangentC<'__stackgrad, [f64]>,
    __stackgrad_t1: impl ::core::marker::Sized,
    __stackgrad_t2: impl ::core::marker::Sized,
) -> (f64, f64) {
    let __stackgrad_t0: &[f64] = NearestSliceTangentC::slice(__stackgrad_t0);
    nearest_jvp(c, p, d, __stackgrad_t0)
}
