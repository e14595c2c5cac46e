fn mean_cubes(w: &[f64; 2], xs: &[f64], scale: f64) -> f64 {
    let mut a = 0.0;
    let mut b = 0.0;
    for i in 0..xs.len() {
        let z = w[0] * xs[i] + w[1];
        a += z * z * z;
        b += z.sin();
    }
    (a - 2.0 * b) * scale / xs.len() as f64
}
///The tape of [`mean_cubes`]: what [`mean_cubes_adjoint`] reads, recorded by [`mean_cubes_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct MeanCubesTape {}
impl MeanCubesTape {
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
impl ::core::default::Default for MeanCubesTape {
    fn default() -> Self {
        Self::new()
    }
}
impl MeanCubesTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///One iteration's tape of checkpointed loop #0 of [`mean_cubes`]: [`mean_cubes_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct MeanCubesLoop0Tape {}
impl MeanCubesLoop0Tape {
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
impl ::core::default::Default for MeanCubesLoop0Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`mean_cubes`] and records in `tape` what [`mean_cubes_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_forward(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    tape: &mut MeanCubesTape,
) -> f64 {
    let mut a: f64 = 0.0;
    let mut b: f64 = 0.0;
    for i in (0..xs.len()) {
        let t0 = w[0] * xs[i];
        let z: f64 = t0 + w[1];
        let t1 = z * z;
        let t2 = t1 * z;
        a = a + t2;
        let t3 = z.sin();
        b = b + t3;
    }
    let t4 = 2.0 * b;
    let t5 = a - t4;
    let t6 = t5 * scale;
    let t7 = xs.len() as f64;
    t6 / t7
}
///[`mean_cubes_forward`], except that where [`mean_cubes_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_try_forward(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    tape: &mut MeanCubesTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let mut a: f64 = 0.0;
        let mut b: f64 = 0.0;
        for i in (0..xs.len()) {
            let t0 = w[0] * (*xs.get(i).ok_or("an index is outside the slice `xs`")?);
            let z: f64 = t0 + w[1];
            let t1 = z * z;
            let t2 = t1 * z;
            a = a + t2;
            let t3 = z.sin();
            b = b + t3;
        }
        let t4 = 2.0 * b;
        let t5 = a - t4;
        let t6 = t5 * scale;
        let t7 = xs.len() as f64;
        t6 / t7
    })
}
/**The reverse sweep of [`mean_cubes`]: adds `d_out` times the derivative of `mean_cubes` with respect to `w` into `d_w`.

`tape` must have been filled by [`mean_cubes_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_adjoint(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    tape: &MeanCubesTape,
    d_out: f64,
    d_w: &mut [f64; 2],
) {
    let mut d_a: f64 = -0.0;
    let mut d_b: f64 = -0.0;
    let mut d_z: f64 = -0.0;
    let d_t6: f64 = d_out / (xs.len() as f64);
    let d_t5: f64 = d_t6 * scale;
    d_a += d_t5;
    let d_t4: f64 = -d_t5;
    d_b += d_t4 * 2.0_f64;
    {
        let mut a: f64 = 0.0;
        let mut b: f64 = 0.0;
        for (k0, i) in (0..xs.len()).enumerate().rev() {
            let mut step0 = <MeanCubesLoop0Tape>::new();
            let d_t3: f64 = d_b;
            d_z += d_t3 * ((w[0] * xs[i]) + w[1]).cos();
            let d_t2: f64 = d_a;
            let d_t1: f64 = d_t2 * ((w[0] * xs[i]) + w[1]);
            d_z += d_t2 * (((w[0] * xs[i]) + w[1]) * ((w[0] * xs[i]) + w[1]));
            d_z += d_t1 * 2.0 * ((w[0] * xs[i]) + w[1]);
            let d_z_1: f64 = d_z;
            d_z = -0.0;
            d_w[1] += d_z_1;
            d_w[0] += d_z_1 * xs[i];
        }
    }
}
///The value of [`mean_cubes`] and its gradient with respect to `w`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_grad(w: &[f64; 2], xs: &[f64], scale: f64) -> (f64, [f64; 2]) {
    let mut tape = <MeanCubesTape>::new();
    let mut d_w: [f64; 2] = [0.0; 2];
    let value: f64;
    {
        let d_out: f64 = 1.0;
        let d_w = &mut d_w;
        let mut d_a: f64 = -0.0;
        let mut d_b: f64 = -0.0;
        let mut d_z: f64 = -0.0;
        value = {
            let tape = &mut tape;
            let mut a: f64 = 0.0;
            let mut b: f64 = 0.0;
            d_a = ((d_out / (xs.len() as f64)) * scale);
            d_b = (-(((d_out / (xs.len() as f64)) * scale) * 2.0));
            for (k0, i) in (0..xs.len()).enumerate() {
                let mut step0 = <MeanCubesLoop0Tape>::new();
                'rerun0: {
                    let t0 = w[0] * xs[i];
                    let z: f64 = t0 + w[1];
                    let t1 = z * z;
                    let t2 = t1 * z;
                    a = a + t2;
                    let t3 = z.sin();
                    b = b + t3;
                }
                let d_t3: f64 = d_b;
                d_z += d_t3 * ((w[0] * xs[i]) + w[1]).cos();
                let d_t2: f64 = d_a;
                let d_t1: f64 = d_t2 * ((w[0] * xs[i]) + w[1]);
                d_z += d_t2 * (((w[0] * xs[i]) + w[1]) * ((w[0] * xs[i]) + w[1]));
                d_z += d_t1 * 2.0 * ((w[0] * xs[i]) + w[1]);
                let d_z_1: f64 = d_z;
                d_z = -0.0;
                d_w[1] += d_z_1;
                d_w[0] += d_z_1 * xs[i];
            }
            d_a = -0.0;
            d_b = -0.0;
            let t4 = 2.0 * b;
            let t5 = a - t4;
            let t6 = t5 * scale;
            let t7 = xs.len() as f64;
            t6 / t7
        };
        let tape = &tape;
        let d_t6: f64 = d_out / (xs.len() as f64);
        let d_t5: f64 = d_t6 * scale;
        d_a += d_t5;
        let d_t4: f64 = -d_t5;
        d_b += d_t4 * 2.0_f64;
    }
    (value, d_w)
}
///The value of [`mean_cubes`] and its directional derivative: the derivative with respect to `w` along the tangents `t_w` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_jvp(w: &[f64; 2], xs: &[f64], scale: f64, t_w: &[f64; 2]) -> (f64, f64) {
    let mut a: f64 = 0.0;
    let mut t_a: f64 = 0.0;
    let mut b: f64 = 0.0;
    let mut t_b: f64 = 0.0;
    for i in (0..xs.len()) {
        let t0 = w[0] * xs[i];
        let t_t0: f64 = t_w[0] * xs[i];
        let z: f64 = t0 + w[1];
        let t_z: f64 = t_t0 + t_w[1];
        let t1 = z * z;
        let t_t1: f64 = 2.0 * z * t_z;
        let t2 = t1 * z;
        let t_t2: f64 = t_t1 * z + t1 * t_z;
        t_a = t_a + t_t2;
        a = a + t2;
        let t3 = z.sin();
        let t_t3: f64 = t_z * z.cos();
        t_b = t_b + t_t3;
        b = b + t3;
    }
    let t4 = 2.0 * b;
    let t_t4: f64 = 2.0_f64 * t_b;
    let t5 = a - t4;
    let t_t5: f64 = t_a - t_t4;
    let t6 = t5 * scale;
    let t_t6: f64 = t_t5 * scale;
    let t7 = xs.len() as f64;
    let t8 = t6 / t7;
    let t_t8: f64 = t_t6 / t7;
    (t8, t_t8)
}
///[`mean_cubes_jvp`] along `W` directions at once (vector forward mode): the value of [`mean_cubes`] and its derivatives with respect to `w` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_jvp_vec<const __W: usize>(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[[f64; __W]; 2],
) -> (f64, [f64; __W]) {
    let mut a: f64 = 0.0;
    let mut t_a: [f64; __W] = [0.0; __W];
    let mut b: f64 = 0.0;
    let mut t_b: [f64; __W] = [0.0; __W];
    for i in (0..xs.len()) {
        let t0 = w[0] * xs[i];
        let t_t0: [f64; __W] = ::core::array::from_fn(|__l| t_w[0][__l] * xs[i]);
        let z: f64 = t0 + w[1];
        let t_z: [f64; __W] = ::core::array::from_fn(|__l| t_t0[__l] + t_w[1][__l]);
        let t1 = z * z;
        let t_t1: [f64; __W] = ::core::array::from_fn(|__l| 2.0 * z * t_z[__l]);
        let t2 = t1 * z;
        let t_t2: [f64; __W] = ::core::array::from_fn(|__l| {
            t_t1[__l] * z + t1 * t_z[__l]
        });
        t_a = ::core::array::from_fn(|__l| t_a[__l] + t_t2[__l]);
        a = a + t2;
        let t3 = z.sin();
        let t_t3: [f64; __W] = ::core::array::from_fn(|__l| t_z[__l] * z.cos());
        t_b = ::core::array::from_fn(|__l| t_b[__l] + t_t3[__l]);
        b = b + t3;
    }
    let t4 = 2.0 * b;
    let t_t4: [f64; __W] = ::core::array::from_fn(|__l| 2.0_f64 * t_b[__l]);
    let t5 = a - t4;
    let t_t5: [f64; __W] = ::core::array::from_fn(|__l| t_a[__l] - t_t4[__l]);
    let t6 = t5 * scale;
    let t_t6: [f64; __W] = ::core::array::from_fn(|__l| t_t5[__l] * scale);
    let t7 = xs.len() as f64;
    let t8 = t6 / t7;
    let t_t8: [f64; __W] = ::core::array::from_fn(|__l| t_t6[__l] / t7);
    (t8, t_t8)
}
const _: fn(&[f64; 2], &[f64], f64) -> f64 = mean_cubes;
///The call contract of [`mean_cubes`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `mean_cubes`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `mean_cubes`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `mean_cubes::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait MeanCubesCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
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
> MeanCubesCall<__A0, __A1, __A2> for () {
    type Out = f64;
    type Tape = MeanCubesTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`mean_cubes` does not differentiate its parameter `xs`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `xs` in `mean_cubes` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
trait MeanCubesNoDerivativeXs {}
impl MeanCubesNoDerivativeXs for () {}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`mean_cubes` does not differentiate its parameter `scale`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `scale` in `mean_cubes` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
trait MeanCubesNoDerivativeScale {}
impl MeanCubesNoDerivativeScale for () {}
#[doc(hidden)]
trait MeanCubesSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`mean_cubes_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`MeanCubesTape`] through `MeanCubesCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn mean_cubes_adjoint_call<'__stackgrad>(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    tape: &MeanCubesTape,
    d_out: f64,
    __stackgrad_d0: impl MeanCubesSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl MeanCubesNoDerivativeXs,
    __stackgrad_d2: impl MeanCubesNoDerivativeScale,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match MeanCubesSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    mean_cubes_adjoint(w, xs, scale, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
trait MeanCubesTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`mean_cubes_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn mean_cubes_jvp_call<'__stackgrad>(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    __stackgrad_t0: impl MeanCubesTangent<'__stackgrad, [f64; 2]>,
    __stackgrad_t1: impl ::core::marker::Sized,
    __stackgrad_t2: impl ::core::marker::Sized,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [f64; 2];
    let __stackgrad_t0: &[f64; 2] = match MeanCubesTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [0.0; 2];
            &__stackgrad_t0_zero
        }
    };
    mean_cubes_jvp(w, xs, scale, __stackgrad_t0)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `mean_cubes`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait MeanCubesZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl MeanCubesZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The tape of [`mean_cubes_hvp_jvp`]: what [`mean_cubes_hvp_jvp_adjoint`] reads, recorded by [`mean_cubes_hvp_jvp_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct MeanCubesHvpJvpTape {}
impl MeanCubesHvpJvpTape {
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
impl ::core::default::Default for MeanCubesHvpJvpTape {
    fn default() -> Self {
        Self::new()
    }
}
impl MeanCubesHvpJvpTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///One iteration's tape of checkpointed loop #0 of [`mean_cubes_hvp_jvp`]: [`mean_cubes_hvp_jvp_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct MeanCubesHvpJvpLoop0Tape {
    ///`t12 = z.cos()` (line 1)
    t12: f64,
    ///`t3` (line 1)
    t3: f64,
}
impl MeanCubesHvpJvpLoop0Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t12", "t12 = z.cos() (line 1)", "f64", ::core::mem::size_of::<f64>()),
        ("t3", "t3 (line 1)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { t12: 0.0, t3: 0.0 }
    }
}
impl ::core::default::Default for MeanCubesHvpJvpLoop0Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`mean_cubes_hvp_jvp`] and records in `tape` what [`mean_cubes_hvp_jvp_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp_jvp_forward(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
    tape: &mut MeanCubesHvpJvpTape,
) -> [f64; 2] {
    let mut a: f64 = 0.0;
    let mut t_a: f64 = 0.0;
    let mut b: f64 = 0.0;
    let mut t_b: f64 = 0.0;
    for i in (0..xs.len()) {
        let t0: f64 = w[0] * xs[i];
        let t_t0: f64 = t_w[0] * xs[i];
        let z: f64 = t0 + w[1];
        let t_z: f64 = t_t0 + t_w[1];
        let t1: f64 = z * z;
        let t9 = 2.0 * z;
        let t_t1: f64 = t9 * t_z;
        let t2: f64 = t1 * z;
        let t10 = t_t1 * z;
        let t11 = t1 * t_z;
        let t_t2: f64 = t10 + t11;
        t_a = t_a + t_t2;
        a = a + t2;
        let t3: f64 = z.sin();
        let t12 = z.cos();
        let t_t3: f64 = t_z * t12;
        t_b = t_b + t_t3;
        b = b + t3;
    }
    let t4: f64 = 2.0 * b;
    let t_t4: f64 = 2.0_f64 * t_b;
    let t5: f64 = a - t4;
    let t_t5: f64 = t_a - t_t4;
    let t6: f64 = t5 * scale;
    let t_t6: f64 = t_t5 * scale;
    let t7: f64 = xs.len() as f64;
    let t8: f64 = t6 / t7;
    let t_t8: f64 = t_t6 / t7;
    [t8, t_t8]
}
///[`mean_cubes_hvp_jvp_forward`], except that where [`mean_cubes_hvp_jvp_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp_jvp_try_forward(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
    tape: &mut MeanCubesHvpJvpTape,
) -> ::core::result::Result<[f64; 2], &'static str> {
    ::core::result::Result::Ok({
        let mut a: f64 = 0.0;
        let mut t_a: f64 = 0.0;
        let mut b: f64 = 0.0;
        let mut t_b: f64 = 0.0;
        for i in (0..xs.len()) {
            let t0: f64 = w[0]
                * (*xs.get(i).ok_or("an index is outside the slice `xs`")?);
            let t_t0: f64 = t_w[0]
                * (*xs.get(i).ok_or("an index is outside the slice `xs`")?);
            let z: f64 = t0 + w[1];
            let t_z: f64 = t_t0 + t_w[1];
            let t1: f64 = z * z;
            let t9 = 2.0 * z;
            let t_t1: f64 = t9 * t_z;
            let t2: f64 = t1 * z;
            let t10 = t_t1 * z;
            let t11 = t1 * t_z;
            let t_t2: f64 = t10 + t11;
            t_a = t_a + t_t2;
            a = a + t2;
            let t3: f64 = z.sin();
            let t12 = z.cos();
            let t_t3: f64 = t_z * t12;
            t_b = t_b + t_t3;
            b = b + t3;
        }
        let t4: f64 = 2.0 * b;
        let t_t4: f64 = 2.0_f64 * t_b;
        let t5: f64 = a - t4;
        let t_t5: f64 = t_a - t_t4;
        let t6: f64 = t5 * scale;
        let t_t6: f64 = t_t5 * scale;
        let t7: f64 = xs.len() as f64;
        let t8: f64 = t6 / t7;
        let t_t8: f64 = t_t6 / t7;
        [t8, t_t8]
    })
}
///[`mean_cubes_hvp_jvp_forward`], writing the value into `out` (all of it): the forward sweep of a caller whose tape keeps the value calls this with the value's place in its tape.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp_jvp_forward_into(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
    tape: &mut MeanCubesHvpJvpTape,
    out: &mut [f64; 2],
) {
    *out = mean_cubes_hvp_jvp_forward(w, xs, scale, t_w, t_xs, t_scale, tape);
}
/**The reverse sweep of [`mean_cubes_hvp_jvp`]: adds `d_out` times the derivative of `mean_cubes_hvp_jvp` with respect to `w`, `t_w` into `d_w`, `d_t_w`.

`tape` must have been filled by [`mean_cubes_hvp_jvp_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient. `d_out`, the cotangent of the output, comes by reference (an array or struct output).*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp_jvp_adjoint(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
    tape: &MeanCubesHvpJvpTape,
    d_out: &[f64; 2],
    d_w: &mut [f64; 2],
    d_t_w: &mut [f64; 2],
) {
    let mut d_a: f64 = -0.0;
    let mut d_t_a: f64 = -0.0;
    let mut d_b: f64 = -0.0;
    let mut d_t_b: f64 = -0.0;
    let mut d_t0: f64 = -0.0;
    let mut d_t_t0: f64 = -0.0;
    let mut d_z: f64 = -0.0;
    let mut d_t_z: f64 = -0.0;
    let mut d_t1: f64 = -0.0;
    let mut d_t_t1: f64 = -0.0;
    let mut d_t2: f64 = -0.0;
    let mut d_t_t2: f64 = -0.0;
    let mut d_t3: f64 = -0.0;
    let mut d_t_t3: f64 = -0.0;
    let mut d_t4: f64 = -0.0;
    let mut d_t_t4: f64 = -0.0;
    let mut d_t5: f64 = -0.0;
    let mut d_t_t5: f64 = -0.0;
    let mut d_t6: f64 = -0.0;
    let mut d_t_t6: f64 = -0.0;
    let mut d_t8: f64 = -0.0;
    let mut d_t_t8: f64 = -0.0;
    d_t8 += (*d_out)[0];
    d_t_t8 += (*d_out)[1];
    d_t_t6 += d_t_t8 / (xs.len() as f64);
    d_t6 += d_t8 / (xs.len() as f64);
    d_t_t5 += d_t_t6 * scale;
    d_t5 += d_t6 * scale;
    d_t_a += d_t_t5;
    d_t_t4 += -d_t_t5;
    d_a += d_t5;
    d_t4 += -d_t5;
    d_t_b += d_t_t4 * 2.0_f64;
    d_b += d_t4 * 2.0_f64;
    {
        let mut a: f64 = 0.0;
        let mut t_a: f64 = 0.0;
        let mut b: f64 = 0.0;
        let mut t_b: f64 = 0.0;
        for (k0, i) in (0..xs.len()).enumerate().rev() {
            let mut step0 = <MeanCubesHvpJvpLoop0Tape>::new();
            'rerun0: {
                let t0: f64 = w[0] * xs[i];
                let z: f64 = t0 + w[1];
                let t3: f64 = z.sin();
                step0.t3 = t3;
                let t12 = z.cos();
                step0.t12 = t12;
            }
            d_t3 += d_b;
            d_t_t3 += d_t_b;
            let d_t_t3_1: f64 = d_t_t3;
            d_t_t3 = -0.0;
            d_t_z += d_t_t3_1 * step0.t12;
            let d_t12: f64 = d_t_t3_1 * ((t_w[0] * xs[i]) + t_w[1]);
            d_z += -(d_t12 * step0.t3);
            let d_t3_1: f64 = d_t3;
            d_t3 = -0.0;
            d_z += d_t3_1 * step0.t12;
            d_t2 += d_a;
            d_t_t2 += d_t_a;
            let d_t_t2_1: f64 = d_t_t2;
            d_t_t2 = -0.0;
            d_t1 += d_t_t2_1 * ((t_w[0] * xs[i]) + t_w[1]);
            d_t_z += d_t_t2_1 * (((w[0] * xs[i]) + w[1]) * ((w[0] * xs[i]) + w[1]));
            d_t_t1 += d_t_t2_1 * ((w[0] * xs[i]) + w[1]);
            d_z
                += d_t_t2_1
                    * ((2.0_f64 * ((w[0] * xs[i]) + w[1]))
                        * ((t_w[0] * xs[i]) + t_w[1]));
            let d_t2_1: f64 = d_t2;
            d_t2 = -0.0;
            d_t1 += d_t2_1 * ((w[0] * xs[i]) + w[1]);
            d_z += d_t2_1 * (((w[0] * xs[i]) + w[1]) * ((w[0] * xs[i]) + w[1]));
            let d_t_t1_1: f64 = d_t_t1;
            d_t_t1 = -0.0;
            let d_t9: f64 = d_t_t1_1 * ((t_w[0] * xs[i]) + t_w[1]);
            d_t_z += d_t_t1_1 * (2.0_f64 * ((w[0] * xs[i]) + w[1]));
            d_z += d_t9 * 2.0_f64;
            let d_t1_1: f64 = d_t1;
            d_t1 = -0.0;
            d_z += d_t1_1 * 2.0 * ((w[0] * xs[i]) + w[1]);
            let d_t_z_1: f64 = d_t_z;
            d_t_z = -0.0;
            d_t_t0 += d_t_z_1;
            d_t_w[1] += d_t_z_1;
            let d_z_1: f64 = d_z;
            d_z = -0.0;
            d_t0 += d_z_1;
            d_w[1] += d_z_1;
            let d_t_t0_1: f64 = d_t_t0;
            d_t_t0 = -0.0;
            d_t_w[0] += d_t_t0_1 * xs[i];
            let d_t0_1: f64 = d_t0;
            d_t0 = -0.0;
            d_w[0] += d_t0_1 * xs[i];
        }
    }
}
///[`mean_cubes_hvp_jvp_forward`] and then [`mean_cubes_hvp_jvp_adjoint`] (the adjoints accumulate), in one sweep: each iteration of the run-time loop whose accumulators reach the output linearly runs forward and back at once. Returns the value.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp_jvp_fused(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
    d_out: &[f64; 2],
    d_w: &mut [f64; 2],
    d_t_w: &mut [f64; 2],
) -> [f64; 2] {
    let mut tape = <MeanCubesHvpJvpTape>::new();
    let value: [f64; 2];
    {
        let mut d_a: f64 = -0.0;
        let mut d_t_a: f64 = -0.0;
        let mut d_b: f64 = -0.0;
        let mut d_t_b: f64 = -0.0;
        let mut d_t0: f64 = -0.0;
        let mut d_t_t0: f64 = -0.0;
        let mut d_z: f64 = -0.0;
        let mut d_t_z: f64 = -0.0;
        let mut d_t1: f64 = -0.0;
        let mut d_t_t1: f64 = -0.0;
        let mut d_t2: f64 = -0.0;
        let mut d_t_t2: f64 = -0.0;
        let mut d_t3: f64 = -0.0;
        let mut d_t_t3: f64 = -0.0;
        let mut d_t4: f64 = -0.0;
        let mut d_t_t4: f64 = -0.0;
        let mut d_t5: f64 = -0.0;
        let mut d_t_t5: f64 = -0.0;
        let mut d_t6: f64 = -0.0;
        let mut d_t_t6: f64 = -0.0;
        let mut d_t8: f64 = -0.0;
        let mut d_t_t8: f64 = -0.0;
        value = {
            let tape = &mut tape;
            let mut a: f64 = 0.0;
            let mut t_a: f64 = 0.0;
            let mut b: f64 = 0.0;
            let mut t_b: f64 = 0.0;
            d_a = (((*d_out)[0usize] / (xs.len() as f64)) * scale);
            d_t_a = (((*d_out)[1usize] / (xs.len() as f64)) * scale);
            d_b = (-((((*d_out)[0usize] / (xs.len() as f64)) * scale) * 2.0));
            d_t_b = (-((((*d_out)[1usize] / (xs.len() as f64)) * scale) * 2.0_f64));
            for (k0, i) in (0..xs.len()).enumerate() {
                let mut step0 = <MeanCubesHvpJvpLoop0Tape>::new();
                'rerun0: {
                    let t0: f64 = w[0] * xs[i];
                    let t_t0: f64 = t_w[0] * xs[i];
                    let z: f64 = t0 + w[1];
                    let t_z: f64 = t_t0 + t_w[1];
                    let t1: f64 = z * z;
                    let t9 = 2.0 * z;
                    let t_t1: f64 = t9 * t_z;
                    let t2: f64 = t1 * z;
                    let t10 = t_t1 * z;
                    let t11 = t1 * t_z;
                    let t_t2: f64 = t10 + t11;
                    t_a = t_a + t_t2;
                    a = a + t2;
                    let t3: f64 = z.sin();
                    step0.t3 = t3;
                    let t12 = z.cos();
                    step0.t12 = t12;
                    let t_t3: f64 = t_z * t12;
                    t_b = t_b + t_t3;
                    b = b + t3;
                }
                d_t3 += d_b;
                d_t_t3 += d_t_b;
                let d_t_t3_1: f64 = d_t_t3;
                d_t_t3 = -0.0;
                d_t_z += d_t_t3_1 * step0.t12;
                let d_t12: f64 = d_t_t3_1 * ((t_w[0] * xs[i]) + t_w[1]);
                d_z += -(d_t12 * step0.t3);
                let d_t3_1: f64 = d_t3;
                d_t3 = -0.0;
                d_z += d_t3_1 * step0.t12;
                d_t2 += d_a;
                d_t_t2 += d_t_a;
                let d_t_t2_1: f64 = d_t_t2;
                d_t_t2 = -0.0;
                d_t1 += d_t_t2_1 * ((t_w[0] * xs[i]) + t_w[1]);
                d_t_z += d_t_t2_1 * (((w[0] * xs[i]) + w[1]) * ((w[0] * xs[i]) + w[1]));
                d_t_t1 += d_t_t2_1 * ((w[0] * xs[i]) + w[1]);
                d_z
                    += d_t_t2_1
                        * ((2.0_f64 * ((w[0] * xs[i]) + w[1]))
                            * ((t_w[0] * xs[i]) + t_w[1]));
                let d_t2_1: f64 = d_t2;
                d_t2 = -0.0;
                d_t1 += d_t2_1 * ((w[0] * xs[i]) + w[1]);
                d_z += d_t2_1 * (((w[0] * xs[i]) + w[1]) * ((w[0] * xs[i]) + w[1]));
                let d_t_t1_1: f64 = d_t_t1;
                d_t_t1 = -0.0;
                let d_t9: f64 = d_t_t1_1 * ((t_w[0] * xs[i]) + t_w[1]);
                d_t_z += d_t_t1_1 * (2.0_f64 * ((w[0] * xs[i]) + w[1]));
                d_z += d_t9 * 2.0_f64;
                let d_t1_1: f64 = d_t1;
                d_t1 = -0.0;
                d_z += d_t1_1 * 2.0 * ((w[0] * xs[i]) + w[1]);
                let d_t_z_1: f64 = d_t_z;
                d_t_z = -0.0;
                d_t_t0 += d_t_z_1;
                d_t_w[1] += d_t_z_1;
                let d_z_1: f64 = d_z;
                d_z = -0.0;
                d_t0 += d_z_1;
                d_w[1] += d_z_1;
                let d_t_t0_1: f64 = d_t_t0;
                d_t_t0 = -0.0;
                d_t_w[0] += d_t_t0_1 * xs[i];
                let d_t0_1: f64 = d_t0;
                d_t0 = -0.0;
                d_w[0] += d_t0_1 * xs[i];
            }
            d_a = -0.0;
            d_t_a = -0.0;
            d_b = -0.0;
            d_t_b = -0.0;
            let t4: f64 = 2.0 * b;
            let t_t4: f64 = 2.0_f64 * t_b;
            let t5: f64 = a - t4;
            let t_t5: f64 = t_a - t_t4;
            let t6: f64 = t5 * scale;
            let t_t6: f64 = t_t5 * scale;
            let t7: f64 = xs.len() as f64;
            let t8: f64 = t6 / t7;
            let t_t8: f64 = t_t6 / t7;
            [t8, t_t8]
        };
        let tape = &tape;
        d_t8 += (*d_out)[0];
        d_t_t8 += (*d_out)[1];
        d_t_t6 += d_t_t8 / (xs.len() as f64);
        d_t6 += d_t8 / (xs.len() as f64);
        d_t_t5 += d_t_t6 * scale;
        d_t5 += d_t6 * scale;
        d_t_a += d_t_t5;
        d_t_t4 += -d_t_t5;
        d_a += d_t5;
        d_t4 += -d_t5;
        d_t_b += d_t_t4 * 2.0_f64;
        d_b += d_t4 * 2.0_f64;
    }
    value
}
const _: fn(&[f64; 2], &[f64], f64, &[f64; 2], &[f64], f64) -> [f64; 2] = mean_cubes_hvp_jvp;
///The call contract of [`mean_cubes_hvp_jvp`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `mean_cubes_hvp_jvp`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `mean_cubes_hvp_jvp`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `mean_cubes_hvp_jvp::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait MeanCubesHvpJvpCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
    A3: ?::core::marker::Sized,
    A4: ?::core::marker::Sized,
    A5: ?::core::marker::Sized,
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
    __A4: ?::core::marker::Sized,
    __A5: ?::core::marker::Sized,
> MeanCubesHvpJvpCall<__A0, __A1, __A2, __A3, __A4, __A5> for () {
    type Out = [f64; 2];
    type Tape = MeanCubesHvpJvpTape;
}
#[doc(hidden)]
trait MeanCubesHvpJvpNoDerivativeXs {}
impl<T: ?::core::marker::Sized> MeanCubesHvpJvpNoDerivativeXs for T {}
#[doc(hidden)]
trait MeanCubesHvpJvpNoDerivativeScale {}
impl<T: ?::core::marker::Sized> MeanCubesHvpJvpNoDerivativeScale for T {}
#[doc(hidden)]
trait MeanCubesHvpJvpNoDerivativeTXs {}
impl<T: ?::core::marker::Sized> MeanCubesHvpJvpNoDerivativeTXs for T {}
#[doc(hidden)]
trait MeanCubesHvpJvpNoDerivativeTScale {}
impl<T: ?::core::marker::Sized> MeanCubesHvpJvpNoDerivativeTScale for T {}
#[doc(hidden)]
trait MeanCubesHvpJvpSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesHvpJvpSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> MeanCubesHvpJvpSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`mean_cubes_hvp_jvp_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`MeanCubesHvpJvpTape`] through `MeanCubesHvpJvpCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn mean_cubes_hvp_jvp_adjoint_call<'__stackgrad>(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
    tape: &MeanCubesHvpJvpTape,
    d_out: &[f64; 2],
    __stackgrad_d0: impl MeanCubesHvpJvpSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl MeanCubesHvpJvpNoDerivativeXs,
    __stackgrad_d2: impl MeanCubesHvpJvpNoDerivativeScale,
    __stackgrad_d3: impl MeanCubesHvpJvpSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d4: impl MeanCubesHvpJvpNoDerivativeTXs,
    __stackgrad_d5: impl MeanCubesHvpJvpNoDerivativeTScale,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match MeanCubesHvpJvpSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d3_scratch: [f64; 2];
    let __stackgrad_d3: &mut [f64; 2] = match MeanCubesHvpJvpSlot::slot(__stackgrad_d3) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d3_scratch = [0.0; 2];
            &mut __stackgrad_d3_scratch
        }
    };
    mean_cubes_hvp_jvp_adjoint(
        w,
        xs,
        scale,
        t_w,
        t_xs,
        t_scale,
        tape,
        d_out,
        __stackgrad_d0,
        __stackgrad_d3,
    );
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `mean_cubes_hvp_jvp`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait MeanCubesHvpJvpZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl MeanCubesHvpJvpZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `mean_cubes_hvp_jvp`'s parameter `t_w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait MeanCubesHvpJvpZero3 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl MeanCubesHvpJvpZero3 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
///The tangent program of [`mean_cubes`] as `[value, tangent]`, which `mean_cubes_hvp` differentiates (generated by `#[differentiable(hvp)]`; a function declared `hvp` calls its callees' `_hvp_jvp`).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp_jvp(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    t_w: &[f64; 2],
    t_xs: &[f64],
    t_scale: f64,
) -> [f64; 2] {
    let mut a: f64 = 0.0;
    let mut t_a: f64 = 0.0;
    let mut b: f64 = 0.0;
    let mut t_b: f64 = 0.0;
    for i in (0..xs.len()) {
        let t0 = w[0] * xs[i];
        let t_t0: f64 = t_w[0] * xs[i];
        let z: f64 = t0 + w[1];
        let t_z: f64 = t_t0 + t_w[1];
        let t1 = z * z;
        let t_t1: f64 = 2.0 * z * t_z;
        let t2 = t1 * z;
        let t_t2: f64 = t_t1 * z + t1 * t_z;
        t_a = t_a + t_t2;
        a = a + t2;
        let t3 = z.sin();
        let t_t3: f64 = t_z * z.cos();
        t_b = t_b + t_t3;
        b = b + t3;
    }
    let t4 = 2.0 * b;
    let t_t4: f64 = 2.0_f64 * t_b;
    let t5 = a - t4;
    let t_t5: f64 = t_a - t_t4;
    let t6 = t5 * scale;
    let t_t6: f64 = t_t5 * scale;
    let t7 = xs.len() as f64;
    let t8 = t6 / t7;
    let t_t8: f64 = t_t6 / t7;
    [t8, t_t8]
}
///The value of [`mean_cubes`], its gradient with respect to `w` (as `mean_cubes_grad` returns it) and the Hessian-vector product `H v` along `v_w`, by reverse mode over forward mode (its tape on the stack, with `Vec` fields where a loop over a run-time length is recorded).
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn mean_cubes_hvp(
    w: &[f64; 2],
    xs: &[f64],
    scale: f64,
    v_w: &[f64; 2],
) -> (f64, [f64; 2], [f64; 2]) {
    let mut h0: [f64; 2] = [0.0; 2];
    let mut g0: [f64; 2] = [0.0; 2];
    let value = mean_cubes_hvp_jvp_fused(
        w,
        xs,
        scale,
        v_w,
        xs,
        0.0,
        &[0.0, 1.0],
        &mut h0,
        &mut g0,
    );
    (value[0], g0, h0)
}
