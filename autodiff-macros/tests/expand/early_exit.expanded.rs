/// `break` and `iter_mut`: the tape records the trip count and the branch taken.
pub fn early_exit(x: &[f64; 6]) -> f64 {
    let mut y = *x;
    for v in y.iter_mut() {
        *v = v.tanh();
    }
    let mut s = 0.0;
    for i in 0..6 {
        if s > 2.0 {
            break;
        }
        s += y[i] * y[i];
    }
    s
}
///The tape of [`early_exit`]: what [`early_exit_adjoint`] reads, recorded by [`early_exit_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct EarlyExitTape {
    ///`y` (line 4) after an assignment
    y_1: [f64; 6],
    ///`y` (line 4) after its last write
    y: [f64; 6],
    ///how many iterations loop #1 ran
    trips_1: usize,
    ///whether the condition of `if` #0 held
    branch_0: [bool; 6],
}
impl EarlyExitTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "y_1",
            "y (line 4) after an assignment",
            "[f64 ; 6]",
            ::core::mem::size_of::<[f64; 6]>(),
        ),
        (
            "y",
            "y (line 4) after its last write",
            "[f64 ; 6]",
            ::core::mem::size_of::<[f64; 6]>(),
        ),
        (
            "trips_1",
            "how many iterations loop #1 ran",
            "usize",
            ::core::mem::size_of::<usize>(),
        ),
        (
            "branch_0",
            "whether the condition of if #0 held",
            "[bool ; 6]",
            ::core::mem::size_of::<[bool; 6]>(),
        ),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            y_1: [0.0; 6],
            y: [0.0; 6],
            trips_1: 0,
            branch_0: [false; 6],
        }
    }
}
impl ::core::default::Default for EarlyExitTape {
    fn default() -> Self {
        Self::new()
    }
}
impl EarlyExitTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`early_exit`] and records in `tape` what [`early_exit_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn early_exit_forward(x: &[f64; 6], tape: &mut EarlyExitTape) -> f64 {
    let mut y: [f64; 6] = (*x);
    for (k0, i) in (0..6).enumerate() {
        y[i] = y[i].tanh();
        tape.y_1[k0] = y[i];
    }
    tape.y = y;
    let mut s: f64 = 0.0;
    tape.trips_1 = 0;
    for (k1, i_1) in (0..6).enumerate() {
        tape.trips_1 = k1 + 1;
        tape.branch_0[k1] = s > 2.0;
        if tape.branch_0[k1] {
            break;
        } else {
            let t0 = y[i_1] * y[i_1];
            s = s + t0;
        }
    }
    s
}
/**The reverse sweep of [`early_exit`]: adds `d_out` times the derivative of `early_exit` with respect to `x` into `d_x`.

`tape` must have been filled by [`early_exit_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn early_exit_adjoint(
    x: &[f64; 6],
    tape: &EarlyExitTape,
    d_out: f64,
    d_x: &mut [f64; 6],
) {
    let mut d_y: [f64; 6] = [0.0; 6];
    let mut d_s: f64 = -0.0;
    d_s += d_out;
    for (k1, i_1) in (0..6).enumerate().take(tape.trips_1).rev() {
        if !tape.branch_0[k1] {
            d_y[i_1] += d_s * 2.0 * tape.y[i_1];
        }
    }
    for (k0, i) in (0..6).enumerate().rev() {
        let d_y_1: f64 = d_y[i];
        d_y[i] = -0.0;
        d_y[i] += d_y_1 * (1.0 - tape.y_1[k0] * tape.y_1[k0]);
    }
    {
        let d_add = d_y;
        for i0 in 0..6 {
            d_x[i0] += d_add[i0];
        }
    }
}
///The value of [`early_exit`] and its gradient with respect to `x`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn early_exit_grad(x: &[f64; 6]) -> (f64, [f64; 6]) {
    let mut tape = <EarlyExitTape>::new();
    let value = early_exit_forward(x, &mut tape);
    let mut d_x: [f64; 6] = [0.0; 6];
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let mut d_y: [f64; 6] = [0.0; 6];
        let mut d_s: f64 = -0.0;
        d_s += d_out;
        for (k1, i_1) in (0..6).enumerate().take(tape.trips_1).rev() {
            if !tape.branch_0[k1] {
                d_y[i_1] += d_s * 2.0 * tape.y[i_1];
            }
        }
        for (k0, i) in (0..6).enumerate().rev() {
            let d_y_1: f64 = d_y[i];
            d_y[i] = -0.0;
            d_y[i] += d_y_1 * (1.0 - tape.y_1[k0] * tape.y_1[k0]);
        }
        {
            let d_add = d_y;
            for i0 in 0..6 {
                d_x[i0] = d_add[i0];
            }
        }
    }
    (value, d_x)
}
const _: fn(&[f64; 6]) -> f64 = early_exit;
///The call contract of [`early_exit`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `early_exit`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `early_exit`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `early_exit::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait EarlyExitCall<A0: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized> EarlyExitCall<__A0> for () {
    type Out = f64;
    type Tape = EarlyExitTape;
}
#[doc(hidden)]
pub trait EarlyExitSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EarlyExitSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> EarlyExitSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`early_exit_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`EarlyExitTape`] through `EarlyExitCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn early_exit_adjoint_call<'__stackgrad>(
    x: &[f64; 6],
    tape: &EarlyExitTape,
    d_out: f64,
    __stackgrad_d0: impl EarlyExitSlot<'__stackgrad, [f64; 6]>,
) {
    let mut __stackgrad_d0_scratch: [f64; 6];
    let __stackgrad_d0: &mut [f64; 6] = match EarlyExitSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 6];
            &mut __stackgrad_d0_scratch
        }
    };
    early_exit_adjoint(x, tape, d_out, __stackgrad_d0);
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `early_exit`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
pub trait EarlyExitZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl EarlyExitZero0 for [f64; 6] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 6]
    }
}
