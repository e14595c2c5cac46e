/// A sum over points in a slice, whose number is known at run time only: the iterations share
/// only the accumulator, so the forward sweep records nothing of the loop and the reverse sweep
/// runs each point again into one iteration's tape before sweeping it back.
pub fn spread(mu: &[f64; 2], scale: f64, xs: &[[f64; 2]]) -> f64 {
    let s2 = scale * scale;
    let mut total = 0.0;
    for x in xs.iter() {
        let mut sq = 0.0;
        for d in 0..2 {
            let c = x[d] - mu[d];
            sq += c * c;
        }
        total += (1.0 + sq / s2).ln();
    }
    total / xs.len() as f64
}
///The tape of [`spread`]: what [`spread_adjoint`] reads, recorded by [`spread_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct SpreadTape {}
impl SpreadTape {
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
///One iteration's tape of checkpointed loop #0 of [`spread`]: [`spread_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct SpreadLoop0Tape {
    ///`t1 = sq / s2`
    t1: f64,
}
impl SpreadLoop0Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t1", "t1 = sq / s2", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { t1: 0.0 }
    }
}
impl ::core::default::Default for SpreadLoop0Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`spread`] and records in `tape` what [`spread_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn spread_forward(
    mu: &[f64; 2],
    scale: f64,
    xs: &[[f64; 2]],
    tape: &mut SpreadTape,
) -> f64 {
    let s2: f64 = scale * scale;
    let mut total: f64 = 0.0;
    for i in (0..(xs).len()) {
        let mut sq: f64 = 0.0;
        for d in (0..2) {
            let c: f64 = xs[i][d] - mu[d];
            let t0 = c * c;
            sq = sq + t0;
        }
        let t1 = sq / s2;
        let t2 = 1.0 + t1;
        let t3 = t2.ln();
        total = total + t3;
    }
    let t4 = xs.len() as f64;
    total / t4
}
///[`spread_forward`], except that where [`spread_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn spread_try_forward(
    mu: &[f64; 2],
    scale: f64,
    xs: &[[f64; 2]],
    tape: &mut SpreadTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let s2: f64 = scale * scale;
        let mut total: f64 = 0.0;
        for i in (0..(xs).len()) {
            let mut sq: f64 = 0.0;
            for d in (0..2) {
                let c: f64 = (*xs.get(i).ok_or("an index is outside the slice `xs`")?)[d]
                    - mu[d];
                let t0 = c * c;
                sq = sq + t0;
            }
            let t1 = sq / s2;
            let t2 = 1.0 + t1;
            let t3 = t2.ln();
            total = total + t3;
        }
        let t4 = xs.len() as f64;
        total / t4
    })
}
/**The reverse sweep of [`spread`]: adds `d_out` times the derivative of `spread` with respect to `mu`, `scale` into `d_mu`, `d_scale`.

`tape` must have been filled by [`spread_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn spread_adjoint(
    mu: &[f64; 2],
    scale: f64,
    xs: &[[f64; 2]],
    tape: &SpreadTape,
    d_out: f64,
    d_mu: &mut [f64; 2],
    d_scale: &mut f64,
) {
    let mut d_s2: f64 = -0.0;
    let mut d_total: f64 = -0.0;
    let mut d_sq: f64 = -0.0;
    let mut d_c: f64 = -0.0;
    d_total += d_out / (xs.len() as f64);
    {
        let s2: f64 = (scale * scale);
        let mut total: f64 = 0.0;
        for (k0, i) in (0..(xs).len()).enumerate().rev() {
            let mut step0 = <SpreadLoop0Tape>::new();
            'rerun0: {
                let mut sq: f64 = 0.0;
                for d in (0..2) {
                    let c: f64 = xs[i][d] - mu[d];
                    let t0 = c * c;
                    sq = sq + t0;
                }
                let t1 = sq / s2;
                step0.t1 = t1;
            }
            let d_t3: f64 = d_total;
            let d_t2: f64 = d_t3 / (1.0_f64 + step0.t1);
            d_sq += d_t2 / (scale * scale);
            d_s2 += -(d_t2 / (scale * scale) * step0.t1);
            for (k1, d) in (0..2).enumerate().rev() {
                d_c += d_sq * 2.0 * (xs[i][d] - mu[d]);
                let d_c_1: f64 = d_c;
                d_c = -0.0;
                d_mu[d] += -d_c_1;
            }
            let d_sq_1: f64 = d_sq;
            d_sq = -0.0;
        }
    }
    *d_scale += d_s2 * 2.0 * scale;
}
///The value of [`spread`] and its gradient with respect to `mu`, `scale`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn spread_grad(
    mu: &[f64; 2],
    scale: f64,
    xs: &[[f64; 2]],
) -> (f64, ([f64; 2], f64)) {
    let mut tape = <SpreadTape>::new();
    let mut d_mu: [f64; 2] = [0.0; 2];
    let mut d_scale: f64 = 0.0;
    let value: f64;
    {
        let d_out: f64 = 1.0;
        let d_mu = &mut d_mu;
        let d_scale = &mut d_scale;
        let mut d_s2: f64 = -0.0;
        let mut d_total: f64 = -0.0;
        let mut d_sq: f64 = -0.0;
        let mut d_c: f64 = -0.0;
        value = {
            let tape = &mut tape;
            let s2: f64 = scale * scale;
            let mut total: f64 = 0.0;
            d_total = (d_out / (xs.len() as f64));
            for (k0, i) in (0..(xs).len()).enumerate() {
                let mut step0 = <SpreadLoop0Tape>::new();
                'rerun0: {
                    let mut sq: f64 = 0.0;
                    for d in (0..2) {
                        let c: f64 = xs[i][d] - mu[d];
                        let t0 = c * c;
                        sq = sq + t0;
                    }
                    let t1 = sq / s2;
                    step0.t1 = t1;
                    let t2 = 1.0 + t1;
                    let t3 = t2.ln();
                    total = total + t3;
                }
                let d_t3: f64 = d_total;
                let d_t2: f64 = d_t3 / (1.0_f64 + step0.t1);
                d_sq += d_t2 / (scale * scale);
                d_s2 += -(d_t2 / (scale * scale) * step0.t1);
                for (k1, d) in (0..2).enumerate().rev() {
                    d_c += d_sq * 2.0 * (xs[i][d] - mu[d]);
                    let d_c_1: f64 = d_c;
                    d_c = -0.0;
                    d_mu[d] += -d_c_1;
                }
                let d_sq_1: f64 = d_sq;
                d_sq = -0.0;
            }
            d_total = -0.0;
            let t4 = xs.len() as f64;
            total / t4
        };
        let tape = &tape;
        d_total += d_out / (xs.len() as f64);
        *d_scale += d_s2 * 2.0 * scale;
    }
    (value, (d_mu, d_scale))
}
const _: fn(&[f64; 2], f64, &[[f64; 2]]) -> f64 = spread;
///The call contract of [`spread`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `spread`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `spread`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `spread::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait SpreadCall<
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
> SpreadCall<__A0, __A1, __A2> for () {
    type Out = f64;
    type Tape = SpreadTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`spread` does not differentiate its parameter `xs`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `xs` in `spread` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait SpreadNoDerivativeXs {}
impl SpreadNoDerivativeXs for () {}
#[doc(hidden)]
pub trait SpreadSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
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
pub fn spread_adjoint_call<'__stackgrad>(
    mu: &[f64; 2],
    scale: f64,
    xs: &[[f64; 2]],
    tape: &SpreadTape,
    d_out: f64,
    __stackgrad_d0: impl SpreadSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl SpreadSlot<'__stackgrad, f64>,
    __stackgrad_d2: impl SpreadNoDerivativeXs,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match SpreadSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
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
    spread_adjoint(mu, scale, xs, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `spread`'s parameter `mu`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait SpreadZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl SpreadZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
