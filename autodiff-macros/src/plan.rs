//! The tape plan: for every value the reverse sweep reads, how it gets there. Decided from the
//! IR alone, before either sweep is generated; both sweeps read it.
//!
//! The rules, cheapest first:
//! - *in place*: parameters (never assigned: a mutable parameter gets a local copy) and loop
//!   counters (the reverse sweep runs the same loops) are read where they are;
//! - *recomputed*: constants, casts of constants, integer and bool expressions of values that
//!   are themselves available, a copy of an available value (two names, one source), and a cheap
//!   float expression (one `+ - *`, negation, `abs`, a cast) whose operands are available at a
//!   shallower loop level than the expression itself (recording it would cost a loop level more
//!   than its operands); a branch whose condition is such an expression is not recorded either;
//! - *recomputed element by element*: a local array each of whose elements one statement
//!   `a[d] = e` defines, unconditionally, in a loop `for d in 0..len` over the whole array, from
//!   values in place (`xc[d] = x[i][d] - means[k][d]`), and that is read only after that loop,
//!   by element: the reverse sweep computes the whole array again once, where the reversed
//!   block that declares it begins (`let a: [T; N] = ::core::array::from_fn(|d| e);`), and the
//!   reads index that (GMM's centred point, and its tangent in `hvp`'s tangent program, need no
//!   record at all). Evaluating `e` at each read instead would put its loads in the innermost
//!   loop, where they kept the compiler from holding a cotangent in a register: GMM's gradient
//!   ran 2.1-2.6x slower that way;
//! - *recorded once, where it is defined*: a mutable variable read after its last write in the
//!   enclosing block is recorded whole, once, right after that write (a *snapshot*), when that
//!   is outside a loop the read is in, when the read takes the whole variable, or when the
//!   variable is a scalar; every read it serves (`qx[d]` read twice, `xc[a]` in a triangular
//!   loop when it is not recomputed) indexes the snapshot instead of being recorded itself;
//! - *recorded*: everything else, in a field shaped by the loops around its definition.
//!
//! The tape's fields are the records the reverse sweep asks for: the sweep is generated once
//! against a collecting tape to list them ([`crate::tape::Tape`]), the layout is then fixed
//! (in the order the forward sweep writes it), and both sweeps are generated against it.

use std::collections::{HashMap, HashSet};

use quote::ToTokens;

use crate::analysis::{Activity, Reach};
use crate::ir::*;
use crate::walk::{pure_reads, range_reads, rhs_reads, stmt_assigns};

/// A snapshot: variable `var` recorded whole at `at`, inside the loops `nest`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Snap {
    pub var: VarId,
    pub at: At,
    pub nest: Vec<usize>,
}

pub struct Plan {
    /// Values the reverse sweep evaluates again from their definition.
    pub recompute: HashSet<Target>,
    /// `if`s whose condition the reverse sweep evaluates again instead of recording the branch.
    pub recompute_flag: HashSet<usize>,
    /// Reads served by a snapshot.
    pub snap: HashMap<ReadId, Snap>,
    /// The variables snapshotted at each position, in variable order.
    pub snaps_at: HashMap<At, Vec<VarId>>,
    /// What each read of a mutable variable reads, where one definition does.
    pub reaching: Vec<Reach>,
    /// The loops around the definition of each variable and temporary: where the record of an
    /// immutable value lives.
    pub nests: HashMap<Target, Vec<usize>>,
    /// Arrays recomputed element by element: the defining statement and its loop's counter.
    pub elementwise: HashMap<VarId, Elementwise>,
}

/// `a[d] = e` in `for d in 0..len`, the one definition of every element of `a`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Elementwise {
    /// The defining statement's id.
    pub def: usize,
    /// The loop counter `d`, which the reverse sweep's `from_fn(|d| e)` binds again.
    pub counter: VarId,
}

