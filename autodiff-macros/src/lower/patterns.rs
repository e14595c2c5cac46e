//! `let` forms of plain Rust the lowering takes by rewriting them first, and the names they bind:
//! - `let (s, c) = x.sin_cos();` (or `f64::sin_cos(x)`) is `let (s, c) = (x.sin(), x.cos());`,
//!   which is how `core` computes it: the same values, bit for bit; `let t = x.sin_cos();` binds
//!   `t.0` and `t.1` to two locals of ours (and is an error where `t` is used otherwise), and
//!   `x.sin_cos().0` is `x.sin()`, `.1` is `x.cos()`; `let t = (a, b);` binds `t.0` and `t.1`
//!   to locals of ours the same way, each element in order;
//! - `let [a, b, c] = v;` binds each element, `let a = v[0];`, nested arrays element by element
//!   (`let [[a, b], [c, d]] = m;`), `_` nothing; where the value names one of the pattern's
//!   names (`let [i, j] = pairs[i];`), every element is read into a local of ours first;
//! - borrowed, `let [a, b] = &v;` (`&mut v`, or `v` a parameter taken by reference) binds each
//!   name to an alias of its element's place, as Rust binds references, where the place's
//!   indices cannot change (else copies, with which `*a` is an error, never a wrong value);
//! - `let a = v;` of an array parameter taken by reference copies the array, `let a = *v;`.
//!
//! A receiver or array that is not a place (`(x * y).sin_cos()`, `let [a, b] = g(x);`) is bound
//! first, once, to a local of ours (`__stackgrad_angle`, `__stackgrad_elems`, at
//! `Span::mixed_site()`), which the next such `let` shadows. The user's function is compiled as
//! written, so rustc still checks the pattern against the value (an array of another length is
//! its error, on the user's `f`).

use quote::quote_spanned;
use syn::spanned::Spanned;

use crate::ir::{Block, Kind, Operand, Proj};

/// What to write instead of an array pattern with a rest (`..`) in it.
const REST: &str = "`..` in an array pattern is not supported; bind every element, as in `let [a, b, c] = v;`, or index the array (`v[0]`)";

/// What a `let` of this module's forms stands for: the `let`s, then the tuple fields a name
/// reads (`t.0` of `let t = x.sin_cos();`) and the local of each, which the lowering binds to
/// `t.0` and takes out of reach of the user's names. `errors`: a `#[recompute]` or
/// `#[record(..)]` on it, which applies to a `let` of one value (the `let`s are still lowered,
/// so that nothing else reports).
pub(super) struct Rewrite {
    pub lets: Vec<syn::Local>,
    pub fields: Vec<(String, String)>,
    pub errors: Vec<syn::Error>,
}

/// The `let`s that stand for `local`, if it is one of this module's forms; an error on the
/// user's span for an array pattern this module cannot bind.
pub(super) fn rewrite(local: &syn::Local) -> Option<syn::Result<Rewrite>> {
    let (pat, ann) = match &local.pat {
        syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
        p => (p, None),
    };
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    let lets = |lets| Rewrite {
        lets,
        fields: Vec::new(),
        errors: Vec::new(),
    };
    match pat {
        syn::Pat::Tuple(t) if t.elems.len() == 2 => {
            let x = sin_cos_receiver(&init.expr)?;
            Some(sin_cos(local, x).map(lets))
        }
        syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => {
            if let Some(x) = sin_cos_receiver(&init.expr) {
                return Some(sin_cos_named(local, pi, x));
            }
            let (t, types) = written_tuple(local)?;
            tuple_named(local, pi, t, types)
        }
        syn::Pat::Slice(s) => Some(elements(local, s, ann, &init.expr)),
        _ => None,
    }
}

/// The attributes of a `let` this module splits into several: the others, for each `let`, and
/// an error for each of `#[recompute]` and `#[record(..)]`, which apply to one value.
fn split_attrs(local: &syn::Local, errors: &mut Vec<syn::Error>) -> Vec<syn::Attribute> {
    let (memory, others): (Vec<_>, Vec<_>) =
        (local.attrs.iter().cloned()).partition(super::stmts::is_memory_attr);
    errors.extend(memory.iter().map(|a| {
        syn::Error::new_spanned(
            a,
            "this attribute applies to a `let` of one value; bind the value it is for with its own `let` (`let s = x.sin();`, `let a = v[0];`) and put it there",
        )
    }));
    others
}

