/// Second differences by windows, points of two coordinates by chunks, and a window iterated
/// against a kernel (a convolution).
pub fn grouped_differences(x: &[f64; 6], k: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for d in x.windows(3) {
        let c = d[0] - 2.0 * d[1] + d[d.len() - 1];
        s += c * c;
    }
    for p in x.chunks_exact(2) {
        s += p[0] * p[1];
    }
    for d in x.windows(3) {
        for (a, b) in d.iter().zip(k.iter()) {
            s += a * b;
        }
    }
    s
}
///The tape of [`grouped_differences`]: what [`grouped_differences_adjoint`] reads, recorded by [`grouped_differences_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct GroupedDifferencesTape {}
impl GroupedDifferencesTape {
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
impl ::core::default::Default for GroupedDifferencesTape {
    fn default() -> Self {
        Self::new()
    }
}
impl GroupedDifferencesTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`grouped_differences`] and records in `tape` what [`grouped_differences_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn grouped_differences_forward(
    x: &[f64; 6],
    k: &[f64; 3],
    tape: &mut GroupedDifferencesTape,
) -> f64 {
    let mut s: f64 = 0.0;
    for i in (0..4) {
        let t0 = 2.0 * x[i + 1];
        let t1 = x[i + 0] - t0;
        let c: f64 = t1 + x[i + (3 - 1)];
        let t2 = c * c;
        s = s + t2;
    }
    for i_1 in (0..3) {
        let t3 = x[(i_1 * 2) + 0] * x[(i_1 * 2) + 1];
        s = s + t3;
    }
    for i_2 in (0..4) {
        for i_3 in (0..3) {
            let t4 = x[i_2 + i_3] * k[i_3];
            s = s + t4;
        }
    }
    s
}
/**The reverse sweep of [`grouped_differences`]: adds `d_out` times the derivative of `grouped_differences` with respect to `x`, `k` into `d_x`, `d_k`.

`tape` must have been filled by [`grouped_differences_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn grouped_differences_adjoint(
    x: &[f64; 6],
    k: &[f64; 3],
    tape: &GroupedDifferencesTape,
    d_out: f64,
    d_x: &mut [f64; 6],
    d_k: &mut [f64; 3],
) {
    let mut d_s: f64 = -0.0;
    let mut d_c: f64 = -0.0;
    d_s += d_out;
    for (k2, i_2) in (0..4).enumerate().rev() {
        for (k3, i_3) in (0..3).enumerate().rev() {
            let d_t4: f64 = d_s;
            d_x[i_2 + i_3] += d_t4 * k[i_3];
            d_k[i_3] += d_t4 * x[i_2 + i_3];
        }
    }
    for (k1, i_1) in (0..3).enumerate().rev() {
        let d_t3: f64 = d_s;
        d_x[(i_1 * 2) + 0] += d_t3 * x[(i_1 * 2) + 1];
        d_x[(i_1 * 2) + 1] += d_t3 * x[(i_1 * 2) + 0];
    }
    for (k0, i) in (0..4).enumerate().rev() {
        d_c += d_s * 2.0 * ((x[i + 0] - (2.0_f64 * x[i + 1])) + x[i + (3 - 1)]);
        let d_c_1: f64 = d_c;
        d_c = -0.0;
        d_x[i + (3 - 1)] += d_c_1;
        d_x[i + 0] += d_c_1;
        let d_t0: f64 = -d_c_1;
        d_x[i + 1] += d_t0 * 2.0_f64;
    }
}
///The value of [`grouped_differences`] and its gradient with respect to `x`, `k`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn grouped_differences_grad(
    x: &[f64; 6],
    k: &[f64; 3],
) -> (f64, ([f64; 6], [f64; 3])) {
    let mut tape = <GroupedDifferencesTape>::new();
    let value = grouped_differences_forward(x, k, &mut tape);
    let mut d_x: [f64; 6] = [0.0; 6];
    let mut d_k: [f64; 3] = [0.0; 3];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_k = &mut d_k;
        let mut d_s: f64 = -0.0;
        let mut d_c: f64 = -0.0;
        d_s += d_out;
        for (k2, i_2) in (0..4).enumerate().rev() {
            for (k3, i_3) in (0..3).enumerate().rev() {
                let d_t4: f64 = d_s;
                d_x[i_2 + i_3] += d_t4 * k[i_3];
                d_k[i_3] += d_t4 * x[i_2 + i_3];
            }
        }
        for (k1, i_1) in (0..3).enumerate().rev() {
            let d_t3: f64 = d_s;
            d_x[(i_1 * 2) + 0] += d_t3 * x[(i_1 * 2) + 1];
            d_x[(i_1 * 2) + 1] += d_t3 * x[(i_1 * 2) + 0];
        }
        for (k0, i) in (0..4).enumerate().rev() {
            d_c += d_s * 2.0 * ((x[i + 0] - (2.0_f64 * x[i + 1])) + x[i + (3 - 1)]);
            let d_c_1: f64 = d_c;
            d_c = -0.0;
            d_x[i + (3 - 1)] += d_c_1;
            d_x[i + 0] += d_c_1;
            let d_t0: f64 = -d_c_1;
            d_x[i + 1] += d_t0 * 2.0_f64;
        }
    }
    (value, (d_x, d_k))
}
const _: fn(&[f64; 6], &[f64; 3]) -> f64 = grouped_differences;
///The call contract of [`grouped_differences`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `grouped_differences`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `grouped_differences`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `grouped_differences::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait GroupedDifferencesCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> GroupedDifferencesCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = GroupedDifferencesTape;
}
#[doc(hidden)]
pub trait GroupedDifferencesSlot<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> GroupedDifferencesSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> GroupedDifferencesSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`grouped_differences_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`GroupedDifferencesTape`] through `GroupedDifferencesCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn grouped_differences_adjoint_call<'__stackgrad>(
    x: &[f64; 6],
    k: &[f64; 3],
    tape: &GroupedDifferencesTape,
    d_out: f64,
    __stackgrad_d0: impl GroupedDifferencesSlot<'__stackgrad, [f64; 6]>,
    __stackgrad_d1: impl GroupedDifferencesSlot<'__stackgrad, [f64; 3]>,
) {
    let mut __stackgrad_d0_scratch: [f64; 6];
    let __stackgrad_d0: &mut [f64; 6] = match GroupedDifferencesSlot::slot(
        __stackgrad_d0,
    ) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 6];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 3];
    let __stackgrad_d1: &mut [f64; 3] = match GroupedDifferencesSlot::slot(
        __stackgrad_d1,
    ) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 3];
            &mut __stackgrad_d1_scratch
        }
    };
    grouped_differences_adjoint(x, k, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `grouped_differences`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait GroupedDifferencesZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl GroupedDifferencesZero0 for [f64; 6] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 6]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `grouped_differences`'s parameter `k`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait GroupedDifferencesZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl GroupedDifferencesZero1 for [f64; 3] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 3]
    }
}