impl Plan {
    pub fn new(f: &Func, act: &Activity) -> Plan {
        let reaching = crate::analysis::reaching_defs(f);
        let _ = act;
        let mut plan = Plan {
            recompute: HashSet::new(),
            recompute_flag: HashSet::new(),
            snap: HashMap::new(),
            snaps_at: HashMap::new(),
            reaching,
            nests: value_nests(f),
            elementwise: HashMap::new(),
        };
        plan.snapshots(f);
        plan.recomputed(f, &f.body);
        plan.elementwise = elementwise(f);
        plan
    }

    /// The snapshots stored at a position.
    pub fn snaps(&self, at: At) -> &[VarId] {
        self.snaps_at.get(&at).map_or(&[], |v| v.as_slice())
    }

    /// Is the value of this read available to the reverse sweep without a record at a loop level
    /// as deep as `depth` (in place, recomputed, or recorded at a shallower level)?
    fn available_read(
        &self,
        f: &Func,
        var: VarId,
        proj: &[Proj],
        read: ReadId,
        depth: usize,
    ) -> bool {
        let v = &f.vars[var];
        // A `#[record(..)]` value is on the tape rounded: what is computed from it is recorded
        // itself, never evaluated again from the rounded value.
        if v.record.is_some() {
            return false;
        }
        let indices = proj
            .iter()
            .flat_map(Proj::pures)
            .all(|i| self.available_pure(f, i));
        if !indices {
            return false;
        }
        if v.in_place() || self.recompute.contains(&Target::Var(var)) {
            return true;
        }
        if !v.mutable {
            return (self.nests.get(&Target::Var(var))).is_some_and(|n| n.len() < depth);
        }
        if let Some(s) = self.snap.get(&read) {
            return s.nest.len() < depth;
        }
        match self.reaching.get(read) {
            Some(Reach::Def(d)) if proj.is_empty() => f.def_nest[*d].len() < depth,
            _ => false,
        }
    }

    /// Can the reverse sweep evaluate this integer or bool expression again from what it has
    /// in place or recomputes (never a call: that would run the primal again)?
    fn available_pure(&self, f: &Func, p: &Pure) -> bool {
        if has_call(p) {
            return false;
        }
        let mut reads = Vec::new();
        pure_reads(p, &mut reads);
        reads.iter().all(|(v, _, _)| {
            let var = &f.vars[*v];
            var.in_place() || self.recompute.contains(&Target::Var(*v))
        })
    }

    fn available(&self, f: &Func, o: &Operand, depth: usize) -> bool {
        match o {
            Operand::Const { .. } => true,
            Operand::Temp(t) => self.recompute.contains(&Target::Temp(*t)),
            Operand::Var {
                var, proj, read, ..
            } => self.available_read(f, *var, proj, *read, depth),
        }
    }

    /// Is this operand available (as [`Plan::available`]) or a temporary or immutable variable
    /// recorded where it is defined, at a loop depth below `depth`?
    fn defined_outside(&self, f: &Func, o: &Operand, depth: usize) -> bool {
        let target = match o {
            Operand::Temp(t) => Target::Temp(*t),
            Operand::Var { var, proj, .. }
                if proj.is_empty() && !f.vars[*var].mutable && f.vars[*var].record.is_none() =>
            {
                Target::Var(*var)
            }
            _ => return self.available(f, o, depth),
        };
        self.recompute.contains(&target) || self.nests.get(&target).is_some_and(|n| n.len() < depth)
    }

    /// Decides, in program order (a value is defined before it is used), which values are
    /// recomputed.
    fn recomputed(&mut self, f: &Func, b: &Block) {
        for s in &b.stmts {
            match s {
                Stmt::Def {
                    id,
                    target,
                    place,
                    rhs,
                    is_let,
                } => {
                    let immutable = match target {
                        Target::Temp(_) => true,
                        Target::Var(v) => {
                            let var = &f.vars[*v];
                            // A `#[record(..)]` let asks for a record.
                            *is_let
                                && place.is_empty()
                                && !var.mutable
                                && var.param.is_none()
                                && var.record.is_none()
                        }
                    };
                    if immutable && self.cheap(f, rhs, f.def_nest[*id].len()) {
                        self.recompute.insert(*target);
                    }
                }
                Stmt::If {
                    id,
                    cond,
                    then,
                    els,
                    ..
                } => {
                    if self.available_pure(f, cond) {
                        self.recompute_flag.insert(*id);
                    }
                    self.recomputed(f, then);
                    self.recomputed(f, els);
                }
                Stmt::For { body, .. } => self.recomputed(f, body),
                Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
            }
        }
    }

