fn cubic(x: &[f64; 2], w: f64) -> f64 {
    w * x[0] * x[0] * x[1] + w.sin()
}
///The tape of [`cubic`]: what [`cubic_adjoint`] reads, recorded by [`cubic_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicTape {}
impl CubicTape {
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
impl ::core::default::Default for CubicTape {
    fn default() -> Self {
        Self::new()
    }
}
impl CubicTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`cubic`] and records in `tape` what [`cubic_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_forward(x: &[f64; 2], w: f64, tape: &mut CubicTape) -> f64 {
    let t0 = w * x[0];
    let t1 = t0 * x[0];
    let t2 = t1 * x[1];
    let t3 = w.sin();
    t2 + t3
}
/**The reverse sweep of [`cubic`]: adds `d_out` times the derivative of `cubic` with respect to `x`, `w` into `d_x`, `d_w`.

`tape` must have been filled by [`cubic_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_adjoint(
    x: &[f64; 2],
    w: f64,
    tape: &CubicTape,
    d_out: f64,
    d_x: &mut [f64; 2],
    d_w: &mut f64,
) {
    *d_w += d_out * w.cos();
    let d_t1: f64 = d_out * x[1];
    d_x[1] += d_out * ((w * x[0]) * x[0]);
    let d_t0: f64 = d_t1 * x[0];
    d_x[0] += d_t1 * (w * x[0]);
    *d_w += d_t0 * x[0];
    d_x[0] += d_t0 * w;
}
///The value of [`cubic`] and its gradient with respect to `x`, `w`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad(x: &[f64; 2], w: f64) -> (f64, ([f64; 2], f64)) {
    let mut tape = <CubicTape>::new();
    let value = cubic_forward(x, w, &mut tape);
    let mut d_x: [f64; 2] = [0.0; 2];
    let mut d_w: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        *d_w = d_out * w.cos();
        let d_t1: f64 = d_out * x[1];
        d_x[1] = d_out * ((w * x[0]) * x[0]);
        let d_t0: f64 = d_t1 * x[0];
        d_x[0] += d_t1 * (w * x[0]);
        *d_w += d_t0 * x[0];
        d_x[0] += d_t0 * w;
    }
    (value, (d_x, d_w))
}
///The value of [`cubic`] and its directional derivative: the derivative with respect to `x`, `w` along the tangents `t_x`, `t_w` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_jvp(x: &[f64; 2], w: f64, t_x: &[f64; 2], t_w: f64) -> (f64, f64) {
    let t0 = w * x[0];
    let t_t0: f64 = t_w * x[0] + w * t_x[0];
    let t1 = t0 * x[0];
    let t_t1: f64 = t_t0 * x[0] + t0 * t_x[0];
    let t2 = t1 * x[1];
    let t_t2: f64 = t_t1 * x[1] + t1 * t_x[1];
    let t3 = w.sin();
    let t_t3: f64 = t_w * w.cos();
    let t4 = t2 + t3;
    let t_t4: f64 = t_t2 + t_t3;
    (t4, t_t4)
}
///[`cubic_jvp`] along `W` directions at once (vector forward mode): the value of [`cubic`] and its derivatives with respect to `x`, `w` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_jvp_vec<const __W: usize>(
    x: &[f64; 2],
    w: f64,
    t_x: &[[f64; __W]; 2],
    t_w: [f64; __W],
) -> (f64, [f64; __W]) {
    let t0 = w * x[0];
    let t_t0: [f64; __W] = ::core::array::from_fn(|__l| {
        t_w[__l] * x[0] + w * t_x[0][__l]
    });
    let t1 = t0 * x[0];
    let t_t1: [f64; __W] = ::core::array::from_fn(|__l| {
        t_t0[__l] * x[0] + t0 * t_x[0][__l]
    });
    let t2 = t1 * x[1];
    let t_t2: [f64; __W] = ::core::array::from_fn(|__l| {
        t_t1[__l] * x[1] + t1 * t_x[1][__l]
    });
    let t3 = w.sin();
    let t_t3: [f64; __W] = ::core::array::from_fn(|__l| t_w[__l] * w.cos());
    let t4 = t2 + t3;
    let t_t4: [f64; __W] = ::core::array::from_fn(|__l| t_t2[__l] + t_t3[__l]);
    (t4, t_t4)
}
const _: fn(&[f64; 2], f64) -> f64 = cubic;
///The call contract of [`cubic`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> CubicCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = CubicTape;
}
#[doc(hidden)]
trait CubicSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> CubicSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> CubicSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicTape`] through `CubicCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    tape: &CubicTape,
    d_out: f64,
    __stackgrad_d0: impl CubicSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    cubic_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait CubicTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`cubic_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_jvp_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    __stackgrad_t0: impl CubicTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl CubicTangent<'__stackgrad, f64>,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match CubicTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match CubicTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    cubic_jvp(x, w, __stackgrad_t0, *__stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The gradient of [`cubic`] with respect to `x` alone, a value other `#[differentiable]` functions differentiate again (generated by `#[differentiable(nested)]`, with `cubic_grad_x_forward`, `cubic_grad_x_adjoint`, `CubicGradXTape` and `cubic_grad_x_jvp`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_x(x: &[f64; 2], w: f64) -> [f64; 2] {
    let (_, g) = cubic_grad(x, w);
    g.0
}
///The tape of [`cubic_grad_x`]: empty, as its adjoint is one Hessian-vector product at the arguments (generated by `#[differentiable(nested)]`).
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicGradXTape;
impl CubicGradXTape {
    /// The tape's size in bytes: nothing.
    pub const BYTES: usize = 0;
    /// No recorded field.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// An empty tape.
    pub const fn new() -> Self {
        Self
    }
    /// The bytes this tape holds: nothing.
    pub fn bytes(&self) -> usize {
        0
    }
}
impl ::core::default::Default for CubicGradXTape {
    fn default() -> Self {
        Self::new()
    }
}
///The call contract of [`cubic_grad_x`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic_grad_x`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic_grad_x`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic_grad_x::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicGradXCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> CubicGradXCall<__A0, __A1> for () {
    type Out = [f64; 2];
    type Tape = CubicGradXTape;
}
#[doc(hidden)]
trait CubicGradXSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradXSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradXSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_grad_x_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicGradXTape`] through `CubicGradXCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_grad_x_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    tape: &CubicGradXTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl CubicGradXSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicGradXSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicGradXSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicGradXSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    cubic_grad_x_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait CubicGradXTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradXTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradXTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradXTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`cubic_grad_x_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_grad_x_jvp_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    __stackgrad_t0: impl CubicGradXTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl CubicGradXTangent<'__stackgrad, f64>,
) -> ([f64; 2], [f64; 2]) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match CubicGradXTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match CubicGradXTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    cubic_grad_x_jvp(x, w, __stackgrad_t0, *__stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_grad_x`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicGradXZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicGradXZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_x_forward(x: &[f64; 2], w: f64, tape: &mut CubicGradXTape) -> [f64; 2] {
    cubic_grad_x(x, w)
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_x_forward_into(
    x: &[f64; 2],
    w: f64,
    tape: &mut CubicGradXTape,
    out: &mut [f64; 2],
) {
    *out = cubic_grad_x(x, w);
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_x_adjoint(
    x: &[f64; 2],
    w: f64,
    tape: &CubicGradXTape,
    d_out: &[f64; 2],
    d_x: &mut [f64; 2],
    d_w: &mut f64,
) {
    let (_, _, hv) = cubic_hvp(x, w, d_out, 0.0);
    for (d, h) in (d_x).iter_mut().zip((&hv.0).iter()) {
        *d += *h;
    }
    *d_w += *&hv.1;
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_x_jvp(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
) -> ([f64; 2], [f64; 2]) {
    let (_, _, hv) = cubic_hvp(x, w, t_x, t_w);
    (cubic_grad_x(x, w), hv.0)
}
///The gradient of [`cubic`] with respect to `w` alone, a value other `#[differentiable]` functions differentiate again (generated by `#[differentiable(nested)]`, with `cubic_grad_w_forward`, `cubic_grad_w_adjoint`, `CubicGradWTape` and `cubic_grad_w_jvp`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_w(x: &[f64; 2], w: f64) -> f64 {
    let (_, g) = cubic_grad(x, w);
    g.1
}
///The tape of [`cubic_grad_w`]: empty, as its adjoint is one Hessian-vector product at the arguments (generated by `#[differentiable(nested)]`).
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicGradWTape;
impl CubicGradWTape {
    /// The tape's size in bytes: nothing.
    pub const BYTES: usize = 0;
    /// No recorded field.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// An empty tape.
    pub const fn new() -> Self {
        Self
    }
    /// The bytes this tape holds: nothing.
    pub fn bytes(&self) -> usize {
        0
    }
}
impl ::core::default::Default for CubicGradWTape {
    fn default() -> Self {
        Self::new()
    }
}
///The call contract of [`cubic_grad_w`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic_grad_w`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic_grad_w`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic_grad_w::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicGradWCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> CubicGradWCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = CubicGradWTape;
}
#[doc(hidden)]
trait CubicGradWSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradWSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradWSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_grad_w_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicGradWTape`] through `CubicGradWCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_grad_w_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    tape: &CubicGradWTape,
    d_out: f64,
    __stackgrad_d0: impl CubicGradWSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicGradWSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicGradWSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicGradWSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    cubic_grad_w_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait CubicGradWTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradWTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradWTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradWTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`cubic_grad_w_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_grad_w_jvp_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    __stackgrad_t0: impl CubicGradWTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl CubicGradWTangent<'__stackgrad, f64>,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match CubicGradWTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match CubicGradWTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    cubic_grad_w_jvp(x, w, __stackgrad_t0, *__stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_grad_w`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicGradWZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicGradWZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_w_forward(x: &[f64; 2], w: f64, tape: &mut CubicGradWTape) -> f64 {
    cubic_grad_w(x, w)
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_w_adjoint(
    x: &[f64; 2],
    w: f64,
    tape: &CubicGradWTape,
    d_out: f64,
    d_x: &mut [f64; 2],
    d_w: &mut f64,
) {
    let (_, _, hv) = cubic_hvp(x, w, &[0.0; 2], d_out);
    for (d, h) in (d_x).iter_mut().zip((&hv.0).iter()) {
        *d += *h;
    }
    *d_w += *&hv.1;
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_w_jvp(x: &[f64; 2], w: f64, t_x: &[f64; 2], t_w: f64) -> (f64, f64) {
    let (_, _, hv) = cubic_hvp(x, w, t_x, t_w);
    (cubic_grad_w(x, w), hv.1)
}
///`[value, tangent]` of [`cubic`] along the directions `t_x`, `t_w`: `cubic_jvp` as an array, which other `#[differentiable]` functions differentiate again (generated by `#[differentiable(nested)]`, with `cubic_tangent_forward`, `cubic_tangent_adjoint`, `CubicTangentTape` and `cubic_tangent_jvp`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_tangent(x: &[f64; 2], w: f64, t_x: &[f64; 2], t_w: f64) -> [f64; 2] {
    let (v, g) = cubic_jvp(x, w, t_x, t_w);
    [v, g]
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_tangent_forward_into(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &mut CubicTangentTape,
    out: &mut [f64; 2],
) {
    *out = cubic_tangent(x, w, t_x, t_w);
}
///The tape of [`cubic_tangent`]: empty, as its adjoint is one Hessian-vector product at the arguments (generated by `#[differentiable(nested)]`).
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicTangentTape;
impl CubicTangentTape {
    /// The tape's size in bytes: nothing.
    pub const BYTES: usize = 0;
    /// No recorded field.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// An empty tape.
    pub const fn new() -> Self {
        Self
    }
    /// The bytes this tape holds: nothing.
    pub fn bytes(&self) -> usize {
        0
    }
}
impl ::core::default::Default for CubicTangentTape {
    fn default() -> Self {
        Self::new()
    }
}
///The call contract of [`cubic_tangent`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic_tangent`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic_tangent`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic_tangent::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicTangentCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
    A3: ?::core::marker::Sized,
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
    __A3: ?::core::marker::Sized,
> CubicTangentCall<__A0, __A1, __A2, __A3> for () {
    type Out = [f64; 2];
    type Tape = CubicTangentTape;
}
#[doc(hidden)]
trait CubicTangentSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangentSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangentSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_tangent_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicTangentTape`] through `CubicTangentCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_tangent_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &CubicTangentTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl CubicTangentSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicTangentSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl CubicTangentSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d3: impl CubicTangentSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicTangentSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicTangentSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: [f64; 2];
    let __stackgrad_d2: &mut [f64; 2] = match CubicTangentSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = [0.0; 2];
            &mut __stackgrad_d2_scratch
        }
    };
    let mut __stackgrad_d3_scratch: f64;
    let __stackgrad_d3: &mut f64 = match CubicTangentSlot::slot(__stackgrad_d3) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d3_scratch = 0.0;
            &mut __stackgrad_d3_scratch
        }
    };
    cubic_tangent_adjoint(
        x,
        w,
        t_x,
        t_w,
        tape,
        d_out,
        __stackgrad_d0,
        __stackgrad_d1,
        __stackgrad_d2,
        __stackgrad_d3,
    );
}
#[doc(hidden)]
trait CubicTangentTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangentTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangentTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicTangentTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`cubic_tangent_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_tangent_jvp_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    __stackgrad_t0: impl CubicTangentTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl CubicTangentTangent<'__stackgrad, f64>,
    __stackgrad_t2: impl CubicTangentTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t3: impl CubicTangentTangent<'__stackgrad, f64>,
) -> ([f64; 2], [f64; 2]) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match CubicTangentTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match CubicTangentTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    let __stackgrad_t2_zero: [f64; 2];
    let __stackgrad_t2: &[f64; 2] = match CubicTangentTangent::tangent(__stackgrad_t2) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t2_zero = [0.0; 2];
            &__stackgrad_t2_zero
        }
    };
    let __stackgrad_t3_zero: f64;
    let __stackgrad_t3: &f64 = match CubicTangentTangent::tangent(__stackgrad_t3) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t3_zero = 0.0;
            &__stackgrad_t3_zero
        }
    };
    cubic_tangent_jvp(
        x,
        w,
        t_x,
        t_w,
        __stackgrad_t0,
        *__stackgrad_t1,
        __stackgrad_t2,
        *__stackgrad_t3,
    )
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_tangent`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicTangentZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicTangentZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_tangent`'s parameter `t_x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicTangentZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicTangentZero2 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_tangent_forward(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &mut CubicTangentTape,
) -> [f64; 2] {
    cubic_tangent(x, w, t_x, t_w)
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_tangent_adjoint(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &CubicTangentTape,
    d_out: &[f64; 2],
    d_x: &mut [f64; 2],
    d_w: &mut f64,
    d_t_x: &mut [f64; 2],
    d_t_w: &mut f64,
) {
    let (_, g, ht) = cubic_hvp(x, w, t_x, t_w);
    let (a, b) = (d_out[0], d_out[1]);
    for (d, h) in (d_x).iter_mut().zip((&g.0).iter()) {
        *d += a * *h;
    }
    for (d, h) in (d_x).iter_mut().zip((&ht.0).iter()) {
        *d += b * *h;
    }
    for (d, h) in (d_t_x).iter_mut().zip((&g.0).iter()) {
        *d += b * *h;
    }
    *d_w += a * *&g.1;
    *d_w += b * *&ht.1;
    *d_t_w += b * *&g.1;
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_tangent_jvp(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    s_x: &[f64; 2],
    s_w: f64,
    s_t_x: &[f64; 2],
    s_t_w: f64,
) -> ([f64; 2], [f64; 2]) {
    let (_, g, ht) = cubic_hvp(x, w, t_x, t_w);
    (
        cubic_tangent(x, w, t_x, t_w),
        [
            (0.0 + (g.0).iter().zip((s_x).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                + (g.1 * s_w)),
            (0.0 + (s_x).iter().zip((ht.0).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                + (s_w * ht.1))
                + (0.0
                    + (g.0).iter().zip((s_t_x).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                    + (g.1 * s_t_w)),
        ],
    )
}
///The tape of [`cubic_jvp`]: empty, as its adjoint is one Hessian-vector product at the arguments (generated by `#[differentiable(nested)]`).
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicJvpTape;
impl CubicJvpTape {
    /// The tape's size in bytes: nothing.
    pub const BYTES: usize = 0;
    /// No recorded field.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// An empty tape.
    pub const fn new() -> Self {
        Self
    }
    /// The bytes this tape holds: nothing.
    pub fn bytes(&self) -> usize {
        0
    }
}
impl ::core::default::Default for CubicJvpTape {
    fn default() -> Self {
        Self::new()
    }
}
///The call contract of [`cubic_jvp`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic_jvp`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic_jvp`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic_jvp::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicJvpCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
    A3: ?::core::marker::Sized,
> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
    /// An element of the tuple the function returns.
    type Elem0;
    /// An element of the tuple the function returns.
    type Elem1;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
    __A2: ?::core::marker::Sized,
    __A3: ?::core::marker::Sized,
> CubicJvpCall<__A0, __A1, __A2, __A3> for () {
    type Out = (f64, f64);
    type Tape = CubicJvpTape;
    type Elem0 = f64;
    type Elem1 = f64;
}
#[doc(hidden)]
trait CubicJvpSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicJvpSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicJvpSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_jvp_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicJvpTape`] through `CubicJvpCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_jvp_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &CubicJvpTape,
    d_out: (f64, f64),
    __stackgrad_d0: impl CubicJvpSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicJvpSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl CubicJvpSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d3: impl CubicJvpSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicJvpSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicJvpSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: [f64; 2];
    let __stackgrad_d2: &mut [f64; 2] = match CubicJvpSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = [0.0; 2];
            &mut __stackgrad_d2_scratch
        }
    };
    let mut __stackgrad_d3_scratch: f64;
    let __stackgrad_d3: &mut f64 = match CubicJvpSlot::slot(__stackgrad_d3) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d3_scratch = 0.0;
            &mut __stackgrad_d3_scratch
        }
    };
    cubic_jvp_adjoint(
        x,
        w,
        t_x,
        t_w,
        tape,
        d_out,
        __stackgrad_d0,
        __stackgrad_d1,
        __stackgrad_d2,
        __stackgrad_d3,
    );
}
#[doc(hidden)]
trait CubicJvpTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicJvpTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicJvpTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicJvpTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`cubic_jvp_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_jvp_jvp_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    __stackgrad_t0: impl CubicJvpTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl CubicJvpTangent<'__stackgrad, f64>,
    __stackgrad_t2: impl CubicJvpTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t3: impl CubicJvpTangent<'__stackgrad, f64>,
) -> ((f64, f64), (f64, f64)) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match CubicJvpTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match CubicJvpTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    let __stackgrad_t2_zero: [f64; 2];
    let __stackgrad_t2: &[f64; 2] = match CubicJvpTangent::tangent(__stackgrad_t2) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t2_zero = [0.0; 2];
            &__stackgrad_t2_zero
        }
    };
    let __stackgrad_t3_zero: f64;
    let __stackgrad_t3: &f64 = match CubicJvpTangent::tangent(__stackgrad_t3) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t3_zero = 0.0;
            &__stackgrad_t3_zero
        }
    };
    cubic_jvp_jvp(
        x,
        w,
        t_x,
        t_w,
        __stackgrad_t0,
        *__stackgrad_t1,
        __stackgrad_t2,
        *__stackgrad_t3,
    )
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_jvp`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicJvpZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicJvpZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_jvp`'s parameter `t_x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicJvpZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicJvpZero2 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The callee items of [`cubic_jvp`], so that other `#[differentiable]` functions differentiate `let (v, dv) = cubic_jvp(..);` (generated by `#[differentiable(nested)]`): `cubic_jvp_forward`, `cubic_jvp_adjoint` and `cubic_jvp_jvp`, each one `cubic_hvp`.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_jvp_forward(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &mut CubicJvpTape,
) -> (f64, f64) {
    cubic_jvp(x, w, t_x, t_w)
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_jvp_adjoint(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &CubicJvpTape,
    d_out: (f64, f64),
    d_x: &mut [f64; 2],
    d_w: &mut f64,
    d_t_x: &mut [f64; 2],
    d_t_w: &mut f64,
) {
    let (_, g, ht) = cubic_hvp(x, w, t_x, t_w);
    let (a, b) = d_out;
    for (d, h) in (d_x).iter_mut().zip((&g.0).iter()) {
        *d += a * *h;
    }
    for (d, h) in (d_x).iter_mut().zip((&ht.0).iter()) {
        *d += b * *h;
    }
    for (d, h) in (d_t_x).iter_mut().zip((&g.0).iter()) {
        *d += b * *h;
    }
    *d_w += a * *&g.1;
    *d_w += b * *&ht.1;
    *d_t_w += b * *&g.1;
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_jvp_jvp(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    s_x: &[f64; 2],
    s_w: f64,
    s_t_x: &[f64; 2],
    s_t_w: f64,
) -> ((f64, f64), (f64, f64)) {
    let (_, g, ht) = cubic_hvp(x, w, t_x, t_w);
    (
        cubic_jvp(x, w, t_x, t_w),
        (
            (0.0 + (g.0).iter().zip((s_x).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                + (g.1 * s_w)),
            (0.0 + (s_x).iter().zip((ht.0).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                + (s_w * ht.1))
                + (0.0
                    + (g.0).iter().zip((s_t_x).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                    + (g.1 * s_t_w)),
        ),
    )
}
///The tape of [`cubic_grad`]: empty, as its adjoint is one Hessian-vector product at the arguments (generated by `#[differentiable(nested)]`).
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicGradTape;
impl CubicGradTape {
    /// The tape's size in bytes: nothing.
    pub const BYTES: usize = 0;
    /// No recorded field.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
    /// An empty tape.
    pub const fn new() -> Self {
        Self
    }
    /// The bytes this tape holds: nothing.
    pub fn bytes(&self) -> usize {
        0
    }
}
impl ::core::default::Default for CubicGradTape {
    fn default() -> Self {
        Self::new()
    }
}
///The call contract of [`cubic_grad`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic_grad`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic_grad`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic_grad::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicGradCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
    /// An element of the tuple the function returns.
    type Elem0;
    /// An element of the tuple the function returns.
    type Elem1;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> CubicGradCall<__A0, __A1> for () {
    type Out = (f64, ([f64; 2], f64));
    type Tape = CubicGradTape;
    type Elem0 = f64;
    type Elem1 = ([f64; 2], f64);
}
#[doc(hidden)]
trait CubicGradSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_grad_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicGradTape`] through `CubicGradCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_grad_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    tape: &CubicGradTape,
    d_out: (f64, ([f64; 2], f64)),
    __stackgrad_d0: impl CubicGradSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicGradSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicGradSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicGradSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    cubic_grad_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait CubicGradTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicGradTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`cubic_grad_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_grad_jvp_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    __stackgrad_t0: impl CubicGradTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl CubicGradTangent<'__stackgrad, f64>,
) -> ((f64, ([f64; 2], f64)), (f64, ([f64; 2], f64))) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match CubicGradTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match CubicGradTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    cubic_grad_jvp(x, w, __stackgrad_t0, *__stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_grad`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicGradZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicGradZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The callee items of [`cubic_grad`], so that other `#[differentiable]` functions differentiate `let (v, g) = cubic_grad(..);` (generated by `#[differentiable(nested)]`): `cubic_grad_forward`, `cubic_grad_adjoint` and `cubic_grad_jvp`, each one `cubic_hvp`.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_forward(
    x: &[f64; 2],
    w: f64,
    tape: &mut CubicGradTape,
) -> (f64, ([f64; 2], f64)) {
    cubic_grad(x, w)
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_adjoint(
    x: &[f64; 2],
    w: f64,
    tape: &CubicGradTape,
    d_out: (f64, ([f64; 2], f64)),
    d_x: &mut [f64; 2],
    d_w: &mut f64,
) {
    let (a, c) = d_out;
    let (_, g, hv) = cubic_hvp(x, w, &c.0, c.1);
    for (d, h) in (d_x).iter_mut().zip((&g.0).iter()) {
        *d += a * *h;
    }
    for (d, h) in (d_x).iter_mut().zip((&hv.0).iter()) {
        *d += *h;
    }
    *d_w += a * *&g.1;
    *d_w += *&hv.1;
}
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_grad_jvp(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
) -> ((f64, ([f64; 2], f64)), (f64, ([f64; 2], f64))) {
    let (_, g, hv) = cubic_hvp(x, w, t_x, t_w);
    (
        cubic_grad(x, w),
        (
            (0.0 + (g.0).iter().zip((t_x).iter()).fold(0.0, |s, (a, b)| s + (a * b))
                + (g.1 * t_w)),
            hv,
        ),
    )
}
///The tape of [`cubic_hvp_jvp`]: what [`cubic_hvp_jvp_adjoint`] reads, recorded by [`cubic_hvp_jvp_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct CubicHvpJvpTape {
    ///`t3` (line 1)
    t3: f64,
    ///`t11 = w.cos()` (line 1)
    t11: f64,
}
impl CubicHvpJvpTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t3", "t3 (line 1)", "f64", ::core::mem::size_of::<f64>()),
        ("t11", "t11 = w.cos() (line 1)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { t3: 0.0, t11: 0.0 }
    }
}
impl ::core::default::Default for CubicHvpJvpTape {
    fn default() -> Self {
        Self::new()
    }
}
impl CubicHvpJvpTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`cubic_hvp_jvp`] and records in `tape` what [`cubic_hvp_jvp_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_hvp_jvp_forward(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &mut CubicHvpJvpTape,
) -> [f64; 2] {
    let t0: f64 = w * x[0];
    let t5 = t_w * x[0];
    let t6 = w * t_x[0];
    let t_t0: f64 = t5 + t6;
    let t1: f64 = t0 * x[0];
    let t7 = t_t0 * x[0];
    let t8 = t0 * t_x[0];
    let t_t1: f64 = t7 + t8;
    let t2: f64 = t1 * x[1];
    let t9 = t_t1 * x[1];
    let t10 = t1 * t_x[1];
    let t_t2: f64 = t9 + t10;
    let t3: f64 = w.sin();
    tape.t3 = t3;
    let t11 = w.cos();
    tape.t11 = t11;
    let t_t3: f64 = t_w * t11;
    let t4: f64 = t2 + t3;
    let t_t4: f64 = t_t2 + t_t3;
    [t4, t_t4]
}
///[`cubic_hvp_jvp_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_hvp_jvp_forward_into(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &mut CubicHvpJvpTape,
    out: &mut [f64; 2],
) {
    *out = cubic_hvp_jvp_forward(x, w, t_x, t_w, tape);
}
/**The reverse sweep of [`cubic_hvp_jvp`]: adds `d_out` times the derivative of `cubic_hvp_jvp` with respect to `x`, `w`, `t_x`, `t_w` into `d_x`, `d_w`, `d_t_x`, `d_t_w`.

`tape` must have been filled by [`cubic_hvp_jvp_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_hvp_jvp_adjoint(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &CubicHvpJvpTape,
    d_out: &[f64; 2],
    d_x: &mut [f64; 2],
    d_w: &mut f64,
    d_t_x: &mut [f64; 2],
    d_t_w: &mut f64,
) {
    let mut d_t0: f64 = -0.0;
    let mut d_t_t0: f64 = -0.0;
    let mut d_t1: f64 = -0.0;
    let mut d_t_t1: f64 = -0.0;
    let mut d_t2: f64 = -0.0;
    let mut d_t_t2: f64 = -0.0;
    let mut d_t3: f64 = -0.0;
    let mut d_t_t3: f64 = -0.0;
    let mut d_t4: f64 = -0.0;
    let mut d_t_t4: f64 = -0.0;
    d_t4 += (*d_out)[0];
    d_t_t4 += (*d_out)[1];
    d_t_t2 += d_t_t4;
    d_t_t3 += d_t_t4;
    d_t2 += d_t4;
    d_t3 += d_t4;
    *d_t_w += d_t_t3 * tape.t11;
    let d_t11: f64 = d_t_t3 * t_w;
    *d_w += -(d_t11 * tape.t3);
    *d_w += d_t3 * tape.t11;
    d_t1 += d_t_t2 * t_x[1];
    d_t_x[1] += d_t_t2 * ((w * x[0]) * x[0]);
    d_t_t1 += d_t_t2 * x[1];
    d_x[1] += d_t_t2 * ((((t_w * x[0]) + (w * t_x[0])) * x[0]) + ((w * x[0]) * t_x[0]));
    d_t1 += d_t2 * x[1];
    d_x[1] += d_t2 * ((w * x[0]) * x[0]);
    d_t0 += d_t_t1 * t_x[0];
    d_t_x[0] += d_t_t1 * (w * x[0]);
    d_t_t0 += d_t_t1 * x[0];
    d_x[0] += d_t_t1 * ((t_w * x[0]) + (w * t_x[0]));
    d_t0 += d_t1 * x[0];
    d_x[0] += d_t1 * (w * x[0]);
    *d_w += d_t_t0 * t_x[0];
    d_t_x[0] += d_t_t0 * w;
    *d_t_w += d_t_t0 * x[0];
    d_x[0] += d_t_t0 * t_w;
    *d_w += d_t0 * x[0];
    d_x[0] += d_t0 * w;
}
const _: fn(&[f64; 2], f64, &[f64; 2], f64) -> [f64; 2] = cubic_hvp_jvp;
///The call contract of [`cubic_hvp_jvp`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `cubic_hvp_jvp`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `cubic_hvp_jvp`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `cubic_hvp_jvp::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait CubicHvpJvpCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
    A3: ?::core::marker::Sized,
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
    __A3: ?::core::marker::Sized,
> CubicHvpJvpCall<__A0, __A1, __A2, __A3> for () {
    type Out = [f64; 2];
    type Tape = CubicHvpJvpTape;
}
#[doc(hidden)]
trait CubicHvpJvpSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicHvpJvpSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> CubicHvpJvpSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`cubic_hvp_jvp_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CubicHvpJvpTape`] through `CubicHvpJvpCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn cubic_hvp_jvp_adjoint_call<'__stackgrad>(
    x: &[f64; 2],
    w: f64,
    t_x: &[f64; 2],
    t_w: f64,
    tape: &CubicHvpJvpTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl CubicHvpJvpSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl CubicHvpJvpSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl CubicHvpJvpSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d3: impl CubicHvpJvpSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match CubicHvpJvpSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match CubicHvpJvpSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: [f64; 2];
    let __stackgrad_d2: &mut [f64; 2] = match CubicHvpJvpSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = [0.0; 2];
            &mut __stackgrad_d2_scratch
        }
    };
    let mut __stackgrad_d3_scratch: f64;
    let __stackgrad_d3: &mut f64 = match CubicHvpJvpSlot::slot(__stackgrad_d3) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d3_scratch = 0.0;
            &mut __stackgrad_d3_scratch
        }
    };
    cubic_hvp_jvp_adjoint(
        x,
        w,
        t_x,
        t_w,
        tape,
        d_out,
        __stackgrad_d0,
        __stackgrad_d1,
        __stackgrad_d2,
        __stackgrad_d3,
    );
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_hvp_jvp`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicHvpJvpZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicHvpJvpZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `cubic_hvp_jvp`'s parameter `t_x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait CubicHvpJvpZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl CubicHvpJvpZero2 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The tangent program of [`cubic`] as `[value, tangent]`, which `cubic_hvp` differentiates (generated by `#[differentiable(hvp)]`; a function declared `hvp` calls its callees' `_hvp_jvp`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_hvp_jvp(x: &[f64; 2], w: f64, t_x: &[f64; 2], t_w: f64) -> [f64; 2] {
    let t0 = w * x[0];
    let t_t0: f64 = t_w * x[0] + w * t_x[0];
    let t1 = t0 * x[0];
    let t_t1: f64 = t_t0 * x[0] + t0 * t_x[0];
    let t2 = t1 * x[1];
    let t_t2: f64 = t_t1 * x[1] + t1 * t_x[1];
    let t3 = w.sin();
    let t_t3: f64 = t_w * w.cos();
    let t4 = t2 + t3;
    let t_t4: f64 = t_t2 + t_t3;
    [t4, t_t4]
}
///The value of [`cubic`], its gradient with respect to `x`, `w` (as `cubic_grad` returns it) and the Hessian-vector product `H v` along `v_x`, `v_w`, by reverse mode over forward mode (its tape on the stack, with `Vec` fields where a loop over a run-time length is recorded).
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn cubic_hvp(
    x: &[f64; 2],
    w: f64,
    v_x: &[f64; 2],
    v_w: f64,
) -> (f64, ([f64; 2], f64), ([f64; 2], f64)) {
    let mut tape = <CubicHvpJvpTape>::new();
    let value = cubic_hvp_jvp_forward(x, w, v_x, v_w, &mut tape);
    let mut h0: [f64; 2] = [0.0; 2];
    let mut g0: [f64; 2] = [0.0; 2];
    let mut h1: f64 = 0.0;
    let mut g1: f64 = 0.0;
    cubic_hvp_jvp_adjoint(
        x,
        w,
        v_x,
        v_w,
        &tape,
        &[0.0, 1.0],
        &mut h0,
        &mut h1,
        &mut g0,
        &mut g1,
    );
    (value[0], (g0, g1), (h0, h1))
}
