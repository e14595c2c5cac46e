//! `.skip(k)`, `.step_by(s)` and `.take(n)` after `.enumerate()`, rewritten before lowering as
//! the loop the lowering takes: `skip` and `step_by` as the range of the indices they keep,
//! each element borrowed by its index; `take` right after each `.iter()` (of the array, and of
//! the one it is zipped with).
//!
//! ```text
//! for (i, v) in a.iter().enumerate().skip(k) { .. }
//!     =>  for i in k..a.len() { let v = &a[i]; .. }
//! for (i, v) in a.iter().enumerate().step_by(s) { .. }
//!     =>  for i in (0..a.len()).step_by(s) { let v = &a[i]; .. }
//! for (i, (p, q)) in a.iter().zip(b.iter()).enumerate().take(n) { .. }
//!     =>  for (i, (p, q)) in a.iter().take(n).zip(b.iter().take(n)).enumerate() { .. }
//! ```
//!
//! `k`, `s` and `n` are names or literals (read again); other loops are left for the lowering's
//! errors. And `for (_, v) in X.enumerate()`, whose index is not read, is the loop over `X`.

use syn::visit_mut::VisitMut;

/// Rewrites the `for` loops of `block` whose iterator ends in `.enumerate().skip(k)`,
/// `.enumerate().step_by(s)` or `.enumerate().take(n)`.
pub(super) fn desugar(block: &mut syn::Block) {
    struct Rewrite;
    impl VisitMut for Rewrite {
        fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
            syn::visit_mut::visit_expr_for_loop_mut(self, f);
            rewrite(f);
            unenumerated(f);
        }
    }
    Rewrite.visit_block_mut(block);
}

