//! Destructuring: `let (a, b) = ..;` and `(a, b) = ..;` of a tuple written out, or of an `if`
//! or block ending in tuples. Each element binds a float or array variable; an `if`'s results
//! become the variables themselves.

use super::{Lower, err};
use crate::ir::*;

/// Is `e` a tuple of `k` elements written out, or an `if` / block ending in such tuples (the
/// values a destructuring `let` or assignment binds)?
pub(super) fn tuple_valued(e: &syn::Expr, k: usize) -> bool {
    match e {
        syn::Expr::Paren(p) => tuple_valued(&p.expr, k),
        syn::Expr::Tuple(t) => t.elems.len() == k,
        // A call of a function returning a tuple (not `f64::max(..)`, a float).
        syn::Expr::Call(_) => k > 1 && callee_name(e).is_some(),
        syn::Expr::If(ifx) => {
            ifx.then_branch.stmts.last().is_some_and(|s| match s {
                syn::Stmt::Expr(e, None) => tuple_valued(e, k),
                _ => false,
            }) && ifx
                .else_branch
                .as_ref()
                .is_some_and(|(_, e)| tuple_valued(e, k))
        }
        syn::Expr::Block(b) => b.block.stmts.last().is_some_and(|s| match s {
            syn::Stmt::Expr(e, None) => tuple_valued(e, k),
            _ => false,
        }),
        _ => false,
    }
}

