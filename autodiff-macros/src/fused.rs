//! `f_grad` of a function with a run-time loop of independent iterations whose accumulators
//! reach the output linearly (GMM's sum over points, a mini-batch loss): the cotangent of each
//! accumulator at the loop's end is known before the loop runs (`d_out` times a coefficient of
//! values at hand), so the forward sweep runs each iteration's forward into one iteration's
//! tape and sweeps it back at once, instead of the reverse sweep running the iteration again.
//!
//! The analysis ([`find`]) runs on the lowered function; [`crate::items`] emits the fused
//! `f_grad` from its result, the forward sweep with the loop replaced and the reverse sweep
//! without it. The tangent program of `hvp` (`f_hvp_jvp`, whose output is `[value, tangent]`,
//! an array literal of accumulators' values) is fused the same way, each element's cotangent
//! `d_out[i]`: its forward and adjoint in one (`f_hvp_jvp_fused`), which `f_hvp` calls.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::*;

/// A value the coefficient reads, at hand where the loop starts.
#[derive(Clone)]
pub enum Early {
    /// A constant, a parameter, or a variable or temporary defined before the loop.
    Operand(Operand),
    /// A temporary defined after the loop by an expression without derivative of such values
    /// (`n as f64`).
    Pure(Pure),
}

/// One path from an accumulator to the output: `±d_out · Π factors`, or `±d_out[i] · Π
/// factors` to element `i` of an array output.
#[derive(Clone)]
pub struct Term {
    pub negative: bool,
    /// Each factor multiplies (`false`) or divides (`true`).
    pub factors: Vec<(bool, Early)>,
    /// The element of the output the path reaches, for an array output.
    pub elem: Option<usize>,
}

/// A loop to fuse and the cotangent of each accumulator at its end.
pub struct Fusion {
    pub lp: usize,
    /// Each accumulator, with its cotangent as a sum of terms (none: zero).
    pub seeds: Vec<(VarId, Vec<Term>)>,
}

/// Records the loops of independent iterations in [`Func::costly`] (each calls a costly function) into the tape's `Vec`s, as sequential loops are, but for the one
/// `f_grad` fuses ([`find`]): that one runs each iteration's forward and reverse at once, with
/// neither a second run nor a record.
pub fn record_costly(f: &mut Func) {
    if f.costly.is_empty() {
        return;
    }
    let fused = find(f).map(|fu| fu.lp);
    for id in std::mem::take(&mut f.costly) {
        if Some(id) != fused {
            let lp = &mut f.loops[id];
            lp.checkpoint = None;
            lp.carried.clear();
        }
    }
}

/// The first top-level run-time loop of independent iterations that can be fused (an earlier
/// one that cannot stays as it is): its
/// accumulators are floats, only read after it on linear paths to the function's value (`+`,
/// `-`, times or over values at hand), and nothing it reads is assigned after it.
pub fn find(f: &Func) -> Option<Fusion> {
    if f.ret_tuple || f.ret.len() != 1 {
        return None;
    }
    let float = |t: TyId| f.types.kind(t) == Kind::Float;
    let array_of_floats = f.types.elem(f.ret[0]).is_some_and(float);
    if !(float(f.ret[0]) || f.tangent_program && array_of_floats) {
        return None;
    }
    let stmts = &f.body.stmts;
    (stmts.iter().enumerate())
        .filter_map(|(s, st)| match st {
            Stmt::For { id, var, .. } => {
                let l = &f.loops[*id];
                (l.runtime
                    && !l.binomial
                    && !l.breaks
                    && l.checkpoint.is_some()
                    && l.extrema.is_empty())
                .then_some((s, *id, *var))
            }
            _ => None,
        })
        .find_map(|(s, lp, counter)| fusion(f, s, lp, counter))
}