    /// Is this definition, at loop depth `depth`, cheaper to evaluate again than to record?
    fn cheap(&self, f: &Func, rhs: &Rhs, depth: usize) -> bool {
        // Anything reads from any level: recording a constant is never cheaper.
        let constant = |o: &Operand| matches!(o, Operand::Const { .. });
        match rhs {
            Rhs::Pure(p) => self.available_pure(f, p),
            Rhs::Copy(o) => self.available(f, o, usize::MAX) || constant(o),
            Rhs::Neg(o) => constant(o) || self.available(f, o, depth),
            // A cast of a value whose type rustc infers (`n as f64`, `n` a helper's result on
            // data): recorded, as the cast's type is known and the value's is not.
            Rhs::Cast(o) => {
                constant(o) || (f.types.known(f.operand_ty(o)) && self.available(f, o, depth))
            }
            Rhs::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => {
                (constant(a) && constant(b))
                    || (self.available(f, a, depth) && self.available(f, b, depth))
                    // A constant and one value defined at this level or outside (`1.0 + e`):
                    // the sweep reads `e` instead of the sum, never more than before.
                    || (constant(a) && self.defined_outside(f, b, depth + 1))
                    || (constant(b) && self.defined_outside(f, a, depth + 1))
            }
            Rhs::Method {
                method, recv, args, ..
            } => method.name == "abs" && args.is_empty() && self.available(f, recv, depth),
            _ => false,
        }
    }

    /// Finds, for every read of a mutable local, the position after its last write in the
    /// outermost block where no write comes between that position and the read; keeps the
    /// snapshots that pay (see the module's rules).
    fn snapshots(&mut self, f: &Func) {
        let wanted: HashSet<VarId> = (0..f.vars.len())
            .filter(|&v| {
                let var = &f.vars[v];
                // A `Vec` local is never recorded whole: each read is.
                var.mutable && !var.in_place() && !f.vec_lens.contains_key(&v)
            })
            .collect();
        let found = snapshot_positions(f, &wanted);
        // A snapshot pays if one of its reads is of the whole variable, sits in a loop the
        // snapshot is outside of, or the variable is a scalar (one record serves every read).
        let mut pays: HashSet<(VarId, At)> = HashSet::new();
        for (read, s, whole) in &found {
            let deeper = f.reads[*read].1.len() > s.nest.len();
            let scalar = f.types.kind(f.vars[s.var].ty) != Kind::Array;
            if *whole || deeper || scalar {
                pays.insert((s.var, s.at));
            }
        }
        for (read, s, _) in found {
            if !pays.contains(&(s.var, s.at)) {
                continue;
            }
            let at = self.snaps_at.entry(s.at).or_default();
            if !at.contains(&s.var) {
                at.push(s.var);
                at.sort_unstable();
            }
            self.snap.insert(read, s);
        }
    }
}

/// A definition of a variable (or a place in it), with the loop whose body holds it directly
/// (not under an `if`), if one does.
struct VarDef<'f> {
    id: usize,
    place: &'f [Proj],
    rhs: &'f Rhs,
    is_let: bool,
    in_loop: Option<(usize, VarId, &'f Range)>,
}

fn var_defs<'f>(
    b: &'f Block,
    direct: Option<(usize, VarId, &'f Range)>,
    out: &mut HashMap<VarId, Vec<VarDef<'f>>>,
) {
    for s in &b.stmts {
        match s {
            Stmt::Def {
                id,
                target: Target::Var(v),
                place,
                rhs,
                is_let,
            } => out.entry(*v).or_default().push(VarDef {
                id: *id,
                place,
                rhs,
                is_let: *is_let,
                in_loop: direct,
            }),
            Stmt::If { then, els, .. } => {
                var_defs(then, None, out);
                var_defs(els, None, out);
            }
            Stmt::For {
                id,
                var,
                range,
                body,
            } => var_defs(body, Some((*id, *var, range)), out),
            _ => {}
        }
    }
}

