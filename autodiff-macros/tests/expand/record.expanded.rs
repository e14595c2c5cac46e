/// `#[record(bf16)]` on an array read whole by a callee's adjoint (widened into a local before
/// the call) and element by element; `#[record(f32)]` on an f64 scalar.
fn recorded(x: &[f32; 8], w: &[f32; 8], y: f64) -> f64 {
    let h: [f32; 8] = scale(x, w[0]);
    let a = dot(&h, w);
    let g = y.sin();
    (a * h[3]) as f64 * g
}
///The tape of [`recorded`]: what [`recorded_adjoint`] reads, recorded by [`recorded_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct RecordedTape {
    ///the tape of the call to `scale`
    scale: <() as ScaleCall<[f32; 8], ()>>::Tape,
    ///`h` (line 6)
    h: [u16; 8],
    ///the tape of the call to `dot`
    dot: <() as DotCall<[f32; 8], [f32; 8]>>::Tape,
    ///`a` (line 7)
    a: f32,
    ///`g` (line 9)
    g: f32,
    ///`t1 = t0 as f64`
    t1: f64,
}
impl RecordedTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "scale",
            "the tape of the call to scale",
            "ScaleTape",
            ::core::mem::size_of::<<() as ScaleCall<[f32; 8], ()>>::Tape>(),
        ),
        ("h", "h (line 6)", "[u16 ; 8]", ::core::mem::size_of::<[u16; 8]>()),
        (
            "dot",
            "the tape of the call to dot",
            "DotTape",
            ::core::mem::size_of::<<() as DotCall<[f32; 8], [f32; 8]>>::Tape>(),
        ),
        ("a", "a (line 7)", "f32", ::core::mem::size_of::<f32>()),
        ("g", "g (line 9)", "f32", ::core::mem::size_of::<f32>()),
        ("t1", "t1 = t0 as f64", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            scale: <<() as ScaleCall<[f32; 8], ()>>::Tape>::new(),
            h: [0; 8],
            dot: <<() as DotCall<[f32; 8], [f32; 8]>>::Tape>::new(),
            a: 0.0,
            g: 0.0,
            t1: 0.0,
        }
    }
}
impl ::core::default::Default for RecordedTape {
    fn default() -> Self {
        Self::new()
    }
}
impl RecordedTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`recorded`] and records in `tape` what [`recorded_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn recorded_forward(x: &[f32; 8], w: &[f32; 8], y: f64, tape: &mut RecordedTape) -> f64 {
    let h: [f32; 8] = scale_forward(x, w[0], &mut tape.scale);
    {
        let __stackgrad_src = &h;
        let __stackgrad_dst = &mut tape.h;
        for i0 in 0..8 {
            __stackgrad_dst[i0] = {
                let __stackgrad_x = __stackgrad_src[i0];
                {
                    let bits = __stackgrad_x.to_bits();
                    if __stackgrad_x.is_nan() {
                        (bits >> 16) as u16 | 0x40
                    } else {
                        (bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16) as u16
                    }
                }
            };
        }
    }
    let a: f32 = dot_forward(&h, w, &mut tape.dot);
    tape.a = a;
    let g: f64 = y.sin();
    tape.g = {
        let __stackgrad_x = g;
        __stackgrad_x as f32
    };
    let t0 = a * h[3];
    let t1 = t0 as f64;
    tape.t1 = t1;
    t1 * g
}
/**The reverse sweep of [`recorded`]: adds `d_out` times the derivative of `recorded` with respect to `x`, `w`, `y` into `d_x`, `d_w`, `d_y`.

`tape` must have been filled by [`recorded_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn recorded_adjoint(
    x: &[f32; 8],
    w: &[f32; 8],
    y: f64,
    tape: &RecordedTape,
    d_out: f64,
    d_x: &mut [f32; 8],
    d_w: &mut [f32; 8],
    d_y: &mut f64,
) {
    let mut d_h: [f32; 8] = [0.0; 8];
    let mut d_a: f32 = -0.0;
    let mut d_g: f64 = -0.0;
    let d_t1: f64 = d_out
        * {
            let __stackgrad_x = tape.g;
            f64::from(__stackgrad_x)
        };
    d_g += d_out * tape.t1;
    let d_t0: f32 = d_t1 as f32;
    d_a
        += d_t0
            * {
                let __stackgrad_x = tape.h[3];
                f32::from_bits(u32::from(__stackgrad_x) << 16)
            };
    d_h[3] += d_t0 * tape.a;
    *d_y += d_g * y.cos();
    let mut h_wide: [f32; 8] = [0.0; 8];
    {
        let __stackgrad_src = &tape.h;
        let __stackgrad_dst = &mut h_wide;
        for i0 in 0..8 {
            __stackgrad_dst[i0] = {
                let __stackgrad_x = __stackgrad_src[i0];
                f32::from_bits(u32::from(__stackgrad_x) << 16)
            };
        }
    }
    dot_adjoint_call(&h_wide, w, &tape.dot, d_a, &mut d_h, &mut *d_w);
    scale_adjoint_call(x, w[0], &tape.scale, &d_h, &mut *d_x, &mut d_w[0]);
}
///The value of [`recorded`] and its gradient with respect to `x`, `w`, `y`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn recorded_grad(
    x: &[f32; 8],
    w: &[f32; 8],
    y: f64,
) -> (f64, ([f32; 8], [f32; 8], f64)) {
    let mut tape = <RecordedTape>::new();
    let value = recorded_forward(x, w, y, &mut tape);
    let mut d_x: [f32; 8] = [0.0; 8];
    let mut d_w: [f32; 8] = [0.0; 8];
    let mut d_y: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_w = &mut d_w;
        let d_y = &mut d_y;
        let mut d_h: [f32; 8] = [0.0; 8];
        let mut d_a: f32 = -0.0;
        let mut d_g: f64 = -0.0;
        let d_t1: f64 = d_out
            * {
                let __stackgrad_x = tape.g;
                f64::from(__stackgrad_x)
            };
        d_g += d_out * tape.t1;
        let d_t0: f32 = d_t1 as f32;
        d_a
            += d_t0
                * {
                    let __stackgrad_x = tape.h[3];
                    f32::from_bits(u32::from(__stackgrad_x) << 16)
                };
        d_h[3] += d_t0 * tape.a;
        *d_y = d_g * y.cos();
        let mut h_wide: [f32; 8] = [0.0; 8];
        {
            let __stackgrad_src = &tape.h;
            let __stackgrad_dst = &mut h_wide;
            for i0 in 0..8 {
                __stackgrad_dst[i0] = {
                    let __stackgrad_x = __stackgrad_src[i0];
                    f32::from_bits(u32::from(__stackgrad_x) << 16)
                };
            }
        }
        dot_adjoint_call(&h_wide, w, &tape.dot, d_a, &mut d_h, &mut *d_w);
        scale_adjoint_call(x, w[0], &tape.scale, &d_h, &mut *d_x, &mut d_w[0]);
    }
    (value, (d_x, d_w, d_y))
}
const _: fn(&[f32; 8], &[f32; 8], f64) -> f64 = recorded;
///The call contract of [`recorded`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `recorded`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `recorded`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `recorded::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait RecordedCall<
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
> RecordedCall<__A0, __A1, __A2> for () {
    type Out = f64;
    type Tape = RecordedTape;
}
#[doc(hidden)]
trait RecordedSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RecordedSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> RecordedSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`recorded_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`RecordedTape`] through `RecordedCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn recorded_adjoint_call<'__stackgrad>(
    x: &[f32; 8],
    w: &[f32; 8],
    y: f64,
    tape: &RecordedTape,
    d_out: f64,
    __stackgrad_d0: impl RecordedSlot<'__stackgrad, [f32; 8]>,
    __stackgrad_d1: impl RecordedSlot<'__stackgrad, [f32; 8]>,
    __stackgrad_d2: impl RecordedSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: [f32; 8];
    let __stackgrad_d0: &mut [f32; 8] = match RecordedSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = [0.0; 8];
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: [f32; 8];
    let __stackgrad_d1: &mut [f32; 8] = match RecordedSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = [0.0; 8];
            &mut __stackgrad_d1_scratch
        }
    };
    let mut __stackgrad_d2_scratch: f64;
    let __stackgrad_d2: &mut f64 = match RecordedSlot::slot(__stackgrad_d2) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d2_scratch = 0.0;
            &mut __stackgrad_d2_scratch
        }
    };
    recorded_adjoint(
        x,
        w,
        y,
        tape,
        d_out,
        __stackgrad_d0,
        __stackgrad_d1,
        __stackgrad_d2,
    );
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `recorded`'s parameter `x`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait RecordedZero0 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl RecordedZero0 for [f32; 8] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 8]
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a caller passes `{Self}` on to `recorded`'s parameter `w`, and it has no zero derivative",
    note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)"
)]
trait RecordedZero1 {
    fn __stackgrad_zero_of(&self) -> Self;
}
impl RecordedZero1 for [f32; 8] {
    #[inline]
    fn __stackgrad_zero_of(&self) -> Self {
        [0.0; 8]
    }
}
