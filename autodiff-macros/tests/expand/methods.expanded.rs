/// A model as a struct with methods: `loss` calls `predict`, differentiated in `self` and the
/// input; `loss` in `self` alone.
impl Linear {
    pub fn predict(&self, x: &[f64; 2]) -> f64 {
        self.w[0] * x[0] + self.w[1] * x[1] + self.b
    }
    pub fn loss(&self, x: &[f64; 2], y: f64) -> f64 {
        let e = self.predict(x) - y;
        e * e
    }
    ///Computes [`Self::predict`] and records in `tape` what [`Self::predict_adjoint`] needs.
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn predict_forward(&self, x: &[f64; 2], tape: &mut LinearPredictTape) -> f64 {
        __linear_predict_forward(self, x, tape)
    }
    /**The reverse sweep of [`Self::predict`]: adds `d_out` times the derivative of `Self::predict` with respect to `self`, `x` into `d_self`, `d_x`.

`tape` must have been filled by [`Self::predict_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn predict_adjoint(
        &self,
        x: &[f64; 2],
        tape: &LinearPredictTape,
        d_out: f64,
        d_self: &mut Linear,
        d_x: &mut [f64; 2],
    ) {
        __linear_predict_adjoint(self, x, tape, d_out, d_self, d_x)
    }
    ///The value of [`Self::predict`] and its gradient with respect to `self`, `x`, in parameter order.
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn predict_grad(&self, x: &[f64; 2]) -> (f64, (Linear, [f64; 2])) {
        __linear_predict_grad(self, x)
    }
    ///Computes [`Self::loss`] and records in `tape` what [`Self::loss_adjoint`] needs.
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn loss_forward(&self, x: &[f64; 2], y: f64, tape: &mut LinearLossTape) -> f64 {
        __linear_loss_forward(self, x, y, tape)
    }
    /**The reverse sweep of [`Self::loss`]: adds `d_out` times the derivative of `Self::loss` with respect to `self` into `d_self`.

`tape` must have been filled by [`Self::loss_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn loss_adjoint(
        &self,
        x: &[f64; 2],
        y: f64,
        tape: &LinearLossTape,
        d_out: f64,
        d_self: &mut Linear,
    ) {
        __linear_loss_adjoint(self, x, y, tape, d_out, d_self)
    }
    ///The value of [`Self::loss`] and its gradient with respect to `self`, in parameter order.
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn loss_grad(&self, x: &[f64; 2], y: f64) -> (f64, Linear) {
        __linear_loss_grad(self, x, y)
    }
}
#[allow(dead_code, clippy::all)]
#[doc(hidden)]
fn __linear_predict(self_: &Linear, x: &[f64; 2]) -> f64 {
    self_.w[0] * x[0] + self_.w[1] * x[1] + self_.b
}
///The tape of [`Linear::predict`]: what [`Linear::predict_adjoint`] reads, recorded by [`Linear::predict_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct LinearPredictTape {}
impl LinearPredictTape {
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
impl ::core::default::Default for LinearPredictTape {
    fn default() -> Self {
        Self::new()
    }
}
impl LinearPredictTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`Linear::predict`] and records in `tape` what [`Linear::predict_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
#[allow(dead_code)]
fn __linear_predict_forward(
    self_: &Linear,
    x: &[f64; 2],
    tape: &mut LinearPredictTape,
) -> f64 {
    let t0 = self_.w[0] * x[0];
    let t1 = self_.w[1] * x[1];
    let t2 = t0 + t1;
    t2 + self_.b
}
/**The reverse sweep of [`Linear::predict`]: adds `d_out` times the derivative of `Linear::predict` with respect to `self`, `x` into `d_self`, `d_x`.

`tape` must have been filled by [`Linear::predict_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
#[allow(dead_code)]
fn __linear_predict_adjoint(
    self_: &Linear,
    x: &[f64; 2],
    tape: &LinearPredictTape,
    d_out: f64,
    d_self_: &mut Linear,
    d_x: &mut [f64; 2],
) {
    d_self_.b += d_out;
    d_self_.w[1] += d_out * x[1];
    d_x[1] += d_out * self_.w[1];
    d_self_.w[0] += d_out * x[0];
    d_x[0] += d_out * self_.w[0];
}
///The value of [`Linear::predict`] and its gradient with respect to `self`, `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
#[allow(dead_code)]
fn __linear_predict_grad(self_: &Linear, x: &[f64; 2]) -> (f64, (Linear, [f64; 2])) {
    let mut tape = <LinearPredictTape>::new();
    let value = __linear_predict_forward(self_, x, &mut tape);
    let mut d_self_: Linear = <Linear as ::core::default::Default>::default();
    let mut d_x: [f64; 2] = [0.0; 2];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_self_ = &mut d_self_;
        let d_x = &mut d_x;
        d_self_.b = d_out;
        d_self_.w[1] = d_out * x[1];
        d_x[1] = d_out * self_.w[1];
        d_self_.w[0] += d_out * x[0];
        d_x[0] += d_out * self_.w[0];
    }
    (value, (d_self_, d_x))
}
const _: fn(&Linear, &[f64; 2]) -> f64 = __linear_predict;
///The call contract of [`Linear::predict`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `Linear::predict`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `__linear_predict`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `__linear_predict::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait LinearPredictCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> LinearPredictCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = LinearPredictTape;
}
#[doc(hidden)]
pub trait LinearPredictSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LinearPredictSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LinearPredictSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`Linear::predict_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`LinearPredictTape`] through `LinearPredictCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
#[allow(dead_code)]
fn __linear_predict_adjoint_call<'__stackgrad>(
    self_: &Linear,
    x: &[f64; 2],
    tape: &LinearPredictTape,
    d_out: f64,
    __stackgrad_d0: impl LinearPredictSlot<'__stackgrad, Linear>,
    __stackgrad_d1: impl LinearPredictSlot<'__stackgrad, [f64; 2]>,
) {
    let mut __stackgrad_d0_scratch: Linear;
    let __stackgrad_d0: &mut Linear = match LinearPredictSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = <Linear as ::core::default::Default>::default();
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 2];
    let __stackgrad_d1: &mut [f64; 2] = match LinearPredictSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 2];
            &mut __stackgrad_d1_scratch
        }
    };
    __linear_predict_adjoint(self_, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `__linear_predict`'s parameter `self_`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait LinearPredictZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<__T: ::core::default::Default> LinearPredictZero0 for __T {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        <Self as ::core::default::Default>::default()
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `__linear_predict`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait LinearPredictZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LinearPredictZero1 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[allow(dead_code, clippy::all)]
#[doc(hidden)]
fn __linear_loss(self_: &Linear, x: &[f64; 2], y: f64) -> f64 {
    let e = __linear_predict(self_, x) - y;
    e * e
}
///The tape of [`Linear::loss`]: what [`Linear::loss_adjoint`] reads, recorded by [`Linear::loss_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct LinearLossTape {
    ///the tape of the call to `Linear::predict`
    __linear_predict: <() as LinearPredictCall<Linear, [f64; 2]>>::Tape,
    ///`e` (line 11)
    e: f64,
}
impl LinearLossTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "__linear_predict",
            "the tape of the call to __linear_predict",
            "LinearPredictTape",
            ::core::mem::size_of::<<() as LinearPredictCall<Linear, [f64; 2]>>::Tape>(),
        ),
        ("e", "e (line 11)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            __linear_predict: <<() as LinearPredictCall<Linear, [f64; 2]>>::Tape>::new(),
            e: 0.0,
        }
    }
}
impl ::core::default::Default for LinearLossTape {
    fn default() -> Self {
        Self::new()
    }
}
impl LinearLossTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`Linear::loss`] and records in `tape` what [`Linear::loss_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
#[allow(dead_code)]
fn __linear_loss_forward(
    self_: &Linear,
    x: &[f64; 2],
    y: f64,
    tape: &mut LinearLossTape,
) -> f64 {
    let t0 = __linear_predict_forward(self_, x, &mut tape.__linear_predict);
    let e: f64 = t0 - y;
    tape.e = e;
    e * e
}
/**The reverse sweep of [`Linear::loss`]: adds `d_out` times the derivative of `Linear::loss` with respect to `self` into `d_self`.

`tape` must have been filled by [`Linear::loss_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
#[allow(dead_code)]
fn __linear_loss_adjoint(
    self_: &Linear,
    x: &[f64; 2],
    y: f64,
    tape: &LinearLossTape,
    d_out: f64,
    d_self_: &mut Linear,
) {
    let mut d_e: f64 = -0.0;
    d_e += d_out * 2.0 * tape.e;
    __linear_predict_adjoint_call(
        self_,
        x,
        &tape.__linear_predict,
        d_e,
        &mut *d_self_,
        (),
    );
}
///The value of [`Linear::loss`] and its gradient with respect to `self`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
#[allow(dead_code)]
fn __linear_loss_grad(self_: &Linear, x: &[f64; 2], y: f64) -> (f64, Linear) {
    let mut tape = <LinearLossTape>::new();
    let value = __linear_loss_forward(self_, x, y, &mut tape);
    let mut d_self_: Linear = <Linear as ::core::default::Default>::default();
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_self_ = &mut d_self_;
        let mut d_e: f64 = -0.0;
        d_e += d_out * 2.0 * tape.e;
        __linear_predict_adjoint_call(
            self_,
            x,
            &tape.__linear_predict,
            d_e,
            &mut *d_self_,
            (),
        );
    }
    (value, d_self_)
}
const _: fn(&Linear, &[f64; 2], f64) -> f64 = __linear_loss;
///The call contract of [`Linear::loss`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `Linear::loss`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `__linear_loss`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `__linear_loss::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait LinearLossCall<
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
> LinearLossCall<__A0, __A1, __A2> for () {
    type Out = f64;
    type Tape = LinearLossTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`__linear_loss` does not differentiate its parameter `x`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `x` in `__linear_loss` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait LinearLossNoDerivativeX {}
impl LinearLossNoDerivativeX for () {}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`__linear_loss` does not differentiate its parameter `y`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `y` in `__linear_loss` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait LinearLossNoDerivativeY {}
impl LinearLossNoDerivativeY for () {}
#[doc(hidden)]
pub trait LinearLossSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LinearLossSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> LinearLossSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`Linear::loss_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`LinearLossTape`] through `LinearLossCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
#[allow(dead_code)]
fn __linear_loss_adjoint_call<'__stackgrad>(
    self_: &Linear,
    x: &[f64; 2],
    y: f64,
    tape: &LinearLossTape,
    d_out: f64,
    __stackgrad_d0: impl LinearLossSlot<'__stackgrad, Linear>,
    __stackgrad_d1: impl LinearLossNoDerivativeX,
    __stackgrad_d2: impl LinearLossNoDerivativeY,
) {
    let mut __stackgrad_d0_scratch: Linear;
    let __stackgrad_d0: &mut Linear = match LinearLossSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = <Linear as ::core::default::Default>::default();
            &mut __stackgrad_d0_scratch
        }
    };
    __linear_loss_adjoint(self_, x, y, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `__linear_loss`'s parameter `self_`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait LinearLossZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<__T: ::core::default::Default> LinearLossZero0 for __T {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        <Self as ::core::default::Default>::default()
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `__linear_loss`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait LinearLossZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LinearLossZero1 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
