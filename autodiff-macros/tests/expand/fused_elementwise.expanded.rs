/// An array recomputed element by element (`w[i] = 0.75 - p[i]`), read in the loop `f_grad`
/// fuses into its forward sweep: the fused iteration's reverse code reads the forward's own
/// `w`, while `f_adjoint`'s reverse sweep computes `w` again (`w_1`, `from_fn`).
pub fn fused_elementwise(p: &[f64; 2], xs: &[f64]) -> f64 {
    let mut w = [0.0; 2];
    for i in 0..2 {
        w[i] = 0.75 - p[i];
    }
    let mut acc = 0.0;
    for v in xs.iter() {
        acc += v / (w[1] * w[1] + 1.0);
    }
    acc * 0.5
}
///The tape of [`fused_elementwise`]: what [`fused_elementwise_adjoint`] reads, recorded by [`fused_elementwise_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct FusedElementwiseTape {
    ///`w` before checkpointed loop #1
    w_checkpoints: [f64; 2],
}
impl FusedElementwiseTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "w_checkpoints",
            "w before checkpointed loop #1",
            "[f64 ; 2]",
            ::core::mem::size_of::<[f64; 2]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { w_checkpoints: [0.0; 2] }
    }
}
impl ::core::default::Default for FusedElementwiseTape {
    fn default() -> Self {
        Self::new()
    }
}
impl FusedElementwiseTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///One iteration's tape of checkpointed loop #1 of [`fused_elementwise`]: [`fused_elementwise_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct FusedElementwiseLoop1Tape {
    ///`t2 = xs[i_1] / t1`
    t2: f64,
}
impl FusedElementwiseLoop1Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("t2", "t2 = xs[i_1] / t1", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { t2: 0.0 }
    }
}
impl ::core::default::Default for FusedElementwiseLoop1Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`fused_elementwise`] and records in `tape` what [`fused_elementwise_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn fused_elementwise_forward(
    p: &[f64; 2],
    xs: &[f64],
    tape: &mut FusedElementwiseTape,
) -> f64 {
    let mut w: [f64; 2] = [0.0; 2];
    for i in (0..2) {
        w[i] = 0.75 - p[i];
    }
    let mut acc: f64 = 0.0;
    for (k1, i_1) in (0..(xs).len()).enumerate() {
        if k1 == 0 {
            tape.w_checkpoints = w;
        }
        let t0 = w[1] * w[1];
        let t1 = t0 + 1.0;
        let t2 = xs[i_1] / t1;
        acc = acc + t2;
    }
    acc * 0.5
}
///[`fused_elementwise_forward`], except that where [`fused_elementwise_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn fused_elementwise_try_forward(
    p: &[f64; 2],
    xs: &[f64],
    tape: &mut FusedElementwiseTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let mut w: [f64; 2] = [0.0; 2];
        for i in (0..2) {
            w[i] = 0.75 - p[i];
        }
        let mut acc: f64 = 0.0;
        for (k1, i_1) in (0..(xs).len()).enumerate() {
            if k1 == 0 {
                tape.w_checkpoints = w;
            }
            let t0 = w[1] * w[1];
            let t1 = t0 + 1.0;
            let t2 = (*xs.get(i_1).ok_or("an index is outside the slice `xs`")?) / t1;
            acc = acc + t2;
        }
        acc * 0.5
    })
}
/**The reverse sweep of [`fused_elementwise`]: adds `d_out` times the derivative of `fused_elementwise` with respect to `p` into `d_p`.

`tape` must have been filled by [`fused_elementwise_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn fused_elementwise_adjoint(
    p: &[f64; 2],
    xs: &[f64],
    tape: &FusedElementwiseTape,
    d_out: f64,
    d_p: &mut [f64; 2],
) {
    let mut d_w: [f64; 2] = [0.0; 2];
    let mut d_acc: f64 = -0.0;
    let w_1: [f64; 2] = ::core::array::from_fn(|i| (0.75_f64 - p[i]));
    d_acc += d_out * 0.5_f64;
    {
        let w: [f64; 2] = tape.w_checkpoints;
        let mut acc: f64 = 0.0;
        for (k1, i_1) in (0..(xs).len()).enumerate().rev() {
            let mut step1 = <FusedElementwiseLoop1Tape>::new();
            'rerun1: {
                let t0 = w[1] * w[1];
                let t1 = t0 + 1.0;
                let t2 = xs[i_1] / t1;
                step1.t2 = t2;
            }
            let d_t2: f64 = d_acc;
            let d_t1: f64 = -(d_t2 / ((w_1[1] * w_1[1]) + 1.0_f64) * step1.t2);
            d_w[1] += d_t1 * 2.0 * w_1[1];
        }
    }
    for (k0, i) in (0..2).enumerate().rev() {
        let d_w_1: f64 = d_w[i];
        d_w[i] = -0.0;
        d_p[i] += -d_w_1;
    }
}
///The value of [`fused_elementwise`] and its gradient with respect to `p`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn fused_elementwise_grad(p: &[f64; 2], xs: &[f64]) -> (f64, [f64; 2]) {
    let mut tape = <FusedElementwiseTape>::new();
    let mut d_p: [f64; 2] = [0.0; 2];
    let value: f64;
    {
        let d_out: f64 = 1.0;
        let d_p = &mut d_p;
        let mut d_w: [f64; 2] = [0.0; 2];
        let mut d_acc: f64 = -0.0;
        value = {
            let tape = &mut tape;
            let mut w: [f64; 2] = [0.0; 2];
            for i in (0..2) {
                w[i] = 0.75 - p[i];
            }
            let mut acc: f64 = 0.0;
            d_acc = (d_out * 0.5);
            for (k1, i_1) in (0..(xs).len()).enumerate() {
                let mut step1 = <FusedElementwiseLoop1Tape>::new();
                'rerun1: {
                    let t0 = w[1] * w[1];
                    let t1 = t0 + 1.0;
                    let t2 = xs[i_1] / t1;
                    step1.t2 = t2;
                    acc = acc + t2;
                }
                let d_t2: f64 = d_acc;
                let d_t1: f64 = -(d_t2 / ((w[1] * w[1]) + 1.0_f64) * step1.t2);
                d_w[1] += d_t1 * 2.0 * w[1];
            }
            d_acc = -0.0;
            acc * 0.5
        };
        let tape = &tape;
        d_acc += d_out * 0.5_f64;
        for (k0, i) in (0..2).enumerate().rev() {
            let d_w_1: f64 = d_w[i];
            d_w[i] = -0.0;
            d_p[i] += -d_w_1;
        }
    }
    (value, d_p)
}
const _: fn(&[f64; 2], &[f64]) -> f64 = fused_elementwise;
///The call contract of [`fused_elementwise`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `fused_elementwise`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `fused_elementwise`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `fused_elementwise::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait FusedElementwiseCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> FusedElementwiseCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = FusedElementwiseTape;
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`fused_elementwise` does not differentiate its parameter `xs`, and a derivative reaches it at this call",
    label = "a derivative reaches it here",
    note = "differentiate `xs` in `fused_elementwise` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
)]
pub trait FusedElementwiseNoDerivativeXs {}
impl FusedElementwiseNoDerivativeXs for () {}
#[doc(hidden)]
pub trait FusedElementwiseSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> FusedElementwiseSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> FusedElementwiseSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`fused_elementwise_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`FusedElementwiseTape`] through `FusedElementwiseCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn fused_elementwise_adjoint_call<'__stackgrad>(
    p: &[f64; 2],
    xs: &[f64],
    tape: &FusedElementwiseTape,
    d_out: f64,
    __stackgrad_d0: impl FusedElementwiseSlot<'__stackgrad, [f64; 2]>,
    __stackgrad_d1: impl FusedElementwiseNoDerivativeXs,
) {
    let mut __stackgrad_d0_scratch: [f64; 2];
    let __stackgrad_d0: &mut [f64; 2] = match FusedElementwiseSlot::slot(
        __stackgrad_d0,
    ) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 2];
            &mut __stackgrad_d0_scratch
        }
    };
    fused_elementwise_adjoint(p, xs, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `fused_elementwise`'s parameter `p`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait FusedElementwiseZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl FusedElementwiseZero0 for [f64; 2] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 2]
    }
}
