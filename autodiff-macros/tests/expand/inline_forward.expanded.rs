#[inline(always)]
fn rotate(r: &[f64; 4], v: &[f64; 2]) -> [f64; 2] {
    [r[0] * v[0] + r[1] * v[1], r[2] * v[0] + r[3] * v[1]]
}
///The tape of [`rotate`]: what [`rotate_adjoint`] reads, recorded by [`rotate_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct RotateTape {}
impl RotateTape {
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
impl ::core::default::Default for RotateTape {
    fn default() -> Self {
        Self::new()
    }
}
impl RotateTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`rotate`] and records in `tape` what [`rotate_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn rotate_forward(r: &[f64; 4], v: &[f64; 2], tape: &mut RotateTape) -> [f64; 2] {
    let t0 = r[0] * v[0];
    let t1 = r[1] * v[1];
    let t2 = t0 + t1;
    let t3 = r[2] * v[0];
    let t4 = r[3] * v[1];
    let t5 = t3 + t4;
    [t2, t5]
}
///[`rotate_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn rotate_forward_into(
    r: &[f64; 4],
    v: &[f64; 2],
    tape: &mut RotateTape,
    out: &mut [f64; 2],
) {
    let t0 = r[0] * v[0];
    let t1 = r[1] * v[1];
    let t2 = t0 + t1;
    let t3 = r[2] * v[0];
    let t4 = r[3] * v[1];
    let t5 = t3 + t4;
    *out = [t2, t5];
}
/**The reverse sweep of [`rotate`]: adds `d_out` times the derivative of `rotate` with respect to `r`, `v` into `d_r`, `d_v`.

`tape` must have been filled by [`rotate_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn rotate_adjoint(
    r: &[f64; 4],
    v: &[f64; 2],
    tape: &RotateTape,
    d_out: &[f64; 2],
    d_r: &mut [f64; 4],
    d_v: &mut [f64; 2],
) {
    let d_t2: f64 = (*d_out)[0];
    let d_t5: f64 = (*d_out)[1];
    d_r[3] += d_t5 * v[1];
    d_v[1] += d_t5 * r[3];
    d_r[2] += d_t5 * v[0];
    d_v[0] += d_t5 * r[2];
    d_r[1] += d_t2 * v[1];
    d_v[1] += d_t2 * r[1];
    d_r[0] += d_t2 * v[0];
    d_v[0] += d_t2 * r[0];
}
///The value of [`rotate`] and its directional derivative: the derivative with respect to `r`, `v` along the tangents `t_r`, `t_v` (forward mode, one sweep, no tape).
#[inline(always)]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn rotate_jvp(
    r: &[f64; 4],
    v: &[f64; 2],
    t_r: &[f64; 4],
    t_v: &[f64; 2],
) -> ([f64; 2], [f64; 2]) {
    let t0 = r[0] * v[0];
    let t_t0: f64 = t_r[0] * v[0] + r[0] * t_v[0];
    let t1 = r[1] * v[1];
    let t_t1: f64 = t_r[1] * v[1] + r[1] * t_v[1];
    let t2 = t0 + t1;
    let t_t2: f64 = t_t0 + t_t1;
    let t3 = r[2] * v[0];
    let t_t3: f64 = t_r[2] * v[0] + r[2] * t_v[0];
    let t4 = r[3] * v[1];
    let t_t4: f64 = t_r[3] * v[1] + r[3] * t_v[1];
    let t5 = t3 + t4;
    let t_t5: f64 = t_t3 + t_t4;
    let t6 = [t2, t5];
    let t_t6: [f64; 2] = [t_t2, t_t5];
    (t6, t_t6)
}
///[`rotate_jvp`] along `W` directions at once (vector forward mode): the value of [`rotate`] and its derivatives with respect to `r`, `v` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline(always)]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn rotate_jvp_vec<const __W: usize>(
    r: &[f64; 4],
    v: &[f64; 2],
    t_r: &[[f64; __W]; 4],
    t_v: &[[f64; __W]; 2],
) -> ([f64; 2], [[f64; __W]; 2]) {
    let t0 = r[0] * v[0];
    let t_t0: [f64; __W] = ::core::array::from_fn(|__l| {
        t_r[0][__l] * v[0] + r[0] * t_v[0][__l]
    });
    let t1 = r[1] * v[1];
    let t_t1: [f64; __W] = ::core::array::from_fn(|__l| {
        t_r[1][__l] * v[1] + r[1] * t_v[1][__l]
    });
    let t2 = t0 + t1;
    let t_t2: [f64; __W] = ::core::array::from_fn(|__l| t_t0[__l] + t_t1[__l]);
    let t3 = r[2] * v[0];
    let t_t3: [f64; __W] = ::core::array::from_fn(|__l| {
        t_r[2][__l] * v[0] + r[2] * t_v[0][__l]
    });
    let t4 = r[3] * v[1];
    let t_t4: [f64; __W] = ::core::array::from_fn(|__l| {
        t_r[3][__l] * v[1] + r[3] * t_v[1][__l]
    });
    let t5 = t3 + t4;
    let t_t5: [f64; __W] = ::core::array::from_fn(|__l| t_t3[__l] + t_t4[__l]);
    let t6 = [t2, t5];
    let t_t6: [[f64; __W]; 2] = [t_t2, t_t5];
    (t6, t_t6)
}
const _: fn(&[f64; 4], &[f64; 2]) -> [f64; 2] = rotate;
///The call contract of [`rotate`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `rotate`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `rotate`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `rotate::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait RotateCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> RotateCall<__A0, __A1>
for () {
    type Out = [f64; 2];
    type Tape = RotateTape;
}
#[doc(hidden)]
trait RotateSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> RotateSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> RotateSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`rotate_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`RotateTape`] through `RotateCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn rotate_adjoint_call<'__stackgrad>(
    r: &[f64; 4],
    v: &[f64; 2],
    tape: &RotateTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl RotateSlot<'__stackgrad, [f64; 4]>,
    __stackgrad_d1: impl RotateSlot<'__stackgrad, [f64; 2]>,
) {
    let mut __stackgrad_d0_scratch: [f64; 4];
    let __stackgrad_d0: &mut [f64; 4] = match RotateSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 2];
    let __stackgrad_d1: &mut [f64; 2] = match RotateSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 2];
            &mut __stackgrad_d1_scratch
        }
    };
    rotate_adjoint(r, v, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait RotateTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RotateTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RotateTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RotateTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`rotate_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline(always)]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn rotate_jvp_call<'__stackgrad>(
    r: &[f64; 4],
    v: &[f64; 2],
    __stackgrad_t0: impl RotateTangent<'__stackgrad, [f64; 4]>,
    __stackgrad_t1: impl RotateTangent<'__stackgrad, [f64; 2]>,
) -> ([f64; 2], [f64; 2]) {
    let __stackgrad_t0_zero: [f64; 4];
    let __stackgrad_t0: &[f64; 4] = match RotateTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 4];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: [f64; 2];
    let __stackgrad_t1: &[f64; 2] = match RotateTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = [0.0; 2];
            &__stackgrad_t1_zero
        }
    };
    rotate_jvp(r, v, __stackgrad_t0, __stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `rotate`'s parameter `r`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait RotateZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl RotateZero0 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `rotate`'s parameter `v`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait RotateZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl RotateZero1 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
