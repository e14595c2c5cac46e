fn scaled_max(x: &[f64], w: f64) -> f64 {
    let mut m = f64::NEG_INFINITY;
    for v in x.iter() {
        m = m.max(w * v);
    }
    m * m
}
///The tape of [`scaled_max`]: what [`scaled_max_adjoint`] reads, recorded by [`scaled_max_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct ScaledMaxTape {
    ///`m` before checkpointed loop #0
    m_checkpoints: f64,
    ///`m` after loop #0
    m_final: f64,
    ///`m` (line 3) after its last write
    m: f64,
}
impl ScaledMaxTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "m_checkpoints",
            "m before checkpointed loop #0",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        ("m_final", "m after loop #0", "f64", ::core::mem::size_of::<f64>()),
        ("m", "m (line 3) after its last write", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            m_checkpoints: 0.0,
            m_final: 0.0,
            m: 0.0,
        }
    }
}
impl ::core::default::Default for ScaledMaxTape {
    fn default() -> Self {
        Self::new()
    }
}
impl ScaledMaxTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///One iteration's tape of checkpointed loop #0 of [`scaled_max`]: [`scaled_max_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct ScaledMaxLoop0Tape {
    ///`m` (line 3) after its last write
    m_1: f64,
}
impl ScaledMaxLoop0Tape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        ("m_1", "m (line 3) after its last write", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self { m_1: 0.0 }
    }
}
impl ::core::default::Default for ScaledMaxLoop0Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`scaled_max`] and records in `tape` what [`scaled_max_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn scaled_max_forward(x: &[f64], w: f64, tape: &mut ScaledMaxTape) -> f64 {
    let mut m: f64 = f64::NEG_INFINITY;
    tape.m_checkpoints = m;
    for (k0, i) in (0..(x).len()).enumerate() {
        if k0 == 0 {
            tape.m_checkpoints = m;
        }
        let t0 = w * x[i];
        m = m.max(t0);
    }
    tape.m_final = m;
    tape.m = m;
    m * m
}
///[`scaled_max_forward`], except that where [`scaled_max_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn scaled_max_try_forward(
    x: &[f64],
    w: f64,
    tape: &mut ScaledMaxTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let mut m: f64 = f64::NEG_INFINITY;
        tape.m_checkpoints = m;
        for (k0, i) in (0..(x).len()).enumerate() {
            if k0 == 0 {
                tape.m_checkpoints = m;
            }
            let t0 = w * (*x.get(i).ok_or("an index is outside the slice `x`")?);
            m = m.max(t0);
        }
        tape.m_final = m;
        tape.m = m;
        m * m
    })
}
/**The reverse sweep of [`scaled_max`]: adds `d_out` times the derivative of `scaled_max` with respect to `x`, `w` into `d_x`, `d_w`.

`tape` must have been filled by [`scaled_max_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn scaled_max_adjoint(
    x: &[f64],
    w: f64,
    tape: &ScaledMaxTape,
    d_out: f64,
    d_x: &mut [f64],
    d_w: &mut f64,
) {
    if d_x.len() != x.len() {
        ::core::panic!(
            "scaled_max: the gradient buffer `d_x` has {} elements, but `x` has {}: pass one of the slice's length",
            d_x.len(), x.len()
        );
    }
    let mut d_m: f64 = -0.0;
    d_m += d_out * 2.0 * tape.m;
    {
        let mut m: f64 = tape.m_checkpoints;
        let m_final: f64 = tape.m_final;
        let d_m_final: f64 = d_m;
        let m_before: f64 = m;
        let mut m_set_at: usize = 0;
        if m_before != m_final {
            for (k0, i) in (0..(x).len()).enumerate() {
                'advance0: {
                    let t0 = w * x[i];
                    m = m.max(t0);
                }
                if m == m_final {
                    m_set_at = k0 + 1;
                    break;
                }
                m = m_before;
            }
        }
        m = m_before;
        if m_set_at != 0 {
            for (k0, i) in (0..(x).len()).enumerate().skip(m_set_at - 1).take(1) {
                let mut step0 = <ScaledMaxLoop0Tape>::new();
                'rerun0: {
                    step0.m_1 = m;
                    let t0 = w * x[i];
                    m = m.max(t0);
                }
                d_m = if m == m_final { d_m_final } else { -0.0 };
                let d_m_1: f64 = d_m;
                d_m = -0.0;
                d_m += if step0.m_1 >= (w * x[i]) { d_m_1 } else { 0.0 };
                let d_t0: f64 = if step0.m_1 >= (w * x[i]) { 0.0 } else { d_m_1 };
                *d_w += d_t0 * x[i];
                d_x[i] += d_t0 * w;
            }
        }
        d_m = if tape.m_checkpoints == m_final { d_m_final } else { -0.0 };
    }
}
///The value of [`scaled_max`] and its gradient with respect to `x`, `w`, in parameter order. The gradient with respect to each slice is written into the buffer after the arguments (of the slice's length; it is zeroed first), and the others are returned.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn scaled_max_grad(x: &[f64], w: f64, d_x: &mut [f64]) -> (f64, f64) {
    if d_x.len() != x.len() {
        ::core::panic!(
            "scaled_max: the gradient buffer `d_x` has {} elements, but `x` has {}: pass one of the slice's length",
            d_x.len(), x.len()
        );
    }
    for e in d_x.iter_mut() {
        *e = 0.0;
    }
    let mut tape = <ScaledMaxTape>::new();
    let value = scaled_max_forward(x, w, &mut tape);
    let mut d_w: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_w = &mut d_w;
        let mut d_m: f64 = -0.0;
        d_m += d_out * 2.0 * tape.m;
        {
            let mut m: f64 = tape.m_checkpoints;
            let m_final: f64 = tape.m_final;
            let d_m_final: f64 = d_m;
            let m_before: f64 = m;
            let mut m_set_at: usize = 0;
            if m_before != m_final {
                for (k0, i) in (0..(x).len()).enumerate() {
                    'advance0: {
                        let t0 = w * x[i];
                        m = m.max(t0);
                    }
                    if m == m_final {
                        m_set_at = k0 + 1;
                        break;
                    }
                    m = m_before;
                }
            }
            m = m_before;
            if m_set_at != 0 {
                for (k0, i) in (0..(x).len()).enumerate().skip(m_set_at - 1).take(1) {
                    let mut step0 = <ScaledMaxLoop0Tape>::new();
                    'rerun0: {
                        step0.m_1 = m;
                        let t0 = w * x[i];
                        m = m.max(t0);
                    }
                    d_m = if m == m_final { d_m_final } else { -0.0 };
                    let d_m_1: f64 = d_m;
                    d_m = -0.0;
                    d_m += if step0.m_1 >= (w * x[i]) { d_m_1 } else { 0.0 };
                    let d_t0: f64 = if step0.m_1 >= (w * x[i]) { 0.0 } else { d_m_1 };
                    *d_w += d_t0 * x[i];
                    d_x[i] += d_t0 * w;
                }
            }
            d_m = if tape.m_checkpoints == m_final { d_m_final } else { -0.0 };
        }
    }
    (value, d_w)
}
const _: () = {
    #[allow(dead_code, unused_variables, clippy::all)]
    fn only_const_items() {
        if let f64::NEG_INFINITY = f64::NEG_INFINITY {}
    }
};
const _: fn(&[f64], f64) -> f64 = scaled_max;
///The call contract of [`scaled_max`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `scaled_max`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `scaled_max`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `scaled_max::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait ScaledMaxCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<
    __A0: ?::core::marker::Sized,
    __A1: ?::core::marker::Sized,
> ScaledMaxCall<__A0, __A1> for () {
    type Out = f64;
    type Tape = ScaledMaxTape;
}
#[doc(hidden)]
trait ScaledMaxSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ScaledMaxSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> ScaledMaxSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`scaled_max` differentiates its slice parameter `x`, and this call passes no derivative buffer for it",
    label = "this call",
    note = "a zero one of the slice's run-time length would need an allocation: differentiate the argument in the caller too (its `wrt(..)`), or leave `x` out of `scaled_max`'s `wrt(..)`"
)]
trait ScaledMaxSliceBufferX<'__stackgrad, S: ?::core::marker::Sized + '__stackgrad> {
    fn slice(self) -> &'__stackgrad mut S;
}
impl<
    '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> ScaledMaxSliceBufferX<'__stackgrad, S> for &'__stackgrad mut S {
    fn slice(self) -> &'__stackgrad mut S {
        self
    }
}
impl<
    '__stackgrad,
    '__stackgrad_b: '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> ScaledMaxSliceBufferX<'__stackgrad, S> for &'__stackgrad mut &'__stackgrad_b mut S {
    fn slice(self) -> &'__stackgrad mut S {
        &mut **self
    }
}
///[`scaled_max_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`ScaledMaxTape`] through `ScaledMaxCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn scaled_max_adjoint_call<'__stackgrad>(
    x: &[f64],
    w: f64,
    tape: &ScaledMaxTape,
    d_out: f64,
    __stackgrad_d0: impl ScaledMaxSliceBufferX<'__stackgrad, [f64]>,
    __stackgrad_d1: impl ScaledMaxSlot<'__stackgrad, f64>,
) {
    let __stackgrad_d0: &mut [f64] = ScaledMaxSliceBufferX::slice(__stackgrad_d0);
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match ScaledMaxSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    scaled_max_adjoint(x, w, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
