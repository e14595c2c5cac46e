//! A call of a closure whose body is one expression, with the arguments in place of the
//! parameters where that reads them as Rust does.

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::names::free_names;

/// An argument taken in place of a parameter: read as it is (a place, a literal, an
/// expression read once), or borrowed (`&a`: read as `a`, passed on to a call as `&a`).
enum Arg {
    Read(syn::Expr),
    Borrowed(syn::Expr),
}

/// A call of a body of one expression: the body with each parameter replaced by its argument,
/// where that reads the arguments as Rust does (`None` where it may not).
///
/// Each argument is a name or a literal, or a place (read again unchanged) or an expression
/// without blocks, closures and assignments (so without side effects) its parameter reads once,
/// either of them read for sure: not only right of `&&` or `||`, where Rust evaluates the
/// argument all the same (an element may panic). Rust evaluates the arguments before the
/// body, left to right; in place they are evaluated where the body reads them, which only
/// changes which of two panicking arguments panics first.
pub(super) fn substituted(
    inputs: &[&syn::Pat],
    args: &[syn::Expr],
    body: &syn::Expr,
    ret: &syn::ReturnType,
) -> Option<syn::Expr> {
    let body = single(body)?;
    if !crate::lower::assigned::plain(body) {
        return None;
    }
    let mut subs = Vec::new();
    for (p, a) in inputs.iter().zip(args) {
        let (ident, ty) = match p {
            syn::Pat::Ident(pi) => (pi, None),
            syn::Pat::Type(t) => match &*t.pat {
                syn::Pat::Ident(pi) => (pi, Some(&*t.ty)),
                _ => return None,
            },
            _ => return None,
        };
        if ident.by_ref.is_some() || ident.mutability.is_some() || ident.subpat.is_some() {
            return None;
        }
        let (reads, sure) = reads(body, &ident.ident);
        let name = matches!(a, syn::Expr::Path(p) if p.path.get_ident().is_some());
        let simple = crate::lower::patterns::is_simple_place;
        let arg = match a {
            a if literal(a) => Arg::Read(suffixed(a, ty.and_then(number_type))),
            _ if !name && sure == 0 => return None,
            syn::Expr::Reference(r) if r.mutability.is_none() && simple(&r.expr) => {
                Arg::Borrowed((*r.expr).clone())
            }
            a if simple(a) => Arg::Read(a.clone()),
            a if reads == 1 && crate::lower::assigned::plain(a) => {
                Arg::Read(syn::parse_quote!((#a)))
            }
            _ => return None,
        };
        subs.push((ident.ident.to_string(), arg));
    }
    let mut out = body.clone();
    Substitute(&subs).visit_expr_mut(&mut out);
    // A value of literals alone takes the closure's type (`|| -> f32 { 1.0 / 3.0 }`).
    if let syn::ReturnType::Type(_, ty) = ret
        && free_names(&out).is_empty()
    {
        let suffix = number_type(ty)?;
        Suffix(&suffix).visit_expr_mut(&mut out);
    }
    Some(match out {
        syn::Expr::Binary(_) | syn::Expr::Unary(_) | syn::Expr::Cast(_) | syn::Expr::Range(_) => {
            syn::parse_quote!((#out))
        }
        e => e,
    })
}

/// How many times an expression without blocks or closures reads a name, and how many of
/// those for sure (not right of `&&` or `||`).
fn reads(e: &syn::Expr, name: &syn::Ident) -> (usize, usize) {
    struct V<'n> {
        name: &'n syn::Ident,
        reads: usize,
        sure: usize,
        maybe: usize,
    }
    impl<'a> Visit<'a> for V<'_> {
        fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
            let read = usize::from(p.path.is_ident(self.name));
            self.reads += read;
            if self.maybe == 0 {
                self.sure += read;
            }
        }
        fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
            self.visit_expr(&b.left);
            let lazy = matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_));
            self.maybe += usize::from(lazy);
            self.visit_expr(&b.right);
            self.maybe -= usize::from(lazy);
        }
    }
    let mut v = V {
        name,
        reads: 0,
        sure: 0,
        maybe: 0,
    };
    v.visit_expr(e);
    (v.reads, v.sure)
}

/// A closure's body of one expression, its braces taken off.
fn single(e: &syn::Expr) -> Option<&syn::Expr> {
    match e {
        syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
            match &b.block.stmts[..] {
                [syn::Stmt::Expr(e, None)] => single(e),
                _ => None,
            }
        }
        e => Some(e),
    }
}

