//! Activity analysis: which values carry a derivative. A value is active when it depends on a
//! differentiated parameter; the reverse sweep only propagates cotangents of active values, and
//! the tape only records what those propagations read.

use crate::ir::*;
use crate::walk::{assigned, has_continue, stmt_assigns};

pub struct Activity {
    pub vars: Vec<bool>,
    pub temps: Vec<bool>,
}

impl Activity {
    pub fn operand(&self, o: &Operand) -> bool {
        match o {
            Operand::Var { var, .. } => self.vars[*var],
            Operand::Temp(t) => self.temps[*t],
            Operand::Const { .. } => false,
        }
    }

    pub fn target(&self, t: Target) -> bool {
        match t {
            Target::Var(v) => self.vars[v],
            Target::Temp(t) => self.temps[t],
        }
    }

    fn set(&mut self, t: Target) -> bool {
        let slot = match t {
            Target::Var(v) => &mut self.vars[v],
            Target::Temp(t) => &mut self.temps[t],
        };
        let changed = !*slot;
        *slot = true;
        changed
    }

    pub fn rhs(&self, rhs: &Rhs) -> bool {
        match rhs {
            Rhs::Copy(o) | Rhs::Neg(o) | Rhs::Cast(o) => self.operand(o),
            Rhs::Bin(_, a, b) => self.operand(a) || self.operand(b),
            Rhs::Method {
                method, recv, args, ..
            } => {
                method.name != "signum"
                    && (self.operand(recv) || args.iter().any(|a| self.operand(a)))
            }
            Rhs::Call { args, .. } | Rhs::Array(args) => args.iter().any(|a| self.operand(a)),
            // An element of a call's tuple varies with the call.
            Rhs::Elem { call, .. } => self.target(*call),
            Rhs::Pure(_) => false,
        }
    }
}

/// A value is active when it is *varied* (depends on a differentiated parameter: forward
/// propagation to a fixed point, a mutable variable being varied if any assignment to it is)
/// and *useful* (the output depends on it: backward propagation from the returned values). A
/// value that never reaches the output gets no adjoint code at all: its cotangent would be zero,
/// and zero times an infinite partial (`atan2` at the origin) is NaN.
pub fn activity(f: &Func) -> Activity {
    let mut act = Activity {
        vars: vec![false; f.vars.len()],
        temps: vec![false; f.temps.len()],
    };
    for &i in &f.wrt {
        act.vars[f.params[i]] = true;
    }
    while walk(&f.body, &mut act) {}
    let useful = usefulness(f);
    for (v, var) in f.vars.iter().enumerate() {
        if var.param.is_none() {
            act.vars[v] &= useful.vars[v];
        }
    }
    for (t, a) in act.temps.iter_mut().enumerate() {
        *a &= useful.temps[t];
    }
    act
}

/// A call of a known callee (another method of the same `impl` block) that passes an argument
/// carrying a derivative to a parameter the callee does not differentiate: the derivative would
/// be lost, so it is an error at the call, naming the parameter.
pub fn lost_derivatives(f: &Func, act: &Activity) -> syn::Result<()> {
    let mut error: Option<syn::Error> = None;
    lost_in(f, act, &f.body, &mut error);
    error.map_or(Ok(()), Err)
}

fn lost_in(f: &Func, act: &Activity, b: &Block, error: &mut Option<syn::Error>) {
    for s in &b.stmts {
        match s {
            Stmt::Def {
                rhs: Rhs::Call {
                    path, args, span, ..
                },
                ..
            } => {
                let Some(callee) = f.known_callee(path) else {
                    continue;
                };
                for (a, (param, differentiated)) in args.iter().zip(&callee.params) {
                    if *differentiated || !act.operand(a) {
                        continue;
                    }
                    let method = &callee.name;
                    let e = syn::Error::new(
                        *span,
                        format!(
                            "this argument carries a derivative, but `{method}` does not differentiate its parameter `{param}`: the derivative would be lost; add `{param}` to the method's `#[wrt(..)]`"
                        ),
                    );
                    match error {
                        Some(all) => all.combine(e),
                        None => *error = Some(e),
                    }
                }
            }
            Stmt::If { then, els, .. } => {
                lost_in(f, act, then, error);
                lost_in(f, act, els, error);
            }
            Stmt::For { body, .. } => lost_in(f, act, body, error),
            _ => {}
        }
    }
}