impl Lower {
    /// The element types of a destructuring `let`'s tuple type `ann` (`None` without one, or for
    /// a `pat` that is not a tuple); `Err` after an error for a type that is not a tuple of the
    /// pattern's length.
    pub(super) fn tuple_type<'t>(
        &mut self,
        pat: &syn::Pat,
        ann: Option<&'t syn::Type>,
    ) -> Result<Option<Vec<&'t syn::Type>>, ()> {
        let (syn::Pat::Tuple(tuple), Some(ann)) = (pat, ann) else {
            return Ok(None);
        };
        let n = tuple.elems.len();
        let msg = match ungroup(ann) {
            syn::Type::Tuple(t) if t.elems.len() == n => {
                return Ok(Some(t.elems.iter().map(ungroup).collect()));
            }
            syn::Type::Tuple(t) => format!(
                "this tuple type has {} elements and the pattern {n}: give each element its type (`_` to leave one open)",
                t.elems.len()
            ),
            _ => format!(
                "annotate a destructuring `let` with a tuple type of {n} elements, as in `let (a, b): (f32, f32) = ..`, or leave the type out"
            ),
        };
        self.error(err(ann, msg));
        self.poison(pat);
        Err(())
    }

    /// `let (a, mut b) = if c { (x, y) } else { (y, x) };`: one variable per element, each a
    /// float or an array (the `if`'s results are the variables themselves, without copies).
    /// `tys`: the elements' types where the `let` has a tuple type (`_` for one left open).
    pub(super) fn destructure_let(
        &mut self,
        tuple: &syn::PatTuple,
        tys: Option<&[&syn::Type]>,
        init: &syn::Expr,
        out: &mut Block,
    ) {
        if let Some(c) = as_call(init) {
            self.destructure_call(tuple, tys, c, out);
            return;
        }
        let mut names = Vec::new();
        for p in &tuple.elems {
            match p {
                syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                    names.push((pi.ident.clone(), pi.mutability.is_some()))
                }
                // `let (_, g) = f_grad(..);`: an element bound to nothing the user can name.
                syn::Pat::Wild(w) => {
                    let k = names.len();
                    names.push((
                        syn::Ident::new(&format!("_elem{k}"), w.underscore_token.span),
                        false,
                    ))
                }
                p => {
                    self.error(err(p, "bind a plain name, as in `let (a, b) = ..;`"));
                    self.poison(&syn::Pat::Tuple(tuple.clone()));
                    return;
                }
            }
        }
        let mut declared = Vec::new();
        for t in tys.unwrap_or_default() {
            declared.push(match t {
                syn::Type::Infer(_) => None,
                t => match self.parse_ty(t) {
                    Some(ty) if self.f.types.kind(ty) != Kind::Struct => Some(ty),
                    _ => {
                        self.error(err(
                            t,
                            format!(
                                "type `{}` is not supported here; use a float, an array, an integer, `bool` or `_`",
                                crate::names::text(&quote::ToTokens::to_token_stream(t))
                            ),
                        ));
                        self.poison(&syn::Pat::Tuple(tuple.clone()));
                        return;
                    }
                },
            });
        }
        let ops = self.value(init, (names.len(), true), out);
        let vars: Vec<VarId> = (names.iter().zip(&ops).enumerate())
            .map(|(i, ((n, m), op))| {
                let ty = self.f.operand_ty(op);
                if let Some(Some(a)) = declared.get(i) {
                    self.f.types.unify(ty, *a);
                }
                self.declare(n, *m, ty, None)
            })
            .collect();
        self.bind_all(
            out,
            ops,
            vars.into_iter().map(|v| (v, Vec::new())).collect(),
            true,
        );
    }

    /// `let (w, bias) = (8 * n, 4 * n);`: a tuple written out with an integer or `bool`
    /// element, bound as one `let` per element, each value first into a hidden local (so that
    /// an element reading a name the pattern binds sees its old value). Whether it applied.
    pub(super) fn destructure_scalars(
        &mut self,
        tuple: &syn::PatTuple,
        tys: Option<&[&syn::Type]>,
        init: &syn::Expr,
        out: &mut Block,
    ) -> bool {
        let mut init = init;
        while let syn::Expr::Paren(p) = init {
            init = &p.expr;
        }
        let syn::Expr::Tuple(t) = init else {
            return false;
        };
        let plain = |p: &syn::Pat| {
            matches!(p, syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none())
                || matches!(p, syn::Pat::Wild(_))
        };
        let ty_at = |k: usize| tys.and_then(|t| t.get(k)).copied();
        let scalar = (t.elems.iter().enumerate()).any(|(k, e)| {
            let declared = ty_at(k).map(|ty| quote::ToTokens::to_token_stream(ty).to_string());
            match declared.as_deref() {
                None | Some("_") => matches!(self.kind_of(e), Some(Kind::Int | Kind::Bool)),
                Some(ty) => INTS_AND_BOOL.contains(&ty),
            }
        });
        if !scalar || t.elems.len() != tuple.elems.len() || !tuple.elems.iter().all(plain) {
            return false;
        }
        let hidden: Vec<syn::Ident> = (0..t.elems.len())
            .map(|k| quote::format_ident!("__stackgrad_element{}", k))
            .collect();
        let mut lets: Vec<syn::Stmt> = Vec::new();
        for (k, e) in t.elems.iter().enumerate() {
            let h = &hidden[k];
            lets.push(match ty_at(k) {
                Some(ty) if !matches!(ty, syn::Type::Infer(_)) => {
                    syn::parse_quote!(let #h: #ty = #e;)
                }
                _ => syn::parse_quote!(let #h = #e;),
            });
        }
        for (p, h) in tuple.elems.iter().zip(&hidden) {
            if let syn::Pat::Ident(pi) = p {
                lets.push(syn::parse_quote!(let #pi = #h;));
            }
        }
        for s in &lets {
            if let syn::Stmt::Local(local) = s {
                self.local(local, out);
            }
        }
        true
    }

    /// `let (v, (_, d_y)) = f_grad(&x, &y);`: the elements of a call's tuple the pattern names,
    /// nested tuples and `_` included, each typed by the `let`'s tuple type where it has one
    /// (else a float, and indexing it asks for the type).
    fn destructure_call(
        &mut self,
        tuple: &syn::PatTuple,
        tys: Option<&[&syn::Type]>,
        c: &syn::ExprCall,
        out: &mut Block,
    ) {
        let pat = syn::Pat::Tuple(tuple.clone());
        let mut leaves = Vec::new();
        let top: Vec<Option<&syn::Type>> = match tys {
            Some(tys) => tys.iter().map(|t| Some(*t)).collect(),
            None => vec![None; tuple.elems.len()],
        };
        let mut items = Vec::new();
        for (p, t) in tuple.elems.iter().zip(top) {
            match self.pat_shape(p, t, &mut leaves) {
                Some(s) => items.push(s),
                None => {
                    self.poison(&pat);
                    return;
                }
            }
        }
        let mut declared = Vec::new();
        for (_, _, t) in &leaves {
            declared.push(match t {
                None => None,
                Some(t) => match self.parse_ty(t) {
                    Some(ty) if self.f.types.kind(ty) != Kind::Struct => Some(ty),
                    _ => {
                        self.error(err(
                            t,
                            format!(
                                "type `{}` is not supported here; use a float, an array, a tuple of them, or `_`",
                                crate::names::text(&quote::ToTokens::to_token_stream(t))
                            ),
                        ));
                        self.poison(&pat);
                        return;
                    }
                },
            });
        }
        let ops = self.tuple_call(c, &PatShape::Tuple(items), out);
        let callee = callee_name(&syn::Expr::Call(c.clone())).unwrap_or_default();
        let names: Vec<String> = (leaves.iter()).map(|(n, _, _)| n.to_string()).collect();
        let mut vars = Vec::new();
        for (i, ((n, m, _), op)) in leaves.iter().zip(&ops).enumerate() {
            let ty = self.f.operand_ty(op);
            let v = self.declare(n, *m, ty, None);
            match declared[i] {
                Some(a) => self.f.types.unify(ty, a),
                None => {
                    self.call_lets.insert(v, (callee.clone(), false));
                    self.tuple_lets.insert(v, (i, names.clone()));
                }
            }
            vars.push((v, Vec::new()));
        }
        self.bind_all(out, ops, vars, true);
    }

    /// The shape of one element of a destructuring pattern over a call's tuple, with the names
    /// it binds and their types (`ty`, the element's in the `let`'s tuple type); `None` after
    /// an error.
    fn pat_shape<'t>(
        &mut self,
        p: &syn::Pat,
        ty: Option<&'t syn::Type>,
        leaves: &mut Vec<(syn::Ident, bool, Option<&'t syn::Type>)>,
    ) -> Option<PatShape> {
        let ty = ty
            .map(ungroup)
            .filter(|t| !matches!(t, syn::Type::Infer(_)));
        match p {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                leaves.push((pi.ident.clone(), pi.mutability.is_some(), ty));
                Some(PatShape::Leaf)
            }
            syn::Pat::Wild(_) => Some(PatShape::Skip(
                ty.and_then(|t| self.parse_ty(t))
                    .filter(|&t| self.f.types.known(t)),
            )),
            syn::Pat::Paren(pp) => self.pat_shape(&pp.pat, ty, leaves),
            syn::Pat::Tuple(t) => {
                let subs: Vec<Option<&'t syn::Type>> = match ty {
                    None => vec![None; t.elems.len()],
                    Some(syn::Type::Tuple(tt)) if tt.elems.len() == t.elems.len() => {
                        tt.elems.iter().map(Some).collect()
                    }
                    Some(other) => {
                        self.error(err(
                            other,
                            format!(
                                "this type does not match the pattern's tuple of {}: give a tuple type of the same shape (`_` to leave an element open)",
                                t.elems.len()
                            ),
                        ));
                        return None;
                    }
                };
                let mut items = Vec::new();
                for (e, sub) in t.elems.iter().zip(subs) {
                    items.push(self.pat_shape(e, sub, leaves)?);
                }
                Some(PatShape::Tuple(items))
            }
            p => {
                self.error(err(
                    p,
                    "bind a plain name, `_` or a tuple of them, as in `let (v, (_, d)) = g(..);`",
                ));
                None
            }
        }
    }

    /// `(a, b[i]) = if c { (x, y) } else { (y, x) };`.
    pub(super) fn destructure_assign(
        &mut self,
        left: &syn::ExprTuple,
        right: &syn::Expr,
        out: &mut Block,
    ) {
        let mut places = Vec::new();
        for e in &left.elems {
            let Some(place) = self.assigned_place(e) else {
                return;
            };
            places.push(place);
        }
        let ops = self.value(right, (places.len(), true), out);
        self.bind_all(out, ops, places, false);
    }

    /// Binds each operand to its place; an `if` that just defined them all as temporaries
    /// defines the variables instead.
    fn bind_all(
        &mut self,
        out: &mut Block,
        ops: Vec<Operand>,
        places: Vec<(VarId, Vec<Proj>)>,
        is_let: bool,
    ) {
        if let Some(Stmt::If {
            results, is_let: l, ..
        }) = out.stmts.last_mut()
            && places.iter().all(|(_, p)| p.is_empty())
            && results.len() == ops.len()
            && results
                .iter()
                .zip(&ops)
                .all(|(r, o)| matches!((r, o), (Target::Temp(a), Operand::Temp(b)) if a == b))
        {
            *results = places.iter().map(|(v, _)| Target::Var(*v)).collect();
            *l = is_let;
            for ((v, _), op) in places.iter().zip(&ops) {
                let (a, b) = (self.f.operand_ty(op), self.f.vars[*v].ty);
                self.f.types.unify(a, b);
            }
            return;
        }
        // Elements written out: every value is read before any is written (`(a, b) = (b, a)`).
        let mut temps = Vec::new();
        for op in ops {
            match op {
                Operand::Temp(_) | Operand::Const { .. } => temps.push(op),
                op => {
                    let ty = self.f.operand_ty(&op);
                    temps.push(self.def_temp(out, Rhs::Copy(op), ty));
                }
            }
        }
        for (op, (v, place)) in temps.into_iter().zip(places) {
            self.bind(out, op, Target::Var(v), place, is_let);
        }
    }
}

/// `t` without the invisible group a `macro_rules!` `$t:ty` wraps it in, or its parentheses.
fn ungroup(t: &syn::Type) -> &syn::Type {
    match t {
        syn::Type::Group(g) => ungroup(&g.elem),
        syn::Type::Paren(p) => ungroup(&p.elem),
        t => t,
    }
}

/// Why a `let` pattern other than a name or a destructured tuple is rejected, and what to write.
pub(super) fn rejected_pattern(pat: &syn::Pat, init: Option<&syn::Expr>) -> &'static str {
    match pat {
        syn::Pat::Tuple(_)
            if matches!(init, Some(syn::Expr::Call(_) | syn::Expr::MethodCall(_))) =>
        {
            "a method's result can be a float or an array, not a tuple: call the method's function by name to destructure its tuple (`let (a, b) = g(..);`), or return an array and bind it with its type, as in `let r: [f64; 2] = self.g(..);`"
        }
        syn::Pat::Tuple(_) => {
            "this destructuring `let` is not supported: bind the elements of a tuple written out, or of an `if` whose branches end in tuples, as in `let (a, b) = if c { (x, y) } else { (y, x) };`, or bind each value with its own `let`"
        }
        syn::Pat::Wild(_) => "`let _ = ..` discards the value; remove the statement",
        _ => "this pattern is not supported; bind a name, as in `let y = ..;`",
    }
}

