//! `match` on integers, bools and fieldless enums, rewritten before lowering as the `if` chain
//! it stands for (each arm a `matches!` condition), so every context that takes an `if` (a
//! statement, a value, arms that `return` or `break`) takes a `match`:
//!
//! ```text
//! match n { 0 => a, 1 | 2 => b, k if k > 5 => c, _ => d }
//! if matches!(n, 0) { a } else if matches!(n, 1 | 2) { b } else if (n) > 5 { let k = n; c } else { d }
//! ```
//!
//! The scrutinee is bound once (`let` before the chain) unless it is a place. Also here: which
//! parameters the function matches on by enum variant (`match mode { Mode::Fast => .. }`): those
//! are fieldless enums, taken by value or by reference and never differentiated.

use std::collections::HashSet;

use proc_macro2::{Ident, Span};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// The name the scrutinee of a `match` on a computed value is bound to.
pub(super) const SCRUTINEE: &str = "__stackgrad_match";

/// What `matches!` conditions do not support: the error for such a pattern.
pub(super) const UNSUPPORTED_PATTERN: &str = "this pattern is not supported in a `match`: match integers, bools and fieldless enum variants (`0`, `1..=3`, `Mode::Fast`, `A | B`, `_`), and bind the whole value (`n => ..`, `n @ 1..=3 => ..`)";

/// Rewrites every `match` in `block` as an `if` chain; an arm with a pattern that is not
/// supported is left out, with an error.
pub(super) fn desugar(block: &mut syn::Block) -> Vec<syn::Error> {
    struct Rewrite(Vec<syn::Error>);
    impl VisitMut for Rewrite {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            syn::visit_mut::visit_expr_mut(self, e);
            if let syn::Expr::Match(m) = e {
                let before = m.arms.len();
                let mut removed = Vec::new();
                m.arms.retain(|a| {
                    let pat = match &a.pat {
                        syn::Pat::Ident(pi) => pi.subpat.as_ref().map_or(&a.pat, |s| &*s.1),
                        p => p,
                    };
                    let bad = binding_in(pat)
                        .filter(|_| !matches!(&a.pat, syn::Pat::Ident(pi) if pi.subpat.is_none()));
                    // One error per `match`, on its first such pattern.
                    if let Some(bad) = bad {
                        if removed.is_empty() {
                            self.0
                                .push(syn::Error::new_spanned(bad, UNSUPPORTED_PATTERN));
                        }
                        removed.push(a.clone());
                    }
                    bad.is_none()
                });
                // With every arm left out, the value is that of one that binds no name (`(0, _)
                // => x`), so that its `match` still has one.
                let all_good = m.arms.len() == before;
                if m.arms.is_empty()
                    && let Some(arm) = removed.into_iter().rfind(|a| !binds_names(&a.pat))
                {
                    m.arms.push(arm);
                }
                // After an error, only the last arm's body is lowered (nothing more to report
                // about the scrutinee or the other arms).
                *e = match m.arms.last() {
                    Some(_) if all_good => if_chain(m),
                    Some(last) => syn::Expr::Block(syn::ExprBlock {
                        attrs: Vec::new(),
                        label: None,
                        block: arm_block(last, None),
                    }),
                    None => syn::parse_quote!({}),
                };
            }
        }
    }
    let mut r = Rewrite(Vec::new());
    r.visit_block_mut(block);
    r.0
}

/// Whether a pattern binds a name (`Some(s)`, `(n, _)`).
fn binds_names(p: &syn::Pat) -> bool {
    struct Names(bool);
    impl<'a> Visit<'a> for Names {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            self.0 |= !is_variant_like(&p.ident);
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut n = Names(false);
    n.visit_pat(p);
    n.0
}

/// The first sub-pattern that is not an integer, bool or fieldless variant (`Some(x)`,
/// `S { a, .. }`, a tuple): what a `match` arm's condition does not support.
pub(super) fn binding_in(p: &syn::Pat) -> Option<&syn::Pat> {
    match p {
        syn::Pat::Lit(_) | syn::Pat::Range(_) | syn::Pat::Path(_) | syn::Pat::Wild(_) => None,
        syn::Pat::Ident(pi) if pi.subpat.is_none() && is_variant_like(&pi.ident) => None,
        syn::Pat::Or(o) => o.cases.iter().find_map(binding_in),
        syn::Pat::Paren(pp) => binding_in(&pp.pat),
        other => Some(other),
    }
}

/// `Fast` in a pattern (a variant brought into scope with `use`), not a binding `fast`.
fn is_variant_like(id: &Ident) -> bool {
    id.to_string().starts_with(|c: char| c.is_ascii_uppercase())
}

/// Is `e` a place (a name, a field, an element, `*r`) that can be read twice unchanged?
fn is_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => p.path.get_ident().is_some(),
        syn::Expr::Field(f) => is_place(&f.base),
        syn::Expr::Index(i) => is_place(&i.expr),
        syn::Expr::Paren(p) => is_place(&p.expr),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Deref(_)) && is_place(&u.expr),
        _ => false,
    }
}

