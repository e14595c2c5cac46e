pub fn tangent(x: &[f64; 8], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..8 {
        let a = (w * x[i]).tanh();
        s += a * a;
    }
    let r = if s > 1.0 { s.sqrt() } else { s };
    r / w
}
///The tape of [`tangent`]: what [`tangent_adjoint`] reads, recorded by [`tangent_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct TangentTape {
    ///`a` (line 5)
    a: [f64; 8],
    ///whether the condition of `if` #0 held
    branch_0: bool,
    ///`t2 = s.sqrt()` (line 8)
    t2: f64,
    ///`t3 = r / w`
    t3: f64,
}
impl TangentTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("a", "a (line 5)", "[f64 ; 8]", ::core::mem::size_of::<[f64; 8]>()),
        (
            "branch_0",
            "whether the condition of if #0 held",
            "bool",
            ::core::mem::size_of::<bool>(),
        ),
        ("t2", "t2 = s.sqrt() (line 8)", "f64", ::core::mem::size_of::<f64>()),
        ("t3", "t3 = r / w", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            a: [0.0; 8],
            branch_0: false,
            t2: 0.0,
            t3: 0.0,
        }
    }
}
impl ::core::default::Default for TangentTape {
    fn default() -> Self {
        Self::new()
    }
}
impl TangentTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`tangent`] and records in `tape` what [`tangent_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn tangent_forward(x: &[f64; 8], w: f64, tape: &mut TangentTape) -> f64 {
    let mut s: f64 = 0.0;
    for (k0, i) in (0..8).enumerate() {
        let t0 = w * x[i];
        let a: f64 = t0.tanh();
        tape.a[k0] = a;
        let t1 = a * a;
        s = s + t1;
    }
    tape.branch_0 = s > 1.0;
    let r: f64 = if tape.branch_0 {
        let t2 = s.sqrt();
        tape.t2 = t2;
        t2
    } else {
        s
    };
    let t3 = r / w;
    tape.t3 = t3;
    t3
}
/**The reverse sweep of [`tangent`]: adds `d_out` times the derivative of `tangent` with respect to `x`, `w` into `d_x`, `d_w`.

`tape` must have been filled by [`tangent_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn tangent_adjoint(
    x: &[f64; 8],
    w: f64,
    tape: &TangentTape,
    d_out: f64,
    d_x: &mut [f64; 8],
    d_w: &mut f64,
) {
    let mut d_s: f64 = -0.0;
    let mut d_a: f64 = -0.0;
    let mut d_r: f64 = -0.0;
    d_r += d_out / w;
    *d_w += -(d_out / w * tape.t3);
    if tape.branch_0 {
        d_s += d_r * 0.5 / tape.t2;
    } else {
        d_s += d_r;
    }
    for (k0, i) in (0..8).enumerate().rev() {
        d_a += d_s * 2.0 * tape.a[k0];
        let d_a_1: f64 = d_a;
        d_a = -0.0;
        let d_t0: f64 = d_a_1 * (1.0 - tape.a[k0] * tape.a[k0]);
        *d_w += d_t0 * x[i];
        d_x[i] += d_t0 * w;
    }
}
///The value of [`tangent`] and its gradient with respect to `x`, `w`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn tangent_grad(x: &[f64; 8], w: f64) -> (f64, ([f64; 8], f64)) {
    let mut tape = <TangentTape>::new();
    let value = tangent_forward(x, w, &mut tape);
    let mut d_x: [f64; 8] = [0.0; 8];
    let mut d_w: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        let mut d_s: f64 = -0.0;
        let mut d_a: f64 = -0.0;
        let mut d_r: f64 = -0.0;
        d_r += d_out / w;
        *d_w = -(d_out / w * tape.t3);
        if tape.branch_0 {
            d_s += d_r * 0.5 / tape.t2;
        } else {
            d_s += d_r;
        }
        for (k0, i) in (0..8).enumerate().rev() {
            d_a += d_s * 2.0 * tape.a[k0];
            let d_a_1: f64 = d_a;
            d_a = -0.0;
            let d_t0: f64 = d_a_1 * (1.0 - tape.a[k0] * tape.a[k0]);
            *d_w += d_t0 * x[i];
            d_x[i] = d_t0 * w;
        }
    }
    (value, (d_x, d_w))
}
///The value of [`tangent`] and its directional derivative: the derivative with respect to `x`, `w` along the tangents `t_x`, `t_w` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn tangent_jvp(x: &[f64; 8], w: f64, t_x: &[f64; 8], t_w: f64) -> (f64, f64) {
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    for i in (0..8) {
        let t0 = w * x[i];
        let t_t0: f64 = t_w * x[i] + w * t_x[i];
        let a: f64 = t0.tanh();
        let t_a: f64 = t_t0 * (1.0 - a * a);
        let t1 = a * a;
        let t_t1: f64 = 2.0 * a * t_a;
        t_s = t_s + t_t1;
        s = s + t1;
    }
    let (r, t_r): (f64, f64) = if s > 1.0 {
        let t2 = s.sqrt();
        let t_t2: f64 = t_s * 0.5 / t2;
        (t2, t_t2)
    } else {
        (s, t_s)
    };
    let t3 = r / w;
    let t_t3: f64 = t_r / w - t3 * (t_w / w);
    (t3, t_t3)
}
///[`tangent_jvp`] along `W` directions at once (vector forward mode): the value of [`tangent`] and its derivatives with respect to `x`, `w` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn tangent_jvp_vec<const __W: usize>(
    x: &[f64; 8],
    w: f64,
    t_x: &[[f64; __W]; 8],
    t_w: [f64; __W],
) -> (f64, [f64; __W]) {
    let mut s: f64 = 0.0;
    let mut t_s: [f64; __W] = [0.0; __W];
    for i in (0..8) {
        let t0 = w * x[i];
        let t_t0: [f64; __W] = ::core::array::from_fn(|__l| {
            t_w[__l] * x[i] + w * t_x[i][__l]
        });
        let a: f64 = t0.tanh();
        let t_a: [f64; __W] = ::core::array::from_fn(|__l| t_t0[__l] * (1.0 - a * a));
        let t1 = a * a;
        let t_t1: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * a * t_a[__l]);
        t_s = ::core::array::from_fn(|__l| t_s[__l] + t_t1[__l]);
        s = s + t1;
    }
    let (r, t_r): (f64, [f64; __W]) = if s > 1.0 {
        let t2 = s.sqrt();
        let t_t2: [f64; __W] = ::core::array::from_fn(|__l| t_s[__l] * 0.5 / t2);
        (t2, t_t2)
    } else {
        (s, t_s)
    };
    let t3 = r / w;
    let t_t3: [f64; __W] = ::core::array::from_fn(|__l| {
        t_r[__l] / w - t3 * (t_w[__l] / w)
    });
    (t3, t_t3)
}
const _: fn(&[f64; 8], f64) -> f64 = tangent;
///The call contract of [`tangent`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `tangent`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `tangent`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `tangent::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait TangentCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> TangentCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = TangentTape;
}
#[doc(hidden)]
pub trait TangentSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> TangentSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> TangentSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`tangent_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`TangentTape`] through `TangentCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn tangent_adjoint_call<'__stackgrad>(
    x: &[f64; 8],
    w: f64,
    tape: &TangentTape,
    d_out: f64,
    __stackgrad_d0: impl TangentSlot<'__stackgrad, [f64; 8]>,
    __stackgrad_d1: impl TangentSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 8];
    let __stackgrad_d0: &mut [f64; 8] = match TangentSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 8];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match TangentSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    tangent_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
pub trait TangentTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> TangentTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> TangentTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> TangentTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`tangent_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn tangent_jvp_call<'__stackgrad>(
    x: &[f64; 8],
    w: f64,
    __stackgrad_t0: impl TangentTangent<'__stackgrad, [f64; 8]>,
    __stackgrad_t1: impl TangentTangent<'__stackgrad, f64>,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [f64; 8];
    let __stackgrad_t0: &[f64; 8] = match TangentTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 8];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match TangentTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    tangent_jvp(x, w, __stackgrad_t0, *__stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `tangent`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait TangentZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl TangentZero0 for [f64; 8] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 8]
    }
}
