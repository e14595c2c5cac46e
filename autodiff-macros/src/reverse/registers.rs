//! Cotangents kept in a local across a reversed loop. In a loop such as
//!
//! ```text
//! for a in 0..D { for b in a + 1..D { qx[b] += l[a][b] * xc[a]; } }
//! ```
//!
//! the reverse of the inner loop adds into `d_xc[a]` at every iteration, a place that does not
//! change while it runs. Written as `d_xc[a] += ..`, each iteration reads back what the last one
//! stored, and where the compiler does not keep the element in a register (it did not in GMM's
//! second-order sweep) every iteration waits for that store. The reverse loop instead reads the
//! element into a local before it, accumulates there, and stores it after it, as a hand-written
//! adjoint would. The sums are the same, in the same order.
//!
//! Only where a loop has two such places or more: with one (GMM's gradient), rustc kept it in a
//! register on its own, and an explicit local made it unroll the short inner loop instead,
//! which was slower; with two (GMM's second-order sweep: `d_xc[a]` and `d_t_xc[a]`) it kept
//! both in memory, and holding them was faster (AMD EPYC, AVX2, rustc 1.95; interleaved A/B
//! rounds of the two expansions).
//!
//! A place qualifies when every access to its variable in the loop body (reads, writes, nested
//! loops and branches included) is to that one place, and the place's indices are built from
//! literals, constants and the counters of enclosing loops only: then no iteration touches
//! another element of the cotangent, and the place is the same in every iteration. One of the
//! accesses must be a statement of the body itself, not one inside a branch or a nested loop,
//! and the sweep reads and writes the element only when the loop runs: then the primal indexed
//! with the same index in every iteration, so the index is valid (`x[a - 1]` under `if a > 0`,
//! or in a loop that runs no iteration when `a == 0`, is not read where the primal did not).
//! Places passed to calls are left alone, as are the bodies of checkpointed loops (their sweeps
//! re-run the primal).

use crate::analysis::Activity;
use crate::ir::*;

use super::preacc::place_key;

/// A variable's accesses in a loop body so far.
enum Seen {
    /// Always this place (its key, and the place), and whether a statement of the body itself
    /// (not one inside a branch or a nested loop) reads or writes it.
    One(String, Vec<Proj>, bool),
    /// Some other access, or an access to the whole variable.
    Other,
}

/// The float places of `body` whose cotangent can stay in a local while the loop is swept
/// backwards (see the module documentation); `outer`: the counters of the enclosing loops.
pub(super) fn invariant_places(
    f: &Func,
    act: &Activity,
    body: &Block,
    outer: &[VarId],
) -> Vec<(VarId, Vec<Proj>)> {
    let mut seen: Vec<(VarId, Seen)> = Vec::new();
    visit(body, outer, true, &mut seen);
    seen.into_iter()
        .filter_map(|(v, s)| match s {
            Seen::One(_, proj, true) => Some((v, proj)),
            _ => None,
        })
        .filter(|(v, proj)| act.vars[*v] && f.types.kind(f.place_ty(*v, proj)) == Kind::Float)
        .collect()
}

/// `top`: `b` is the loop's body itself, whose statements run in every iteration (statements
/// after a `break` are lowered into a branch).
fn visit(b: &Block, outer: &[VarId], top: bool, seen: &mut Vec<(VarId, Seen)>) {
    for o in &b.tail {
        operand(o, outer, top, seen);
    }
    for s in &b.stmts {
        match s {
            Stmt::Def {
                target, place, rhs, ..
            } => {
                if let Target::Var(v) = target {
                    access(*v, place, outer, top, seen);
                }
                for o in crate::walk::operands(rhs) {
                    match rhs {
                        Rhs::Call { .. } => reject(o, seen),
                        _ => operand(o, outer, top, seen),
                    }
                }
            }
            Stmt::If {
                then, els, results, ..
            } => {
                for t in results {
                    if let Target::Var(v) = t {
                        access(*v, &[], outer, top, seen);
                    }
                }
                visit(then, outer, false, seen);
                visit(els, outer, false, seen);
            }
            Stmt::For { body, .. } => visit(body, outer, false, seen),
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        }
    }
}

fn operand(o: &Operand, outer: &[VarId], top: bool, seen: &mut Vec<(VarId, Seen)>) {
    if let Operand::Var { var, proj, .. } = o {
        access(*var, proj, outer, top, seen);
    }
}

fn reject(o: &Operand, seen: &mut Vec<(VarId, Seen)>) {
    if let Operand::Var { var, .. } = o {
        set(*var, Seen::Other, seen);
    }
}

/// Records an access to `proj` of `v` (`top`: by a statement of the loop's body itself).
fn access(v: VarId, proj: &[Proj], outer: &[VarId], top: bool, seen: &mut Vec<(VarId, Seen)>) {
    let proj: Vec<Proj> = proj
        .iter()
        .filter(|p| !matches!(p, Proj::Deref))
        .cloned()
        .collect();
    let fixed = proj.iter().any(|p| matches!(p, Proj::Index(_)))
        && proj
            .iter()
            .flat_map(Proj::pures)
            .all(|i| invariant(i, outer));
    if !fixed {
        return set(v, Seen::Other, seen);
    }
    let key = place_key(v, &proj);
    match seen.iter_mut().find(|(w, _)| *w == v) {
        None => seen.push((v, Seen::One(key, proj, top))),
        Some((_, Seen::One(k, _, at_top))) if *k == key => *at_top |= top,
        Some(_) => set(v, Seen::Other, seen),
    }
}

