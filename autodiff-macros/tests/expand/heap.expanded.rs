/// `heap`: the outermost loop level of each field is a `Vec`, sized when the loop starts; the
/// inner levels stay arrays.
pub fn layer<const N: usize>(w: &[[f64; 4]; N], x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        let mut a = 0.0;
        for j in 0..4 {
            a += (w[i][j] * x[j]).sin();
        }
        s += a.tanh();
    }
    s
}
///The tape of [`layer`]: what [`layer_adjoint`] reads, recorded by [`layer_forward`] in fixed-size fields and `Vec`s (of loops over run-time lengths whose iterations carry state, or of every loop under `heap`) sized on first use and reused after.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct LayerTape<const N: usize> {
    ///`t2 = a.tanh()` (line 11)
    t2: __LayerTape_alloc::vec::Vec<f64>,
    ///The const parameters (zero-sized).
    const_params: ([(); N],),
}
impl<const N: usize> LayerTape<N> {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "t2",
            "t2 = a.tanh() (line 11)",
            "__LayerTape_alloc::vec::Vec < f64 >",
            ::core::mem::size_of::<__LayerTape_alloc::vec::Vec<f64>>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            t2: __LayerTape_alloc::vec::Vec::new(),
            const_params: ([(); N],),
        }
    }
}
impl<const N: usize> ::core::default::Default for LayerTape<N> {
    fn default() -> Self {
        Self::new()
    }
}
impl<const N: usize> LayerTape<N> {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES + self.t2.capacity() * ::core::mem::size_of::<f64>()
    }
}
extern crate alloc as __LayerTape_alloc;
///Computes [`layer`] and records in `tape` what [`layer_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn layer_forward<const N: usize>(
    w: &[[f64; 4]; N],
    x: &[f64; 4],
    tape: &mut LayerTape<N>,
) -> f64 {
    let _ = layer::<N>;
    let mut s: f64 = 0.0;
    tape.t2.resize(N, 0.0);
    for (k0, i) in (0..N).enumerate() {
        let mut a: f64 = 0.0;
        for j in (0..4) {
            let t0 = w[i][j] * x[j];
            let t1 = t0.sin();
            a = a + t1;
        }
        let t2 = a.tanh();
        tape.t2[k0] = t2;
        s = s + t2;
    }
    s
}
/**The reverse sweep of [`layer`]: adds `d_out` times the derivative of `layer` with respect to `w`, `x` into `d_w`, `d_x`.

`tape` must have been filled by [`layer_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn layer_adjoint<const N: usize>(
    w: &[[f64; 4]; N],
    x: &[f64; 4],
    tape: &LayerTape<N>,
    d_out: f64,
    d_w: &mut [[f64; 4]; N],
    d_x: &mut [f64; 4],
) {
    let mut d_s: f64 = -0.0;
    let mut d_a: f64 = -0.0;
    d_s += d_out;
    for (k0, i) in (0..N).enumerate().rev() {
        let d_t2: f64 = d_s;
        d_a += d_t2 * (1.0 - tape.t2[k0] * tape.t2[k0]);
        for (k1, j) in (0..4).enumerate().rev() {
            let d_t1: f64 = d_a;
            let d_t0: f64 = d_t1 * (w[i][j] * x[j]).cos();
            d_w[i][j] += d_t0 * x[j];
            d_x[j] += d_t0 * w[i][j];
        }
        let d_a_1: f64 = d_a;
        d_a = -0.0;
    }
}
///The value of [`layer`] and its gradient with respect to `w`, `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn layer_grad<const N: usize>(
    w: &[[f64; 4]; N],
    x: &[f64; 4],
) -> (f64, ([[f64; 4]; N], [f64; 4])) {
    let mut tape = <LayerTape<N>>::new();
    let value = layer_forward(w, x, &mut tape);
    let mut d_w: [[f64; 4]; N] = [[0.0; 4]; N];
    let mut d_x: [f64; 4] = [0.0; 4];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_w = &mut d_w;
        let d_x = &mut d_x;
        let mut d_s: f64 = -0.0;
        let mut d_a: f64 = -0.0;
        d_s += d_out;
        for (k0, i) in (0..N).enumerate().rev() {
            let d_t2: f64 = d_s;
            d_a += d_t2 * (1.0 - tape.t2[k0] * tape.t2[k0]);
            for (k1, j) in (0..4).enumerate().rev() {
                let d_t1: f64 = d_a;
                let d_t0: f64 = d_t1 * (w[i][j] * x[j]).cos();
                d_w[i][j] = d_t0 * x[j];
                d_x[j] += d_t0 * w[i][j];
            }
            let d_a_1: f64 = d_a;
            d_a = -0.0;
        }
    }
    (value, (d_w, d_x))
}
///The call contract of [`layer`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `layer`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `layer`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `layer::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait LayerCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<const N: usize, __A1: ?::core::marker::Sized> LayerCall<[[f64; 4]; N], __A1>
for () {
    type Out = f64;
    type Tape = LayerTape<N>;
}
#[doc(hidden)]
pub trait LayerSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> LayerSlot<'__stackgrad, T>
for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> LayerSlot<'__stackgrad, T>
for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`layer_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`LayerTape`] through `LayerCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn layer_adjoint_call<'__stackgrad, const N: usize>(
    w: &[[f64; 4]; N],
    x: &[f64; 4],
    tape: &LayerTape<N>,
    d_out: f64,
    __stackgrad_d0: impl LayerSlot<'__stackgrad, [[f64; 4]; N]>,
    __stackgrad_d1: impl LayerSlot<'__stackgrad, [f64; 4]>,
) {
    let mut __stackgrad_d0_scratch: [[f64; 4]; N];
    let __stackgrad_d0: &mut [[f64; 4]; N] = match LayerSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [[0.0; 4]; N];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f64; 4];
    let __stackgrad_d1: &mut [f64; 4] = match LayerSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 4];
            &mut __stackgrad_d1_scratch
        }
    };
    layer_adjoint::<N>(w, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `layer`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait LayerZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl<const N: usize> LayerZero0 for [[f64; 4]; N] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [[0.0; 4]; N]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `layer`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait LayerZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl LayerZero1 for [f64; 4] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 4]
    }
}
