//! `match` on integers, bools and fieldless enums, rewritten before lowering as the `if` chain
//! it stands for (each arm a `matches!` condition), so every context that takes an `if` (a
//! statement, a value, arms that `return` or `break`) takes a `match`:
//!
//! ```text
//! match n { 0 => a, 1 | 2 => b, k if k > 5 => c, _ => d }
//! if matches!(n, 0) { a } else if matches!(n, 1 | 2) { b } else if (n) > 5 { let k = n; c } else { d }
//! ```
//!
//! The scrutinee is bound once (`let` before the chain) unless it is a place. A tuple written
//! out (`match (i, j)`, `match (x > 0.0, mode)`) has each element bound once so, and its arms'
//! tuple patterns test element by element (`(0, _) | (_, 0)` as `matches!(i, 0) ||
//! matches!(j, 0)`, a name binding the element it stands for). Also here: which
//! parameters the function matches on by enum variant (`match mode { Mode::Fast => .. }`): those
//! are fieldless enums, taken by value or by reference and never differentiated.

use std::collections::HashSet;

use proc_macro2::{Ident, Span};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use crate::ir::Kind;

/// The name the scrutinee of a `match` on a computed value is bound to.
pub(super) const SCRUTINEE: &str = "__stackgrad_match";

/// Whether `id` is a scrutinee the rewrite bound (`__stackgrad_match`, or an element of a tuple,
/// `__stackgrad_match_1`): an integer, a bool or an enum.
pub(super) fn is_scrutinee(id: &Ident) -> bool {
    id.to_string().starts_with(SCRUTINEE)
}

/// The kind of the scrutinee `id` bound to a value of kind `kind`: an integer, a bool or an
/// enum (taken as an integer), never a float, but for an element of a tuple matched (`(_, 0)`
/// against `(x * 2.0, i)`).
pub(super) fn scrutinee_kind(id: &Ident, kind: Option<Kind>) -> Kind {
    match kind {
        Some(Kind::Bool) => Kind::Bool,
        Some(Kind::Float) if id != SCRUTINEE => Kind::Float,
        _ => Kind::Int,
    }
}

/// What `matches!` conditions do not support: the error for such a pattern.
pub(super) const UNSUPPORTED_PATTERN: &str = "this pattern is not supported in a `match`: match integers, bools and fieldless enum variants (`0`, `1..=3`, `Mode::Fast`, `A | B`, `_`), and bind the whole value (`n => ..`, `n @ 1..=3 => ..`)";

/// What a `match` on a tuple written out does not support: the error for such a pattern.
const UNSUPPORTED_TUPLE_PATTERN: &str = "this pattern is not supported in a `match` on a tuple: match each element as a `match` would (`0`, `1..=3`, `Mode::Fast`, `_`, a name), with as many elements as the tuple (or `..`), and or-patterns that bind no name (`(0, _) | (_, 0)`)";