/// The name of the function a call expression calls (`g` of `m::g::<N>(x)`), but not of a float
/// method called by its path (`f64::max(x, y)`), whose result type is known.
pub(super) fn callee_name(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Paren(p) => callee_name(&p.expr),
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p)
                if !p
                    .path
                    .segments
                    .first()
                    .is_some_and(|s| s.ident == "f64" || s.ident == "f32") =>
            {
                Some(p.path.segments.last()?.ident.to_string())
            }
            _ => None,
        },
        _ => None,
    }
}

/// The integer types and `bool`: a tuple element of one of these is bound by its own `let`.
const INTS_AND_BOOL: [&str; 13] = [
    "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "bool",
];

/// What a destructuring pattern binds of a call's tuple (see [`crate::ir::TupleShape`]).
pub(super) enum PatShape {
    Tuple(Vec<PatShape>),
    /// A name.
    Leaf,
    /// `_`, with the type the `let` gives it.
    Skip(Option<TyId>),
    /// `.k` of a tuple of arity unknown here.
    Field(usize, Box<PatShape>),
    /// Several elements of a tuple of arity unknown here, in increasing order.
    Fields(Vec<(usize, PatShape)>),
    /// Fields of a struct a call returns, by name.
    Struct(Vec<(syn::Ident, PatShape)>),
}

