//! The reverse sweep: walks the IR backwards and emits, for every active definition, the
//! propagation of its cotangent to its operands. Cotangents accumulate (`+=`); the cotangent of a
//! variable is `d_<name>` (an array of cotangents for an array), of a temporary `d_t<n>`. Values
//! the propagation reads come from the adjoint's own arguments when they are unchanged
//! parameters or loop counters, and from the tape otherwise. A loop is reversed by running the
//! same iterations backwards; values recorded in it are indexed by its iteration counter.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};

use crate::analysis::{Activity, Reach};
use crate::ir::*;
use crate::names::companion;
use crate::names::{Names, line_of, step_tape_name};
use crate::plan::Plan;
use crate::print::range_tokens;
use crate::rules::{self, Which};
use crate::tape::{Key, Spec, Tape};

pub struct Rev<'a> {
    pub f: &'a Func,
    pub act: &'a Activity,
    pub plan: &'a Plan,
    /// The forward code of each checkpointed loop's iteration, recording (`.0`) and advancing
    /// without recording (`.1`): what the sweep runs again.
    pub reruns: HashMap<usize, (TokenStream, TokenStream)>,
    /// The loops around the definition of each variable and temporary.
    value_nest: HashMap<Target, Vec<usize>>,
    /// The definition of each variable defined by a single `let` (for `#[recompute]`), and of
    /// each temporary.
    defs: HashMap<VarId, (usize, &'a Rhs)>,
    temp_defs: HashMap<TempId, &'a Rhs>,
    pub tape: Tape,
    pub names: Names,
    pub tape_ident: Ident,
    /// Forward names of temporaries (`t0`, `t1`, ... in definition order).
    pub temp_names: &'a [Option<Ident>],
    /// The cotangent of each variable (locals: a `let mut` at the top; parameters: `d_x`).
    pub d_vars: Vec<Option<Ident>>,
    /// The cotangent of each temporary, once its consumer has defined it.
    pub d_temps: Vec<Option<TokenStream>>,
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
    /// [`ACCUMULATE_HELPER`]) among its declarations.
    needs_accumulate: bool,
}

/// The right-hand side of each temporary, and of each variable defined by a single `let` (with
/// its definition's id).
type Defs<'f> = (HashMap<TempId, &'f Rhs>, HashMap<VarId, (usize, &'f Rhs)>);

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
            Stmt::If { then, els, .. } => {
                defs(then, out);
                defs(els, out);
            }
            Stmt::For { body, .. } => defs(body, out),
            _ => {}
        }
    }
}

