/// `#[recompute]` on an array that three calls read whole: the reverse sweep computes it again
/// once, into a local declared before the first reversed reader, and the other two reuse it.
fn three_readers(x: &[f64; 4], w: &[f64; 4]) -> f64 {
    let h: [f64; 4] = doubled(x);
    let a = dot4(&h, w);
    let b = dot4(&h, x);
    let c = dot4(&h, &h);
    a * b + c
}
///The tape of [`three_readers`]: what [`three_readers_adjoint`] reads, recorded by [`three_readers_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct ThreeReadersTape {
    ///the tape of the call to `doubled`
    doubled: <() as DoubledCall<[f64; 4]>>::Tape,
    ///the tape of the call to `dot4`
    dot4_2: <() as Dot4Call<[f64; 4], [f64; 4]>>::Tape,
    ///`a` (line 7)
    a: f64,
    ///the tape of the call to `dot4`
    dot4_1: <() as Dot4Call<[f64; 4], [f64; 4]>>::Tape,
    ///`b` (line 8)
    b: f64,
    ///the tape of the call to `dot4`
    dot4: <() as Dot4Call<[f64; 4], [f64; 4]>>::Tape,
}
impl ThreeReadersTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "doubled",
            "the tape of the call to doubled",
            "DoubledTape",
            ::core::mem::size_of::<<() as DoubledCall<[f64; 4]>>::Tape>(),
        ),
        (
            "dot4_2",
            "the tape of the call to dot4",
            "Dot4Tape",
            ::core::mem::size_of::<<() as Dot4Call<[f64; 4], [f64; 4]>>::Tape>(),
        ),
        ("a", "a (line 7)", "f64", ::core::mem::size_of::<f64>()),
        (
            "dot4_1",
            "the tape of the call to dot4",
            "Dot4Tape",
            ::core::mem::size_of::<<() as Dot4Call<[f64; 4], [f64; 4]>>::Tape>(),
        ),
        ("b", "b (line 8)", "f64", ::core::mem::size_of::<f64>()),
        (
            "dot4",
            "the tape of the call to dot4",
            "Dot4Tape",
            ::core::mem::size_of::<<() as Dot4Call<[f64; 4], [f64; 4]>>::Tape>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            doubled: <<() as DoubledCall<[f64; 4]>>::Tape>::new(),
            dot4_2: <<() as Dot4Call<[f64; 4], [f64; 4]>>::Tape>::new(),
            a: 0.0,
            dot4_1: <<() as Dot4Call<[f64; 4], [f64; 4]>>::Tape>::new(),
            b: 0.0,
            dot4: <<() as Dot4Call<[f64; 4], [f64; 4]>>::Tape>::new(),
        }
    }
}
impl ::core::default::Default for ThreeReadersTape {
    fn default() -> Self {
        Self::new()
    }
}
impl ThreeReadersTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`three_readers`] and records in `tape` what [`three_readers_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn three_readers_forward(
    x: &[f64; 4],
    w: &[f64; 4],
    tape: &mut ThreeReadersTape,
) -> f64 {
    let h: [f64; 4] = doubled_forward(x, &mut tape.doubled);
    let a: f64 = dot4_forward(&h, w, &mut tape.dot4_2);
    tape.a = a;
    let b: f64 = dot4_forward(&h, x, &mut tape.dot4_1);
    tape.b = b;
    let c: f64 = dot4_forward(&h, &h, &mut tape.dot4);
    let t0 = a * b;
    t0 + c
}
/**The reverse sweep of [`three_readers`]: adds `d_out` times the derivative of `three_readers` with respect to `x`, `w` into `d_x`, `d_w`.

`tape` must have been filled by [`three_readers_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn three_readers_adjoint(
    x: &[f64; 4],
    w: &[f64; 4],
    tape: &ThreeReadersTape,
    d_out: f64,
    d_x: &mut [f64; 4],
    d_w: &mut [f64; 4],
) {
    let mut d_h: [f64; 4] = [0.0; 4];
    let mut d_a: f64 = -0.0;
    let mut d_b: f64 = -0.0;
    let mut d_c: f64 = -0.0;
    d_c += d_out;
    d_a += d_out * tape.b;
    d_b += d_out * tape.a;
    let h_again: [f64; 4] = doubled(x);
    let mut d_again: [f64; 4] = [0.0; 4];
    dot4_adjoint_call(&h_again, &h_again, &tape.dot4, d_c, &mut d_h, &mut d_again);
    {
        let d_add = d_again;
        for i0 in 0..4 {
            d_h[i0] += d_add[i0];
        }
    }
    dot4_adjoint_call(&h_again, x, &tape.dot4_1, d_b, &mut d_h, &mut *d_x);
    dot4_adjoint_call(&h_again, w, &tape.dot4_2, d_a, &mut d_h, &mut *d_w);
    doubled_adjoint_call(x, &tape.doubled, &d_h, &mut *d_x);
}
///The value of [`three_readers`] and its gradient with respect to `x`, `w`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn three_readers_grad(x: &[f64; 4], w: &[f64; 4]) -> (f64, ([f64; 4], [f64; 4])) {
    let mut tape = <ThreeReadersTape>::new();
    let value = three_readers_forward(x, w, &mut tape);
    let mut d_x: [f64; 4] = [0.0; 4];
    let mut d_w: [f64; 4] = [0.0; 4];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        let mut d_h: [f64; 4] = [0.0; 4];
        let mut d_a: f64 = -0.0;
        let mut d_b: f64 = -0.0;
        let mut d_c: f64 = -0.0;
        d_c += d_out;
        d_a += d_out * tape.b;
        d_b += d_out * tape.a;
        let h_again: [f64; 4] = doubled(x);
        let mut d_again: [f64; 4] = [0.0; 4];
        dot4_adjoint_call(&h_again, &h_again, &tape.dot4, d_c, &mut d_h, &mut d_again);
        {
            let d_add = d_again;
            for i0 in 0..4 {
                d_h[i0] += d_add[i0];
            }
        }
        dot4_adjoint_call(&h_again, x, &tape.dot4_1, d_b, &mut d_h, &mut *d_x);
        dot4_adjoint_call(&h_again, w, &tape.dot4_2, d_a, &mut d_h, &mut *d_w);
        doubled_adjoint_call(x, &tape.doubled, &d_h, &mut *d_x);
    }
    (value, (d_x, d_w))
}
const _: fn(&[f64; 4], &[f64; 4]) -> f64 = three_readers;
///The call contract of [`three_readers`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `three_readers`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `three_readers`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `three_readers::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait ThreeReadersCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> ThreeReadersCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = ThreeReadersTape;
}
#[doc(hidden)]
trait ThreeReadersSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ThreeReadersSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ThreeReadersSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`three_readers_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`ThreeReadersTape`] through `ThreeReadersCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn three_readers_adjoint_call<'__stackgrad>(
    x: &[f64; 4],
    w: &[f64; 4],
    tape: &ThreeReadersTape,
    d_out: f64,
    __stackgrad_d0: impl ThreeReadersSlot<'__stackgrad, [f64; 4]>,
    __stackgrad_d1: impl ThreeReadersSlot<'__stackgrad, [f64; 4]>,
) {
    let mut __stackgrad_d0_scratch: [f64; 4];
    let __stackgrad_d0: &mut [f64; 4] = match ThreeReadersSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 4];
    let __stackgrad_d1: &mut [f64; 4] = match ThreeReadersSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 4];
            &mut __stackgrad_d1_scratch
        }
    };
    three_readers_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `three_readers`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait ThreeReadersZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl ThreeReadersZero0 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `three_readers`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait ThreeReadersZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl ThreeReadersZero1 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
