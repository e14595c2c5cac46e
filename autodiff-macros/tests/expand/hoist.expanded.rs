/// Distances of `N` points to `K` centres under per-centre triangular maps: the tangent of
/// `l[k] (x[i] - mu[k])` has a part, `l[k] (-t_mu[k])`, that is the same for every point.
pub fn hoist<const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        for k in 0..K {
            let mut xc = [0.0; 3];
            for d in 0..3 {
                xc[d] = x[i][d] - mu[k][d];
            }
            let mut y = [0.0; 3];
            for a in 0..3 {
                for b in a..3 {
                    y[b] += l[k][a * 3 - a * (a + 1) / 2 + b] * xc[a];
                }
            }
            for d in 0..3 {
                s += y[d] * y[d];
            }
        }
    }
    s
}
///The tape of [`hoist`]: what [`hoist_adjoint`] reads, recorded by [`hoist_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct HoistTape<const K: usize, const N: usize> {
    ///`y` (line 12) after its last write
    y: [[[f64; 3]; K]; N],
    ///The const parameters (zero-sized).
    const_params: ([(); K], [(); N]),
}
impl<const K: usize, const N: usize> HoistTape<K, N> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "y",
            "y (line 12) after its last write",
            "[[[f64 ; 3] ; K] ; N]",
            ::core::mem::size_of::<[[[f64; 3]; K]; N]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            y: [[[0.0; 3]; K]; N],
            const_params: ([(); K], [(); N]),
        }
    }
}
impl<const K: usize, const N: usize> ::core::default::Default for HoistTape<K, N> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const K: usize, const N: usize> HoistTape<K, N> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`hoist`] and records in `tape` what [`hoist_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn hoist_forward<const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
    tape: &mut HoistTape<K, N>,
) -> f64 {
    let _ = hoist::<K, N>;
    let mut s: f64 = 0.0;
    for (k0, i) in (0..N).enumerate() {
        for (k1, k) in (0..K).enumerate() {
            let mut xc: [f64; 3] = [0.0; 3];
            for d in (0..3) {
                xc[d] = x[i][d] - mu[k][d];
            }
            let mut y: [f64; 3] = [0.0; 3];
            for a in (0..3) {
                for b in (a..3) {
                    let t0 = l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] * xc[a];
                    y[b] = y[b] + t0;
                }
            }
            tape.y[k0][k1] = y;
            for d_1 in (0..3) {
                let t1 = y[d_1] * y[d_1];
                s = s + t1;
            }
        }
    }
    s
}
/**The reverse sweep of [`hoist`]: adds `d_out` times the derivative of `hoist` with respect to `l`, `mu` into `d_l`, `d_mu`.

`tape` must have been filled by [`hoist_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn hoist_adjoint<const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
    tape: &HoistTape<K, N>,
    d_out: f64,
    d_l: &mut [[f64; 6]; K],
    d_mu: &mut [[f64; 3]; K],
) {
    let mut d_s: f64 = -0.0;
    let mut d_xc: [f64; 3] = [0.0; 3];
    let mut d_y: [f64; 3] = [0.0; 3];
    d_s += d_out;
    for (k0, i) in (0..N).enumerate().rev() {
        for (k1, k) in (0..K).enumerate().rev() {
            let xc_1: [f64; 3] = ::core::array::from_fn(|d| (x[i][d] - mu[k][d]));
            for (k5, d_1) in (0..3).enumerate().rev() {
                d_y[d_1] += d_s * 2.0 * tape.y[k0][k1][d_1];
            }
            for (k3, a) in (0..3).enumerate().rev() {
                for (k4, b) in (a..3).enumerate().rev() {
                    let d_t0: f64 = d_y[b];
                    d_l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] += d_t0 * xc_1[a];
                    d_xc[a] += d_t0 * l[k][((a * 3) - ((a * (a + 1)) / 2)) + b];
                }
            }
            let d_y_1: [f64; 3] = d_y;
            d_y = [0.0; 3];
            for (k2, d) in (0..3).enumerate().rev() {
                let d_xc_1: f64 = d_xc[d];
                d_xc[d] = -0.0;
                d_mu[k][d] += -d_xc_1;
            }
            let d_xc_2: [f64; 3] = d_xc;
            d_xc = [0.0; 3];
        }
    }
}
///The value of [`hoist`] and its gradient with respect to `l`, `mu`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn hoist_grad<const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
) -> (f64, ([[f64; 6]; K], [[f64; 3]; K])) {
    let mut tape = <HoistTape<K, N>>::new();
    let value = hoist_forward(l, mu, x, &mut tape);
    let mut d_l: [[f64; 6]; K] = [[0.0; 6]; K];
    let mut d_mu: [[f64; 3]; K] = [[0.0; 3]; K];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_l = &mut d_l;
        let d_mu = &mut d_mu;
        let mut d_s: f64 = -0.0;
        let mut d_xc: [f64; 3] = [0.0; 3];
        let mut d_y: [f64; 3] = [0.0; 3];
        d_s += d_out;
        for (k0, i) in (0..N).enumerate().rev() {
            for (k1, k) in (0..K).enumerate().rev() {
                let xc_1: [f64; 3] = ::core::array::from_fn(|d| (x[i][d] - mu[k][d]));
                for (k5, d_1) in (0..3).enumerate().rev() {
                    d_y[d_1] += d_s * 2.0 * tape.y[k0][k1][d_1];
                }
                for (k3, a) in (0..3).enumerate().rev() {
                    for (k4, b) in (a..3).enumerate().rev() {
                        let d_t0: f64 = d_y[b];
                        d_l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] += d_t0 * xc_1[a];
                        d_xc[a] += d_t0 * l[k][((a * 3) - ((a * (a + 1)) / 2)) + b];
                    }
                }
                let d_y_1: [f64; 3] = d_y;
                d_y = [0.0; 3];
                for (k2, d) in (0..3).enumerate().rev() {
                    let d_xc_1: f64 = d_xc[d];
                    d_xc[d] = -0.0;
                    d_mu[k][d] += -d_xc_1;
                }
                let d_xc_2: [f64; 3] = d_xc;
                d_xc = [0.0; 3];
            }
        }
    }
    (value, (d_l, d_mu))
}
///The value of [`hoist`] and its directional derivative: the derivative with respect to `l`, `mu` along the tangents `t_l`, `t_mu` (forward mode, one sweep, no tape).
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn hoist_jvp<const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
    t_l: &[[f64; 6]; K],
    t_mu: &[[f64; 3]; K],
) -> (f64, f64) {
    let _ = hoist::<K, N>;
    let mut s: f64 = 0.0;
    let mut t_s: f64 = 0.0;
    let mut w_y: [[f64; 3]; K] = [[0.0; 3]; K];
    if 0 < N {
        for k in (0..K) {
            let mut t_xc: [f64; 3] = [0.0; 3];
            for d in (0..3) {
                t_xc[d] = -t_mu[k][d];
            }
            for a in (0..3) {
                for b in (a..3) {
                    let t_t0: f64 = l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] * t_xc[a];
                    w_y[k][b] = w_y[k][b] + t_t0;
                }
            }
        }
    }
    for i in (0..N) {
        for k in (0..K) {
            let mut xc: [f64; 3] = [0.0; 3];
            for d in (0..3) {
                xc[d] = x[i][d] - mu[k][d];
            }
            let mut y: [f64; 3] = [0.0; 3];
            let mut t_y: [f64; 3] = [0.0; 3];
            for a in (0..3) {
                for b in (a..3) {
                    let t0 = l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] * xc[a];
                    y[b] = y[b] + t0;
                }
            }
            for a in (0..3) {
                for b in (a..3) {
                    let t_t0: f64 = t_l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] * xc[a];
                    t_y[b] = t_y[b] + t_t0;
                }
            }
            for j in (0..3) {
                t_y[j] = t_y[j] + w_y[k][j];
            }
            for d_1 in (0..3) {
                let t1 = y[d_1] * y[d_1];
                let t_t1: f64 = 2.0 * y[d_1] * t_y[d_1];
                t_s = t_s + t_t1;
                s = s + t1;
            }
        }
    }
    (s, t_s)
}
///[`hoist_jvp`] along `W` directions at once (vector forward mode): the value of [`hoist`] and its derivatives with respect to `l`, `mu` along each; every float's tangent is a `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn hoist_jvp_vec<const K: usize, const N: usize, const __W: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
    t_l: &[[[f64; __W]; 6]; K],
    t_mu: &[[[f64; __W]; 3]; K],
) -> (f64, [f64; __W]) {
    let _ = hoist::<K, N>;
    let mut s: f64 = 0.0;
    let mut t_s: [f64; __W] = [0.0; __W];
    let mut w_y: [[[f64; __W]; 3]; K] = [[[0.0; __W]; 3]; K];
    if 0 < N {
        for k in (0..K) {
            let mut t_xc: [[f64; __W]; 3] = [[0.0; __W]; 3];
            for d in (0..3) {
                t_xc[d] = ::core::array::from_fn(|__l| -t_mu[k][d][__l]);
            }
            for a in (0..3) {
                for b in (a..3) {
                    let t_t0: [f64; __W] = ::core::array::from_fn(|__l| {
                        l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] * t_xc[a][__l]
                    });
                    w_y[k][b] = ::core::array::from_fn(|__l| w_y[k][b][__l] + t_t0[__l]);
                }
            }
        }
    }
    for i in (0..N) {
        for k in (0..K) {
            let mut xc: [f64; 3] = [0.0; 3];
            for d in (0..3) {
                xc[d] = x[i][d] - mu[k][d];
            }
            let mut y: [f64; 3] = [0.0; 3];
            let mut t_y: [[f64; __W]; 3] = [[0.0; __W]; 3];
            for a in (0..3) {
                for b in (a..3) {
                    let t0 = l[k][((a * 3) - ((a * (a + 1)) / 2)) + b] * xc[a];
                    y[b] = y[b] + t0;
                }
            }
            for a in (0..3) {
                {
                    let __flat_start: usize = a;
                    let __flat_len: usize = {
                        let __end: usize = 3;
                        __end.saturating_sub(__flat_start)
                    };
                    if __flat_len > 0 {
                        let __flat_base0: usize = ((a * 3) - ((a * (a + 1)) / 2))
                            + __flat_start;
                        let __row0 = &t_l[k]
                            .as_flattened()[__flat_base0 * __W..][..__flat_len * __W];
                        let __flat_base1: usize = __flat_start;
                        let __row1 = &mut t_y
                            .as_flattened_mut()[__flat_base1
                            * __W..][..__flat_len * __W];
                        for __e in 0..__flat_len * __W {
                            let t_t0: f64 = __row0[__e] * xc[a];
                            __row1[__e] = __row1[__e] + t_t0;
                        }
                    }
                }
            }
            for (__a, __b) in t_y
                .as_flattened_mut()
                .iter_mut()
                .zip(w_y[k].as_flattened())
            {
                *__a = *__a + *__b;
            }
            for d_1 in (0..3) {
                let t1 = y[d_1] * y[d_1];
                let t_t1: [f64; __W] = ::core::array::from_fn(|__l| {
                    2.0 * y[d_1] * t_y[d_1][__l]
                });
                t_s = ::core::array::from_fn(|__l| t_s[__l] + t_t1[__l]);
                s = s + t1;
            }
        }
    }
    (s, t_s)
}
///The call contract of [`hoist`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `hoist`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `hoist`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `hoist::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait HoistCall<
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
    const K: usize,
    const N: usize,
