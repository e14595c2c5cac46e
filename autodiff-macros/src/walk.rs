//! Walks over the IR that several passes share: the operands of a definition, the reads of an
//! expression tree, the variables a block assigns or mentions, a loop's body by id.

use crate::ir::*;

pub fn operands(rhs: &Rhs) -> Vec<&Operand> {
    match rhs {
        Rhs::Copy(o) | Rhs::Neg(o) | Rhs::Cast(o) => vec![o],
        Rhs::Bin(_, a, b) => vec![a, b],
        Rhs::Method { recv, args, .. } => std::iter::once(recv).chain(args).collect(),
        Rhs::Call { args, .. } | Rhs::Array(args) => args.iter().collect(),
        // An element reads no operand: the call it comes from binds it.
        Rhs::Pure(_) | Rhs::Elem { .. } => Vec::new(),
    }
}

/// Every operand of every definition and block tail in `b`, nested blocks included.
pub fn each_operand<'f>(b: &'f Block, f: &mut impl FnMut(&'f Operand)) {
    b.tail.iter().for_each(&mut *f);
    for s in &b.stmts {
        match s {
            Stmt::Def { rhs, .. } => operands(rhs).into_iter().for_each(&mut *f),
            Stmt::If { then, els, .. } => {
                each_operand(then, f);
                each_operand(els, f);
            }
            Stmt::For { body, .. } => each_operand(body, f),
            _ => {}
        }
    }
}

/// Every read in an expression tree (indices included): `(var, place, read)`.
pub fn pure_reads<'p>(p: &'p Pure, out: &mut Vec<(VarId, &'p [Proj], ReadId)>) {
    match p {
        Pure::Lit(_) => {}
        Pure::Var(v, proj, r) => {
            out.push((*v, proj, *r));
            proj_reads(proj, out);
        }
        Pure::Unary(_, a) | Pure::Cast(a, _) | Pure::Ref(a) | Pure::Matches(a, _) => {
            pure_reads(a, out)
        }
        Pure::Vec { len, .. } => pure_reads(len, out),
        Pure::If(c, a, b) => {
            pure_reads(c, out);
            pure_reads(a, out);
            pure_reads(b, out);
        }
        Pure::Bin(_, a, b) => {
            pure_reads(a, out);
            pure_reads(b, out);
        }
        Pure::Method(r, _, args) => {
            pure_reads(r, out);
            args.iter().for_each(|a| pure_reads(a, out));
        }
        Pure::Call(_, args) => args.iter().for_each(|a| pure_reads(a, out)),
    }
}

/// The expressions an expression is made of, in order.
pub fn pure_children(p: &Pure) -> Vec<&Pure> {
    match p {
        Pure::Lit(_) | Pure::Var(..) => Vec::new(),
        Pure::Unary(_, a) | Pure::Cast(a, _) | Pure::Ref(a) | Pure::Matches(a, _) => vec![a],
        Pure::Vec { len, .. } => vec![len],
        Pure::If(c, a, b) => vec![c, a, b],
        Pure::Bin(_, a, b) => vec![a, b],
        Pure::Method(r, _, args) => std::iter::once(&**r).chain(args).collect(),
        Pure::Call(_, args) => args.iter().collect(),
    }
}

/// [`pure_children`], to change them.
pub fn pure_children_mut(p: &mut Pure) -> Vec<&mut Pure> {
    match p {
        Pure::Lit(_) | Pure::Var(..) => Vec::new(),
        Pure::Unary(_, a) | Pure::Cast(a, _) | Pure::Ref(a) | Pure::Matches(a, _) => vec![a],
        Pure::Vec { len, .. } => vec![len],
        Pure::If(c, a, b) => vec![c, a, b],
        Pure::Bin(_, a, b) => vec![a, b],
        Pure::Method(r, _, args) => std::iter::once(&mut **r).chain(args).collect(),
        Pure::Call(_, args) => args.iter_mut().collect(),
    }
}

/// Every read in a loop's range: its bounds and its `step_by`.
pub fn range_reads<'p>(range: &'p Range, out: &mut Vec<(VarId, &'p [Proj], ReadId)>) {
    pure_reads(&range.start, out);
    pure_reads(&range.end, out);
    for a in &range.adapters {
        if let Adapter::StepBy(k) = a {
            pure_reads(k, out);
        }
    }
}

