//! Primal values as the reverse sweep reads them, each as the plan says: in place, recomputed
//! from its definition, or from its tape field.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

use super::Rev;
use crate::analysis::Reach;
use crate::ir::*;
use crate::names::line_of;
use crate::print::{narrow_ty, narrow_zero, widen, widen_into};
use crate::tape::{Key, Spec};

impl<'a> Rev<'a> {
    /// The tape slot for `key` (created on first use), as the adjoint reads it.
    pub(super) fn field(
        &mut self,
        key: Key,
        base: &str,
        ty: TyId,
        doc: String,
        nest: &[usize],
    ) -> TokenStream {
        if self.tape.get(key).is_none() {
            let (field_ty, init) = match self.narrow(key) {
                Some(n) => (
                    narrow_ty(&self.f.types, ty, n),
                    narrow_zero(&self.f.types, ty, n),
                ),
                None => (self.ty(ty), self.f.types.zero(ty)),
            };
            let spec = Spec {
                base,
                ty: field_ty,
                init,
                init_is_call: false,
                doc,
                nest,
            };
            self.tape.field(key, spec, &self.f.loops);
        }
        self.tape
            .access(key, &self.tape_ident, &self.f.loops)
            .unwrap()
    }

    /// The local holding `#[record(..)]` array `var` widened from its tape field `field`:
    /// declared before the statement being reversed (no copy out of a block expression), and
    /// reused by later reads in the same scope (the GPT reads a layer norm's output three times).
    fn widened(&mut self, var: VarId, n: Narrow, field: TokenStream) -> Ident {
        if let Some(local) = self.local_in_scope(var) {
            return local;
        }
        let v = &self.f.vars[var];
        let local = self.names.fresh(&format!("{}_wide", v.emit));
        let ty = self.ty(v.ty);
        let zero = self.f.types.zero(v.ty);
        let fill = widen_into(&self.f.types, v.ty, n, quote!(#local), field);
        self.pre.extend(quote!(let mut #local: #ty = #zero; #fill));
        self.wide.push((var, local.clone()));
        local
    }

    /// The local holding `#[recompute]` array `var` computed again from its definition: declared
    /// before the statement being reversed and reused by later reads in the same scope, as
    /// [`Self::widened`] is (the value does not depend on where it is computed: its operands are
    /// read as the definition read them). An array read whole is computed once per scope, not
    /// once per read: the GPT's first layer norm has three readers.
    fn computed_again(&mut self, var: VarId, rhs: &'a Rhs, ty: TyId) -> Ident {
        if let Some(local) = self.local_in_scope(var) {
            return local;
        }
        // Operands computed again or widened first (into `pre`, before this local).
        let value = self.recompute(rhs, ty, true);
        let local = self
            .names
            .fresh(&format!("{}_again", self.f.vars[var].emit));
        // `_` for a float type the lowering left open: rustc infers it from the definition.
        let t = self.f.types.tokens_infer(ty);
        self.pre.extend(quote!(let #local: #t = #value;));
        self.wide.push((var, local.clone()));
        local
    }

    /// The local already holding `var`'s value in this scope (widened or computed again), the
    /// innermost one.
    fn local_in_scope(&self, var: VarId) -> Option<Ident> {
        let (_, local) = self.wide.iter().rev().find(|(v, _)| *v == var)?;
        Some(local.clone())
    }

    /// The narrower type the tape keeps `key` in: a `#[record(..)]` variable's value.
    fn narrow(&self, key: Key) -> Option<Narrow> {
        match key {
            Key::Value(Target::Var(v)) => self.f.vars[v].record.as_ref().map(|(n, _)| *n),
            _ => None,
        }
    }

    /// `[i][j].w`: a place's projections, with indices as the adjoint computes them.
    pub(super) fn suffix(&mut self, proj: &[Proj]) -> TokenStream {
        let mut out = TokenStream::new();
        for p in proj {
            match p {
                Proj::Index(_) | Proj::Range { .. } => {
                    out.extend(p.bracket(&mut |i| self.pure_val(i)));
                }
                Proj::Field(f) => out.extend(quote!(.#f)),
                Proj::Deref => {}
            }
        }
        out
    }

    /// `base` followed by the projections: `(*x)` for a dereferenced parameter.
    pub(super) fn project(&mut self, base: TokenStream, proj: &[Proj]) -> TokenStream {
        if matches!(proj.first(), Some(Proj::Deref)) {
            let rest = self.suffix(&proj[1..]);
            return quote!((*#base) #rest);
        }
        let suffix = self.suffix(proj);
        quote!(#base #suffix)
    }

    /// `a[j]` of an array whose every element `a[d] = e` defines: an element of the array
    /// computed again once, at the head of the reversed block that declares it. In the loop
    /// `f_grad` fuses into its forward sweep, an array declared before the loop is instead the
    /// forward's own, in scope there and holding that value (nothing writes it after its
    /// defining loop).
    fn elementwise_read(&mut self, var: VarId, j: &Pure) -> TokenStream {
        let v = &self.f.vars[var];
        let def = self.plan.elementwise[&var].def;
        let before_fused = self
            .fused
            .is_some_and(|lp| !self.f.def_nest[def].contains(&lp));
        let name = if self.in_fused && before_fused {
            // What makes the forward's array the right one (crate::fused, crate::plan): the
            // fused loop is a statement of the body, and the array's only element definition
            // is in a loop there too, before it.
            debug_assert_eq!(
                self.f.def_nest[def].len(),
                1,
                "an array declared in the body"
            );
            v.emit.clone()
        } else {
            let names = &mut self.names;
            (self.elem_locals.entry(var))
                .or_insert_with(|| names.fresh(&v.name.to_string()))
                .clone()
        };
        let j = self.pure_val(j);
        quote!(#name[#j])
    }

    /// An integer or bool expression (an index, a loop bound) evaluated in the adjoint.
    pub(super) fn pure_val(&mut self, p: &Pure) -> TokenStream {
        crate::print::pure_tokens(p, &mut |v, proj, read| self.var_val(v, proj, read))
    }

    /// The value of a place in a variable at one read, as the adjoint reads it.
    pub(super) fn var_val(&mut self, var: VarId, proj: &[Proj], read: ReadId) -> TokenStream {
        self.var_read(var, proj, read, false)
    }

    /// `var_val`, or with `borrow` a reference to it: a value carried around a loop is then
    /// `if k > 0 { &prev } else { &first }`, a borrow of its tape field, not a copy of it.
    fn var_read(&mut self, var: VarId, proj: &[Proj], read: ReadId, borrow: bool) -> TokenStream {
        let and = if borrow { quote!(&) } else { quote!() };
        if let Some(row) = self.row_read(var, proj) {
            return quote!(#and #row);
        }
        let v = &self.f.vars[var];
        if self.plan.elementwise.contains_key(&var)
            && let [Proj::Index(j)] = proj
        {
            let element = self.elementwise_read(var, j);
            return quote!(#and #element);
        }
        if v.in_place() {
            let name = v.emit.to_token_stream();
            let value = self.project(name, proj);
            return quote!(#and #value);
        }
        let (name, ty) = (v.emit.to_string(), v.ty);
        let at = line_of(v.name.span());
        let planned = self.plan.recompute.contains(&Target::Var(var));
        if (v.recompute || planned)
            && let Some(rhs) = self.defs.get(&var).map(|&(_, rhs)| rhs)
        {
            if v.recompute && self.f.types.kind(ty) == Kind::Array {
                // Whole or by element, from one local per scope: an element read of the
                // definition itself (`([..])[i]`) computed the whole array at every read.
                let local = self.computed_again(var, rhs, ty);
                let suffix = self.suffix(proj);
                return quote!(#and #local #suffix);
            }
            let value = self.recompute(rhs, ty, v.recompute);
            let suffix = self.suffix(proj);
            return if proj.is_empty() {
                quote!(#and #value)
            } else {
                quote!(#and (#value) #suffix)
            };
        }
        if !v.mutable {
            let doc = format!("`{}`{at}", v.name);
            let nest = self
                .plan
                .nests
                .get(&Target::Var(var))
                .cloned()
                .unwrap_or_default();
            let key = Key::Value(Target::Var(var));
            let base = self.field(key, &name, ty, doc, &nest);
            let suffix = self.suffix(proj);
            if let Some(n) = self.narrow(key) {
                let wide = self.widened_place(var, proj, n, (base, suffix));
                return quote!(#and #wide);
            }
            return quote!(#and #base #suffix);
        }
        let reaching = self
            .plan
            .reaching
            .get(read)
            .copied()
            .unwrap_or(Reach::Unknown);
        match reaching {
            Reach::Def(def) if proj.is_empty() => {
                let doc = format!("`{}`{at} after an assignment", v.name);
                let nest = self.f.def_nest[def].clone();
                let field = self.field(Key::DefOut(def), &name, ty, doc, &nest);
                quote!(#and #field)
            }
            Reach::Carried { before, inside, lp } if proj.is_empty() => {
                let doc = format!("`{}`{at} after an assignment", v.name);
                let nest = self.f.def_nest[before].clone();
                let first = self.field(Key::DefOut(before), &name, ty, doc.clone(), &nest);
                let nest = self.f.def_nest[inside].clone();
                self.field(Key::DefOut(inside), &name, ty, doc, &nest);
                let k = self.f.loops[lp].counter.clone();
                let prev = self
                    .tape
                    .access_with(Key::DefOut(inside), &self.tape_ident, &self.f.loops, |l| {
                        let c = &self.f.loops[l].counter;
                        if l == lp { quote!(#c - 1) } else { quote!(#c) }
                    })
                    .unwrap();
                quote!((if #k > 0 { #and #prev } else { #and #first }))
            }
            _ if self.plan.snap.contains_key(&read) => {
                let snap = self.plan.snap[&read].clone();
                let doc = format!("`{}`{at} after its last write", v.name);
                let base = self.field(Key::Whole(var, snap.at), &name, ty, doc, &snap.nest);
                let suffix = self.suffix(proj);
                quote!(#and #base #suffix)
            }
            _ => {
                let doc = format!(
                    "`{}` where it is read",
                    crate::names::text(&self.place_text(var, proj))
                );
                let nest = self.f.reads[read].1.clone();
                // A sub-slice of an array: the array recorded, the sub-slice taken of it.
                let n = self.f.recorded_len(var, proj);
                let pty = match n == proj.len() {
                    true => self.f.reads_ty(read).unwrap_or(ty),
                    false => self.place_ty(var, &proj[..n]),
                };
                let field = self.field(Key::Read(read), &name, pty, doc, &nest);
                let suffix = self.suffix(&proj[n..]);
                quote!(#and #field #suffix)
            }
        }
    }

    /// A place in a variable the tape keeps narrowed (`#[record(..)]`), read widened: the
    /// record (`base`) and the place's projections (`suffix`).
    fn widened_place(
        &mut self,
        var: VarId,
        proj: &[Proj],
        n: Narrow,
        (base, suffix): (TokenStream, TokenStream),
    ) -> TokenStream {
        let ty = self.f.vars[var].ty;
        let pty = self.place_ty(var, proj);
        // The array, or a sub-slice of it: of the array widened into a local.
        if (proj.is_empty() && self.f.types.kind(ty) == Kind::Array)
            || self.f.array_under_ranges(var, proj) == Some(0)
        {
            let local = self.widened(var, n, base);
            return quote!(#local #suffix);
        }
        if self.f.types.kind(pty) != Kind::Array {
            return widen(&self.f.types, pty, n, quote!(#base #suffix));
        }
        // A row of a recorded array: widened into a block's local.
        let (row, zero) = (quote!(__stackgrad_row), self.f.types.zero(pty));
        let fill = widen_into(&self.f.types, pty, n, row.clone(), quote!(#base #suffix));
        quote!({ let mut #row = #zero; #fill #row })
    }

    pub(super) fn place_text(&self, var: VarId, proj: &[Proj]) -> TokenStream {
        let name = &self.f.vars[var].name;
        let parts = proj.iter().map(|p| match p {
            Proj::Index(_) => quote!([..]),
            Proj::Range { .. } => quote!([..]),
            Proj::Field(f) => quote!(.#f),
            Proj::Deref => quote!(),
        });
        quote!(#name #(#parts)*)
    }

    /// The primal value of an operand, as the adjoint reads it.
    pub fn val(&mut self, o: &Operand) -> TokenStream {
        match o {
            Operand::Const { tokens, ty } => {
                crate::print::typed_literal(&self.f.types, tokens, *ty)
            }
            Operand::Var {
                var,
                proj,
                read,
                borrow,
                ..
            } => self.var_read(*var, proj, *read, *borrow),
            Operand::Temp(t) => self.value_of(Target::Temp(*t)),
        }
    }

    /// `let a: [T; N] = ::core::array::from_fn(|d| e);` for array `var`, recomputed element by
    /// element (`a[d] = e` in the plan), if a read in the reversed block asked for it.
    pub(super) fn elementwise_let(&mut self, var: VarId) -> TokenStream {
        let Some(local) = self.elem_locals.remove(&var) else {
            return TokenStream::new();
        };
        let e = self.plan.elementwise[&var];
        let ty = self.f.vars[var].ty;
        let elem = self.f.types.elem(ty).expect("an array");
        // The closure's parameter is the loop counter under its own name (a counter is read in
        // place, by that name, and names in the generated code are unique per function).
        let c = &self.f.vars[e.counter].emit;
        let value = self.recompute(self.place_defs[&e.def], elem, false);
        let t = self.ty(ty);
        quote!(let #local: #t = ::core::array::from_fn(|#c| #value);)
    }

    /// A definition evaluated again in the reverse sweep, from its operands' values
    /// (`#[recompute] let`): calls call the primal.
    /// With `deep` (`#[recompute]`), the statement's own subexpressions are recomputed too, not
    /// read from the tape; otherwise each operand comes as the plan says.
    pub(super) fn recompute(&mut self, rhs: &'a Rhs, ty: TyId, deep: bool) -> TokenStream {
        let val = |r: &mut Self, o: &'a Operand| match o {
            Operand::Temp(t) if deep && r.temp_defs.contains_key(t) => {
                let rhs = r.temp_defs[t];
                let ty = r.f.temps[*t].ty;
                r.recompute(rhs, ty, true)
            }
            o => r.val(o),
        };
        match rhs {
            Rhs::Copy(o) => val(self, o),
            Rhs::Neg(o) => {
                let o = val(self, o);
                quote!((-#o))
            }
            Rhs::Cast(o) => {
                let o = val(self, o);
                let t = self.ty(ty);
                quote!((#o as #t))
            }
            Rhs::Bin(op, a, b) => {
                let (a, b) = (val(self, a), val(self, b));
                let op = op.tokens();
                quote!((#a #op #b))
            }
            Rhs::Method {
                method,
                recv,
                args,
                span,
            } => {
                let m = Ident::new(method.name, *span);
                let r = val(self, recv);
                let args: Vec<_> = args.iter().map(|a| val(self, a)).collect();
                quote!(#r.#m(#(#args),*))
            }
            Rhs::Array(elems) => {
                let elems: Vec<_> = elems.iter().map(|a| val(self, a)).collect();
                quote!([#(#elems),*])
            }
            Rhs::Call { path, args, .. } => {
                let args: Vec<_> = args.iter().map(|a| val(self, a)).collect();
                quote!(#path(#(#args),*))
            }
            // The call again, then its element.
            Rhs::Elem { call, path, .. } => {
                let Target::Temp(t) = call else {
                    unreachable!("a tuple's call defines a temporary")
                };
                let call = self.temp_defs[t];
                let whole = self.recompute(call, ty, deep);
                let path = crate::walk::path_tokens(path);
                quote!((#whole) #path)
            }
            Rhs::Pure(p) => {
                let p = self.pure_val(p);
                quote!((#p))
            }
        }
    }

    /// The value a definition produced.
    pub(super) fn out(&mut self, def: usize, target: Target, place: &[Proj]) -> TokenStream {
        match target {
            Target::Var(v) if self.f.vars[v].mutable || !place.is_empty() => {
                let var = &self.f.vars[v];
                let doc = format!(
                    "`{}`{} after an assignment",
                    var.name,
                    line_of(var.name.span())
                );
                let name = var.emit.to_string();
                let ty = self.place_ty(v, place);
                let nest = self.f.def_nest[def].clone();
                self.field(Key::DefOut(def), &name, ty, doc, &nest)
            }
            t => self.value_of(t),
        }
    }

    pub(super) fn value_of(&mut self, t: Target) -> TokenStream {
        match t {
            Target::Var(v) => self.var_val(v, &[], usize::MAX),
            Target::Temp(id) if self.plan.recompute.contains(&t) => {
                let rhs = self.temp_defs[&id];
                self.recompute(rhs, self.f.temps[id].ty, false)
            }
            Target::Temp(id) => {
                let name = self.temp_names[id]
                    .as_ref()
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                let ty = self.f.temps[id].ty;
                let nest = self.plan.nests.get(&t).cloned().unwrap_or_default();
                self.field(
                    Key::Value(t),
                    &name,
                    ty,
                    "an intermediate value".into(),
                    &nest,
                )
            }
        }
    }
}