/// `let t = x.sin_cos();` read as `t.0` and `t.1`: `let __stackgrad_sin = (x).sin();` and
/// `let __stackgrad_cos = (x).cos();`, which `t.0` and `t.1` then name.
fn sin_cos_named(local: &syn::Local, pi: &syn::PatIdent, x: &syn::Expr) -> syn::Result<Rewrite> {
    let mut errors = Vec::new();
    let attrs = split_attrs(local, &mut errors);
    let span = x.span();
    let mut lets = Vec::new();
    let x = bound_once(x, "__stackgrad_angle", None, &mut lets)?;
    let m = &pi.mutability;
    let (sin, cos) = (ours("__stackgrad_sin", span), ours("__stackgrad_cos", span));
    lets.push(parse_local(
        quote_spanned!(span=> #(#attrs)* let #m #sin = (#x).sin();),
    )?);
    lets.push(parse_local(
        quote_spanned!(span=> #(#attrs)* let #m #cos = (#x).cos();),
    )?);
    let t = &pi.ident;
    let fields = vec![
        (format!("{t}.0"), "__stackgrad_sin".to_string()),
        (format!("{t}.1"), "__stackgrad_cos".to_string()),
    ];
    Ok(Rewrite {
        lets,
        fields,
        errors,
    })
}

/// The tuple written out of `let t = (a, b);` (`let t: (f64, _) = ..`) that [`tuple_named`]
/// binds, and each element's type (`None` for none, or `_`, left to inference); `None` for
/// another `let`, the unit `()`, a tuple of tuples, references or `sin_cos`s, or a type that
/// is not a tuple of its length.
fn written_tuple(local: &syn::Local) -> Option<(&syn::ExprTuple, Vec<Option<&syn::Type>>)> {
    let (pat, ann) = match &local.pat {
        syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
        p => (p, None),
    };
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    let (syn::Pat::Ident(_), syn::Expr::Tuple(t)) = (pat, &*init.expr) else {
        return None;
    };
    let n = t.elems.len();
    let types: Vec<Option<&syn::Type>> = match ann {
        None => vec![None; n],
        Some(syn::Type::Tuple(tt)) if tt.elems.len() == n => (tt.elems.iter())
            .map(|ty| (!matches!(ty, syn::Type::Infer(_))).then_some(ty))
            .collect(),
        Some(_) => return None,
    };
    // Each element a value of its own: not a tuple, a reference (an alias, not a local) or a
    // `sin_cos` (two locals).
    let own = |e: &syn::Expr| {
        !matches!(e, syn::Expr::Tuple(_) | syn::Expr::Reference(_)) && sin_cos_receiver(e).is_none()
    };
    (n > 0 && t.elems.iter().all(own)).then_some((t, types))
}

/// `let t = (a, b);` read as `t.0` and `t.1` ([`written_tuple`]): each element bound in order,
/// as Rust evaluates them, to a local of ours (`let __stackgrad_elem_0 = a;`, ..), which `t.0`,
/// `t.1`, .. then name, each with its element's type if the `let` has one.
fn tuple_named(
    local: &syn::Local,
    pi: &syn::PatIdent,
    t: &syn::ExprTuple,
    types: Vec<Option<&syn::Type>>,
) -> Option<syn::Result<Rewrite>> {
    let mut errors = Vec::new();
    let attrs = split_attrs(local, &mut errors);
    let (m, name) = (&pi.mutability, &pi.ident);
    let (mut lets, mut fields) = (Vec::new(), Vec::new());
    for (k, (e, ty)) in t.elems.iter().zip(types).enumerate() {
        let span = e.span();
        let local = format!("__stackgrad_elem_{k}");
        let elem = ours(&local, span);
        let ty = ty.map(|ty| quote_spanned!(span=> : #ty));
        match parse_local(quote_spanned!(span=> #(#attrs)* let #m #elem #ty = #e;)) {
            Ok(l) => lets.push(l),
            Err(e) => return Some(Err(e)),
        }
        fields.push((format!("{name}.{k}"), local));
    }
    Some(Ok(Rewrite {
        lets,
        fields,
        errors,
    }))
}

/// `x` itself if it is a place (read where it is), else our local `temp` bound to it first
/// (with the user's type, if any).
fn bound_once(
    x: &syn::Expr,
    temp: &str,
    ann: Option<&syn::Type>,
    lets: &mut Vec<syn::Local>,
) -> syn::Result<syn::Expr> {
    if ann.is_none() && is_place(x) {
        // `v[0]` for `let [a, b] = *v;` (or `&v`): indexing reads through the reference.
        return Ok(underef(x).clone());
    }
    let span = x.span();
    let name = ours(temp, span);
    let ann = ann.map(|t| quote_spanned!(span=> : #t));
    lets.push(parse_local(quote_spanned!(span=> let #name #ann = #x;))?);
    Ok(syn::parse_quote_spanned!(span=> #name))
}

/// `x.sin()` for `x.sin_cos().0`, `x.cos()` for `.1`.
pub(super) fn sin_cos_element(e: &syn::Expr) -> Option<syn::Expr> {
    let syn::Expr::Field(f) = e else {
        return None;
    };
    let x = sin_cos_receiver(&f.base)?;
    let span = e.span();
    match &f.member {
        syn::Member::Unnamed(i) if i.index == 0 => {
            Some(syn::parse_quote_spanned!(span=> (#x).sin()))
        }
        syn::Member::Unnamed(i) if i.index == 1 => {
            Some(syn::parse_quote_spanned!(span=> (#x).cos()))
        }
        _ => None,
    }
}

/// What to write for `sin_cos` where its tuple is neither destructured nor read by element.
pub(super) const SIN_COS: &str = "`sin_cos` returns a tuple: bind its two values where it is called, as in `let (s, c) = x.sin_cos();`, or take one, `x.sin_cos().0`";

/// `x` of `x.sin_cos()` or `f64::sin_cos(x)` (`f32` too).
fn sin_cos_receiver(e: &syn::Expr) -> Option<&syn::Expr> {
    match e {
        syn::Expr::MethodCall(m)
            if m.method == "sin_cos" && m.args.is_empty() && m.turbofish.is_none() =>
        {
            Some(&m.receiver)
        }
        syn::Expr::Call(c) if c.args.len() == 1 => {
            let syn::Expr::Path(p) = &*c.func else {
                return None;
            };
            let s = &p.path.segments;
            let float = s.len() == 2 && (s[0].ident == "f64" || s[0].ident == "f32");
            (float && s[1].ident == "sin_cos").then(|| &c.args[0])
        }
        syn::Expr::Paren(p) => sin_cos_receiver(&p.expr),
        _ => None,
    }
}

/// `let (s, c) = (x.sin(), x.cos());`, after `let __stackgrad_angle = x;` where `x` is not a
/// place.
fn sin_cos(local: &syn::Local, x: &syn::Expr) -> syn::Result<Vec<syn::Local>> {
    let span = x.span();
    let mut out = Vec::new();
    let x = bound_once(x, "__stackgrad_angle", None, &mut out)?;
    // The pattern as written, with its type if it has one.
    let (attrs, pat) = (&local.attrs, &local.pat);
    out.push(parse_local(quote_spanned!(span=>
        #(#attrs)* let #pat = ((#x).sin(), (#x).cos());
    ))?);
    Ok(out)
}

/// `let a = v[0]; let b = v[1];` for `let [a, b] = v;`, nested patterns element by element.
/// Where the value names one of the pattern's names (`let [i, j] = pairs[i];`, `let [v, w] =
/// *v;`), every element is read into a local of ours before any name is bound.
fn elements(
    local: &syn::Local,
    s: &syn::PatSlice,
    ann: Option<&syn::Type>,
    value: &syn::Expr,
) -> syn::Result<Rewrite> {
    let mut errors = Vec::new();
    let attrs = split_attrs(local, &mut errors);
    let mut lets = Vec::new();
    let base = bound_once(value, "__stackgrad_elems", ann, &mut lets)?;
    let mut leaves = Vec::new();
    leaves_of(s, &base, &mut leaves)?;
    let mut names = Vec::new();
    bound_names(&syn::Pat::Slice(s.clone()), &mut names);
    if mentions(&base, &names) {
        // Every element read before any name is bound: `let [i, j] = pairs[i];`.
        for (k, (_, elem)) in leaves.iter_mut().enumerate() {
            let span = elem.span();
            let temp = ours(&format!("__stackgrad_e{k}"), span);
            lets.push(parse_local(quote_spanned!(span=> let #temp = #elem;))?);
            *elem = syn::parse_quote_spanned!(span=> #temp);
        }
    }
    for (p, elem) in leaves {
        let span = p.span();
        lets.push(parse_local(
            quote_spanned!(span=> #(#attrs)* let #p = #elem;),
        )?);
    }
    Ok(Rewrite {
        lets,
        fields: Vec::new(),
        errors,
    })
}

/// The names a pattern binds.
pub(super) fn bound_names(p: &syn::Pat, out: &mut Vec<String>) {
    match p {
        syn::Pat::Ident(pi) => out.push(pi.ident.to_string()),
        syn::Pat::Slice(s) => s.elems.iter().for_each(|p| bound_names(p, out)),
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| bound_names(p, out)),
        syn::Pat::Type(t) => bound_names(&t.pat, out),
        syn::Pat::Reference(r) => bound_names(&r.pat, out),
        _ => {}
    }
}

/// The identifiers of `e`'s text.
pub(super) fn names_in(e: &syn::Expr) -> Vec<String> {
    idents(quote::ToTokens::to_token_stream(e))
}

/// The identifiers of a token stream, inside groups too.
pub(super) fn idents(ts: proc_macro2::TokenStream) -> Vec<String> {
    fn walk(ts: proc_macro2::TokenStream, out: &mut Vec<String>) {
        for t in ts {
            match t {
                proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(ts, &mut out);
    out
}

/// Whether `e`'s text has one of `names` as an identifier.
fn mentions(e: &syn::Expr, names: &[String]) -> bool {
    names_in(e).iter().any(|n| names.contains(n))
}

/// Each element the pattern binds, with the element it reads: `(a, base[0])`; `_` binds
/// nothing, and a rest (`..`) is an error.
fn leaves_of(
    s: &syn::PatSlice,
    base: &syn::Expr,
    out: &mut Vec<(syn::Pat, syn::Expr)>,
) -> syn::Result<()> {
    for (k, p) in s.elems.iter().enumerate() {
        let span = p.span();
        let elem: syn::Expr = syn::parse_quote_spanned!(span=> #base[#k]);
        let rest = |p: &syn::Pat| match p {
            syn::Pat::Rest(_) => true,
            syn::Pat::Ident(pi) => pi
                .subpat
                .as_ref()
                .is_some_and(|(_, sp)| matches!(&**sp, syn::Pat::Rest(_))),
            _ => false,
        };
        match p {
            syn::Pat::Wild(_) => {}
            p if rest(p) => return Err(syn::Error::new_spanned(p, REST)),
            syn::Pat::Slice(inner) => leaves_of(inner, &elem, out)?,
            p => out.push((p.clone(), elem)),
        }
    }
    Ok(())
}

/// A place written as a name, a field or an element of one (indices of names and literals),
/// without dereference, borrow or parentheses around it: read or written again unchanged.
pub(super) fn is_simple_place(e: &syn::Expr) -> bool {
    is_place(e)
        && !matches!(
            e,
            syn::Expr::Reference(_) | syn::Expr::Unary(_) | syn::Expr::Paren(_)
        )
}

/// A place read where it is: a name, a field, an element, or a dereference or borrow of one,
/// in parentheses or not. Anything else is bound to a local first.
pub(super) fn is_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => p.qself.is_none(),
        syn::Expr::Field(f) => is_place(&f.base),
        syn::Expr::Index(i) => {
            is_place(&i.expr) && matches!(&*i.index, syn::Expr::Lit(_) | syn::Expr::Path(_))
        }
        syn::Expr::Paren(p) => is_place(&p.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => is_place(&u.expr),
        syn::Expr::Reference(r) if r.mutability.is_none() => is_place(&r.expr),
        _ => false,
    }
}

/// A local of ours: hygienic (`Span::mixed_site()`), its errors at the user's `span`.
fn ours(name: &str, span: proc_macro2::Span) -> syn::Ident {
    syn::Ident::new(name, proc_macro2::Span::mixed_site().located_at(span))
}

/// A place without its dereferences, borrows and parentheses.
fn underef(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => underef(&p.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => underef(&u.expr),
        syn::Expr::Reference(r) if r.mutability.is_none() => underef(&r.expr),
        e => e,
    }
}

/// One `let` statement from its tokens (the user's pattern and value in a `let` of ours).
fn parse_local(tokens: proc_macro2::TokenStream) -> syn::Result<syn::Local> {
    let span = tokens.span();
    match syn::parse2::<syn::Stmt>(tokens)? {
        syn::Stmt::Local(l) => Ok(l),
        _ => Err(syn::Error::new(
            span,
            "this `let` is not supported; bind a name, as in `let y = ..;`",
        )),
    }
}

/// What to write for `let t = x.sin_cos();` where `t` is used otherwise than as `t.0`, `t.1`.
const SIN_COS_WHOLE: &str = "a `let` of one name holds the tuple `sin_cos` returns only to read `t.0` and `t.1`; to use the tuple otherwise, bind its two values, as in `let (s, c) = x.sin_cos();`, and write `(s, c)` where it is used";

/// What to write for `let t = (a, b);` where `t` is used otherwise than as `t.0`, `t.1`, ...
const TUPLE_WHOLE: &str = "a `let` of one name holds a tuple only to read its fields (`t.0`, `t.1`); to use the tuple otherwise, bind its values, as in `let (a, b) = (x, y);`, and write `(a, b)` where it is used";

impl super::Lower {
    /// A `let` that is not a tuple call's (`let t = g(..);` read by field): lowered as
    /// [`Self::local`] does, then a name only passed whole to calls is noted. `rest` follows
    /// it in its block, `conts` after the block.
    pub(super) fn let_stmt(
        &mut self,
        local: &syn::Local,
        rest: &[syn::Stmt],
        conts: &[&[syn::Stmt]],
        out: &mut Block,
    ) {
        let pat = match &local.pat {
            syn::Pat::Type(pt) => &*pt.pat,
            p => p,
        };
        let syn::Pat::Ident(pi) = pat else {
            return self.local(local, out);
        };
        let sin_cos = local
            .init
            .as_ref()
            .is_some_and(|i| sin_cos_receiver(&i.expr).is_some());
        let tuple = written_tuple(local).is_some();
        if (sin_cos || tuple) && !super::tuples::read_by_field_only(&pi.ident.to_string(), rest) {
            // `t.0` and `t.1` still bound, and `t` a float: its reads by field report nothing
            // more (a use of the tuple the macro's language has no form for still does).
            let what = if sin_cos { SIN_COS_WHOLE } else { TUPLE_WHOLE };
            self.error(syn::Error::new_spanned(pi, what));
            self.local(local, out);
            // Binding `t` forgets the `t.0` and `t.1` just bound in its scope: kept.
            let prefix = format!("{}.", pi.ident);
            let fields: Vec<_> = (self.scopes.last().unwrap().iter())
                .filter(|(k, _)| k.starts_with(&prefix))
                .map(|(k, b)| (k.clone(), b.clone()))
                .collect();
            self.poison(pat);
            self.scopes.last_mut().unwrap().extend(fields);
            return;
        }
        self.local(local, out);
        let whole = super::whole::only_passed_whole(&pi.ident.to_string(), rest, conts);
        if matches!(&local.pat, syn::Pat::Ident(_)) && whole {
            self.passed_whole(local);
        }
    }

    /// Lowers `local` as the `let`s it stands for if it is one of this module's forms (`let (s,
    /// c) = x.sin_cos();`, `let [a, b] = v;`), or reports why it cannot be; whether it was.
    pub(super) fn rewritten(&mut self, local: &syn::Local, out: &mut Block) -> bool {
        if let Some(copy) = self.reference_copied(local) {
            self.local(&copy, out);
            return true;
        }
        if self.borrowed_elements(local) || self.borrowed_place(local) {
            return true;
        }
        match rewrite(local) {
            Some(Ok(r)) => {
                r.errors.into_iter().for_each(|e| self.error(e));
                r.lets.iter().for_each(|l| self.local(l, out));
                self.bind_fields(&r.fields);
            }
            Some(Err(e)) => {
                self.error(e);
                self.poison(&local.pat);
            }
            None => return false,
        }
        true
    }

    /// `let a = v;` of an array parameter taken by reference (`v: &[f64; N]`): `a` is read as
    /// the array (`a[i]` reads through the reference), so the `let` copies it, `let a = *v;`.
    fn reference_copied(&mut self, local: &syn::Local) -> Option<syn::Local> {
        // `let a = v;` only: `let a: &[f64; 2] = v;` names the reference's type, and a `mut` one
        // may later point elsewhere (`a = w;`), which a copy cannot follow.
        if !matches!(&local.pat, syn::Pat::Ident(pi) if pi.mutability.is_none()) {
            return None;
        }
        let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
        let syn::Expr::Path(p) = &*init.expr else {
            return None;
        };
        let var = self.lookup(&p.path.get_ident()?.to_string())?;
        let v = &self.f.vars[var];
        if !v.by_ref || self.f.types.kind(v.ty) != Kind::Array {
            return None;
        }
        let mut copy = local.clone();
        let span = init.expr.span();
        let value = &init.expr;
        *copy.init.as_mut()?.expr = syn::parse_quote_spanned!(span=> *#value);
        Some(copy)
    }

    /// `let [a, b] = &v;` (or `&mut v`) of a place, or `let [a, b] = v;` of an array parameter
    /// taken by reference: Rust binds each name to a reference to its element, so each is an
    /// alias of the element's place (`v[0]`), read as `a` or `*a` (and written as `*a = ..`
    /// through `&mut`), as a loop's `for a in v.iter()` is.
    fn borrowed_elements(&mut self, local: &syn::Local) -> bool {
        let (syn::Pat::Slice(s), Some(init)) = (&local.pat, &local.init) else {
            return false;
        };
        let array = match &*init.expr {
            syn::Expr::Reference(r) => &*r.expr,
            e @ syn::Expr::Path(_) => e,
            _ => return false,
        };
        // Names only: `mut a` binds a copy (edition 2021; 2024 refuses it) and `ref a` a
        // reference again; such patterns bind copies, as `let [a, b] = v;` does. So does a
        // rest, whose error the copies report.
        let mut leaves = Vec::new();
        let plain = |p: &syn::Pat| {
            matches!(p, syn::Pat::Ident(pi)
                if pi.mutability.is_none() && pi.by_ref.is_none() && pi.subpat.is_none())
        };
        if init.diverge.is_some()
            || !local.attrs.is_empty()
            || leaves_of(s, array, &mut leaves).is_err()
            || !leaves.iter().all(|(p, _)| plain(p))
        {
            return false;
        }
        let borrowed = match self.place_or_const(array) {
            // An alias reads its place again at each use, where Rust took the reference once:
            // only over indices that cannot change (`&m[k]`, then `k += 1`, binds copies).
            Some((v, proj)) => {
                (matches!(&*init.expr, syn::Expr::Reference(_))
                    || (proj.is_empty() && self.f.vars[v].by_ref))
                    && self.fixed_indices(&proj)
            }
            None => false,
        };
        if !borrowed {
            return false;
        }
        let mut aliases = Vec::new();
        for (p, elem) in leaves {
            let (syn::Pat::Ident(pi), Some((v, proj))) = (&p, self.place(&elem)) else {
                return false;
            };
            let ty = self.place_ty(v, &proj);
            aliases.push((
                pi.ident.to_string(),
                super::Binding::Alias(v, proj, ty, true),
            ));
        }
        // All read before any is bound: `let [i, j] = &pairs[i];`.
        for (name, alias) in aliases {
            self.bind_name(name, alias);
        }
        true
    }

    /// `let q = &v[i];` (or `&p.w`, `&mut h[k]`, with a type or not) of an array, a struct or
    /// a float: `q` is an alias of the place, read as `q[j]`, `q.x` or `*q` (and written as
    /// `q[j] = ..` through `&mut`), as a loop's element is, where the place's indices cannot
    /// change after the `let`; else one error saying to copy or index instead. (A sub-slice,
    /// `&x[a..b]`, is a sub-slice's `let`.)
    fn borrowed_place(&mut self, local: &syn::Local) -> bool {
        let pat = match &local.pat {
            syn::Pat::Type(pt) => &*pt.pat,
            p => p,
        };
        let (syn::Pat::Ident(pi), Some(init)) = (pat, &local.init) else {
            return false;
        };
        let syn::Expr::Reference(r) = &*init.expr else {
            return false;
        };
        let plain = pi.mutability.is_none() && pi.by_ref.is_none() && pi.subpat.is_none();
        if !plain || init.diverge.is_some() || !local.attrs.is_empty() || sub_slice(&r.expr) {
            return false;
        }
        let Some((v, proj)) = self.place_or_const(&r.expr) else {
            // A group of an array: reported, its name bound to nothing that reports again.
            if self.group_at(&r.expr).is_some() {
                self.poison(&local.pat);
                return true;
            }
            return false;
        };
        // A whole slice or `Vec` is the sub-slice's and the `Vec`'s own `let`.
        if proj.is_empty() && (self.f.slices.contains(&v) || self.is_vec(v)) {
            return false;
        }
        if !self.fixed_indices(&proj) {
            let place = crate::names::user_text(&quote::ToTokens::to_token_stream(&r.expr));
            self.error(syn::Error::new_spanned(
                &init.expr,
                format!("a reference to `{place}` is an alias of the place, read again where it is used, so its indices may read only loop counters, parameters, constants and locals that are not `mut`: copy the element (`let {} = {place};`) or read `{place}` where it is needed", pi.ident),
            ));
            self.poison(&local.pat);
            return true;
        }
        let ty = self.place_ty(v, &proj);
        self.bind_name(
            pi.ident.to_string(),
            super::Binding::Alias(v, proj, ty, true),
        );
        true
    }

    /// Whether `proj`'s indices read only values never assigned: literals, loop counters,
    /// parameters, constants and locals that are not `mut` (`let k = idx[t];`; each use of
    /// the alias reads them again: [`Lower::alias_place`]).
    fn fixed_indices(&self, proj: &[Proj]) -> bool {
        let mut reads = Vec::new();
        for i in proj.iter().flat_map(Proj::pures) {
            crate::walk::pure_reads(i, &mut reads);
        }
        (reads.iter()).all(|(v, ..)| !self.f.vars[*v].mutable)
    }

    /// A field or index of something that is not a place: `x.sin_cos().0` is `x.sin()`, `.1`
    /// is `x.cos()`; anything else is an error.
    pub(super) fn not_a_place(&mut self, e: &syn::Expr, out: &mut Block) -> Operand {
        if let Some(element) = sin_cos_element(e) {
            return self.float(&element, out);
        }
        let msg = match e {
            syn::Expr::Index(i) if super::array_fns::is_array_fn(&i.expr) => {
                super::array_fns::NOT_HERE
            }
            _ => "index or field of something that is not a local, a parameter or a loop element",
        };
        self.error(syn::Error::new_spanned(e, msg));
        self.dummy()
    }

    /// Binds each tuple field of a [`Rewrite`] (`t.0`) to the local of ours that holds it, which
    /// its own name then no longer finds.
    pub(super) fn bind_fields(&mut self, fields: &[(String, String)]) {
        for (field, local) in fields {
            let Some(v) = self.lookup(local) else {
                continue;
            };
            let scope = self.scopes.last_mut().unwrap();
            scope.remove(local);
            scope.insert(field.clone(), super::Binding::Var(v));
            self.tuple_fields.insert(v, field.clone());
        }
    }
}

/// Whether a place expression takes a sub-slice anywhere (`x[a..b]`, `x[a..][i]`).
fn sub_slice(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Index(ix) => matches!(&*ix.index, syn::Expr::Range(_)) || sub_slice(&ix.expr),
        syn::Expr::Field(f) => sub_slice(&f.base),
        syn::Expr::Paren(p) => sub_slice(&p.expr),
        _ => false,
    }
}
