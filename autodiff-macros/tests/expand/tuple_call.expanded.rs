fn spread(r: f64, t: f64) -> f64 {
    let (a, b) = polar(r, t);
    let w = [a, b];
    let (_, v): (f64, [f64; 2]) = stats(&w);
    a * v[0] + b * v[1]
}
///The tape of [`spread`]: what [`spread_adjoint`] reads, recorded by [`spread_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct SpreadTape {
    ///the tape of the call to `polar`
    polar: <() as PolarCall<(), ()>>::Tape,
    ///`a` (line 3)
    a: f64,
    ///`b` (line 3)
    b: f64,
    ///`w` (line 4)
    w: [f64; 2],
    ///the tape of the call to `stats`
    stats: <() as StatsCall<[f64; 2]>>::Tape,
    ///`v` (line 5)
    v: [f64; 2],
}
impl SpreadTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "polar",
            "the tape of the call to polar",
            "PolarTape",
            ::core::mem::size_of::<<() as PolarCall<(), ()>>::Tape>(),
        ),
        ("a", "a (line 3)", "f64", ::core::mem::size_of::<f64>()),
        ("b", "b (line 3)", "f64", ::core::mem::size_of::<f64>()),
        ("w", "w (line 4)", "[f64 ; 2]", ::core::mem::size_of::<[f64; 2]>()),
        (
            "stats",
            "the tape of the call to stats",
            "StatsTape",
            ::core::mem::size_of::<<() as StatsCall<[f64; 2]>>::Tape>(),
        ),
        ("v", "v (line 5)", "[f64 ; 2]", ::core::mem::size_of::<[f64; 2]>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            polar: <<() as PolarCall<(), ()>>::Tape>::new(),
            a: 0.0,
            b: 0.0,
            w: [0.0; 2],
            stats: <<() as StatsCall<[f64; 2]>>::Tape>::new(),
            v: [0.0; 2],
        }
    }
}
impl ::core::default::Default for SpreadTape {
    fn default() -> Self {
        Self::new()
    }
}
impl SpreadTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`spread`] and records in `tape` what [`spread_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn spread_forward(r: f64, t: f64, tape: &mut SpreadTape) -> f64 {
    let t0 = polar_forward(r, t, &mut tape.polar);
    let t1 = t0.0;
    let t2 = t0.1;
    let a: f64 = t1;
    tape.a = a;
    let b: f64 = t2;
    tape.b = b;
    tape.w = [a, b];
    let w: &[f64; 2] = &tape.w;
    let t3 = stats_forward(&(*w), &mut tape.stats);
    tape.v = t3.1;
    let v: &[f64; 2] = &tape.v;
    let t4 = a * (*v)[0];
    let t5 = b * (*v)[1];
    t4 + t5
}
/**The reverse sweep of [`spread`]: adds `d_out` times the derivative of `spread` with respect to `r`, `t` into `d_r`, `d_t`.

`tape` must have been filled by [`spread_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn spread_adjoint(
    r: f64,
    t: f64,
    tape: &SpreadTape,
    d_out: f64,
    d_r: &mut f64,
    d_t: &mut f64,
) {
    let mut d_a: f64 = -0.0;
    let mut d_b: f64 = -0.0;
    let mut d_w: [f64; 2] = [0.0; 2];
    let mut d_v: [f64; 2] = [0.0; 2];
    d_b += d_out * tape.v[1];
    d_v[1] += d_out * tape.b;
    d_a += d_out * tape.v[0];
    d_v[0] += d_out * tape.a;
    stats_adjoint_call(&tape.w, &tape.stats, (0.0, d_v), &mut d_w);
    d_a += d_w[0];
    d_b += d_w[1];
    polar_adjoint_call(r, t, &tape.polar, (d_a, d_b), &mut *d_r, &mut *d_t);
}
///The value of [`spread`] and its gradient with respect to `r`, `t`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn spread_grad(r: f64, t: f64) -> (f64, (f64, f64)) {
    let mut tape = <SpreadTape>::new();
    let value = spread_forward(r, t, &mut tape);
    let mut d_r: f64 = 0.0;
    let mut d_t: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_r = &mut d_r;
        let d_t = &mut d_t;
        let mut d_a: f64 = -0.0;
        let mut d_b: f64 = -0.0;
        let mut d_w: [f64; 2] = [0.0; 2];
        let mut d_v: [f64; 2] = [0.0; 2];
        d_b += d_out * tape.v[1];
        d_v[1] += d_out * tape.b;
        d_a += d_out * tape.v[0];
        d_v[0] += d_out * tape.a;
        stats_adjoint_call(&tape.w, &tape.stats, (0.0, d_v), &mut d_w);
        d_a += d_w[0];
        d_b += d_w[1];
        polar_adjoint_call(r, t, &tape.polar, (d_a, d_b), &mut *d_r, &mut *d_t);
    }
    (value, (d_r, d_t))
}
///The value of [`spread`] and its directional derivative: the derivative with respect to `r`, `t` along the tangents `t_r`, `t_t` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn spread_jvp(r: f64, t: f64, t_r: f64, t_t: f64) -> (f64, f64) {
    let (t0, t_t0) = polar_jvp_call(r, t, &(t_r), &(t_t));
    let t1 = t0.0;
    let t_t1 = t_t0.0;
    let t2 = t0.1;
    let t_t2 = t_t0.1;
    let a: f64 = t1;
    let t_a: f64 = t_t1;
    let b: f64 = t2;
    let t_b: f64 = t_t2;
    let w: [f64; 2] = [a, b];
    let t_w: [f64; 2] = [t_a, t_b];
    let (t3, t_t3) = stats_jvp_call(&w, &(t_w));
    let v: [f64; 2] = t3.1;
    let t_v = t_t3.1;
    let t4 = a * v[0];
    let t_t4: f64 = t_a * v[0] + a * t_v[0];
    let t5 = b * v[1];
    let t_t5: f64 = t_b * v[1] + b * t_v[1];
    let t6 = t4 + t5;
    let t_t6: f64 = t_t4 + t_t5;
    (t6, t_t6)
}
const _: fn(f64, f64) -> f64 = spread;
///The call contract of [`spread`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `spread`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `spread`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `spread::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait SpreadCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> SpreadCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = SpreadTape;
}
#[doc(hidden)]
trait SpreadSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> SpreadSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> SpreadSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`spread_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`SpreadTape`] through `SpreadCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn spread_adjoint_call<'__stackgrad>(
    r: f64,
    t: f64,
    tape: &SpreadTape,
    d_out: f64,
    __stackgrad_d0: impl SpreadSlot<'__stackgrad, f64>,
    __stackgrad_d1: impl SpreadSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: f64;
    let __stackgrad_d0: &mut f64 = match SpreadSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = 0.0;
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match SpreadSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    spread_adjoint(r, t, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
trait SpreadTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SpreadTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SpreadTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> SpreadTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`spread_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn spread_jvp_call<'__stackgrad>(
    r: f64,
    t: f64,
    __stackgrad_t0: impl SpreadTangent<'__stackgrad, f64>,
    __stackgrad_t1: impl SpreadTangent<'__stackgrad, f64>,
) -> (f64, f64) {
    let __stackgrad_t0_zero: f64;
    let __stackgrad_t0: &f64 = match SpreadTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = 0.0;
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match SpreadTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    spread_jvp(r, t, *__stackgrad_t0, *__stackgrad_t1)
}