/// Is `a[d] = e` (`elem`, after `let a = ..`, `init`) the one definition of every element of
/// `a`, in a loop `for d in 0..len` directly around it, from values in place?
fn defines_every_element(f: &Func, v: VarId, init: &VarDef, elem: &VarDef) -> Option<usize> {
    let var = &f.vars[v];
    let floats = f
        .types
        .elem(var.ty)
        .is_some_and(|e| f.types.kind(e) == Kind::Float);
    if !var.mutable || var.in_place() || !floats || !init.is_let || !init.place.is_empty() {
        return None;
    }
    let (lp, counter, range) = elem.in_loop?;
    let by_counter = matches!(elem.place, [Proj::Index(Pure::Var(d, proj, _))] if *d == counter && proj.is_empty());
    let end =
        crate::print::pure_tokens(&range.end, &mut |v, _, _| f.vars[v].emit.to_token_stream());
    let whole = matches!(&range.start, Pure::Lit(t) if t.to_string() == "0")
        && !range.inclusive
        && range.adapters.iter().all(|a| matches!(a, Adapter::Rev))
        && matches!(f.types.get(var.ty), TyVal::Array(_, len) if end.to_string() == len.to_string());
    let mut nest = f.def_nest[init.id].clone();
    nest.push(lp);
    let l = &f.loops[lp];
    (by_counter
        && whole
        && f.def_nest[elem.id] == nest
        && !l.breaks
        && l.checkpoint.is_none()
        && in_place_rhs(f, elem.rhs))
    .then_some(lp)
}

/// The arrays the reverse sweep recomputes element by element (the module's rules).
fn elementwise(f: &Func) -> HashMap<VarId, Elementwise> {
    let mut defs = HashMap::new();
    var_defs(&f.body, None, &mut defs);
    let mut candidates: HashMap<VarId, (Elementwise, usize)> = HashMap::new();
    for (v, ds) in &defs {
        if let [init, elem] = &ds[..]
            && let Some(lp) = defines_every_element(f, *v, init, elem)
            && let Some((_, counter, _)) = elem.in_loop
        {
            let e = Elementwise {
                def: elem.id,
                counter,
            };
            candidates.insert(*v, (e, lp));
        }
    }
    if candidates.is_empty() {
        return HashMap::new();
    }
    // Read only after the loop, by element: every read's last write is the loop itself.
    let wanted: HashSet<VarId> = candidates.keys().copied().collect();
    let found = snapshot_positions(f, &wanted);
    for (_, s, whole) in &found {
        let after_loop = candidates
            .get(&s.var)
            .is_some_and(|(_, lp)| !whole && s.at == At::After(StmtRef::For(*lp)));
        if !after_loop {
            candidates.remove(&s.var);
        }
    }
    candidates.into_iter().map(|(v, (e, _))| (v, e)).collect()
}

/// `e` of `a[d] = e` recomputable anywhere in the array's scope: one `+ - *`, a negation, a
/// cast or a copy of constants and places in parameters indexed by loop counters.
fn in_place_rhs(f: &Func, rhs: &Rhs) -> bool {
    let ok = |o: &Operand| match o {
        Operand::Const { .. } => true,
        Operand::Temp(_) => false,
        Operand::Var { var, proj, .. } => {
            f.vars[*var].in_place()
                && proj.iter().flat_map(Proj::pures).all(|i| {
                    let mut reads = Vec::new();
                    pure_reads(i, &mut reads);
                    !has_call(i) && reads.iter().all(|(v, _, _)| f.vars[*v].in_place())
                })
        }
    };
    match rhs {
        Rhs::Copy(o) | Rhs::Neg(o) | Rhs::Cast(o) => ok(o),
        Rhs::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => ok(a) && ok(b),
        _ => false,
    }
}