impl PatShape {
    /// How many names it binds.
    pub(super) fn leaves(&self) -> usize {
        match self {
            PatShape::Tuple(items) => items.iter().map(PatShape::leaves).sum(),
            PatShape::Leaf => 1,
            PatShape::Skip(_) => 0,
            PatShape::Field(_, inner) => inner.leaves(),
            PatShape::Fields(items) => items.iter().map(|(_, s)| s.leaves()).sum(),
            PatShape::Struct(items) => items.iter().map(|(_, s)| s.leaves()).sum(),
        }
    }
}

/// The call of a `#[differentiable]` function an initializer is (parentheses aside).
fn as_call(e: &syn::Expr) -> Option<&syn::ExprCall> {
    match e {
        syn::Expr::Paren(p) => as_call(&p.expr),
        syn::Expr::Call(c) if callee_name(e).is_some() => Some(c),
        _ => None,
    }
}

/// `let t = g(..);` that the statements after it (`rest`) read only as `t.k` (a tuple bound to
/// one name), or only as `t.a` (a struct a call returns, read by field). The name, the call and
/// the elements read, in increasing order (by name for fields); `None` for any other `let`, or
/// where `t` is used otherwise (passed whole, `t.k.j`, `t.a.b`, `t.f(..)`, both `t.k` and
/// `t.a`) before a `let` binds it again, or named by what follows the block (`conts`).
pub(super) fn one_name_tuple<'s>(
    local: &'s syn::Local,
    rest: &[syn::Stmt],
    conts: &[&[syn::Stmt]],
) -> Option<(&'s syn::Ident, &'s syn::ExprCall, Vec<syn::Member>)> {
    use quote::ToTokens;
    let syn::Pat::Ident(pi) = &local.pat else {
        return None;
    };
    let plain = pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none();
    let init = local.init.as_ref()?;
    if !plain || !local.attrs.is_empty() || init.diverge.is_some() {
        return None;
    }
    let call = as_call(&init.expr)?;
    let name = pi.ident.to_string();
    let mut fields = super::field_reads::fields_read(&name, rest)?;
    for s in conts.iter().flat_map(|c| c.iter()) {
        let mut any = Vec::new();
        if !super::field_reads::token_field_reads(s.to_token_stream(), &name, &mut any)
            || !any.is_empty()
        {
            return None;
        }
    }
    let named = |m: &syn::Member| matches!(m, syn::Member::Named(_));
    if fields.iter().any(named) && !fields.iter().all(named) {
        return None;
    }
    fields.sort_unstable_by_key(member_text);
    fields.dedup();
    if !fields.iter().any(named) {
        fields.sort_unstable_by_key(|m| match m {
            syn::Member::Unnamed(k) => k.index,
            syn::Member::Named(_) => 0,
        });
    }
    (!fields.is_empty()).then_some((&pi.ident, call, fields))
}

