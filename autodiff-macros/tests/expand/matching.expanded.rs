/// `match` becomes an `if` chain: the reverse sweep takes the same arm, read again from `i`.
pub fn matching(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s = match i % 3 {
            0 => s + x[i],
            1 | 2 => s * x[i],
            _ => s,
        };
    }
    s
}
///The tape of [`matching`]: what [`matching_adjoint`] reads, recorded by [`matching_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct MatchingTape {
    ///`s` (line 4) after its last write
    s: [f64; 4],
}
impl MatchingTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "s",
            "s (line 4) after its last write",
            "[f64 ; 4]",
            ::core::mem::size_of::<[f64; 4]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { s: [0.0; 4] }
    }
}
impl ::core::default::Default for MatchingTape {
    fn default() -> Self {
        Self::new()
    }
}
impl MatchingTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`matching`] and records in `tape` what [`matching_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn matching_forward(x: &[f64; 4], tape: &mut MatchingTape) -> f64 {
    let mut s: f64 = 0.0;
    for (k0, i) in (0..4).enumerate() {
        tape.s[k0] = s;
        let __stackgrad_match_0: usize = i % 3;
        s = if ::core::matches!(__stackgrad_match_0, 0) {
            s + x[i]
        } else {
            if ::core::matches!(__stackgrad_match_0, 1 | 2) { s * x[i] } else { s }
        };
    }
    s
}
/**The reverse sweep of [`matching`]: adds `d_out` times the derivative of `matching` with respect to `x` into `d_x`.

`tape` must have been filled by [`matching_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn matching_adjoint(
    x: &[f64; 4],
    tape: &MatchingTape,
    d_out: f64,
    d_x: &mut [f64; 4],
) {
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k0, i) in (0..4).enumerate().rev() {
        let d_s_1: f64 = d_s;
        d_s = -0.0;
        if (::core::matches!((i % 3), 0)) {
            d_s += d_s_1;
            d_x[i] += d_s_1;
        } else {
            if (::core::matches!((i % 3), 1 | 2)) {
                d_s += d_s_1 * x[i];
                d_x[i] += d_s_1 * tape.s[k0];
            } else {
                d_s += d_s_1;
            }
        }
    }
}
///The value of [`matching`] and its gradient with respect to `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn matching_grad(x: &[f64; 4]) -> (f64, [f64; 4]) {
    let mut tape = <MatchingTape>::new();
    let value = matching_forward(x, &mut tape);
    let mut d_x: [f64; 4] = [0.0; 4];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k0, i) in (0..4).enumerate().rev() {
            let d_s_1: f64 = d_s;
            d_s = -0.0;
            if (::core::matches!((i % 3), 0)) {
                d_s += d_s_1;
                d_x[i] = d_s_1;
            } else {
                if (::core::matches!((i % 3), 1 | 2)) {
                    d_s += d_s_1 * x[i];
                    d_x[i] = d_s_1 * tape.s[k0];
                } else {
                    d_s += d_s_1;
                }
            }
        }
    }
    (value, d_x)
}
const _: fn(&[f64; 4]) -> f64 = matching;
///The call contract of [`matching`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `matching`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `matching`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `matching::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait MatchingCall<A0: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized> MatchingCall<__A0> for () {
    type Out = f64;
    type Tape = MatchingTape;
}
#[doc(hidden)]
pub trait MatchingSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MatchingSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MatchingSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`matching_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`MatchingTape`] through `MatchingCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn matching_adjoint_call<'__stackgrad>(
    x: &[f64; 4],
    tape: &MatchingTape,
    d_out: f64,
    __stackgrad_d0: impl MatchingSlot<'__stackgrad, [f64; 4]>,
) {
    let mut __stackgrad_d0_scratch: [f64; 4];
    let __stackgrad_d0: &mut [f64; 4] = match MatchingSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    matching_adjoint(x, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `matching`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait MatchingZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl MatchingZero0 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
