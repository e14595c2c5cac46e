/// A function with an array output gets `mlp_forward_into`, the forward sweep writing its value
/// into `out`: its last call writes there itself (`affine_forward_into(.., out)`) instead of
/// returning the value to be copied.
fn mlp(w: &[[f64; 2]; 2], x: &[f64; 2]) -> [f64; 2] {
    let h: [f64; 2] = affine(w, x);
    let s: [f64; 2] = [h[0].tanh(), h[1].tanh()];
    affine(w, &s)
}
///The tape of [`mlp`]: what [`mlp_adjoint`] reads, recorded by [`mlp_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct MlpTape {
    ///the tape of the call to `affine`
    affine_1: <() as AffineCall<[[f64; 2]; 2], [f64; 2]>>::Tape,
    ///`t0 = h[0].tanh()` (line 7)
    t0: f64,
    ///`t1 = h[1].tanh()` (line 7)
    t1: f64,
    ///`s` (line 7)
    s: [f64; 2],
    ///the tape of the call to `affine`
    affine: <() as AffineCall<[[f64; 2]; 2], [f64; 2]>>::Tape,
}
impl MlpTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "affine_1",
            "the tape of the call to affine",
            "AffineTape",
            ::core::mem::size_of::<<() as AffineCall<[[f64; 2]; 2], [f64; 2]>>::Tape>(),
        ),
        ("t0", "t0 = h[0].tanh() (line 7)", "f64", ::core::mem::size_of::<f64>()),
        ("t1", "t1 = h[1].tanh() (line 7)", "f64", ::core::mem::size_of::<f64>()),
        ("s", "s (line 7)", "[f64 ; 2]", ::core::mem::size_of::<[f64; 2]>()),
        (
            "affine",
            "the tape of the call to affine",
            "AffineTape",
            ::core::mem::size_of::<<() as AffineCall<[[f64; 2]; 2], [f64; 2]>>::Tape>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            affine_1: <<() as AffineCall<[[f64; 2]; 2], [f64; 2]>>::Tape>::new(),
            t0: 0.0,
            t1: 0.0,
            s: [0.0; 2],
            affine: <<() as AffineCall<[[f64; 2]; 2], [f64; 2]>>::Tape>::new(),
        }
    }
}
impl ::core::default::Default for MlpTape {
    fn default() -> Self {
        Self::new()
    }
}
impl MlpTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`mlp`] and records in `tape` what [`mlp_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mlp_forward(w: &[[f64; 2]; 2], x: &[f64; 2], tape: &mut MlpTape) -> [f64; 2] {
    let h: [f64; 2] = affine_forward(w, x, &mut tape.affine_1);
    let t0 = h[0].tanh();
    tape.t0 = t0;
    let t1 = h[1].tanh();
    tape.t1 = t1;
    tape.s = [t0, t1];
    let s: &[f64; 2] = &tape.s;
    affine_forward(w, &(*s), &mut tape.affine)
}
///[`mlp_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mlp_forward_into(
    w: &[[f64; 2]; 2],
    x: &[f64; 2],
    tape: &mut MlpTape,
    out: &mut [f64; 2],
) {
    let h: [f64; 2] = affine_forward(w, x, &mut tape.affine_1);
    let t0 = h[0].tanh();
    tape.t0 = t0;
    let t1 = h[1].tanh();
    tape.t1 = t1;
    tape.s = [t0, t1];
    let s: &[f64; 2] = &tape.s;
    affine_forward_into(w, &(*s), &mut tape.affine, out);
}
/**The reverse sweep of [`mlp`]: adds `d_out` times the derivative of `mlp` with respect to `w`, `x` into `d_w`, `d_x`.

`tape` must have been filled by [`mlp_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mlp_adjoint(
    w: &[[f64; 2]; 2],
    x: &[f64; 2],
    tape: &MlpTape,
    d_out: &[f64; 2],
    d_w: &mut [[f64; 2]; 2],
    d_x: &mut [f64; 2],
) {
    let mut d_h: [f64; 2] = [0.0; 2];
    let mut d_s: [f64; 2] = [0.0; 2];
    affine_adjoint_call(w, &tape.s, &tape.affine, &(*d_out), &mut *d_w, &mut d_s);
    let d_t0: f64 = d_s[0];
    let d_t1: f64 = d_s[1];
    d_h[1] += d_t1 * (1.0 - tape.t1 * tape.t1);
    d_h[0] += d_t0 * (1.0 - tape.t0 * tape.t0);
    affine_adjoint_call(w, x, &tape.affine_1, &d_h, &mut *d_w, &mut *d_x);
}
const _: fn(&[[f64; 2]; 2], &[f64; 2]) -> [f64; 2] = mlp;
///The call contract of [`mlp`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `mlp`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `mlp`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `mlp::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait MlpCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> MlpCall<__A0, __A1>
for () {
    type Out = [f64; 2];
    type Tape = MlpTape;
}
#[doc(hidden)]
trait MlpSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> MlpSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> MlpSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`mlp_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`MlpTape`] through `MlpCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn mlp_adjoint_call<'__stackgrad>(
    w: &[[f64; 2]; 2],
    x: &[f64; 2],
    tape: &MlpTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl MlpSlot<'__stackgrad, [[f64; 2]; 2]>,
    __stackgrad_d1: impl MlpSlot<'__stackgrad, [f64; 2]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; 2]; 2];
    let __stackgrad_d0: &mut [[f64; 2]; 2] = match MlpSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; 2]; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 2];
    let __stackgrad_d1: &mut [f64; 2] = match MlpSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 2];
            &mut __stackgrad_d1_scratch
        }
    };
    mlp_adjoint(w, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `mlp`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait MlpZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl MlpZero0 for [[f64; 2]; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 2]; 2]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `mlp`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait MlpZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl MlpZero1 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
