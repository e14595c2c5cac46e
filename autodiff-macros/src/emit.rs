//! IR -> tokens: the forward function (the primal in A-normal form, storing into the tape what
//! the reverse sweep asked for), and the items around the reverse sweep.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::ir::*;
use crate::lower::companion;
use crate::tape::{Key, Tape};

/// Forward names of the temporaries, in definition order: `t0`, `t1`, ...
pub fn name_temps(f: &Func) -> Vec<Option<Ident>> {
    fn name(t: Target, names: &mut [Option<Ident>], n: &mut usize) {
        if let Target::Temp(id) = t {
            names[id] = Some(Ident::new(&format!("t{n}"), Span::mixed_site()));
            *n += 1;
        }
    }
    fn walk(b: &Block, names: &mut [Option<Ident>], n: &mut usize) {
        for s in &b.stmts {
            match s {
                Stmt::Def { target, .. } => name(*target, names, n),
                Stmt::If {
                    then, els, results, ..
                } => {
                    walk(then, names, n);
                    walk(els, names, n);
                    for r in results {
                        name(*r, names, n);
                    }
                }
            }
        }
    }
    let mut names = vec![None; f.temps.len()];
    walk(&f.body, &mut names, &mut 0);
    names
}

pub struct Fwd<'a> {
    /// Field names in the order the forward sweep writes them, with a description of each.
    pub written: std::cell::RefCell<Vec<(Ident, Option<String>)>>,
    pub f: &'a Func,
    pub tape: &'a Tape,
    pub temp_names: &'a [Option<Ident>],
    pub tape_ident: &'a Ident,
}

pub fn operands(rhs: &Rhs) -> Vec<&Operand> {
    match rhs {
        Rhs::Copy(o) | Rhs::Neg(o) | Rhs::Cast(o) => vec![o],
        Rhs::Bin(_, a, b) => vec![a, b],
        Rhs::Method { recv, args, .. } => std::iter::once(recv).chain(args).collect(),
        Rhs::Call { args, .. } => args.iter().collect(),
        Rhs::Pure(_) => Vec::new(),
    }
}