/// A field as written: `a` or `1`.
pub(super) fn member_text(m: &syn::Member) -> String {
    match m {
        syn::Member::Named(n) => syn::ext::IdentExt::unraw(n).to_string(),
        syn::Member::Unnamed(k) => k.index.to_string(),
    }
}

/// Whether `rest` reads `name` only by field (`name.0`, `name.a`), if at all, up to a `let`
/// that binds `name` again (whose value may still read the old one).
pub(super) fn read_by_field_only(name: &str, rest: &[syn::Stmt]) -> bool {
    super::field_reads::fields_read(name, rest).is_some()
}

impl Lower {
    /// `let t = g(..);` read as `t.j`, `t.k` or as `t.a`, `t.b` ([`one_name_tuple`]): the call,
    /// and one variable per element read, found by the name `t.k` ([`Lower::place`]).
    pub(super) fn one_name_let(
        &mut self,
        (name, call, fields): (&syn::Ident, &syn::ExprCall, Vec<syn::Member>),
        out: &mut Block,
    ) {
        let leaf = || PatShape::Leaf;
        let shape = match fields.first() {
            Some(syn::Member::Named(_)) => PatShape::Struct(
                (fields.iter())
                    .filter_map(|m| match m {
                        syn::Member::Named(n) => Some((n.clone(), leaf())),
                        syn::Member::Unnamed(_) => None,
                    })
                    .collect(),
            ),
            _ => PatShape::Fields(
                (fields.iter())
                    .filter_map(|m| match m {
                        syn::Member::Unnamed(k) => Some((k.index as usize, leaf())),
                        syn::Member::Named(_) => None,
                    })
                    .collect(),
            ),
        };
        let ops = self.tuple_call(call, &shape, out);
        let callee = callee_name(&syn::Expr::Call(call.clone())).unwrap_or_default();
        // The name now holds this tuple's elements: an older binding of it in this scope (a
        // value, another tuple's elements) is forgotten.
        self.forget(&name.to_string(), true);
        let mut vars = Vec::new();
        for (m, op) in fields.iter().zip(&ops) {
            let k = member_text(m);
            let ty = self.f.operand_ty(op);
            let emit = quote::format_ident!("{}_{}", name, k, span = name.span());
            // Declared as `t_k` (its emitted name), then found as `t.k` only: the user's
            // own `t_k`, if any, stays bound.
            let key = emit.to_string();
            let shadowed = self.scopes.last().unwrap().get(&key).cloned();
            let v = self.declare(&emit, false, ty, None);
            let scope = self.scopes.last_mut().unwrap();
            match shadowed {
                Some(b) => scope.insert(key, b),
                None => scope.remove(&key),
            };
            scope.insert(format!("{name}.{k}"), super::Binding::Var(v));
            self.call_lets.insert(v, (callee.clone(), false));
            self.tuple_lets.insert(v, (0, Vec::new()));
            self.tuple_fields.insert(v, format!("{name}.{k}"));
            vars.push((v, Vec::new()));
        }
        self.bind_all(out, ops, vars, true);
    }
}

