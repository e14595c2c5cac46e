fn triangle(l: &[f64], x: &[f64]) -> f64 {
    let d = x.len();
    let mut total = 0.0;
    for a in 0..d {
        let col = a * (2 * d - a - 1) / 2;
        for b in a + 1..d {
            total += l[col + b - a - 1] * x[a] * x[b];
        }
    }
    total
}
///The tape of [`triangle`]: what [`triangle_adjoint`] reads, recorded by [`triangle_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct TriangleTape {}
impl TriangleTape {
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
impl ::core::default::Default for TriangleTape {
    fn default() -> Self {
        Self::new()
    }
}
impl TriangleTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///One iteration's tape of checkpointed loop #0 of [`triangle`]: [`triangle_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct TriangleLoop0Tape {}
impl TriangleLoop0Tape {
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
impl ::core::default::Default for TriangleLoop0Tape {
    fn default() -> Self {
        Self::new()
    }
}
///One iteration's tape of checkpointed loop #1 of [`triangle`]: [`triangle_adjoint`] fills it again for each iteration, from the state saved before it.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
struct TriangleLoop1Tape {}
impl TriangleLoop1Tape {
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
impl ::core::default::Default for TriangleLoop1Tape {
    fn default() -> Self {
        Self::new()
    }
}
///Computes [`triangle`] and records in `tape` what [`triangle_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn triangle_forward(l: &[f64], x: &[f64], tape: &mut TriangleTape) -> f64 {
    let d: usize = x.len();
    let mut total: f64 = 0.0;
    for a in (0..d) {
        let col: usize = (a * (((2 * d) - a) - 1)) / 2;
        for b in (a + 1..d) {
            let t0 = l[((col + b) - a) - 1] * x[a];
            let t1 = t0 * x[b];
            total = total + t1;
        }
    }
    total
}
///[`triangle_forward`], except that where [`triangle_forward`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn triangle_try_forward(
    l: &[f64],
    x: &[f64],
    tape: &mut TriangleTape,
) -> ::core::result::Result<f64, &'static str> {
    ::core::result::Result::Ok({
        let d: usize = x.len();
        let mut total: f64 = 0.0;
        for a in (0..d) {
            let col: usize = (a * (((2 * d) - a) - 1)) / 2;
            for b in (a + 1..d) {
                let t0 = (*l
                    .get(((col + b) - a) - 1)
                    .ok_or("an index is outside the slice `l`")?)
                    * (*x.get(a).ok_or("an index is outside the slice `x`")?);
                let t1 = t0 * (*x.get(b).ok_or("an index is outside the slice `x`")?);
                total = total + t1;
            }
        }
        total
    })
}
/**The reverse sweep of [`triangle`]: adds `d_out` times the derivative of `triangle` with respect to `l`, `x` into `d_l`, `d_x`.

`tape` must have been filled by [`triangle_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn triangle_adjoint(
    l: &[f64],
    x: &[f64],
    tape: &TriangleTape,
    d_out: f64,
    d_l: &mut [f64],
    d_x: &mut [f64],
) {
    if d_l.len() != l.len() {
        ::core::panic!(
            "triangle: the gradient buffer `d_l` has {} elements, but `l` has {}: pass one of the slice's length",
            d_l.len(), l.len()
        );
    }
    if d_x.len() != x.len() {
        ::core::panic!(
            "triangle: the gradient buffer `d_x` has {} elements, but `x` has {}: pass one of the slice's length",
            d_x.len(), x.len()
        );
    }
    let mut d_total: f64 = -0.0;
    d_total += d_out;
    {
        let d: usize = (x.len());
        let mut total: f64 = 0.0;
        for (k0, a) in (0..(x.len())).enumerate().rev() {
            let mut step0 = <TriangleLoop0Tape>::new();
            {
                let mut total: f64 = 0.0;
                let col: usize = ((a * (((2 * (x.len())) - a) - 1)) / 2);
                let row_start: usize = a + 1;
                let row_len: usize = {
                    let __end: usize = (x.len());
                    __end.saturating_sub(row_start)
                };
                let row_base: usize = if row_len > 0 {
                    ((((a * (((2 * (x.len())) - a) - 1)) / 2) + row_start) - a) - 1
                } else {
                    0
                };
                let l_row = &l[row_base..row_base + row_len];
                let d_l_row = &mut d_l[row_base..row_base + row_len];
                for (k1, b) in (a + 1..(x.len())).enumerate().rev() {
                    let mut step1 = <TriangleLoop1Tape>::new();
                    let d_t1: f64 = d_total;
                    let d_t0: f64 = d_t1 * x[b];
                    d_x[b] += d_t1 * (l_row[b - row_start] * x[a]);
                    d_l_row[b - row_start] += d_t0 * x[a];
                    d_x[a] += d_t0 * l_row[b - row_start];
                }
            }
        }
    }
}
///The value of [`triangle`] and its gradient with respect to `l`, `x`, in parameter order. The gradient with respect to each slice is written into the buffer after the arguments (of the slice's length; it is zeroed first), and the others are returned.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
fn triangle_grad(l: &[f64], x: &[f64], d_l: &mut [f64], d_x: &mut [f64]) -> (f64, ()) {
    if d_l.len() != l.len() {
        ::core::panic!(
            "triangle: the gradient buffer `d_l` has {} elements, but `l` has {}: pass one of the slice's length",
            d_l.len(), l.len()
        );
    }
    if d_x.len() != x.len() {
        ::core::panic!(
            "triangle: the gradient buffer `d_x` has {} elements, but `x` has {}: pass one of the slice's length",
            d_x.len(), x.len()
        );
    }
    for e in d_l.iter_mut() {
        *e = 0.0;
    }
    for e in d_x.iter_mut() {
        *e = 0.0;
    }
    let mut tape = <TriangleTape>::new();
    let value: f64;
    {
        let d_out: f64 = 1.0;
        let mut d_total: f64 = -0.0;
        value = {
            let tape = &mut tape;
            let d: usize = x.len();
            let mut total: f64 = 0.0;
            d_total = d_out;
            for (k0, a) in (0..d).enumerate() {
                let mut step0 = <TriangleLoop0Tape>::new();
                'rerun0: {
                    let col: usize = (a * (((2 * d) - a) - 1)) / 2;
                    for b in (a + 1..d) {
                        let t0 = l[((col + b) - a) - 1] * x[a];
                        let t1 = t0 * x[b];
                        total = total + t1;
                    }
                }
                {
                    let mut total: f64 = 0.0;
                    let col: usize = ((a * (((2 * (x.len())) - a) - 1)) / 2);
                    let row_start: usize = a + 1;
                    let row_len: usize = {
                        let __end: usize = (x.len());
                        __end.saturating_sub(row_start)
                    };
                    let row_base: usize = if row_len > 0 {
                        ((((a * (((2 * (x.len())) - a) - 1)) / 2) + row_start) - a) - 1
                    } else {
                        0
                    };
                    let l_row = &l[row_base..row_base + row_len];
                    let d_l_row = &mut d_l[row_base..row_base + row_len];
                    for (k1, b) in (a + 1..(x.len())).enumerate().rev() {
                        let mut step1 = <TriangleLoop1Tape>::new();
                        let d_t1: f64 = d_total;
                        let d_t0: f64 = d_t1 * x[b];
                        d_x[b] += d_t1 * (l_row[b - row_start] * x[a]);
                        d_l_row[b - row_start] += d_t0 * x[a];
                        d_x[a] += d_t0 * l_row[b - row_start];
                    }
                }
            }
            d_total = -0.0;
            total
        };
        let tape = &tape;
        d_total += d_out;
    }
    (value, ())
}
const _: fn(&[f64], &[f64]) -> f64 = triangle;
///The call contract of [`triangle`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `triangle`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `triangle`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `triangle::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
trait TriangleCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> TriangleCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = TriangleTape;
}
#[doc(hidden)]
trait TriangleSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> TriangleSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> TriangleSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`triangle` differentiates its slice parameter `l`, and this call passes no derivative buffer for it",
    label = "this call",
    note = "a zero one of the slice's run-time length would need an allocation: differentiate the argument in the caller too (its `wrt(..)`), or leave `l` out of `triangle`'s `wrt(..)`"
)]
trait TriangleSliceBufferL<'__stackgrad, S: ?::core::marker::Sized + '__stackgrad> {
    fn slice(self) -> &'__stackgrad mut S;
}
impl<
    '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> TriangleSliceBufferL<'__stackgrad, S> for &'__stackgrad mut S {
    fn slice(self) -> &'__stackgrad mut S {
        self
    }
}
impl<
    '__stackgrad,
    '__stackgrad_b: '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> TriangleSliceBufferL<'__stackgrad, S> for &'__stackgrad mut &'__stackgrad_b mut S {
    fn slice(self) -> &'__stackgrad mut S {
        &mut **self
    }
}
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`triangle` differentiates its slice parameter `x`, and this call passes no derivative buffer for it",
    label = "this call",
    note = "a zero one of the slice's run-time length would need an allocation: differentiate the argument in the caller too (its `wrt(..)`), or leave `x` out of `triangle`'s `wrt(..)`"
)]
trait TriangleSliceBufferX<'__stackgrad, S: ?::core::marker::Sized + '__stackgrad> {
    fn slice(self) -> &'__stackgrad mut S;
}
impl<
    '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> TriangleSliceBufferX<'__stackgrad, S> for &'__stackgrad mut S {
    fn slice(self) -> &'__stackgrad mut S {
        self
    }
}
impl<
    '__stackgrad,
    '__stackgrad_b: '__stackgrad,
    S: ?::core::marker::Sized + '__stackgrad,
> TriangleSliceBufferX<'__stackgrad, S> for &'__stackgrad mut &'__stackgrad_b mut S {
    fn slice(self) -> &'__stackgrad mut S {
        &mut **self
    }
}
///[`triangle_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`TriangleTape`] through `TriangleCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
fn triangle_adjoint_call<'__stackgrad>(
    l: &[f64],
    x: &[f64],
    tape: &TriangleTape,
    d_out: f64,
    __stackgrad_d0: impl TriangleSliceBufferL<'__stackgrad, [f64]>,
    __stackgrad_d1: impl TriangleSliceBufferX<'__stackgrad, [f64]>,
) {
    let __stackgrad_d0: &mut [f64] = TriangleSliceBufferL::slice(__stackgrad_d0);
    let __stackgrad_d1: &mut [f64] = TriangleSliceBufferX::slice(__stackgrad_d1);
    triangle_adjoint(l, x, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
