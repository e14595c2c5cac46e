//! Index expressions as functions of a loop's variable: whether an index adds the variable once
//! (`col + b - a - 1` in `for b in ..`), and whether its other variables keep their values
//! through the loop. The reverse sweep borrows rows of slices by them (`reverse::rows`), vector
//! forward mode rows of lanes (`tangent::flat`).

use crate::ir::*;
use crate::types::Kind;

/// How many times `e` adds the variable `i` (`b - a - 1`: 1), where it is a sum of terms;
/// `None` where `i` is inside anything else.
pub fn coefficient(e: &Pure, i: VarId) -> Option<i64> {
    if !mentions(e, i) {
        return Some(0);
    }
    match e {
        Pure::Var(v, proj, _) if *v == i => proj.is_empty().then_some(1),
        Pure::Bin(op, a, b) => match op.to_string().as_str() {
            "+" => Some(coefficient(a, i)? + coefficient(b, i)?),
            "-" => Some(coefficient(a, i)? - coefficient(b, i)?),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `e` reads the variable `i`.
pub fn mentions(e: &Pure, i: VarId) -> bool {
    let mut reads = Vec::new();
    crate::walk::pure_reads(e, &mut reads);
    reads.iter().any(|(v, ..)| *v == i)
}

/// Whether every variable of `e` but `i` keeps its value through the loop and can be read
/// before it: a parameter, a loop's counter, a constant or an integer `let` (not `mut`) the
/// body does not assign.
pub fn invariant(f: &Func, e: &Pure, i: VarId, assigned: &[VarId]) -> bool {
    let mut reads = Vec::new();
    crate::walk::pure_reads(e, &mut reads);
    (reads.iter()).all(|(v, proj, _)| {
        let x = &f.vars[*v];
        let fixed = x.in_place() || (!x.mutable && f.types.kind(x.ty) == Kind::Int);
        *v == i || (!assigned.contains(v) && fixed && proj.is_empty())
    })
}

/// Whether two index expressions are the same expression of the same variables.
pub fn same(a: &Pure, b: &Pure) -> bool {
    match (a, b) {
        (Pure::Lit(x), Pure::Lit(y)) => x.to_string() == y.to_string(),
        (Pure::Var(v, p, _), Pure::Var(w, q, _)) => v == w && p.is_empty() && q.is_empty(),
        (Pure::Bin(o, a1, b1), Pure::Bin(p, a2, b2)) => {
            o.to_string() == p.to_string() && same(a1, a2) && same(b1, b2)
        }
        (Pure::Unary(o, a1), Pure::Unary(p, a2)) => o.to_string() == p.to_string() && same(a1, a2),
        (Pure::Cast(a1, t), Pure::Cast(a2, u)) => t.to_string() == u.to_string() && same(a1, a2),
        _ => false,
    }
}
