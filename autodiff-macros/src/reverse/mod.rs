//! The reverse sweep: walks the IR backwards and emits, for every active definition, the
//! propagation of its cotangent to its operands. Cotangents accumulate (`+=`); the cotangent of a
//! variable is `d_<name>` (an array of cotangents for an array), of a temporary `d_t<n>`. Values
//! the propagation reads come from the adjoint's own arguments when they are unchanged
//! parameters or loop counters, and from the tape otherwise. A loop is reversed by running the
//! same iterations backwards; values recorded in it are indexed by its iteration counter.

mod first_touch;
mod loops;
mod preacc;
mod registers;
mod rhs;
mod rows;
mod values;

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::analysis::Activity;
use crate::ir::*;
use crate::names::{Names, bare, step_tape_name};
use crate::plan::Plan;
use crate::tape::{Key, Tape};

pub struct Rev<'a> {
    pub f: &'a Func,
    pub act: &'a Activity,
    pub plan: &'a Plan,
    /// The forward code of each checkpointed loop's iteration, recording (`.0`) and advancing
    /// without recording (`.1`): what the sweep runs again.
    pub reruns: HashMap<usize, (TokenStream, TokenStream)>,
    /// The definition of each variable defined by a single `let` (for `#[recompute]`), and of
    /// each temporary.
    defs: HashMap<VarId, (usize, &'a Rhs)>,
    temp_defs: HashMap<TempId, &'a Rhs>,
    /// Definitions of places, by statement id (for arrays recomputed element by element).
    place_defs: HashMap<usize, &'a Rhs>,
    /// The local holding each array recomputed element by element, once a read asked for it.
    elem_locals: HashMap<VarId, Ident>,
    /// How many times each temporary is read.
    temp_uses: Vec<u32>,
    /// A cotangent's scaling not emitted yet: the place's key, its cotangent, the factor (see
    /// [`Self::flush_scaling`]).
    pending: Option<(String, TokenStream, f64)>,
    /// The sweep of `f_grad`, into zeroed buffers: first contributions assign (see
    /// [`first_touch`]).
    pub assign_first: bool,
    /// The places of differentiated parameters written so far.
    touched: Vec<first_touch::Root>,
    /// The run-time loop `f_grad` fuses into its forward sweep ([`crate::fused`]): the sweep
    /// leaves it out and keeps its iteration's reverse code in `fused_body`.
    pub fused: Option<usize>,
    pub fused_body: Option<TokenStream>,
    /// Set while the fused loop's iteration is generated: its reverse code runs inside the
    /// forward sweep, where the forward's own variables are in scope.
    in_fused: bool,
    /// The counter and body of each enclosing loop (no body for a checkpointed one).
    loop_stack: Vec<(VarId, Option<&'a Block>)>,
    pub tape: Tape,
    pub names: Names,
    pub tape_ident: Ident,
    /// Forward names of temporaries (`t0`, `t1`, ... in definition order).
    pub temp_names: &'a [Option<Ident>],
    /// The cotangent of each variable (locals: a `let mut` at the top; parameters: `d_x`).
    pub d_vars: Vec<Option<Ident>>,
    /// The cotangent of each temporary, once its consumer has defined it.
    pub d_temps: Vec<Option<TokenStream>>,
    /// The cotangents of the elements of calls' tuples, by the call's definition and the
    /// element's position: taken before the call's adjoint, which takes them as one tuple.
    elem_seeds: HashMap<(Target, Vec<syn::Member>), TokenStream>,
    /// The local helpers of tuple cotangents declared so far (see [`Self::tuple_seed`]).
    needs_zero: bool,
    set_helpers: HashSet<usize>,
    /// Cotangents that are never modified once defined (`d_out`, temporaries' and assignments'
    /// seeds): a temporary that receives one of them unchanged just uses it.
    stable: HashSet<String>,
    /// The tape type's name and const arguments, for the step tapes of checkpointed loops.
    pub tape_ty: Ident,
    pub guse: TokenStream,
    /// `let mut d_v = -0.0;` for every active local variable. Accumulators start at `-0.0`, the
    /// additive identity of IEEE floats (`-0.0 + x == x` for every `x`, which `0.0 + x` is not
    /// for `x = -0.0`), so the compiler can drop the first addition, as in hand-written code.
    pub decls: Vec<TokenStream>,
    /// The adjoint defines the helper trait for buffers of unknown type (see
    /// [`rhs::ACCUMULATE_HELPER`](rhs)) among its declarations.
    needs_accumulate: bool,
    /// `__StackgradCast` ([`crate::print::cast_helper`]) is among its declarations.
    needs_cast: bool,
    /// `__StackgradDOut` ([`crate::print::d_out_helper`]) is among its declarations.
    needs_d_out: bool,
    /// The `#[record(..)]` arrays widened, and the `#[recompute]` arrays computed again, into
    /// locals so far in the enclosing blocks, innermost last: later reads in scope reuse the
    /// local.
    wide: Vec<(VarId, Ident)>,
    /// Widenings and recomputations the statement being reversed asked for, emitted before its
    /// code.
    pre: TokenStream,
    /// Cotangent places held in locals while the enclosing reversed loops run (see
    /// [`registers`]): the place's key, the local, and whether the sweep used it.
    held: Vec<(String, Ident, bool)>,
    /// The variable and place of each entry of `held`.
    held_places: Vec<(VarId, Vec<Proj>)>,
    /// The rows of slices the innermost loop being swept borrows (see [`rows`]).
    rows: Option<rows::Rows>,
}

/// The right-hand side of each temporary, and of each variable defined by a single `let` (with
/// its definition's id).
/// Temporaries' definitions; variables' `let`s; every definition of a place, by statement id.
type Defs<'f> = (
    HashMap<TempId, &'f Rhs>,
    HashMap<VarId, (usize, &'f Rhs)>,
    HashMap<usize, &'f Rhs>,
);

fn defs<'f>(b: &'f Block, out: &mut Defs<'f>) {
    for s in &b.stmts {
        match s {
            Stmt::Def {
                target: Target::Temp(t),
                rhs,
                ..
            } => {
                out.0.insert(*t, rhs);
            }
            Stmt::Def {
                id,
                target: Target::Var(v),
                place,
                rhs,
                is_let: true,
            } if place.is_empty() => {
                out.1.insert(*v, (*id, rhs));
            }
            Stmt::Def { id, place, rhs, .. } if !place.is_empty() => {
                out.2.insert(*id, rhs);
            }
            Stmt::If { then, els, .. } => {
                defs(then, out);
                defs(els, out);
            }
            Stmt::For { body, .. } => defs(body, out),
            _ => {}
        }
    }
}

