/// An array defined element by element from parameters and read in a triangular loop (the shape
/// of ADBench GMM's centred point): nothing of `c` is recorded; the reverse sweep computes it
/// again once per row, with `::core::array::from_fn`, before the reversed loops that read it.
pub fn centred<const D: usize>(x: &[[f64; D]; 4], m: &[f64; D], l: &[f64; D]) -> f64 {
    let mut total = 0.0;
    for i in 0..4 {
        let mut c = [0.0; D];
        for d in 0..D {
            c[d] = x[i][d] - m[d];
        }
        let mut q = 0.0;
        for a in 0..D {
            for b in a..D {
                q += c[a] * c[b] * l[b];
            }
        }
        total += (0.5 * q).tanh();
    }
    total
}
///The tape of [`centred`]: what [`centred_adjoint`] reads, recorded by [`centred_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct CentredTape<const D: usize> {
    ///`t3 = t2.tanh()` (line 18)
    t3: [f64; 4],
    ///The const parameters (zero-sized).
    const_params: ([(); D],),
}
impl<const D: usize> CentredTape<D> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "t3",
            "t3 = t2.tanh() (line 18)",
            "[f64 ; 4]",
            ::core::mem::size_of::<[f64; 4]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            t3: [0.0; 4],
            const_params: ([(); D],),
        }
    }
}
impl<const D: usize> ::core::default::Default for CentredTape<D> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const D: usize> CentredTape<D> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`centred`] and records in `tape` what [`centred_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn centred_forward<const D: usize>(
    x: &[[f64; D]; 4],
    m: &[f64; D],
    l: &[f64; D],
    tape: &mut CentredTape<D>,
) -> f64 {
    let _ = centred::<D>;
    let mut total: f64 = 0.0;
    for (k0, i) in (0..4).enumerate() {
        let mut c: [f64; D] = [0.0; D];
        for d in (0..D) {
            c[d] = x[i][d] - m[d];
        }
        let mut q: f64 = 0.0;
        for a in (0..D) {
            for b in (a..D) {
                let t0 = c[a] * c[b];
                let t1 = t0 * l[b];
                q = q + t1;
            }
        }
        let t2 = 0.5 * q;
        let t3 = t2.tanh();
        tape.t3[k0] = t3;
        total = total + t3;
    }
    total
}
/**The reverse sweep of [`centred`]: adds `d_out` times the derivative of `centred` with respect to `x`, `m`, `l` into `d_x`, `d_m`, `d_l`.

`tape` must have been filled by [`centred_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn centred_adjoint<const D: usize>(
    x: &[[f64; D]; 4],
    m: &[f64; D],
    l: &[f64; D],
    tape: &CentredTape<D>,
    d_out: f64,
    d_x: &mut [[f64; D]; 4],
    d_m: &mut [f64; D],
    d_l: &mut [f64; D],
) {
    let mut d_total: f64 = -0.0;
    let mut d_c: [f64; D] = [0.0; D];
    let mut d_q: f64 = -0.0;
    d_total += d_out;
    for (k0, i) in (0..4).enumerate().rev() {
        let c_1: [f64; D] = ::core::array::from_fn(|d| (x[i][d] - m[d]));
        let d_t3: f64 = d_total;
        let d_t2: f64 = d_t3 * (1.0 - tape.t3[k0] * tape.t3[k0]);
        d_q += d_t2 * 0.5_f64;
        for (k2, a) in (0..D).enumerate().rev() {
            for (k3, b) in (a..D).enumerate().rev() {
                let d_t1: f64 = d_q;
                let d_t0: f64 = d_t1 * l[b];
                d_l[b] += d_t1 * (c_1[a] * c_1[b]);
                d_c[a] += d_t0 * c_1[b];
                d_c[b] += d_t0 * c_1[a];
            }
        }
        let d_q_1: f64 = d_q;
        d_q = -0.0;
        for (k1, d) in (0..D).enumerate().rev() {
            let d_c_1: f64 = d_c[d];
            d_c[d] = -0.0;
            d_x[i][d] += d_c_1;
            d_m[d] += -d_c_1;
        }
        let d_c_2: [f64; D] = d_c;
        d_c = [0.0; D];
    }
}
///The value of [`centred`] and its gradient with respect to `x`, `m`, `l`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn centred_grad<const D: usize>(
    x: &[[f64; D]; 4],
    m: &[f64; D],
    l: &[f64; D],
) -> (f64, ([[f64; D]; 4], [f64; D], [f64; D])) {
    let mut tape = <CentredTape<D>>::new();
    let value = centred_forward(x, m, l, &mut tape);
    let mut d_x: [[f64; D]; 4] = [[0.0; D]; 4];
    let mut d_m: [f64; D] = [0.0; D];
    let mut d_l: [f64; D] = [0.0; D];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_m = &mut d_m;
        let d_l = &mut d_l;
        let mut d_total: f64 = -0.0;
        let mut d_c: [f64; D] = [0.0; D];
        let mut d_q: f64 = -0.0;
        d_total += d_out;
        for (k0, i) in (0..4).enumerate().rev() {
            let c_1: [f64; D] = ::core::array::from_fn(|d| (x[i][d] - m[d]));
            let d_t3: f64 = d_total;
            let d_t2: f64 = d_t3 * (1.0 - tape.t3[k0] * tape.t3[k0]);
            d_q += d_t2 * 0.5_f64;
            for (k2, a) in (0..D).enumerate().rev() {
                for (k3, b) in (a..D).enumerate().rev() {
                    let d_t1: f64 = d_q;
                    let d_t0: f64 = d_t1 * l[b];
                    d_l[b] += d_t1 * (c_1[a] * c_1[b]);
                    d_c[a] += d_t0 * c_1[b];
                    d_c[b] += d_t0 * c_1[a];
                }
            }
            let d_q_1: f64 = d_q;
            d_q = -0.0;
            for (k1, d) in (0..D).enumerate().rev() {
                let d_c_1: f64 = d_c[d];
                d_c[d] = -0.0;
                d_x[i][d] = d_c_1;
                d_m[d] += -d_c_1;
            }
            let d_c_2: [f64; D] = d_c;
            d_c = [0.0; D];
        }
    }
    (value, (d_x, d_m, d_l))
}
///The call contract of [`centred`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `centred`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `centred`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `centred::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait CentredCall<
    A0: ?::core::marker::Sized,
    A1: ?::core::marker::Sized,
    A2: ?::core::marker::Sized,
> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<const D: usize> CentredCall<[[f64; D]; 4], [f64; D], [f64; D]> for () {
    type Out = f64;
    type Tape = CentredTape<D>;
}
#[doc(hidden)]
pub trait CentredSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> CentredSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> CentredSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`centred_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`CentredTape`] through `CentredCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn centred_adjoint_call<'__stackgrad, const D: usize>(
    x: &[[f64; D]; 4],
    m: &[f64; D],
    l: &[f64; D],
    tape: &CentredTape<D>,
    d_out: f64,
    __stackgrad_d0: impl CentredSlot<'__stackgrad, [[f64; D]; 4]>,
    __stackgrad_d1: impl CentredSlot<'__stackgrad, [f64; D]>,
    __stackgrad_d2: impl CentredSlot<'__stackgrad, [f64; D]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; D]; 4];
    let __stackgrad_d0: &mut [[f64; D]; 4] = match CentredSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; D]; 4];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; D];
    let __stackgrad_d1: &mut [f64; D] = match CentredSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; D];
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: [f64; D];
    let __stackgrad_d2: &mut [f64; D] = match CentredSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = [0.0; D];
            &mut __stackgrad_d2_scratch
        }
    };
    centred_adjoint::<
        D,
    >(x, m, l, tape, d_out, __stackgrad_d0, __stackgrad_d1, __stackgrad_d2);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `centred`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait CentredZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> CentredZero0 for [[f64; D]; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; D]; 4]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `centred`'s parameter `m`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait CentredZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> CentredZero1 for [f64; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; D]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `centred`'s parameter `l`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait CentredZero2 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const D: usize> CentredZero2 for [f64; D] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; D]
    }
}
