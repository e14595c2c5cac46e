/// A sequential loop over a run-time length: its steps go into `Vec` fields of the tape, sized
/// when the loop starts (the `alloc` feature).
pub fn rnn(w: f64, u: f64, x: &[f64]) -> f64 {
    let mut h = 0.0;
    for t in 0..x.len() {
        h = (w * h + u * x[t]).tanh();
    }
    h * h
}
///The tape of [`rnn`]: what [`rnn_adjoint`] reads, recorded by [`rnn_forward`] in fixed-size fields and `Vec`s (of loops over run-time lengths whose iterations carry state, or of every loop under `heap`) sized on first use and reused after.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct RnnTape {
    ///`h` (line 5) after an assignment
    h_2: f64,
    ///`h` (line 5) after an assignment
    h_1: __RnnTape_alloc::vec::Vec<f64>,
    ///`h` (line 5) after its last write
    h: f64,
}
impl RnnTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("h_2", "h (line 5) after an assignment", "f64", ::core::mem::size_of::<f64>()),
        (
            "h_1",
            "h (line 5) after an assignment",
            "__RnnTape_alloc::vec::Vec < f64 >",
            ::core::mem::size_of::<__RnnTape_alloc::vec::Vec<f64>>(),
        ),
        ("h", "h (line 5) after its last write", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            h_2: 0.0,
            h_1: __RnnTape_alloc::vec::Vec::new(),
            h: 0.0,
        }
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
        Self::BYTES + self.h_1.capacity() * ::core::mem::size_of::<f64>()
    }
}
extern crate alloc as __RnnTape_alloc;
///Computes [`rnn`] and records in `tape` what [`rnn_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_forward(w: f64, u: f64, x: &[f64], tape: &mut RnnTape) -> f64 {
    let mut h: f64 = 0.0;
    tape.h_2 = h;
    tape.h_1.resize((if (x.len()) > (0) { ((x.len()) - (0)) as usize } else { 0 }), 0.0);
    for (k0, t) in (0..x.len()).enumerate() {
        let t0 = w * h;
        let t1 = u * x[t];
        let t2 = t0 + t1;
        h = t2.tanh();
        tape.h_1[k0] = h;
    }
    tape.h = h;
    h * h
}
///[`rnn_forward`], except that where [`rnn_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_try_forward(
    w: f64,
    u: f64,
    x: &[f64],
    tape: &mut RnnTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let mut h: f64 = 0.0;
        tape.h_2 = h;
        tape.h_1
            .resize((if (x.len()) > (0) { ((x.len()) - (0)) as usize } else { 0 }), 0.0);
        for (k0, t) in (0..x.len()).enumerate() {
            let t0 = w * h;
            let t1 = u * (*x.get(t).ok_or("an index is outside the slice `x`")?);
            let t2 = t0 + t1;
            h = t2.tanh();
            tape.h_1[k0] = h;
        }
        tape.h = h;
        h * h
    })
}
/**The reverse sweep of [`rnn`]: adds `d_out` times the derivative of `rnn` with respect to `w`, `u` into `d_w`, `d_u`.

`tape` must have been filled by [`rnn_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_adjoint(
    w: f64,
    u: f64,
    x: &[f64],
    tape: &RnnTape,
    d_out: f64,
    d_w: &mut f64,
    d_u: &mut f64,
) {
    let mut d_h: f64 = -0.0;
    d_h += d_out * 2.0 * tape.h;
    for (k0, t) in (0..x.len()).enumerate().rev() {
        let d_h_1: f64 = d_h;
        d_h = -0.0;
        let d_t2: f64 = d_h_1 * (1.0 - tape.h_1[k0] * tape.h_1[k0]);
        *d_u += d_t2 * x[t];
        *d_w += d_t2 * (if k0 > 0 { tape.h_1[k0 - 1] } else { tape.h_2 });
        d_h += d_t2 * w;
    }
}
///The value of [`rnn`] and its gradient with respect to `w`, `u`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn rnn_grad(w: f64, u: f64, x: &[f64]) -> (f64, (f64, f64)) {
    let mut tape = <RnnTape>::new();
    let value = rnn_forward(w, u, x, &mut tape);
    let mut d_w: f64 = 0.0;
    let mut d_u: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_w = &mut d_w;
        let d_u = &mut d_u;
        let mut d_h: f64 = -0.0;
        d_h += d_out * 2.0 * tape.h;
        for (k0, t) in (0..x.len()).enumerate().rev() {
            let d_h_1: f64 = d_h;
            d_h = -0.0;
            let d_t2: f64 = d_h_1 * (1.0 - tape.h_1[k0] * tape.h_1[k0]);
            *d_u += d_t2 * x[t];
            *d_w += d_t2 * (if k0 > 0 { tape.h_1[k0 - 1] } else { tape.h_2 });
            d_h += d_t2 * w;
        }
    }
    (value, (d_w, d_u))
}
const _: fn(f64, f64, &[f64]) -> f64 = rnn;
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
#[diagnostic::on_unimplemented(
    message = "`rnn` does not differentiate its parameter `x`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `x` in `rnn` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait RnnNoDerivativeX {}
impl RnnNoDerivativeX for () {}
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
    w: f64,
    u: f64,
    x: &[f64],
    tape: &RnnTape,
    d_out: f64,
    __stackgrad_d0: impl RnnSlot<'__stackgrad, f64>,
    __stackgrad_d1: impl RnnSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl RnnNoDerivativeX,
) {
    let mut __stackgrad_d0_scratch: f64;
    let __stackgrad_d0: &mut f64 = match RnnSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = 0.0;
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
    rnn_adjoint(w, u, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
