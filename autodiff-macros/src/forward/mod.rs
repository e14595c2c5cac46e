//! The forward sweep: the primal in A-normal form, storing into the tape what the plan records
//! (values at their definition, snapshots after a variable's last write, branches, trip counts,
//! callees' tapes), and the iterations of checkpointed loops the reverse sweep runs again.

mod rerun;

use rerun::Counted;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::ir::*;
use crate::names::{companion, rerun_label};
use crate::plan::Plan;
use crate::print::{narrow_into, pure_tokens};
use crate::tape::{Key, Tape};
use crate::walk::{find_loop, range_reads, rhs_reads};

/// Forward names of the temporaries, in definition order: `t0`, `t1`, ...
pub fn name_temps(f: &Func) -> Vec<Option<Ident>> {
    struct Namer<'a> {
        names: Vec<Option<Ident>>,
        n: usize,
        /// The variables' names: a temporary never takes one, even where hygiene would keep
        /// them apart (the tangent program `f_hvp` differentiates has its temporaries as
        /// variables, under the same hygiene as the new ones).
        taken: std::collections::HashSet<&'a str>,
    }
    impl Namer<'_> {
        fn name(&mut self, t: Target) {
            if let Target::Temp(id) = t {
                let name = loop {
                    let s = format!("t{}", self.n);
                    self.n += 1;
                    if !self.taken.contains(s.as_str()) {
                        break s;
                    }
                };
                self.names[id] = Some(Ident::new(&name, Span::mixed_site()));
            }
        }
        fn walk(&mut self, b: &Block) {
            for s in &b.stmts {
                match s {
                    Stmt::Def { target, .. } => self.name(*target),
                    Stmt::If {
                        then, els, results, ..
                    } => {
                        self.walk(then);
                        self.walk(els);
                        for r in results {
                            self.name(*r);
                        }
                    }
                    Stmt::For { body, .. } => self.walk(body),
                    Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
                }
            }
        }
    }
    let names: Vec<String> = f.vars.iter().map(|v| v.emit.to_string()).collect();
    let mut namer = Namer {
        names: vec![None; f.temps.len()],
        n: 0,
        taken: names.iter().map(|s| s.as_str()).collect(),
    };
    namer.walk(&f.body);
    namer.names
}

pub struct Fwd<'a> {
    /// Field names in the order the forward sweep writes them, with a description of each.
    pub written: std::cell::RefCell<Vec<(Ident, Option<String>)>>,
    pub f: &'a Func,
    pub tape: &'a Tape,
    pub plan: &'a Plan,
    pub temp_names: &'a [Option<Ident>],
    pub tape_ident: &'a Ident,
    /// Recording into step tapes: off in the forward function inside a checkpointed loop (it
    /// only saves checkpoints), on when the reverse sweep re-runs one iteration.
    pub recording: std::cell::Cell<bool>,
    /// Emitting `f_try_forward`: a bounded loop that runs out returns an error instead of
    /// panicking.
    pub fallible: std::cell::Cell<bool>,
    /// In a re-run iteration, `break` and `continue` leave this labelled block instead.
    pub rerun_exit: std::cell::Cell<Option<(usize, bool)>>,
    /// Emitting `f_forward_into`: the function's value goes into this `&mut` output instead of
    /// being returned.
    pub into: std::cell::RefCell<Option<Ident>>,
    /// Immutable array variables bound to their tape slot (`let h = &tape.h[k];`, see
    /// [`Fwd::bind_in_tape`]): reads go through the reference.
    pub in_tape: std::cell::RefCell<std::collections::HashSet<VarId>>,
    /// In `f_grad`, a run-time loop's code replaced by its fused form ([`crate::fused`]).
    pub fused: std::cell::RefCell<Option<(usize, TokenStream)>>,
    /// In a trial emission ([`rerun`]), the tape stores of each statement.
    pub probe: std::cell::RefCell<Option<rerun::Probe>>,
    /// Statements a re-run iteration leaves out ([`rerun`]).
    pub dead: std::cell::RefCell<std::collections::HashSet<StmtRef>>,
}

