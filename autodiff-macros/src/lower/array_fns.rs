//! `a.map(|v| body)` of an array and `core::array::from_fn(|i| body)`, rewritten where the
//! lowering meets them (it knows the array's length then) into the loop they stand for:
//!
//! ```text
//! let y = x.map(|v| v * w);         =>  let mut t = [0.0; N];
//!                                       for k in 0..N { let v = x[k]; t[k] = v * w; }
//!                                       let y = t;
//! let z: [f64; N] = core::array::from_fn(|i| x[i] - m);
//!                                   =>  let mut t: [f64; N] = [0.0; N];
//!                                       for i in 0..N { t[i] = x[i] - m; }
//!                                       let z: [f64; N] = t;
//! ```
//!
//! A call elsewhere in a statement (`s + x.map(..)[0]`, the function's value, `return`, an
//! assignment) is bound to a `let` before it first, unless it sits in a branch, a loop or a
//! block of the statement (which may not run it).

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

use super::{Lower, err};

/// What an array function builds from: the receiver of `map` or the length of `from_fn`.
enum Source {
    Map(Box<syn::Expr>),
    FromFn,
}

/// `x.map(|v| ..)` or `core::array::from_fn(|i| ..)` (also `std::`, `array::from_fn`, with
/// a turbofish): what it reads, and its closure's parameter and body (of a function named
/// instead, `x.map(f64::sin)`, the parameter `v` and the call `f64::sin(v)`).
fn array_fn(e: &syn::Expr) -> Option<(Source, syn::Pat, syn::Expr)> {
    let (source, arg) = match e {
        syn::Expr::MethodCall(m)
            if m.method == "map" && m.args.len() == 1 && is_place(&m.receiver) =>
        {
            (Source::Map(m.receiver.clone()), &m.args[0])
        }
        syn::Expr::Call(c) if c.args.len() == 1 && is_from_fn(&c.func) => {
            (Source::FromFn, &c.args[0])
        }
        _ => return None,
    };
    match arg {
        syn::Expr::Closure(cl) if cl.inputs.len() == 1 => {
            Some((source, cl.inputs[0].clone(), (*cl.body).clone()))
        }
        syn::Expr::Path(f) => {
            let v = format_ident!("__stackgrad_v");
            Some((source, syn::parse_quote!(#v), syn::parse_quote!(#f(#v))))
        }
        _ => None,
    }
}

/// Why an array function where it stays (right of `&&` or `||`, after a part of its statement
/// that assigns) is not taken.
pub(super) const NOT_HERE: &str = "`a.map(|v| ..)` and `core::array::from_fn(|i| ..)` are taken where they run for sure and in order (a `let`'s value, an operand, `return`, a branch's value, a condition, a `match`'s scrutinee, a `for` loop's iterator), not right of `&&` or `||` nor after a block of the same statement that assigns: bind the array to a `let` before";

/// Whether `e` is an array function the lowering takes where it runs for sure.
pub(super) fn is_array_fn(e: &syn::Expr) -> bool {
    array_fn(e).is_some()
}

/// Whether an expression is written as a place (`x`, `p.w`, `m[i]`, `*x`): the receiver of
/// an array's `map`, not an iterator's (`x.iter().map(..)`, a reduction's).
fn is_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(_) => true,
        syn::Expr::Field(f) => is_place(&f.base),
        syn::Expr::Index(i) => is_place(&i.expr),
        syn::Expr::Paren(p) => is_place(&p.expr),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Deref(_)) && is_place(&u.expr),
        _ => false,
    }
}

/// Whether a statement holds a call shaped like an array function anywhere (a quick test
/// before [`Hoist`] rewrites a copy of it).
fn mentions_array_fn(s: &syn::Stmt) -> bool {
    struct V(bool);
    impl<'a> syn::visit::Visit<'a> for V {
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            self.0 |= m.method == "map" && is_place(&m.receiver);
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
            self.0 |= is_from_fn(&c.func);
            syn::visit::visit_expr_call(self, c);
        }
    }
    let mut v = V(false);
    syn::visit::Visit::visit_stmt(&mut v, s);
    v.0
}

fn is_from_fn(f: &syn::Expr) -> bool {
    matches!(f, syn::Expr::Path(p) if super::std_path(&p.path) == ["array", "from_fn"])
}

/// The name a closure parameter binds (`|v|`, `|v: f64|`), or none (`|_|`).
fn param_name(p: &syn::Pat) -> Result<Option<syn::Ident>, ()> {
    match p {
        syn::Pat::Type(t) => param_name(&t.pat),
        syn::Pat::Ident(i) if i.by_ref.is_none() && i.subpat.is_none() => Ok(Some(i.ident.clone())),
        syn::Pat::Wild(_) => Ok(None),
        _ => Err(()),
    }
}

