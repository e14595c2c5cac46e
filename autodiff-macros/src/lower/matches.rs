//! `match` on integers, bools and fieldless enums, and on tuples of them written out, rewritten
//! before lowering as the `if` chain it stands for (each arm a `matches!` condition), so every
//! context that takes an `if` (a statement, a value, arms that `return` or `break`) takes a
//! `match`:
//!
//! ```text
//! match n { 0 => a, 1 | 2 => b, k if k > 5 => c, _ => d }
//! if matches!(n, 0) { a } else if matches!(n, 1 | 2) { b } else if (n) > 5 { let k = n; c } else { d }
//! ```
//!
//! The scrutinee is bound once (`let` before the chain) unless it is a place. A tuple written
//! out (`match (i, j)`, `match (x > 0.0, mode)`) has each element bound once so, and its arms'
//! tuple patterns test element by element (`(0, _) | (_, 0)` as `matches!(i, 0) ||
//! matches!(j, 0)`, a name binding the element it stands for); a scrutinee that is not a
//! tuple is its one element. Which parameters are enums: [`super::enum_params`].

use std::collections::HashSet;

use proc_macro2::{Ident, Span};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use crate::ir::Kind;

/// The names, numbered (`__stackgrad_match_0`), the rewrite binds a computed scrutinee or
/// element of one to, by what the arms tell of its kind: one they test by value with no float
/// literal (`0`, `1..=3`, `Mode::A`), or bind to a name they read as an integer (`n if n > 2`,
/// `a[n]`), is an integer, a bool or an enum.
const SCRUTINEE: &str = "__stackgrad_match";

/// One they bind by name without testing it so (`k => ..`, `(k, 0) => ..`), or test against a
/// float literal (`..=0.0`): typed as a `let` of it would be, a float where the syntax does not
/// tell (so a float keeps its derivative; a call's integer that no arm reads as one needs a
/// typed `let` before).
const BOUND: &str = "__stackgrad_bound";

/// One no arm reads (`(_, 0)` against `(x * 2.0, i)`), evaluated as Rust evaluates it: a bool
/// or a float by its kind, else an integer.
const BY_KIND: &str = "__stackgrad_scrutinee";

/// Whether `id` is a name the rewrite bound ([`SCRUTINEE`], [`BOUND`], [`BY_KIND`]).
pub(super) fn is_scrutinee(id: &Ident) -> bool {
    let id = id.to_string();
    [SCRUTINEE, BOUND, BY_KIND]
        .iter()
        .any(|family| id.strip_prefix(family).is_some_and(|k| k.starts_with('_')))
}

/// The kind of the name `id` the rewrite bound to a value of kind `kind` (`None`: not known
/// from the syntax), by its family: [`SCRUTINEE`], [`BOUND`] or [`BY_KIND`].
pub(super) fn scrutinee_kind(id: &Ident, kind: Option<Kind>) -> Kind {
    let id = id.to_string();
    match kind {
        _ if id.starts_with(BOUND) => kind.unwrap_or(Kind::Float),
        Some(Kind::Bool) => Kind::Bool,
        Some(Kind::Float) if id.starts_with(BY_KIND) => Kind::Float,
        _ => Kind::Int,
    }
}

/// What `matches!` conditions do not support: the error for such a pattern.
pub(super) const UNSUPPORTED_PATTERN: &str = "this pattern is not supported in a `match`: match integers, bools and fieldless enum variants (`0`, `1..=3`, `Mode::Fast`, `A | B`, `_`), and bind the whole value (`n => ..`, `n @ 1..=3 => ..`)";

/// What a `match` on a tuple written out does not support: the error for such a pattern.
const UNSUPPORTED_TUPLE_PATTERN: &str = "this pattern is not supported in a `match` on a tuple: match each element as a `match` would (`0`, `1..=3`, `Mode::Fast`, `_`, a name), with as many elements as the tuple (or `..`), and or-patterns that bind no name (`(0, _) | (_, 0)`)";

