/// A tuple output, `wrt`, an integer parameter, a reassigned parameter and shadowing.
pub fn polar(r: f64, mut theta: f64, turns: i32, scale: f64) -> (f64, f64) {
    theta += core::f64::consts::PI * (turns as f64);
    let r = r * scale;
    (r * theta.cos(), r * theta.sin())
}
///The tape of [`polar`]: what [`polar_adjoint`] reads, recorded by [`polar_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct PolarTape {
    ///`theta` (line 3) after an assignment
    theta_1: f64,
    ///`t2 = theta_1.cos()` (line 6)
    t2: f64,
    ///`t4 = theta_1.sin()` (line 6)
    t4: f64,
}
impl PolarTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "theta_1",
            "theta (line 3) after an assignment",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        ("t2", "t2 = theta_1.cos() (line 6)", "f64", ::core::mem::size_of::<f64>()),
        ("t4", "t4 = theta_1.sin() (line 6)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            theta_1: 0.0,
            t2: 0.0,
            t4: 0.0,
        }
    }
}
impl ::core::default::Default for PolarTape {
    fn default() -> Self {
        Self::new()
    }
}
impl PolarTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`polar`] and records in `tape` what [`polar_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn polar_forward(
    r: f64,
    theta: f64,
    turns: i32,
    scale: f64,
    tape: &mut PolarTape,
) -> (f64, f64) {
    let mut theta_1: f64 = theta;
    let t0 = turns as f64;
    let t1 = core::f64::consts::PI * t0;
    theta_1 = theta_1 + t1;
    tape.theta_1 = theta_1;
    let r_1: f64 = r * scale;
    let t2 = theta_1.cos();
    tape.t2 = t2;
    let t3 = r_1 * t2;
    let t4 = theta_1.sin();
    tape.t4 = t4;
    let t5 = r_1 * t4;
    (t3, t5)
}
/**The reverse sweep of [`polar`]: adds `d_out` times the derivative of `polar` with respect to `r`, `theta` into `d_r`, `d_theta`.

`tape` must have been filled by [`polar_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn polar_adjoint(
    r: f64,
    theta: f64,
    turns: i32,
    scale: f64,
    tape: &PolarTape,
    d_out: (f64, f64),
    d_r: &mut f64,
    d_theta: &mut f64,
) {
    let mut d_theta_1: f64 = -0.0;
    let mut d_r_1: f64 = -0.0;
    d_r_1 += d_out.1 * tape.t4;
    let d_t4: f64 = d_out.1 * (r * scale);
    d_theta_1 += d_t4 * tape.theta_1.cos();
    d_r_1 += d_out.0 * tape.t2;
    let d_t2: f64 = d_out.0 * (r * scale);
    d_theta_1 += -(d_t2 * tape.theta_1.sin());
    *d_r += d_r_1 * scale;
    *d_theta += d_theta_1;
}
const _: () = {
    #[allow(dead_code, unused_variables, clippy::all)]
    fn only_const_items() {
        if let core::f64::consts::PI = core::f64::consts::PI {}
    }
};
const _: fn(f64, f64, i32, f64) -> (f64, f64) = polar;
///The call contract of [`polar`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `polar`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `polar`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `polar::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait PolarCall<
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
> PolarCall<__A0, __A1, __A2, __A3> for () {
    type Out = (f64, f64);
    type Tape = PolarTape;
    type Elem0 = f64;
    type Elem1 = f64;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`polar` does not differentiate its parameter `turns`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `turns` in `polar` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait PolarNoDerivativeTurns {}
impl PolarNoDerivativeTurns for () {}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`polar` does not differentiate its parameter `scale`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `scale` in `polar` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait PolarNoDerivativeScale {}
impl PolarNoDerivativeScale for () {}
#[doc(hidden)]
pub trait PolarSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> PolarSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> PolarSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`polar_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`PolarTape`] through `PolarCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn polar_adjoint_call<'__stackgrad>(
    r: f64,
    mut theta: f64,
    turns: i32,
    scale: f64,
    tape: &PolarTape,
    d_out: (f64, f64),
    __stackgrad_d0: impl PolarSlot<'__stackgrad, f64>,
    __stackgrad_d1: impl PolarSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl PolarNoDerivativeTurns,
    __stackgrad_d3: impl PolarNoDerivativeScale,
) {
    let mut __stackgrad_d0_scratch: f64;
    let __stackgrad_d0: &mut f64 = match PolarSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = 0.0;
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match PolarSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    polar_adjoint(r, theta, turns, scale, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
