/// Two layers of an array-valued callee: the recorded hidden arrays are computed straight into
/// their tape slots, and the callee's adjoint takes each output's cotangent by reference.
fn layers(w: &[[f64; 3]; 3], x: &[f64; 3]) -> f64 {
    let mut h: [f64; 3] = squash(x);
    for _ in 0..2 {
        let z: [f64; 3] = affine(w, &h);
        h = squash(&z);
    }
    h[0] * h[1] + h[2]
}
///The tape of [`layers`]: what [`layers_adjoint`] reads, recorded by [`layers_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct LayersTape {
    ///the tape of the call to `squash`
    squash_1: <() as SquashCall<[f64; 3]>>::Tape,
    ///`h` (line 5) after an assignment
    h_2: [f64; 3],
    ///the tape of the call to `affine`
    affine: [<() as AffineCall<[[f64; 3]; 3], [f64; 3]>>::Tape; 2],
    ///`z` (line 7)
    z: [[f64; 3]; 2],
    ///the tape of the call to `squash`
    squash: [<() as SquashCall<[f64; 3]>>::Tape; 2],
    ///`h` (line 5) after an assignment
    h_3: [[f64; 3]; 2],
    ///`h[..]` where it is read
    h_1: f64,
    ///`h[..]` where it is read
    h: f64,
}
impl LayersTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "squash_1",
            "the tape of the call to squash",
            "SquashTape",
            ::core::mem::size_of::<<() as SquashCall<[f64; 3]>>::Tape>(),
        ),
        (
            "h_2",
            "h (line 5) after an assignment",
            "[f64 ; 3]",
            ::core::mem::size_of::<[f64; 3]>(),
        ),
        (
            "affine",
            "the tape of the call to affine",
            "[AffineTape ; 2]",
            ::core::mem::size_of::<
                [<() as AffineCall<[[f64; 3]; 3], [f64; 3]>>::Tape; 2],
            >(),
        ),
        ("z", "z (line 7)", "[[f64 ; 3] ; 2]", ::core::mem::size_of::<[[f64; 3]; 2]>()),
        (
            "squash",
            "the tape of the call to squash",
            "[SquashTape ; 2]",
            ::core::mem::size_of::<[<() as SquashCall<[f64; 3]>>::Tape; 2]>(),
        ),
        (
            "h_3",
            "h (line 5) after an assignment",
            "[[f64 ; 3] ; 2]",
            ::core::mem::size_of::<[[f64; 3]; 2]>(),
        ),
        ("h_1", "h[..] where it is read", "f64", ::core::mem::size_of::<f64>()),
        ("h", "h[..] where it is read", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            squash_1: <<() as SquashCall<[f64; 3]>>::Tape>::new(),
            h_2: [0.0; 3],
            affine: [const {
                <<() as AffineCall<[[f64; 3]; 3], [f64; 3]>>::Tape>::new()
            }; 2],
            z: [[0.0; 3]; 2],
            squash: [const { <<() as SquashCall<[f64; 3]>>::Tape>::new() }; 2],
            h_3: [[0.0; 3]; 2],
            h_1: 0.0,
            h: 0.0,
        }
    }
}
impl ::core::default::Default for LayersTape {
    fn default() -> Self {
        Self::new()
    }
}
impl LayersTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`layers`] and records in `tape` what [`layers_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn layers_forward(w: &[[f64; 3]; 3], x: &[f64; 3], tape: &mut LayersTape) -> f64 {
    squash_forward_into(x, &mut tape.squash_1, &mut tape.h_2);
    let mut h: [f64; 3] = tape.h_2;
    for (k0, _i) in (0..2).enumerate() {
        affine_forward_into(w, &h, &mut tape.affine[k0], &mut tape.z[k0]);
        let z: &[f64; 3] = &tape.z[k0];
        squash_forward_into(&(*z), &mut tape.squash[k0], &mut tape.h_3[k0]);
        h = tape.h_3[k0];
    }
    tape.h_1 = h[0];
    tape.h = h[1];
    let t0 = h[0] * h[1];
    t0 + h[2]
}
/**The reverse sweep of [`layers`]: adds `d_out` times the derivative of `layers` with respect to `w`, `x` into `d_w`, `d_x`.

`tape` must have been filled by [`layers_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn layers_adjoint(
    w: &[[f64; 3]; 3],
    x: &[f64; 3],
    tape: &LayersTape,
    d_out: f64,
    d_w: &mut [[f64; 3]; 3],
    d_x: &mut [f64; 3],
) {
    let mut d_h: [f64; 3] = [0.0; 3];
    let mut d_z: [f64; 3] = [0.0; 3];
    d_h[2] += d_out;
    d_h[0] += d_out * tape.h;
    d_h[1] += d_out * tape.h_1;
    for (k0, _i) in (0..2).enumerate().rev() {
        squash_adjoint_call(&tape.z[k0], &tape.squash[k0], &d_h, &mut d_z);
        d_h = [0.0; 3];
        affine_adjoint_call(
            w,
            (if k0 > 0 { &tape.h_3[k0 - 1] } else { &tape.h_2 }),
            &tape.affine[k0],
            &d_z,
            &mut *d_w,
            &mut d_h,
        );
        d_z = [0.0; 3];
    }
    squash_adjoint_call(x, &tape.squash_1, &d_h, &mut *d_x);
}
///The value of [`layers`] and its gradient with respect to `w`, `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn layers_grad(w: &[[f64; 3]; 3], x: &[f64; 3]) -> (f64, ([[f64; 3]; 3], [f64; 3])) {
    let mut tape = <LayersTape>::new();
    let value = layers_forward(w, x, &mut tape);
    let mut d_w: [[f64; 3]; 3] = [[0.0; 3]; 3];
    let mut d_x: [f64; 3] = [0.0; 3];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_w = &mut d_w;
        let d_x = &mut d_x;
        let mut d_h: [f64; 3] = [0.0; 3];
        let mut d_z: [f64; 3] = [0.0; 3];
        d_h[2] += d_out;
        d_h[0] += d_out * tape.h;
        d_h[1] += d_out * tape.h_1;
        for (k0, _i) in (0..2).enumerate().rev() {
            squash_adjoint_call(&tape.z[k0], &tape.squash[k0], &d_h, &mut d_z);
            d_h = [0.0; 3];
            affine_adjoint_call(
                w,
                (if k0 > 0 { &tape.h_3[k0 - 1] } else { &tape.h_2 }),
                &tape.affine[k0],
                &d_z,
                &mut *d_w,
                &mut d_h,
            );
            d_z = [0.0; 3];
        }
        squash_adjoint_call(x, &tape.squash_1, &d_h, &mut *d_x);
    }
    (value, (d_w, d_x))
}
const _: fn(&[[f64; 3]; 3], &[f64; 3]) -> f64 = layers;
///The call contract of [`layers`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `layers`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `layers`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `layers::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait LayersCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> LayersCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = LayersTape;
}
#[doc(hidden)]
trait LayersSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> LayersSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> LayersSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`layers_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`LayersTape`] through `LayersCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn layers_adjoint_call<'__stackgrad>(
    w: &[[f64; 3]; 3],
    x: &[f64; 3],
    tape: &LayersTape,
    d_out: f64,
    __stackgrad_d0: impl LayersSlot<'__stackgrad, [[f64; 3]; 3]>,
    __stackgrad_d1: impl LayersSlot<'__stackgrad, [f64; 3]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; 3]; 3];
    let __stackgrad_d0: &mut [[f64; 3]; 3] = match LayersSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; 3]; 3];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 3];
    let __stackgrad_d1: &mut [f64; 3] = match LayersSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 3];
            &mut __stackgrad_d1_scratch
        }
    };
    layers_adjoint(w, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `layers`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait LayersZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LayersZero0 for [[f64; 3]; 3] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 3]; 3]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `layers`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait LayersZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LayersZero1 for [f64; 3] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 3]
    }
}