fn has_call(p: &Pure) -> bool {
    match p {
        Pure::Call(path, args) if *path == core_min() => args.iter().any(has_call),
        Pure::Call(..) => true,
        Pure::Lit(_) | Pure::Var(..) => false,
        Pure::Unary(_, a) | Pure::Cast(a, _) | Pure::Ref(a) | Pure::Matches(a, _) => has_call(a),
        Pure::Vec { len, .. } => has_call(len),
        Pure::Bin(_, a, b) => has_call(a) || has_call(b),
        Pure::If(c, a, b) => has_call(c) || has_call(a) || has_call(b),
        Pure::Method(r, _, args) => has_call(r) || args.iter().any(has_call),
    }
}

/// The loops around the definition of each variable and temporary (its last one).
fn value_nests(f: &Func) -> HashMap<Target, Vec<usize>> {
    pub(super) fn walk(f: &Func, b: &Block, out: &mut HashMap<Target, Vec<usize>>) {
        for s in &b.stmts {
            match s {
                Stmt::Def { id, target, .. } => {
                    out.insert(*target, f.def_nest[*id].clone());
                }
                Stmt::If {
                    id,
                    then,
                    els,
                    results,
                    ..
                } => {
                    walk(f, then, out);
                    walk(f, els, out);
                    for r in results {
                        out.insert(*r, f.if_nest[*id].clone());
                    }
                }
                Stmt::For { body, .. } => walk(f, body, out),
                Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
            }
        }
    }
    let mut out = HashMap::new();
    walk(f, &f.body, &mut out);
    out
}

/// The reads a statement makes itself (not in its sub-blocks): `(var, read, whole)`.
fn direct_reads(s: &Stmt) -> Vec<(VarId, ReadId, bool)> {
    let mut reads = Vec::new();
    match s {
        Stmt::Def { rhs, place, .. } => rhs_reads(rhs, place, &mut reads),
        Stmt::If { cond, .. } => pure_reads(cond, &mut reads),
        Stmt::For { range, .. } => {
            range_reads(range, &mut reads);
        }
        Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
    }
    reads
        .into_iter()
        .map(|(v, proj, r)| (v, r, proj.iter().all(|p| matches!(p, Proj::Deref))))
        .collect()
}

/// Every read in a block, at any depth, with the tails of value blocks.
fn all_reads(b: &Block, out: &mut Vec<(VarId, ReadId, bool)>) {
    for s in &b.stmts {
        out.extend(direct_reads(s));
        match s {
            Stmt::If { then, els, .. } => {
                all_reads(then, out);
                all_reads(els, out);
            }
            Stmt::For { body, .. } => all_reads(body, out),
            _ => {}
        }
    }
    out.extend(tail_reads(b));
}

fn tail_reads(b: &Block) -> Vec<(VarId, ReadId, bool)> {
    let mut out = Vec::new();
    for o in &b.tail {
        if let Operand::Var {
            var, proj, read, ..
        } = o
        {
            out.push((*var, *read, proj.iter().all(|p| matches!(p, Proj::Deref))));
            let mut idx = Vec::new();
            crate::walk::proj_reads(proj, &mut idx);
            out.extend(idx.into_iter().map(|(v, p, r)| (v, r, p.is_empty())));
        }
    }
    out
}

