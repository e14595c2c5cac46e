/// A call through a module path, early returns in an `if` chain, and `if` as a value.
pub fn branches(x: f64, y: f64) -> f64 {
    let a = inner::g(x) * y;
    if a > 1.0 {
        return a.sqrt();
    } else if a < -1.0 {
        let b = a * a;
        return b;
    }
    let c = if y > 0.0 { y.exp() } else { -y };
    c * a
}
///The tape of [`branches`]: what [`branches_adjoint`] reads, recorded by [`branches_forward`] in fixed-size fields.
#[derive(::core::clone::Clone, ::core::fmt::Debug)]
pub struct BranchesTape {
    ///the tape of the call to `g`
    g: <() as inner::GCall<()>>::Tape,
    ///`t0 = inner::g_forward(x, &mut tape.g)` (line 4)
    t0: f64,
    ///`a` (line 4)
    a: f64,
    ///whether the condition of `if` #0 held
    branch_0: bool,
    ///`t1 = a.sqrt()` (line 6)
    t1: f64,
    ///whether the condition of `if` #1 held
    branch_1: bool,
    ///`t2 = y.exp()` (line 11)
    t2: f64,
    ///`c` (line 11)
    c: f64,
}
impl BranchesTape {
    /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
    /// `bytes()` adds what they hold).
    pub const BYTES: usize = ::core::mem::size_of::<Self>();
    /// Every recorded field, in the order the forward sweep writes it: its name, what
    /// it records, its type and its size in bytes. The sizes add up to
    /// [`Self::BYTES`] up to alignment padding.
    pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
        (
            "g",
            "the tape of the call to g",
            "GTape",
            ::core::mem::size_of::<<() as inner::GCall<()>>::Tape>(),
        ),
        (
            "t0",
            "t0 = inner::g_forward(x, &mut tape.g) (line 4)",
            "f64",
            ::core::mem::size_of::<f64>(),
        ),
        ("a", "a (line 4)", "f64", ::core::mem::size_of::<f64>()),
        (
            "branch_0",
            "whether the condition of if #0 held",
            "bool",
            ::core::mem::size_of::<bool>(),
        ),
        ("t1", "t1 = a.sqrt() (line 6)", "f64", ::core::mem::size_of::<f64>()),
        (
            "branch_1",
            "whether the condition of if #1 held",
            "bool",
            ::core::mem::size_of::<bool>(),
        ),
        ("t2", "t2 = y.exp() (line 11)", "f64", ::core::mem::size_of::<f64>()),
        ("c", "c (line 11)", "f64", ::core::mem::size_of::<f64>()),
    ];
    /// A zeroed tape.
    pub const fn new() -> Self {
        Self {
            g: <<() as inner::GCall<()>>::Tape>::new(),
            t0: 0.0,
            a: 0.0,
            branch_0: false,
            t1: 0.0,
            branch_1: false,
            t2: 0.0,
            c: 0.0,
        }
    }
}
impl ::core::default::Default for BranchesTape {
    fn default() -> Self {
        Self::new()
    }
}
impl BranchesTape {
    /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
    /// over run-time lengths whose iterations carry state) hold on the heap.
    pub fn bytes(&self) -> usize {
        Self::BYTES
    }
}
///Computes [`branches`] and records in `tape` what [`branches_adjoint`] needs.
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn branches_forward(x: f64, y: f64, tape: &mut BranchesTape) -> f64 {
    let t0 = inner::g_forward(x, &mut tape.g);
    tape.t0 = t0;
    let a: f64 = t0 * y;
    tape.a = a;
    tape.branch_0 = a > 1.0;
    if tape.branch_0 {
        let t1 = a.sqrt();
        tape.t1 = t1;
        t1
    } else {
        tape.branch_1 = a < (-1.0);
        if tape.branch_1 {
            let b: f64 = a * a;
            b
        } else {
            let c: f64 = if y > 0.0 {
                let t2 = y.exp();
                tape.t2 = t2;
                t2
            } else {
                -y
            };
            tape.c = c;
            c * a
        }
    }
}
/**The reverse sweep of [`branches`]: adds `d_out` times the derivative of `branches` with respect to `x`, `y` into `d_x`, `d_y`.

`tape` must have been filled by [`branches_forward`] with the same arguments. The adjoints accumulate: zero them first for a plain gradient.*/
#[inline]
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn branches_adjoint(
    x: f64,
    y: f64,
    tape: &BranchesTape,
    d_out: f64,
    d_x: &mut f64,
    d_y: &mut f64,
) {
    let mut d_a: f64 = -0.0;
    let mut d_b: f64 = -0.0;
    let mut d_c: f64 = -0.0;
    if tape.branch_0 {
        d_a += d_out * 0.5 / tape.t1;
    } else {
        if tape.branch_1 {
            d_b += d_out;
            d_a += d_b * 2.0 * tape.a;
        } else {
            d_c += d_out * tape.a;
            d_a += d_out * tape.c;
            if (y > 0.0) {
                *d_y += d_c * tape.t2;
            } else {
                *d_y += -d_c;
            }
        }
    }
    let d_t0: f64 = d_a * y;
    *d_y += d_a * tape.t0;
    inner::g_adjoint_call(x, &tape.g, d_t0, &mut *d_x);
}
///The value of [`branches`] and its gradient with respect to `x`, `y`, in parameter order.
#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
pub fn branches_grad(x: f64, y: f64) -> (f64, (f64, f64)) {
    let mut tape = <BranchesTape>::new();
    let value = branches_forward(x, y, &mut tape);
    let mut d_x: f64 = 0.0;
    let mut d_y: f64 = 0.0;
    {
        let tape = &tape;
        let d_out: f64 = 1.0;
        let d_x = &mut d_x;
        let d_y = &mut d_y;
        let mut d_a: f64 = -0.0;
        let mut d_b: f64 = -0.0;
        let mut d_c: f64 = -0.0;
        if tape.branch_0 {
            d_a += d_out * 0.5 / tape.t1;
        } else {
            if tape.branch_1 {
                d_b += d_out;
                d_a += d_b * 2.0 * tape.a;
            } else {
                d_c += d_out * tape.a;
                d_a += d_out * tape.c;
                if (y > 0.0) {
                    *d_y = d_c * tape.t2;
                } else {
                    *d_y = -d_c;
                }
            }
        }
        let d_t0: f64 = d_a * y;
        *d_y += d_a * tape.t0;
        inner::g_adjoint_call(x, &tape.g, d_t0, &mut *d_x);
    }
    (value, (d_x, d_y))
}
const _: fn(f64, f64) -> f64 = branches;
///The call contract of [`branches`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `branches`'s constants.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` caller cannot tell `branches`'s constants from the types of the arguments it passes",
    label = "this call",
    note = "name them at the call, as in `branches::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
)]
pub trait BranchesCall<A0: ?::core::marker::Sized, A1: ?::core::marker::Sized> {
    /// What the function returns.
    type Out;
    /// The tape its forward sweep records.
    type Tape;
}
impl<__A0: ?::core::marker::Sized, __A1: ?::core::marker::Sized> BranchesCall<__A0, __A1>
for () {
    type Out = f64;
    type Tape = BranchesTape;
}
#[doc(hidden)]
pub trait BranchesSlot<'__stackgrad, T: ?::core::marker::Sized + '__stackgrad> {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T>;
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> BranchesSlot<'__stackgrad, T> for &'__stackgrad mut T {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::Some(self)
    }
}
impl<
    '__stackgrad,
    T: ?::core::marker::Sized + '__stackgrad,
