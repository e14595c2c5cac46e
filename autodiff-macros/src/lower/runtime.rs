//! Loops whose trip count is known at run time only (`0..n`, `0..x.len()`, a slice's
//! `.iter()`). Their tape cannot have a dimension for them, so either their iterations are
//! independent, sharing nothing but accumulators (`acc += ..`, `acc -= ..`): the forward sweep
//! records none of them and the reverse sweep runs each again, into one iteration's tape, before
//! sweeping it back (Tapenade's II-loops); or the loop says `#[checkpoint(binomial(S))]`: a
//! sequential loop under Griewank's binomial schedule, whose tape keeps the state before it.

use proc_macro2::TokenStream;
use quote::ToTokens;

use super::{COMPUTED, GIVE_TYPE, Lower, err};
use crate::ir::*;

impl Lower {
    /// Whether a loop bound is known at run time only: no compile-time bound on it.
    pub(super) fn runtime_bound(&self, end: &syn::Expr) -> bool {
        self.max_of(end).is_none()
    }

    /// The checkpoint mode of a run-time loop: every iteration run again from the loop's inputs
    /// (independent iterations), or the binomial schedule the loop asks for.
    pub(super) fn runtime_checkpoint(
        &mut self,
        fl: &syn::ExprForLoop,
        checkpoint: Option<Option<TokenStream>>,
        binomial: bool,
    ) -> Option<Option<TokenStream>> {
        match checkpoint {
            None => Some(None),
            Some(Some(s)) if binomial => Some(Some(s)),
            _ => {
                let attr = fl
                    .attrs
                    .iter()
                    .find(|a| a.path().is_ident("checkpoint"))
                    .map(|a| a.to_token_stream())
                    .unwrap_or_else(|| fl.expr.to_token_stream());
                self.error(err(
                    attr,
                    "the length of this loop is known at run time only, so its checkpoints cannot be stored per iteration: remove `#[checkpoint]` if its iterations are independent (they share only accumulators, `acc += ..`), or write `#[checkpoint(binomial(S))]` for a sequential loop",
                ));
                None
            }
        }
    }