impl<'a> Fwd<'a> {
    /// A forward sweep recording into `tape` (an empty tape: the primal alone), `recording`
    /// into the step tapes of checkpointed loops or not.
    pub fn new(
        f: &'a Func,
        tape: &'a Tape,
        plan: &'a Plan,
        temp_names: &'a [Option<Ident>],
        tape_ident: &'a Ident,
        recording: bool,
    ) -> Self {
        Fwd {
            written: Default::default(),
            f,
            tape,
            plan,
            temp_names,
            tape_ident,
            recording: std::cell::Cell::new(recording),
            fallible: std::cell::Cell::new(false),
            rerun_exit: std::cell::Cell::new(None),
            into: Default::default(),
            in_tape: Default::default(),
            fused: Default::default(),
            probe: Default::default(),
            dead: Default::default(),
        }
    }

    pub fn target(&self, t: Target) -> Ident {
        match t {
            Target::Var(v) => self.f.vars[v].emit.clone(),
            Target::Temp(t) => self.temp_names[t].clone().unwrap(),
        }
    }

    pub fn operand(&self, o: &Operand) -> TokenStream {
        match o {
            Operand::Var {
                var, proj, borrow, ..
            } => {
                let v = self.place(*var, proj);
                if *borrow { quote!(&#v) } else { v }
            }
            Operand::Temp(t) => self.target(Target::Temp(*t)).into_token_stream(),
            Operand::Const { tokens, .. } => tokens.clone(),
        }
    }

    /// `v[i].w`: a place as the forward function reads it.
    pub fn place(&self, var: VarId, proj: &[Proj]) -> TokenStream {
        let mut out = self.f.vars[var].emit.to_token_stream();
        if self.in_tape.borrow().contains(&var) {
            out = quote!((*#out));
        }
        for (n, p) in proj.iter().enumerate() {
            // In `f_try_forward`, an index or a sub-slice outside a slice is an `Err`, not a
            // panic.
            let fallible = self.fallible.get()
                && self.f.slices.contains(&var)
                && proj[..n].iter().all(|p| matches!(p, Proj::Range { .. }));
            let outside = || {
                format!(
                    "an index is outside the slice `{}`",
                    crate::names::bare(&self.f.vars[var].name)
                )
            };
            out = match p {
                Proj::Index(i) if fallible => {
                    let i = self.pure(i);
                    let msg = outside();
                    quote!((*#out.get(#i).ok_or(#msg)?))
                }
                Proj::Range { .. } if fallible => {
                    let r = p.range_tokens(&mut |i| self.pure(i));
                    let msg = format!("a sub-slice {}", outside().trim_start_matches("an index "));
                    quote!((#out.get(#r).ok_or(#msg)?))
                }
                Proj::Index(_) | Proj::Range { .. } => {
                    let b = p.bracket(&mut |i| self.pure(i));
                    quote!(#out #b)
                }
                Proj::Field(f) => quote!(#out.#f),
                Proj::Deref => quote!((*#out)),
            };
        }
        out
    }

    /// Where the tape keeps `key` (`tape.x_1[k0]`), when this sweep records it: not in a
    /// checkpointed loop's step tape unless the sweep re-runs an iteration.
    fn slot(&self, key: Key) -> Option<TokenStream> {
        if self.tape.in_step(key) && !self.recording.get() {
            return None;
        }
        self.tape.access(key, self.tape_ident, &self.f.loops)
    }

    fn store(&self, key: Key, value: &impl quote::ToTokens) -> TokenStream {
        let Some(slot) = self.slot(key) else {
            return TokenStream::new();
        };
        self.written
            .borrow_mut()
            .push((self.tape.get(key).unwrap().clone(), None));
        if let Key::Value(Target::Var(v)) = key
            && let Some((n, _)) = &self.f.vars[v].record
        {
            let value = value.to_token_stream();
            return narrow_into(&self.f.types, self.f.vars[v].ty, *n, slot, value);
        }
        quote!(#slot = #value;)
    }

    /// Stores of the values a definition reads that the tape records per read.
    fn read_stores(&self, reads: &[(VarId, &[Proj], ReadId)]) -> TokenStream {
        reads
            .iter()
            .map(|(v, proj, r)| {
                let n = self.f.recorded_len(*v, proj);
                self.store(Key::Read(*r), &self.place(*v, &proj[..n]))
            })
            .collect()
    }

    pub fn pure(&self, p: &Pure) -> TokenStream {
        pure_tokens(p, &mut |v, proj, _| self.place(v, proj))
    }

    /// A loop's range as the primal iterates it.
    pub fn range(&self, r: &Range) -> TokenStream {
        crate::print::range_tokens(self.pure(&r.start), self.pure(&r.end), r, false, |p| {
            self.pure(p)
        })
    }

    pub fn rhs(&self, def: usize, target: Target, place: &[Proj], rhs: &Rhs) -> TokenStream {
        match rhs {
            Rhs::Copy(o) => self.operand(o),
            Rhs::Neg(o) => {
                let o = self.operand(o);
                quote!(-#o)
            }
            Rhs::Cast(o) => {
                let ty = match target {
                    Target::Var(v) => self.f.place_ty(v, place),
                    t => self.f.target_ty(t),
                };
                let ty = self.f.types.tokens(ty);
                let o = self.operand(o);
                quote!(#o as #ty)
            }
            Rhs::Bin(op, a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                let op = op.tokens();
                quote!(#a #op #b)
            }
            Rhs::Method {
                method,
                recv,
                args,
                span,
            } => {
                let m = Ident::new(method.name, *span);
                // A literal receiver needs its type: `2.0_f32.sin()`, not `2.0.sin()`.
                let r = match recv {
                    Operand::Const { tokens, ty } => {
                        crate::print::typed_literal(&self.f.types, tokens, *ty)
                    }
                    o => self.operand(o),
                };
                let args = args.iter().map(|a| self.operand(a));
                quote!(#r.#m(#(#args),*))
            }
            Rhs::Array(elems) => {
                let elems = elems.iter().map(|a| self.operand(a));
                quote!([#(#elems),*])
            }
            Rhs::Elem { call, path, .. } => {
                let whole = self.target(*call);
                let path = crate::walk::path_tokens(path);
                quote!(#whole #path)
            }
            Rhs::Call {
                path, args, span, ..
            } => {
                let args = args.iter().map(|a| self.operand(a));
                match self.slot(Key::Call(def)) {
                    Some(slot) => {
                        let field = self.tape.get(Key::Call(def)).unwrap().clone();
                        self.written.borrow_mut().push((field, None));
                        let fwd = companion(path, |i| format_ident!("{}_forward", i, span = *span));
                        quote!(#fwd(#(#args,)* &mut #slot))
                    }
                    None => quote!(#path(#(#args),*)),
                }
            }
            Rhs::Pure(p) => self.pure(p),
        }
    }

    /// `let v: [..] = value;` for an immutable array the tape records whole, written as
    /// `tape.v[k] = value; let v = &tape.v[k];`: the value goes straight into its slot instead of
    /// being copied there from a local (for the large arrays of a model, a copy per layer and
    /// value). Not inside checkpointed functions, whose re-run iterations record selectively.
    ///
    /// A call's value is written by the callee itself, `g_forward_into(.., &mut tape.g, &mut
    /// tape.v[k])`: returned by value, rustc would build it in a temporary and copy that into the
    /// slot. No argument can borrow the slot: it belongs to this `let` alone, whose earlier
    /// iterations' bindings are out of scope.
    fn bind_in_tape(
        &self,
        def: usize,
        (target, place): (Target, &[Proj]),
        is_let: bool,
        rhs: &Rhs,
        value: &TokenStream,
    ) -> Option<TokenStream> {
        let Target::Var(v) = target else {
            return None;
        };
        let var = &self.f.vars[v];
        let key = Key::Value(target);
        let eligible = is_let
            && place.is_empty()
            && !var.mutable
            && var.param.is_none()
            && var.record.is_none()
            && self.f.types.elem(var.ty).is_some()
            && self.f.loops.iter().all(|l| l.checkpoint.is_none())
            && !self.tape.in_step(key);
        if !eligible {
            return None;
        }
        let slot = self.tape.access(key, self.tape_ident, &self.f.loops)?;
        self.written
            .borrow_mut()
            .push((self.tape.get(key).unwrap().clone(), None));
        self.in_tape.borrow_mut().insert(v);
        let name = &var.emit;
        let ty = self.f.types.tokens_infer(var.ty);
        let rest = self.store(Key::DefOut(def), &self.place(v, place));
        let write = (self.call_into(def, rhs, quote!(&mut #slot)))
            .unwrap_or_else(|| quote!(#slot = #value;));
        Some(quote!(#write let #name: &#ty = &#slot; #rest))
    }

    /// `x = g(..);` for an array variable the tape records right after this write (`tape.x_1[k]
    /// = x;`), written as `g_forward_into(.., &mut tape.g, &mut tape.x_1[k]); x = tape.x_1[k];`:
    /// one copy of the value instead of two (returned by value, rustc builds it in a temporary,
    /// copies that into `x` and `x` into the slot). No argument can borrow the slot: the
    /// arguments are locals and parameters, and the only locals that point into the tape are
    /// those of [`Fwd::bind_in_tape`], each at a slot of its own.
    fn write_then_copy(
        &self,
        def: usize,
        (target, place): (Target, &[Proj]),
        is_let: bool,
        rhs: &Rhs,
    ) -> Option<TokenStream> {
        let (Target::Var(v), true) = (target, place.is_empty()) else {
            return None;
        };
        // The stores `stores_after` would make: exactly one, of the whole variable.
        let recorded = |key: Key| Some((self.slot(key)?, self.tape.get(key)?));
        let keys = [Key::Value(target), Key::DefOut(def)];
        let [(slot, field)] = &keys.map(recorded).into_iter().flatten().collect::<Vec<_>>()[..]
        else {
            return None;
        };
        let eligible = self.f.types.elem(self.f.vars[v].ty).is_some()
            && self.f.vars[v].record.is_none()
            && self.f.loops.iter().all(|l| l.checkpoint.is_none())
            && (self.in_tape.borrow().iter())
                .all(|&w| self.tape.get(Key::Value(Target::Var(w))) != Some(*field));
        if !eligible {
            return None;
        }
        let write = self.call_into(def, rhs, quote!(&mut #slot))?;
        self.written.borrow_mut().push(((*field).clone(), None));
        let copy = self.bind(&[target], is_let, quote!(#slot));
        Some(quote!(#write #copy))
    }

    /// `g_forward_into(args.., &mut tape.g, out);` for a call whose callee's tape this sweep
    /// records: the callee writes the value into `out`.
    fn call_into(&self, def: usize, rhs: &Rhs, out: TokenStream) -> Option<TokenStream> {
        let Rhs::Call {
            path,
            args,
            span,
            tuple,
        } = rhs
        else {
            return None;
        };
        if tuple.is_some() {
            return None;
        }
        let callee = self.slot(Key::Call(def))?;
        let args = args.iter().map(|a| self.operand(a));
        let into = companion(path, |i| format_ident!("{}_forward_into", i, span = *span));
        Some(quote!(#into(#(#args,)* &mut #callee, #out);))
    }

    /// Stores after a definition of `target` (or of a place in it).
    fn stores_after(&self, def: Option<usize>, target: Target, place: &[Proj]) -> TokenStream {
        let name = self.target(target);
        let mut out = self.store(Key::Value(target), &name);
        if let (Some(d), Target::Var(v)) = (def, target) {
            out.extend(self.store(Key::DefOut(d), &self.place(v, place)));
        } else if let Some(d) = def {
            out.extend(self.store(Key::DefOut(d), &name));
        }
        out
    }

    fn stmt(&self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Def {
                id,
                target,
                place,
                rhs,
                is_let,
            } => {
                let mut reads = Vec::new();
                rhs_reads(rhs, place, &mut reads);
                let pre = self.read_stores(&reads);
                let value = self.rhs(*id, *target, place, rhs);
                if let (Target::Temp(_), Some(field)) = (target, self.tape.get(Key::Value(*target)))
                {
                    let at = match rhs {
                        Rhs::Method { span, .. } | Rhs::Call { span, .. } => {
                            crate::names::line_of(*span)
                        }
                        _ => String::new(),
                    };
                    let text = format!(
                        "`{} = {}`{at}",
                        self.target(*target),
                        crate::names::text(&value)
                    );
                    self.written.borrow_mut().push((field.clone(), Some(text)));
                }
                if let Some(bound) = self.bind_in_tape(*id, (*target, place), *is_let, rhs, &value)
                {
                    return quote!(#pre #bound);
                }
                if let Some(written) = self.write_then_copy(*id, (*target, place), *is_let, rhs) {
                    return quote!(#pre #written);
                }
                let def = if place.is_empty() {
                    self.bind(&[*target], *is_let, value)
                } else {
                    let Target::Var(v) = target else {
                        unreachable!()
                    };
                    let p = self.place(*v, place);
                    quote!(#p = #value;)
                };
                let post = self.stores_after(Some(*id), *target, place);
                quote!(#pre #def #post)
            }
            Stmt::For {
                id,
                var,
                range,
                body,
            } => self.for_loop(*id, *var, range, body),
            Stmt::Break | Stmt::Continue if self.rerun_exit.get().is_some() => {
                let (l, record) = self.rerun_exit.get().unwrap();
                let label = rerun_label(l, record);
                quote!(break #label;)
            }
            Stmt::Break => quote!(break;),
            Stmt::Continue => quote!(continue;),
            Stmt::Panic(msg) if self.fallible.get() => {
                quote!(return ::core::result::Result::Err(#msg);)
            }
            Stmt::Panic(msg) => quote!(::core::panic!(#msg);),
            Stmt::If {
                results, is_let, ..
            } => {
                let (pre, expr) = self.if_expr(s);
                if results.is_empty() {
                    return quote!(#pre #expr);
                }
                let def = self.bind(results, *is_let, expr);
                let post: TokenStream = results
                    .iter()
                    .map(|r| self.stores_after(None, *r, &[]))
                    .collect();
                quote!(#pre #def #post)
            }
        }
    }

    /// A loop; with an iteration counter where the tape records in it, and the trip count and
    /// checkpoints where the plan records them.
    fn for_loop(&self, id: usize, var: VarId, range: &Range, body: &Block) -> TokenStream {
        let (id, var) = (&id, &var);
        let mut reads = Vec::new();
        range_reads(range, &mut reads);
        let pre = self.read_stores(&reads);
        if let Some((l, code)) = &*self.fused.borrow()
            && l == id
        {
            return quote!(#pre #code);
        }
        let lp = &self.f.loops[*id];
        let (k, i) = (&lp.counter, &self.f.vars[*var].emit);
        let iter = self.range(range);
        let k1 = quote!(#k + 1);
        let zero = quote!(0);
        let (reset, count) = (
            self.store(Key::Trips(*id), &zero),
            self.store(Key::Trips(*id), &k1),
        );
        // An inner loop's `break` is its own, also in a re-run iteration.
        let exit = self.rerun_exit.replace(None);
        let checkpointed = lp.checkpoint.is_some();
        let recording = self
            .recording
            .replace(self.recording.get() && !checkpointed);
        let body = self.block(body, false, BlockRef::Body(*id));
        self.recording.set(recording);
        self.rerun_exit.set(exit);
        // A checkpointed loop saves its state before each iteration.
        let mut snaps = TokenStream::new();
        if self.recording.get() {
            let (_, stride) = lp.checkpoint_layout();
            for &v in &lp.carried {
                let Some(slot) =
                    self.tape
                        .access(Key::Snap(*id, v), self.tape_ident, &self.f.loops)
                else {
                    continue;
                };
                self.written
                    .borrow_mut()
                    .push((self.tape.get(Key::Snap(*id, v)).unwrap().clone(), None));
                let emit = &self.f.vars[v].emit;
                snaps.extend(match &stride {
                    _ if lp.binomial || lp.runtime => quote!(if #k == 0 { #slot = #emit; }),
                    None => quote!(#slot[#k] = #emit;),
                    Some(s) => quote!(if #k % #s == 0 { #slot[#k / #s] = #emit; }),
                });
            }
        }
        // The `Vec` levels of this loop's fields sized to its trip count first.
        let grow = self.recording.get().then(|| {
            self.tape
                .resizes(*id, self.tape_ident, &self.f.loops, &lp.trips)
        });
        // A running extremum's final value, which the reverse sweep starts from, and its value
        // before the loop stored before it too (the store in the first iteration does not run
        // where there is none, and the reverse sweep compares the two).
        let (mut befores, mut finals) = (TokenStream::new(), TokenStream::new());
        if self.recording.get() {
            for &v in &lp.extrema {
                let key = Key::After(*id, v);
                let Some(slot) = self.tape.access(key, self.tape_ident, &self.f.loops) else {
                    continue;
                };
                self.written
                    .borrow_mut()
                    .push((self.tape.get(key).unwrap().clone(), None));
                let emit = &self.f.vars[v].emit;
                finals.extend(quote!(#slot = #emit;));
                if let Some(before) =
                    self.tape
                        .access(Key::Snap(*id, v), self.tape_ident, &self.f.loops)
                {
                    befores.extend(quote!(#before = #emit;));
                }
            }
        }
        if self.tape.uses_loop(*id) || !count.is_empty() || !snaps.is_empty() {
            quote!(#pre #befores #reset #grow for (#k, #i) in #iter.enumerate() { #count #snaps #body } #finals)
        } else {
            quote!(#pre #befores for #i in #iter { #body } #finals)
        }
    }

    /// `let name: T = value;`, `let (a, b) = value;` or `name = value;`.
    pub fn bind(&self, targets: &[Target], is_let: bool, value: TokenStream) -> TokenStream {
        if let [t] = targets {
            let name = self.target(*t);
            if !is_let {
                return quote!(#name = #value;);
            }
            return match t {
                Target::Var(v) => {
                    let var = &self.f.vars[*v];
                    let ty = self.f.types.annotation(var.ty);
                    let m = var.mutable.then(|| quote!(mut));
                    quote!(let #m #name #ty = #value;)
                }
                Target::Temp(_) => quote!(let #name = #value;),
            };
        }
        let names = targets.iter().map(|t| {
            let name = self.target(*t);
            match t {
                Target::Var(v) if is_let && self.f.vars[*v].mutable => quote!(mut #name),
                _ => quote!(#name),
            }
        });
        if is_let {
            let tys = targets
                .iter()
                .map(|t| self.f.types.tokens_or_infer(self.f.target_ty(*t)));
            quote!(let (#(#names),*): (#(#tys),*) = #value;)
        } else {
            quote!((#(#names),*) = #value;)
        }
    }

    /// The flag store and the `if` expression.
    fn if_expr(&self, s: &Stmt) -> (TokenStream, TokenStream) {
        let Stmt::If {
            id,
            cond,
            then,
            els,
            results,
            ..
        } = s
        else {
            unreachable!()
        };
        let tuple = results.len() > 1;
        let cond = self.pure(cond);
        let (pre, test) = match self.slot(Key::Flag(*id)) {
            Some(slot) => (self.store(Key::Flag(*id), &cond), slot),
            None => (TokenStream::new(), cond),
        };
        let t = self.block(then, tuple, BlockRef::Then(*id));
        let e = self.block(els, tuple, BlockRef::Else(*id));
        let e = if e.is_empty() {
            quote!()
        } else {
            quote!(else { #e })
        };
        (pre, quote!(if #test { #t } #e))
    }

    /// One iteration of checkpointed loop `l`, recording its step tape: what the reverse sweep
    /// runs again before sweeping the iteration backwards.
    pub fn rerun(&self, l: usize, record: bool) -> TokenStream {
        let Some(body) = find_loop(&self.f.body, l) else {
            return TokenStream::new();
        };
        let recording = self.recording.replace(record);
        let exit = self.rerun_exit.replace(Some((l, record)));
        let code = self.block(body, false, BlockRef::Body(l));
        self.recording.set(recording);
        self.rerun_exit.set(exit);
        if code.is_empty() {
            return code;
        }
        let label = rerun_label(l, record);
        quote!(#label: { #code })
    }

    /// A block's statements and its value, if it has one. An `if` that defines the value as its
    /// last statement is emitted as the value itself.
    pub fn block(&self, b: &Block, tuple: bool, here: BlockRef) -> TokenStream {
        let mut stmts = &b.stmts[..];
        // The value as an `if` expression, when the block ends in an `if` whose results are it.
        let mut if_tail = None;
        if let Some((last @ Stmt::If { results, .. }, rest)) = b.stmts.split_last()
            && !results.is_empty()
            && results.len() == b.tail.len()
            && results
                .iter()
                .zip(&b.tail)
                .all(|(r, o)| matches!((r, o), (Target::Temp(a), Operand::Temp(b)) if a == b))
            && results
                .iter()
                .all(|r| self.tape.get(Key::Value(*r)).is_none())
            && StmtRef::of(last).is_none_or(|r| self.snap_stores(At::After(r)).is_empty())
        {
            stmts = rest;
            if_tail = Some(last);
        }
        // The value as the expression of the definition before it, when nothing records it.
        let mut def_tail = None;
        if let (
            [Operand::Temp(t)],
            Some((
                Stmt::Def {
                    id,
                    target: Target::Temp(d),
                    rhs,
                    ..
                },
                rest,
            )),
        ) = (b.tail.as_slice(), stmts.split_last())
            && if_tail.is_none()
            && t == d
            && !tuple
            && self.tape.get(Key::Value(Target::Temp(*d))).is_none()
            && self.tape.get(Key::DefOut(*id)).is_none()
            && {
                let mut reads = Vec::new();
                rhs_reads(rhs, &[], &mut reads);
                reads
                    .iter()
                    .all(|(_, _, r)| self.tape.get(Key::Read(*r)).is_none())
            }
        {
            stmts = rest;
            def_tail = Some((*id, *d, rhs));
        }
        // The statements print first: a local they bind to its tape slot is read through the
        // reference from then on (`bind_in_tape`), also in the value.
        let start = self.counted(Counted::Snaps(At::Start(here)), || {
            self.snap_stores(At::Start(here))
        });
        let stmts: Vec<TokenStream> = (stmts.iter())
            .map(|s| {
                let r = StmtRef::of(s);
                let dead = r.is_some_and(|r| self.dead.borrow().contains(&r));
                let code = match r {
                    _ if dead => TokenStream::new(),
                    Some(r) => self.counted(Counted::Stmt(r), || self.stmt(s)),
                    None => self.stmt(s),
                };
                let snaps = r
                    .map(|r| {
                        self.counted(Counted::Snaps(At::After(r)), || {
                            self.snap_stores(At::After(r))
                        })
                    })
                    .unwrap_or_default();
                quote!(#code #snaps)
            })
            .collect();
        // Statements the value's expression needs first (the flag store of an `if` value).
        let mut tail_pre = TokenStream::new();
        // Whether the value is already in `f_forward_into`'s output.
        let mut written = false;
        let mut tail = if let Some(last) = if_tail {
            let (pre, expr) = self.if_expr(last);
            tail_pre = pre;
            expr
        } else if let Some((id, d, rhs)) = def_tail {
            // In `f_forward_into`, a call's value is written by the callee (see `bind_in_tape`).
            let value = self.rhs(id, Target::Temp(d), &[], rhs);
            let into = self.into.borrow().clone();
            let call = match (here, into) {
                (BlockRef::Fn, Some(out)) => self.call_into(id, rhs, quote!(#out)),
                _ => None,
            };
            written = call.is_some();
            call.unwrap_or(value)
        } else {
            match b.tail.as_slice() {
                [] => TokenStream::new(),
                [o] if !tuple => self.operand(o),
                os => {
                    let os = os.iter().map(|o| self.operand(o));
                    quote!((#(#os),*))
                }
            }
        };
        if let (BlockRef::Fn, Some(out), false) = (here, &*self.into.borrow(), written) {
            tail = quote!(*#out = #tail;);
        }
        quote!(#start #(#stmts)* #tail_pre #tail)
    }

    /// `emit()`, counting in a trial emission the tape stores it makes as `what`'s.
    fn counted(&self, what: Counted, emit: impl FnOnce() -> TokenStream) -> TokenStream {
        let before = self.written.borrow().len();
        let code = emit();
        let n = self.written.borrow().len() - before;
        if let Some(probe) = &mut *self.probe.borrow_mut() {
            probe.add(what, n);
        }
        code
    }

    /// The snapshots the plan stores at a position (the tape has a field for those the
    /// reverse sweep reads).
    fn snap_stores(&self, at: At) -> TokenStream {
        self.plan
            .snaps(at)
            .iter()
            .map(|&v| self.store(Key::Whole(v, at), &self.place(v, &[])))
            .collect()
    }
}

use quote::ToTokens;