pub fn proj_reads<'p>(proj: &'p [Proj], out: &mut Vec<(VarId, &'p [Proj], ReadId)>) {
    for i in proj.iter().flat_map(Proj::pures) {
        pure_reads(i, out);
    }
}

/// Every read a definition makes, in its operands, their indices and its own place.
pub fn rhs_reads<'p>(rhs: &'p Rhs, place: &'p [Proj], out: &mut Vec<(VarId, &'p [Proj], ReadId)>) {
    for o in operands(rhs) {
        operand_reads(o, out);
    }
    if let Rhs::Pure(p) = rhs {
        pure_reads(p, out);
    }
    proj_reads(place, out);
}

/// The read an operand makes of a variable, with those of its indices.
pub fn operand_reads<'p>(o: &'p Operand, out: &mut Vec<(VarId, &'p [Proj], ReadId)>) {
    if let Operand::Var {
        var, proj, read, ..
    } = o
    {
        out.push((*var, proj, *read));
        proj_reads(proj, out);
    }
}

/// The body of loop `l`.
pub fn find_loop(b: &Block, l: usize) -> Option<&Block> {
    b.stmts.iter().find_map(|s| match s {
        Stmt::For { id, body, .. } if *id == l => Some(body),
        Stmt::For { body, .. } => find_loop(body, l),
        Stmt::If { then, els, .. } => find_loop(then, l).or_else(|| find_loop(els, l)),
        _ => None,
    })
}

/// The statements of the block that holds definition `def` (at any depth), and its position.
pub fn block_of_def(b: &Block, def: usize) -> Option<(&[Stmt], usize)> {
    if let Some(i) = (b.stmts.iter()).position(|s| matches!(s, Stmt::Def { id, .. } if *id == def))
    {
        return Some((&b.stmts, i));
    }
    b.stmts.iter().find_map(|s| match s {
        Stmt::For { body, .. } => block_of_def(body, def),
        Stmt::If { then, els, .. } => block_of_def(then, def).or_else(|| block_of_def(els, def)),
        _ => None,
    })
}

/// Can the statement leave its block early (`break`, `continue`, a bound's panic), at any depth?
pub fn may_exit(s: &Stmt) -> bool {
    match s {
        Stmt::Break | Stmt::Continue | Stmt::Panic(_) => true,
        Stmt::If { then, els, .. } => then.stmts.iter().chain(&els.stmts).any(may_exit),
        Stmt::For { body, .. } => body.stmts.iter().any(may_exit),
        Stmt::Def { .. } => false,
    }
}

/// Does the function have a bounded loop (a bound check that panics)?
pub fn has_panic(b: &crate::ir::Block) -> bool {
    use crate::ir::Stmt;
    b.stmts.iter().any(|s| match s {
        Stmt::Panic(_) => true,
        Stmt::If { then, els, .. } => has_panic(then) || has_panic(els),
        Stmt::For { body, .. } => has_panic(body),
        _ => false,
    })
}

/// The additive accumulators of loop `l`, one of independent iterations: the variables from
/// before it that its body writes, other than its running extrema.
pub fn accumulators(f: &Func, l: usize) -> Vec<VarId> {
    let lp = &f.loops[l];
    let mut written = Vec::new();
    if let Some(b) = find_loop(&f.body, l) {
        assigned(b, &mut written);
    }
    (lp.carried.iter())
        .copied()
        .filter(|v| written.contains(v) && !lp.extrema.contains(v))
        .collect()
}

/// The variables a block assigns (wholly or in part), at any depth.
pub fn assigned(b: &Block, out: &mut Vec<VarId>) {
    for s in &b.stmts {
        stmt_assigns(s, out);
    }
}

/// The variables one statement assigns (wholly or in part, at any depth), once per assignment.
pub fn stmt_assigns(s: &Stmt, out: &mut Vec<VarId>) {
    match s {
        Stmt::Def {
            target: Target::Var(v),
            ..
        } => out.push(*v),
        Stmt::Def { .. } | Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        Stmt::If {
            then, els, results, ..
        } => {
            assigned(then, out);
            assigned(els, out);
            out.extend(results.iter().filter_map(|r| match r {
                Target::Var(v) => Some(*v),
                Target::Temp(_) => None,
            }));
        }
        Stmt::For { body, .. } => assigned(body, out),
    }
}