fn value_nests(f: &Func) -> HashMap<Target, Vec<usize>> {
    fn walk(f: &Func, b: &Block, out: &mut HashMap<Target, Vec<usize>>) {
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

impl<'a> Rev<'a> {
    pub fn new(
        f: &'a Func,
        act: &'a Activity,
        plan: &'a Plan,
        temp_names: &'a [Option<Ident>],
        tape: Tape,
    ) -> Self {
        let mut names = Names::new(&["tape", "d_out"]);
        let mut d_vars = vec![None; f.vars.len()];
        for &i in &f.wrt {
            let v = f.params[i];
            d_vars[v] = Some(names.fresh(&format!("d_{}", f.vars[v].name)));
        }
        let mut decls = Vec::new();
        for (v, var) in f.vars.iter().enumerate() {
            if act.vars[v] && var.param.is_none() {
                let d = names.fresh(&format!(
                    "d_{}",
                    var.name.to_string().trim_start_matches("r#")
                ));
                let ty = f.types.tokens_infer(var.ty);
                let zero = f.types.zero_acc(var.ty);
                decls.push(quote!(let mut #d: #ty = #zero;));
                d_vars[v] = Some(d);
            }
        }
        let mut all_defs: Defs<'a> = Default::default();
        defs(&f.body, &mut all_defs);
        Rev {
            f,
            act,
            plan,
            reruns: HashMap::new(),
            value_nest: value_nests(f),
            defs: all_defs.1,
            temp_defs: all_defs.0,
            tape,
            names,
            tape_ident: Ident::new("tape", Span::mixed_site()),
            temp_names,
            d_vars,
            d_temps: vec![None; f.temps.len()],
            stable: ["d_out".to_string()].into_iter().collect(),
            tape_ty: Ident::new("Tape", Span::call_site()),
            guse: TokenStream::new(),
            decls,
            needs_accumulate: false,
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

    fn ty(&self, ty: TyId) -> TokenStream {
        self.f.types.tokens(ty)
    }

    /// The tape slot for `key` (created on first use), as the adjoint reads it.
    fn field(
        &mut self,
        key: Key,
        base: &str,
        ty: TyId,
        doc: String,
        nest: &[usize],
    ) -> TokenStream {
        if self.tape.get(key).is_none() {
            let spec = Spec {
                base,
                ty: self.ty(ty),
                init: self.f.types.zero(ty),
                init_is_call: false,
                doc,
                nest,
                main: false,
            };
            self.tape.field(key, spec, &self.f.loops);
        }
        self.tape
            .access(key, &self.tape_ident, &self.f.loops)
            .unwrap()
    }

    /// `[i][j].w`: a place's projections, with indices as the adjoint computes them.
    fn suffix(&mut self, proj: &[Proj]) -> TokenStream {
        let mut out = TokenStream::new();
        for p in proj {
            match p {
                Proj::Index(i) => {
                    let i = self.pure_val(i);
                    out.extend(quote!([#i]));
                }
                Proj::Field(f) => out.extend(quote!(.#f)),
                Proj::Deref => {}
            }
        }
        out
    }

    /// `base` followed by the projections: `(*x)` for a dereferenced parameter.
    fn project(&mut self, base: TokenStream, proj: &[Proj]) -> TokenStream {
        if matches!(proj.first(), Some(Proj::Deref)) {
            let rest = self.suffix(&proj[1..]);
            return quote!((*#base) #rest);
        }
        let suffix = self.suffix(proj);
        quote!(#base #suffix)
    }

    /// An integer or bool expression (an index, a loop bound) evaluated in the adjoint.
    fn pure_val(&mut self, p: &Pure) -> TokenStream {
        crate::print::pure_tokens(p, &mut |v, proj, read| self.var_val(v, proj, read))
    }

    /// The value of a place in a variable at one read, as the adjoint reads it.
    fn var_val(&mut self, var: VarId, proj: &[Proj], read: ReadId) -> TokenStream {
        let v = &self.f.vars[var];
        if v.param.is_some() || v.loop_var {
            let name = v.emit.to_token_stream();
            return self.project(name, proj);
        }
        let (name, ty) = (v.emit.to_string(), v.ty);
        let at = line_of(v.name.span());
        let planned = self.plan.recompute.contains(&Target::Var(var));
        if (v.recompute || planned)
            && let Some(rhs) = self.defs.get(&var).map(|&(_, rhs)| rhs)
        {
            let value = self.recompute(rhs, ty, v.recompute);
            let suffix = self.suffix(proj);
            return if proj.is_empty() {
                value
            } else {
                quote!((#value) #suffix)
            };
        }
        if !v.mutable {
            let doc = format!("`{}`{at}", v.name);
            let nest = self
                .value_nest
                .get(&Target::Var(var))
                .cloned()
                .unwrap_or_default();
            let base = self.field(Key::Value(Target::Var(var)), &name, ty, doc, &nest);
            let suffix = self.suffix(proj);
            return quote!(#base #suffix);
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
                self.field(Key::DefOut(def), &name, ty, doc, &nest)
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
                quote!((if #k > 0 { #prev } else { #first }))
            }
            _ if self.plan.snap.contains_key(&read) => {
                let snap = self.plan.snap[&read].clone();
                let doc = format!("`{}`{at} after its last write", v.name);
                let base = self.field(Key::Whole(var, snap.at), &name, ty, doc, &snap.nest);
                let suffix = self.suffix(proj);
                quote!(#base #suffix)
            }
            _ => {
                let doc = format!(
                    "`{}` where it is read",
                    crate::names::text(&self.place_text(var, proj))
                );
                let nest = self.f.reads[read].1.clone();
                let pty = self.f.reads_ty(read).unwrap_or(ty);
                self.field(Key::Read(read), &name, pty, doc, &nest)
            }
        }
    }

    fn place_text(&self, var: VarId, proj: &[Proj]) -> TokenStream {
        let name = &self.f.vars[var].name;
        let parts = proj.iter().map(|p| match p {
            Proj::Index(_) => quote!([..]),
            Proj::Field(f) => quote!(.#f),
            Proj::Deref => quote!(),
        });
        quote!(#name #(#parts)*)
    }

    /// The primal value of an operand, as the adjoint reads it.
    pub fn val(&mut self, o: &Operand) -> TokenStream {
        match o {
            Operand::Const { tokens, ty } => self.typed_literal(tokens, *ty),
            Operand::Var {
                var,
                proj,
                read,
                borrow,
                ..
            } => {
                let v = self.var_val(*var, proj, *read);
                if *borrow { quote!(&#v) } else { v }
            }
            Operand::Temp(t) => self.value_of(Target::Temp(*t)),
        }
    }

    /// A float literal with its type made explicit (`3.0` -> `3.0_f64`): in the adjoint a
    /// literal can be the receiver of a method (`a.ln()`), where its type must be known.
    fn typed_literal(&self, tokens: &TokenStream, ty: TyId) -> TokenStream {
        let suffixed = |lit: &syn::LitFloat| -> Option<TokenStream> {
            // A float of a type the macro could not tell stays unsuffixed: rustc types it.
            if !lit.suffix().is_empty()
                || self.f.types.kind(ty) != Kind::Float
                || !self.f.types.known(ty)
            {
                return None;
            }
            let t = self.f.types.tokens(ty);
            let lit = syn::LitFloat::new(&format!("{}_{t}", lit.base10_digits()), lit.span());
            Some(quote!(#lit))
        };
        if let Ok(lit) = syn::parse2::<syn::LitFloat>(tokens.clone()) {
            return suffixed(&lit).unwrap_or_else(|| tokens.clone());
        }
        if let Ok(syn::Expr::Paren(p)) = syn::parse2::<syn::Expr>(tokens.clone())
            && let syn::Expr::Unary(u) = &*p.expr
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Float(lit),
                ..
            }) = &*u.expr
            && let Some(t) = suffixed(lit)
        {
            return quote!((-#t));
        }
        tokens.clone()
    }

    /// A definition evaluated again in the reverse sweep, from its operands' values
    /// (`#[recompute] let`): calls call the primal.
    /// With `deep` (`#[recompute]`), the statement's own subexpressions are recomputed too, not
    /// read from the tape; otherwise each operand comes as the plan says.
    fn recompute(&mut self, rhs: &'a Rhs, ty: TyId, deep: bool) -> TokenStream {
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
            Rhs::Pure(p) => {
                let p = self.pure_val(p);
                quote!((#p))
            }
        }
    }

    /// The value a definition produced.
    fn out(&mut self, def: usize, target: Target, place: &[Proj]) -> TokenStream {
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

    fn value_of(&mut self, t: Target) -> TokenStream {
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
                let nest = self.value_nest.get(&t).cloned().unwrap_or_default();
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

    /// The accumulator of a place's cotangent: `d_x` (a parameter's `&mut`, dereferenced for a
    /// scalar), `d_v[i]`, `d_p.w[i]`.
    fn d_place(&mut self, var: VarId, proj: &[Proj]) -> TokenStream {
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
    fn add_into(&mut self, dst: TokenStream, src: TokenStream, ty: TyId) -> TokenStream {
        if self.f.types.kind(ty) != Kind::Array {
            return quote!(#dst += #src;);
        }
        let s = self.names.fresh("d_add");
        let mut idx = Vec::new();
        let mut lens = Vec::new();
        let mut t = ty;
        while let TyVal::Array(e, n) = self.f.types.get(t).clone() {
            idx.push(format_ident!("i{}", idx.len(), span = Span::mixed_site()));
            lens.push(n);
            t = e;
        }
        let mut body = quote!(#dst #([#idx])* += #s #([#idx])*;);
        for (i, n) in idx.iter().zip(&lens).rev() {
            body = quote!(for #i in 0..#n { #body });
        }
        quote!({ let #s = #src; #body })
    }

    /// Passes the seed `s` on to `o` unchanged: a temporary takes a stable seed as it is.
    fn pass(&mut self, o: &Operand, s: &TokenStream) -> TokenStream {
        let root = s.to_string();
        let root = root.split(' ').next().unwrap_or_default();
        if let Operand::Temp(t) = o
            && self.act.temps[*t]
            && self.stable.contains(root)
        {
            self.d_temps[*t] = Some(s.clone());
            return TokenStream::new();
        }
        self.contrib(o, |_| Some(s.clone()))
    }

    /// Adds `value()` to the cotangent of `o`, if `o` is active.
    fn contrib(
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
                let d = self.d_place(*var, proj);
                self.add_into(d, c, *ty)
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
    pub fn block(&mut self, b: &Block, seeds: &[Option<TokenStream>]) -> TokenStream {
        let mut out = TokenStream::new();
        for (o, s) in b.tail.iter().zip(seeds) {
            if let Some(s) = s {
                out.extend(self.pass(o, s));
            }
        }
        for stmt in b.stmts.iter().rev() {
            out.extend(self.stmt(stmt));
        }
        out
    }

    /// The cotangent of a definition's target, with the code that takes it: a temporary's is
    /// defined by its consumer; a variable's is taken and reset, except for a `let` outside any
    /// loop, whose cotangent is final by then (every use comes after the definition). With
    /// `post` (the definition is a call that does not read the variable, so nothing in the
    /// call's adjoint reads or writes its cotangent), the variable's cotangent is handed to the
    /// callee as it is and reset after the call (into `post`) instead of copied out first: for an
    /// array, one copy less per call.
    fn seed(
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

    /// The type of a place, following array element types (struct fields: from the IR).
    fn place_ty(&self, v: VarId, place: &[Proj]) -> TyId {
        self.f.place_ty(v, place)
    }

    fn stmt(&mut self, stmt: &Stmt) -> TokenStream {
        match stmt {
            // `v += b` and `v -= b` leave `d_v` as it is and pass it on to `b`.
            Stmt::Def {
                target: Target::Var(v),
                place,
                rhs: Rhs::Bin(op @ (BinOp::Add | BinOp::Sub), Operand::Var { var, proj, .. }, b),
                is_let: false,
                ..
            } if v == var && place.is_empty() && proj.is_empty() && self.act.vars[*v] => {
                let d = self.d_vars[*v].clone().unwrap();
                let d = if self.f.vars[*v].param.is_some() {
                    quote!(*#d)
                } else {
                    quote!(#d)
                };
                match op {
                    BinOp::Add => self.contrib(b, |_| Some(quote!(#d))),
                    _ => self.contrib(b, |_| Some(quote!(-#d))),
                }
            }
            Stmt::Def {
                id,
                target,
                place,
                rhs,
                is_let,
            } => {
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
                let t = self.block(then, &seeds);
                let e = self.block(els, &seeds);
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
            } => {
                let body = self.block(body, &[]);
                if body.is_empty() {
                    return TokenStream::new();
                }
                let lp = &self.f.loops[*id];
                let (k, i) = (lp.counter.clone(), self.f.vars[*var].emit.clone());
                let iter = self.range(range, true);
                let take = if lp.breaks {
                    let nest = lp.nest.clone();
                    let usize_ty = self.f.usize_ty;
                    let trips = self.field(
                        Key::Trips(*id),
                        &format!("trips_{id}"),
                        usize_ty,
                        format!("how many iterations loop #{id} ran"),
                        &nest,
                    );
                    quote!(.take(#trips))
                } else {
                    TokenStream::new()
                };
                if lp.checkpoint.is_none() {
                    return quote!(for (#k, #i) in #iter.enumerate() #take .rev() { #body });
                }
                // Checkpointed: restore the state saved before iteration `k`, run the iteration
                // again recording one iteration's tape, then sweep it backwards. With
                // `snapshots = S`, the state is saved every `stride` iterations only: each segment
                // is first re-run without recording to save its states on the stack.
                let (snapshots, stride) = checkpoint_layout(lp);
                // The segment buffer's length: the stride, or for a const generic trip count
                // `N` (where `div_ceil(N, S)` cannot size an array on stable Rust) `N` itself.
                let capacity = if lp.trips_generic {
                    lp.trips.clone()
                } else {
                    stride.clone().unwrap_or_default()
                };
                if lp.binomial {
                    return self.binomial(*id, &iter, &take, &body, &snapshots);
                }
                let mut restore = TokenStream::new();
                let mut seg_decl = TokenStream::new();
                let mut seg_save = TokenStream::new();
                let mut seg_restore = TokenStream::new();
                let seg_start = Ident::new("start", Span::mixed_site());
                for &v in &lp.carried.clone() {
                    let var = &self.f.vars[v];
                    let (emit, ty) = (var.emit.clone(), var.ty);
                    let tyt = self.ty(ty);
                    if !var.mutable {
                        let val = self.var_val(v, &[], usize::MAX);
                        restore.extend(quote!(let #emit: #tyt = #val;));
                        continue;
                    }
                    let count = Some(&snapshots);
                    let slot = self.snapshot_field(*id, v, count, "saved by");
                    match &stride {
                        None => restore.extend(quote!(let mut #emit: #tyt = #slot[#k];)),
                        Some(_) => {
                            let seg = format_ident!("{}_segment", emit, span = Span::mixed_site());
                            let zero = self.f.types.zero(ty);
                            let seg_index = Ident::new("segment", Span::mixed_site());
                            restore.extend(quote!(let mut #emit: #tyt = #slot[#seg_index];));
                            seg_decl.extend(
                                quote!(let mut #seg: [#tyt; #capacity] = [#zero; #capacity];),
                            );
                            seg_save.extend(quote!(#seg[#k - #seg_start] = #emit;));
                            seg_restore
                                .extend(quote!(let mut #emit: #tyt = #seg[#k - #seg_start];));
                        }
                    }
                }
                let step = crate::names::step_ident(*id);
                let step_ty = self.step_ty(*id);
                let (marker, advance) = self.reruns.get(id).cloned().unwrap_or_default();
                let Some(stride) = stride else {
                    return quote!(for (#k, #i) in #iter.enumerate() #take .rev() {
                        let mut #step = <#step_ty>::new();
                        #restore
                        #marker
                        #body
                    });
                };
                let n = Ident::new("trips", Span::mixed_site());
                let count = if lp.breaks {
                    let trips = self
                        .tape
                        .access(Key::Trips(*id), &self.tape_ident, &self.f.loops)
                        .unwrap();
                    quote!(#trips)
                } else {
                    quote!(#iter.len())
                };
                let (seg_index, len) = (
                    Ident::new("segment", Span::mixed_site()),
                    Ident::new("len", Span::mixed_site()),
                );
                quote!(
                    let #n: usize = #count;
                    for #seg_index in (0..#snapshots).rev() {
                        let #seg_start = #seg_index * #stride;
                        if #seg_start >= #n {
                            continue;
                        }
                        let #len = if #n - #seg_start < #stride { #n - #seg_start } else { #stride };
                        #restore
                        #seg_decl
                        for (#k, #i) in #iter.enumerate().skip(#seg_start).take(#len) {
                            #seg_save
                            #advance
                        }
                        for (#k, #i) in #iter.enumerate().skip(#seg_start).take(#len).rev() {
                            let mut #step = <#step_ty>::new();
                            #seg_restore
                            #marker
                            #body
                        }
                    }
                )
            }
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => TokenStream::new(),
        }
    }

    /// The tape field of checkpointed loop `l` that saves variable `v`: `count` states of it, or
    /// one (the state before the loop).
    fn snapshot_field(
        &mut self,
        l: usize,
        v: VarId,
        count: Option<&TokenStream>,
        when: &str,
    ) -> TokenStream {
        let key = Key::Snap(l, v);
        if self.tape.get(key).is_none() {
            let var = &self.f.vars[v];
            let (tyt, zero) = (self.ty(var.ty), self.f.types.zero(var.ty));
            let (ty, init) = match count {
                Some(n) => (quote!([#tyt; #n]), quote!([#zero; #n])),
                None => (tyt, zero),
            };
            let spec = Spec {
                base: &format!("{}_checkpoints", var.emit),
                ty,
                init,
                init_is_call: false,
                doc: format!("`{}` {when} checkpointed loop #{l}", var.name),
                nest: &self.f.loops[l].nest.clone(),
                main: true,
            };
            self.tape.field(key, spec, &self.f.loops);
        }
        self.tape
            .access(key, &self.tape_ident, &self.f.loops)
            .unwrap()
    }

    /// The reverse sweep of a loop checkpointed with Griewank's binomial schedule: the tape keeps
    /// the state before the loop; the sweep reverses `[lo, hi)` with `s` free snapshots by
    /// advancing to the split point `m` that the binomial bound allows, saving the state there,
    /// reversing `[m, hi)` with `s - 1` snapshots, then `[lo, m)` with `s`; one step left (or no
    /// snapshot left) is recomputed from the nearest saved state and swept back. At most `s + 1`
    /// states are live, on the sweep's stack.
    fn binomial(
        &mut self,
        id: usize,
        iter: &TokenStream,
        take: &TokenStream,
        body: &TokenStream,
        snapshots: &TokenStream,
    ) -> TokenStream {
        let lp = &self.f.loops[id];
        let (k, i) = (lp.counter.clone(), {
            let v = self.loop_var(id);
            self.f.vars[v].emit.clone()
        });
        let slot_ident = Ident::new("slot", Span::mixed_site());
        let (mut slots_decl, mut restore, mut save) =
            (TokenStream::new(), TokenStream::new(), TokenStream::new());
        for &v in &lp.carried.clone() {
            let var = &self.f.vars[v];
            let (emit, ty) = (var.emit.clone(), var.ty);
            let tyt = self.ty(ty);
            if !var.mutable {
                let val = self.var_val(v, &[], usize::MAX);
                restore.extend(quote!(let #emit: #tyt = #val;));
                continue;
            }
            let first = self.snapshot_field(id, v, None, "before");
            let states = format_ident!("{}_states", emit, span = Span::mixed_site());
            let zero = self.f.types.zero(ty);
            slots_decl.extend(quote!(
                let mut #states: [#tyt; #snapshots + 1] = [#zero; #snapshots + 1];
                #states[0] = #first;
            ));
            restore.extend(quote!(let mut #emit: #tyt = #states[#slot_ident];));
            save.extend(quote!(#states[#slot_ident + 1] = #emit;));
        }
        let step = crate::names::step_ident(id);
        let step_ty = self.step_ty(id);
        let (rerun, advance) = self.reruns.get(&id).cloned().unwrap_or_default();
        let count = if lp.breaks {
            let trips = self
                .tape
                .access(Key::Trips(id), &self.tape_ident, &self.f.loops)
                .unwrap();
            quote!(#trips)
        } else {
            quote!(#iter.len())
        };
        let _ = take;
        let [n, top, frames, lo, hi, s, m, j, binom, split, r, c, t] = [
            "trips", "top", "frames", "lo", "hi", "free", "mid", "target", "binomial", "split",
            "len", "c", "reps",
        ]
        .map(|x| Ident::new(x, Span::mixed_site()));
        quote!({
            /// `C(n, k)`, or `cap` if that is smaller.
            fn #binom(#n: usize, #j: usize, #hi: usize) -> usize {
                // With `k <= n / 2` the partial products `C(n, i)` only grow, so capping is exact.
                let #j = if #j > #n - #j { #n - #j } else { #j };
                let mut #c: usize = 1;
                for #lo in 0..#j {
                    #c = #c * (#n - #lo) / (#lo + 1);
                    if #c >= #hi {
                        return #hi;
                    }
                }
                #c
            }
            /// Where to split `len` steps with `free` snapshots besides the one holding the
            /// start: with `t` the fewest repetitions that `free + 1` snapshots need for `len`
            /// steps (`C(free + 1 + t, t) >= len`), the right part gets the most that `free`
            /// snapshots reverse in `t` repetitions, `C(free + t, t)`.
            fn #split(#r: usize, #s: usize) -> usize {
                let mut #t: usize = 1;
                while #binom(#s + 1 + #t, #s + 1, #r) < #r {
                    #t += 1;
                }
                #r - #binom(#s + #t, #s, #r).min(#r - 1)
            }
            let #n: usize = #count;
            #slots_decl
            // Pending frames: one per split on the path to the current frame that went right
            // (each spends a snapshot), plus the current pair: at most `S + 1`.
            let mut #frames = [(0usize, 0usize, 0usize, 0usize); #snapshots + 2];
            #frames[0] = (0, #n, #snapshots, 0);
            let mut #top: usize = 1;
            while #top > 0 {
                #top -= 1;
                let (#lo, #hi, #s, #slot_ident) = #frames[#top];
                if #hi <= #lo {
                    continue;
                }
                if #hi - #lo == 1 || #s == 0 {
                    for #j in (#lo..#hi).rev() {
                        #restore
                        for (#k, #i) in #iter.enumerate().skip(#lo).take(#j - #lo) {
                            #advance
                        }
                        for (#k, #i) in #iter.enumerate().skip(#j).take(1) {
                            let mut #step = <#step_ty>::new();
                            #rerun
                            #body
                        }
                    }
                    continue;
                }
                let #m = #lo + #split(#hi - #lo, #s);
                #restore
                for (#k, #i) in #iter.enumerate().skip(#lo).take(#m - #lo) {
                    #advance
                }
                #save
                #frames[#top] = (#lo, #m, #s, #slot_ident);
                #frames[#top + 1] = (#m, #hi, #s - 1, #slot_ident + 1);
                #top += 2;
            }
        })
    }

    /// The loop counter variable of loop `l`.
    fn loop_var(&self, l: usize) -> VarId {
        fn find(b: &Block, l: usize) -> Option<VarId> {
            b.stmts.iter().find_map(|s| match s {
                Stmt::For { id, var, .. } if *id == l => Some(*var),
                Stmt::For { body, .. } => find(body, l),
                Stmt::If { then, els, .. } => find(then, l).or_else(|| find(els, l)),
                _ => None,
            })
        }
        find(&self.f.body, l).unwrap()
    }

    /// The iterator of a loop, in the adjoint (`reverse`) or the forward function.
    pub fn range(&mut self, r: &Range, reverse: bool) -> TokenStream {
        let start = self.pure_val(&r.start);
        let end = self.pure_val(&r.end);
        range_tokens(start, end, r, reverse, |p| self.pure_val(p))
    }

    fn rhs(
        &mut self,
        def: usize,
        target: Target,
        place: &[Proj],
        rhs: &Rhs,
        s: &TokenStream,
    ) -> TokenStream {
        match rhs {
            Rhs::Copy(o) => self.pass(o, s),
            Rhs::Neg(o) => self.contrib(o, |_| Some(quote!(-#s))),
            Rhs::Cast(o) => {
                let ty = self.ty(self.f.operand_ty(o));
                self.contrib(o, |_| Some(quote!(#s as #ty)))
            }
            Rhs::Array(elems) => {
                let mut out = TokenStream::new();
                for (i, o) in elems.iter().enumerate() {
                    let i = proc_macro2::Literal::usize_unsuffixed(i);
                    out.extend(self.contrib(o, |_| Some(quote!(#s[#i]))));
                }
                out
            }
            Rhs::Bin(op, a, b) => {
                let (ca, cb): (TokenStream, TokenStream) = match op {
                    BinOp::Add => (self.pass(a, s), self.pass(b, s)),
                    BinOp::Sub => (self.pass(a, s), self.contrib(b, |_| Some(quote!(-#s)))),
                    BinOp::Mul => (
                        self.contrib(a, |r| {
                            let vb = r.val(b);
                            Some(quote!(#s * #vb))
                        }),
                        self.contrib(b, |r| {
                            let va = r.val(a);
                            Some(quote!(#s * #va))
                        }),
                    ),
                    BinOp::Div => (
                        self.contrib(a, |r| {
                            let vb = r.val(b);
                            Some(quote!(#s / #vb))
                        }),
                        self.contrib(b, |r| {
                            let (vb, out) = (r.val(b), r.out(def, target, place));
                            // `s / b` is also the contribution to `a`: computed once, and in
                            // parallel with the primal's division rather than after it.
                            Some(quote!(-(#s / #vb * #out)))
                        }),
                    ),
                };
                quote!(#ca #cb)
            }
            Rhs::Method {
                method, recv, args, ..
            } => {
                let fty = self.ty(self.f.operand_ty(recv));
                let name = method.name;
                let mut out = TokenStream::new();
                let value = |r: &mut Self, w: Which| match w {
                    Which::Recv => r.val(recv),
                    Which::Arg(i) => r.val(&args[i]),
                    Which::Out => r.out(def, target, place),
                };
                out.extend(self.contrib(recv, |r| {
                    rules::contribution(name, Which::Recv, s, &fty, &mut |w| value(r, w))
                }));
                for (i, a) in args.iter().enumerate() {
                    out.extend(self.contrib(a, |r| {
                        rules::contribution(name, Which::Arg(i), s, &fty, &mut |w| value(r, w))
                    }));
                }
                out
            }
            Rhs::Call { path, args, span } => {
                let out = match target {
                    Target::Var(v) => self.place_ty(v, place),
                    t => self.f.target_ty(t),
                };
                // The output cotangent: a float by value, an array or struct by reference.
                let s = if self.f.types.kind(out) == Kind::Float {
                    s.clone()
                } else {
                    quote!(&#s)
                };
                self.call(def, path, args, *span, &s)
            }
            Rhs::Pure(_) => TokenStream::new(),
        }
    }

    /// `g_adjoint(args.., &tape.g, s, &mut d_arg..)` for a call to a differentiable function (`s`
    /// by value for a float output, `&s` otherwise): one
    /// adjoint per float, float-array or struct argument (a scratch one where the argument
    /// carries no derivative), so the callee must differentiate every such parameter.
    fn call(
        &mut self,
        def: usize,
        path: &syn::Path,
        args: &[Operand],
        span: Span,
        s: &TokenStream,
    ) -> TokenStream {
        let mut pre = TokenStream::new();
        let mut post = TokenStream::new();
        let mut vals = Vec::new();
        let mut d_args = Vec::new();
        let direct = self.direct_adjoints(args);
        let mut helper = false;
        for (a, direct) in args.iter().zip(direct) {
            vals.push(self.val(a));
            let ty = self.f.operand_ty(a);
            if !self.f.types.differentiable(ty) {
                continue;
            }
            let tyt = self.f.types.tokens_infer(ty);
            let zero = self.f.types.zero_acc(ty);
            let d = match a {
                // A place that overlaps a wider one passed to the same call (`h(a[0], a)`,
                // `dot(a, a)`, `h(p.b, p)`): its adjoint goes through a scratch buffer, added in
                // after the call. A struct field's type is not known here, so its buffer is
                // made like the accumulator and added by a local helper trait.
                Operand::Var { var, proj, .. } if self.act.vars[*var] && !direct => {
                    let d = self.names.fresh("d_again");
                    let dp = self.d_place(*var, proj);
                    if proj.iter().any(|p| matches!(p, Proj::Field(_))) {
                        helper = true;
                        pre.extend(quote!(let mut #d = __StackgradAccumulate::zeroed(&#dp);));
                        post.extend(quote!(__StackgradAccumulate::add(&mut #dp, &#d);));
                    } else {
                        pre.extend(quote!(let mut #d: #tyt = #zero;));
                        post.extend(self.add_into(dp, quote!(#d), ty));
                    }
                    quote!(&mut #d)
                }
                Operand::Var { var, proj, .. } if self.act.vars[*var] => {
                    let v = &self.f.vars[*var];
                    let d = self.d_vars[*var].clone().unwrap();
                    if v.param.is_some() && proj.is_empty() {
                        quote!(&mut *#d)
                    } else {
                        let dp = self.d_place(*var, proj);
                        quote!(&mut #dp)
                    }
                }
                Operand::Temp(t) if self.act.temps[*t] => {
                    let base = format!("d_{}", self.temp_names[*t].as_ref().unwrap());
                    let d = self.names.fresh(&base);
                    pre.extend(quote!(let mut #d: #tyt = #zero;));
                    self.d_temps[*t] = Some(quote!(#d));
                    quote!(&mut #d)
                }
                // An argument without derivative gets a scratch buffer; for a struct field, whose
                // type the macro cannot see, one made like the field itself.
                Operand::Var {
                    var, proj, read, ..
                } if proj.iter().any(|p| matches!(p, Proj::Field(_))) => {
                    let d = self.names.fresh("d_unused");
                    let value = self.var_val(*var, proj, *read);
                    helper = true;
                    pre.extend(quote!(let mut #d = __StackgradAccumulate::zeroed(&#value);));
                    quote!(&mut #d)
                }
                _ => {
                    let d = self.names.fresh("d_unused");
                    pre.extend(quote!(let mut #d: #tyt = #zero;));
                    quote!(&mut #d)
                }
            };
            d_args.push(d);
        }
        if helper && !self.needs_accumulate {
            self.needs_accumulate = true;
            self.decls.push(quote!(#ACCUMULATE_HELPER));
        }
        let callee = path.segments.last().unwrap().ident.to_string();
        let tape = self.call_tape(def, path, &callee);
        let adjoint = companion(path, |i| format_ident!("{}_adjoint", i, span = span));
        quote!(#pre #adjoint(#(#vals,)* &#tape, #s, #(#d_args),*); #post)
    }

    /// Which arguments of a call get the caller's cotangent buffer itself: of the active places
    /// that overlap in one variable (`h(p.w[0], &p.w)`), the widest (fewest projections); the
    /// others go through scratch buffers, since one buffer cannot be borrowed twice.
    fn direct_adjoints(&self, args: &[Operand]) -> Vec<bool> {
        let depth = |a: &Operand| match a {
            Operand::Var { proj, .. } => proj.iter().filter(|p| !matches!(p, Proj::Deref)).count(),
            _ => 0,
        };
        let mut order: Vec<usize> = (0..args.len()).collect();
        order.sort_by_key(|&i| depth(&args[i]));
        let mut taken: Vec<(VarId, &[Proj])> = Vec::new();
        let mut direct = vec![true; args.len()];
        for i in order {
            if let Operand::Var { var, proj, ty, .. } = &args[i]
                && self.act.vars[*var]
                && self.f.types.differentiable(*ty)
            {
                if taken.iter().any(|(v, p)| v == var && !disjoint(p, proj)) {
                    direct[i] = false;
                } else {
                    taken.push((*var, proj));
                }
            }
        }
        direct
    }

    pub fn call_tape(&mut self, def: usize, path: &syn::Path, callee: &str) -> TokenStream {
        let key = Key::Call(def);
        if self.tape.get(key).is_none() {
            let ty = companion(path, crate::names::tape_name);
            let spec = Spec {
                base: callee.trim_start_matches("r#"),
                ty: ty.clone(),
                init: quote!(#ty::new()),
                init_is_call: true,
                doc: format!("the tape of the call to `{callee}`"),
                nest: &self.f.def_nest[def],
                main: false,
            };
            self.tape.field(key, spec, &self.f.loops);
        }
        self.tape
            .access(key, &self.tape_ident, &self.f.loops)
            .unwrap()
    }
}

/// Zeroed copies and element-wise sums of cotangent buffers whose type the macro cannot see (a
/// struct field passed twice to one call), for floats and arrays of them.
const ACCUMULATE_HELPER: Helper = Helper;

struct Helper;

impl ToTokens for Helper {
    fn to_tokens(&self, out: &mut TokenStream) {
        out.extend(quote! {
            trait __StackgradAccumulate: ::core::marker::Copy {
                fn zeroed(&self) -> Self;
                fn add(&mut self, other: &Self);
            }
            impl __StackgradAccumulate for f32 {
                fn zeroed(&self) -> Self { 0.0 }
                fn add(&mut self, other: &Self) { *self += *other; }
            }
            impl __StackgradAccumulate for f64 {
                fn zeroed(&self) -> Self { 0.0 }
                fn add(&mut self, other: &Self) { *self += *other; }
            }
            impl<T: __StackgradAccumulate, const N: usize> __StackgradAccumulate for [T; N] {
                fn zeroed(&self) -> Self {
                    let mut z = *self;
                    for x in z.iter_mut() { *x = x.zeroed(); }
                    z
                }
                fn add(&mut self, other: &Self) {
                    for (x, y) in self.iter_mut().zip(other.iter()) { x.add(y); }
                }
            }
        });
    }
}

/// How many states a checkpointed loop saves, and every how many iterations (`None`: every one).
pub fn checkpoint_layout(lp: &Loop) -> (TokenStream, Option<TokenStream>) {
    let trips = &lp.trips;
    match &lp.checkpoint {
        Some(Some(s)) => (
            s.clone(),
            Some(quote!(::core::primitive::usize::div_ceil(#trips, #s))),
        ),
        _ => (trips.clone(), None),
    }
}

/// Are two places in the same variable certainly disjoint, as the borrow checker sees them? Only
/// where they part at two different fields (`p.w` and `p.b`, `p.l[i].w` and `p.l[i].b`).
fn disjoint(a: &[Proj], b: &[Proj]) -> bool {
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (Proj::Field(f), Proj::Field(g)) if f != g => return true,
            (Proj::Field(_), Proj::Field(_))
            | (Proj::Index(_), Proj::Index(_))
            | (Proj::Deref, Proj::Deref) => {}
            _ => return false,
        }
    }
    false
}