fn set(v: VarId, s: Seen, seen: &mut Vec<(VarId, Seen)>) {
    match seen.iter_mut().find(|(w, _)| *w == v) {
        Some(entry) => entry.1 = s,
        None => seen.push((v, s)),
    }
}

/// An index made of literals, constants and the counters of enclosing loops.
fn invariant(p: &Pure, outer: &[VarId]) -> bool {
    match p {
        Pure::Lit(_) => true,
        Pure::Var(v, proj, _) => proj.is_empty() && outer.contains(v),
        Pure::Unary(_, a) | Pure::Cast(a, _) => invariant(a, outer),
        Pure::Bin(_, a, b) => invariant(a, outer) && invariant(b, outer),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    /// The places found in the body of the innermost loop of `item` (its first loop nest),
    /// printed `name[index]`.
    fn places(item: syn::ItemFn) -> Vec<String> {
        let args = crate::args::parse(proc_macro2::TokenStream::new()).unwrap();
        let f = crate::lower::lower(&item, &args).unwrap();
        let act = crate::analysis::activity(&f);
        let mut outer = Vec::new();
        let mut block = &f.body;
        while let Some((var, body)) = block.stmts.iter().find_map(|s| match s {
            Stmt::For { var, body, .. } => Some((*var, body)),
            _ => None,
        }) {
            if !body.stmts.iter().any(|s| matches!(s, Stmt::For { .. })) {
                block = body;
                break;
            }
            outer.push(var);
            block = body;
        }
        invariant_places(&f, &act, block, &outer)
            .into_iter()
            .map(|(v, proj)| {
                let idx: Vec<String> = proj
                    .iter()
                    .map(|p| match p {
                        Proj::Index(Pure::Var(w, _, _)) => format!("[{}]", f.vars[*w].name),
                        Proj::Index(_) | Proj::Range { .. } => "[..]".to_string(),
                        Proj::Field(n) => format!(".{n}"),
                        Proj::Deref => String::new(),
                    })
                    .collect();
                format!("{}{}", f.vars[v].name, idx.concat())
            })
            .collect()
    }

    #[test]
    fn a_place_indexed_by_an_outer_counter_qualifies() {
        let p = places(parse_quote! {
            fn f(l: &[[f64; 4]; 4], x: &[f64; 4]) -> f64 {
                let mut q = [0.0; 4];
                for a in 0..4 {
                    for b in a + 1..4 {
                        q[b] += l[a][b] * x[a];
                    }
                }
                q[3]
            }
        });
        // `x[a]` is the same element in every iteration of the `b` loop; `l[a][b]` and `q[b]`
        // are not.
        assert_eq!(p, ["x[a]"]);
    }

    #[test]
    fn a_second_place_of_the_same_variable_disqualifies_it() {
        let p = places(parse_quote! {
            fn f(l: &[[f64; 4]; 4], x: &[f64; 4]) -> f64 {
                let mut s = 0.0;
                for a in 0..4 {
                    for b in 0..4 {
                        s += l[a][b] * x[a] + x[b];
                    }
                }
                s
            }
        });
        assert!(p.is_empty(), "{p:?}");
    }

    #[test]
    fn places_written_in_the_loop_qualify_and_whole_arrays_do_not() {
        let p = places(parse_quote! {
            fn f(w: &[f64; 4], x: f64) -> f64 {
                let mut y = [0.0; 4];
                let mut z = [0.0; 4];
                for a in 0..4 {
                    for b in 0..4 {
                        y[a] = y[a] * x + w[b];
                        z = [x, x, x, x];
                    }
                }
                y[0] + z[1]
            }
        });
        assert_eq!(p, ["y[a]"]);
    }

    #[test]
    fn indices_from_values_computed_in_the_function_do_not_qualify() {
        let p = places(parse_quote! {
            fn f(w: &[f64; 4], x: &[f64; 4]) -> f64 {
                let j = 2;
                let mut s = 0.0;
                for b in 0..4 {
                    s += w[b] * x[j] + x[1 + 2];
                }
                s
            }
        });
        // `x[j]` reads a local; `x[1 + 2]` then is a second place of `x`.
        assert!(p.is_empty(), "{p:?}");
    }

    #[test]
    fn places_only_read_in_a_branch_or_a_nested_loop_do_not_qualify() {
        let p = places(parse_quote! {
            fn f(w: &[f64; 4], x: &[f64; 4], y: &[f64; 4], z: &[f64; 4]) -> f64 {
                let mut s = 0.0;
                for a in 0..4 {
                    for b in 0..4 {
                        if a > 0 {
                            s += w[b] * (x[a - 1] + y[a - 1]);
                        }
                        s += w[b] * z[a];
                    }
                }
                s
            }
        });
        // `x[a - 1]` and `y[a - 1]` are read only when `a > 0`; `z[a]` in every iteration.
        assert_eq!(p, ["z[a]"]);
    }

    #[test]
    fn arguments_of_calls_are_left_alone() {
        let p = places(parse_quote! {
            fn f(w: &[f64; 4], x: &[f64; 4]) -> f64 {
                let mut s = 0.0;
                for a in 0..4 {
                    for b in 0..4 {
                        s += g(w[b], x[a]);
                    }
                }
                s
            }
        });
        assert!(p.is_empty(), "{p:?}");
    }
}
