//! What an iteration of a run-time loop of independent iterations, run again by the reverse
//! sweep, can leave out. The reverse sweep reads the iteration's step tape and the running
//! extrema, never the loop's additive accumulators (`acc += e`: their cotangent passes to `e`
//! whatever their value, and the sweep starts them at zero). So the updates of the accumulators
//! are dead in the re-run, and so is whatever only they read: in GMM's triangle, `qx[b] +=
//! l[..] * xa` runs again for nothing, a store to a local array per element that LLVM does not
//! remove.
//!
//! The statements are emitted once to see which store into a tape (a trial emission, whose
//! tokens are dropped), then again without the dead ones: a statement is live when it stores,
//! calls a function, leaves the loop (`break`, `continue`, a bound's panic), writes a variable
//! from before the loop other than an accumulator (a running extremum), or defines what a live
//! statement or a stored snapshot reads.

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;

use super::Fwd;
use crate::ir::*;
use crate::walk::{find_loop, operands, range_reads, rhs_reads};

/// What the trial emission saw: the tape stores each statement made (its nested statements
/// included) and those of the snapshots at each position.
#[derive(Default)]
pub struct Probe {
    stores: HashMap<StmtRef, usize>,
    snaps: HashMap<At, usize>,
}

/// What a trial emission counts tape stores for: a statement, or the snapshots at a position.
pub enum Counted {
    Stmt(StmtRef),
    Snaps(At),
}

impl Probe {
    pub fn add(&mut self, what: Counted, n: usize) {
        match what {
            Counted::Stmt(r) => *self.stores.entry(r).or_default() += n,
            Counted::Snaps(at) => *self.snaps.entry(at).or_default() += n,
        }
    }
}

impl Fwd<'_> {
    /// [`Fwd::rerun`] for the reverse sweep: for a run-time loop of independent iterations,
    /// without the statements it does not need.
    pub fn sweep_rerun(&self, l: usize, record: bool) -> TokenStream {
        let lp = &self.f.loops[l];
        if !lp.independent() {
            return self.rerun(l, record);
        }
        let Some(body) = find_loop(&self.f.body, l) else {
            return TokenStream::new();
        };
        let mark = self.written.borrow().len();
        *self.probe.borrow_mut() = Some(Probe::default());
        let _ = self.rerun(l, record);
        let probe = self.probe.borrow_mut().take().unwrap_or_default();
        self.written.borrow_mut().truncate(mark);
        *self.dead.borrow_mut() = dead(self, l, body, &probe);
        let code = self.rerun(l, record);
        self.dead.borrow_mut().clear();
        code
    }
}

/// The statements of loop `l`'s body (at any depth) that its re-run leaves out.
fn dead(fwd: &Fwd, l: usize, body: &Block, probe: &Probe) -> HashSet<StmtRef> {
    let lp = &fwd.f.loops[l];
    let accumulators: HashSet<VarId> = crate::walk::accumulators(fwd.f, l).into_iter().collect();
    let mut live = Live {
        probe,
        loops: &fwd.f.loops,
        carried: lp.carried.iter().copied().collect(),
        accumulators,
        targets: HashSet::new(),
        stmts: HashSet::new(),
        changed: false,
    };
    for (at, &n) in &probe.snaps {
        if n > 0 {
            (fwd.plan.snaps(*at).iter()).for_each(|&v| {
                live.targets.insert(Target::Var(v));
            });
        }
    }
    loop {
        live.changed = false;
        live.block(body);
        if !live.changed {
            break;
        }
    }
    let mut all = Vec::new();
    refs(body, &mut all);
    all.into_iter()
        .filter(|r| !live.stmts.contains(r))
        .collect()
}

struct Live<'p> {
    probe: &'p Probe,
    loops: &'p [Loop],
    /// The loop's variables from before it.
    carried: HashSet<VarId>,
    accumulators: HashSet<VarId>,
    /// Variables and temporaries a live statement or a stored snapshot reads.
    targets: HashSet<Target>,
    stmts: HashSet<StmtRef>,
    changed: bool,
}