/// `for (_, v) in X.enumerate()` (also `.enumerate().rev()`): the index not read, the loop
/// over `X` alone.
fn unenumerated(f: &mut syn::ExprForLoop) {
    let syn::Pat::Tuple(t) = &*f.pat else {
        return;
    };
    let (Some(syn::Pat::Wild(_)), Some(elements), 2) =
        (t.elems.first(), t.elems.last(), t.elems.len())
    else {
        return;
    };
    let elements = elements.clone();
    let (e, rev) = match &*f.expr {
        syn::Expr::MethodCall(r) if r.method == "rev" && r.args.is_empty() => (&*r.receiver, true),
        e => (e, false),
    };
    let syn::Expr::MethodCall(m) = e else {
        return;
    };
    if m.method != "enumerate" || !m.args.is_empty() {
        return;
    }
    let inner = &m.receiver;
    *f.expr = match rev {
        true => syn::parse_quote!(#inner.rev()),
        false => (**inner).clone(),
    };
    *f.pat = elements;
}

/// The loop rewritten, if its iterator is `X.enumerate().skip(k)`, `.step_by(s)` or `.take(n)` with `X`
/// `a.iter()` (or `iter_mut()`), or that zipped with `b.iter()`.
fn rewrite(f: &mut syn::ExprForLoop) {
    let syn::Expr::MethodCall(outer) = &*f.expr else {
        return;
    };
    let adapter = outer.method.to_string();
    let [count] = outer.args.iter().collect::<Vec<_>>()[..] else {
        return;
    };
    let syn::Expr::MethodCall(enumerate) = &*outer.receiver else {
        return;
    };
    if !matches!(adapter.as_str(), "skip" | "take" | "step_by")
        || enumerate.method != "enumerate"
        || !enumerate.args.is_empty()
        || !simple(count)
    {
        return;
    }
    if adapter == "take" {
        if let Some(inner) = adapted(&enumerate.receiver, &outer.method, count) {
            *f.expr = syn::parse_quote!(#inner.enumerate());
        }
        return;
    }
    // `.skip(k)`: the counter over `k..len` (`.step_by(s)`: over `(0..len).step_by(s)`), each
    // element borrowed by its index, so the counter stays one the lowering bounds (a
    // triangular loop inside may run to it).
    let count = count.clone();
    let syn::Pat::Tuple(t) = &*f.pat else {
        return;
    };
    let (Some(counter), Some(elements), 2) = (t.elems.first(), t.elems.last(), t.elems.len())
    else {
        return;
    };
    let counter: syn::Pat = match counter {
        syn::Pat::Ident(c)
            if c.mutability.is_none() && c.by_ref.is_none() && c.subpat.is_none() =>
        {
            counter.clone()
        }
        syn::Pat::Wild(_) => syn::parse_quote!(__stackgrad_index),
        _ => return,
    };
    let Some(arrays) = iterated(&enumerate.receiver) else {
        return;
    };
    let pats: Vec<&syn::Pat> = match (elements, arrays.len()) {
        (p, 1) => vec![p],
        (syn::Pat::Tuple(z), 2) if z.elems.len() == 2 => z.elems.iter().collect(),
        _ => return,
    };
    // The arrays are read again at each step, after the pattern's names are bound: none of
    // those names may appear in them, nor may the body assign one that does (Rust reads
    // each array once, when the loop starts).
    let mut read = Vec::new();
    for (a, _) in &arrays {
        read.extend(super::patterns::names_in(a));
    }
    let mut bound = Vec::new();
    super::patterns::bound_names(&f.pat, &mut bound);
    let mut assigned = super::assigned::Assigned::default();
    syn::visit::Visit::visit_block(&mut assigned, &f.body);
    if read
        .iter()
        .any(|n| bound.contains(n) || assigned.0.contains(n))
    {
        return;
    }
    let syn::Pat::Ident(syn::PatIdent { ident: i, .. }) = &counter else {
        return;
    };
    let mut lets: Vec<syn::Stmt> = Vec::new();
    for (p, (a, mutable)) in pats.iter().zip(&arrays) {
        let borrow = match mutable {
            true => quote::quote!(&mut),
            false => quote::quote!(&),
        };
        lets.push(match p {
            syn::Pat::Ident(v)
                if v.by_ref.is_none() && v.subpat.is_none() && v.mutability.is_none() =>
            {
                syn::parse_quote!(let #v = #borrow #a[#i];)
            }
            // `&v` of `iter()`: the element itself.
            syn::Pat::Reference(r) if !mutable => {
                let v = &r.pat;
                syn::parse_quote!(let #v = #a[#i];)
            }
            _ => return,
        });
    }
    let len = match &arrays[..] {
        [(a, _), (b, _)] => quote::quote!(::core::cmp::min(#a.len(), #b.len())),
        [(a, _), ..] => quote::quote!(#a.len()),
        [] => return,
    };
    *f.pat = counter.clone();
    *f.expr = match adapter.as_str() {
        "step_by" => syn::parse_quote!((0..#len).step_by(#count)),
        _ => syn::parse_quote!(#count..#len),
    };
    for (k, s) in lets.into_iter().enumerate() {
        f.body.stmts.insert(k, s);
    }
}

/// The arrays an iterator walks, and whether mutably: `a` of `a.iter()` (`iter_mut()`), `a`
/// and `b` of `a.iter().zip(b.iter())`.
fn iterated(e: &syn::Expr) -> Option<Vec<(syn::Expr, bool)>> {
    // The array is read again (its length, its elements): a place, as written.
    let iter = |e: &syn::Expr| match e {
        syn::Expr::MethodCall(m) if !super::patterns::is_simple_place(&m.receiver) => None,
        syn::Expr::MethodCall(m) if m.args.is_empty() && m.method == "iter" => {
            Some(((*m.receiver).clone(), false))
        }
        syn::Expr::MethodCall(m) if m.args.is_empty() && m.method == "iter_mut" => {
            Some(((*m.receiver).clone(), true))
        }
        _ => None,
    };
    if let Some(a) = iter(e) {
        return Some(vec![a]);
    }
    match e {
        syn::Expr::MethodCall(m) if m.method == "zip" && m.args.len() == 1 => {
            Some(vec![iter(&m.receiver)?, iter(&m.args[0])?])
        }
        _ => None,
    }
}

/// `a.iter()` as `a.iter().take(n)`, `a.iter().zip(b.iter())` as `a.iter().take(n).zip(b
/// .iter().take(n))` (`method` is `take`), or `None` for another iterator.
fn adapted(e: &syn::Expr, method: &syn::Ident, count: &syn::Expr) -> Option<syn::Expr> {
    let syn::Expr::MethodCall(m) = e else {
        return None;
    };
    let iter = |m: &syn::ExprMethodCall| {
        (m.method == "iter" || m.method == "iter_mut") && m.args.is_empty()
    };
    if iter(m) {
        return Some(syn::parse_quote!(#e.#method(#count)));
    }
    let (syn::Expr::MethodCall(a), [b]) = (&*m.receiver, &m.args.iter().collect::<Vec<_>>()[..])
    else {
        return None;
    };
    match &**b {
        syn::Expr::MethodCall(z) if m.method == "zip" && iter(a) && iter(z) => {
            Some(syn::parse_quote!(#a.#method(#count).zip(#b.#method(#count))))
        }
        _ => None,
    }
}

/// A count read again unchanged: a name or an integer literal.
fn simple(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some(),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(_),
            ..
        }) => true,
        _ => false,
    }
}