impl<'a> Rev<'a> {
    pub fn new(
        f: &'a Func,
        act: &'a Activity,
        plan: &'a Plan,
        temp_names: &'a [Option<Ident>],
        tape: Tape,
    ) -> Self {
        let mut names = f.fresh_names(&["tape", "d_out"]);
        let mut d_vars = vec![None; f.vars.len()];
        for &i in &f.wrt {
            let v = f.params[i];
            d_vars[v] = Some(names.fresh(&format!("d_{}", bare(&f.vars[v].name))));
        }
        let mut decls = Vec::new();
        for (v, var) in f.vars.iter().enumerate() {
            if act.vars[v] && var.param.is_none() {
                let d = names.fresh(&format!("d_{}", bare(&var.name)));
                if f.vec_lens.contains_key(&v) {
                    // Declared by `vec_decls`, which can print its length.
                    d_vars[v] = Some(d);
                    continue;
                }
                let ty = f.types.tokens_infer(var.ty);
                let zero = f.types.zero_acc(var.ty);
                decls.push(quote!(let mut #d: #ty = #zero;));
                d_vars[v] = Some(d);
            }
        }
        let mut all_defs: Defs<'a> = Default::default();
        defs(&f.body, &mut all_defs);
        let mut temp_uses = vec![0; f.temps.len()];
        crate::walk::each_operand(&f.body, &mut |o| {
            if let Operand::Temp(t) = o {
                temp_uses[*t] += 1;
            }
        });
        let mut rev = Rev {
            f,
            act,
            plan,
            reruns: HashMap::new(),
            defs: all_defs.1,
            temp_defs: all_defs.0,
            place_defs: all_defs.2,
            elem_locals: HashMap::new(),
            temp_uses,
            pending: None,
            assign_first: false,
            touched: Vec::new(),
            fused: None,
            fused_body: None,
            in_fused: false,
            loop_stack: Vec::new(),
            tape,
            names,
            tape_ident: Ident::new("tape", Span::mixed_site()),
            temp_names,
            d_vars,
            d_temps: vec![None; f.temps.len()],
            elem_seeds: HashMap::new(),
            needs_zero: false,
            set_helpers: HashSet::new(),
            // The output's cotangent, by value or, for an array or a struct, behind its
            // reference (`(*d_out)`, read in place: no copy of it).
            stable: ["d_out", "(* d_out)"]
                .map(String::from)
                .into_iter()
                .collect(),
            tape_ty: Ident::new("Tape", Span::call_site()),
            guse: TokenStream::new(),
            decls,
            needs_accumulate: false,
            needs_d_out: false,
            needs_cast: false,
            wide: Vec::new(),
            pre: TokenStream::new(),
            held: Vec::new(),
            held_places: Vec::new(),
            rows: None,
        };
        rev.vec_decls();
        rev
    }

    /// The cotangent of each `Vec` local that carries a derivative, zeroed at the top of the
    /// reverse sweep to its length (which the sweep computes from the parameters and the
    /// tape: no `Vec` local of a loop's).
    fn vec_decls(&mut self) {
        let mut vecs: Vec<(&VarId, &Pure)> = self.f.vec_lens.iter().collect();
        vecs.sort_by_key(|(v, _)| **v);
        for (&v, def) in vecs {
            let Some(d) = self.d_vars[v].clone() else {
                continue;
            };
            let ety = self.f.types.elem(self.f.vars[v].ty).unwrap();
            let zero = crate::print::typed_literal(&self.f.types, &quote!(0.0), ety);
            let zero = def.vec_filled(zero).unwrap();
            let zero = self.pure_val(&zero);
            self.decls.push(quote!(let mut #d = #zero;));
        }
    }

    /// The step tape type of checkpointed loop `l`: `FLoop0Tape<N>`.
    pub fn step_ty(&self, l: usize) -> TokenStream {
        let name = step_tape_name(&self.tape_ty, l);
        let g = &self.guse;
        quote!(#name #g)
    }

    /// The adjoint parameter of each differentiated parameter, in order.
    pub fn param_adjoints(&self) -> Vec<Ident> {
        self.f
            .wrt
            .iter()
            .map(|&i| self.d_vars[self.f.params[i]].clone().unwrap())
            .collect()
    }

    pub(super) fn ty(&self, ty: TyId) -> TokenStream {
        self.f.types.tokens(ty)
    }

    /// The accumulator of a place's cotangent: `d_x` (a parameter's `&mut`, dereferenced for a
    /// scalar), `d_v[i]`, `d_p.w[i]`.
    pub(super) fn d_place(&mut self, var: VarId, proj: &[Proj]) -> TokenStream {
        self.touch(var, proj);
        if !self.held.is_empty() {
            let key = preacc::place_key(var, proj);
            if let Some((_, local, used)) = self.held.iter_mut().find(|(k, ..)| *k == key) {
                *used = true;
                return quote!(#local);
            }
        }
        if let Some(row) = self.row_cotangent(var, proj) {
            return row;
        }
        let d = self.d_vars[var].clone().unwrap();
        let v = &self.f.vars[var];
        let proj = match proj.first() {
            Some(Proj::Deref) => &proj[1..],
            _ => proj,
        };
        if v.param.is_some() && proj.is_empty() {
            return match self.f.types.kind(v.ty) {
                Kind::Array => quote!(#d),
                _ => quote!(*#d),
            };
        }
        let suffix = self.suffix(proj);
        quote!(#d #suffix)
    }

    /// `dst += src` for a value of type `ty`: element by element for arrays.
    pub(super) fn add_into(&mut self, dst: TokenStream, src: TokenStream, ty: TyId) -> TokenStream {
        self.store(dst, src, ty, true)
    }

    /// `dst = src`, or `dst += src` (`add`), for a value of type `ty`: element by element for
    /// arrays, through the local helper trait for a float or an array the macro cannot tell
    /// ([`TyVal::Whole`]).
    fn store(&mut self, dst: TokenStream, src: TokenStream, ty: TyId, add: bool) -> TokenStream {
        let op = if add { quote!(+=) } else { quote!(=) };
        if self.f.types.kind(ty) != Kind::Array {
            return quote!(#dst #op #src;);
        }
        if self.f.types.is_whole(ty) && add {
            if !self.needs_accumulate {
                self.needs_accumulate = true;
                let helper = rhs::ACCUMULATE_HELPER;
                self.decls.push(quote!(#helper));
            }
            return quote!(__StackgradAccumulate::add(&mut #dst, &#src););
        }
        let s = self.names.fresh("d_add");
        let mut idx = Vec::new();
        let mut lens = Vec::new();
        let mut t = ty;
        while let Some((e, n)) = self.f.types.array(t) {
            idx.push(format_ident!("i{}", idx.len(), span = Span::mixed_site()));
            lens.push(n);
            t = e;
        }
        let mut body = quote!(#dst #([#idx])* #op #s #([#idx])*;);
        for (i, n) in idx.iter().zip(&lens).rev() {
            body = quote!(for #i in 0..#n { #body });
        }
        quote!({ let #s = #src; #body })
    }

    /// Passes the seed `s` on to `o` unchanged: a temporary takes a stable seed as it is.
    pub(super) fn pass(&mut self, o: &Operand, s: &TokenStream) -> TokenStream {
        let text = s.to_string();
        let root = text.split(' ').next().unwrap_or_default();
        if let Operand::Temp(t) = o
            && self.act.temps[*t]
            && (self.stable.contains(&text) || self.stable.contains(root))
        {
            self.d_temps[*t] = Some(s.clone());
            return TokenStream::new();
        }
        self.contrib(o, |_| Some(s.clone()))
    }

    /// Adds `value()` to the cotangent of `o`, if `o` is active.
    pub(super) fn contrib(
        &mut self,
        o: &Operand,
        value: impl FnOnce(&mut Self) -> Option<TokenStream>,
    ) -> TokenStream {
        if !self.act.operand(o) {
            return TokenStream::new();
        }
        let Some(c) = value(self) else {
            return TokenStream::new();
        };
        match o {
            Operand::Var { var, proj, ty, .. } => {
                let add = !self.first_touch(*var, proj);
                let d = self.d_place(*var, proj);
                self.store(d, c, *ty, add)
            }
            Operand::Temp(t) => {
                let base = format!("d_{}", self.temp_names[*t].as_ref().unwrap());
                let d = self.names.fresh(&base);
                let ty = self.f.types.tokens_infer(self.f.temps[*t].ty);
                self.d_temps[*t] = Some(quote!(#d));
                self.stable.insert(d.to_string());
                quote!(let #d: #ty = #c;)
            }
            Operand::Const { .. } => TokenStream::new(),
        }
    }

    /// The reverse of a block whose tail receives `seeds`.
    pub fn block(&mut self, b: &'a Block, seeds: &[Option<TokenStream>]) -> TokenStream {
        // Widened arrays declared in this block are out of scope after it.
        let outer = self.wide.len();
        let mut out = TokenStream::new();
        for (o, s) in b.tail.iter().zip(seeds) {
            if let Some(s) = s {
                // What the pass reads (an index of its cotangent's place) is declared first, as
                // for a statement (see `stmt`).
                let (pre, code) = self.with_pre(|r| r.pass(o, s));
                out.extend(quote!(#pre #code));
            }
        }
        for (i, stmt) in b.stmts.iter().enumerate().rev() {
            out.extend(self.stmt(stmt, &b.stmts[..i]));
        }
        out.extend(self.flush_scaling());
        // Locals the reversed statements declared are not in scope at the head.
        self.wide.truncate(outer);
        // Arrays this block declares that are recomputed element by element: computed again
        // before the reversed statements that read them.
        let mut head = TokenStream::new();
        for s in &b.stmts {
            if let Stmt::Def {
                target: Target::Var(v),
                place,
                is_let: true,
                ..
            } = s
                && place.is_empty()
                && self.plan.elementwise.contains_key(v)
            {
                // What its elements read whole is declared first (see `stmt`).
                let (pre, code) = self.with_pre(|r| r.elementwise_let(*v));
                head.extend(quote!(#pre #code));
            }
        }
        self.wide.truncate(outer);
        quote!(#head #out)
    }

    /// The cotangent of a definition's target, with the code that takes it: a temporary's is
    /// defined by its consumer; a variable's is taken and reset, except for a `let` outside any
    /// loop, whose cotangent is final by then (every use comes after the definition). With
    /// `post` (the definition is a call that does not read the variable, so nothing in the
    /// call's adjoint reads or writes its cotangent), the variable's cotangent is handed to the
    /// callee as it is and reset after the call (into `post`) instead of copied out first: for an
    /// array, one copy less per call.
    pub(super) fn seed(
        &mut self,
        target: Target,
        place: &[Proj],
        is_let: bool,
        in_loop: bool,
        pre: &mut TokenStream,
        post: Option<&mut TokenStream>,
    ) -> Option<TokenStream> {
        if !self.act.target(target) {
            return None;
        }
        match target {
            Target::Temp(t) => self.d_temps[t].clone(),
            Target::Var(v) => {
                let d = self.d_vars[v].clone().unwrap();
                if is_let && !in_loop && place.is_empty() {
                    self.stable.insert(d.to_string());
                    return Some(quote!(#d));
                }
                let ty = self.place_ty(v, place);
                let dp = self.d_place(v, place);
                let zero = self.f.types.zero_acc(ty);
                if let Some(post) = post {
                    post.extend(quote!(#dp = #zero;));
                    return Some(dp);
                }
                let s = self.names.fresh(&d.to_string());
                let tyt = self.f.types.tokens_infer(ty);
                pre.extend(quote!(let #s: #tyt = #dp; #dp = #zero;));
                self.stable.insert(s.to_string());
                Some(quote!(#s))
            }
        }
    }

    /// The adjoint of a call whose result is a tuple or a struct: its elements' cotangents
    /// (taken by their [`Rhs::Elem`] definitions, which come after it; a zero for an element
    /// that carries none) as one tuple, by value, or one struct, by reference.
    fn tuple_call(
        &mut self,
        def: usize,
        target: Target,
        (path, args, span): (&syn::Path, &[Operand], Span),
        shape: &TupleShape,
    ) -> TokenStream {
        if !self.act.target(target) {
            return TokenStream::new();
        }
        let seed = match shape {
            TupleShape::Struct(fields) => {
                let tys = args.iter().map(|a| self.f.operand_ty(a)).collect();
                let ty = self
                    .f
                    .types
                    .contract_out(&crate::types::CallOut::of(path, tys));
                let d = Ident::new("__stackgrad_d_struct", Span::mixed_site());
                let mut sets = TokenStream::new();
                // A field without a cotangent keeps the `Default`'s zero (of whatever type).
                for (name, _) in fields {
                    let at = vec![syn::Member::Named(name.clone())];
                    if let Some(v) = self.elem_seeds.remove(&(target, at)) {
                        sets.extend(quote!(#d.#name = #v;));
                    }
                }
                quote!(&{
                    let mut #d: #ty = ::core::default::Default::default();
                    #sets
                    #d
                })
            }
            shape => self.tuple_seed(target, shape, &mut Vec::new()),
        };
        self.call(def, path, args, span, &seed)
    }

    /// The cotangent of a call's tuple: each bound element's (or a zero of its type), a zero
    /// through the local `__StackgradZero` for an element bound to nothing, and for `.k` of a
    /// tuple of unknown arity `__StackgradSet{k}::with(..)`, and `__StackgradSet{j}::set(..)`
    /// on it for each further element read (the tuple's type is the callee's parameter's,
    /// which rustc infers).
    fn tuple_seed(
        &mut self,
        call: Target,
        shape: &TupleShape,
        at: &mut Vec<syn::Member>,
    ) -> TokenStream {
        match shape {
            TupleShape::Tuple(items) => {
                let mut seeds = Vec::new();
                for (k, s) in items.iter().enumerate() {
                    at.push(syn::Member::from(k));
                    seeds.push(self.tuple_seed(call, s, at));
                    at.pop();
                }
                quote!((#(#seeds,)*))
            }
            TupleShape::Elem(t) => match self.elem_seeds.remove(&(call, at.clone())) {
                Some(s) => s,
                None if self.f.types.known(self.f.target_ty(*t)) => {
                    self.f.types.zero(self.f.target_ty(*t))
                }
                None => self.zero_helper(),
            },
            TupleShape::Skip(Some(ty)) => self.f.types.zero(*ty),
            TupleShape::Skip(None) => self.zero_helper(),
            TupleShape::Field(k, inner) => {
                at.push(syn::Member::from(*k));
                let inner = self.tuple_seed(call, inner, at);
                at.pop();
                let set = self.set_helper(*k);
                quote!(#set::with(#inner))
            }
            // The first element's `with`, then each other's `set` on it.
            TupleShape::Fields(items) => {
                let mut seed = TokenStream::new();
                for (n, (k, inner)) in items.iter().enumerate() {
                    at.push(syn::Member::from(*k));
                    let inner = self.tuple_seed(call, inner, at);
                    at.pop();
                    let set = self.set_helper(*k);
                    seed = if n == 0 {
                        quote!(#set::with(#inner))
                    } else {
                        quote!(#set::set(#seed, #inner))
                    };
                }
                seed
            }
            // Only at the top of a call's shape (a struct result is not a tuple's element).
            TupleShape::Struct(_) => unreachable!("a struct result is the call's whole value"),
        }
    }

    /// `__StackgradSet{k}`, declaring the helper trait (and the zero one it needs) once.
    fn set_helper(&mut self, k: usize) -> proc_macro2::Ident {
        if self.set_helpers.insert(k) {
            self.zero_helper();
            self.decls.push(crate::print::set_helper(k));
        }
        format_ident!("__StackgradSet{}", k)
    }

    /// `__StackgradZero::zero()`, declaring the helper trait once.
    fn zero_helper(&mut self) -> TokenStream {
        if !self.needs_zero {
            self.needs_zero = true;
            self.decls.push(crate::print::zero_helper());
        }
        quote!(__StackgradZero::zero())
    }

    /// The type of a place, following array element types (struct fields: from the IR).
    pub(super) fn place_ty(&self, v: VarId, place: &[Proj]) -> TyId {
        self.f.place_ty(v, place)
    }

    /// The reverse of a statement, after the widening of the `#[record(..)]` arrays it reads
    /// (see [`Self::widened`]).
    pub(super) fn stmt(&mut self, stmt: &'a Stmt, before: &'a [Stmt]) -> TokenStream {
        let known = self.wide.len();
        let (pre, code) = self.with_pre(|r| r.stmt_code(stmt, before));
        if code.is_empty() {
            // Nothing of it was emitted, so neither were its widenings.
            self.wide.truncate(known);
            return code;
        }
        quote!(#pre #code)
    }

    /// The code `generate` returns, and what it asked to be declared before it (into `pre`:
    /// widened `#[record]` arrays, `#[recompute]` arrays computed again, the indices a pass
    /// reads). The declarations of an enclosing generation wait in its own `pre` meanwhile (a
    /// nested block's statements have their own, emitted inside that block).
    fn with_pre(
        &mut self,
        generate: impl FnOnce(&mut Self) -> TokenStream,
    ) -> (TokenStream, TokenStream) {
        let outer = std::mem::take(&mut self.pre);
        let code = generate(self);
        (std::mem::replace(&mut self.pre, outer), code)
    }

    fn stmt_code(&mut self, stmt: &'a Stmt, before: &'a [Stmt]) -> TokenStream {
        if let Stmt::Def {
            id,
            target,
            place,
            rhs,
            is_let,
        } = stmt
            && let Some(code) = self.preaccumulated(*id, (*target, place, *is_let), rhs, before)
        {
            return code;
        }
        // A pending scaling waits for the next statement with code of its own.
        let pending = self.pending.take();
        let code = self.literal_stmt(stmt);
        if code.is_empty() {
            self.pending = pending;
            return code;
        }
        self.pending = pending;
        let flushed = self.flush_scaling();
        quote!(#flushed #code)
    }

    /// The reverse of a statement, followed literally.
    fn literal_stmt(&mut self, stmt: &'a Stmt) -> TokenStream {
        match stmt {
            Stmt::Def {
                id,
                target,
                place,
                rhs,
                is_let,
            } => {
                if let Rhs::Call {
                    path,
                    args,
                    span,
                    tuple: Some(shape),
                } = rhs
                {
                    return self.tuple_call(*id, *target, (path, args, *span), shape);
                }
                let (mut pre, mut post) = (TokenStream::new(), TokenStream::new());
                let in_loop = !self.f.def_nest[*id].is_empty();
                // A call that does not read the variable it assigns.
                let hands_over = match (target, rhs) {
                    (Target::Var(v), Rhs::Call { args, .. }) => !args
                        .iter()
                        .any(|a| matches!(a, Operand::Var { var, .. } if var == v)),
                    _ => false,
                };
                let post_ref = hands_over.then_some(&mut post);
                let Some(s) = self.seed(*target, place, *is_let, in_loop, &mut pre, post_ref)
                else {
                    return TokenStream::new();
                };
                let body = self.rhs(*id, *target, place, rhs, &s);
                quote!(#pre #body #post)
            }
            Stmt::If {
                id,
                cond,
                then,
                els,
                results,
                is_let,
            } => {
                let mut pre = TokenStream::new();
                let in_loop = !self.f.if_nest[*id].is_empty();
                let seeds: Vec<_> = results
                    .iter()
                    .map(|r| self.seed(*r, &[], *is_let, in_loop, &mut pre, None))
                    .collect();
                let before = self.touched.clone();
                let t = self.block(then, &seeds);
                let after_then = std::mem::replace(&mut self.touched, before);
                let e = self.block(els, &seeds);
                self.join_touched(after_then);
                if t.is_empty() && e.is_empty() {
                    return pre;
                }
                let flag = if self.plan.recompute_flag.contains(id) {
                    let c = self.pure_val(cond);
                    quote!((#c))
                } else {
                    let nest = self.f.if_nest[*id].clone();
                    self.field(
                        Key::Flag(*id),
                        &format!("branch_{id}"),
                        self.f.flag_ty,
                        format!("whether the condition of `if` #{id} held"),
                        &nest,
                    )
                };
                if t.is_empty() {
                    return quote!(#pre if !#flag { #e });
                }
                let e = if e.is_empty() {
                    quote!()
                } else {
                    quote!(else { #e })
                };
                quote!(#pre if #flag { #t } #e)
            }
            Stmt::For {
                id,
                var,
                range,
                body,
            } => self.for_loop(*id, *var, range, body),
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => TokenStream::new(),
        }
    }
}