/// Rewrites every `match` in `block` as an `if` chain; on a pattern that is not supported, one
/// error and the `match` stands for its last supported arm ([`arms_chain`]).
pub(super) fn desugar(block: &mut syn::Block) -> Vec<syn::Error> {
    /// The errors, and the number of the next element bound (unique in the function, so that
    /// a `match` within a guard binds no name the guard's own names stand for).
    struct Rewrite(Vec<syn::Error>, usize);
    impl VisitMut for Rewrite {
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            syn::visit_mut::visit_expr_mut(self, e);
            if let syn::Expr::Match(m) = e {
                let tuple = matches!(&*m.expr, syn::Expr::Tuple(_));
                let s = leaves(&m.expr, &mut 0);
                let mut seen = Seen::default();
                for arm in &m.arms {
                    let before = seen.names.len();
                    let _ = test(&arm.pat, &s, &mut seen);
                    for (name, leaf, _) in &seen.names[before..] {
                        if read_as_integer(&name.ident, arm) {
                            seen.integers.insert(*leaf);
                        }
                    }
                }
                let mut binds = Vec::new();
                let s = bound(s, &seen, !tuple, &mut binds, &mut self.1);
                let unsupported = match tuple {
                    true => UNSUPPORTED_TUPLE_PATTERN,
                    false => UNSUPPORTED_PATTERN,
                };
                *e = arms_chain(m, &s, binds, (unsupported, &mut self.0));
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
pub(super) fn is_variant_like(id: &Ident) -> bool {
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
fn arm_block(arm: &syn::Arm) -> syn::Block {
    match &*arm.body {
        syn::Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => b.block.clone(),
        e => syn::parse_quote!({ #e }),
    }
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

/// What the arms tell of the elements of a scrutinee: the names they bind (with the numbers
/// and values of their elements); the elements that are integers, bools or enums, as they test
/// them by value (`0`, `1..=3`, `Mode::A`) or read a name bound to them as an integer
/// ([`read_as_integer`]); and those that may be floats all the same, as a pattern testing them
/// holds a float literal or a constant ([`has_float`]).
#[derive(Default)]
struct Seen {
    names: Vec<(syn::PatIdent, usize, syn::Expr)>,
    integers: HashSet<usize>,
    floats: HashSet<usize>,
}

/// Does `arm` (its guard or body) read `name` as Rust reads only an integer: beside an integer
/// literal in an operation (`n > 2`, `n % 2`, `n + 1`) or as an index (`a[n]`)? A float there
/// would not compile. Never where the arm binds `name` again (`for n in ..`, `|n| ..`), whose
/// reads may be of another value.
fn read_as_integer(name: &Ident, arm: &syn::Arm) -> bool {
    /// The name; whether a read tells an integer; whether the arm binds the name again.
    struct Reads<'n>(&'n Ident, bool, bool);
    fn is_name(e: &syn::Expr, name: &Ident) -> bool {
        match e {
            syn::Expr::Path(p) => p.path.is_ident(name),
            syn::Expr::Paren(p) => is_name(&p.expr, name),
            _ => false,
        }
    }
    fn is_int(e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Lit(l) if matches!(l.lit, syn::Lit::Int(_)))
    }
    impl<'a> Visit<'a> for Reads<'_> {
        fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
            let (l, r) = (&*b.left, &*b.right);
            self.1 |= (is_name(l, self.0) && is_int(r)) || (is_int(l) && is_name(r, self.0));
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_expr_index(&mut self, i: &'a syn::ExprIndex) {
            self.1 |= is_name(&i.index, self.0);
            syn::visit::visit_expr_index(self, i);
        }
        // A `let`, a loop's or a closure's pattern, a `match` arm.
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            self.2 |= p.ident == *self.0;
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut r = Reads(name, false, false);
    if let Some((_, g)) = &arm.guard {
        r.visit_expr(g);
    }
    r.visit_expr(&arm.body);
    // Where the arm binds the name again, a read may be of another value: nothing is told.
    r.1 && !r.2
}

/// The elements bound to `let`s pushed on `binds`, in the order Rust evaluates them (it
/// evaluates the scrutinee before any arm), each but a place that no arm binds a name to (read
/// where it is tested; a `single` scrutinee that is a place is read where it is bound too, as
/// it binds one name), named by what the arms tell of its kind ([`SCRUTINEE`], [`BOUND`],
/// [`BY_KIND`]). Names are then bound to the values of before (`(j, i)` against `(i, j)` swaps
/// them). `next` numbers the `let`s across the function, so that a `match` within a guard
/// binds no name the guard reads.
fn bound(
    s: Scrutinee,
    seen: &Seen,
    single: bool,
    binds: &mut Vec<syn::Stmt>,
    next: &mut usize,
) -> Scrutinee {
    let (e, leaf) = match s {
        Scrutinee::Tuple(t) => {
            let elems = t.into_iter().map(|s| bound(s, seen, single, binds, next));
            return Scrutinee::Tuple(elems.collect());
        }
        Scrutinee::Value(e, leaf) => (e, leaf),
    };
    let named = seen.names.iter().any(|(_, l, _)| *l == leaf);
    if is_place(&e) && (single || !named) {
        return Scrutinee::Value(e, leaf);
    }
    let family = if seen.floats.contains(&leaf) || (named && !seen.integers.contains(&leaf)) {
        BOUND
    } else if seen.integers.contains(&leaf) {
        SCRUTINEE
    } else {
        BY_KIND
    };
    let id = Ident::new(&format!("{family}_{next}"), Span::call_site());
    *next += 1;
    binds.push(syn::parse_quote!(let #id = #e;));
    Scrutinee::Value(Box::new(syn::parse_quote!(#id)), leaf)
}

/// May `p` test a float: does it hold a float literal (`..=0.0`), a path through `f32` or
/// `f64` (`f64::INFINITY`) or a constant (`LIMIT`, `consts::TOP`: an uppercase name of more
/// than one letter), which may be a float? A variant (`Mode::A`, `Fast`) is not one.
fn has_float(p: &syn::Pat) -> bool {
    struct Float(bool);
    fn constant(id: &Ident) -> bool {
        let id = id.to_string();
        id.len() > 1 && !id.contains(|c: char| c.is_ascii_lowercase())
    }
    impl<'a> Visit<'a> for Float {
        fn visit_lit_float(&mut self, _: &'a syn::LitFloat) {
            self.0 = true;
        }
        fn visit_path(&mut self, p: &'a syn::Path) {
            let float = |s: &syn::PathSegment| s.ident == "f32" || s.ident == "f64";
            self.0 |= p.segments.iter().any(float)
                || p.segments.last().is_some_and(|s| constant(&s.ident));
        }
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            self.0 |= p.subpat.is_none() && constant(&p.ident);
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut f = Float(false);
    f.visit_pat(p);
    f.0
}

/// The condition under which `pat` matches `s` (`None`: always), pushing the names it binds
/// (`k`, `mut k`) and the elements it tests on `seen`; `Err` with the first sub-pattern that
/// is not supported.
fn test<'p>(
    pat: &'p syn::Pat,
    s: &Scrutinee,
    seen: &mut Seen,
) -> Result<Option<syn::Expr>, &'p syn::Pat> {
    let all =
        |conds: Vec<syn::Expr>, op: syn::BinOp| conds.into_iter().reduce(|a, b| both(a, b, op));
    match (pat, s) {
        (syn::Pat::Wild(_), _) => Ok(None),
        (syn::Pat::Paren(p), _) => test(&p.pat, s, seen),
        (syn::Pat::Ident(pi), Scrutinee::Value(v, leaf))
            if pi.by_ref.is_none() && !is_variant_like(&pi.ident) =>
        {
            seen.names.push((pi.clone(), *leaf, (**v).clone()));
            match &pi.subpat {
                Some((_, sub)) => test(sub, s, seen),
                None => Ok(None),
            }
        }
        // A pattern a `matches!` takes whole (`1 | 2`, `Mode::A`).
        (p, Scrutinee::Value(v, leaf)) if binding_in(p).is_none() => {
            seen.integers.insert(*leaf);
            if has_float(p) {
                seen.floats.insert(*leaf);
            }
            // `matches!` takes no pattern that starts with `..=` (`..=0 | 5`): in parentheses.
            let open = |p: &syn::Pat| matches!(p, syn::Pat::Range(r) if r.start.is_none());
            let p: syn::Pat = match p {
                syn::Pat::Or(o) if o.cases.iter().any(open) => syn::parse_quote!((#p)),
                p if open(p) => syn::parse_quote!((#p)),
                p => p.clone(),
            };
            Ok(Some(syn::parse_quote!(::core::matches!(#v, #p))))
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
                conds.extend(test(p, s, seen)?);
            }
            Ok(all(conds, syn::parse_quote!(&&)))
        }
        (syn::Pat::Or(o), _) => {
            let mut conds = Vec::new();
            for case in &o.cases {
                let before = seen.names.len();
                let cond = test(case, s, seen)?;
                if seen.names.len() > before {
                    return Err(case);
                }
                match cond {
                    Some(c) => conds.push(c),
                    None => return Ok(None),
                }
            }
            Ok(all(conds, syn::parse_quote!(||)))
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
    Some(match test(pat, &leaves(e, &mut 0), &mut Seen::default()) {
        Ok(cond) => Ok(cond.unwrap_or_else(|| syn::parse_quote!(true))),
        Err(bad) => Err(syn::Error::new_spanned(bad, UNSUPPORTED_TUPLE_PATTERN)),
    })
}

/// A `match` as an `if` chain, its scrutinee's elements bound first (`binds`). On a pattern
/// that is not supported, an error on it (`unsupported`'s message, pushed on its errors) and
/// what stands for the `match` then: the last arm whose pattern is supported (else the last
/// that binds no name), so that the error is the only one.
fn arms_chain(
    m: &syn::ExprMatch,
    s: &Scrutinee,
    binds: Vec<syn::Stmt>,
    unsupported: (&str, &mut Vec<syn::Error>),
) -> syn::Expr {
    let mut branches: Vec<(Option<syn::Expr>, syn::Block)> = Vec::new();
    let mut bad: Option<&syn::Pat> = None;
    for (n, arm) in m.arms.iter().enumerate() {
        let mut seen = Seen::default();
        let cond = match test(&arm.pat, s, &mut seen) {
            Ok(cond) => cond,
            Err(p) => {
                bad.get_or_insert(p);
                continue;
            }
        };
        let guard = arm.guard.as_ref().map(|(_, g)| {
            let mut g = (**g).clone();
            for (name, _, value) in &seen.names {
                g = replace(&g, &name.ident, value);
            }
            g
        });
        let cond = match (cond, guard) {
            (Some(c), Some(g)) => Some(both(c, g, syn::parse_quote!(&&))),
            (c, g) => c.or(g),
        };
        let mut block = arm_block(arm);
        for (name, _, value) in seen.names.iter().rev() {
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
        let (message, errors) = unsupported;
        errors.push(syn::Error::new_spanned(bad, message));
        return match branches.pop() {
            Some((_, block)) => chain(vec![(None, block)], binds, m.match_token.span),
            None => match m.arms.iter().rfind(|a| !binds_names(&a.pat)) {
                Some(arm) => block_expr(arm_block(arm)),
                None => syn::parse_quote!({}),
            },
        };
    }
    chain(branches, binds, m.match_token.span)
}

/// `a op b` (`&&`, `||`), each side in parentheses unless a `matches!`.
fn both(a: syn::Expr, b: syn::Expr, op: syn::BinOp) -> syn::Expr {
    let side = |e: syn::Expr| match e {
        syn::Expr::Macro(_) => e,
        e => syn::parse_quote!((#e)),
    };
    let (a, b) = (side(a), side(b));
    syn::parse_quote!(#a #op #b)
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
fn chain(
    branches: Vec<(Option<syn::Expr>, syn::Block)>,
    binds: Vec<syn::Stmt>,
    span: Span,
) -> syn::Expr {
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
        // On the `match`: an error about the block (one in a condition) points at it.
        syn::parse_quote_spanned!(span=> { #(#binds)* #chain })
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
            "{ { let __stackgrad_match_0 = i % 3 ; if :: core :: matches ! (__stackgrad_match_0 , 0) { a } else { b } } }"
        );
    }

    #[test]
    fn a_computed_scrutinee_an_arm_names_is_bound_once() {
        let out = chain("{ match i % 3 { 0 => a, mut k @ 1..=2 if k > j => b, _ => c } }");
        assert_eq!(
            out,
            "{ { let __stackgrad_match_0 = i % 3 ; if :: core :: matches ! (__stackgrad_match_0 , 0) { a } else if :: core :: matches ! (__stackgrad_match_0 , 1 ..= 2) && ((__stackgrad_match_0) > j) { let mut k = __stackgrad_match_0 ; b } else { c } } }"
        );
    }

    #[test]
    fn an_unsupported_pattern_is_one_error_and_the_last_arm_stays() {
        let mut b: syn::Block =
            syn::parse_str("{ match i % 3 { Some(x) => a, k => k + 1 } }").unwrap();
        let errors = desugar(&mut b);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0]
                .to_string()
                .starts_with("this pattern is not supported in a `match`:")
        );
        assert_eq!(
            b.to_token_stream().to_string(),
            "{ { let __stackgrad_match_0 = i % 3 ; { let k = __stackgrad_match_0 ; k + 1 } } }"
        );
    }

    #[test]
    fn a_tuple_is_matched_element_by_element() {
        let out = chain(
            "{ match (i, j % 2) { (0, _) | (_, 0) => a, (k, 1) if k > 2 => b, (.., mut m) => c } }",
        );
        assert_eq!(
            out,
            "{ { let __stackgrad_match_0 = i ; let __stackgrad_match_1 = j % 2 ; if :: core :: matches ! (__stackgrad_match_0 , 0) || :: core :: matches ! (__stackgrad_match_1 , 0) { a } else if :: core :: matches ! (__stackgrad_match_1 , 1) && ((__stackgrad_match_0) > 2) { let k = __stackgrad_match_0 ; b } else { let mut m = __stackgrad_match_1 ; c } } }"
        );
    }

    #[test]
    fn an_element_an_arm_only_names_is_typed_as_a_let() {
        let out = chain("{ match (x * 2.0, n % 3) { (v, 0) => v, _ => w } }");
        assert_eq!(
            out,
            "{ { let __stackgrad_bound_0 = x * 2.0 ; let __stackgrad_match_1 = n % 3 ; if :: core :: matches ! (__stackgrad_match_1 , 0) { let v = __stackgrad_bound_0 ; v } else { w } } }"
        );
    }

    /// Each source rewritten begins with its expected text.
    fn each_begins(cases: &[(&str, &str)]) {
        for (src, begins) in cases {
            let out = chain(src);
            assert!(out.starts_with(begins), "{src}\n{out}");
        }
    }

    #[test]
    fn each_element_is_named_by_what_the_arms_tell_of_its_kind() {
        each_begins(&[
            (
                "{ match (f(x), g(y), x * 2.0) { (..=0.0, 0, _) => a, (_, k, _) => b } }",
                "{ { let __stackgrad_bound_0 = f (x) ; let __stackgrad_match_1 = g (y) ; let __stackgrad_scrutinee_2 = x * 2.0 ; if :: core :: matches ! (__stackgrad_bound_0 , (..= 0.0)) && :: core :: matches ! (__stackgrad_match_1 , 0) { a } else { let k = __stackgrad_match_1 ; b } } }",
            ),
            (
                "{ match count(v) { n if n > 2 => a, _ => b } }",
                "{ { let __stackgrad_match_0 = count (v) ; if (__stackgrad_match_0) > 2 { let n = __stackgrad_match_0 ; a } else { b } } }",
            ),
            (
                "{ match v.abs() { n if n > 1.0 => a, _ => b } }",
                "{ { let __stackgrad_bound_0 = v . abs () ; if (__stackgrad_bound_0) > 1.0 { let n = __stackgrad_bound_0 ; a } else { b } } }",
            ),
        ]);
    }

    #[test]
    fn a_float_constant_or_a_shadowed_name_tells_no_integer_and_open_ranges_are_taken() {
        each_begins(&[
            (
                "{ match x * 2.0 { ..=T0 => a, v => v * y } }",
                "{ { let __stackgrad_bound_0 = x * 2.0 ;",
            ),
            (
                "{ match (x * 2.0, i) { (f64::INFINITY, _) => a, (v, _) => v * y } }",
                "{ { let __stackgrad_bound_0 = x * 2.0 ;",
            ),
            (
                "{ match x.abs() { v => { let mut s = v * y; for v in 0..4 { s += a[v]; } s } } }",
                "{ { let __stackgrad_bound_0 = x . abs () ;",
            ),
            (
                "{ match n { ..=0 => a, 3 | ..=-5 => b, _ => c } }",
                "{ if :: core :: matches ! (n , (..= 0)) { a } else if :: core :: matches ! (n , (3 | ..= - 5)) { b } else { c } }",
            ),
            (
                "{ match (m, i % 2) { (Mode::A, 0) => a, _ => b } }",
                "{ { let __stackgrad_match_0 = i % 2 ;",
            ),
        ]);
    }

    #[test]
    fn names_are_bound_to_the_values_of_before() {
        let out = chain("{ match (i, j, n) { (j, i, 0) if j > i => a, _ => b } }");
        assert_eq!(
            out,
            "{ { let __stackgrad_bound_0 = i ; let __stackgrad_bound_1 = j ; if :: core :: matches ! (n , 0) && ((__stackgrad_bound_0) > (__stackgrad_bound_1)) { let j = __stackgrad_bound_0 ; let i = __stackgrad_bound_1 ; a } else { b } } }"
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
}
