//! Local derivative rules, one per primitive.
//!
//! Each arm below shows the primal line and the adjoint line it produces, with `r` the result,
//! `x` the receiver, `a`, `b` the arguments and `s` the cotangent of `r` (`d_r`). Rules read the
//! result instead of recomputing it where that is exact (`exp`, `sqrt`, `tanh`, ...), and only
//! ever call methods the primal already called (or `sqrt`, `ln`, `cos`, `sin`, `sinh`, `cosh`,
//! `powi`, `powf` of the same family), so a `#![no_std]` crate that provides the primal's methods
//! through a trait also compiles the adjoint.
//!
//! Non-smooth points follow one convention: the derivative is the one-sided value of the branch
//! the primal's comparison selects, and ties go to the receiver. So `abs` has derivative 0 at 0,
//! `x.max(y)` and `x.min(y)` send the whole cotangent to `x` when `x == y`, `x.clamp(lo, hi)`
//! sends it to `x` when `x == lo` or `x == hi`, and `signum` has derivative 0 everywhere.

use proc_macro2::TokenStream;
use quote::quote;

/// What an argument of a method must be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArgKind {
    /// A float of the receiver's type, differentiable.
    Float,
    /// An `i32`, no derivative (the exponent of `powi`).
    Int,
}

pub struct Method {
    pub name: &'static str,
    pub args: &'static [ArgKind],
}

const F: ArgKind = ArgKind::Float;

macro_rules! methods {
    ($($name:literal $args:expr,)*) => {
        /// Every float method the macro differentiates.
        pub static METHODS: &[Method] = &[$(Method { name: $name, args: $args },)*];
    };
}

methods! {
    "exp" &[], "exp2" &[], "exp_m1" &[], "ln" &[], "ln_1p" &[], "log" &[F], "log2" &[],
    "log10" &[], "sqrt" &[], "cbrt" &[], "powi" &[ArgKind::Int], "powf" &[F], "sin" &[],
    "cos" &[], "tan" &[], "asin" &[], "acos" &[], "atan" &[], "atan2" &[F], "sinh" &[],
    "cosh" &[], "tanh" &[], "asinh" &[], "acosh" &[], "atanh" &[], "abs" &[], "signum" &[],
    "max" &[F], "min" &[F], "clamp" &[F, F], "recip" &[], "hypot" &[F], "mul_add" &[F, F],
    "to_degrees" &[], "to_radians" &[],
}