/// Loop `lp`, statement `s` of the body with counter `counter`, if it can be fused.
fn fusion(f: &Func, s: usize, lp: usize, counter: VarId) -> Option<Fusion> {
    let stmts = &f.body.stmts;
    let Stmt::For { body, .. } = &stmts[s] else {
        return None;
    };
    let mut written = Vec::new();
    crate::walk::assigned(body, &mut written);
    let rest = &stmts[s + 1..];
    let mut after = Vec::new();
    for st in rest {
        crate::walk::stmt_assigns(st, &mut after);
    }
    let carried = &f.loops[lp].carried;
    if carried.iter().any(|v| after.contains(v)) {
        return None;
    }
    let accs: Vec<VarId> = carried
        .iter()
        .copied()
        .filter(|v| written.contains(v))
        .collect();
    if accs.is_empty()
        || accs
            .iter()
            .any(|&v| f.types.kind(f.vars[v].ty) != Kind::Float)
    {
        return None;
    }
    let early = |o: &Operand| early(f, o, counter, &written, &after, (&stmts[..s], rest));
    let derived = Derived::trace(f, &accs, rest, &early)?;
    let seeds = accs
        .iter()
        .map(|&v| (v, derived.coef(&Target::Var(v))))
        .collect();
    Some(Fusion { lp, seeds })
}

/// The values derived from the accumulators after the loop, and how each reaches the output.
struct Derived {
    /// Each derived value, with its contributions: the value it defines and the factor.
    uses: Vec<(Target, Vec<(Target, Term)>)>,
    /// The derived value the function returns.
    tail: Target,
}

impl Derived {
    /// Follows the accumulators through the statements after the loop; `None` where one is
    /// used other than linearly, or does not reach the value.
    fn trace(
        f: &Func,
        accs: &[VarId],
        rest: &[Stmt],
        early: &dyn Fn(&Operand) -> Option<Early>,
    ) -> Option<Derived> {
        let mut uses: Vec<(Target, Vec<(Target, Term)>)> =
            accs.iter().map(|&v| (Target::Var(v), Vec::new())).collect();
        let tail = match f.body.tail.as_slice() {
            [Operand::Temp(t)] => Some(Target::Temp(*t)),
            [Operand::Var { var, proj, .. }] if proj.is_empty() => Some(Target::Var(*var)),
            _ => None,
        };
        let is_derived = |uses: &[(Target, Vec<(Target, Term)>)], o: &Operand| {
            let t = match o {
                Operand::Var { var, proj, .. } if proj.is_empty() => Target::Var(*var),
                Operand::Var { var, .. } => {
                    return uses.iter().any(|(t, _)| *t == Target::Var(*var));
                }
                Operand::Temp(t) => Target::Temp(*t),
                Operand::Const { .. } => return false,
            };
            uses.iter().any(|(u, _)| *u == t)
        };
        for st in rest {
            let Stmt::Def {
                target,
                place,
                rhs,
                is_let,
                ..
            } = st
            else {
                // Nested statements must not read a derived value.
                let mut hit = false;
                each_nested_operand(st, &mut |o| hit |= is_derived(&uses, o));
                let mut vars = std::collections::BTreeSet::new();
                nested_vars(st, &mut vars);
                if hit
                    || uses
                        .iter()
                        .any(|(t, _)| matches!(t, Target::Var(v) if vars.contains(v)))
                {
                    return None;
                }
                continue;
            };
            let ops = crate::walk::operands(rhs);
            let mut index_reads = Vec::new();
            crate::walk::proj_reads(place, &mut index_reads);
            for o in &ops {
                if let Operand::Var { proj, .. } = o {
                    crate::walk::proj_reads(proj, &mut index_reads);
                }
            }
            if index_reads
                .iter()
                .any(|(v, ..)| uses.iter().any(|(t, _)| *t == Target::Var(*v)))
            {
                return None;
            }
            if let Rhs::Pure(p) = rhs {
                let mut reads = Vec::new();
                crate::walk::pure_reads(p, &mut reads);
                if reads
                    .iter()
                    .any(|(v, ..)| uses.iter().any(|(t, _)| *t == Target::Var(*v)))
                {
                    return None;
                }
            }
            let hits: Vec<usize> = (0..ops.len())
                .filter(|&i| is_derived(&uses, ops[i]))
                .collect();
            if hits.is_empty() {
                continue;
            }
            // The derived value's definition: a temporary, or a `let` of a float.
            let plain = match target {
                Target::Temp(_) => true,
                Target::Var(v) => *is_let && place.is_empty() && !f.vars[*v].mutable,
            };
            if !plain {
                return None;
            }
            let the_tail = Some(*target) == tail;
            let contributions = contributions(rhs, &hits, the_tail, early)?;
            for (i, t) in contributions {
                let from = match ops[i] {
                    Operand::Var { var, .. } => Target::Var(*var),
                    Operand::Temp(t) => Target::Temp(*t),
                    Operand::Const { .. } => unreachable!("a constant is not derived"),
                };
                let entry = uses.iter_mut().find(|(u, _)| *u == from)?;
                entry.1.push((*target, t));
            }
            uses.push((*target, Vec::new()));
        }
        let tail = tail?;
        // An array output is reached through its elements only ([`Term::elem`]).
        if f.types.kind(f.ret[0]) != Kind::Float
            && !uses
                .iter()
                .flat_map(|(_, u)| u)
                .any(|(_, t)| t.elem.is_some())
        {
            return None;
        }
        uses.iter()
            .any(|(u, _)| *u == tail)
            .then_some(Derived { uses, tail })
    }