/// Rewrites every `match` in `block` as an `if` chain; an arm with a pattern that is not
/// supported is left out, with an error.
pub(super) fn desugar(block: &mut syn::Block) -> Vec<syn::Error> {
    /// The errors, and the number of the next element bound (unique in the function, so that
    /// a `match` within a guard binds no name the guard's own names stand for).
    struct Rewrite(Vec<syn::Error>, usize);
    impl VisitMut for Rewrite {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            syn::visit_mut::visit_expr_mut(self, e);
            if let syn::Expr::Match(m) = e
                && let syn::Expr::Tuple(_) = &*m.expr
            {
                let s = leaves(&m.expr, &mut 0);
                let mut named = Vec::new();
                for arm in &m.arms {
                    let _ = test(&arm.pat, &s, &mut named);
                }
                let named: HashSet<usize> = named.iter().map(|(_, leaf, _)| *leaf).collect();
                let mut binds = Vec::new();
                let s = bound(s, &named, &mut binds, &mut self.1);
                *e = tuple_chain(m, &s, binds, &mut self.0);
            } else if let syn::Expr::Match(m) = e {
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
    let mut r = Rewrite(Vec::new(), 0);
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
    chain(branches, bind.into_iter().collect())
}

/// The scrutinee of a `match` on a tuple written out: each element a value (with its number,
/// counting the elements in order, within tuples within too), a tuple within written out in
/// turn.
enum Scrutinee {
    Value(Box<syn::Expr>, usize),
    Tuple(Vec<Scrutinee>),
}

/// `e`'s elements as they are written, numbered from `n`.
fn leaves(e: &syn::Expr, n: &mut usize) -> Scrutinee {
    if let syn::Expr::Tuple(t) = e {
        return Scrutinee::Tuple(t.elems.iter().map(|e| leaves(e, n)).collect());
    }
    *n += 1;
    Scrutinee::Value(Box::new(e.clone()), *n - 1)
}

/// The elements bound to `let`s pushed on `binds`, in the order Rust evaluates them (it
/// evaluates the tuple before any arm): one an arm binds a name to (its number in `named`) to
/// `__stackgrad_element_K`, typed as a `let` of it would be (a float keeps its derivative:
/// `(v, 0) => v * v`), so that the names are bound to the values of before (`(j, i)` against
/// `(i, j)` swaps them); another to `__stackgrad_match_K`, an integer, a bool or an enum as a
/// scrutinee is (a float if it is one), unless it is a place, read where it is tested.
/// `next` numbers the `let`s.
fn bound(
    s: Scrutinee,
    named: &HashSet<usize>,
    binds: &mut Vec<syn::Stmt>,
    next: &mut usize,
) -> Scrutinee {
    let (e, leaf) = match s {
        Scrutinee::Tuple(t) => {
            let elems = t.into_iter().map(|s| bound(s, named, binds, next));
            return Scrutinee::Tuple(elems.collect());
        }
        Scrutinee::Value(e, leaf) => (e, leaf),
    };
    let prefix = match named.contains(&leaf) {
        true => "__stackgrad_element",
        false if is_place(&e) => return Scrutinee::Value(e, leaf),
        false => SCRUTINEE,
    };
    let id = Ident::new(&format!("{prefix}_{next}"), Span::call_site());
    *next += 1;
    binds.push(syn::parse_quote!(let #id = #e;));
    Scrutinee::Value(Box::new(syn::parse_quote!(#id)), leaf)
}

/// The condition under which `pat` matches `s` (`None`: always), pushing the names it binds
/// (`k`, `mut k`) with the numbers and values of their elements on `names`; `Err` with the
/// first sub-pattern that is not supported.
fn test<'p>(
    pat: &'p syn::Pat,
    s: &Scrutinee,
    names: &mut Vec<(syn::PatIdent, usize, syn::Expr)>,
) -> Result<Option<syn::Expr>, &'p syn::Pat> {
    let all = |conds: Vec<syn::Expr>, op: syn::BinOp| {
        conds
            .into_iter()
            .reduce(|a, b| syn::parse_quote!((#a) #op (#b)))
    };
    match (pat, s) {
        (syn::Pat::Wild(_), _) => Ok(None),
        (syn::Pat::Paren(p), _) => test(&p.pat, s, names),
        (syn::Pat::Ident(pi), Scrutinee::Value(v, leaf))
            if pi.by_ref.is_none() && !is_variant_like(&pi.ident) =>
        {
            names.push((pi.clone(), *leaf, (**v).clone()));
            match &pi.subpat {
                Some((_, sub)) => test(sub, s, names),
                None => Ok(None),
            }
        }
        (syn::Pat::Tuple(t), Scrutinee::Tuple(elems)) => {
            let pats: Vec<&syn::Pat> = t.elems.iter().collect();
            let pairs: Vec<(&syn::Pat, &Scrutinee)> =
                match pats.iter().position(|p| matches!(p, syn::Pat::Rest(_))) {
                    None if pats.len() == elems.len() => pats.into_iter().zip(elems).collect(),
                    Some(r) if pats.len() <= elems.len() + 1 => {
                        let after = pats.len() - r - 1;
                        let tail = &elems[elems.len() - after..];
                        (pats[..r].iter().copied().zip(elems))
                            .chain(pats[r + 1..].iter().copied().zip(tail))
                            .collect()
                    }
                    _ => return Err(pat),
                };
            let mut conds = Vec::new();
            for (p, s) in pairs {
                conds.extend(test(p, s, names)?);
            }
            Ok(all(conds, syn::parse_quote!(&&)))
        }
        (syn::Pat::Or(o), _) => {
            let mut conds = Vec::new();
            for case in &o.cases {
                let before = names.len();
                let cond = test(case, s, names)?;
                if names.len() > before {
                    return Err(case);
                }
                match cond {
                    Some(c) => conds.push(c),
                    None => return Ok(None),
                }
            }
            Ok(all(conds, syn::parse_quote!(||)))
        }
        (p, Scrutinee::Value(v, _)) if binding_in(p).is_none() => {
            Ok(Some(syn::parse_quote!(::core::matches!(#v, #p))))
        }
        _ => Err(pat),
    }
}

/// `matches!((a, b), pattern)` of a tuple written out (`None` for another value): the
/// condition it stands for, each element read where the pattern tests it (a condition computes
/// no derivative, and reading twice changes nothing; a name binds nothing, as `_`); an error
/// on the first sub-pattern that is not supported.
pub(super) fn tuple_matches(e: &syn::Expr, pat: &syn::Pat) -> Option<syn::Result<syn::Expr>> {
    let syn::Expr::Tuple(_) = e else {
        return None;
    };
    Some(match test(pat, &leaves(e, &mut 0), &mut Vec::new()) {
        Ok(cond) => Ok(cond.unwrap_or_else(|| syn::parse_quote!(true))),
        Err(bad) => Err(syn::Error::new_spanned(bad, UNSUPPORTED_TUPLE_PATTERN)),
    })
}

/// A `match` on a tuple written out as an `if` chain, its elements bound first (`binds`). On
/// a pattern that is not supported, an error on it (pushed on `errors`) and what stands for
/// the `match` then: the last arm whose pattern is supported (else the last that binds no
/// name), so that the error is the only one.
fn tuple_chain(
    m: &syn::ExprMatch,
    s: &Scrutinee,
    binds: Vec<syn::Stmt>,
    errors: &mut Vec<syn::Error>,
) -> syn::Expr {
    let mut branches: Vec<(Option<syn::Expr>, syn::Block)> = Vec::new();
    let mut bad: Option<&syn::Pat> = None;
    for (n, arm) in m.arms.iter().enumerate() {
        let mut names = Vec::new();
        let cond = match test(&arm.pat, s, &mut names) {
            Ok(cond) => cond,
            Err(p) => {
                bad.get_or_insert(p);
                continue;
            }
        };
        let guard = arm.guard.as_ref().map(|(_, g)| {
            let mut g = (**g).clone();
            for (name, _, value) in &names {
                g = replace(&g, &name.ident, value);
            }
            g
        });
        let cond = match (cond, guard) {
            (Some(c), Some(g)) => Some(syn::parse_quote!((#c) && (#g))),
            (c, g) => c.or(g),
        };
        let mut block = arm_block(arm, None);
        for (name, _, value) in names.iter().rev() {
            let (mutability, name) = (&name.mutability, &name.ident);
            let bind = syn::parse_quote!(let #mutability #name = #value;);
            block.stmts.insert(0, bind);
        }
        // The last arm runs when no other did (rustc checks the `match` is exhaustive).
        let cond = if n + 1 == m.arms.len() { None } else { cond };
        let catch_all = cond.is_none();
        branches.push((cond, block));
        if catch_all {
            break;
        }
    }
    if let Some(bad) = bad {
        errors.push(syn::Error::new_spanned(bad, UNSUPPORTED_TUPLE_PATTERN));
        return match branches.pop() {
            Some((_, block)) => chain(vec![(None, block)], binds),
            None => match m.arms.iter().rfind(|a| !binds_names(&a.pat)) {
                Some(arm) => block_expr(arm_block(arm, None)),
                None => syn::parse_quote!({}),
            },
        };
    }
    chain(branches, binds)
}

fn block_expr(block: syn::Block) -> syn::Expr {
    syn::Expr::Block(syn::ExprBlock {
        attrs: Vec::new(),
        label: None,
        block,
    })
}

/// `if c0 { b0 } else if c1 { b1 } .. else { bn }` of `branches` (a `None` condition is the
/// `else`), after the statements `binds`.
fn chain(branches: Vec<(Option<syn::Expr>, syn::Block)>, binds: Vec<syn::Stmt>) -> syn::Expr {
    let mut chain: Option<syn::Expr> = None;
    for (cond, block) in branches.into_iter().rev() {
        chain = Some(match (cond, chain) {
            (None, _) => block_expr(block),
            (Some(c), Some(els)) => syn::parse_quote!(if #c #block else #els),
            (Some(c), None) => syn::parse_quote!(if #c #block),
        });
    }
    let chain = chain.unwrap_or_else(|| syn::parse_quote!({}));
    if binds.is_empty() {
        chain
    } else {
        syn::parse_quote!({ #(#binds)* #chain })
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
    /// The names `pat` (or a case of it) matches against an enum variant: `e` itself, or
    /// the elements of a tuple written out (a tuple within too): `m` in `(Mode::A, 0)`
    /// against `(m, k)`.
    fn tuple_variants(e: &syn::Expr, pat: &syn::Pat, out: &mut HashSet<String>) {
        match (e, pat) {
            (_, syn::Pat::Or(o)) => o.cases.iter().for_each(|p| tuple_variants(e, p, out)),
            (_, syn::Pat::Paren(p)) => tuple_variants(e, &p.pat, out),
            (syn::Expr::Tuple(t), syn::Pat::Tuple(pt)) => {
                // The patterns after a `..` line up with the last elements.
                let rest = pt.elems.iter().position(|p| matches!(p, syn::Pat::Rest(_)));
                let (before, after) = match rest {
                    Some(r) => (r, pt.elems.len() - r - 1),
                    None => (pt.elems.len(), 0),
                };
                let tail = t.elems.len().saturating_sub(after);
                let pats = pt.elems.iter().take(before).zip(&t.elems).chain(
                    pt.elems
                        .iter()
                        .skip(pt.elems.len() - after)
                        .zip(t.elems.iter().skip(tail)),
                );
                for (p, e) in pats {
                    tuple_variants(e, p, out);
                }
            }
            (e, p) if variant(p) => out.extend(name(e)),
            _ => {}
        }
    }
    impl<'a> Visit<'a> for Find {
        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
            // `match m { Mode::A => .. }`, `match (m, k) { (Mode::A, 0) => .. }`.
            for a in &m.arms {
                tuple_variants(&m.expr, &a.pat, &mut self.0);
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
            let Some(Ok((e, pat))) = matches_args(m) else {
                return;
            };
            // `matches!(m, Mode::A)`, `matches!((m, k), (Mode::A, 0) | (Mode::B, _))`.
            tuple_variants(&e, &pat, &mut self.0);
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
    fn a_tuple_is_matched_element_by_element() {
        let out = chain(
            "{ match (i, j % 2) { (0, _) | (_, 0) => a, (k, 1) if k > 2 => b, (.., mut m) => c } }",
        );
        assert_eq!(
            out,
            "{ { let __stackgrad_element_0 = i ; let __stackgrad_element_1 = j % 2 ; if (:: core :: matches ! (__stackgrad_element_0 , 0)) || (:: core :: matches ! (__stackgrad_element_1 , 0)) { a } else if (:: core :: matches ! (__stackgrad_element_1 , 1)) && ((__stackgrad_element_0) > 2) { let k = __stackgrad_element_0 ; b } else { let mut m = __stackgrad_element_1 ; c } } }"
        );
    }

    #[test]
    fn an_element_no_arm_names_is_bound_as_a_scrutinee() {
        let out = chain("{ match (x * 2.0, n % 3) { (v, 0) => v, _ => w } }");
        assert_eq!(
            out,
            "{ { let __stackgrad_element_0 = x * 2.0 ; let __stackgrad_match_1 = n % 3 ; if :: core :: matches ! (__stackgrad_match_1 , 0) { let v = __stackgrad_element_0 ; v } else { w } } }"
        );
    }

    #[test]
    fn names_are_bound_to_the_values_of_before() {
        let out = chain("{ match (i, j, n) { (j, i, 0) if j > i => a, _ => b } }");
        assert_eq!(
            out,
            "{ { let __stackgrad_element_0 = i ; let __stackgrad_element_1 = j ; if (:: core :: matches ! (n , 0)) && ((__stackgrad_element_0) > (__stackgrad_element_1)) { let j = __stackgrad_element_0 ; let i = __stackgrad_element_1 ; a } else { b } } }"
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
            "{ match *mode { Mode::A => 1.0, _ => 2.0 }; match n { 0 => a, _ => b }; if matches!(other, Kind::X | Kind::Y) { } match (k, (n, m)) { (0, (.., Mode::B)) | (_, (Kind::X, _)) => a, _ => b } if matches!((*p, q, r), (.., Kind::X) | (_, 1, _)) { } }",
        )
        .unwrap();
        let mut found: Vec<_> = enum_scrutinees(&b).into_iter().collect();
        found.sort();
        assert_eq!(found, ["m", "mode", "n", "other", "r"]);
    }
}