pub fn lookup(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

/// The names, for error messages.
pub fn method_names() -> String {
    METHODS
        .iter()
        .map(|m| format!("`{}`", m.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value a rule reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Which {
    Recv,
    Arg(usize),
    Out,
}

/// The contribution of `s` (the result's cotangent) to the operand `wrt`, or `None` where the
/// derivative is identically zero. `v` yields the primal value of an operand or of the result,
/// `f` is the float type (`f32` or `f64`). `r = x.signum()` has derivative 0; so do integer
/// arguments.
pub fn contribution(
    name: &str,
    wrt: Which,
    s: &TokenStream,
    f: &TokenStream,
    v: &mut dyn FnMut(Which) -> TokenStream,
) -> Option<TokenStream> {
    if name == "powi" && wrt == Which::Recv {
        return powi(s, f, v);
    }
    exp_log_pow(name, wrt, s, f, v)
        .or_else(|| trig(name, wrt, s, f, v))
        .or_else(|| piecewise(name, wrt, s, f, v))
}

/// `r = x.powi(n)`  =>  `d_x += s * n * x.powi(n - 1)` (0 for `n == 0`, also at `x == 0`).
fn powi(
    s: &TokenStream,
    f: &TokenStream,
    v: &mut dyn FnMut(Which) -> TokenStream,
) -> Option<TokenStream> {
    let (x, n) = (v(Which::Recv), v(Which::Arg(0)));
    match syn::parse2::<syn::LitInt>(n.clone()).map(|l| l.base10_parse::<i32>()) {
        Ok(Ok(0)) => None,
        Ok(Ok(_)) => Some(quote!(#s * (#n as #f) * #x.powi(#n - 1))),
        _ => Some(quote!(if #n == 0 { 0.0 } else { #s * (#n as #f) * #x.powi(#n - 1) })),
    }
}

/// Exponentials, logarithms, powers and roots.
fn exp_log_pow(
    name: &str,
    wrt: Which,
    s: &TokenStream,
    f: &TokenStream,
    v: &mut dyn FnMut(Which) -> TokenStream,
) -> Option<TokenStream> {
    use Which::{Arg, Out, Recv};
    let consts = |name: &str| float_const(f, name);
    let t = match (name, wrt) {
        // r = x.exp()          =>  d_x += s * r
        ("exp", Recv) => {
            let r = v(Out);
            quote!(#s * #r)
        }
        // r = x.exp2()         =>  d_x += s * r * LN_2
        ("exp2", Recv) => {
            let r = v(Out);
            let c = consts("LN_2");
            quote!(#s * #r * #c)
        }
        // r = x.exp_m1()       =>  d_x += s * (r + 1)
        ("exp_m1", Recv) => {
            let r = v(Out);
            quote!(#s * (#r + 1.0))
        }
        // r = x.ln()           =>  d_x += s / x
        ("ln", Recv) => {
            let x = v(Recv);
            quote!(#s / #x)
        }
        // r = x.ln_1p()        =>  d_x += s / (1 + x)
        ("ln_1p", Recv) => {
            let x = v(Recv);
            quote!(#s / (1.0 + #x))
        }
        // r = x.log(a)         =>  d_x += s / (x * a.ln());  d_a -= s * r / (a * a.ln())
        ("log", Recv) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(#s / (#x * #a.ln()))
        }
        ("log", Arg(0)) => {
            let (r, a) = (v(Out), v(Arg(0)));
            quote!(-(#s * #r / (#a * #a.ln())))
        }
        // r = x.log2()         =>  d_x += s / (x * LN_2)
        ("log2", Recv) => {
            let x = v(Recv);
            let c = consts("LN_2");
            quote!(#s / (#x * #c))
        }
        // r = x.log10()        =>  d_x += s / (x * LN_10)
        ("log10", Recv) => {
            let x = v(Recv);
            let c = consts("LN_10");
            quote!(#s / (#x * #c))
        }
        // r = x.sqrt()         =>  d_x += s * 0.5 / r
        ("sqrt", Recv) => {
            let r = v(Out);
            quote!(#s * 0.5 / #r)
        }
        // r = x.cbrt()         =>  d_x += s / (3 * r * r)
        ("cbrt", Recv) => {
            let r = v(Out);
            quote!(#s / (3.0 * #r * #r))
        }
        // r = x.powf(a)        =>  d_x += s * a * x.powf(a - 1);  d_a += s * r * x.ln() (x > 0)
        ("powf", Recv) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(#s * #a * #x.powf(#a - 1.0))
        }
        ("powf", Arg(0)) => {
            let (x, r) = (v(Recv), v(Out));
            quote!(if #x > 0.0 { #s * #r * #x.ln() } else { 0.0 })
        }
        _ => return None,
    };
    Some(t)
}

/// For a method whose derivative is another method of the same receiver (`sin`: `cos`), that
/// method and whether the derivative is its negation. Where the primal computes both of one
/// value (`let (c, s) = (theta.cos(), theta.sin());`), the reverse sweep reads the other's
/// value instead of calling it again ([`sibling_contribution`]).
pub fn sibling(name: &str) -> Option<(&'static str, bool)> {
    match name {
        "sin" => Some(("cos", false)),
        "cos" => Some(("sin", true)),
        "sinh" => Some(("cosh", false)),
        "cosh" => Some(("sinh", false)),
        _ => None,
    }
}

/// The receiver's contribution of `r = x.name()` given the value `other` of its sibling
/// ([`sibling`]): `d_x += s * x.cos()` becomes `d_x += s * c`.
pub fn sibling_contribution(negate: bool, s: &TokenStream, other: &TokenStream) -> TokenStream {
    if negate {
        quote!(-(#s * #other))
    } else {
        quote!(#s * #other)
    }
}

/// Trigonometric and hyperbolic functions.
fn trig(
    name: &str,
    wrt: Which,
    s: &TokenStream,
    _f: &TokenStream,
    v: &mut dyn FnMut(Which) -> TokenStream,
) -> Option<TokenStream> {
    use Which::{Arg, Out, Recv};
    let t = match (name, wrt) {
        // r = x.sin()          =>  d_x += s * x.cos()
        ("sin", Recv) => {
            let x = v(Recv);
            quote!(#s * #x.cos())
        }
        // r = x.cos()          =>  d_x -= s * x.sin()
        ("cos", Recv) => {
            let x = v(Recv);
            quote!(-(#s * #x.sin()))
        }
        // r = x.tan()          =>  d_x += s * (1 + r * r)
        ("tan", Recv) => {
            let r = v(Out);
            quote!(#s * (1.0 + #r * #r))
        }
        // r = x.asin()         =>  d_x += s / (1 - x * x).sqrt()
        ("asin", Recv) => {
            let x = v(Recv);
            quote!(#s / (1.0 - #x * #x).sqrt())
        }
        // r = x.acos()         =>  d_x -= s / (1 - x * x).sqrt()
        ("acos", Recv) => {
            let x = v(Recv);
            quote!(-(#s / (1.0 - #x * #x).sqrt()))
        }
        // r = x.atan()         =>  d_x += s / (1 + x * x)
        ("atan", Recv) => {
            let x = v(Recv);
            quote!(#s / (1.0 + #x * #x))
        }
        // r = y.atan2(a)       =>  d_y += s * a / (a*a + y*y);  d_a -= s * y / (a*a + y*y)
        //                          (0 at the origin, where atan2 jumps: like `hypot`)
        ("atan2", Recv) => {
            let (y, a) = (v(Recv), v(Arg(0)));
            quote!(if #a * #a + #y * #y > 0.0 { #s * #a / (#a * #a + #y * #y) } else { 0.0 })
        }
        ("atan2", Arg(0)) => {
            let (y, a) = (v(Recv), v(Arg(0)));
            quote!(if #a * #a + #y * #y > 0.0 { -(#s * #y / (#a * #a + #y * #y)) } else { 0.0 })
        }
        // r = x.sinh()         =>  d_x += s * x.cosh()
        ("sinh", Recv) => {
            let x = v(Recv);
            quote!(#s * #x.cosh())
        }
        // r = x.cosh()         =>  d_x += s * x.sinh()
        ("cosh", Recv) => {
            let x = v(Recv);
            quote!(#s * #x.sinh())
        }
        // r = x.tanh()         =>  d_x += s * (1 - r * r)
        ("tanh", Recv) => {
            let r = v(Out);
            quote!(#s * (1.0 - #r * #r))
        }
        // r = x.asinh()        =>  d_x += s / (x * x + 1).sqrt()
        ("asinh", Recv) => {
            let x = v(Recv);
            quote!(#s / (#x * #x + 1.0).sqrt())
        }
        // r = x.acosh()        =>  d_x += s / (x * x - 1).sqrt()
        ("acosh", Recv) => {
            let x = v(Recv);
            quote!(#s / (#x * #x - 1.0).sqrt())
        }
        // r = x.atanh()        =>  d_x += s / (1 - x * x)
        ("atanh", Recv) => {
            let x = v(Recv);
            quote!(#s / (1.0 - #x * #x))
        }
        _ => return None,
    };
    Some(t)
}

/// Piecewise and linear methods: `abs`, `max`, `min`, `clamp`, `recip`, `hypot`, `mul_add`,
/// degrees and radians.
fn piecewise(
    name: &str,
    wrt: Which,
    s: &TokenStream,
    f: &TokenStream,
    v: &mut dyn FnMut(Which) -> TokenStream,
) -> Option<TokenStream> {
    use Which::{Arg, Out, Recv};
    let consts = |name: &str| float_const(f, name);
    let t = match (name, wrt) {
        // r = x.abs()          =>  d_x += s, -s or 0 for x > 0, x < 0, x == 0
        ("abs", Recv) => {
            let x = v(Recv);
            quote!(if #x > 0.0 { #s } else if #x < 0.0 { -#s } else { 0.0 })
        }
        // r = x.max(a)         =>  d_x += s if x >= a;  d_a += s otherwise
        ("max", Recv) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(if #x >= #a { #s } else { 0.0 })
        }
        ("max", Arg(0)) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(if #x >= #a { 0.0 } else { #s })
        }
        // r = x.min(a)         =>  d_x += s if x <= a;  d_a += s otherwise
        ("min", Recv) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(if #x <= #a { #s } else { 0.0 })
        }
        ("min", Arg(0)) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(if #x <= #a { 0.0 } else { #s })
        }
        // r = x.clamp(a, b)    =>  d_a += s if x < a;  d_b += s if x > b;  d_x += s otherwise
        ("clamp", Recv) => {
            let (x, a, b) = (v(Recv), v(Arg(0)), v(Arg(1)));
            quote!(if #x >= #a && #x <= #b { #s } else { 0.0 })
        }
        ("clamp", Arg(0)) => {
            let (x, a) = (v(Recv), v(Arg(0)));
            quote!(if #x < #a { #s } else { 0.0 })
        }
        ("clamp", Arg(1)) => {
            let (x, b) = (v(Recv), v(Arg(1)));
            quote!(if #x > #b { #s } else { 0.0 })
        }
        // r = x.recip()        =>  d_x -= s * r * r
        ("recip", Recv) => {
            let r = v(Out);
            quote!(-(#s * #r * #r))
        }
        // r = x.hypot(a)       =>  d_x += s * x / r;  d_a += s * a / r  (0 where r == 0)
        ("hypot", Recv) => {
            let (x, r) = (v(Recv), v(Out));
            quote!(if #r > 0.0 { #s * #x / #r } else { 0.0 })
        }
        ("hypot", Arg(0)) => {
            let (a, r) = (v(Arg(0)), v(Out));
            quote!(if #r > 0.0 { #s * #a / #r } else { 0.0 })
        }
        // r = x.mul_add(a, b)  =>  d_x += s * a;  d_a += s * x;  d_b += s
        ("mul_add", Recv) => {
            let a = v(Arg(0));
            quote!(#s * #a)
        }
        ("mul_add", Arg(0)) => {
            let x = v(Recv);
            quote!(#s * #x)
        }
        ("mul_add", Arg(1)) => quote!(#s),
        // r = x.to_degrees()   =>  d_x += s * (180 / PI)
        ("to_degrees", Recv) => {
            let c = consts("PI");
            quote!(#s * (180.0 / #c))
        }
        // r = x.to_radians()   =>  d_x += s * (PI / 180)
        ("to_radians", Recv) => {
            let c = consts("PI");
            quote!(#s * (#c / 180.0))
        }
        _ => return None,
    };
    Some(t)
}

/// The constant `name` of `core`'s float type `f` (`::core::f64::consts::LN_2`); for a float
/// named through a callee's contract (`TyVal::Elem`, `f32` or `f64`), `f64`'s cast to it.
fn float_const(f: &TokenStream, name: &str) -> TokenStream {
    let c = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
    let plain = syn::parse2::<syn::Ident>(f.clone()).is_ok_and(|i| i == "f32" || i == "f64");
    if plain {
        quote!(::core::#f::consts::#c)
    } else {
        quote!((::core::f64::consts::#c as #f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_has_a_rule_for_each_float_operand() {
        let s = quote!(s);
        let f = quote!(f64);
        for m in METHODS {
            let mut v = |_: Which| quote!(v);
            let recv = contribution(m.name, Which::Recv, &s, &f, &mut v);
            assert_eq!(recv.is_none(), m.name == "signum", "{}", m.name);
            for (i, k) in m.args.iter().enumerate() {
                let a = contribution(m.name, Which::Arg(i), &s, &f, &mut v);
                assert_eq!(a.is_some(), *k == ArgKind::Float, "{} arg {i}", m.name);
            }
        }
    }
}