    /// The cotangent of a derived value as terms of `d_out`.
    fn coef(&self, t: &Target) -> Vec<Term> {
        if *t == self.tail {
            return vec![Term {
                negative: false,
                factors: Vec::new(),
                elem: None,
            }];
        }
        let Some((_, uses)) = self.uses.iter().find(|(u, _)| u == t) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (to, local) in uses {
            for mut term in self.coef(to) {
                term.negative ^= local.negative;
                term.factors.extend(local.factors.iter().cloned());
                term.elem = term.elem.or(local.elem);
                out.push(term);
            }
        }
        out
    }
}

/// How a definition's operands `hits` (derived values) reach what it defines: one term each,
/// or `None` where one is not linear in it. `tail`: the definition is of the value returned.
fn contributions(
    rhs: &Rhs,
    hits: &[usize],
    tail: bool,
    early: &dyn Fn(&Operand) -> Option<Early>,
) -> Option<Vec<(usize, Term)>> {
    let term = |negative: bool, factors: Vec<(bool, Early)>| Term {
        negative,
        factors,
        elem: None,
    };
    Some(match (rhs, hits) {
        (Rhs::Copy(_), [0]) => vec![(0, term(false, vec![]))],
        (Rhs::Neg(_), [0]) => vec![(0, term(true, vec![]))],
        (Rhs::Bin(BinOp::Add, ..), h) => h.iter().map(|&i| (i, term(false, vec![]))).collect(),
        (Rhs::Bin(BinOp::Sub, ..), h) => h.iter().map(|&i| (i, term(i == 1, vec![]))).collect(),
        (Rhs::Bin(BinOp::Mul, a, b), [i]) => {
            let other = if *i == 0 { b } else { a };
            vec![(*i, term(false, vec![(false, early(other)?)]))]
        }
        (Rhs::Bin(BinOp::Div, _, b), [0]) => {
            vec![(0, term(false, vec![(true, early(b)?)]))]
        }
        // The array the function returns: each element's cotangent is `d_out[i]`.
        (Rhs::Array(_), h) if tail => (h.iter())
            .map(|&i| {
                let mut t = term(false, vec![]);
                t.elem = Some(i);
                (i, t)
            })
            .collect(),
        _ => return None,
    })
}

/// A factor of a coefficient: a value at hand where the loop starts, or `None`.
fn early(
    f: &Func,
    o: &Operand,
    counter: VarId,
    in_loop: &[VarId],
    after: &[VarId],
    (before, rest): (&[Stmt], &[Stmt]),
) -> Option<Early> {
    let var_early = |v: VarId| {
        f.vars[v].in_place() || (v < counter && !in_loop.contains(&v) && !after.contains(&v))
    };
    // A pure expression of early values, defined after the loop by a `let` (the tangent
    // program's `let t7 = n as f64;`).
    let pure_let = |v: VarId| {
        let def = rest.iter().find_map(|s| match s {
            Stmt::Def {
                target: Target::Var(d),
                place,
                rhs: Rhs::Pure(p),
                is_let: true,
                ..
            } if *d == v && place.is_empty() && !f.vars[v].mutable => Some(p),
            _ => None,
        })?;
        let mut reads = Vec::new();
        crate::walk::pure_reads(def, &mut reads);
        (reads.iter())
            .all(|(v, ..)| var_early(*v))
            .then(|| Early::Pure(def.clone()))
    };
    match o {
        Operand::Const { .. } => Some(Early::Operand(o.clone())),
        Operand::Var { var, proj, .. } if proj.is_empty() && after.contains(var) => pure_let(*var),
        Operand::Var { var, proj, .. } => {
            let mut reads = Vec::new();
            crate::walk::proj_reads(proj, &mut reads);
            (var_early(*var) && reads.iter().all(|(v, ..)| var_early(*v)))
                .then(|| Early::Operand(o.clone()))
        }
        Operand::Temp(t) => {
            // Defined after the loop by an expression of early values, or before it.
            let def = rest.iter().find_map(|s| match s {
                Stmt::Def {
                    target: Target::Temp(d),
                    rhs,
                    ..
                } if d == t => Some(rhs),
                _ => None,
            });
            match def {
                Some(Rhs::Pure(p)) => {
                    let mut reads = Vec::new();
                    crate::walk::pure_reads(p, &mut reads);
                    reads
                        .iter()
                        .all(|(v, ..)| var_early(*v))
                        .then(|| Early::Pure(p.clone()))
                }
                Some(_) => None,
                // A temporary from before the loop, in scope in the forward sweep.
                None => defines(before, *t).then(|| Early::Operand(o.clone())),
            }
        }
    }
}

