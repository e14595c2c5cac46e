pub fn energy(x: &[f64; 4], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s += (w * x[i]).tanh();
    }
    if s > 0.0 { s * s } else { -s }
}
///The tape of [`energy`]: what [`energy_adjoint`] reads, recorded by [`energy_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct EnergyTape {
    ///`t1 = t0.tanh()` (line 5)
    t1: [f64; 4],
    ///`s` (line 3) after its last write
    s: f64,
    ///whether the condition of `if` #0 held
    branch_0: bool,
}
impl EnergyTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "t1",
            "t1 = t0.tanh() (line 5)",
            "[f64 ; 4]",
            ::core::mem::size_of::<[f64; 4]>(),
        ),
        ("s", "s (line 3) after its last write", "f64", ::core::mem::size_of::<f64>()),
        (
            "branch_0",
            "whether the condition of if #0 held",
            "bool",
            ::core::mem::size_of::<bool>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            t1: [0.0; 4],
            s: 0.0,
            branch_0: false,
        }
    }
}
impl ::core::default::Default for EnergyTape {
    fn default() -> Self {
        Self::new()
    }
}
impl EnergyTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`energy`] and records in `tape` what [`energy_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_forward(x: &[f64; 4], w: f64, tape: &mut EnergyTape) -> f64 {
    let mut s: f64 = 0.0;
    for (k0, i) in (0..4).enumerate() {
        let t0 = w * x[i];
        let t1 = t0.tanh();
        tape.t1[k0] = t1;
        s = s + t1;
    }
    tape.s = s;
    tape.branch_0 = s > 0.0;
    if tape.branch_0 { s * s } else { -s }
}
/**The reverse sweep of [`energy`]: adds `d_out` times the derivative of `energy` with respect to `x`, `w` into `d_x`, `d_w`.

`tape` must have been filled by [`energy_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_adjoint(
    x: &[f64; 4],
    w: f64,
    tape: &EnergyTape,
    d_out: f64,
    d_x: &mut [f64; 4],
    d_w: &mut f64,
) {
    let mut d_s: f64 = -0.0;
    if tape.branch_0 {
        d_s += d_out * 2.0 * tape.s;
    } else {
        d_s += -d_out;
    }
    for (k0, i) in (0..4).enumerate().rev() {
        let d_t1: f64 = d_s;
        let d_t0: f64 = d_t1 * (1.0 - tape.t1[k0] * tape.t1[k0]);
        *d_w += d_t0 * x[i];
        d_x[i] += d_t0 * w;
    }
}
///The value of [`energy`] and its gradient with respect to `x`, `w`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_grad(x: &[f64; 4], w: f64) -> (f64, ([f64; 4], f64)) {
    let mut tape = <EnergyTape>::new();
    let value = energy_forward(x, w, &mut tape);
    let mut d_x: [f64; 4] = [0.0; 4];
    let mut d_w: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        let mut d_s: f64 = -0.0;
        if tape.branch_0 {
            d_s += d_out * 2.0 * tape.s;
        } else {
            d_s += -d_out;
        }
        for (k0, i) in (0..4).enumerate().rev() {
            let d_t1: f64 = d_s;
            let d_t0: f64 = d_t1 * (1.0 - tape.t1[k0] * tape.t1[k0]);
            *d_w += d_t0 * x[i];
            d_x[i] = d_t0 * w;
        }
    }
    (value, (d_x, d_w))
}
///The value of [`energy`] and its directional derivative: the derivative with respect to `x`, `w` along the tangents `t_x`, `t_w` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_jvp(x: &[f64; 4], w: f64, t_x: &[f64; 4], t_w: f64) -> (f64, f64) {
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    for i in (0..4) {
        let t0 = w * x[i];
        let t_t0: f64 = t_w * x[i] + w * t_x[i];
        let t1 = t0.tanh();
        let t_t1: f64 = t_t0 * (1.0 - t1 * t1);
        t_s = t_s + t_t1;
        s = s + t1;
    }
    let (t4, t_t4): (f64, f64) = if s > 0.0 {
        let t2 = s * s;
        let t_t2: f64 = 2.0 * s * t_s;
        (t2, t_t2)
    } else {
        let t3 = -s;
        let t_t3: f64 = -t_s;
        (t3, t_t3)
    };
    (t4, t_t4)
}
///[`energy_jvp`] along `W` directions at once (vector forward mode): the value of [`energy`] and its derivatives with respect to `x`, `w` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_jvp_vec<const __W: usize>(
    x: &[f64; 4],
    w: f64,
    t_x: &[[f64; __W]; 4],
    t_w: [f64; __W],
) -> (f64, [f64; __W]) {
    let mut s: f64 = 0.0;
    let mut t_s: [f64; __W] = [0.0; __W];
    for i in (0..4) {
        let t0 = w * x[i];
        let t_t0: [f64; __W] = ::core::array::from_fn(|__l| {
            t_w[__l] * x[i] + w * t_x[i][__l]
        });
        let t1 = t0.tanh();
        let t_t1: [f64; __W] = ::core::array::from_fn(|__l| t_t0[__l] * (1.0 - t1 * t1));
        t_s = ::core::array::from_fn(|__l| t_s[__l] + t_t1[__l]);
        s = s + t1;
    }
    let (t4, t_t4): (f64, [f64; __W]) = if s > 0.0 {
        let t2 = s * s;
        let t_t2: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * s * t_s[__l]);
        (t2, t_t2)
    } else {
        let t3 = -s;
        let t_t3: [f64; __W] = ::core::array::from_fn(|__l| -t_s[__l]);
        (t3, t_t3)
    };
    (t4, t_t4)
}
const _: fn(&[f64; 4], f64) -> f64 = energy;
///The call contract of [`energy`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `energy`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `energy`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `energy::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait EnergyCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> EnergyCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = EnergyTape;
}
#[doc(hidden)]
pub trait EnergySlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> EnergySlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> EnergySlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`energy_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`EnergyTape`] through `EnergyCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn energy_adjoint_call<'__stackgrad>(
    x: &[f64; 4],
    w: f64,
    tape: &EnergyTape,
    d_out: f64,
    __stackgrad_d0: impl EnergySlot<'__stackgrad, [f64; 4]>,
    __stackgrad_d1: impl EnergySlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 4];
    let __stackgrad_d0: &mut [f64; 4] = match EnergySlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match EnergySlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    energy_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