> BranchesSlot<'__stackgrad, T> for () {
    fn slot(self) -> ::core::option::Option<&'__stackgrad mut T> {
        ::core::option::Option::None
    }
}
///[`branches_adjoint`] with one slot per parameter, called by `#[differentiable]` callers that name [`BranchesTape`] through `BranchesCall`: `&mut d` or `()` for a differentiated parameter, `()` for any other.
#[inline]
#[allow(
    unused_mut,
    unused_variables,
    clippy::too_many_arguments,
    clippy::needless_lifetimes
)]
pub fn branches_adjoint_call<'__stackgrad>(
    x: f64,
    y: f64,
    tape: &BranchesTape,
    d_out: f64,
    __stackgrad_d0: impl BranchesSlot<'__stackgrad, f64>,
    __stackgrad_d1: impl BranchesSlot<'__stackgrad, f64>,
) {
    let mut __stackgrad_d0_scratch: f64;
    let __stackgrad_d0: &mut f64 = match BranchesSlot::slot(__stackgrad_d0) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d0_scratch = 0.0;
            &mut __stackgrad_d0_scratch
        }
    };
    let mut __stackgrad_d1_scratch: f64;
    let __stackgrad_d1: &mut f64 = match BranchesSlot::slot(__stackgrad_d1) {
        ::core::option::Option::Some(d) => d,
        ::core::option::Option::None => {
            __stackgrad_d1_scratch = 0.0;
            &mut __stackgrad_d1_scratch
        }
    };
    branches_adjoint(x, y, tape, d_out, __stackgrad_d0, __stackgrad_d1);
}