/// Whether an expression is made of literals alone, one of them without a suffix (`2.0`,
/// `1.0 / 3.0`; not `2.0f64` or `f64::consts::PI`): a value Rust types from where it goes.
pub(super) fn untyped_literals(e: &syn::Expr) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_lit(&mut self, l: &'a syn::Lit) {
            self.0 |= match l {
                syn::Lit::Int(i) => i.suffix().is_empty(),
                syn::Lit::Float(f) => f.suffix().is_empty(),
                _ => false,
            };
        }
    }
    let mut v = V(false);
    v.visit_expr(e);
    v.0 && free_names(e).is_empty()
}

/// A number literal, or its negation.
fn literal(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Lit(l) => matches!(l.lit, syn::Lit::Int(_) | syn::Lit::Float(_)),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_)) && literal(&u.expr),
        _ => false,
    }
}

/// A number type as written (`usize`, `f32`): a literal's suffix.
fn number_type(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(tp) = ty else {
        return None;
    };
    let name = tp.path.get_ident()?.to_string();
    const NUMBERS: [&str; 14] = [
        "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
        "u128", "usize",
    ];
    NUMBERS.contains(&name.as_str()).then_some(name)
}

/// A literal (or its negation) with `suffix` where it has none, in parentheses if negated.
fn suffixed(e: &syn::Expr, suffix: Option<String>) -> syn::Expr {
    let mut e = e.clone();
    if let Some(s) = suffix {
        Suffix(&s).visit_expr_mut(&mut e);
    }
    match e {
        syn::Expr::Unary(_) => syn::parse_quote!((#e)),
        e => e,
    }
}

/// Gives the number literals without a suffix this one (`1.0` => `1.0f32`, `1.` => `1.0f32`).
struct Suffix<'a>(&'a str);

impl VisitMut for Suffix<'_> {
    fn visit_lit_mut(&mut self, l: &mut syn::Lit) {
        let span = l.span();
        let float = self.0.starts_with('f');
        let digits = match &*l {
            syn::Lit::Int(i) if i.suffix().is_empty() && !float => i.base10_digits().to_string(),
            syn::Lit::Float(f) if f.suffix().is_empty() && float => f.base10_digits().to_string(),
            _ => return,
        };
        let digits = match digits.ends_with('.') {
            true => format!("{digits}0"),
            false => digits,
        };
        let text = format!("{digits}{}", self.0);
        *l = match float {
            true => syn::Lit::Float(syn::LitFloat::new(&text, span)),
            false => syn::Lit::Int(syn::LitInt::new(&text, span)),
        };
    }
}

/// Replaces the parameters by their arguments.
struct Substitute<'a>(&'a [(String, Arg)]);

impl Substitute<'_> {
    /// The argument of the parameter `e` names, as the place it is read through (a borrowed
    /// one as the place borrowed).
    fn place_of(&self, e: &syn::Expr) -> Option<syn::Expr> {
        let syn::Expr::Path(p) = e else { return None };
        let id = p.path.get_ident()?.to_string();
        let (_, arg) = self.0.iter().find(|(n, _)| *n == id)?;
        Some(match arg {
            Arg::Read(a) | Arg::Borrowed(a) => a.clone(),
        })
    }

    fn borrowed(&self, e: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = e else { return false };
        let id = p.path.get_ident().map(|i| i.to_string());
        (self.0.iter()).any(|(n, a)| Some(n) == id.as_ref() && matches!(a, Arg::Borrowed(_)))
    }
}

impl VisitMut for Substitute<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        match e {
            // A borrowed argument passed on as it was given (`g(v)` of `&a`: `g(&a)`).
            syn::Expr::Call(c) => {
                self.visit_expr_mut(&mut c.func);
                for a in c.args.iter_mut() {
                    match self.borrowed(a) {
                        true => {
                            let p = self.place_of(a).expect("a parameter");
                            *a = syn::parse_quote!(&#p);
                        }
                        false => self.visit_expr_mut(a),
                    }
                }
            }
            // `*v` of a borrowed argument: the place.
            syn::Expr::Unary(u)
                if matches!(u.op, syn::UnOp::Deref(_)) && self.borrowed(&u.expr) =>
            {
                *e = self.place_of(&u.expr).expect("a parameter");
            }
            syn::Expr::Path(_) => {
                if let Some(p) = self.place_of(e) {
                    *e = p;
                }
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }
}