/// Which values the output depends on: the returned operands, then, to a fixed point, the
/// operands of every definition of a useful value (per variable: a variable is useful if any
/// of its values may be read by something useful).
pub fn usefulness(f: &Func) -> Activity {
    fn mark(o: &Operand, u: &mut Activity) -> bool {
        match o {
            Operand::Var { var, .. } => u.set(Target::Var(*var)),
            Operand::Temp(t) => u.set(Target::Temp(*t)),
            Operand::Const { .. } => false,
        }
    }
    fn walk(b: &Block, u: &mut Activity) -> bool {
        let mut changed = false;
        for s in &b.stmts {
            match s {
                Stmt::Def { target, rhs, .. } => {
                    if u.target(*target) {
                        for o in crate::walk::operands(rhs) {
                            changed |= mark(o, u);
                        }
                        // A useful element of a call's tuple makes the call useful.
                        if let Rhs::Elem { call, .. } = rhs {
                            changed |= u.set(*call);
                        }
                    }
                }
                Stmt::If {
                    then, els, results, ..
                } => {
                    for (i, r) in results.iter().enumerate() {
                        if u.target(*r) {
                            for blk in [then, els] {
                                if let Some(o) = blk.tail.get(i) {
                                    changed |= mark(o, u);
                                }
                            }
                        }
                    }
                    changed |= walk(then, u);
                    changed |= walk(els, u);
                }
                Stmt::For { body, .. } => changed |= walk(body, u),
                Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
            }
        }
        changed
    }
    let mut u = Activity {
        vars: vec![false; f.vars.len()],
        temps: vec![false; f.temps.len()],
    };
    for o in &f.body.tail {
        mark(o, &mut u);
    }
    while walk(&f.body, &mut u) {}
    u
}

fn walk(b: &Block, act: &mut Activity) -> bool {
    let mut changed = false;
    for s in &b.stmts {
        match s {
            Stmt::Def { target, rhs, .. } => {
                if act.rhs(rhs) {
                    changed |= act.set(*target);
                }
            }
            Stmt::If {
                then, els, results, ..
            } => {
                changed |= walk(then, act);
                changed |= walk(els, act);
                for (i, r) in results.iter().enumerate() {
                    let active = [then, els]
                        .iter()
                        .any(|blk| blk.tail.get(i).is_some_and(|o| act.operand(o)));
                    if active {
                        changed |= act.set(*r);
                    }
                }
            }
            Stmt::For { body, .. } => changed |= walk(body, act),
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        }
    }
    changed
}

/// What a read of a whole variable reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reach {
    /// Not known statically (several definitions may reach it).
    Unknown,
    /// The value one definition produced.
    Def(usize),
    /// In loop `lp`, before the loop's one assignment `inside`: at iteration 0 the value of
    /// `before` (from before the loop), at iteration `k` the value `inside` produced at `k - 1`.
    /// A loop-carried state (`h = f(h, x[t])`) is then recorded once per step, not twice.
    Carried {
        before: usize,
        inside: usize,
        lp: usize,
    },
}

