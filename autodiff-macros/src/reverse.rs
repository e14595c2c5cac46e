//! The reverse sweep: walks the IR backwards and emits, for every active definition, the
//! propagation of its cotangent to its operands. Cotangents accumulate (`+=`); the cotangent of a
//! variable is `d_<name>`, of a temporary `d_t<n>`. Values the propagation reads come from the
//! adjoint's own arguments when they are unchanged parameters, and from the tape otherwise.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::analysis::Activity;
use crate::ir::*;
use crate::lower::companion;
use crate::rules::{self, Which};
use crate::tape::{Key, Tape, unique};

pub struct Names {
    used: HashSet<String>,
}

impl Names {
    pub fn new(reserved: &[&str]) -> Self {
        Names {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A fresh hygienic identifier: it can never collide with the user's names.
    pub fn fresh(&mut self, base: &str) -> Ident {
        Ident::new(&unique(&mut self.used, base), Span::mixed_site())
    }
}

pub struct Rev<'a> {
    pub f: &'a Func,
    pub act: &'a Activity,
    /// The definition each read reads, where it is unique.
    pub reaching: Vec<Option<usize>>,
    pub tape: Tape,
    pub names: Names,
    pub tape_ident: Ident,
    /// Forward names of temporaries (`t0`, `t1`, ... in definition order).
    pub temp_names: &'a [Option<Ident>],
    /// The cotangent of each variable (locals: a `let mut` at the top; parameters: `*d_x`).
    pub d_vars: Vec<Option<Ident>>,
    /// The cotangent of each temporary, once its consumer has defined it.
    pub d_temps: Vec<Option<TokenStream>>,
    /// Cotangents that are never modified once defined (`d_out`, temporaries' and assignments'
    /// seeds): a temporary that receives one of them unchanged just uses it.
    stable: HashSet<String>,
    /// `let mut d_v = -0.0;` for every active local variable. Accumulators start at `-0.0`, the
    /// additive identity of IEEE floats (`-0.0 + x == x` for every `x`, which `0.0 + x` is not
    /// for `x = -0.0`), so the compiler can drop the first addition, as in hand-written code.
    pub decls: Vec<TokenStream>,
}

impl<'a> Rev<'a> {
    pub fn new(f: &'a Func, act: &'a Activity, temp_names: &'a [Option<Ident>]) -> Self {
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
                let ty = f.types.tokens(var.ty);
                decls.push(quote!(let mut #d: #ty = -0.0;));
                d_vars[v] = Some(d);
            }
        }
        Rev {
            f,
            act,
            reaching: crate::analysis::reaching_defs(f),
            tape: Tape::default(),
            names,
            tape_ident: Ident::new("tape", Span::mixed_site()),
            temp_names,
            d_vars,
            d_temps: vec![None; f.temps.len()],
            stable: ["d_out".to_string()].into_iter().collect(),
            decls,
        }
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

    fn field(&mut self, key: Key, base: &str, ty: TyId, doc: String) -> TokenStream {
        let zero = self.f.types.zero(ty);
        let tyt = self.ty(ty);
        let name = self.tape.field(key, base, tyt, zero, doc);
        let tape = &self.tape_ident;
        quote!(#tape.#name)
    }

    /// The primal value of an operand, as the adjoint reads it.
    pub fn val(&mut self, o: &Operand) -> TokenStream {
        match o {
            Operand::Const { tokens, ty } => self.typed_literal(tokens, *ty),
            Operand::Var { var, read } => {
                let v = &self.f.vars[*var];
                if v.param.is_some() {
                    let name = &v.emit;
                    quote!(#name)
                } else if v.mutable {
                    let (key, doc) = match self.reaching.get(*read).copied().flatten() {
                        Some(def) => (
                            Key::DefOut(def),
                            format!("`{}` after an assignment", v.name),
                        ),
                        None => (Key::Read(*read), format!("`{}` where it is read", v.name)),
                    };
                    self.field(key, &v.emit.to_string(), v.ty, doc)
                } else {
                    let doc = format!("`{}`", v.name);
                    self.field(
                        Key::Value(Target::Var(*var)),
                        &v.emit.to_string(),
                        v.ty,
                        doc,
                    )
                }
            }
            Operand::Temp(t) => self.value_of(Target::Temp(*t)),
        }
    }

    /// A float literal with its type made explicit (`3.0` -> `3.0_f64`): in the adjoint a
    /// literal can be the receiver of a method (`a.ln()`), where its type must be known.
    fn typed_literal(&self, tokens: &TokenStream, ty: TyId) -> TokenStream {
        let suffixed = |lit: &syn::LitFloat| -> Option<TokenStream> {
            if !lit.suffix().is_empty() || self.f.types.kind(ty) != Kind::Float {
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

    /// The value a definition produced.
    fn out(&mut self, def: usize, target: Target) -> TokenStream {
        match target {
            Target::Var(v) if self.f.vars[v].mutable => {
                let var = &self.f.vars[v];
                let doc = format!("`{}` after an assignment", var.name);
                self.field(Key::DefOut(def), &var.emit.to_string(), var.ty, doc)
            }
            t => self.value_of(t),
        }
    }

    fn value_of(&mut self, t: Target) -> TokenStream {
        match t {
            Target::Var(v) => self.val(&Operand::Var {
                var: v,
                read: usize::MAX,
            }),
            Target::Temp(id) => {
                let name = self.temp_names[id]
                    .as_ref()
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                let ty = self.f.temps[id].ty;
                self.field(Key::Value(t), &name, ty, "an intermediate value".into())
            }
        }
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
            Operand::Var { var, .. } => {
                let d = self.d_vars[*var].clone().unwrap();
                if self.f.vars[*var].param.is_some() {
                    quote!(*#d += #c;)
                } else {
                    quote!(#d += #c;)
                }
            }
            Operand::Temp(t) => {
                let base = format!("d_{}", self.temp_names[*t].as_ref().unwrap());
                let d = self.names.fresh(&base);
                let ty = self.ty(self.f.temps[*t].ty);
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
    /// defined by its consumer; an assignment takes the variable's and resets it.
    fn seed(&mut self, target: Target, is_let: bool, pre: &mut TokenStream) -> Option<TokenStream> {
        if !self.act.target(target) {
            return None;
        }
        match target {
            Target::Temp(t) => self.d_temps[t].clone(),
            Target::Var(v) => {
                let d = self.d_vars[v].clone().unwrap();
                if is_let {
                    // Every use of the variable comes after its definition: from here on, in the
                    // reverse sweep, its cotangent no longer changes.
                    self.stable.insert(d.to_string());
                    return Some(quote!(#d));
                }
                let s = self.names.fresh(&d.to_string());
                let ty = self.ty(self.f.vars[v].ty);
                pre.extend(quote!(let #s: #ty = #d; #d = -0.0;));
                self.stable.insert(s.to_string());
                Some(quote!(#s))
            }
        }
    }

    fn stmt(&mut self, stmt: &Stmt) -> TokenStream {
        match stmt {
            // `v += b` and `v -= b` leave `d_v` as it is and pass it on to `b`.
            Stmt::Def {
                target: Target::Var(v),
                rhs: Rhs::Bin(op @ (BinOp::Add | BinOp::Sub), Operand::Var { var, .. }, b),
                is_let: false,
                ..
            } if v == var && self.act.vars[*v] => {
                let d = self.d_vars[*v].clone().unwrap();
                match op {
                    BinOp::Add => self.contrib(b, |_| Some(quote!(#d))),
                    _ => self.contrib(b, |_| Some(quote!(-#d))),
                }
            }
            Stmt::Def {
                id,
                target,
                rhs,
                is_let,
            } => {
                let mut pre = TokenStream::new();
                let Some(s) = self.seed(*target, *is_let, &mut pre) else {
                    return TokenStream::new();
                };
                let body = self.rhs(*id, *target, rhs, &s);
                quote!(#pre #body)
            }
            Stmt::If {
                id,
                then,
                els,
                results,
                is_let,
                ..
            } => {
                let mut pre = TokenStream::new();
                let seeds: Vec<_> = results
                    .iter()
                    .map(|r| self.seed(*r, *is_let, &mut pre))
                    .collect();
                let t = self.block(then, &seeds);
                let e = self.block(els, &seeds);
                if t.is_empty() && e.is_empty() {
                    return pre;
                }
                let flag = self.field(
                    Key::Flag(*id),
                    &format!("branch_{id}"),
                    self.f.flag_ty,
                    format!("whether the condition of `if` #{id} held"),
                );
                let e = if e.is_empty() {
                    quote!()
                } else {
                    quote!(else { #e })
                };
                quote!(#pre if #flag { #t } #e)
            }
        }
    }

    fn rhs(&mut self, def: usize, target: Target, rhs: &Rhs, s: &TokenStream) -> TokenStream {
        match rhs {
            Rhs::Copy(o) => self.pass(o, s),
            Rhs::Neg(o) => self.contrib(o, |_| Some(quote!(-#s))),
            Rhs::Cast(o) => {
                let ty = self.ty(self.f.operand_ty(o));
                self.contrib(o, |_| Some(quote!(#s as #ty)))
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
                            let (vb, out) = (r.val(b), r.out(def, target));
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
                let fty = self.ty(self.f.target_ty(target));
                let name = method.name;
                let mut out = TokenStream::new();
                let value = |r: &mut Self, w: Which| match w {
                    Which::Recv => r.val(recv),
                    Which::Arg(i) => r.val(&args[i]),
                    Which::Out => r.out(def, target),
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
            Rhs::Call { path, args, span } => self.call(def, path, args, *span, s),
            Rhs::Pure(_) => TokenStream::new(),
        }
    }

    /// `g_adjoint(args.., &tape.g, s, &mut d_arg..)` for a call to a differentiable function: one
    /// adjoint per float argument (a scratch one where the argument carries no derivative), so
    /// the callee must differentiate every float parameter.
    fn call(
        &mut self,
        def: usize,
        path: &syn::Path,
        args: &[Operand],
        span: Span,
        s: &TokenStream,
    ) -> TokenStream {
        let mut pre = TokenStream::new();
        let mut vals = Vec::new();
        let mut d_args = Vec::new();
        for a in args {
            vals.push(self.val(a));
            let ty = self.f.operand_ty(a);
            if self.f.types.kind(ty) != Kind::Float {
                continue;
            }
            let tyt = self.ty(ty);
            let d = match a {
                Operand::Var { var, .. } if self.act.vars[*var] => {
                    let d = self.d_vars[*var].clone().unwrap();
                    if self.f.vars[*var].param.is_some() {
                        quote!(&mut *#d)
                    } else {
                        quote!(&mut #d)
                    }
                }
                Operand::Temp(t) if self.act.temps[*t] => {
                    let base = format!("d_{}", self.temp_names[*t].as_ref().unwrap());
                    let d = self.names.fresh(&base);
                    pre.extend(quote!(let mut #d: #tyt = -0.0;));
                    self.d_temps[*t] = Some(quote!(#d));
                    quote!(&mut #d)
                }
                _ => {
                    let d = self.names.fresh("d_unused");
                    pre.extend(quote!(let mut #d: #tyt = -0.0;));
                    quote!(&mut #d)
                }
            };
            d_args.push(d);
        }
        let callee = path.segments.last().unwrap().ident.to_string();
        let tape = self.call_tape(def, path, &callee);
        let adjoint = companion(path, |i| format_ident!("{}_adjoint", i, span = span));
        quote!(#pre #adjoint(#(#vals,)* &#tape, #s, #(#d_args),*);)
    }

    pub fn call_tape(&mut self, def: usize, path: &syn::Path, callee: &str) -> TokenStream {
        let ty = companion(path, crate::lower::tape_name);
        let name = self.tape.field(
            Key::Call(def),
            callee.trim_start_matches("r#"),
            ty.clone(),
            quote!(#ty::new()),
            format!("the tape of the call to `{callee}`"),
        );
        let tape = &self.tape_ident;
        quote!(#tape.#name)
    }
}