impl Fwd<'_> {
    fn target(&self, t: Target) -> Ident {
        match t {
            Target::Var(v) => self.f.vars[v].emit.clone(),
            Target::Temp(t) => self.temp_names[t].clone().unwrap(),
        }
    }

    fn operand(&self, o: &Operand) -> TokenStream {
        match o {
            Operand::Var { var, .. } => {
                let v = &self.f.vars[*var].emit;
                quote!(#v)
            }
            Operand::Temp(t) => self.target(Target::Temp(*t)).into_token_stream(),
            Operand::Const { tokens, .. } => tokens.clone(),
        }
    }

    fn store(&self, key: Key, value: &impl quote::ToTokens) -> TokenStream {
        match self.tape.get(key) {
            Some(field) => {
                self.written.borrow_mut().push((field.clone(), None));
                let tape = self.tape_ident;
                quote!(#tape.#field = #value;)
            }
            None => TokenStream::new(),
        }
    }

    fn pure(&self, p: &Pure) -> TokenStream {
        let wrap = |p: &Pure| {
            let t = self.pure(p);
            match p {
                Pure::Bin(..) | Pure::Unary(..) | Pure::Cast(..) => quote!((#t)),
                _ => t,
            }
        };
        match p {
            Pure::Lit(t) => t.clone(),
            Pure::Var(v) => self.f.vars[*v].emit.clone().into_token_stream(),
            Pure::Unary(op, a) => {
                let a = wrap(a);
                quote!(#op #a)
            }
            Pure::Bin(op, a, b) => {
                let (a, b) = (wrap(a), wrap(b));
                quote!(#a #op #b)
            }
            Pure::Cast(a, ty) => {
                let a = wrap(a);
                quote!(#a as #ty)
            }
            Pure::Method(r, m, args) => {
                let r = wrap(r);
                let args = args.iter().map(|a| self.pure(a));
                quote!(#r.#m(#(#args),*))
            }
            Pure::Call(path, args) => {
                let args = args.iter().map(|a| self.pure(a));
                quote!(#path(#(#args),*))
            }
        }
    }

    fn rhs(&self, def: usize, target: Target, rhs: &Rhs) -> TokenStream {
        match rhs {
            Rhs::Copy(o) => self.operand(o),
            Rhs::Neg(o) => {
                let o = self.operand(o);
                quote!(-#o)
            }
            Rhs::Cast(o) => {
                let ty = self.f.types.tokens(self.f.target_ty(target));
                let o = self.operand(o);
                quote!(#o as #ty)
            }
            Rhs::Bin(op, a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                let op = match op {
                    BinOp::Add => quote!(+),
                    BinOp::Sub => quote!(-),
                    BinOp::Mul => quote!(*),
                    BinOp::Div => quote!(/),
                };
                quote!(#a #op #b)
            }
            Rhs::Method {
                method,
                recv,
                args,
                span,
            } => {
                let m = Ident::new(method.name, *span);
                let r = self.operand(recv);
                let args = args.iter().map(|a| self.operand(a));
                quote!(#r.#m(#(#args),*))
            }
            Rhs::Call { path, args, span } => {
                let args = args.iter().map(|a| self.operand(a));
                match self.tape.get(Key::Call(def)) {
                    Some(field) => {
                        self.written.borrow_mut().push((field.clone(), None));
                        let fwd = companion(path, |i| format_ident!("{}_forward", i, span = *span));
                        let tape = self.tape_ident;
                        quote!(#fwd(#(#args,)* &mut #tape.#field))
                    }
                    None => quote!(#path(#(#args),*)),
                }
            }
            Rhs::Pure(p) => self.pure(p),
        }
    }

    /// Stores after a definition of `target`.
    fn stores_after(&self, def: Option<usize>, target: Target) -> TokenStream {
        let name = self.target(target);
        let mut out = self.store(Key::Value(target), &name);
        if let Some(d) = def {
            out.extend(self.store(Key::DefOut(d), &name));
        }
        out
    }

    fn stmt(&self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Def {
                id,
                target,
                rhs,
                is_let,
            } => {
                let mut pre = TokenStream::new();
                for o in operands(rhs) {
                    if let Operand::Var { var, read } = o {
                        pre.extend(self.store(Key::Read(*read), &self.f.vars[*var].emit));
                    }
                }
                let value = self.rhs(*id, *target, rhs);
                if let (Target::Temp(_), Some(field)) = (target, self.tape.get(Key::Value(*target)))
                {
                    let text =
                        format!("`{} = {}`", self.target(*target), crate::emit::text(&value));
                    self.written.borrow_mut().push((field.clone(), Some(text)));
                }
                let def = self.bind(&[*target], *is_let, value);
                let post = self.stores_after(Some(*id), *target);
                quote!(#pre #def #post)
            }
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
                    .map(|r| self.stores_after(None, *r))
                    .collect();
                quote!(#pre #def #post)
            }
        }
    }

    /// `let name: T = value;`, `let (a, b) = value;` or `name = value;`.
    fn bind(&self, targets: &[Target], is_let: bool, value: TokenStream) -> TokenStream {
        if let [t] = targets {
            let name = self.target(*t);
            if !is_let {
                return quote!(#name = #value;);
            }
            return match t {
                Target::Var(v) => {
                    let var = &self.f.vars[*v];
                    let ty = self.f.types.tokens(var.ty);
                    let m = var.mutable.then(|| quote!(mut));
                    quote!(let #m #name: #ty = #value;)
                }
                Target::Temp(_) => quote!(let #name = #value;),
            };
        }
        let names = targets.iter().map(|t| self.target(*t));
        if is_let {
            quote!(let (#(#names),*) = #value;)
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
        let (pre, test) = match self.tape.get(Key::Flag(*id)) {
            Some(field) => {
                let tape = self.tape_ident;
                (quote!(#tape.#field = #cond;), quote!(#tape.#field))
            }
            None => (TokenStream::new(), cond),
        };
        let t = self.block(then, tuple);
        let e = self.block(els, tuple);
        let e = if e.is_empty() {
            quote!()
        } else {
            quote!(else { #e })
        };
        (pre, quote!(if #test { #t } #e))
    }

    /// A block's statements and its value, if it has one. An `if` that defines the value as its
    /// last statement is emitted as the value itself.
    pub fn block(&self, b: &Block, tuple: bool) -> TokenStream {
        let mut stmts = &b.stmts[..];
        let mut tail = match b.tail.as_slice() {
            [] => TokenStream::new(),
            [o] if !tuple => self.operand(o),
            os => {
                let os = os.iter().map(|o| self.operand(o));
                quote!((#(#os),*))
            }
        };
        if let Some((last @ Stmt::If { results, .. }, rest)) = b.stmts.split_last()
            && !results.is_empty()
            && results.len() == b.tail.len()
            && results
                .iter()
                .zip(&b.tail)
                .all(|(r, o)| matches!((r, o), (Target::Temp(a), Operand::Temp(b)) if a == b))
            && results
                .iter()
                .all(|r| self.stores_after(None, *r).is_empty())
        {
            let (pre, expr) = self.if_expr(last);
            stmts = rest;
            tail = quote!(#pre #expr);
        }
        if let ([Operand::Temp(t)], Some((Stmt::Def { id, target: Target::Temp(d), rhs, .. }, rest))) =
            (b.tail.as_slice(), stmts.split_last())
            && t == d
            && !tuple
            && self.stores_after(Some(*id), Target::Temp(*d)).is_empty()
            && operands(rhs).iter().all(|o| !matches!(o, Operand::Var { read, .. } if self.tape.get(Key::Read(*read)).is_some()))
        {
            stmts = rest;
            tail = self.rhs(*id, Target::Temp(*d), rhs);
        }
        let stmts = stmts.iter().map(|s| self.stmt(s));
        quote!(#(#stmts)* #tail)
    }
}

use quote::ToTokens;

/// Tokens as a person would write them, for doc comments.
pub fn text(t: &TokenStream) -> String {
    let s = t.to_string();
    s.replace(" :: ", "::")
        .replace("& mut ", "&mut ")
        .replace("& ", "&")
        .replace(" . ", ".")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
}
