/// A loop-carried state (a tanh RNN): the tape keeps one `h` per step.
pub fn rnn(x: &[f64; 50], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..50 {
        h = (w * h + u * x[t]).tanh();
    }
    h
}
///The tape of [`rnn`]: what [`rnn_adjoint`] reads, recorded by [`rnn_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct RnnTape {
    ///`h` (line 4) after an assignment
    h_1: f64,
    ///`h` (line 4) after an assignment
    h: [f64; 50],
}
impl RnnTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("h_1", "h (line 4) after an assignment", "f64", ::core::mem::size_of::<f64>()),
        (
            "h",
            "h (line 4) after an assignment",
            "[f64 ; 50]",
            ::core::mem::size_of::<[f64; 50]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { h_1: 0.0, h: [0.0; 50] }
    }
}
impl ::core::default::Default for RnnTape {
    fn default() -> Self {
        Self::new()
    }
}
impl RnnTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`rnn`] and records in `tape` what [`rnn_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_forward(x: &[f64; 50], w: f64, u: f64, tape: &mut RnnTape) -> f64 {
    let mut h: f64 = 0.0;
    tape.h_1 = h;
    for (k0, t) in (0..50).enumerate() {
        let t0 = w * h;
        let t1 = u * x[t];
        let t2 = t0 + t1;
        h = t2.tanh();
        tape.h[k0] = h;
    }
    h
}
/**The reverse sweep of [`rnn`]: adds `d_out` times the derivative of `rnn` with respect to `x`, `w`, `u` into `d_x`, `d_w`, `d_u`.

`tape` must have been filled by [`rnn_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_adjoint(
    x: &[f64; 50],
    w: f64,
    u: f64,
    tape: &RnnTape,
    d_out: f64,
    d_x: &mut [f64; 50],
    d_w: &mut f64,
    d_u: &mut f64,
) {
    let mut d_h: f64 = -0.0;
    d_h += d_out;
    for (k0, t) in (0..50).enumerate().rev() {
        let d_h_1: f64 = d_h;
        d_h = -0.0;
        let d_t2: f64 = d_h_1 * (1.0 - tape.h[k0] * tape.h[k0]);
        *d_u += d_t2 * x[t];
        d_x[t] += d_t2 * u;
        *d_w += d_t2 * (if k0 > 0 { tape.h[k0 - 1] } else { tape.h_1 });
        d_h += d_t2 * w;
    }
}
///The value of [`rnn`] and its gradient with respect to `x`, `w`, `u`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_grad(x: &[f64; 50], w: f64, u: f64) -> (f64, ([f64; 50], f64, f64)) {
    let mut tape = <RnnTape>::new();
    let value = rnn_forward(x, w, u, &mut tape);
    let mut d_x: [f64; 50] = [0.0; 50];
    let mut d_w: f64 = 0.0;
    let mut d_u: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        let d_u = &mut d_u;
        let mut d_h: f64 = -0.0;
        d_h += d_out;
        for (k0, t) in (0..50).enumerate().rev() {
            let d_h_1: f64 = d_h;
            d_h = -0.0;
            let d_t2: f64 = d_h_1 * (1.0 - tape.h[k0] * tape.h[k0]);
            *d_u += d_t2 * x[t];
            d_x[t] = d_t2 * u;
            *d_w += d_t2 * (if k0 > 0 { tape.h[k0 - 1] } else { tape.h_1 });
            d_h += d_t2 * w;
        }
    }
    (value, (d_x, d_w, d_u))
}
const _: fn(&[f64; 50], f64, f64) -> f64 = rnn;
///The call contract of [`rnn`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `rnn`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `rnn`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `rnn::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait RnnCall<
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
> RnnCall<__A0, __A1, __A2> for () {
    type Out = f64;
    type Tape = RnnTape;
}
#[doc(hidden)]
pub trait RnnSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> RnnSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> RnnSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`rnn_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`RnnTape`] through `RnnCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn rnn_adjoint_call<'__stackgrad>(
    x: &[f64; 50],
    w: f64,
    u: f64,
    tape: &RnnTape,
    d_out: f64,
    __stackgrad_d0: impl RnnSlot<'__stackgrad, [f64; 50]>,
    __stackgrad_d1: impl RnnSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl RnnSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 50];
    let __stackgrad_d0: &mut [f64; 50] = match RnnSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 50];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match RnnSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: f64;
    let __stackgrad_d2: &mut f64 = match RnnSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = 0.0;
            &mut __stackgrad_d2_scratch
        }
    };
    rnn_adjoint(x, w, u, tape, d_out, __stackgrad_d0, __stackgrad_d1, __stackgrad_d2);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `rnn`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait RnnZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl RnnZero0 for [f64; 50] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 50]
    }
}