/// Every variable a block reads or writes, at any depth (indices included).
pub fn referenced(b: &Block, out: &mut std::collections::BTreeSet<VarId>) {
    fn pure(p: &Pure, out: &mut std::collections::BTreeSet<VarId>) {
        match p {
            Pure::Lit(_) => {}
            Pure::Var(v, proj, _) => {
                out.insert(*v);
                projs(proj, out);
            }
            Pure::Unary(_, a) | Pure::Cast(a, _) | Pure::Ref(a) | Pure::Matches(a, _) => {
                pure(a, out)
            }
            Pure::Vec { len, .. } => pure(len, out),
            Pure::If(c, a, b) => {
                pure(c, out);
                pure(a, out);
                pure(b, out);
            }
            Pure::Bin(_, a, b) => {
                pure(a, out);
                pure(b, out);
            }
            Pure::Method(r, _, args) => {
                pure(r, out);
                args.iter().for_each(|a| pure(a, out));
            }
            Pure::Call(_, args) => args.iter().for_each(|a| pure(a, out)),
        }
    }
    fn projs(proj: &[Proj], out: &mut std::collections::BTreeSet<VarId>) {
        for i in proj.iter().flat_map(Proj::pures) {
            pure(i, out);
        }
    }
    fn operand(o: &Operand, out: &mut std::collections::BTreeSet<VarId>) {
        if let Operand::Var { var, proj, .. } = o {
            out.insert(*var);
            projs(proj, out);
        }
    }
    for s in &b.stmts {
        match s {
            Stmt::Def {
                target, place, rhs, ..
            } => {
                if let Target::Var(v) = target {
                    out.insert(*v);
                }
                projs(place, out);
                crate::walk::operands(rhs)
                    .into_iter()
                    .for_each(|o| operand(o, out));
                if let Rhs::Pure(p) = rhs {
                    pure(p, out);
                }
            }
            Stmt::If {
                cond,
                then,
                els,
                results,
                ..
            } => {
                pure(cond, out);
                referenced(then, out);
                referenced(els, out);
                for r in results {
                    if let Target::Var(v) = r {
                        out.insert(*v);
                    }
                }
            }
            Stmt::For { range, body, .. } => {
                pure(&range.start, out);
                pure(&range.end, out);
                for a in &range.adapters {
                    if let Adapter::StepBy(k) = a {
                        pure(k, out);
                    }
                }
                referenced(body, out);
            }
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        }
    }
    for o in &b.tail {
        operand(o, out);
    }
}

pub fn has_continue(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Continue => true,
        Stmt::If { then, els, .. } => has_continue(then) || has_continue(els),
        _ => false,
    })
}

/// The elements of a call's tuple a destructuring binds, in order, with their paths.
pub fn tuple_targets(shape: &TupleShape) -> Vec<(Vec<syn::Member>, Target)> {
    fn walk(
        s: &TupleShape,
        path: &mut Vec<syn::Member>,
        out: &mut Vec<(Vec<syn::Member>, Target)>,
    ) {
        match s {
            TupleShape::Tuple(items) => {
                for (k, item) in items.iter().enumerate() {
                    path.push(syn::Member::from(k));
                    walk(item, path, out);
                    path.pop();
                }
            }
            TupleShape::Elem(t) => out.push((path.clone(), *t)),
            TupleShape::Skip(_) => {}
            TupleShape::Field(k, inner) => {
                path.push(syn::Member::from(*k));
                walk(inner, path, out);
                path.pop();
            }
            TupleShape::Fields(items) => {
                for (k, inner) in items {
                    path.push(syn::Member::from(*k));
                    walk(inner, path, out);
                    path.pop();
                }
            }
            TupleShape::Struct(items) => {
                for (name, inner) in items {
                    path.push(syn::Member::Named(name.clone()));
                    walk(inner, path, out);
                    path.pop();
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(shape, &mut Vec::new(), &mut out);
    out
}

/// `.1.0` for the path `[1, 0]`.
pub fn path_tokens(path: &[syn::Member]) -> proc_macro2::TokenStream {
    quote::quote!(#(.#path)*)
}
