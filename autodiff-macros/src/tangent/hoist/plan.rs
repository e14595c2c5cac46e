//! The analysis of a nest to hoist from (see the parent module): what its fixed part computes,
//! which locals are fixed, which are accumulators and where each is complete.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::{Class, Hoist, Mode, Term, plain};
use crate::ir::*;
use crate::names::{bare, identifiers};
use crate::tangent::Tan;
use crate::walk::{assigned, each_operand, rhs_reads};

impl Tan<'_> {
    /// What hoisting `M` (a statement of `L`'s body) needs, added to `h`; `None` where it does
    /// not apply or would not pay.
    pub(super) fn plan_nest<'s>(&mut self, mut h: Hoist, m: &'s Stmt) -> Option<(Hoist, Nest<'s>)> {
        let Stmt::For {
            var: k,
            range,
            body,
            ..
        } = m
        else {
            return None;
        };
        let zero = matches!(&range.start, Pure::Lit(t) if t.to_string() == "0");
        let Pure::Lit(len) = &range.end else {
            return None;
        };
        if !zero || range.inclusive || !range.adapters.is_empty() || !plain(body) {
            return None;
        }
        // What the fixed part computes again: the counters, and the `let`s without
        // derivative computed from fixed values only (once each).
        let mut defs: HashMap<VarId, usize> = HashMap::new();
        let mut all = Vec::new();
        assigned(body, &mut all);
        for v in all {
            *defs.entry(v).or_default() += 1;
        }
        h.again.insert(*k);
        let mut again_lets = Vec::new();
        if !self.counters_and_lets(&mut h, body, &defs, &mut again_lets) {
            return None;
        }
        // The locals declared in the nest's body: fixed, or accumulators.
        let locals: Vec<(VarId, TyId)> = (body.stmts.iter())
            .filter_map(|s| match s {
                Stmt::Def {
                    target: Target::Var(v),
                    place,
                    is_let: true,
                    ..
                } if place.is_empty() && self.act.vars[*v] => Some((*v, self.f.vars[*v].ty)),
                _ => None,
            })
            .collect();
        // Fixed: the locals and temporaries all of whose terms are.
        h.fixed = locals.iter().map(|(v, _)| Target::Var(*v)).collect();
        each_def(body, &mut |s| {
            if let Stmt::Def {
                target: Target::Temp(t),
                ..
            } = s
                && self.act.temps[*t]
            {
                h.fixed.insert(Target::Temp(*t));
            }
        });
        loop {
            let unfixed: Vec<Target> = (h.fixed.iter().copied())
                .filter(|t| !self.defs_of(&h, body, *t, |c| c == Class::Fixed))
                .collect();
            if unfixed.is_empty() {
                break;
            }
            h.fixed.retain(|t| !unfixed.contains(t));
        }
        let mut acc: Vec<VarId> = (locals.iter())
            .filter(|(v, ty)| !h.fixed.contains(&Target::Var(*v)) && self.float_or_row(*ty))
            .map(|(v, _)| *v)
            .collect();
        // Accumulators, their chain temporaries, and where each is complete.
        loop {
            if acc.is_empty() {
                return None;
            }
            let trial = self.with_acc(&h, body, &acc);
            let bad: Vec<VarId> = (acc.iter().copied())
                .filter(|&v| !self.sound(&trial, body, v))
                .collect();
            if bad.is_empty() {
                h = trial;
                break;
            }
            acc.retain(|v| !bad.contains(v));
        }
        if !self.pays(&h, body) {
            return None;
        }
        let k_name = self.f.vars[*k].emit.clone();
        let (merges, slots) = self.merges_and_slots(&mut h, body, &acc, len, &k_name);
        for (at, merge) in merges {
            h.merges.entry(at).or_default().extend(merge);
        }
        let fixed: Vec<Target> = h.fixed.iter().copied().collect();
        for t in fixed {
            if !self.read_in_loop(&h, body, t) {
                h.dropped.insert(t);
            }
        }
        let again = again_lets.into_iter().map(Target::Var).collect();
        Some((
            h,
            Nest {
                stmt: m,
                again,
                slots,
            },
        ))
    }
    /// Adds the nest's counters and the `let`s it can compute again to `h.again`, checking
    /// that every loop's range is fixed.
    fn counters_and_lets(
        &self,
        h: &mut Hoist,
        b: &Block,
        defs: &HashMap<VarId, usize>,
        lets: &mut Vec<VarId>,
    ) -> bool {
        for s in &b.stmts {
            match s {
                Stmt::For {
                    var, range, body, ..
                } => {
                    if !h.range_fixed(range) {
                        return false;
                    }
                    h.again.insert(*var);
                    if !self.counters_and_lets(h, body, defs, lets) {
                        return false;
                    }
                }
                Stmt::Def {
                    target: Target::Var(v),
                    place,
                    rhs,
                    is_let: true,
                    ..
                } if !self.act.vars[*v] && place.is_empty() && defs.get(v) == Some(&1) => {
                    let mut reads = Vec::new();
                    rhs_reads(rhs, place, &mut reads);
                    let fixed = reads.iter().all(|(v, _, _)| h.var_fixed(*v))
                        && crate::walk::operands(rhs).iter().all(|o| h.value_fixed(o));
                    if fixed {
                        h.again.insert(*v);
                        lets.push(*v);
                    }
                }
                _ => {}
            }
        }
        true
    }

    /// The terms of a definition's tangent as they are classed under `h`.
    fn terms_under(&mut self, h: &Hoist, target: Target, place: &[Proj], rhs: &Rhs) -> Vec<Term> {
        let saved = self.hoist.replace(h.clone());
        let ty = self.def_ty(target, place);
        let out = self.fwd.target(target).to_token_stream();
        let terms = self.t_terms(rhs, ty, &out);
        self.hoist = saved;
        terms
    }

    /// Do all definitions of `target` in `b` have fixed places and terms whose classes pass?
    fn defs_of(
        &mut self,
        h: &Hoist,
        b: &Block,
        target: Target,
        pass: impl Fn(Class) -> bool + Copy,
    ) -> bool {
        let mut ok = true;
        each_def(b, &mut |s| {
            if let Stmt::Def {
                target: t,
                place,
                rhs,
                ..
            } = s
                && *t == target
            {
                ok &= h.proj_fixed(place)
                    && self
                        .terms_under(h, target, place, rhs)
                        .iter()
                        .all(|t| pass(t.class));
            }
        });
        ok
    }

    /// A float, or an array of floats: a tangent the merge adds element by element.
    fn float_or_row(&self, ty: TyId) -> bool {
        let types = &self.f.types;
        match types.kind(ty) {
            Kind::Float => true,
            Kind::Array => types.kind(types.elem(ty).unwrap()) == Kind::Float,
            _ => false,
        }
    }

    /// `h` with these accumulators (their slots still placeholders) and the chain temporaries
    /// that carry sums into them: temporaries used once, as a term with coefficient 1 of an
    /// accumulator's or another chain temporary's definition.
    fn with_acc(&self, h: &Hoist, b: &Block, acc: &[VarId]) -> Hoist {
        let mut h = h.clone();
        h.acc = (acc.iter())
            .map(|&v| (v, self.t_vars[v].to_token_stream()))
            .collect();
        let mut uses: HashMap<TempId, usize> = HashMap::new();
        each_operand(b, &mut |o| {
            if let Operand::Temp(t) = o {
                *uses.entry(*t).or_default() += 1;
            }
        });
        h.chain.clear();
        loop {
            let mut found = Vec::new();
            each_def(b, &mut |s| {
                if let Stmt::Def { target, rhs, .. } = s
                    && h.splits(*target)
                {
                    for o in linear_operands(rhs) {
                        if let Operand::Temp(t) = o
                            && self.act.temps[*t]
                            && uses.get(t) == Some(&1)
                            && !h.fixed.contains(&Target::Temp(*t))
                            && !h.chain.contains(t)
                        {
                            found.push(*t);
                        }
                    }
                }
            });
            if found.is_empty() {
                return h;
            }
            h.chain.extend(found);
        }
    }

    /// Can accumulator `v` be split: are its definitions' and its chain temporaries' terms
    /// sums of parts, reading no other accumulator's tangent (partial before that one's merge,
    /// whole after it), and is `v` complete before anything else reads it?
    fn sound(&mut self, h: &Hoist, b: &Block, v: VarId) -> bool {
        if self.merge_point(h, b, v).is_none() {
            return false;
        }
        let linear = |c: Class| c != Class::Bad;
        let mut reads_other = false;
        let mut targets = vec![Target::Var(v)];
        let mut i = 0;
        while i < targets.len() {
            let t = targets[i];
            if !self.defs_of(h, b, t, linear) {
                return false;
            }
            each_def(b, &mut |s| {
                if let Stmt::Def { target, rhs, .. } = s
                    && *target == t
                {
                    let other = |o: &&Operand| matches!(o, Operand::Var { var, .. } if *var != v && h.acc.contains_key(var));
                    reads_other |= crate::walk::operands(rhs).iter().any(other);
                    for o in linear_operands(rhs) {
                        if let Operand::Temp(c) = o
                            && h.chain.contains(c)
                            && !targets.contains(&Target::Temp(*c))
                        {
                            targets.push(Target::Temp(*c));
                        }
                    }
                }
            });
            i += 1;
        }
        !reads_other
    }

    /// The index of the last statement of the nest's body that writes accumulator `v`, if
    /// nothing up to it reads `v`'s tangent but `v`'s and chain temporaries' definitions.
    fn merge_point(&self, h: &Hoist, b: &Block, v: VarId) -> Option<usize> {
        let last = b.stmts.iter().rposition(|s| {
            let mut out = Vec::new();
            crate::walk::stmt_assigns(s, &mut out);
            out.contains(&v)
        })?;
        let mut ok = true;
        for s in &b.stmts[..=last] {
            each_def_of(s, &mut |d| {
                if let Stmt::Def { target, rhs, .. } = d {
                    let reads = (crate::walk::operands(rhs).iter())
                        .any(|o| matches!(o, Operand::Var { var, .. } if *var == v));
                    ok &= !reads || !self.act.target(*target) || h.splits(*target);
                }
            });
        }
        ok.then_some(last)
    }

    /// Names each accumulator's slot (`w_qx[k]`); the slots' declarations, and the merges by
    /// the statement they follow.
    fn merges_and_slots(
        &mut self,
        h: &mut Hoist,
        b: &Block,
        acc: &[VarId],
        len: &TokenStream,
        k: &proc_macro2::Ident,
    ) -> (Vec<(StmtRef, TokenStream)>, TokenStream) {
        let (mut merges, mut slots) = (Vec::new(), TokenStream::new());
        for &v in acc {
            let var = &self.f.vars[v];
            let w = self.names.fresh(&format!("w_{}", bare(&var.emit)));
            let t = self.t_vars[v].clone().unwrap();
            let (ty, zero) = (self.t_ty(var.ty), self.zero(var.ty));
            slots.extend(quote!(let mut #w: [#ty; #len] = [#zero; #len];));
            let merge = match self.f.types.array(var.ty) {
                Some((_, n)) => self.add_rows(quote!(#t), quote!(#w[#k]), n),
                _ => self.add_into(quote!(#t), quote!(#w[#k])),
            };
            let last = self.merge_point(h, b, v).unwrap();
            merges.push((StmtRef::of(&b.stmts[last]).unwrap(), merge));
            h.acc.insert(v, quote!(#w[#k]));
        }
        (merges, slots)
    }

    /// Does the loop, with the varying part, read the tangent of fixed `v`?
    fn read_in_loop(&mut self, h: &Hoist, b: &Block, v: Target) -> bool {
        let name = match v {
            Target::Var(v) => self.t_vars[v].as_ref().unwrap().to_string(),
            Target::Temp(t) => self.t_temps[t].as_ref().unwrap().to_string(),
        };
        let mut h = h.clone();
        h.mode = Mode::Varying;
        let mut defs = Vec::new();
        each_def(b, &mut |s| defs.push(s));
        defs.into_iter().any(|s| {
            let Stmt::Def {
                target, place, rhs, ..
            } = s
            else {
                return false;
            };
            *target != v
                && self.act.target(*target)
                && (self.terms_under(&h, *target, place, rhs).iter()).any(|t| {
                    h.keeps(*target, t.class) && identifiers(t.tokens.clone()).contains(&name)
                })
        })
    }

    /// Is some fixed term a product (what hoisting saves)?
    fn pays(&mut self, h: &Hoist, b: &Block) -> bool {
        let mut pays = false;
        let mut defs = Vec::new();
        each_def(b, &mut |s| defs.push(s));
        for s in defs {
            if let Stmt::Def {
                target, place, rhs, ..
            } = s
                && h.splits(*target)
            {
                pays |= (self.terms_under(h, *target, place, rhs).iter())
                    .any(|t| t.class == Class::Fixed && t.product);
            }
        }
        pays
    }
}

/// The operands whose tangents a right-hand side's tangent sums with coefficient 1.
fn linear_operands(rhs: &Rhs) -> Vec<&Operand> {
    match rhs {
        Rhs::Copy(o) | Rhs::Neg(o) | Rhs::Cast(o) => vec![o],
        Rhs::Bin(BinOp::Add | BinOp::Sub, a, c) => vec![a, c],
        _ => vec![],
    }
}

/// Every definition in a block, at any depth.
fn each_def<'b>(b: &'b Block, f: &mut impl FnMut(&'b Stmt)) {
    for s in &b.stmts {
        each_def_of(s, f);
    }
}

fn each_def_of<'b>(s: &'b Stmt, f: &mut impl FnMut(&'b Stmt)) {
    match s {
        Stmt::Def { .. } => f(s),
        Stmt::For { body, .. } => each_def(body, f),
        Stmt::If { then, els, .. } => {
            each_def(then, f);
            each_def(els, f);
        }
        _ => {}
    }
}

/// A nest to hoist from: its statement, the `let`s its fixed part computes again, the
/// declarations of its slots.
pub(super) struct Nest<'s> {
    pub stmt: &'s Stmt,
    pub again: Vec<Target>,
    pub slots: TokenStream,
}