/// The snapshot positions of the reads of `wanted` variables in block `b` (see
/// [`Plan::snapshots`]): a read directly in a statement, or nested in one that does not write
/// the variable, is served after the variable's last write before that statement in this block
/// (or at the block's start); a read nested in a statement that writes it is decided inside.
fn find_snaps(
    b: &Block,
    start: Start,
    nest: &[usize],
    wanted: &HashSet<VarId>,
    out: &mut Vec<(ReadId, Snap, bool)>,
) {
    let Start { mut last, default } = start;
    let at = |v: VarId, last: &HashMap<VarId, At>| last.get(&v).copied().unwrap_or(default);
    let record = |v: VarId,
                  read: ReadId,
                  whole: bool,
                  last: &HashMap<VarId, At>,
                  out: &mut Vec<(ReadId, Snap, bool)>| {
        if wanted.contains(&v) {
            let snap = Snap {
                var: v,
                at: at(v, last),
                nest: nest.to_vec(),
            };
            out.push((read, snap, whole));
        }
    };
    for s in &b.stmts {
        for (v, r, whole) in direct_reads(s) {
            record(v, r, whole, &last, out);
        }
        let mut writes = Vec::new();
        stmt_assigns(s, &mut writes);
        let writes: HashSet<VarId> = writes.into_iter().collect();
        // A branch starts where the `if` is: a read in it before any write there is served by
        // the snapshot a read before the `if` would take (one record, not one per branch). A
        // loop's body starts afresh each iteration.
        let branch = || Start {
            last: last.clone(),
            default,
        };
        let subs: Vec<(&Block, Start, Vec<usize>)> = match s {
            Stmt::If { then, els, .. } => vec![
                (then, branch(), nest.to_vec()),
                (els, branch(), nest.to_vec()),
            ],
            Stmt::For { id, body, .. } => {
                let mut inner = nest.to_vec();
                inner.push(*id);
                vec![(body, Start::block(BlockRef::Body(*id)), inner)]
            }
            _ => Vec::new(),
        };
        for (sub, sub_start, inner) in subs {
            let mut reads = Vec::new();
            all_reads(sub, &mut reads);
            for (v, r, whole) in reads {
                if !writes.contains(&v) {
                    record(v, r, whole, &last, out);
                }
            }
            let deeper: HashSet<VarId> = writes.intersection(wanted).copied().collect();
            if !deeper.is_empty() {
                find_snaps(sub, sub_start, &inner, &deeper, out);
            }
        }
        if let Some(sref) = StmtRef::of(s) {
            for v in writes {
                last.insert(v, At::After(sref));
            }
        }
    }
    for (v, r, whole) in tail_reads(b) {
        record(v, r, whole, &last, out);
    }
}

/// The snapshot position of every read of a `wanted` variable in the function's body.
fn snapshot_positions(f: &Func, wanted: &HashSet<VarId>) -> Vec<(ReadId, Snap, bool)> {
    let mut found = Vec::new();
    find_snaps(&f.body, Start::block(BlockRef::Fn), &[], wanted, &mut found);
    found
}

/// Where [`find_snaps`] starts a block: the last write of each variable before it, and the
/// position of a variable not written since the block's own start.
struct Start {
    last: HashMap<VarId, At>,
    default: At,
}

