//! Statement sequences: `let`, assignments, `if` statements and values, `return`, `break` and
//! `continue`.

use std::collections::HashMap;

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::Visit;

use super::{Lower, MAX_ITERS_CHECK, Mode, err, is_compound, unsupported};
use crate::ir::*;

/// Does the `if` contain a `return` (outside closures)?
fn has_return(ifx: &syn::ExprIf) -> bool {
    let mut r = super::Returns::default();
    r.visit_expr_if(ifx);
    r.0
}

/// Does the `if` contain a `break` or `continue` of the enclosing loop (not of a loop inside it)?
fn has_jump(ifx: &syn::ExprIf) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_expr_break(&mut self, _: &'a syn::ExprBreak) {
            self.0 = true;
        }
        fn visit_expr_continue(&mut self, _: &'a syn::ExprContinue) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_for_loop(&mut self, _: &'a syn::ExprForLoop) {}
        fn visit_expr_while(&mut self, _: &'a syn::ExprWhile) {}
        fn visit_expr_loop(&mut self, _: &'a syn::ExprLoop) {}
    }
    let mut v = V(false);
    v.visit_expr_if(ifx);
    v.0
}

/// Is `e` a place in a struct's field (`p.w`, `p.w[1]`, `p.layers[l].b`)?
fn is_field_place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Paren(p) => is_field_place(&p.expr),
        syn::Expr::Field(f) => matches!(f.member, syn::Member::Named(_)),
        syn::Expr::Index(ix) => is_field_place(&ix.expr),
        _ => false,
    }
}

/// The message of `panic!("..")` (or `core::panic!`, `std::panic!`) with one string literal:
/// the forward sweep panics with it, as the function does; `f_try_forward` returns it as `Err`.
fn panic_message(m: &syn::Macro) -> Option<String> {
    if !super::panics::is_panic(&m.path) {
        return None;
    }
    let lit: syn::LitStr = syn::parse2(m.tokens.clone()).ok()?;
    let msg = lit.value();
    (!msg.contains('{') && !msg.contains('}')).then_some(msg)
}

fn is_unit_expr(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Assign(_) => true,
        syn::Expr::Binary(b) => is_compound(&b.op).is_some(),
        syn::Expr::If(i) => i.else_branch.is_none(),
        syn::Expr::While(_) | syn::Expr::Loop(_) | syn::Expr::ForLoop(_) => true,
        _ => false,
    }
}

impl Lower {
    /// Lowers `stmts` into a new block, in a scope of their own.
    pub(super) fn scoped(&mut self, stmts: &[syn::Stmt], mode: Mode, span: Span) -> Block {
        self.scopes.push(HashMap::new());
        let mut block = Block::default();
        self.seq(stmts, &[], &mut block, mode, span);
        self.scopes.pop();
        block
    }