/// `g(..).1` (or `g(..).1.0`): the call, and the element as a shape over its tuple; `g(..).a`:
/// a field of the struct it returns.
pub(super) fn call_field(e: &syn::Expr) -> Option<(&syn::ExprCall, PatShape)> {
    let syn::Expr::Field(f) = e else {
        return None;
    };
    let mut base = &*f.base;
    while let syn::Expr::Paren(p) = base {
        base = &p.expr;
    }
    let k = match &f.member {
        syn::Member::Unnamed(k) => k.index as usize,
        syn::Member::Named(n) => {
            return match base {
                syn::Expr::Call(c) if callee_name(base).is_some() => {
                    Some((c, PatShape::Struct(vec![(n.clone(), PatShape::Leaf)])))
                }
                _ => None,
            };
        }
    };
    match base {
        syn::Expr::Call(c) if callee_name(base).is_some() => {
            Some((c, PatShape::Field(k, Box::new(PatShape::Leaf))))
        }
        base => {
            let (c, inner) = call_field(base)?;
            // A tuple element of a struct's field (`g(..).a.0`): not one of the shapes.
            if matches!(inner, PatShape::Struct(_)) {
                return None;
            }
            Some((c, nest(inner, k)))
        }
    }
}

/// The shape `inner` with `.k` taken of its leaf.
fn nest(inner: PatShape, k: usize) -> PatShape {
    match inner {
        PatShape::Field(j, rest) => PatShape::Field(j, Box::new(nest(*rest, k))),
        _ => PatShape::Field(k, Box::new(PatShape::Leaf)),
    }
}

