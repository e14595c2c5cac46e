/// A row bound by reference (`let row = &m[i];`) and passed on to a callee that takes a
/// reference: the alias is the place `m[i]`, passed as `&m[i]`.
pub fn borrowed_row(m: &[[f64; 2]; 3], v: &[f64; 2]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let row = &m[i];
        s += dot(row, v) * row[0];
    }
    s
}
///The tape of [`borrowed_row`]: what [`borrowed_row_adjoint`] reads, recorded by [`borrowed_row_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct BorrowedRowTape {
    ///the tape of the call to `dot`
    dot: [<() as DotCall<[f64; 2], [f64; 2]>>::Tape; 3],
    ///`t0 = dot_forward(&m[i], v, &mut tape.dot[k0])` (line 8)
    t0: [f64; 3],
}
impl BorrowedRowTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "dot",
            "the tape of the call to dot",
            "[DotTape ; 3]",
            ::core::mem::size_of::<[<() as DotCall<[f64; 2], [f64; 2]>>::Tape; 3]>(),
        ),
        (
            "t0",
            "t0 = dot_forward(&m[i], v, &mut tape.dot[k0]) (line 8)",
            "[f64 ; 3]",
            ::core::mem::size_of::<[f64; 3]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            dot: [const { <<() as DotCall<[f64; 2], [f64; 2]>>::Tape>::new() }; 3],
            t0: [0.0; 3],
        }
    }
}
impl ::core::default::Default for BorrowedRowTape {
    fn default() -> Self {
        Self::new()
    }
}
impl BorrowedRowTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`borrowed_row`] and records in `tape` what [`borrowed_row_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn borrowed_row_forward(
    m: &[[f64; 2]; 3],
    v: &[f64; 2],
    tape: &mut BorrowedRowTape,
) -> f64 {
    let mut s: f64 = 0.0;
    for (k0, i) in (0..3).enumerate() {
        let t0 = dot_forward(&m[i], v, &mut tape.dot[k0]);
        tape.t0[k0] = t0;
        let t1 = t0 * m[i][0];
        s = s + t1;
    }
    s
}
/**The reverse sweep of [`borrowed_row`]: adds `d_out` times the derivative of `borrowed_row` with respect to `m`, `v` into `d_m`, `d_v`.

`tape` must have been filled by [`borrowed_row_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn borrowed_row_adjoint(
    m: &[[f64; 2]; 3],
    v: &[f64; 2],
    tape: &BorrowedRowTape,
    d_out: f64,
    d_m: &mut [[f64; 2]; 3],
    d_v: &mut [f64; 2],
) {
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k0, i) in (0..3).enumerate().rev() {
        let d_t1: f64 = d_s;
        let d_t0: f64 = d_t1 * m[i][0];
        d_m[i][0] += d_t1 * tape.t0[k0];
        dot_adjoint_call(&m[i], v, &tape.dot[k0], d_t0, &mut d_m[i], &mut *d_v);
    }
}
///The value of [`borrowed_row`] and its gradient with respect to `m`, `v`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn borrowed_row_grad(
    m: &[[f64; 2]; 3],
    v: &[f64; 2],
) -> (f64, ([[f64; 2]; 3], [f64; 2])) {
    let mut tape = <BorrowedRowTape>::new();
    let value = borrowed_row_forward(m, v, &mut tape);
    let mut d_m: [[f64; 2]; 3] = [[0.0; 2]; 3];
    let mut d_v: [f64; 2] = [0.0; 2];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_m = &mut d_m;
        let d_v = &mut d_v;
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k0, i) in (0..3).enumerate().rev() {
            let d_t1: f64 = d_s;
            let d_t0: f64 = d_t1 * m[i][0];
            d_m[i][0] = d_t1 * tape.t0[k0];
            dot_adjoint_call(&m[i], v, &tape.dot[k0], d_t0, &mut d_m[i], &mut *d_v);
        }
    }
    (value, (d_m, d_v))
}
const _: fn(&[[f64; 2]; 3], &[f64; 2]) -> f64 = borrowed_row;
///The call contract of [`borrowed_row`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `borrowed_row`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `borrowed_row`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `borrowed_row::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait BorrowedRowCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> BorrowedRowCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = BorrowedRowTape;
}
#[doc(hidden)]
pub trait BorrowedRowSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> BorrowedRowSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> BorrowedRowSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`borrowed_row_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`BorrowedRowTape`] through `BorrowedRowCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn borrowed_row_adjoint_call<'__stackgrad>(
    m: &[[f64; 2]; 3],
    v: &[f64; 2],
    tape: &BorrowedRowTape,
    d_out: f64,
    __stackgrad_d0: impl BorrowedRowSlot<'__stackgrad, [[f64; 2]; 3]>,
    __stackgrad_d1: impl BorrowedRowSlot<'__stackgrad, [f64; 2]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; 2]; 3];
    let __stackgrad_d0: &mut [[f64; 2]; 3] = match BorrowedRowSlot::slot(
        __stackgrad_d0,
    ) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; 2]; 3];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 2];
    let __stackgrad_d1: &mut [f64; 2] = match BorrowedRowSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 2];
            &mut __stackgrad_d1_scratch
        }
    };
    borrowed_row_adjoint(m, v, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `borrowed_row`'s parameter `m`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait BorrowedRowZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl BorrowedRowZero0 for [[f64; 2]; 3] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 2]; 3]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `borrowed_row`'s parameter `v`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait BorrowedRowZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl BorrowedRowZero1 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