/// Whether one of the (top-level) statements defines temporary `t`.
fn defines(stmts: &[Stmt], t: TempId) -> bool {
    stmts.iter().any(|s| {
        matches!(s, Stmt::Def {
            target: Target::Temp(d),
            ..
        } if *d == t)
    })
}

/// Every operand of a nested statement (an `if` or a loop), at any depth.
fn each_nested_operand<'f>(s: &'f Stmt, f: &mut impl FnMut(&'f Operand)) {
    match s {
        Stmt::If { then, els, .. } => {
            crate::walk::each_operand(then, f);
            crate::walk::each_operand(els, f);
        }
        Stmt::For { body, .. } => crate::walk::each_operand(body, f),
        _ => {}
    }
}

/// Every variable a nested statement reads or writes, conditions and bounds included.
fn nested_vars(s: &Stmt, out: &mut std::collections::BTreeSet<VarId>) {
    match s {
        Stmt::If {
            cond, then, els, ..
        } => {
            let mut reads = Vec::new();
            crate::walk::pure_reads(cond, &mut reads);
            out.extend(reads.iter().map(|(v, ..)| *v));
            crate::walk::referenced(then, out);
            crate::walk::referenced(els, out);
        }
        Stmt::For { range, body, .. } => {
            let mut reads = Vec::new();
            crate::walk::range_reads(range, &mut reads);
            out.extend(reads.iter().map(|(v, ..)| *v));
            crate::walk::referenced(body, out);
        }
        _ => {}
    }
}

/// The tokens of a cotangent: the sum of its terms, each `d_out` (`(*d_out)[i]` for element
/// `i` of an array output) times its factors; `early` prints a factor where the loop starts.
pub fn coef_tokens(
    terms: &[Term],
    d_out: &TokenStream,
    early: &dyn Fn(&Early) -> TokenStream,
) -> TokenStream {
    if terms.is_empty() {
        return quote!(-0.0);
    }
    let terms = terms.iter().map(|t| {
        let mut e = match t.elem {
            Some(i) => quote!((*#d_out)[#i]),
            None => quote!(#d_out),
        };
        for (div, factor) in &t.factors {
            let v = early(factor);
            e = if *div {
                quote!((#e / #v))
            } else {
                quote!((#e * #v))
            };
        }
        if t.negative { quote!((-#e)) } else { e }
    });
    quote!(#(#terms)+*)
}

/// The fused loop in the forward sweep: each accumulator's cotangent set, then each iteration
/// run forward into its step tape (`rerun`, which also advances the accumulators) and swept back
/// at once (`body`), then the cotangents reset: the reverse sweep adds the same seeds again on
/// its way back, for what the accumulators started from.
pub struct LoopCode {
    pub seeds: Vec<(proc_macro2::Ident, TokenStream)>,
    pub head: TokenStream,
    pub rerun: TokenStream,
    pub body: TokenStream,
    /// The step tape's `let`, before the loop and in each iteration
    /// ([`crate::tape::Tape::step_lets`]).
    pub step_lets: (TokenStream, TokenStream),
}

impl LoopCode {
    pub fn tokens(&self) -> TokenStream {
        let LoopCode {
            seeds,
            head,
            rerun,
            body,
            step_lets: (before, each),
        } = self;
        let set = seeds.iter().map(|(d, c)| quote!(#d = #c;));
        let reset = seeds.iter().map(|(d, _)| quote!(#d = -0.0;));
        quote!(
            #(#set)*
            #before
            #head {
                #each
                #rerun
                #body
            }
            #(#reset)*
        )
    }
}