#[cfg(test)]
mod tests {
    use super::one_name_tuple;

    fn fields(body: &str) -> Option<Vec<usize>> {
        let block: syn::Block = syn::parse_str(body).unwrap();
        let syn::Stmt::Local(local) = &block.stmts[0] else {
            panic!("a let first")
        };
        one_name_tuple(local, &block.stmts[1..], &[]).map(|(_, _, f)| {
            f.iter()
                .map(|m| super::member_text(m).parse().unwrap())
                .collect()
        })
    }

    fn names(body: &str) -> Option<Vec<String>> {
        let block: syn::Block = syn::parse_str(body).unwrap();
        let syn::Stmt::Local(local) = &block.stmts[0] else {
            panic!("a let first")
        };
        one_name_tuple(local, &block.stmts[1..], &[])
            .map(|(_, _, f)| f.iter().map(super::member_text).collect())
    }

    /// A struct a call returns is read by named field only: not by a method, a field of a
    /// field, or mixed with tuple elements.
    #[test]
    fn a_struct_result_is_read_by_field_only() {
        assert_eq!(
            names("{ let s = g(x); s.b * s.a.sin() + s.b }"),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(names("{ let s = g(x); s.norm() }"), None);
        assert_eq!(names("{ let s = g(x); s.a.b }"), None);
        assert_eq!(names("{ let s = g(x); s.a + s.0 }"), None);
        assert_eq!(names("{ let s = g(x); h(s) }"), None);
    }

    /// Only a `let` of a call whose name is read as `t.k` alone binds a tuple to one name.
    #[test]
    fn a_tuple_bound_to_one_name_is_read_by_element_only() {
        assert_eq!(
            fields("{ let t = g(x); t.2 * t.0 + (t.2).sin() }"),
            Some(vec![0, 2])
        );
        assert_eq!(fields("{ let t = g(x); h(t.1, p.t, a::t) }"), Some(vec![1]));
        assert_eq!(fields("{ let t = g(x); h(t) }"), None);
        assert_eq!(fields("{ let t = g(x); t.0.1 }"), None);
        // No element read before the name is bound again: nothing to bind.
        assert_eq!(fields("{ let t = g(x); let t = 1.0; t }"), None);
        // Its elements read up to the new `let`, in its value too, and not after.
        assert_eq!(
            fields("{ let t = g(x); let a = t.2; let t = t.0 * a; t * 2.0 }"),
            Some(vec![0, 2])
        );
        // Bound again inside a block, by a loop, a closure or a `match` arm: another variable
        // there, and the tuple's elements read around it.
        assert_eq!(
            fields("{ let t = g(x); let a = { let t = 2.0; t }; a * t.0 }"),
            Some(vec![0])
        );
        assert_eq!(
            fields("{ let t = g(x); for t in y.iter() { s += t; } let c = |t: f64| t; c(t.1) }"),
            Some(vec![1])
        );
        assert_eq!(
            fields("{ let t = g(x); match k { 0 => t.0, t => t as f64 } }"),
            Some(vec![0])
        );
        // Read whole before the inner `let`, or in a macro's arguments.
        assert_eq!(fields("{ let t = g(x); { h(t); let t = 2.0; } t.0 }"), None);
        assert_eq!(
            fields("{ let t = g(x); assert!(t.0 > 0.0); t.1 }"),
            Some(vec![0, 1])
        );
        assert_eq!(fields("{ let mut t = g(x); t.0 }"), None);
        assert_eq!(fields("{ let t = x * 2.0; t.0 }"), None);
        assert_eq!(fields("{ let t = g(x); 1.0 }"), None);
    }
}
