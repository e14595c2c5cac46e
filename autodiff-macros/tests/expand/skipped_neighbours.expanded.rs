/// Differences of neighbours, `x.iter().zip(x.iter().skip(1))`: one counted loop over the
/// four pairs, each element read at the counter and at the counter plus one.
pub fn skipped_neighbours(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(x.iter().skip(1)) {
        s += (b - a) * (b - a);
    }
    s
}
///The tape of [`skipped_neighbours`]: what [`skipped_neighbours_adjoint`] reads, recorded by [`skipped_neighbours_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct SkippedNeighboursTape {}
impl SkippedNeighboursTape {
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
impl ::core::default::Default for SkippedNeighboursTape {
    fn default() -> Self {
        Self::new()
    }
}
impl SkippedNeighboursTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`skipped_neighbours`] and records in `tape` what [`skipped_neighbours_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn skipped_neighbours_forward(
    x: &[f64; 5],
    tape: &mut SkippedNeighboursTape,
) -> f64 {
    let mut s: f64 = 0.0;
    for i in (0..4) {
        let t0 = x[i + 1] - x[i];
        let t1 = x[i + 1] - x[i];
        let t2 = t0 * t1;
        s = s + t2;
    }
    s
}
/**The reverse sweep of [`skipped_neighbours`]: adds `d_out` times the derivative of `skipped_neighbours` with respect to `x` into `d_x`.

`tape` must have been filled by [`skipped_neighbours_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn skipped_neighbours_adjoint(
    x: &[f64; 5],
    tape: &SkippedNeighboursTape,
    d_out: f64,
    d_x: &mut [f64; 5],
) {
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k0, i) in (0..4).enumerate().rev() {
        let d_t2: f64 = d_s;
        let d_t0: f64 = d_t2 * (x[i + 1] - x[i]);
        let d_t1: f64 = d_t2 * (x[i + 1] - x[i]);
        d_x[i + 1] += d_t1;
        d_x[i] += -d_t1;
        d_x[i + 1] += d_t0;
        d_x[i] += -d_t0;
    }
}
///The value of [`skipped_neighbours`] and its gradient with respect to `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn skipped_neighbours_grad(x: &[f64; 5]) -> (f64, [f64; 5]) {
    let mut tape = <SkippedNeighboursTape>::new();
    let value = skipped_neighbours_forward(x, &mut tape);
    let mut d_x: [f64; 5] = [0.0; 5];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k0, i) in (0..4).enumerate().rev() {
            let d_t2: f64 = d_s;
            let d_t0: f64 = d_t2 * (x[i + 1] - x[i]);
            let d_t1: f64 = d_t2 * (x[i + 1] - x[i]);
            d_x[i + 1] += d_t1;
            d_x[i] += -d_t1;
            d_x[i + 1] += d_t0;
            d_x[i] += -d_t0;
        }
    }
    (value, d_x)
}
const _: fn(&[f64; 5]) -> f64 = skipped_neighbours;
///The call contract of [`skipped_neighbours`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `skipped_neighbours`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `skipped_neighbours`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `skipped_neighbours::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait SkippedNeighboursCall<A0: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized> SkippedNeighboursCall<__A0> for () {
    type Out = f64;
    type Tape = SkippedNeighboursTape;
}
#[doc(hidden)]
pub trait SkippedNeighboursSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SkippedNeighboursSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SkippedNeighboursSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`skipped_neighbours_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`SkippedNeighboursTape`] through `SkippedNeighboursCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn skipped_neighbours_adjoint_call<'__stackgrad>(
    x: &[f64; 5],
    tape: &SkippedNeighboursTape,
    d_out: f64,
    __stackgrad_d0: impl SkippedNeighboursSlot<'__stackgrad, [f64; 5]>,
) {
    let mut __stackgrad_d0_scratch: [f64; 5];
    let __stackgrad_d0: &mut [f64; 5] = match SkippedNeighboursSlot::slot(
        __stackgrad_d0,
    ) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 5];
            &mut __stackgrad_d0_scratch
        }
    };
    skipped_neighbours_adjoint(x, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `skipped_neighbours`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait SkippedNeighboursZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl SkippedNeighboursZero0 for [f64; 5] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 5]
    }
}