> HoistCall<[[f64; 6]; K], [[f64; 3]; K], [[f64; 3]; N]> for () {
    type Out = f64;
    type Tape = HoistTape<K, N>;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`hoist` does not differentiate its parameter `x`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `x` in `hoist` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait HoistNoDerivativeX {}
impl HoistNoDerivativeX for () {}
#[doc(hidden)]
pub trait HoistSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> HoistSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> HoistSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`hoist_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`HoistTape`] through `HoistCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn hoist_adjoint_call<'__stackgrad, const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
    tape: &HoistTape<K, N>,
    d_out: f64,
    __stackgrad_d0: impl HoistSlot<'__stackgrad, [[f64; 6]; K]>,
    __stackgrad_d1: impl HoistSlot<'__stackgrad, [[f64; 3]; K]>,
    __stackgrad_d2: impl HoistNoDerivativeX,
) {
    let mut __stackgrad_d0_scratch: [[f64; 6]; K];
    let __stackgrad_d0: &mut [[f64; 6]; K] = match HoistSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; 6]; K];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [[f64; 3]; K];
    let __stackgrad_d1: &mut [[f64; 3]; K] = match HoistSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [[0.0; 3]; K];
            &mut __stackgrad_d1_scratch
        }
    };
    hoist_adjoint::<K, N>(l, mu, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
pub trait HoistTangent<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> HoistTangent<'__stackgrad, T> for &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> HoistTangent<'__stackgrad, T> for &'__stackgrad &'__stackgrad T {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::Some(*self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> HoistTangent<'__stackgrad, T> for () {
    fn tangent(self) -> ::core::option::Option<&'__stackgrad T> {
        ::core::option::Option::None
    }
}
///[`hoist_jvp`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn hoist_jvp_call<'__stackgrad, const K: usize, const N: usize>(
    l: &[[f64; 6]; K],
    mu: &[[f64; 3]; K],
    x: &[[f64; 3]; N],
    __stackgrad_t0: impl HoistTangent<'__stackgrad, [[f64; 6]; K]>,
    __stackgrad_t1: impl HoistTangent<'__stackgrad, [[f64; 3]; K]>,
    __stackgrad_t2: impl ::core::marker::Sized,
) -> (f64, f64) {
    let __stackgrad_t0_zero: [[f64; 6]; K];
    let __stackgrad_t0: &[[f64; 6]; K] = match HoistTangent::tangent(__stackgrad_t0) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t0_zero = [[0.0; 6]; K];
            &__stackgrad_t0_zero
        }
    };
    let __stackgrad_t1_zero: [[f64; 3]; K];
    let __stackgrad_t1: &[[f64; 3]; K] = match HoistTangent::tangent(__stackgrad_t1) {
        ::core::option::Option::Some(t) => t,
        ::core::option::Option::None => {
            __stackgrad_t1_zero = [[0.0; 3]; K];
            &__stackgrad_t1_zero
        }
    };
    hoist_jvp::<K, N>(l, mu, x, __stackgrad_t0, __stackgrad_t1)
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `hoist`'s parameter `l`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait HoistZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const K: usize> HoistZero0 for [[f64; 6]; K] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 6]; K]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `hoist`'s parameter `mu`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait HoistZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const K: usize> HoistZero1 for [[f64; 3]; K] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 3]; K]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `hoist`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait HoistZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const N: usize> HoistZero2 for [[f64; 3]; N] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 3]; N]
    }
}