    /// A run-time loop without checkpoints: every variable from before it that its body writes
    /// must be an accumulator, written only by `v += e` or `v -= e` (of a float or an element)
    /// and read nowhere else in the body. Where one is not, with the `alloc` feature, the loop
    /// is recorded like a loop of constant bounds into `Vec` fields of the tape instead.
    pub(super) fn check_independent(&mut self, fl: &syn::ExprForLoop, id: usize, body: &Block) {
        let lp = &self.f.loops[id];
        let vec = lp.carried.iter().copied().find(|&v| self.is_vec(v));
        let checkpointed = lp.checkpoint.is_some() && (!lp.runtime || lp.binomial);
        if let (Some(v), true) = (vec, checkpointed) {
            let name = self.f.vars[v].name.clone();
            return self.error(err(
                &fl.expr,
                format!("a checkpointed loop saves the state it carries whole, and `{name}`, a `Vec`, cannot be saved in a tape of fixed size: remove `#[checkpoint(..)]` from this loop (its steps are then recorded)"),
            ));
        }
        if !lp.runtime || lp.binomial {
            return;
        }
        let mut written = Vec::new();
        crate::walk::assigned(body, &mut written);
        let mut carried = Vec::new();
        for v in lp.carried.clone() {
            if self.is_vec(v) {
                // Read in place by a rerun, it would need a copy of its own; recorded instead.
                carried.push(v);
                continue;
            }
            if written.contains(&v) && extremum_only(body, v) {
                self.f.loops[id].extrema.push(v);
                continue;
            }
            if written.contains(&v) && !accumulates_only(body, v) {
                carried.push(v);
            }
        }
        let Some(&v) = carried.first() else {
            self.record_if_costly(id, body);
            return;
        };
        // (A run-time loop around it is still undecided: when it turns out to be of independent
        // iterations, it reports this one.)
        let outer_checkpointed = (self.nest.iter())
            .map(|&l| &self.f.loops[l])
            .any(|l| l.checkpoint.is_some() && (!l.runtime || l.binomial));
        if self.alloc && !outer_checkpointed {
            // A sequential loop: recorded, its fields `Vec`s sized when it starts.
            let lp = &mut self.f.loops[id];
            lp.checkpoint = None;
            lp.extrema.clear();
            lp.carried.clear();
            return;
        }
        if !self.reported_carried.insert(v) {
            return;
        }
        let name = self.f.vars[v].name.clone();
        if self.computed_lengths.contains(&id) {
            // Inside a checkpointed loop of constant bounds: reported by `Lower::carried`.
            if self.in_constant_checkpoint() {
                return;
            }
            let how = if self.alloc {
                "a loop inside a checkpointed loop cannot be one"
            } else {
                "without the `alloc` feature (of `stackgrad` or `autodiff-macros`) its tape cannot grow"
            };
            return self.error(err(
                &fl.expr,
                format!(
                    "`{name}` is carried from one iteration of this loop to the next, over an array whose length is {COMPUTED}, so the loop is recorded as one of run-time length, and {how}; {GIVE_TYPE}"
                ),
            ));
        }
        let options = if self.alloc {
            "it is inside a checkpointed loop, whose iterations run again, so its tape cannot grow: write `#[checkpoint(binomial(S))]` on it"
        } else {
            "without the `alloc` feature (of `stackgrad` or `autodiff-macros`) its tape cannot grow with the length: write `#[checkpoint(binomial(S))]` on it"
        };
        self.error(err(
            &fl.expr,
            format!(
                "`{name}` is carried from one iteration of this loop to the next, whose length is known at run time only, and {options}; or make its iterations independent, sharing only accumulators written as `{name} += ..`, `{name} -= ..`, `{name} = {name}.max(..)` or `{name} = {name}.min(..)` and not read otherwise, or declare `{name}` inside the loop if each iteration sets it first"
            ),
        ));
    }
}

impl Lower {
    /// A loop of independent iterations whose body computes a costly function (`exp`, `ln`,
    /// `sin`, ..), holds no loop of its own and no running extremum, outside any run-time loop,
    /// with the `alloc` feature: a candidate for recording into `Vec` fields of the tape
    /// instead of running again in the reverse sweep, which then reads the values (a load
    /// where it would compute the function again; [`crate::fused::record_costly`] decides).
    /// (A running extremum recorded so took longer: see BENCHMARKS, lse.)
    fn record_if_costly(&mut self, id: usize, body: &Block) {
        let lp = &self.f.loops[id];
        let inside_runtime = (lp.nest.iter()).any(|&l| self.f.loops[l].runtime);
        let (loops, costly) = scan(body);
        if self.alloc && !inside_runtime && !loops && costly && lp.extrema.is_empty() {
            self.costly.push(id);
        }
    }
}

/// Whether a block holds a loop, and whether it calls a costly float function.
fn scan(b: &Block) -> (bool, bool) {
    const COSTLY: [&str; 16] = [
        "exp", "exp2", "exp_m1", "ln", "ln_1p", "log", "log2", "log10", "powf", "sin", "cos",
        "tan", "tanh", "sinh", "cosh", "atan2",
    ];
    let (mut loops, mut costly) = (false, false);
    for s in &b.stmts {
        match s {
            Stmt::For { .. } => loops = true,
            Stmt::Def {
                rhs: Rhs::Method { method, .. },
                ..
            } => costly |= COSTLY.contains(&method.name),
            Stmt::If { then, els, .. } => {
                for branch in [then, els] {
                    let (l, c) = scan(branch);
                    loops |= l;
                    costly |= c;
                }
            }
            _ => {}
        }
    }
    (loops, costly)
}

