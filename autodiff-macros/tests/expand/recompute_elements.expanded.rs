/// Element reads of a `#[recompute]` array: the reverse sweep computes the array again once per
/// reversed scope, into a local the reads index (`y_again[i]`), not once per read.
pub fn recompute_elements(x: &[f64; 4], w: f64) -> f64 {
    let y = [(w * x[0]).sin(), (w * x[1]).sin(), (w * x[2]).sin(), (w * x[3]).sin()];
    let mut s = 0.0;
    for i in 0..4 {
        s += y[i] * y[i] * w;
    }
    s
}
///The tape of [`recompute_elements`]: what [`recompute_elements_adjoint`] reads, recorded by [`recompute_elements_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct RecomputeElementsTape {}
impl RecomputeElementsTape {
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
impl ::core::default::Default for RecomputeElementsTape {
    fn default() -> Self {
        Self::new()
    }
}
impl RecomputeElementsTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`recompute_elements`] and records in `tape` what [`recompute_elements_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn recompute_elements_forward(
    x: &[f64; 4],
    w: f64,
    tape: &mut RecomputeElementsTape,
) -> f64 {
    let t0 = w * x[0];
    let t1 = t0.sin();
    let t2 = w * x[1];
    let t3 = t2.sin();
    let t4 = w * x[2];
    let t5 = t4.sin();
    let t6 = w * x[3];
    let t7 = t6.sin();
    let y: [f64; 4] = [t1, t3, t5, t7];
    let mut s: f64 = 0.0;
    for i in (0..4) {
        let t8 = y[i] * y[i];
        let t9 = t8 * w;
        s = s + t9;
    }
    s
}
/**The reverse sweep of [`recompute_elements`]: adds `d_out` times the derivative of `recompute_elements` with respect to `x`, `w` into `d_x`, `d_w`.

`tape` must have been filled by [`recompute_elements_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn recompute_elements_adjoint(
    x: &[f64; 4],
    w: f64,
    tape: &RecomputeElementsTape,
    d_out: f64,
    d_x: &mut [f64; 4],
    d_w: &mut f64,
) {
    let mut d_y: [f64; 4] = [0.0; 4];
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k0, i) in (0..4).enumerate().rev() {
        let d_t9: f64 = d_s;
        let y_again: [f64; 4] = [
            (w * x[0]).sin(),
            (w * x[1]).sin(),
            (w * x[2]).sin(),
            (w * x[3]).sin(),
        ];
        let d_t8: f64 = d_t9 * w;
        *d_w += d_t9 * (y_again[i] * y_again[i]);
        d_y[i] += d_t8 * 2.0 * y_again[i];
    }
    let d_t1: f64 = d_y[0];
    let d_t3: f64 = d_y[1];
    let d_t5: f64 = d_y[2];
    let d_t7: f64 = d_y[3];
    let d_t6: f64 = d_t7 * (w * x[3]).cos();
    *d_w += d_t6 * x[3];
    d_x[3] += d_t6 * w;
    let d_t4: f64 = d_t5 * (w * x[2]).cos();
    *d_w += d_t4 * x[2];
    d_x[2] += d_t4 * w;
    let d_t2: f64 = d_t3 * (w * x[1]).cos();
    *d_w += d_t2 * x[1];
    d_x[1] += d_t2 * w;
    let d_t0: f64 = d_t1 * (w * x[0]).cos();
    *d_w += d_t0 * x[0];
    d_x[0] += d_t0 * w;
}
///The value of [`recompute_elements`] and its gradient with respect to `x`, `w`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn recompute_elements_grad(x: &[f64; 4], w: f64) -> (f64, ([f64; 4], f64)) {
    let mut tape = <RecomputeElementsTape>::new();
    let value = recompute_elements_forward(x, w, &mut tape);
    let mut d_x: [f64; 4] = [0.0; 4];
    let mut d_w: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        let mut d_y: [f64; 4] = [0.0; 4];
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k0, i) in (0..4).enumerate().rev() {
            let d_t9: f64 = d_s;
            let y_again: [f64; 4] = [
                (w * x[0]).sin(),
                (w * x[1]).sin(),
                (w * x[2]).sin(),
                (w * x[3]).sin(),
            ];
            let d_t8: f64 = d_t9 * w;
            *d_w += d_t9 * (y_again[i] * y_again[i]);
            d_y[i] += d_t8 * 2.0 * y_again[i];
        }
        let d_t1: f64 = d_y[0];
        let d_t3: f64 = d_y[1];
        let d_t5: f64 = d_y[2];
        let d_t7: f64 = d_y[3];
        let d_t6: f64 = d_t7 * (w * x[3]).cos();
        *d_w += d_t6 * x[3];
        d_x[3] = d_t6 * w;
        let d_t4: f64 = d_t5 * (w * x[2]).cos();
        *d_w += d_t4 * x[2];
        d_x[2] += d_t4 * w;
        let d_t2: f64 = d_t3 * (w * x[1]).cos();
        *d_w += d_t2 * x[1];
        d_x[1] += d_t2 * w;
        let d_t0: f64 = d_t1 * (w * x[0]).cos();
        *d_w += d_t0 * x[0];
        d_x[0] += d_t0 * w;
    }
    (value, (d_x, d_w))
}
const _: fn(&[f64; 4], f64) -> f64 = recompute_elements;
///The call contract of [`recompute_elements`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `recompute_elements`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `recompute_elements`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `recompute_elements::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait RecomputeElementsCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> RecomputeElementsCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = RecomputeElementsTape;
}
#[doc(hidden)]
pub trait RecomputeElementsSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RecomputeElementsSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RecomputeElementsSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`recompute_elements_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`RecomputeElementsTape`] through `RecomputeElementsCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn recompute_elements_adjoint_call<'__stackgrad>(
    x: &[f64; 4],
    w: f64,
    tape: &RecomputeElementsTape,
    d_out: f64,
    __stackgrad_d0: impl RecomputeElementsSlot<'__stackgrad, [f64; 4]>,
    __stackgrad_d1: impl RecomputeElementsSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f64; 4];
    let __stackgrad_d0: &mut [f64; 4] = match RecomputeElementsSlot::slot(
        __stackgrad_d0,
    ) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match RecomputeElementsSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    recompute_elements_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `recompute_elements`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait RecomputeElementsZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl RecomputeElementsZero0 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