/// `guard` with the arm's binding `name` read as the scrutinee `value` (a place, read again).
fn replace(guard: &syn::Expr, name: &Ident, value: &syn::Expr) -> syn::Expr {
    struct R<'a>(&'a Ident, &'a syn::Expr);
    impl VisitMut for R<'_> {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            match e {
                syn::Expr::Path(p) if p.path.is_ident(self.0) => {
                    let v = self.1;
                    *e = syn::parse_quote!((#v));
                }
                _ => syn::visit_mut::visit_expr_mut(self, e),
            }
        }
    }
    let mut g = guard.clone();
    R(name, value).visit_expr_mut(&mut g);
    g
}

/// An arm's body as a block.
fn arm_block(arm: &syn::Arm, bind: Option<(&Ident, &syn::Expr)>) -> syn::Block {
    let body = &arm.body;
    let mut block: syn::Block = match &**body {
        syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => b.block.clone(),
        e => syn::parse_quote!({ #e }),
    };
    if let Some((name, value)) = bind {
        block
            .stmts
            .insert(0, syn::parse_quote!(let #name = #value;));
    }
    block
}

/// `match s { arms }` as `if` / `else if` / `else`.
fn if_chain(m: &syn::ExprMatch) -> syn::Expr {
    let scrutinee = &*m.expr;
    let (value, bind): (syn::Expr, Option<syn::Stmt>) = if is_place(scrutinee) {
        (scrutinee.clone(), None)
    } else {
        let s = Ident::new(SCRUTINEE, Span::call_site());
        (
            syn::parse_quote!(#s),
            Some(syn::parse_quote!(let #s = #scrutinee;)),
        )
    };
    // Conditions and bodies, up to the first arm that matches anything (the `else`).
    let mut branches: Vec<(Option<syn::Expr>, syn::Block)> = Vec::new();
    for (n, arm) in m.arms.iter().enumerate() {
        let last = n + 1 == m.arms.len();
        let guard = arm.guard.as_ref().map(|(_, g)| &**g);
        let (cond, name): (Option<syn::Expr>, Option<&Ident>) = match &arm.pat {
            syn::Pat::Wild(_) => (guard.cloned(), None),
            syn::Pat::Ident(pi) if pi.subpat.is_none() && !is_variant_like(&pi.ident) => {
                let id = &pi.ident;
                (guard.map(|g| replace(g, id, &value)), Some(id))
            }
            // `n @ 1..=3 if n != 2`: the condition on the value, the name bound in the arm.
            syn::Pat::Ident(pi)
                if pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_some() =>
            {
                let id = &pi.ident;
                let pat = &pi.subpat.as_ref().unwrap().1;
                let test: syn::Expr = syn::parse_quote!(::core::matches!(#value, #pat));
                let cond = match guard {
                    Some(g) => {
                        let g = replace(g, id, &value);
                        syn::parse_quote!(#test && (#g))
                    }
                    None => test,
                };
                (Some(cond), Some(id))
            }
            pat => {
                let test: syn::Expr = syn::parse_quote!(::core::matches!(#value, #pat));
                (
                    Some(match guard {
                        Some(g) => syn::parse_quote!(#test && (#g)),
                        None => test,
                    }),
                    None,
                )
            }
        };
        let block = arm_block(arm, name.map(|id| (id, &value)));
        // The last arm runs when no other did (rustc checks the `match` is exhaustive).
        let cond = if last { None } else { cond };
        let catch_all = cond.is_none();
        branches.push((cond, block));
        if catch_all {
            break;
        }
    }
    let mut chain: Option<syn::Expr> = None;
    for (cond, block) in branches.into_iter().rev() {
        chain = Some(match (cond, chain) {
            (None, _) => syn::Expr::Block(syn::ExprBlock {
                attrs: Vec::new(),
                label: None,
                block,
            }),
            (Some(c), Some(els)) => syn::parse_quote!(if #c #block else #els),
            (Some(c), None) => syn::parse_quote!(if #c #block),
        });
    }
    let chain = chain.unwrap_or_else(|| syn::parse_quote!({}));
    match bind {
        Some(b) => syn::parse_quote!({ #b #chain }),
        None => chain,
    }
}

/// The value and pattern of a `matches!(value, pattern)` (a trailing comma allowed; a guard is
/// an error); `None` for another macro.
pub(super) fn matches_args(m: &syn::ExprMacro) -> Option<syn::Result<(syn::Expr, syn::Pat)>> {
    if m.mac.path.segments.last()?.ident != "matches" {
        return None;
    }
    Some(m.mac.parse_body_with(|input: syn::parse::ParseStream| {
        let e: syn::Expr = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
        let _ = input.parse::<Option<syn::Token![,]>>()?;
        Ok((e, pat))
    }))
}

/// The parameters the body matches on by enum variant (`match mode { Mode::Fast => .. }`,
/// `match *mode`, `matches!(mode, Mode::Fast)`).
pub(super) fn enum_scrutinees(block: &syn::Block) -> HashSet<String> {
    struct Find(HashSet<String>);
    fn name(e: &syn::Expr) -> Option<String> {
        match e {
            syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => name(&u.expr),
            syn::Expr::Paren(p) => name(&p.expr),
            _ => None,
        }
    }
    fn variant(p: &syn::Pat) -> bool {
        match p {
            syn::Pat::Path(pp) => pp.path.segments.len() > 1,
            syn::Pat::Or(o) => o.cases.iter().any(variant),
            _ => false,
        }
    }
    impl<'a> Visit<'a> for Find {
        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
            if m.arms.iter().any(|a| variant(&a.pat))
                && let Some(n) = name(&m.expr)
            {
                self.0.insert(n);
            }
            // `match (m, k) { (Mode::A, 0) => .. }` (an error of its own): `m` is an enum.
            if let syn::Expr::Tuple(t) = &*m.expr {
                for a in &m.arms {
                    if let syn::Pat::Tuple(pt) = &a.pat {
                        for (e, p) in t.elems.iter().zip(&pt.elems) {
                            if variant(p) {
                                self.0.extend(name(e));
                            }
                        }
                    }
                }
            }
            syn::visit::visit_expr_match(self, m);
        }
        // `if let Mode::A = m` and `let Mode::A = m else { .. }` (errors of their own).
        fn visit_expr_let(&mut self, l: &'a syn::ExprLet) {
            if variant(&l.pat) {
                self.0.extend(name(&l.expr));
            }
            syn::visit::visit_expr_let(self, l);
        }
        fn visit_local(&mut self, l: &'a syn::Local) {
            if let Some(init) = &l.init
                && init.diverge.is_some()
                && variant(&l.pat)
            {
                self.0.extend(name(&init.expr));
            }
            syn::visit::visit_local(self, l);
        }
        fn visit_expr_macro(&mut self, m: &'a syn::ExprMacro) {
            if let Some(Ok((e, pat))) = matches_args(m)
                && variant(&pat)
                && let Some(n) = name(&e)
            {
                self.0.insert(n);
            }
        }
    }
    let mut f = Find(HashSet::new());
    f.visit_block(block);
    f.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn chain(src: &str) -> String {
        let mut b: syn::Block = syn::parse_str(src).unwrap();
        desugar(&mut b);
        b.to_token_stream().to_string()
    }

    #[test]
    fn arms_become_an_if_chain() {
        let out = chain("{ match n { 0 => a, 1 | 2 => b, k if k > 5 => c, _ => d } }");
        assert_eq!(
            out,
            "{ if :: core :: matches ! (n , 0) { a } else if :: core :: matches ! (n , 1 | 2) { b } else if (n) > 5 { let k = n ; c } else { d } }"
        );
    }

    #[test]
    fn a_computed_scrutinee_is_bound_once() {
        let out = chain("{ match i % 3 { 0 => a, _ => b } }");
        assert_eq!(
            out,
            "{ { let __stackgrad_match = i % 3 ; if :: core :: matches ! (__stackgrad_match , 0) { a } else { b } } }"
        );
    }

    #[test]
    fn the_last_arm_is_the_else() {
        let out = chain("{ match m { Mode::A => a, Mode::B => b } }");
        assert_eq!(
            out,
            "{ if :: core :: matches ! (m , Mode :: A) { a } else { b } }"
        );
    }

    #[test]
    fn enum_parameters_are_found_by_their_variants() {
        let b: syn::Block = syn::parse_str(
            "{ match *mode { Mode::A => 1.0, _ => 2.0 }; match n { 0 => a, _ => b }; if matches!(other, Kind::X | Kind::Y) { } }",
        )
        .unwrap();
        let mut found: Vec<_> = enum_scrutinees(&b).into_iter().collect();
        found.sort();
        assert_eq!(found, ["mode", "other"]);
    }
}