    /// Lowers a statement sequence; `conts` are the statements that follow it in enclosing
    /// blocks (an `if` statement with a `return` in a branch pulls them into its branches, so
    /// every path ends in the function's value).
    pub(super) fn seq(
        &mut self,
        stmts: &[syn::Stmt],
        conts: &[&[syn::Stmt]],
        out: &mut Block,
        mode: Mode,
        span: Span,
    ) {
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            // An array function: the statements it stands for, then the rest.
            if let Some(mut now) = self.array_fn_stmts(s) {
                now.extend_from_slice(&stmts[i + 1..]);
                return self.seq(&now, conts, out, mode, span);
            }
            match s {
                syn::Stmt::Local(local) => {
                    match super::tuples::one_name_tuple(local, &stmts[i + 1..], conts) {
                        Some(tuple) => self.one_name_let(tuple, out),
                        None => self.let_stmt(local, &stmts[i + 1..], conts, out),
                    }
                }
                syn::Stmt::Item(item) => self.error(err(
                    item,
                    "items inside a differentiable function are not supported; move them outside the function",
                )),
                syn::Stmt::Macro(m) if m.mac.path.is_ident(MAX_ITERS_CHECK) => self.max_iters_check(out),
                syn::Stmt::Macro(m) if panic_message(&m.mac).is_some() => {
                    out.stmts.push(Stmt::Panic(panic_message(&m.mac).unwrap()))
                }
                syn::Stmt::Macro(m) => self.error(err(
                    m,
                    format!(
                        "macro `{}!` is not supported in a differentiable function: the macro cannot see through it; write the computation out",
                        m.mac.path.to_token_stream()
                    ),
                )),
                syn::Stmt::Expr(e, semi) => {
                    let value_end = last && semi.is_none() && !is_unit_expr(e);
                    if self.seq_expr(e, value_end, &stmts[i + 1..], conts, out, mode) {
                        return;
                    }
                }
            }
        }
        match (mode, conts.split_first()) {
            (Mode::Fn, Some((next, rest))) => {
                self.scopes.pop();
                self.seq(next, rest, out, Mode::Fn, span);
            }
            (Mode::Loop, Some((next, rest))) => {
                self.scopes.pop();
                self.seq(next, rest, out, Mode::Loop, span);
            }
            (Mode::Fn, _) if self.f.ret.is_empty() => {}
            (Mode::Fn | Mode::Value { .. }, _) => self.error(syn::Error::new(
                span,
                "this block does not end in a value; end it with the value, as in `x * y`",
            )),
            (Mode::Unit | Mode::Loop, _) => {}
        }
    }

    /// An expression statement of a sequence, followed by `rest` and then `conts`. `true` when
    /// it ends the sequence: a jump, the sequence's value (`value_end`: it is the last statement
    /// and has no `;`), or an `if` or block that took the statements after it in.
    fn seq_expr(
        &mut self,
        e: &syn::Expr,
        value_end: bool,
        rest: &[syn::Stmt],
        conts: &[&[syn::Stmt]],
        out: &mut Block,
        mode: Mode,
    ) -> bool {
        let mut conts2 = vec![rest];
        conts2.extend_from_slice(conts);
        if self.leaves(e, &conts2, out, mode) {
            return true;
        }
        match mode {
            Mode::Fn if value_end && conts.iter().all(|c| c.is_empty()) => {
                out.tail = self.value(e, self.ret_shape(), out);
                true
            }
            Mode::Value { k, tuple } if value_end => {
                out.tail = self.value(e, (k, tuple), out);
                true
            }
            _ => {
                self.stmt_expr(e, out);
                false
            }
        }
    }

    /// `return`, `break` and `continue` where `mode` allows them (an error elsewhere), and an
    /// `if` or block that may leave the sequence; `conts` are the statements after `e`. `true`
    /// when `e` is one of them: the sequence ends there.
    fn leaves(
        &mut self,
        e: &syn::Expr,
        conts: &[&[syn::Stmt]],
        out: &mut Block,
        mode: Mode,
    ) -> bool {
        match (e, mode) {
            (syn::Expr::Return(r), Mode::Fn) => match &r.expr {
                Some(v) => out.tail = self.value(v, self.ret_shape(), out),
                None => self.error(err(r, "`return` needs a value")),
            },
            (syn::Expr::Return(r), Mode::Loop) => self.error(err(
                r,
                "`return` inside this loop is not supported: the loop is not a statement of the function's body or of an `if` branch there; bind the value to a `let mut` declared before the loop, `break`, and return after it",
            )),
            (syn::Expr::Break(b), Mode::Loop) => self.break_stmt(b, out),
            (syn::Expr::Continue(c), Mode::Loop) => {
                if c.label.is_some() {
                    self.error(err(
                        c,
                        "`continue 'label` is supported in loops that are statements of the labelled loop's body or of `if` branches there; bind what you need to a `let mut` flag instead",
                    ));
                }
                out.stmts.push(Stmt::Continue);
            }
            (syn::Expr::Break(_) | syn::Expr::Continue(_), _) => self.error(err(
                e,
                "`break` and `continue` are supported in a loop's body and in the branches of `if` statements there, not inside a block or `if` used as a value",
            )),
            (syn::Expr::Return(r), _) => self.error(err(
                r,
                "`return` is only supported as a statement: in the function's body, in loops there and in the branches of `if` statements, not inside a block or an `if` used as a value; bind the value to a `let` and return it after",
            )),
            // An `if` that leaves the sequence (`return` in the body, `break` or `continue` in
            // a loop) takes the rest of the sequence into its branches; so does a block that
            // may contain one.
            (syn::Expr::If(ifx), Mode::Fn | Mode::Loop)
                if (mode == Mode::Fn && has_return(ifx)) || (mode == Mode::Loop && has_jump(ifx)) =>
            {
                self.returning_if(ifx, conts, out, mode)
            }
            (syn::Expr::Block(b), Mode::Fn | Mode::Loop) if b.label.is_none() => {
                self.scopes.push(HashMap::new());
                self.seq(&b.block.stmts, conts, out, mode, b.span());
            }
            _ => return false,
        }
        true
    }

    /// `break` in a loop's body: of the innermost loop only, without value.
    fn break_stmt(&mut self, b: &syn::ExprBreak, out: &mut Block) {
        let own = self
            .nest
            .last()
            .and_then(|&l| self.f.loops[l].label.clone());
        let outer = b
            .label
            .as_ref()
            .is_some_and(|l| Some(l.ident.to_string()) != own);
        if b.expr.is_some() {
            self.error(err(
                b,
                "a `break` with a value is not supported: assign the value to a `let mut` declared before the loop, then `break;`",
            ));
        } else if outer {
            self.error(err(
                b,
                "`break 'label` is supported in loops that are statements of the labelled loop's body or of `if` branches there; bind what you need to a `let mut` flag instead",
            ));
        }
        if let Some(&l) = self.nest.last() {
            self.f.loops[l].breaks = true;
        }
        out.stmts.push(Stmt::Break);
    }

    /// The shape of the function's value: its number of elements, and whether it is a tuple.
    fn ret_shape(&self) -> (usize, bool) {
        (self.f.ret.len(), self.f.ret_tuple)
    }

    /// `if c { ..; return a; } rest`: each branch continues with `rest`.
    fn returning_if(
        &mut self,
        ifx: &syn::ExprIf,
        conts: &[&[syn::Stmt]],
        out: &mut Block,
        mode: Mode,
    ) {
        let id = self.if_id();
        let cond = self.cond(&ifx.cond);
        let saved = self.scopes.clone();
        let mut then = Block::default();
        self.scopes.push(HashMap::new());
        self.seq(
            &ifx.then_branch.stmts,
            conts,
            &mut then,
            mode,
            ifx.then_branch.span(),
        );
        self.scopes = saved.clone();
        let mut els = Block::default();
        self.scopes.push(HashMap::new());
        match ifx.else_branch.as_ref().map(|(_, e)| &**e) {
            None => self.seq(&[], conts, &mut els, mode, ifx.span()),
            Some(syn::Expr::Block(b)) => self.seq(&b.block.stmts, conts, &mut els, mode, b.span()),
            Some(e) => {
                let stmt = syn::Stmt::Expr(e.clone(), None);
                self.seq(std::slice::from_ref(&stmt), conts, &mut els, mode, e.span())
            }
        }
        self.scopes = saved;
        if mode == Mode::Loop {
            out.stmts.push(Stmt::If {
                id,
                cond,
                then,
                els,
                results: Vec::new(),
                is_let: false,
            });
            return;
        }
        let results = self.if_results(&then, &els, self.f.ret.len());
        out.tail = results.iter().map(|t| Operand::Temp(*t)).collect();
        out.stmts.push(Stmt::If {
            id,
            cond,
            then,
            els,
            results: results.into_iter().map(Target::Temp).collect(),
            is_let: true,
        });
    }

    /// The temporaries an `if` used as a value defines, one per element of its branches' tails.
    fn if_results(&mut self, then: &Block, els: &Block, k: usize) -> Vec<TempId> {
        (0..k)
            .map(|i| {
                let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                for b in [then, els] {
                    if let Some(o) = b.tail.get(i) {
                        let t = self.f.operand_ty(o);
                        self.f.types.unify(ty, t);
                    }
                }
                self.temp(ty)
            })
            .collect()
    }

    /// A condition: a `bool` expression, without derivative.
    pub(super) fn cond(&mut self, e: &syn::Expr) -> Pure {
        // `if let P = v` is an error; the names `P` binds then report nothing more.
        if let syn::Expr::Let(l) = e {
            self.poison(&l.pat);
        }
        let (p, ty) = self.pure(e);
        if self.f.types.kind(ty) != Kind::Bool {
            self.error(err(e, "a condition must be a `bool`, as in `x > 0.0`"));
        }
        p
    }

    /// `let y = ..;` (or `let y: T = ..;`): a float or an array, or a value without derivative.
    pub(super) fn local(&mut self, local: &syn::Local, out: &mut Block) {
        let (pat, ann) = match &local.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        if self.rewritten(local, out) {
            return;
        }
        // `let (a, b): (f32, _) = ..`: a tuple type of the same length, or none.
        let Ok(elem_tys) = self.tuple_type(pat, ann) else {
            return;
        };
        if let (syn::Pat::Tuple(tuple), Some(init)) = (pat, &local.init)
            && init.diverge.is_none()
            && super::tuples::tuple_valued(&init.expr, tuple.elems.len())
        {
            for a in local.attrs.iter().filter(|a| is_memory_attr(a)) {
                self.error(err(
                    a,
                    "this attribute applies to a `let` of one name; bind each value with its own `let` and put it on the one it is for",
                ));
            }
            if !self.destructure_scalars(tuple, elem_tys.as_deref(), &init.expr, out) {
                self.destructure_let(tuple, elem_tys.as_deref(), &init.expr, out);
            }
            return;
        }
        let syn::Pat::Ident(pi) = pat else {
            let msg = super::tuples::rejected_pattern(pat, local.init.as_ref().map(|i| &*i.expr));
            self.error(err(pat, msg));
            self.poison(pat);
            return;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            self.error(err(pi, "bind a plain name, as in `let y = ..;`"));
            return;
        }
        let Some(init) = &local.init else {
            self.error(err(
                local,
                format!(
                    "`let {0};` without a value is not supported; give it its value where it is declared, `let {0} = ..;` (a value a branch chooses as `let {0} = if c {{ .. }} else {{ .. }};`)",
                    pi.ident
                ),
            ));
            self.poison(pat);
            return;
        };
        if let Some((_, d)) = &init.diverge {
            self.error(err(d, "`let .. else` is not supported"));
            return;
        }
        if let Some(place) = self.sub_slice(&init.expr) {
            return self.sub_slice_let(local, pi, ann, place);
        }
        if super::vecs::vec_macro(&init.expr).is_some() {
            return self.vec_local(pi, ann, &init.expr, out);
        }
        let ann_ty = match ann {
            None => None,
            Some(t) => match self.parse_ty(t) {
                Some(ty) if self.f.types.kind(ty) != Kind::Struct => Some(ty),
                _ => {
                    self.error(err(
                        t,
                        format!("type `{}` is not supported here; use `f32`, `f64`, an array, an integer or `bool`", crate::names::text(&t.to_token_stream())),
                    ));
                    self.poison(pat);
                    return;
                }
            },
        };
        let kind = match ann_ty {
            Some(t) => self.f.types.kind(t),
            None if super::matches::is_scrutinee(&pi.ident) => {
                super::matches::scrutinee_kind(&pi.ident, self.kind_of(&init.expr))
            }
            None => self.kind_of(&init.expr).unwrap_or(Kind::Float),
        };
        let mutable = pi.mutability.is_some();
        if matches!(kind, Kind::Float | Kind::Array) {
            let op = self.float(&init.expr, out);
            let ty = self.f.operand_ty(&op);
            let var = self.declare(&pi.ident, mutable, ty, None);
            if let Some(a) = ann_ty {
                self.f.types.unify(ty, a);
            } else if let Some(callee) = super::tuples::callee_name(&init.expr) {
                self.call_lets.insert(var, (callee, false));
            } else if is_field_place(&init.expr)
                && matches!(self.f.types.get(ty), TyVal::Unknown(_))
            {
                let text = crate::names::user_text(&init.expr.to_token_stream());
                self.call_lets.insert(var, (text, true));
            }
            self.bind(out, op, Target::Var(var), Vec::new(), true);
            self.memory_attrs(local, pi, var, mutable);
        } else {
            if let Some(a) = local.attrs.iter().find(|a| a.path().is_ident("record")) {
                self.error(err(
                    a,
                    "`#[record(..)]` applies to a `let` of a float or an array of floats, whose value the tape keeps in a narrower float type; remove it from this `let`",
                ));
            }
            let (p, ty) = self.pure_constant(&init.expr, kind);
            if let Some(a) = ann_ty {
                self.f.types.unify(ty, a);
            }
            let var = self.declare(&pi.ident, mutable, ty, None);
            let id = self.def_id();
            out.stmts.push(Stmt::Def {
                id,
                target: Target::Var(var),
                place: Vec::new(),
                rhs: Rhs::Pure(p),
                is_let: true,
            });
        }
    }

    /// `#[recompute]` and `#[record(..)]` on the `let` of `var` (`pi`).
    fn memory_attrs(&mut self, local: &syn::Local, pi: &syn::PatIdent, var: VarId, mutable: bool) {
        if local.attrs.iter().any(|a| a.path().is_ident("recompute")) {
            if mutable {
                self.error(err(
                    pi,
                    "`#[recompute]` applies to an immutable `let`: its value is computed once, so the reverse sweep can compute it again",
                ));
            }
            self.f.vars[var].recompute = true;
        }
        let mut records = local.attrs.iter().filter(|a| a.path().is_ident("record"));
        if let Some(a) = records.next() {
            self.record_attr(a, var, mutable);
        }
        if let Some(again) = records.next() {
            self.error(err(
                again,
                "a second `#[record(..)]` on one `let`: keep one",
            ));
        }
    }

    /// `#[record(bf16)]` or `#[record(f32)]` on the `let` of `var`.
    fn record_attr(&mut self, a: &syn::Attribute, var: VarId, mutable: bool) {
        const WHAT: &str = "write `#[record(bf16)]` (a float kept in 16 bits; an `f64` is rounded to `f32` first) or `#[record(f32)]` (an `f64` kept in 32 bits)";
        let narrow = match a.parse_args::<syn::Ident>() {
            Ok(i) if i == "bf16" => Narrow::Bf16,
            Ok(i) if i == "f32" => Narrow::F32,
            Ok(i) => {
                self.error(err(i, format!("unknown `#[record(..)]` type: {WHAT}")));
                return;
            }
            Err(_) => {
                self.error(err(
                    a,
                    format!("expected a type in `#[record(..)]`: {WHAT}"),
                ));
                return;
            }
        };
        if mutable {
            self.error(err(
                a,
                "`#[record(..)]` applies to an immutable `let`, whose one value the tape keeps; bind the value to narrow with a `let` without `mut`",
            ));
        } else if self.f.vars[var].recompute {
            self.error(err(
                a,
                "`#[record(..)]` and `#[recompute]` exclude each other: a recomputed value is not recorded; keep one of them",
            ));
        }
        self.f.vars[var].record = Some((narrow, a.to_token_stream()));
    }

    /// Makes `target` hold `op`: renames the definition that produced a temporary, or copies.
    pub(super) fn bind(
        &mut self,
        out: &mut Block,
        op: Operand,
        target: Target,
        place: Vec<Proj>,
        is_let: bool,
    ) {
        let ty = self.f.operand_ty(&op);
        let tt = match target {
            Target::Var(v) => self.place_ty(v, &place),
            t => self.f.target_ty(t),
        };
        self.f.types.unify(ty, tt);
        if let Operand::Temp(t) = op {
            match out.stmts.last_mut() {
                Some(Stmt::Def {
                    target: tg @ Target::Temp(_),
                    place: pl,
                    is_let: l,
                    ..
                }) if *tg == Target::Temp(t) => {
                    *tg = target;
                    *pl = place;
                    *l = is_let;
                    return;
                }
                Some(Stmt::If {
                    results, is_let: l, ..
                }) if place.is_empty() && results.as_slice() == [Target::Temp(t)] => {
                    results[0] = target;
                    *l = is_let;
                    return;
                }
                _ => {}
            }
        }
        let id = self.def_id();
        out.stmts.push(Stmt::Def {
            id,
            target,
            place,
            rhs: Rhs::Copy(op),
            is_let,
        });
    }

    /// An expression statement: an assignment, a loop, an `if` or a block.
    fn stmt_expr(&mut self, e: &syn::Expr, out: &mut Block) {
        match e {
            syn::Expr::Paren(p) => self.stmt_expr(&p.expr, out),
            syn::Expr::Assign(a) => self.assign(a, out),
            syn::Expr::Binary(b) if is_compound(&b.op).is_some() => {
                self.compound_assign(b, is_compound(&b.op).unwrap(), out)
            }
            syn::Expr::ForLoop(fl) => self.for_loop(fl, out),
            syn::Expr::While(w) => {
                self.bounded_loop(e, &w.attrs, w.label.as_ref(), Some(&w.cond), &w.body, out)
            }
            syn::Expr::Loop(l) => {
                self.bounded_loop(e, &l.attrs, l.label.as_ref(), None, &l.body, out)
            }
            syn::Expr::If(ifx) => self.if_stmt(ifx, out),
            syn::Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(HashMap::new());
                self.seq(&b.block.stmts, &[], out, Mode::Unit, b.span());
                self.scopes.pop();
            }
            syn::Expr::MethodCall(m) => {
                self.error(err(e, super::mutators::effect_method(&m.method)))
            }
            syn::Expr::Lit(_)
            | syn::Expr::Path(_)
            | syn::Expr::Binary(_)
            | syn::Expr::Unary(_)
            | syn::Expr::Call(_)
            | syn::Expr::Cast(_) => self.error(err(
                e,
                "this statement computes a value and drops it; bind it with `let` or remove it",
            )),
            _ => self.error(err(e, unsupported(e))),
        }
    }

    /// `y = ..;` or `h[i] = ..;`.
    fn assign(&mut self, a: &syn::ExprAssign, out: &mut Block) {
        if let syn::Expr::Tuple(left) = &*a.left
            && super::tuples::tuple_valued(&a.right, left.elems.len())
        {
            return self.destructure_assign(left, &a.right, out);
        }
        let Some((var, place)) = self.assigned_place(&a.left) else {
            return;
        };
        let ty = self.place_ty(var, &place);
        self.decide_num(ty, &a.right);
        if matches!(
            self.f.types.kind(ty),
            Kind::Float | Kind::Array | Kind::Struct
        ) {
            let op = self.float(&a.right, out);
            self.bind(out, op, Target::Var(var), place, false);
        } else {
            let (p, pty) = self.pure(&a.right);
            self.f.types.unify(ty, pty);
            let id = self.def_id();
            out.stmts.push(Stmt::Def {
                id,
                target: Target::Var(var),
                place,
                rhs: Rhs::Pure(p),
                is_let: false,
            });
        }
    }

    /// `y += ..;` (and `-=`, `*=`, `/=`): `y = y + ..`.
    fn compound_assign(&mut self, b: &syn::ExprBinary, op: BinOp, out: &mut Block) {
        let Some((var, place)) = self.assigned_place(&b.left) else {
            return;
        };
        let ty = self.place_ty(var, &place);
        self.decide_num(ty, &b.right);
        if self.f.types.kind(ty) == Kind::Float {
            let rhs = self.float(&b.right, out);
            let old = self.var_operand(var, place.clone(), false);
            let rty = self.f.operand_ty(&rhs);
            self.f.types.unify(ty, rty);
            let id = self.def_id();
            out.stmts.push(Stmt::Def {
                id,
                target: Target::Var(var),
                place,
                rhs: Rhs::Bin(op, old, rhs),
                is_let: false,
            });
        } else {
            let (p, rty) = self.pure(&b.right);
            self.f.types.unify(ty, rty);
            if op == BinOp::Sub {
                self.signed.push(ty);
            }
            let sym = op.tokens();
            let read = self.read(var);
            let id = self.def_id();
            out.stmts.push(Stmt::Def {
                id,
                target: Target::Var(var),
                place: place.clone(),
                rhs: Rhs::Pure(Pure::Bin(
                    sym,
                    Box::new(Pure::Var(var, place, read)),
                    Box::new(p),
                )),
                is_let: false,
            });
        }
    }

    /// An `if` statement without value (its `else` may be another `if`).
    fn if_stmt(&mut self, ifx: &syn::ExprIf, out: &mut Block) {
        let id = self.if_id();
        let cond = self.cond(&ifx.cond);
        let then = self.scoped(&ifx.then_branch.stmts, Mode::Unit, ifx.span());
        let mut els = Block::default();
        if let Some((_, e)) = &ifx.else_branch {
            self.scopes.push(HashMap::new());
            self.stmt_expr(e, &mut els);
            self.scopes.pop();
        }
        out.stmts.push(Stmt::If {
            id,
            cond,
            then,
            els,
            results: Vec::new(),
            is_let: false,
        });
    }

    /// Lowers a value of `k` elements: a float, or a tuple written out.
    pub(super) fn value(
        &mut self,
        e: &syn::Expr,
        (k, tuple): (usize, bool),
        out: &mut Block,
    ) -> Vec<Operand> {
        if !tuple {
            return vec![self.float(e, out)];
        }
        match e {
            syn::Expr::Paren(p) => self.value(&p.expr, (k, tuple), out),
            syn::Expr::Tuple(t) if t.elems.len() == k => {
                t.elems.iter().map(|x| self.float(x, out)).collect()
            }
            syn::Expr::If(ifx) => self.value_if(ifx, k, tuple, out),
            syn::Expr::Call(c) if k > 1 => {
                let leaves = (0..k).map(|_| super::tuples::PatShape::Leaf).collect();
                self.tuple_call(c, &super::tuples::PatShape::Tuple(leaves), out)
            }
            syn::Expr::Block(b) if b.label.is_none() => {
                let blk = self.scoped(&b.block.stmts, Mode::Value { k, tuple }, b.span());
                out.stmts.extend(blk.stmts);
                blk.tail
            }
            _ => {
                self.error(err(
                    e,
                    format!("this function returns a tuple of {k}: end it with a tuple expression such as `(a, b)`"),
                ));
                (0..k).map(|_| self.dummy()).collect()
            }
        }
    }

    /// An `if` used as a value of `k` elements: both branches define the same temporaries.
    pub(super) fn value_if(
        &mut self,
        ifx: &syn::ExprIf,
        k: usize,
        tuple: bool,
        out: &mut Block,
    ) -> Vec<Operand> {
        let id = self.if_id();
        let cond = self.cond(&ifx.cond);
        let then = self.scoped(
            &ifx.then_branch.stmts,
            Mode::Value { k, tuple },
            ifx.then_branch.span(),
        );
        let mut els = Block::default();
        match ifx.else_branch.as_ref().map(|(_, e)| &**e) {
            None => {
                self.error(err(ifx, "an `if` used as a value needs an `else` branch"));
                els.tail = (0..k).map(|_| self.dummy()).collect();
            }
            Some(e) => {
                self.scopes.push(HashMap::new());
                els.tail = self.value(e, (k, tuple), &mut els);
                self.scopes.pop();
            }
        }
        let results = self.if_results(&then, &els, k);
        out.stmts.push(Stmt::If {
            id,
            cond,
            then,
            els,
            results: results.iter().map(|t| Target::Temp(*t)).collect(),
            is_let: true,
        });
        results.into_iter().map(Operand::Temp).collect()
    }
}

/// `#[recompute]` or `#[record(..)]`: the attributes on a `let` that only this macro reads.
pub(super) fn is_memory_attr(a: &syn::Attribute) -> bool {
    a.path().is_ident("recompute") || a.path().is_ident("record")
}