/// For every read of a variable, what it reads, where that is known. A mutable variable's value
/// is then recorded once, after the definition, however many times it is read.
pub fn reaching_defs(f: &Func) -> Vec<Reach> {
    fn walk(f: &Func, b: &Block, state: &mut Vec<Reach>, out: &mut Vec<Reach>) {
        let read = |o: &Operand, state: &[Reach], out: &mut Vec<Reach>| {
            if let Operand::Var {
                var, read, proj, ..
            } = o
                && proj.is_empty()
            {
                out[*read] = state[*var];
            }
        };
        for s in &b.stmts {
            match s {
                Stmt::Def {
                    id,
                    target,
                    rhs,
                    place,
                    ..
                } => {
                    for o in crate::walk::operands(rhs) {
                        read(o, state, out);
                    }
                    if let Target::Var(v) = target {
                        // A write to an element leaves no single definition of the whole.
                        state[*v] = if place.is_empty() {
                            Reach::Def(*id)
                        } else {
                            Reach::Unknown
                        };
                    }
                }
                Stmt::For { id: lp, body, .. } => {
                    // A variable the loop assigns holds, at a read in the loop, the value from
                    // before the loop or one from an earlier iteration: known when the last
                    // statement of the body that writes it is an unconditional assignment of the
                    // whole variable (its value at the end of every iteration), in a loop
                    // without `continue`.
                    let mut vars = Vec::new();
                    assigned(body, &mut vars);
                    vars.sort_unstable();
                    vars.dedup();
                    let continues = has_continue(body);
                    for &v in &vars {
                        let last_write = body.stmts.iter().rev().find(|s| {
                            let mut writes = Vec::new();
                            stmt_assigns(s, &mut writes);
                            writes.contains(&v)
                        });
                        let inside = match last_write {
                            Some(Stmt::Def {
                                id,
                                target: Target::Var(w),
                                place,
                                ..
                            }) if *w == v && place.is_empty() => Some(*id),
                            _ => None,
                        };
                        state[v] = match (state[v], inside) {
                            // A checkpointed loop keeps one iteration's tape at a time.
                            (Reach::Def(before), Some(inside))
                                if !continues && f.loops[*lp].checkpoint.is_none() =>
                            {
                                Reach::Carried {
                                    before,
                                    inside,
                                    lp: *lp,
                                }
                            }
                            _ => Reach::Unknown,
                        };
                    }
                    walk(f, body, state, out);
                    for &v in &vars {
                        state[v] = Reach::Unknown;
                    }
                }
                Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
                Stmt::If {
                    then, els, results, ..
                } => {
                    let mut other = state.clone();
                    walk(f, then, state, out);
                    walk(f, els, &mut other, out);
                    for (a, b) in state.iter_mut().zip(other) {
                        if *a != b {
                            *a = Reach::Unknown;
                        }
                    }
                    for r in results {
                        if let Target::Var(v) = r {
                            state[*v] = Reach::Unknown;
                        }
                    }
                }
            }
        }
    }
    let mut out = vec![Reach::Unknown; f.reads.len()];
    walk(
        f,
        &f.body,
        &mut vec![Reach::Unknown; f.vars.len()],
        &mut out,
    );
    out
}

/// Names each element of a tuple an active call returns that nothing else typed (`let w =
/// g(y, x).0; w as f64`) through the callee's contract (`TyVal::Elem`): the callee's own type,
/// not a guessed `f64`. Not for a call without derivative (printed as a plain call, its callee
/// may have no contract), nor where an array argument's type is not known or is named by the
/// element itself (its contract could not be written). An element no contract names takes the
/// function's own float type.
pub fn name_tuple_elems(f: &mut Func) {
    let act = activity(f);
    for (ty, call, path, args, k) in std::mem::take(&mut f.tuple_elems) {
        let unnamed = args.iter().any(|&a| {
            matches!(f.types.kind(a), Kind::Array)
                && (!f.types.known(a) || f.types.same(f.types.leaf(a), ty))
        });
        if act.temps[call] && !unnamed {
            let call = crate::types::CallOut::of(&path, args);
            f.types.tuple_elem(ty, call, k);
        } else {
            // Of a call that carries no derivative (read in a condition only), whose callee
            // may have no contract, or that passes an array whose type names no contract:
            // typed as below.
            f.blind_elems.push(ty);
        }
    }
    // An element no contract names and nothing else types (`g::<N>(..).1 as f64`, `g(x).0 >
    // 0.5` in a condition only): the function's own float type (its first float
    // parameter's), not a guessed `f64` in `f32` code.
    let own = (f.params.iter())
        .map(|&p| f.types.leaf(f.vars[p].ty))
        .find(|&t| matches!(f.types.get(t), TyVal::F32 | TyVal::F64));
    for ty in std::mem::take(&mut f.blind_elems) {
        if let Some(own) = own
            && matches!(f.types.get(ty), TyVal::Unknown(Kind::Float))
        {
            f.types.unify(ty, own);
        }
    }
}