/// Whether float `v` is written in `b` only as `v = v.max(e)` (or only as `v = v.min(e)`), at
/// the top of the loop's body, and read nowhere else.
fn extremum_only(b: &Block, v: VarId) -> bool {
    let mut kind = None;
    let mut writes = 0;
    for s in &b.stmts {
        match s {
            Stmt::Def {
                target: Target::Var(t),
                place,
                rhs:
                    Rhs::Method {
                        method,
                        recv: Operand::Var { var, proj, .. },
                        args,
                        ..
                    },
                ..
            } if *t == v
                && place.is_empty()
                && *var == v
                && proj.is_empty()
                && matches!(method.name, "max" | "min")
                && args.iter().all(|a| !operand_reads(a, v)) =>
            {
                if kind.replace(method.name).is_some_and(|k| k != method.name) {
                    return false;
                }
                writes += 1;
            }
            s => {
                // Read or written anywhere else: not an extremum.
                let mut assigned = Vec::new();
                crate::walk::stmt_assigns(s, &mut assigned);
                if assigned.contains(&v) || stmt_reads(s, v) {
                    return false;
                }
            }
        }
    }
    writes == 1 && !b.tail.iter().any(|o| operand_reads(o, v))
}

/// Whether a statement reads `v` anywhere (at any depth).
fn stmt_reads(s: &Stmt, v: VarId) -> bool {
    let mut refs = std::collections::BTreeSet::new();
    match s {
        Stmt::Def { place, rhs, .. } => {
            let mut reads = Vec::new();
            crate::walk::rhs_reads(rhs, place, &mut reads);
            return reads.iter().any(|(r, ..)| *r == v);
        }
        Stmt::If {
            cond, then, els, ..
        } => {
            let mut reads = Vec::new();
            crate::walk::pure_reads(cond, &mut reads);
            crate::walk::referenced(then, &mut refs);
            crate::walk::referenced(els, &mut refs);
            if reads.iter().any(|(r, ..)| *r == v) {
                return true;
            }
        }
        Stmt::For { range, body, .. } => {
            let mut reads = Vec::new();
            crate::walk::range_reads(range, &mut reads);
            crate::walk::referenced(body, &mut refs);
            if reads.iter().any(|(r, ..)| *r == v) {
                return true;
            }
        }
        Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
    }
    refs.contains(&v)
}

/// Whether `v` is written in `b` only as `v = v + e` / `v = v - e` (`v += e`, `v -= e`, on the
/// same place) and read nowhere else.
fn accumulates_only(b: &Block, v: VarId) -> bool {
    let reads_v = |reads: &[(VarId, &[Proj], ReadId)]| reads.iter().any(|(r, ..)| *r == v);
    // `v = v + e` written out lowers to a temporary `t = v + e` and `v = t`: the temporary is
    // the sum, read only by that copy.
    let mut sums: Vec<(TempId, &[Proj])> = Vec::new();
    for s in &b.stmts {
        if let Stmt::Def {
            target: Target::Temp(t),
            rhs: Rhs::Bin(BinOp::Add | BinOp::Sub, Operand::Var { var, proj, .. }, e),
            ..
        } = s
            && *var == v
            && !operand_reads(e, v)
        {
            sums.push((*t, proj));
        }
    }
    let mut copied = 0;
    for s in &b.stmts {
        match s {
            Stmt::Def {
                target: Target::Temp(t),
                ..
            } if sums.iter().any(|(u, _)| u == t) => continue,
            Stmt::Def {
                target: Target::Var(t),
                place,
                rhs: Rhs::Copy(Operand::Temp(u)),
                ..
            } if *t == v
                && sums
                    .iter()
                    .any(|(w, proj)| w == u && same_place(proj, place)) =>
            {
                copied += 1;
                continue;
            }
            // `v = v`: nothing changes (the tangent of an increment without one).
            Stmt::Def {
                target: Target::Var(t),
                place,
                rhs: Rhs::Copy(Operand::Var { var, proj, .. }),
                ..
            } if *t == v && *var == v && same_place(proj, place) => continue,
            _ => {}
        }
        let reads_sum =
            |o: &Operand| matches!(o, Operand::Temp(t) if sums.iter().any(|(u, _)| u == t));
        let mut uses_sum = false;
        if let Stmt::Def { rhs, .. } = s {
            uses_sum = crate::walk::operands(rhs).into_iter().any(reads_sum);
        }
        if uses_sum {
            return false;
        }
        match s {
            Stmt::Def {
                target, place, rhs, ..
            } => {
                let mut index_reads = Vec::new();
                crate::walk::proj_reads(place, &mut index_reads);
                if reads_v(&index_reads) {
                    return false;
                }
                let operands = crate::walk::operands(rhs);
                if *target == Target::Var(v) {
                    let Rhs::Bin(BinOp::Add | BinOp::Sub, Operand::Var { var, proj, .. }, e) = rhs
                    else {
                        return false;
                    };
                    if *var != v || !same_place(proj, place) || operand_reads(e, v) {
                        return false;
                    }
                    let mut inner = Vec::new();
                    crate::walk::proj_reads(proj, &mut inner);
                    if reads_v(&inner) {
                        return false;
                    }
                } else if operands.iter().any(|o| operand_reads(o, v)) || pure_rhs_reads(rhs, v) {
                    return false;
                }
            }
            Stmt::If {
                cond,
                then,
                els,
                results,
                ..
            } => {
                let mut reads = Vec::new();
                crate::walk::pure_reads(cond, &mut reads);
                if reads_v(&reads)
                    || results.contains(&Target::Var(v))
                    || !accumulates_only(then, v)
                    || !accumulates_only(els, v)
                {
                    return false;
                }
            }
            Stmt::For { range, body, .. } => {
                let mut reads = Vec::new();
                crate::walk::range_reads(range, &mut reads);
                if reads_v(&reads) || !accumulates_only(body, v) {
                    return false;
                }
            }
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        }
    }
    // Each sum is copied into `v` once, and read by nothing else.
    copied == sums.len() && !b.tail.iter().any(|o| operand_reads(o, v))
}

