/// Straight-line code with compound assignments: the expression from micrograd's README.
pub fn micrograd(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).max(0.0);
    d += 3.0 * d + (b - a).max(0.0);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}
///The tape of [`micrograd`]: what [`micrograd_adjoint`] reads, recorded by [`micrograd_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct MicrogradTape {
    ///`e` (line 10)
    e: f64,
    ///`f` (line 11)
    f: f64,
    ///`t14 = 10.0 / f`
    t14: f64,
}
impl MicrogradTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("e", "e (line 10)", "f64", ::core::mem::size_of::<f64>()),
        ("f", "f (line 11)", "f64", ::core::mem::size_of::<f64>()),
        ("t14", "t14 = 10.0 / f", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { e: 0.0, f: 0.0, t14: 0.0 }
    }
}
impl ::core::default::Default for MicrogradTape {
    fn default() -> Self {
        Self::new()
    }
}
impl MicrogradTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`micrograd`] and records in `tape` what [`micrograd_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn micrograd_forward(a: f64, b: f64, tape: &mut MicrogradTape) -> f64 {
    let mut c: f64 = a + b;
    let t0 = a * b;
    let t1 = b.powi(3);
    let mut d: f64 = t0 + t1;
    let t2 = c + 1.0;
    c = c + t2;
    let t3 = 1.0 + c;
    let t4 = -a;
    let t5 = t3 + t4;
    c = c + t5;
    let t6 = d * 2.0;
    let t7 = b + a;
    let t8 = t7.max(0.0);
    let t9 = t6 + t8;
    d = d + t9;
    let t10 = 3.0 * d;
    let t11 = b - a;
    let t12 = t11.max(0.0);
    let t13 = t10 + t12;
    d = d + t13;
    let e: f64 = c - d;
    tape.e = e;
    let f: f64 = e.powi(2);
    tape.f = f;
    let mut g: f64 = f / 2.0;
    let t14 = 10.0 / f;
    tape.t14 = t14;
    g = g + t14;
    g
}
/**The reverse sweep of [`micrograd`]: adds `d_out` times the derivative of `micrograd` with respect to `a`, `b` into `d_a`, `d_b`.

`tape` must have been filled by [`micrograd_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn micrograd_adjoint(
    a: f64,
    b: f64,
    tape: &MicrogradTape,
    d_out: f64,
    d_a: &mut f64,
    d_b: &mut f64,
) {
    let mut d_c: f64 = -0.0;
    let mut d_d: f64 = -0.0;
    let mut d_e: f64 = -0.0;
    let mut d_f: f64 = -0.0;
    let mut d_g: f64 = -0.0;
    d_g += d_out;
    let d_t14: f64 = d_g;
    d_f += -(d_t14 / tape.f * tape.t14);
    d_f += d_g / 2.0_f64;
    d_e += d_f * (2 as f64) * tape.e.powi(2 - 1);
    d_c += d_e;
    d_d += -d_e;
    let d_t12: f64 = d_d;
    d_d *= 4.0;
    let d_t11: f64 = if (b - a) >= 0.0_f64 { d_t12 } else { 0.0 };
    *d_b += d_t11;
    *d_a += -d_t11;
    let d_t8: f64 = d_d;
    d_d *= 3.0;
    let d_t7: f64 = if (b + a) >= 0.0_f64 { d_t8 } else { 0.0 };
    *d_b += d_t7;
    *d_a += d_t7;
    *d_a += -d_c;
    d_c *= 4.0;
    *d_b += d_d * (3 as f64) * b.powi(3 - 1);
    *d_a += d_d * b;
    *d_b += d_d * a;
    *d_a += d_c;
    *d_b += d_c;
}
///The value of [`micrograd`] and its gradient with respect to `a`, `b`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn micrograd_grad(a: f64, b: f64) -> (f64, (f64, f64)) {
    let mut tape = <MicrogradTape>::new();
    let value = micrograd_forward(a, b, &mut tape);
    let mut d_a: f64 = 0.0;
    let mut d_b: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_a = &mut d_a;
        let d_b = &mut d_b;
        let mut d_c: f64 = -0.0;
        let mut d_d: f64 = -0.0;
        let mut d_e: f64 = -0.0;
        let mut d_f: f64 = -0.0;
        let mut d_g: f64 = -0.0;
        d_g += d_out;
        let d_t14: f64 = d_g;
        d_f += -(d_t14 / tape.f * tape.t14);
        d_f += d_g / 2.0_f64;
        d_e += d_f * (2 as f64) * tape.e.powi(2 - 1);
        d_c += d_e;
        d_d += -d_e;
        let d_t12: f64 = d_d;
        d_d *= 4.0;
        let d_t11: f64 = if (b - a) >= 0.0_f64 { d_t12 } else { 0.0 };
        *d_b = d_t11;
        *d_a = -d_t11;
        let d_t8: f64 = d_d;
        d_d *= 3.0;
        let d_t7: f64 = if (b + a) >= 0.0_f64 { d_t8 } else { 0.0 };
        *d_b += d_t7;
        *d_a += d_t7;
        *d_a += -d_c;
        d_c *= 4.0;
        *d_b += d_d * (3 as f64) * b.powi(3 - 1);
        *d_a += d_d * b;
        *d_b += d_d * a;
        *d_a += d_c;
        *d_b += d_c;
    }
    (value, (d_a, d_b))
}
const _: fn(f64, f64) -> f64 = micrograd;
///The call contract of [`micrograd`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `micrograd`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `micrograd`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `micrograd::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait MicrogradCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> MicrogradCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = MicrogradTape;
}
#[doc(hidden)]
pub trait MicrogradSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MicrogradSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MicrogradSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`micrograd_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`MicrogradTape`] through `MicrogradCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn micrograd_adjoint_call<'__stackgrad>(
    a: f64,
    b: f64,
    tape: &MicrogradTape,
    d_out: f64,
    __stackgrad_d0: impl MicrogradSlot<'__stackgrad, f64>,
    __stackgrad_d1: impl MicrogradSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: f64;
    let __stackgrad_d0: &mut f64 = match MicrogradSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = 0.0;
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match MicrogradSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    micrograd_adjoint(a, b, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