pub trait EnergyTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EnergyTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EnergyTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EnergyTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`energy_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn energy_jvp_call<'__stackgrad>(
    x: &[f64; 4],
    w: f64,
    __stackgrad_t0: impl EnergyTangent<'__stackgrad, [f64; 4]>,
    __stackgrad_t1: impl EnergyTangent<'__stackgrad, f64>,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [f64; 4];
    let __stackgrad_t0: &[f64; 4] = match EnergyTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 4];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: f64;
    let __stackgrad_t1: &f64 = match EnergyTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = 0.0;
            &__stackgrad_t1_zero
        }
    };
    energy_jvp(x, w, __stackgrad_t0, *__stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `energy`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait EnergyZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl EnergyZero0 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
///The tape of [`energy_hvp_jvp`]: what [`energy_hvp_jvp_adjoint`] reads, recorded by [`energy_hvp_jvp_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct EnergyHvpJvpTape {
    ///`t1` (line 1)
    t1: [f64; 4],
    ///`t7 = t1 * t1`
    t7: [f64; 4],
    ///`s` (line 3) after its last write
    s: f64,
    ///`t_s` (line 1) after its last write
    t_s: f64,
    ///whether the condition of `if` #0 held
    branch_0: bool,
}
impl EnergyHvpJvpTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t1", "t1 (line 1)", "[f64 ; 4]", ::core::mem::size_of::<[f64; 4]>()),
        ("t7", "t7 = t1 * t1", "[f64 ; 4]", ::core::mem::size_of::<[f64; 4]>()),
        ("s", "s (line 3) after its last write", "f64", ::core::mem::size_of::<f64>()),
        (
            "t_s",
            "t_s (line 1) after its last write",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        (
            "branch_0",
            "whether the condition of if #0 held",
            "bool",
            ::core::mem::size_of::<bool>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            t1: [0.0; 4],
            t7: [0.0; 4],
            s: 0.0,
            t_s: 0.0,
            branch_0: false,
        }
    }
}
impl ::core::default::Default for EnergyHvpJvpTape {
    fn default() -> Self {
        Self::new()
    }
}
impl EnergyHvpJvpTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`energy_hvp_jvp`] and records in `tape` what [`energy_hvp_jvp_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_hvp_jvp_forward(
    x: &[f64; 4],
    w: f64,
    t_x: &[f64; 4],
    t_w: f64,
    tape: &mut EnergyHvpJvpTape,
) -> [f64; 2] {
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    for (k0, i) in (0..4).enumerate() {
        let t0: f64 = w * x[i];
        let t5 = t_w * x[i];
        let t6 = w * t_x[i];
        let t_t0: f64 = t5 + t6;
        let t1: f64 = t0.tanh();
        tape.t1[k0] = t1;
        let t7 = t1 * t1;
        tape.t7[k0] = t7;
        let t8 = 1.0 - t7;
        let t_t1: f64 = t_t0 * t8;
        t_s = t_s + t_t1;
        s = s + t1;
    }
    tape.s = s;
    tape.t_s = t_s;
    tape.branch_0 = s > 0.0;
    let (t4, t_t4): (f64, f64) = if tape.branch_0 {
        let t2: f64 = s * s;
        let t9 = 2.0 * s;
        let t_t2: f64 = t9 * t_s;
        (t2, t_t2)
    } else {
        let t3: f64 = -s;
        let t_t3: f64 = -t_s;
        (t3, t_t3)
    };
    [t4, t_t4]
}
///[`energy_hvp_jvp_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_hvp_jvp_forward_into(
    x: &[f64; 4],
    w: f64,
    t_x: &[f64; 4],
    t_w: f64,
    tape: &mut EnergyHvpJvpTape,
    out: &mut [f64; 2],
) {
    *out = energy_hvp_jvp_forward(x, w, t_x, t_w, tape);
}
/**The reverse sweep of [`energy_hvp_jvp`]: adds `d_out` times the derivative of `energy_hvp_jvp` with respect to `x`, `w`, `t_x`, `t_w` into `d_x`, `d_w`, `d_t_x`, `d_t_w`.

`tape` must have been filled by [`energy_hvp_jvp_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_hvp_jvp_adjoint(
    x: &[f64; 4],
    w: f64,
    t_x: &[f64; 4],
    t_w: f64,
    tape: &EnergyHvpJvpTape,
    d_out: &[f64; 2],
    d_x: &mut [f64; 4],
    d_w: &mut f64,
    d_t_x: &mut [f64; 4],
    d_t_w: &mut f64,
) {
    let mut d_s: f64 = -0.0;
    let mut d_t_s: f64 = -0.0;
    let mut d_t0: f64 = -0.0;
    let mut d_t_t0: f64 = -0.0;
    let mut d_t1: f64 = -0.0;
    let mut d_t_t1: f64 = -0.0;
    let mut d_t2: f64 = -0.0;
    let mut d_t_t2: f64 = -0.0;
    let mut d_t3: f64 = -0.0;
    let mut d_t_t3: f64 = -0.0;
    let mut d_t4: f64 = -0.0;
    let mut d_t_t4: f64 = -0.0;
    d_t4 += (*d_out)[0];
    d_t_t4 += (*d_out)[1];
    if tape.branch_0 {
        d_t2 += d_t4;
        d_t_t2 += d_t_t4;
        let d_t9: f64 = d_t_t2 * tape.t_s;
        d_t_s += d_t_t2 * (2.0_f64 * tape.s);
        d_s += d_t9 * 2.0_f64;
        d_s += d_t2 * 2.0 * tape.s;
    } else {
        d_t3 += d_t4;
        d_t_t3 += d_t_t4;
        d_t_s += -d_t_t3;
        d_s += -d_t3;
    }
    for (k0, i) in (0..4).enumerate().rev() {
        d_t1 += d_s;
        d_t_t1 += d_t_s;
        let d_t_t1_1: f64 = d_t_t1;
        d_t_t1 = -0.0;
        d_t_t0 += d_t_t1_1 * (1.0_f64 - tape.t7[k0]);
        let d_t8: f64 = d_t_t1_1 * ((t_w * x[i]) + (w * t_x[i]));
        d_t1 += -(d_t8 * 2.0) * tape.t1[k0];
        let d_t1_1: f64 = d_t1;
        d_t1 = -0.0;
        d_t0 += d_t1_1 * (1.0 - tape.t1[k0] * tape.t1[k0]);
        let d_t_t0_1: f64 = d_t_t0;
        d_t_t0 = -0.0;
        *d_w += d_t_t0_1 * t_x[i];
        d_t_x[i] += d_t_t0_1 * w;
        *d_t_w += d_t_t0_1 * x[i];
        d_x[i] += d_t_t0_1 * t_w;
        let d_t0_1: f64 = d_t0;
        d_t0 = -0.0;
        *d_w += d_t0_1 * x[i];
        d_x[i] += d_t0_1 * w;
    }
}
const _: fn(&[f64; 4], f64, &[f64; 4], f64) -> [f64; 2] = energy_hvp_jvp;
///The call contract of [`energy_hvp_jvp`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `energy_hvp_jvp`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `energy_hvp_jvp`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `energy_hvp_jvp::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait EnergyHvpJvpCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
    A3: ?::core::marker::Sized,
> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
    __A2: ?::core::marker::Sized,
    __A3: ?::core::marker::Sized,
> EnergyHvpJvpCall<__A0, __A1, __A2, __A3> for () {
    type Out = [f64; 2];
    type Tape = EnergyHvpJvpTape;
}
#[doc(hidden)]
pub trait EnergyHvpJvpSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EnergyHvpJvpSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EnergyHvpJvpSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`energy_hvp_jvp_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`EnergyHvpJvpTape`] through `EnergyHvpJvpCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn energy_hvp_jvp_adjoint_call<'__stackgrad>(
    x: &[f64; 4],
    w: f64,
    t_x: &[f64; 4],
    t_w: f64,
    tape: &EnergyHvpJvpTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl EnergyHvpJvpSlot<'__stackgrad, [f64; 4]>,
    __stackgrad_d1: impl EnergyHvpJvpSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl EnergyHvpJvpSlot<'__stackgrad, [f64; 4]>,
    __stackgrad_d3: impl EnergyHvpJvpSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 4];
    let __stackgrad_d0: &mut [f64; 4] = match EnergyHvpJvpSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match EnergyHvpJvpSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: [f64; 4];
    let __stackgrad_d2: &mut [f64; 4] = match EnergyHvpJvpSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = [0.0; 4];
            &mut __stackgrad_d2_scratch
        }
    };
    let mut __stackgrad_d3_scratch: f64;
    let __stackgrad_d3: &mut f64 = match EnergyHvpJvpSlot::slot(__stackgrad_d3) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d3_scratch = 0.0;
            &mut __stackgrad_d3_scratch
        }
    };
    energy_hvp_jvp_adjoint(
        x,
        w,
        t_x,
        t_w,
        tape,
        d_out,
        __stackgrad_d0,
        __stackgrad_d1,
        __stackgrad_d2,
        __stackgrad_d3,
    );
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `energy_hvp_jvp`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait EnergyHvpJvpZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl EnergyHvpJvpZero0 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `energy_hvp_jvp`'s parameter `t_x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait EnergyHvpJvpZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl EnergyHvpJvpZero2 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
///The tangent program of [`energy`] as `[value, tangent]`, which `energy_hvp` differentiates (generated by `#[differentiable(hvp)]`; a function declared `hvp` calls its callees' `_hvp_jvp`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_hvp_jvp(x: &[f64; 4], w: f64, t_x: &[f64; 4], t_w: f64) -> [f64; 2] {
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    for i in (0..4) {
        let t0 = w * x[i];
        let t_t0: f64 = t_w * x[i] + w * t_x[i];
        let t1 = t0.tanh();
        let t_t1: f64 = t_t0 * (1.0 - t1 * t1);
        t_s = t_s + t_t1;
        s = s + t1;
    }
    let (t4, t_t4): (f64, f64) = if s > 0.0 {
        let t2 = s * s;
        let t_t2: f64 = 2.0 * s * t_s;
        (t2, t_t2)
    } else {
        let t3 = -s;
        let t_t3: f64 = -t_s;
        (t3, t_t3)
    };
    [t4, t_t4]
}
///The value of [`energy`], its gradient with respect to `x`, `w` (as `energy_grad` returns it) and the Hessian-vector product `H v` along `v_x`, `v_w`, by reverse mode over forward mode (its tape on the stack, with `Vec` fields where a loop over a run-time length is recorded).
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn energy_hvp(
    x: &[f64; 4],
    w: f64,
    v_x: &[f64; 4],
    v_w: f64,
) -> (f64, ([f64; 4], f64), ([f64; 4], f64)) {
    let mut tape = <EnergyHvpJvpTape>::new();
    let value = energy_hvp_jvp_forward(x, w, v_x, v_w, &mut tape);
    let mut h0: [f64; 4] = [0.0; 4];
    let mut g0: [f64; 4] = [0.0; 4];
    let mut h1: f64 = 0.0;
    let mut g1: f64 = 0.0;
    energy_hvp_jvp_adjoint(
        x,
        w,
        v_x,
        v_w,
        &tape,
        &[0.0, 1.0],
        &mut h0,
        &mut h1,
        &mut g0,
        &mut g1,
    );
    (value[0], (g0, g1), (h0, h1))
}