impl Lower {
    /// The statements a statement with an array function stands for (its calls bound to
    /// `let`s first, a `let` of one written as its loop), or `None` when it has none.
    pub(super) fn array_fn_stmts(&mut self, s: &syn::Stmt) -> Option<Vec<syn::Stmt>> {
        if let syn::Stmt::Local(local) = s
            && let Some(init) = &local.init
            && init.diverge.is_none()
            && let Some((source, param, body)) = array_fn(&init.expr)
        {
            return Some(self.array_fn_let(local, source, &param, &body));
        }
        // Most statements have none: they are not copied.
        if !mentions_array_fn(s) {
            return None;
        }
        let mut s = s.clone();
        let mut hoist = Hoist {
            lets: Vec::new(),
            n: &mut self.n_array_fns,
            dirty: false,
        };
        match &mut s {
            syn::Stmt::Local(local) => {
                if let Some(init) = &mut local.init {
                    hoist.visit_expr_mut(&mut init.expr);
                }
            }
            syn::Stmt::Expr(e, _) => hoist.top(e),
            _ => {}
        }
        if hoist.lets.is_empty() {
            return None;
        }
        let mut out = hoist.lets;
        out.push(s);
        Some(out)
    }

    /// `let pat = x.map(..)` or `let pat: [T; N] = from_fn(..)`: a local of the array's zeros
    /// (its type the `let`'s, or for `map` of a float array, its length the array's), the loop
    /// that fills it, and the `let` of it.
    fn array_fn_let(
        &mut self,
        local: &syn::Local,
        source: Source,
        param: &syn::Pat,
        body: &syn::Expr,
    ) -> Vec<syn::Stmt> {
        let span = body.span();
        let n = self.n_array_fns;
        self.n_array_fns += 1;
        let (t, k) = (
            format_ident!("__stackgrad_array_{}", n),
            format_ident!("__stackgrad_k_{}", n),
        );
        let what = match source {
            Source::Map(_) => "`map`",
            Source::FromFn => "`core::array::from_fn`",
        };
        if let Err(e) = refused(local, &source, body, what) {
            self.error(e);
            self.poison(&local.pat);
            return Vec::new();
        }
        let annotated = match &local.pat {
            syn::Pat::Type(pt) => Some(&*pt.ty),
            _ => None,
        };
        // `from_fn`'s closure takes the index: a name (or `_`); `map`'s an element, bound
        // by any pattern a `let` takes (`|[a, b]| ..` of rows).
        let name = match (&source, param_name(param)) {
            (_, Ok(name)) => name,
            (Source::Map(_), Err(())) => None,
            (Source::FromFn, Err(())) => {
                self.error(err(
                    param,
                    format!("the closure of {what} here takes the index by name, as in `|i| ..`"),
                ));
                self.poison(&local.pat);
                return Vec::new();
            }
        };
        // The zeros: of the annotated type, or of the receiver's length (floats).
        let zeros = match (annotated, &source) {
            (Some(ty), _) => super::literals::zero(ty).map(|z| (z, array_len(ty))),
            (None, Source::Map(recv)) => match element_zero(body) {
                Some(z) => self
                    .map_len(recv)
                    .map(|len| (syn::parse_quote!([#z; #len]), Some(len))),
                None => None,
            },
            (None, Source::FromFn) => from_fn_ty(&local.init.as_ref().expect("an init").expr)
                .map(|ty| (super::literals::zero(&ty), array_len(&ty)))
                .and_then(|(z, len)| Some((z?, len))),
        };
        let Some((z, Some(len))) = zeros else {
            let example = match source {
                Source::Map(_) => "let y: [f64; N] = x.map(|v| ..);",
                Source::FromFn => "let y: [f64; N] = core::array::from_fn(|i| ..);",
            };
            self.error(err(
                &local.init.as_ref().expect("an init").expr,
                format!(
                    "{what} builds an array whose type the macro cannot see here: bind it to a `let` with its type, as in `{example}`"
                ),
            ));
            self.poison(&local.pat);
            return Vec::new();
        };
        let declared: syn::Stmt = match annotated {
            Some(ty) => syn::parse_quote_spanned!(span=> let mut #t: #ty = #z;),
            None => syn::parse_quote_spanned!(span=> let mut #t = #z;),
        };
        let fill: syn::Stmt = match (source, name) {
            (Source::Map(_), None) if matches!(param, syn::Pat::Wild(_)) => {
                syn::parse_quote_spanned!(span=> for #k in 0..#len { #t[#k] = #body; })
            }
            (Source::Map(recv), _) => syn::parse_quote_spanned!(span=>
                for #k in 0..#len { let #param = #recv[#k]; #t[#k] = #body; }),
            (Source::FromFn, Some(i)) => {
                syn::parse_quote_spanned!(span=> for #i in 0..#len { #t[#i] = #body; })
            }
            (Source::FromFn, None) => {
                syn::parse_quote_spanned!(span=> for #k in 0..#len { #t[#k] = #body; })
            }
        };
        let mut bound = local.clone();
        *bound.init.as_mut().expect("an init").expr = syn::parse_quote_spanned!(span=> #t);
        vec![declared, fill, syn::Stmt::Local(bound)]
    }

    /// The length of `recv` in `recv.map(..)`, a place holding a fixed-size array.
    fn map_len(&mut self, recv: &syn::Expr) -> Option<TokenStream> {
        let (v, proj) = self.place_or_const(recv)?;
        let ty = self.place_ty(v, &proj);
        Some(self.f.types.array(ty)?.1)
    }
}

/// The zero of what `map`'s closure returns, read from its body: a `bool`'s (`false`) for a
/// comparison, a logical operator, `is_nan()` and its kin or a `bool` literal, an integer's
/// for an integer literal or arithmetic with one, a cast's type's, a row's for an array
/// written out (`|v| [v, v * v]`), else a float's (`0.0`: a call, a variable); `None` for a
/// tuple. The `let` names any other type (`let n: [usize; N] = idx.map(|i| g(i));`).
fn element_zero(body: &syn::Expr) -> Option<syn::Expr> {
    match body {
        syn::Expr::Paren(p) => element_zero(&p.expr),
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => element_zero(e),
            _ => None,
        },
        syn::Expr::Binary(b) => {
            use syn::BinOp::*;
            let int =
                |e: &syn::Expr| matches!(e, syn::Expr::Lit(l) if matches!(l.lit, syn::Lit::Int(_)));
            match b.op {
                Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_) | And(_) | Or(_) => {
                    Some(syn::parse_quote!(false))
                }
                // `i + 1`: Rust takes no integer literal beside a float.
                _ if int(&b.left) || int(&b.right) => Some(syn::parse_quote!(0)),
                _ => element_zero(&b.left),
            }
        }
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => element_zero(&u.expr),
        syn::Expr::Cast(c) => super::literals::zero(&c.ty),
        syn::Expr::If(i) => match i.then_branch.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => element_zero(e),
            _ => None,
        },
        syn::Expr::MethodCall(m)
            if [
                "is_nan",
                "is_finite",
                "is_infinite",
                "is_sign_positive",
                "is_sign_negative",
            ]
            .iter()
            .any(|n| m.method == n) =>
        {
            Some(syn::parse_quote!(false))
        }
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => Some(syn::parse_quote!(false)),
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Bool(_) => Some(syn::parse_quote!(false)),
            syn::Lit::Int(_) => Some(syn::parse_quote!(0)),
            syn::Lit::Float(_) => Some(syn::parse_quote!(0.0)),
            _ => None,
        },
        syn::Expr::Array(a) => {
            let len = a.elems.len();
            let z = element_zero(a.elems.first()?)?;
            Some(syn::parse_quote!([#z; #len]))
        }
        syn::Expr::Tuple(_) | syn::Expr::Repeat(_) => None,
        _ => Some(syn::parse_quote!(0.0)),
    }
}

/// The array type `from_fn::<T, N, _>(..)` names: `[T; N]`.
fn from_fn_ty(call: &syn::Expr) -> Option<syn::Type> {
    let syn::Expr::Call(c) = call else {
        return None;
    };
    let syn::Expr::Path(p) = &*c.func else {
        return None;
    };
    let syn::PathArguments::AngleBracketed(args) = &p.path.segments.last()?.arguments else {
        return None;
    };
    let mut args = args.args.iter();
    match (args.next()?, args.next()?) {
        (syn::GenericArgument::Type(t), syn::GenericArgument::Const(n)) => {
            Some(syn::parse_quote!([#t; #n]))
        }
        // `N` a path: a type argument to the parser.
        (syn::GenericArgument::Type(t), syn::GenericArgument::Type(n)) => {
            Some(syn::parse_quote!([#t; #n]))
        }
        _ => None,
    }
}

/// Why a `let` of an array function is refused: an attribute on it (its values are the
/// loop's), a `return` in its closure (which returns from the closure), a `map` whose closure
/// assigns what its array reads (Rust maps a copy taken before).
fn refused(local: &syn::Local, source: &Source, body: &syn::Expr, what: &str) -> syn::Result<()> {
    if let Some(a) = local.attrs.first() {
        return Err(err(
            a,
            "an attribute on a `let` of `map` or `from_fn` is not supported: its values are the loop's; write the loop, with the attribute on the `let` in it",
        ));
    }
    if super::has_return(body) {
        return Err(err(
            body,
            format!(
                "`return` in the closure of {what} returns from the closure, which the macro writes as a loop: give the element its value without `return`, as in `|v| if v > 0.0 {{ v }} else {{ 0.0 }}`"
            ),
        ));
    }
    if let Source::Map(recv) = source
        && let Some(name) = assigned_root(body, recv)
    {
        return Err(err(
            body,
            format!(
                "the closure of `map` here assigns `{name}`, which the array it maps reads: Rust maps a copy taken before; bind the copy to a `let` first, or write the loop"
            ),
        ));
    }
    Ok(())
}

/// A name the place `recv` reads (`m` and `i` of `m[i]`) that `body` assigns.
fn assigned_root(body: &syn::Expr, recv: &syn::Expr) -> Option<String> {
    struct Names(Vec<String>);
    impl<'a> syn::visit::Visit<'a> for Names {
        fn visit_path(&mut self, p: &'a syn::Path) {
            if let Some(i) = p.get_ident() {
                self.0.push(i.to_string());
            }
        }
    }
    let mut names = Names(Vec::new());
    syn::visit::Visit::visit_expr(&mut names, recv);
    let mut targets = super::assigned::Assigned::default();
    syn::visit::Visit::visit_expr(&mut targets, body);
    targets.0.into_iter().find(|t| names.0.contains(t))
}

/// The length of an array type as written.
fn array_len(ty: &syn::Type) -> Option<TokenStream> {
    match ty {
        syn::Type::Array(a) => Some(a.len.to_token_stream()),
        syn::Type::Paren(p) => array_len(&p.elem),
        _ => None,
    }
}

/// Binds each array function of a statement's expression to a `let` before it, where the
/// statement runs it for sure: not in a branch, a loop, a block or a closure.
struct Hoist<'a> {
    lets: Vec<syn::Stmt>,
    n: &'a mut usize,
    /// A part of the statement that runs before what is visited next assigns (a block of an
    /// operand, an `if`'s branch): a call after it stays, for the lowering's error.
    dirty: bool,
}

impl Hoist<'_> {
    /// A statement's expression: an assignment's value, `return`'s, an `if` statement's
    /// condition, a `for` loop's iterator, or the expression.
    fn top(&mut self, e: &mut syn::Expr) {
        match e {
            syn::Expr::If(i) => self.visit_expr_mut(&mut i.cond),
            syn::Expr::ForLoop(f) => self.visit_expr_mut(&mut f.expr),
            syn::Expr::Assign(a) => self.visit_expr_mut(&mut a.right),
            syn::Expr::Binary(b) if super::is_compound(&b.op).is_some() => {
                self.visit_expr_mut(&mut b.right)
            }
            syn::Expr::Return(r) => {
                if let Some(v) = &mut r.expr {
                    self.visit_expr_mut(v);
                }
            }
            _ => self.visit_expr_mut(e),
        }
    }
}

impl VisitMut for Hoist<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if array_fn(e).is_some() && !self.dirty {
            let name = format_ident!("__stackgrad_mapped_{}", *self.n);
            *self.n += 1;
            let span = e.span();
            let call = std::mem::replace(e, syn::parse_quote_spanned!(span=> #name));
            self.lets
                .push(syn::parse_quote_spanned!(span=> let #name = #call;));
            return;
        }
        match e {
            // The condition and the scrutinee run first, for sure; the branches may not.
            syn::Expr::If(i) => {
                self.visit_expr_mut(&mut i.cond);
                self.dirty |= super::assigned::assigns(e);
            }
            syn::Expr::Match(m) => {
                self.visit_expr_mut(&mut m.expr);
                self.dirty |= super::assigned::assigns(e);
            }
            syn::Expr::ForLoop(_)
            | syn::Expr::While(_)
            | syn::Expr::Loop(_)
            | syn::Expr::Block(_)
            | syn::Expr::Closure(_) => self.dirty |= super::assigned::assigns(e),
            // The right of `&&` and `||` may not run.
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
                self.visit_expr_mut(&mut b.left);
                self.dirty |= super::assigned::assigns(&b.right);
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }
}