impl Start {
    fn block(b: BlockRef) -> Start {
        Start {
            last: HashMap::new(),
            default: At::Start(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn plan(item: syn::ItemFn) -> (Func, Plan) {
        let args = crate::args::parse(proc_macro2::TokenStream::new()).unwrap();
        let f = crate::lower::lower(&item, &args).unwrap();
        let act = crate::analysis::activity(&f);
        let plan = Plan::new(&f, &act);
        (f, plan)
    }

    fn var(f: &Func, name: &str) -> VarId {
        f.vars.iter().position(|v| v.name == name).unwrap()
    }

    /// The plan's snapshots of variable `v`: (read, snapshot).
    fn snaps_of(plan: &Plan, v: VarId) -> Vec<&Snap> {
        plan.snap.values().filter(|s| s.var == v).collect()
    }

    /// The arrays recomputed element by element, by name.
    fn elementwise_names(src: syn::ItemFn) -> Vec<String> {
        let (f, plan) = plan(src);
        let mut names: Vec<String> = plan
            .elementwise
            .keys()
            .map(|&v| f.vars[v].name.to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn arrays_defined_element_by_element_from_parameters_are_recomputed() {
        // `c` and `t` qualify; `e` is not from values in place (`exp`), `h` is written twice.
        let names = elementwise_names(parse_quote! {
            fn f(x: &[[f64; 3]; 2], m: &[f64; 3], w: f64) -> f64 {
                let mut s = 0.0;
                for i in 0..2 {
                    let mut c = [0.0; 3];
                    let mut t = [0.0; 3];
                    let mut e = [0.0; 3];
                    let mut h = [0.0; 3];
                    for d in 0..3 {
                        c[d] = x[i][d] - m[d];
                        t[d] = -m[d];
                        e[d] = x[i][d].exp();
                        h[d] = w * m[d];
                    }
                    h[0] = w;
                    for a in 0..3 {
                        for b in a..3 {
                            s += c[a] * t[b] * e[a] * h[b];
                        }
                    }
                }
                s
            }
        });
        assert_eq!(names, ["c", "t"]);
    }

    #[test]
    fn element_recomputation_needs_every_element_written_before_any_read() {
        // Under an `if`: not every element. Over part of the array: not every element.
        // Read inside its loop (an element not yet written): the record stays.
        let names = elementwise_names(parse_quote! {
            fn f(x: &[f64; 4], w: f64) -> f64 {
                let mut a = [0.0; 4];
                let mut b = [0.0; 4];
                let mut c = [0.0; 4];
                let mut s = 0.0;
                for d in 0..4 {
                    if w > 0.0 {
                        a[d] = x[d] * w;
                    }
                    c[d] = x[d] + w;
                    s += c[3 - d] * w;
                }
                for d in 0..3 {
                    b[d] = x[d] * w;
                }
                s + a[1] * b[2] + c[0]
            }
        });
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn an_array_read_in_later_loops_is_recorded_once_after_its_last_write() {
        let (f, plan) = plan(parse_quote! {
            fn f(x: &[f64; 4]) -> f64 {
                let mut y = [0.0; 4];
                for i in 0..4 {
                    y[i] = x[i].sin();
                }
                let mut s = 0.0;
                for i in 0..4 {
                    for j in 0..4 {
                        s += y[i] * y[j];
                    }
                }
                s
            }
        });
        let y = var(&f, "y");
        let snaps = snaps_of(&plan, y);
        assert_eq!(
            snaps.len(),
            2,
            "both reads of `y` are served by the snapshot"
        );
        for s in snaps {
            assert!(s.nest.is_empty(), "recorded outside every loop");
            assert_eq!(s.at, At::After(StmtRef::For(0)));
        }
        assert_eq!(plan.snaps(At::After(StmtRef::For(0))), &[y]);
    }

    #[test]
    fn a_read_in_the_loop_that_writes_the_array_is_not_a_snapshot() {
        let (f, plan) = plan(parse_quote! {
            fn f(x: &[f64; 4]) -> f64 {
                let mut y = [1.0; 4];
                for i in 1..4 {
                    y[i] = y[i - 1] * x[i];
                }
                y[3]
            }
        });
        let y = var(&f, "y");
        // `y[i - 1]` is read where the loop writes `y`: one element per iteration, recorded
        // where it is read. `y[3]` after the loop is a scalar read at the outer level.
        assert!(snaps_of(&plan, y).is_empty());
    }

    #[test]
    fn constants_copies_and_cheap_expressions_of_parameters_are_recomputed() {
        let (f, plan) = plan(parse_quote! {
            fn f(w: f64, x: &[f64; 4]) -> f64 {
                let n = 4 as f64;
                let mut s = 0.0;
                for i in 0..4 {
                    let t = w * x[i];
                    let u = t;
                    let e = t.exp();
                    s += e * u;
                }
                s / n
            }
        });
        for name in ["n", "t", "u"] {
            assert!(
                plan.recompute.contains(&Target::Var(var(&f, name))),
                "`{name}` should be recomputed"
            );
        }
        assert!(!plan.recompute.contains(&Target::Var(var(&f, "e"))));
    }

    #[test]
    fn a_condition_on_parameters_is_evaluated_again_one_on_a_computed_value_is_recorded() {
        let (_, plan) = plan(parse_quote! {
            fn f(x: f64) -> f64 {
                let y = x.sin();
                let a = if x > 0.0 { y } else { -y };
                if y > 0.5 { a * a } else { a }
            }
        });
        assert!(
            plan.recompute_flag.contains(&0),
            "`x > 0.0`: x is a parameter"
        );
        assert!(
            !plan.recompute_flag.contains(&1),
            "`y > 0.5`: y is recorded"
        );
    }
}
