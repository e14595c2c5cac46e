/// A triangular product in forward mode: the nest's tangents read `l` and `x`, which it does
/// not write, so `f_jvp` runs it as two nests, the primal's and the tangents'
/// (`tangent/split.rs`); the loop over `d`, whose tangent reads `q`, stays whole.
pub fn split<const D: usize>(l: &[[f64; D]; D], x: &[f64; D]) -> f64 {
    let mut q = [0.0; D];
    for a in 0..D {
        for b in a + 1..D {
            q[b] += l[a][b] * x[a];
        }
    }
    let mut s = 0.0;
    for d in 0..D {
        s += q[d] * q[d];
    }
    s
}
///The tape of [`split`]: what [`split_adjoint`] reads, recorded by [`split_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct SplitTape<const D: usize> {
    ///`q` (line 6) after its last write
    q: [f64; D],
    ///The const parameters (zero-sized).
    const_params: ([(); D],),
}
impl<const D: usize> SplitTape<D> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "q",
            "q (line 6) after its last write",
            "[f64 ; D]",
            ::core::mem::size_of::<[f64; D]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            q: [0.0; D],
            const_params: ([(); D],),
        }
    }
}
impl<const D: usize> ::core::default::Default for SplitTape<D> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const D: usize> SplitTape<D> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`split`] and records in `tape` what [`split_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn split_forward<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    tape: &mut SplitTape<D>,
) -> f64 {
    let _ = split::<D>;
    let mut q: [f64; D] = [0.0; D];
    for a in (0..D) {
        for b in (a + 1..D) {
            let t0 = l[a][b] * x[a];
            q[b] = q[b] + t0;
        }
    }
    tape.q = q;
    let mut s: f64 = 0.0;
    for d in (0..D) {
        let t1 = q[d] * q[d];
        s = s + t1;
    }
    s
}
/**The reverse sweep of [`split`]: adds `d_out` times the derivative of `split` with respect to `l`, `x` into `d_l`, `d_x`.

`tape` must have been filled by [`split_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn split_adjoint<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    tape: &SplitTape<D>,
    d_out: f64,
    d_l: &mut [[f64; D]; D],
    d_x: &mut [f64; D],
) {
    let mut d_q: [f64; D] = [0.0; D];
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k2, d) in (0..D).enumerate().rev() {
        d_q[d] += d_s * 2.0 * tape.q[d];
    }
    for (k0, a) in (0..D).enumerate().rev() {
        for (k1, b) in (a + 1..D).enumerate().rev() {
            let d_t0: f64 = d_q[b];
            d_l[a][b] += d_t0 * x[a];
            d_x[a] += d_t0 * l[a][b];
        }
    }
}
///The value of [`split`] and its gradient with respect to `l`, `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn split_grad<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
) -> (f64, ([[f64; D]; D], [f64; D])) {
    let mut tape = <SplitTape<D>>::new();
    let value = split_forward(l, x, &mut tape);
    let mut d_l: [[f64; D]; D] = [[0.0; D]; D];
    let mut d_x: [f64; D] = [0.0; D];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_l = &mut d_l;
        let d_x = &mut d_x;
        let mut d_q: [f64; D] = [0.0; D];
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k2, d) in (0..D).enumerate().rev() {
            d_q[d] += d_s * 2.0 * tape.q[d];
        }
        for (k0, a) in (0..D).enumerate().rev() {
            for (k1, b) in (a + 1..D).enumerate().rev() {
                let d_t0: f64 = d_q[b];
                d_l[a][b] = d_t0 * x[a];
                d_x[a] += d_t0 * l[a][b];
            }
        }
    }
    (value, (d_l, d_x))
}
///The value of [`split`] and its directional derivative: the derivative with respect to `l`, `x` along the tangents `t_l`, `t_x` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn split_jvp<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    t_l: &[[f64; D]; D],
    t_x: &[f64; D],
) -> (f64, f64) {
    let _ = split::<D>;
    let mut q: [f64; D] = [0.0; D];
    let mut t_q: [f64; D] = [0.0; D];
    for a in (0..D) {
        for b in (a + 1..D) {
            let t0 = l[a][b] * x[a];
            q[b] = q[b] + t0;
        }
    }
    for a in (0..D) {
        for b in (a + 1..D) {
            let t_t0: f64 = t_l[a][b] * x[a] + l[a][b] * t_x[a];
            t_q[b] = t_q[b] + t_t0;
        }
    }
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    for d in (0..D) {
        let t1 = q[d] * q[d];
        let t_t1: f64 = 2.0 * q[d] * t_q[d];
        t_s = t_s + t_t1;
        s = s + t1;
    }
    (s, t_s)
}
///[`split_jvp`] along `W` directions at once (vector forward mode): the value of [`split`] and its derivatives with respect to `l`, `x` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn split_jvp_vec<const D: usize, const __W: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    t_l: &[[[f64; __W]; D]; D],
    t_x: &[[f64; __W]; D],
) -> (f64, [f64; __W]) {
    let _ = split::<D>;
    let mut q: [f64; D] = [0.0; D];
    let mut t_q: [[f64; __W]; D] = [[0.0; __W]; D];
    for a in (0..D) {
        for b in (a + 1..D) {
            let t0 = l[a][b] * x[a];
            q[b] = q[b] + t0;
        }
    }
    for a in (0..D) {
        for b in (a + 1..D) {
            let t_t0: [f64; __W] = ::core::array::from_fn(|__l| {
                t_l[a][b][__l] * x[a] + l[a][b] * t_x[a][__l]
            });
            t_q[b] = ::core::array::from_fn(|__l| t_q[b][__l] + t_t0[__l]);
        }
    }
    let mut s: f64 = 0.0;
    let mut t_s: [f64; __W] = [0.0; __W];
    for d in (0..D) {
        let t1 = q[d] * q[d];
        let t_t1: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * q[d] * t_q[d][__l]);
        t_s = ::core::array::from_fn(|__l| t_s[__l] + t_t1[__l]);
        s = s + t1;
    }
    (s, t_s)
}
///The call contract of [`split`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `split`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `split`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `split::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait SplitCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<const D: usize> SplitCall<[[f64; D]; D], [f64; D]> for () {
    type Out = f64;
    type Tape = SplitTape<D>;
}
#[doc(hidden)]
pub trait SplitSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> SplitSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> SplitSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`split_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`SplitTape`] through `SplitCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn split_adjoint_call<'__stackgrad, const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    tape: &SplitTape<D>,
    d_out: f64,
    __stackgrad_d0: impl SplitSlot<'__stackgrad, [[f64; D]; D]>,
    __stackgrad_d1: impl SplitSlot<'__stackgrad, [f64; D]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; D]; D];
    let __stackgrad_d0: &mut [[f64; D]; D] = match SplitSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; D]; D];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; D];
    let __stackgrad_d1: &mut [f64; D] = match SplitSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; D];
            &mut __stackgrad_d1_scratch
        }
    };
    split_adjoint::<D>(l, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
pub trait SplitTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SplitTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SplitTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SplitTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`split_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn split_jvp_call<'__stackgrad, const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    __stackgrad_t0: impl SplitTangent<'__stackgrad, [[f64; D]; D]>,
    __stackgrad_t1: impl SplitTangent<'__stackgrad, [f64; D]>,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [[f64; D]; D];
    let __stackgrad_t0: &[[f64; D]; D] = match SplitTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [[0.0; D]; D];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: [f64; D];
    let __stackgrad_t1: &[f64; D] = match SplitTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = [0.0; D];
            &__stackgrad_t1_zero
        }
    };
    split_jvp::<D>(l, x, __stackgrad_t0, __stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `split`'s parameter `l`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait SplitZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> SplitZero0 for [[f64; D]; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; D]; D]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `split`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait SplitZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> SplitZero1 for [f64; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; D]
    }
}