/// Whether an operand reads `v`, as the value or in an index.
fn operand_reads(o: &Operand, v: VarId) -> bool {
    let Operand::Var { var, proj, .. } = o else {
        return false;
    };
    let mut reads = Vec::new();
    crate::walk::proj_reads(proj, &mut reads);
    *var == v || reads.iter().any(|(r, ..)| *r == v)
}

/// Whether a pure right-hand side (an integer or bool expression) reads `v`.
fn pure_rhs_reads(rhs: &Rhs, v: VarId) -> bool {
    let Rhs::Pure(p) = rhs else { return false };
    let mut reads = Vec::new();
    crate::walk::pure_reads(p, &mut reads);
    reads.iter().any(|(r, ..)| *r == v)
}

/// Whether two places are the same: the same fields and the same index expressions, written
/// with the same variables and literals.
fn same_place(a: &[Proj], b: &[Proj]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Proj::Index(p), Proj::Index(q)) => same_pure(p, q),
            (
                Proj::Range {
                    start: s,
                    end: e,
                    inclusive: i,
                },
                Proj::Range {
                    start: t,
                    end: u,
                    inclusive: j,
                },
            ) => {
                let same = |p: &Option<Pure>, q: &Option<Pure>| match (p, q) {
                    (Some(p), Some(q)) => same_pure(p, q),
                    (p, q) => p.is_none() && q.is_none(),
                };
                i == j && same(s, t) && same(e, u)
            }
            (Proj::Field(f), Proj::Field(g)) => f == g,
            (Proj::Deref, Proj::Deref) => true,
            _ => false,
        })
}

fn same_pure(a: &Pure, b: &Pure) -> bool {
    match (a, b) {
        (Pure::Lit(x), Pure::Lit(y)) => x.to_string() == y.to_string(),
        (Pure::Var(v, p, _), Pure::Var(w, q, _)) => v == w && same_place(p, q),
        (Pure::Bin(o, x1, x2), Pure::Bin(p, y1, y2)) => {
            o.to_string() == p.to_string() && same_pure(x1, y1) && same_pure(x2, y2)
        }
        _ => false,
    }
}
