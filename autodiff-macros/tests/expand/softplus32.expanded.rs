/// `f32` with a cast through `f64` and a numerically stable branch.
pub fn softplus32(x: f32) -> f32 {
    if x > 20.0 {
        return x;
    }
    let wide = (x as f64).exp().ln_1p();
    wide as f32
}
///The tape of [`softplus32`]: what [`softplus32_adjoint`] reads, recorded by [`softplus32_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct Softplus32Tape {
    ///`t1 = t0.exp()` (line 7)
    t1: f64,
}
impl Softplus32Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t1", "t1 = t0.exp() (line 7)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { t1: 0.0 }
    }
}
impl ::core::default::Default for Softplus32Tape {
    fn default() -> Self {
        Self::new()
    }
}
impl Softplus32Tape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`softplus32`] and records in `tape` what [`softplus32_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn softplus32_forward(x: f32, tape: &mut Softplus32Tape) -> f32 {
    if x > 20.0 {
        x
    } else {
        let t0 = x as f64;
        let t1 = t0.exp();
        tape.t1 = t1;
        let wide: f64 = t1.ln_1p();
        wide as f32
    }
}
/**The reverse sweep of [`softplus32`]: adds `d_out` times the derivative of `softplus32` with respect to `x` into `d_x`.

`tape` must have been filled by [`softplus32_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn softplus32_adjoint(x: f32, tape: &Softplus32Tape, d_out: f32, d_x: &mut f32) {
    let mut d_wide: f64 = -0.0;
    if (x > 20.0) {
        *d_x += d_out;
    } else {
        d_wide += d_out as f64;
        let d_t1: f64 = d_wide / (1.0 + tape.t1);
        let d_t0: f64 = d_t1 * tape.t1;
        *d_x += d_t0 as f32;
    }
}
///The value of [`softplus32`] and its gradient with respect to `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn softplus32_grad(x: f32) -> (f32, f32) {
    let mut tape = <Softplus32Tape>::new();
    let value = softplus32_forward(x, &mut tape);
    let mut d_x: f32 = 0.0;
    {
        let tape = &tape;
        let d_out: f32 = 1.0;
        let d_x = &mut d_x;
        let mut d_wide: f64 = -0.0;
        if (x > 20.0) {
            *d_x = d_out;
        } else {
            d_wide += d_out as f64;
            let d_t1: f64 = d_wide / (1.0 + tape.t1);
            let d_t0: f64 = d_t1 * tape.t1;
            *d_x = d_t0 as f32;
        }
    }
    (value, d_x)
}
const _: fn(f32) -> f32 = softplus32;
///The call contract of [`softplus32`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `softplus32`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `softplus32`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `softplus32::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait Softplus32Call<A0: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized> Softplus32Call<__A0> for () {
    type Out = f32;
    type Tape = Softplus32Tape;
}
#[doc(hidden)]
pub trait Softplus32Slot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> Softplus32Slot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> Softplus32Slot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`softplus32_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`Softplus32Tape`] through `Softplus32Call`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn softplus32_adjoint_call<'__stackgrad>(
    x: f32,
    tape: &Softplus32Tape,
    d_out: f32,
    __stackgrad_d0: impl Softplus32Slot<'__stackgrad, f32>,
) {
    let mut __stackgrad_d0_scratch: f32;
    let __stackgrad_d0: &mut f32 = match Softplus32Slot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = 0.0;
            &mut __stackgrad_d0_scratch
        }
    };
    softplus32_adjoint(x, tape, d_out, __stackgrad_d0);
}
