/// A triangular product by columns with two inputs per column (`x[a]`, `y[a]`): in the reverse
/// of the inner loop, their cotangents are the same two elements at every iteration, so the
/// sweep adds into locals (`d_x_held`, `d_y_held`) read before the loop and stored after it.
pub fn columns<const D: usize>(l: &[[f64; D]; D], x: &[f64; D], y: &[f64; D]) -> f64 {
    let mut q = [0.0; D];
    for a in 0..D {
        for b in a + 1..D {
            q[b] += l[a][b] * x[a] + l[b][a] * y[a];
        }
    }
    let mut s = 0.0;
    for d in 0..D {
        s += q[d] * q[d];
    }
    s
}
///The tape of [`columns`]: what [`columns_adjoint`] reads, recorded by [`columns_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct ColumnsTape<const D: usize> {
    ///`q` (line 6) after its last write
    q: [f64; D],
    ///The const parameters (zero-sized).
    const_params: ([(); D],),
}
impl<const D: usize> ColumnsTape<D> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "q",
            "q (line 6) after its last write",
            "[f64 ; D]",
            ::core::mem::size_of::<[f64; D]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            q: [0.0; D],
            const_params: ([(); D],),
        }
    }
}
impl<const D: usize> ::core::default::Default for ColumnsTape<D> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const D: usize> ColumnsTape<D> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`columns`] and records in `tape` what [`columns_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn columns_forward<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    y: &[f64; D],
    tape: &mut ColumnsTape<D>,
) -> f64 {
    let _ = columns::<D>;
    let mut q: [f64; D] = [0.0; D];
    for a in (0..D) {
        for b in (a + 1..D) {
            let t0 = l[a][b] * x[a];
            let t1 = l[b][a] * y[a];
            let t2 = t0 + t1;
            q[b] = q[b] + t2;
        }
    }
    tape.q = q;
    let mut s: f64 = 0.0;
    for d in (0..D) {
        let t3 = q[d] * q[d];
        s = s + t3;
    }
    s
}
/**The reverse sweep of [`columns`]: adds `d_out` times the derivative of `columns` with respect to `l`, `x`, `y` into `d_l`, `d_x`, `d_y`.

`tape` must have been filled by [`columns_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn columns_adjoint<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    y: &[f64; D],
    tape: &ColumnsTape<D>,
    d_out: f64,
    d_l: &mut [[f64; D]; D],
    d_x: &mut [f64; D],
    d_y: &mut [f64; D],
) {
    let mut d_q: [f64; D] = [0.0; D];
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k2, d) in (0..D).enumerate().rev() {
        d_q[d] += d_s * 2.0 * tape.q[d];
    }
    for (k0, a) in (0..D).enumerate().rev() {
        let runs: bool = (a + 1..D).next().is_some();
        let mut d_x_held: f64 = if runs { d_x[a] } else { 0.0 };
        let mut d_y_held: f64 = if runs { d_y[a] } else { 0.0 };
        for (k1, b) in (a + 1..D).enumerate().rev() {
            let d_t0: f64 = d_q[b];
            let d_t1: f64 = d_q[b];
            d_l[b][a] += d_t1 * y[a];
            d_y_held += d_t1 * l[b][a];
            d_l[a][b] += d_t0 * x[a];
            d_x_held += d_t0 * l[a][b];
        }
        if runs {
            d_x[a] = d_x_held;
        }
        if runs {
            d_y[a] = d_y_held;
        }
    }
}
///The value of [`columns`] and its gradient with respect to `l`, `x`, `y`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn columns_grad<const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    y: &[f64; D],
) -> (f64, ([[f64; D]; D], [f64; D], [f64; D])) {
    let mut tape = <ColumnsTape<D>>::new();
    let value = columns_forward(l, x, y, &mut tape);
    let mut d_l: [[f64; D]; D] = [[0.0; D]; D];
    let mut d_x: [f64; D] = [0.0; D];
    let mut d_y: [f64; D] = [0.0; D];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_l = &mut d_l;
        let d_x = &mut d_x;
        let d_y = &mut d_y;
        let mut d_q: [f64; D] = [0.0; D];
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k2, d) in (0..D).enumerate().rev() {
            d_q[d] += d_s * 2.0 * tape.q[d];
        }
        for (k0, a) in (0..D).enumerate().rev() {
            let runs: bool = (a + 1..D).next().is_some();
            let mut d_x_held: f64 = if runs { d_x[a] } else { 0.0 };
            let mut d_y_held: f64 = if runs { d_y[a] } else { 0.0 };
            for (k1, b) in (a + 1..D).enumerate().rev() {
                let d_t0: f64 = d_q[b];
                let d_t1: f64 = d_q[b];
                d_l[b][a] += d_t1 * y[a];
                d_y_held += d_t1 * l[b][a];
                d_l[a][b] += d_t0 * x[a];
                d_x_held += d_t0 * l[a][b];
            }
            if runs {
                d_x[a] = d_x_held;
            }
            if runs {
                d_y[a] = d_y_held;
            }
        }
    }
    (value, (d_l, d_x, d_y))
}
///The call contract of [`columns`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `columns`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `columns`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `columns::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait ColumnsCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<const D: usize> ColumnsCall<[[f64; D]; D], [f64; D], [f64; D]> for () {
    type Out = f64;
    type Tape = ColumnsTape<D>;
}
#[doc(hidden)]
pub trait ColumnsSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> ColumnsSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> ColumnsSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`columns_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`ColumnsTape`] through `ColumnsCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn columns_adjoint_call<'__stackgrad, const D: usize>(
    l: &[[f64; D]; D],
    x: &[f64; D],
    y: &[f64; D],
    tape: &ColumnsTape<D>,
    d_out: f64,
    __stackgrad_d0: impl ColumnsSlot<'__stackgrad, [[f64; D]; D]>,
    __stackgrad_d1: impl ColumnsSlot<'__stackgrad, [f64; D]>,
    __stackgrad_d2: impl ColumnsSlot<'__stackgrad, [f64; D]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; D]; D];
    let __stackgrad_d0: &mut [[f64; D]; D] = match ColumnsSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; D]; D];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; D];
    let __stackgrad_d1: &mut [f64; D] = match ColumnsSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; D];
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: [f64; D];
    let __stackgrad_d2: &mut [f64; D] = match ColumnsSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = [0.0; D];
            &mut __stackgrad_d2_scratch
        }
    };
    columns_adjoint::<
        D,
    >(l, x, y, tape, d_out, __stackgrad_d0, __stackgrad_d1, __stackgrad_d2);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `columns`'s parameter `l`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait ColumnsZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> ColumnsZero0 for [[f64; D]; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; D]; D]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `columns`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait ColumnsZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> ColumnsZero1 for [f64; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; D]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `columns`'s parameter `y`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait ColumnsZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> ColumnsZero2 for [f64; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; D]
    }
}
