//! Which parameters the function matches on by enum variant (`match mode { Mode::Fast => .. }`,
//! directly or through a name bound to them): those are fieldless enums, taken by value or by
//! reference and never differentiated.

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;

use super::matches::{is_variant_like, matches_args};

/// The parameters the body matches on by enum variant (`match mode { Mode::Fast => .. }`,
/// `match *mode`, `matches!(mode, Mode::Fast)`).
pub(super) fn enum_scrutinees(block: &syn::Block) -> HashSet<String> {
    /// The names matched by variant; the names bound to another name (`let m = mode;`, `(m, 0)`
    /// against `(mode, i)`), with it; how often each name is bound.
    struct Find(
        HashSet<String>,
        Vec<(String, String)>,
        HashMap<String, usize>,
    );
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
    fn tuple_variants(e: &syn::Expr, pat: &syn::Pat, out: &mut Find) {
        match (e, pat) {
            (_, syn::Pat::Or(o)) => o.cases.iter().for_each(|p| tuple_variants(e, p, out)),
            (_, syn::Pat::Paren(p)) => tuple_variants(e, &p.pat, out),
            (e, syn::Pat::Ident(pi)) if !is_variant_like(&pi.ident) => {
                out.1.extend(name(e).map(|n| (pi.ident.to_string(), n)));
                if let Some((_, sub)) = &pi.subpat {
                    tuple_variants(e, sub, out);
                }
            }
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
            (e, p) if variant(p) => out.0.extend(name(e)),
            _ => {}
        }
    }
    impl<'a> Visit<'a> for Find {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            *self.2.entry(p.ident.to_string()).or_default() += 1;
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
            // `match m { Mode::A => .. }`, `match (m, k) { (Mode::A, 0) => .. }`.
            for a in &m.arms {
                tuple_variants(&m.expr, &a.pat, self);
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
            if let (syn::Pat::Ident(pi), Some(init)) = (&l.pat, &l.init) {
                (self.1).extend(name(&init.expr).map(|n| (pi.ident.to_string(), n)));
            }
            syn::visit::visit_local(self, l);
        }
        fn visit_expr_macro(&mut self, m: &'a syn::ExprMacro) {
            let Some(Ok((e, pat))) = matches_args(m) else {
                return;
            };
            // `matches!(m, Mode::A)`, `matches!((m, k), (Mode::A, 0) | (Mode::B, _))`.
            tuple_variants(&e, &pat, self);
        }
    }
    let mut f = Find(HashSet::new(), Vec::new(), HashMap::new());
    f.visit_block(block);
    // A name bound once, to a name, and matched by variant: that name is an enum too (a name
    // bound again may stand for another value: `let s = p; .. let s = mode;`).
    let (mut found, aliases, bound) = (f.0, f.1, f.2);
    while let Some((_, from)) = aliases.iter().find(|(to, from)| {
        found.contains(to) && !found.contains(from) && bound.get(to).is_some_and(|&n| n == 1)
    }) {
        found.insert(from.clone());
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_parameters_are_found_by_their_variants_and_the_names_bound_to_them() {
        let cases: [(&str, &[&str]); 2] = [
            (
                "{ match (mode, i) { (m, 0) => if matches!(m, Mode::A) { } _ => {} } let k = kind; let q = k; if let Kind::X = q { } match *r { s @ Kind::Y => {} _ => {} } let x = y; let t = p; let t = u; if let Kind::X = t { } }",
                &["k", "kind", "m", "mode", "q", "r", "t"],
            ),
            (
                "{ match *mode { Mode::A => 1.0, _ => 2.0 }; match n { 0 => a, _ => b }; if matches!(other, Kind::X | Kind::Y) { } match (k, (n, m)) { (0, (.., Mode::B)) | (_, (Kind::X, _)) => a, _ => b } if matches!((*p, q, r), (.., Kind::X) | (_, 1, _)) { } }",
                &["m", "mode", "n", "other", "r"],
            ),
        ];
        for (src, expected) in cases {
            let b: syn::Block = syn::parse_str(src).unwrap();
            let mut found: Vec<_> = enum_scrutinees(&b).into_iter().collect();
            found.sort();
            assert_eq!(found, expected, "{src}");
        }
    }
}
