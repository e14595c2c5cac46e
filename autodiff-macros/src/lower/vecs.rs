//! Locals of a length known at run time only: `let mut y = vec![0.0; n];`. A `Vec` local is an
//! array whose length is its definition's `len`: read and written by element (`y[i]`,
//! `y[i] += ..`), measured (`y.len()`), passed by reference (`&y`); never assigned, copied or
//! returned whole. Each sweep creates its own (`f_forward` the values, `f_adjoint` the
//! cotangents, `f_jvp` the tangents) once per call, sized by the same `len`.

use proc_macro2::TokenStream;
use quote::ToTokens;

use super::{Lower, err};
use crate::ir::*;

/// `vec![c; len]` (any path ending in `vec`): the macro's path and its two halves.
pub(super) fn vec_macro(e: &syn::Expr) -> Option<(TokenStream, syn::ExprRepeat)> {
    let syn::Expr::Macro(m) = e else { return None };
    if m.mac.path.segments.last()?.ident != "vec" {
        return None;
    }
    let tokens = &m.mac.tokens;
    let r: syn::ExprRepeat = syn::parse2(quote::quote!([#tokens])).ok()?;
    Some((m.mac.path.to_token_stream(), r))
}

impl Lower {
    /// `let [mut] y[: Vec<T>] = vec![c; len];`.
    pub(super) fn vec_local(
        &mut self,
        pi: &syn::PatIdent,
        ann: Option<&syn::Type>,
        init: &syn::Expr,
        out: &mut Block,
    ) {
        let pat = syn::Pat::Ident(pi.clone());
        let Some((mac, r)) = vec_macro(init) else {
            self.error(err(
                init,
                "create a `Vec` as `vec![0.0; n]` (every element one constant), then assign its elements",
            ));
            return self.poison(&pat);
        };
        let elem_ann = match ann.map(vec_elem) {
            Some(None) => {
                self.error(err(
                    ann.unwrap(),
                    "a `vec![..]` is a `Vec`: write `Vec<f64>`, or no type",
                ));
                return self.poison(&pat);
            }
            Some(Some(e)) => e.and_then(|e| self.parse_ty(e)),
            None => None,
        };
        if !self.nest.is_empty() {
            self.error(err(
                init,
                "a `Vec` is created once per call: declare it before the loops (`let mut y = vec![0.0; n];` at the top of the function) and set its elements in them",
            ));
            return self.poison(&pat);
        }
        let (elem, ety) = self.pure(&r.expr);
        if let Some(e) = elem_ann {
            self.f.types.unify(ety, e);
        }
        let Pure::Lit(elem) = elem else {
            self.error(err(
                &r.expr,
                "fill a `Vec` with a constant, as in `vec![0.0; n]`, then assign its elements",
            ));
            return self.poison(&pat);
        };
        let (len, lty) = self.pure(&r.len);
        let usize_ty = self.f.usize_ty;
        self.f.types.unify(lty, usize_ty);
        let ty = self.f.types.fresh(TyVal::Vec(ety));
        let var = self.declare(&pi.ident, pi.mutability.is_some(), ty, None);
        let def = Pure::Vec {
            mac,
            elem,
            len: Box::new(len.clone()),
        };
        self.f.vec_lens.insert(var, def.clone());
        let id = self.def_id();
        out.stmts.push(Stmt::Def {
            id,
            target: Target::Var(var),
            place: Vec::new(),
            rhs: Rhs::Pure(def),
            is_let: true,
        });
    }

    /// `y.len()` of a `Vec` local `y`: its definition's length, which every sweep can compute
    /// (the reverse sweep has no `y`).
    pub(super) fn vec_len(&self, recv: &syn::Expr) -> Option<Pure> {
        let v = self.vec_var(recv)?;
        match self.f.vec_lens.get(&v) {
            Some(Pure::Vec { len, .. }) => Some((**len).clone()),
            _ => None,
        }
    }

    /// The `Vec` local an expression names whole (`y`, `&y`), if it names one.
    fn vec_var(&self, e: &syn::Expr) -> Option<VarId> {
        let e = match e {
            syn::Expr::Reference(r) => &*r.expr,
            syn::Expr::Paren(p) => &*p.expr,
            e => e,
        };
        let syn::Expr::Path(p) = e else { return None };
        match self.binding(&p.path.get_ident()?.to_string())? {
            super::Binding::Var(v) if self.is_vec(v) => Some(v),
            _ => None,
        }
    }

    /// An error where a `Vec` local is used whole (copied, moved, returned, passed to a
    /// function): the sweeps keep no copy of one, so it is read and written by element only.
    pub(super) fn vec_whole(&mut self, e: &syn::Expr) -> bool {
        let Some(v) = self.vec_var(e) else {
            return false;
        };
        let name = self.f.vars[v].name.clone();
        let msg = if matches!(e, syn::Expr::Reference(_)) {
            format!(
                "`{name}` is a `Vec` local, which cannot be passed to a function: the call's adjoint would need a copy of it at the call, which the tape does not keep. Pass an array (`[f64; N]`), or write the callee's loop here, reading `{name}[i]`"
            )
        } else {
            format!(
                "`{name}` is a `Vec` local, read and written by element (`{name}[i]`) and measured (`{name}.len()`): it cannot be copied, moved or returned whole. Return an element or a sum of them, or use an array (`[f64; N]`) for a value passed around whole"
            )
        };
        self.error(err(e, msg));
        true
    }

    /// Whether `v` is a `Vec` local.
    pub(super) fn is_vec(&self, v: VarId) -> bool {
        matches!(self.f.types.get(self.f.vars[v].ty), TyVal::Vec(..))
    }
}

/// `Vec<T>`, `alloc::vec::Vec<T>` (`Some(Some(Some(T)))`), `Vec<_>` or `Vec`
/// (`Some(Some(None))`): the type a `vec![..]` has; `Some(None)` for another type.
fn vec_elem(t: &syn::Type) -> Option<Option<&syn::Type>> {
    let syn::Type::Path(p) = t else { return None };
    let last = p.path.segments.last().filter(|s| s.ident == "Vec")?;
    Some(match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first() {
            Some(syn::GenericArgument::Type(syn::Type::Infer(_))) => None,
            Some(syn::GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    })
}

/// Suffixes each `Vec` local's constant with its element type where inference found it
/// (`vec![0.0_f32; n]`): each sweep's `Vec` of cotangents or tangents is then typed where
/// nothing else would type it, as the user's annotation types the primal's.
pub(super) fn type_elements(f: &mut Func) {
    fn block(b: &mut Block, vars: &[Var], types: &Types) {
        for s in &mut b.stmts {
            match s {
                Stmt::Def {
                    rhs: Rhs::Pure(Pure::Vec { elem, .. }),
                    target: Target::Var(v),
                    ..
                } => {
                    if let Some(ety) = types.elem(vars[*v].ty) {
                        *elem = crate::print::typed_literal(types, elem, ety);
                    }
                }
                Stmt::If { then, els, .. } => {
                    block(then, vars, types);
                    block(els, vars, types);
                }
                Stmt::For { body, .. } => block(body, vars, types),
                _ => {}
            }
        }
    }
    // (The copy in `vec_lens` keeps its constant: the sweeps read only its length there.)
    block(&mut f.body, &f.vars, &f.types);
}
