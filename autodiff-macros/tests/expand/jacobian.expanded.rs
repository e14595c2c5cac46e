fn observe(p: &[f64; 3], l: &[f64; 2]) -> [f64; 2] {
    let (dx, dy) = (l[0] - p[0], l[1] - p[1]);
    [(dx * dx + dy * dy).sqrt(), dy.atan2(dx) - p[2]]
}
///The tape of [`observe`]: what [`observe_adjoint`] reads, recorded by [`observe_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct ObserveTape {
    ///`t5 = t4.sqrt()` (line 4)
    t5: f64,
}
impl ObserveTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t5", "t5 = t4.sqrt() (line 4)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { t5: 0.0 }
    }
}
impl ::core::default::Default for ObserveTape {
    fn default() -> Self {
        Self::new()
    }
}
impl ObserveTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`observe`] and records in `tape` what [`observe_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_forward(p: &[f64; 3], l: &[f64; 2], tape: &mut ObserveTape) -> [f64; 2] {
    let t0 = l[0] - p[0];
    let t1 = l[1] - p[1];
    let dx: f64 = t0;
    let dy: f64 = t1;
    let t2 = dx * dx;
    let t3 = dy * dy;
    let t4 = t2 + t3;
    let t5 = t4.sqrt();
    tape.t5 = t5;
    let t6 = dy.atan2(dx);
    let t7 = t6 - p[2];
    [t5, t7]
}
///[`observe_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_forward_into(
    p: &[f64; 3],
    l: &[f64; 2],
    tape: &mut ObserveTape,
    out: &mut [f64; 2],
) {
    let t0 = l[0] - p[0];
    let t1 = l[1] - p[1];
    let dx: f64 = t0;
    let dy: f64 = t1;
    let t2 = dx * dx;
    let t3 = dy * dy;
    let t4 = t2 + t3;
    let t5 = t4.sqrt();
    tape.t5 = t5;
    let t6 = dy.atan2(dx);
    let t7 = t6 - p[2];
    *out = [t5, t7];
}
/**The reverse sweep of [`observe`]: adds `d_out` times the derivative of `observe` with respect to `p` into `d_p`.

`tape` must have been filled by [`observe_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_adjoint(
    p: &[f64; 3],
    l: &[f64; 2],
    tape: &ObserveTape,
    d_out: &[f64; 2],
    d_p: &mut [f64; 3],
) {
    let mut d_dx: f64 = -0.0;
    let mut d_dy: f64 = -0.0;
    let d_t5: f64 = (*d_out)[0];
    let d_t7: f64 = (*d_out)[1];
    d_p[2] += -d_t7;
    d_dy
        += if (l[0] - p[0]) * (l[0] - p[0]) + (l[1] - p[1]) * (l[1] - p[1]) > 0.0 {
            d_t7 * (l[0] - p[0])
                / ((l[0] - p[0]) * (l[0] - p[0]) + (l[1] - p[1]) * (l[1] - p[1]))
        } else {
            0.0
        };
    d_dx
        += if (l[0] - p[0]) * (l[0] - p[0]) + (l[1] - p[1]) * (l[1] - p[1]) > 0.0 {
            -(d_t7 * (l[1] - p[1])
                / ((l[0] - p[0]) * (l[0] - p[0]) + (l[1] - p[1]) * (l[1] - p[1])))
        } else {
            0.0
        };
    let d_t4: f64 = d_t5 * 0.5 / tape.t5;
    d_dx += d_t4 * 2.0 * (l[0] - p[0]);
    d_dy += d_t4 * 2.0 * (l[1] - p[1]);
    d_p[1] += -d_dy;
    d_p[0] += -d_dx;
}
///The value of [`observe`] and its directional derivative: the derivative with respect to `p` along the tangents `t_p` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_jvp(p: &[f64; 3], l: &[f64; 2], t_p: &[f64; 3]) -> ([f64; 2], [f64; 2]) {
    let t0 = l[0] - p[0];
    let t_t0: f64 = -t_p[0];
    let t1 = l[1] - p[1];
    let t_t1: f64 = -t_p[1];
    let dx: f64 = t0;
    let t_dx: f64 = t_t0;
    let dy: f64 = t1;
    let t_dy: f64 = t_t1;
    let t2 = dx * dx;
    let t_t2: f64 = 2.0 * dx * t_dx;
    let t3 = dy * dy;
    let t_t3: f64 = 2.0 * dy * t_dy;
    let t4 = t2 + t3;
    let t_t4: f64 = t_t2 + t_t3;
    let t5 = t4.sqrt();
    let t_t5: f64 = t_t4 * 0.5 / t5;
    let t6 = dy.atan2(dx);
    let t_t6: f64 = (if dx * dx + dy * dy > 0.0 {
        t_dy * dx / (dx * dx + dy * dy)
    } else {
        0.0
    })
        + (if dx * dx + dy * dy > 0.0 {
            -(t_dx * dy / (dx * dx + dy * dy))
        } else {
            0.0
        });
    let t7 = t6 - p[2];
    let t_t7: f64 = t_t6 - t_p[2];
    let t8 = [t5, t7];
    let t_t8: [f64; 2] = [t_t5, t_t7];
    (t8, t_t8)
}
///[`observe_jvp`] along `W` directions at once (vector forward mode): the value of [`observe`] and its derivatives with respect to `p` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_jvp_vec<const __W: usize>(
    p: &[f64; 3],
    l: &[f64; 2],
    t_p: &[[f64; __W]; 3],
) -> ([f64; 2], [[f64; __W]; 2]) {
    let t0 = l[0] - p[0];
    let t_t0: [f64; __W] = ::core::array::from_fn(|__l| -t_p[0][__l]);
    let t1 = l[1] - p[1];
    let t_t1: [f64; __W] = ::core::array::from_fn(|__l| -t_p[1][__l]);
    let dx: f64 = t0;
    let t_dx: [f64; __W] = ::core::array::from_fn(|__l| t_t0[__l]);
    let dy: f64 = t1;
    let t_dy: [f64; __W] = ::core::array::from_fn(|__l| t_t1[__l]);
    let t2 = dx * dx;
    let t_t2: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * dx * t_dx[__l]);
    let t3 = dy * dy;
    let t_t3: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * dy * t_dy[__l]);
    let t4 = t2 + t3;
    let t_t4: [f64; __W] = ::core::array::from_fn(|__l| t_t2[__l] + t_t3[__l]);
    let t5 = t4.sqrt();
    let t_t5: [f64; __W] = ::core::array::from_fn(|__l| t_t4[__l] * 0.5 / t5);
    let t6 = dy.atan2(dx);
    let t_t6: [f64; __W] = ::core::array::from_fn(|__l| {
        (if dx * dx + dy * dy > 0.0 {
            t_dy[__l] * dx / (dx * dx + dy * dy)
        } else {
            0.0
        })
            + (if dx * dx + dy * dy > 0.0 {
                -(t_dx[__l] * dy / (dx * dx + dy * dy))
            } else {
                0.0
            })
    });
    let t7 = t6 - p[2];
    let t_t7: [f64; __W] = ::core::array::from_fn(|__l| t_t6[__l] - t_p[2][__l]);
    let t8 = [t5, t7];
    let t_t8: [[f64; __W]; 2] = [t_t5, t_t7];
    (t8, t_t8)
}
const _: fn(&[f64; 3], &[f64; 2]) -> [f64; 2] = observe;
///The call contract of [`observe`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `observe`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `observe`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `observe::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait ObserveCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> ObserveCall<__A0, __A1>
for () {
    type Out = [f64; 2];
    type Tape = ObserveTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`observe` does not differentiate its parameter `l`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `l` in `observe` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
trait ObserveNoDerivativeL {}
impl ObserveNoDerivativeL for () {}
#[doc(hidden)]
trait ObserveSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> ObserveSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> ObserveSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`observe_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`ObserveTape`] through `ObserveCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn observe_adjoint_call<'__stackgrad>(
    p: &[f64; 3],
    l: &[f64; 2],
    tape: &ObserveTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl ObserveSlot<'__stackgrad, [f64; 3]>,
    __stackgrad_d1: impl ObserveNoDerivativeL,
) {
    let mut __stackgrad_d0_scratch: [f64; 3];
    let __stackgrad_d0: &mut [f64; 3] = match ObserveSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 3];
            &mut __stackgrad_d0_scratch
        }
    };
    observe_adjoint(p, l, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
trait ObserveTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ObserveTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ObserveTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ObserveTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`observe_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn observe_jvp_call<'__stackgrad>(
    p: &[f64; 3],
    l: &[f64; 2],
    __stackgrad_t0: impl ObserveTangent<'__stackgrad, [f64; 3]>,
    __stackgrad_t1: impl ::core::marker::Sized,
) -> ([f64; 2], [f64; 2]) {
    let __stackgrad_t0_zero: [f64; 3];
    let __stackgrad_t0: &[f64; 3] = match ObserveTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 3];
            &__stackgrad_t0_zero
        }
    };
    observe_jvp(p, l, __stackgrad_t0)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `observe`'s parameter `p`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait ObserveZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl ObserveZero0 for [f64; 3] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 3]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `observe`'s parameter `l`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait ObserveZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl ObserveZero1 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The value of [`observe`] and its Jacobian, row by row: one forward sweep, then one reverse sweep per output (generated by `#[differentiable(jacobian)]`; row `i` of the Jacobian with respect to a parameter has the parameter's shape).
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_jacobian_rev(p: &[f64; 3], l: &[f64; 2]) -> ([f64; 2], [[f64; 3]; 2]) {
    let mut tape = <ObserveTape>::new();
    let value = observe_forward(p, l, &mut tape);
    let mut j0: [[f64; 3]; 2] = [[0.0; 3]; 2];
    let mut e = [0.0; 2];
    for i in 0..2 {
        e[i] = 1.0;
        observe_adjoint(p, l, &tape, &e, &mut j0[i]);
        e[i] = 0.0;
    }
    (value, j0)
}
///The value of [`observe`] and its Jacobian, column by column: one `observe_jvp` per coordinate of the differentiated parameters (generated by `#[differentiable(jacobian)]`).
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_jacobian_fwd(p: &[f64; 3], l: &[f64; 2]) -> ([f64; 2], [[f64; 3]; 2]) {
    let value = observe(p, l);
    let mut j0: [[f64; 3]; 2] = [[0.0; 3]; 2];
    let mut t0 = [0.0; 3];
    for c0 in 0..3 {
        t0[c0] = 1.0;
        let (_, d) = observe_jvp(p, l, &t0);
        for i in 0..2 {
            j0[i][c0] = d[i];
        }
        t0[c0] = 0.0;
    }
    (value, j0)
}
///The value of [`observe`] and its Jacobian with respect to `p`, by whichever of [`observe_jacobian_rev`] (a reverse sweep per output) and [`observe_jacobian_fwd`] (a tangent per input coordinate) runs fewer sweeps for the shapes (generated by `#[differentiable(jacobian)]`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn observe_jacobian(p: &[f64; 3], l: &[f64; 2]) -> ([f64; 2], [[f64; 3]; 2]) {
    if 2 <= (0 + (3 * 1)) {
        observe_jacobian_rev(p, l)
    } else {
        observe_jacobian_fwd(p, l)
    }
}
