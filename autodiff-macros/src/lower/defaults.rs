//! After lowering: the float types that inference left open where the macro cannot see a
//! declaration (a callee's signature, a struct's fields).

use crate::ir::{Block, Func, Kind, Operand, Rhs, Stmt, Target, TyId};

/// Types the floats of calls that inference left open. The macro cannot see a callee's
/// signature, so where a call's float arguments and result are partly typed (`h(1.5, x)` with
/// `x: f32`, `h(h(x, x), x)`), the open ones take the one float type the others agree on: a
/// callee's parameters and result are of one float type unless its signature mixes them, and
/// then a wrong guess fails to compile (Rust has no implicit float conversion), never silently.
/// A call none of whose floats is typed (`g(K)` with `K` a `const` declared elsewhere), inside
/// an expression, takes the function's float type when its parameters and result agree on
/// one: in f32 code, an f32 callee. What stays open is typed by rustc where the code allows (`let` bindings), `f64`
/// otherwise.
pub(super) fn default_call_types(f: &mut Func, unused: &std::collections::HashSet<TyId>) {
    fn calls(
        b: &Block,
        f: &Func,
        unused: &std::collections::HashSet<TyId>,
        out: &mut Vec<(Vec<TyId>, bool)>,
    ) {
        for s in &b.stmts {
            match s {
                Stmt::Def {
                    target,
                    place,
                    rhs: Rhs::Call { args, .. },
                    ..
                } => {
                    let out_ty = match target {
                        Target::Var(v) => f.place_ty(*v, place),
                        t => f.target_ty(*t),
                    };
                    // A `let` of a call on data alone (`let n = count(v);`, `v` a slice the
                    // function does not differentiate): its value carries no derivative whatever
                    // its type, which rustc takes from the callee; the arguments' float type says
                    // nothing of it (`count` returns a `usize`, read as `n as f64`).
                    let on_data =
                        matches!(target, Target::Var(_)) && args.iter().all(|a| on_data(f, a));
                    let out_ty = Some(out_ty).filter(|t| !unused.contains(t) && !on_data);
                    let tys = args
                        .iter()
                        .map(|a| f.operand_ty(a))
                        .chain(out_ty)
                        .filter(|&t| {
                            matches!(f.types.kind(t), Kind::Float | Kind::Array | Kind::Num)
                        })
                        .map(|t| f.types.leaf(t))
                        .filter(|&t| matches!(f.types.kind(t), Kind::Float | Kind::Num))
                        .collect();
                    out.push((tys, matches!(target, Target::Var(_))));
                }
                Stmt::If { then, els, .. } => {
                    calls(then, f, unused, out);
                    calls(els, f, unused, out);
                }
                Stmt::For { body, .. } => calls(body, f, unused, out),
                _ => {}
            }
        }
    }
    let mut all = Vec::new();
    calls(&f.body, f, unused, &mut all);
    loop {
        let mut changed = false;
        for (tys, _) in &all {
            let known: Vec<TyId> = tys.iter().copied().filter(|&t| f.types.known(t)).collect();
            let Some(&first) = known.first() else {
                continue;
            };
            let one = known.iter().all(|&t| {
                std::mem::discriminant(f.types.get(t)) == std::mem::discriminant(f.types.get(first))
            });
            if !one {
                continue;
            }
            for &t in tys {
                if !f.types.known(t) {
                    f.types.unify(first, t);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let Some(float) = one_float_type(f) else {
        return;
    };
    // Not a call a `let` binds (`let c = h(2.0);`): rustc types that local from the callee.
    for (tys, bound) in &all {
        if !bound && tys.iter().all(|&t| !f.types.known(t)) {
            for &t in tys {
                f.types.unify(float, t);
            }
        }
    }
}

/// An argument that carries no derivative: a literal or a constant, an integer, a `bool`, or a
/// parameter the function does not differentiate (read as it is, not through a mutable copy).
fn on_data(f: &Func, a: &Operand) -> bool {
    match a {
        Operand::Const { .. } => true,
        Operand::Temp(_) => false,
        Operand::Var { var, ty, .. } => {
            matches!(f.types.kind(*ty), Kind::Int | Kind::Bool)
                || f.vars[*var].param.is_some_and(|i| !f.wrt.contains(&i))
        }
    }
}

/// The float type of a function whose float parameters and result all have one, if any.
fn one_float_type(f: &Func) -> Option<TyId> {
    let floats: Vec<TyId> = f
        .params
        .iter()
        .map(|&v| f.vars[v].ty)
        .chain(f.ret.iter().copied())
        .filter(|&t| matches!(f.types.kind(t), Kind::Float | Kind::Array))
        .map(|t| f.types.leaf(t))
        .filter(|&t| f.types.kind(t) == Kind::Float && f.types.known(t))
        .collect();
    let &first = floats.first()?;
    let same = |t: TyId| std::mem::discriminant(f.types.get(t));
    floats
        .iter()
        .all(|&t| same(t) == same(first))
        .then_some(first)
}

/// Types the struct fields that inference left open. The macro does not see a struct's
/// declaration; in a function whose float parameters and result are all of one float type, its
/// structs' open fields are taken to be of that type too (`(p.b as f64).exp() as f32` in f32
/// code). A wrong guess fails to compile, never silently.
pub(super) fn default_field_types(f: &mut Func) {
    let Some(first) = one_float_type(f) else {
        return;
    };
    let fields: Vec<TyId> = f.field_tys.values().map(|&t| f.types.leaf(t)).collect();
    for t in fields {
        if f.types.kind(t) == Kind::Float && !f.types.known(t) {
            f.types.unify(first, t);
        }
    }
}
