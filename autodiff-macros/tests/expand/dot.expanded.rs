/// A function generic over the length: the tape is generic too (and records nothing here).
pub fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    s
}
///The tape of [`dot`]: what [`dot_adjoint`] reads, recorded by [`dot_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct DotTape<const N: usize> {
    ///The const parameters (zero-sized).
    const_params: ([(); N],),
}
impl<const N: usize> DotTape<N> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { const_params: ([(); N],) }
    }
}
impl<const N: usize> ::core::default::Default for DotTape<N> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const N: usize> DotTape<N> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`dot`] and records in `tape` what [`dot_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn dot_forward<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
    tape: &mut DotTape<N>,
) -> f64 {
    let _ = dot::<N>;
    let mut s: f64 = 0.0;
    for i in (0..N) {
        let t0 = a[i] * b[i];
        s = s + t0;
    }
    s
}
/**The reverse sweep of [`dot`]: adds `d_out` times the derivative of `dot` with respect to `a`, `b` into `d_a`, `d_b`.

`tape` must have been filled by [`dot_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn dot_adjoint<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
    tape: &DotTape<N>,
    d_out: f64,
    d_a: &mut [f64; N],
    d_b: &mut [f64; N],
) {
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k0, i) in (0..N).enumerate().rev() {
        let d_t0: f64 = d_s;
        d_a[i] += d_t0 * b[i];
        d_b[i] += d_t0 * a[i];
    }
}
///The value of [`dot`] and its gradient with respect to `a`, `b`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn dot_grad<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
) -> (f64, ([f64; N], [f64; N])) {
    let mut tape = <DotTape<N>>::new();
    let value = dot_forward(a, b, &mut tape);
    let mut d_a: [f64; N] = [0.0; N];
    let mut d_b: [f64; N] = [0.0; N];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_a = &mut d_a;
        let d_b = &mut d_b;
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k0, i) in (0..N).enumerate().rev() {
            let d_t0: f64 = d_s;
            d_a[i] = d_t0 * b[i];
            d_b[i] = d_t0 * a[i];
        }
    }
    (value, (d_a, d_b))
}
///The call contract of [`dot`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `dot`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `dot`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `dot::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait DotCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<const N: usize> DotCall<[f64; N], [f64; N]> for () {
    type Out = f64;
    type Tape = DotTape<N>;
}
#[doc(hidden)]
pub trait DotSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> DotSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> DotSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`dot_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`DotTape`] through `DotCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn dot_adjoint_call<'__stackgrad, const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
    tape: &DotTape<N>,
    d_out: f64,
    __stackgrad_d0: impl DotSlot<'__stackgrad, [f64; N]>,
    __stackgrad_d1: impl DotSlot<'__stackgrad, [f64; N]>,
) {
    let mut __stackgrad_d0_scratch: [f64; N];
    let __stackgrad_d0: &mut [f64; N] = match DotSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; N];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; N];
    let __stackgrad_d1: &mut [f64; N] = match DotSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; N];
            &mut __stackgrad_d1_scratch
        }
    };
    dot_adjoint::<N>(a, b, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `dot`'s parameter `a`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait DotZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const N: usize> DotZero0 for [f64; N] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; N]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `dot`'s parameter `b`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait DotZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const N: usize> DotZero1 for [f64; N] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; N]
    }
}
