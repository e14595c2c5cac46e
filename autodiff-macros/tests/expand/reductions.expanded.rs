/// Iterator reductions become loops: a dot product by `zip`/`map`/`sum`, and a maximum by `fold`.
pub fn reductions<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let d: f64 = a.iter().zip(b.iter()).map(|(p, q)| p * q).sum();
    let m = a.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    d * m
}
///The tape of [`reductions`]: what [`reductions_adjoint`] reads, recorded by [`reductions_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct ReductionsTape<const N: usize> {
    ///`__stackgrad_acc` (line 1) after its last write
    __stackgrad_acc: f64,
    ///`m` (line 5) after an assignment
    m_1: f64,
    ///`m` (line 5) after an assignment
    m_2: [f64; N],
    ///`m` (line 5) after its last write
    m: f64,
    ///The const parameters (zero-sized).
    const_params: ([(); N],),
}
impl<const N: usize> ReductionsTape<N> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "__stackgrad_acc",
            "__stackgrad_acc (line 1) after its last write",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        ("m_1", "m (line 5) after an assignment", "f64", ::core::mem::size_of::<f64>()),
        (
            "m_2",
            "m (line 5) after an assignment",
            "[f64 ; N]",
            ::core::mem::size_of::<[f64; N]>(),
        ),
        ("m", "m (line 5) after its last write", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            __stackgrad_acc: 0.0,
            m_1: 0.0,
            m_2: [0.0; N],
            m: 0.0,
            const_params: ([(); N],),
        }
    }
}
impl<const N: usize> ::core::default::Default for ReductionsTape<N> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const N: usize> ReductionsTape<N> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`reductions`] and records in `tape` what [`reductions_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn reductions_forward<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
    tape: &mut ReductionsTape<N>,
) -> f64 {
    let _ = reductions::<N>;
    let mut __stackgrad_acc: f64 = (-0.0);
    for i in (0..N) {
        let t0 = a[i] * b[i];
        __stackgrad_acc = __stackgrad_acc + t0;
    }
    tape.__stackgrad_acc = __stackgrad_acc;
    let d: f64 = __stackgrad_acc;
    let mut m: f64 = f64::NEG_INFINITY;
    tape.m_1 = m;
    for (k1, i_1) in (0..N).enumerate() {
        m = m.max(a[i_1]);
        tape.m_2[k1] = m;
    }
    tape.m = m;
    let m_1: f64 = m;
    d * m_1
}
/**The reverse sweep of [`reductions`]: adds `d_out` times the derivative of `reductions` with respect to `a`, `b` into `d_a`, `d_b`.

`tape` must have been filled by [`reductions_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn reductions_adjoint<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
    tape: &ReductionsTape<N>,
    d_out: f64,
    d_a: &mut [f64; N],
    d_b: &mut [f64; N],
) {
    let mut d___stackgrad_acc: f64 = -0.0;
    let mut d_d: f64 = -0.0;
    let mut d_m: f64 = -0.0;
    let mut d_m_1: f64 = -0.0;
    d_d += d_out * tape.m;
    d_m_1 += d_out * tape.__stackgrad_acc;
    d_m += d_m_1;
    for (k1, i_1) in (0..N).enumerate().rev() {
        let d_m_2: f64 = d_m;
        d_m = -0.0;
        d_m
            += if (if k1 > 0 { tape.m_2[k1 - 1] } else { tape.m_1 }) >= a[i_1] {
                d_m_2
            } else {
                0.0
            };
        d_a[i_1]
            += if (if k1 > 0 { tape.m_2[k1 - 1] } else { tape.m_1 }) >= a[i_1] {
                0.0
            } else {
                d_m_2
            };
    }
    d___stackgrad_acc += d_d;
    for (k0, i) in (0..N).enumerate().rev() {
        let d_t0: f64 = d___stackgrad_acc;
        d_a[i] += d_t0 * b[i];
        d_b[i] += d_t0 * a[i];
    }
}
///The value of [`reductions`] and its gradient with respect to `a`, `b`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn reductions_grad<const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
) -> (f64, ([f64; N], [f64; N])) {
    let mut tape = <ReductionsTape<N>>::new();
    let value = reductions_forward(a, b, &mut tape);
    let mut d_a: [f64; N] = [0.0; N];
    let mut d_b: [f64; N] = [0.0; N];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_a = &mut d_a;
        let d_b = &mut d_b;
        let mut d___stackgrad_acc: f64 = -0.0;
        let mut d_d: f64 = -0.0;
        let mut d_m: f64 = -0.0;
        let mut d_m_1: f64 = -0.0;
        d_d += d_out * tape.m;
        d_m_1 += d_out * tape.__stackgrad_acc;
        d_m += d_m_1;
        for (k1, i_1) in (0..N).enumerate().rev() {
            let d_m_2: f64 = d_m;
            d_m = -0.0;
            d_m
                += if (if k1 > 0 { tape.m_2[k1 - 1] } else { tape.m_1 }) >= a[i_1] {
                    d_m_2
                } else {
                    0.0
                };
            d_a[i_1] = if (if k1 > 0 { tape.m_2[k1 - 1] } else { tape.m_1 }) >= a[i_1] {
                0.0
            } else {
                d_m_2
            };
        }
        d___stackgrad_acc += d_d;
        for (k0, i) in (0..N).enumerate().rev() {
            let d_t0: f64 = d___stackgrad_acc;
            d_a[i] += d_t0 * b[i];
            d_b[i] = d_t0 * a[i];
        }
    }
    (value, (d_a, d_b))
}
const _: () = {
    #[allow(dead_code, unused_variables, clippy::all)]
    fn only_const_items() {
        if let f64::NEG_INFINITY = f64::NEG_INFINITY {}
    }
};
///The call contract of [`reductions`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `reductions`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `reductions`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `reductions::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait ReductionsCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<const N: usize> ReductionsCall<[f64; N], [f64; N]> for () {
    type Out = f64;
    type Tape = ReductionsTape<N>;
}
#[doc(hidden)]
pub trait ReductionsSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ReductionsSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ReductionsSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`reductions_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`ReductionsTape`] through `ReductionsCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn reductions_adjoint_call<'__stackgrad, const N: usize>(
    a: &[f64; N],
    b: &[f64; N],
    tape: &ReductionsTape<N>,
    d_out: f64,
    __stackgrad_d0: impl ReductionsSlot<'__stackgrad, [f64; N]>,
    __stackgrad_d1: impl ReductionsSlot<'__stackgrad, [f64; N]>,
) {
    let mut __stackgrad_d0_scratch: [f64; N];
    let __stackgrad_d0: &mut [f64; N] = match ReductionsSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; N];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; N];
    let __stackgrad_d1: &mut [f64; N] = match ReductionsSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; N];
            &mut __stackgrad_d1_scratch
        }
    };
    reductions_adjoint::<N>(a, b, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `reductions`'s parameter `a`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait ReductionsZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const N: usize> ReductionsZero0 for [f64; N] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; N]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `reductions`'s parameter `b`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait ReductionsZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const N: usize> ReductionsZero1 for [f64; N] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; N]
    }
}