impl Live<'_> {
    /// Marks the block's live statements; whether it has one.
    fn block(&mut self, b: &Block) -> bool {
        let mut any = false;
        for s in &b.stmts {
            any |= self.stmt(s);
        }
        any
    }

    fn stmt(&mut self, s: &Stmt) -> bool {
        let Some(r) = StmtRef::of(s) else {
            // `break`, `continue`, a bound's panic.
            return true;
        };
        let own = self.own_stores(s, r) > 0;
        let live = match s {
            Stmt::Def { target, rhs, .. } => {
                own || matches!(rhs, Rhs::Call { .. })
                    || self.targets.contains(target)
                    || matches!(target, Target::Var(v)
                        if self.carried.contains(v) && !self.accumulators.contains(v))
            }
            Stmt::If {
                then, els, results, ..
            } => {
                let inner = self.block(then) | self.block(els);
                own || inner || results.iter().any(|t| self.targets.contains(t))
            }
            Stmt::For { id, body, .. } => {
                // A loop's own stores are the snapshots of what it carries and its extrema's
                // values before and after it.
                if own {
                    let lp = &self.loops[*id];
                    for &v in lp.carried.iter().chain(&lp.extrema) {
                        self.read(Target::Var(v));
                    }
                }
                self.block(body) | own
            }
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => true,
        };
        if live && self.stmts.insert(r) {
            self.changed = true;
            self.reads(s);
        }
        live
    }

    /// Marks what a live statement reads (for an `if` or a loop, its condition or range and
    /// the values of its branches).
    fn reads(&mut self, s: &Stmt) {
        let mut vars = Vec::new();
        let mut temps = Vec::new();
        match s {
            Stmt::Def {
                target,
                place,
                rhs,
                is_let,
                ..
            } => {
                rhs_reads(rhs, place, &mut vars);
                for o in operands(rhs) {
                    if let Operand::Temp(t) = o {
                        temps.push(*t);
                    }
                }
                if let Rhs::Elem { call, .. } = rhs {
                    self.read(*call);
                }
                // A write to a place keeps the rest of the variable's value, and an assignment
                // its declaration.
                if !place.is_empty() || !is_let {
                    self.declared(*target);
                }
            }
            Stmt::If {
                cond,
                then,
                els,
                results,
                is_let,
                ..
            } => {
                crate::walk::pure_reads(cond, &mut vars);
                if !is_let {
                    results.iter().for_each(|&t| self.declared(t));
                }
                if !results.is_empty() {
                    for o in then.tail.iter().chain(&els.tail) {
                        crate::walk::operand_reads(o, &mut vars);
                        if let Operand::Temp(t) = o {
                            temps.push(*t);
                        }
                    }
                }
            }
            Stmt::For { range, .. } => range_reads(range, &mut vars),
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        }
        let vars: Vec<VarId> = vars.iter().map(|(v, ..)| *v).collect();
        for v in vars {
            self.read(Target::Var(v));
        }
        for t in temps {
            self.read(Target::Temp(t));
        }
    }

    /// Marks a variable a live statement assigns, unless it is from before the loop: its
    /// declaration (and so every definition of it) stays.
    fn declared(&mut self, t: Target) {
        if !matches!(t, Target::Var(v) if self.carried.contains(&v)) {
            self.read(t);
        }
    }

    fn read(&mut self, t: Target) {
        self.changed |= self.targets.insert(t);
    }

    /// The stores a statement makes itself, not in the statements of its blocks.
    fn own_stores(&self, s: &Stmt, r: StmtRef) -> usize {
        let count = |r: &StmtRef| self.probe.stores.get(r).copied().unwrap_or(0);
        let snaps = |at: At| self.probe.snaps.get(&at).copied().unwrap_or(0);
        let inner = |b: &Block, here: BlockRef| -> usize {
            snaps(At::Start(here))
                + (b.stmts.iter())
                    .filter_map(StmtRef::of)
                    .map(|c| count(&c) + snaps(At::After(c)))
                    .sum::<usize>()
        };
        let nested = match s {
            Stmt::If { id, then, els, .. } => {
                inner(then, BlockRef::Then(*id)) + inner(els, BlockRef::Else(*id))
            }
            Stmt::For { id, body, .. } => inner(body, BlockRef::Body(*id)),
            _ => 0,
        };
        count(&r).saturating_sub(nested)
    }
}

/// Every statement of a block, at any depth.
fn refs(b: &Block, out: &mut Vec<StmtRef>) {
    for s in &b.stmts {
        out.extend(StmtRef::of(s));
        match s {
            Stmt::If { then, els, .. } => {
                refs(then, out);
                refs(els, out);
            }
            Stmt::For { body, .. } => refs(body, out),
            _ => {}
        }
    }
}
