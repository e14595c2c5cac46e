//! `if` in the tangent sweep: each branch computes its values and their tangents, and the
//! statement binds both.

use proc_macro2::TokenStream;
use quote::quote;

use super::Tan;
use crate::ir::*;

impl Tan<'_> {
    /// `if`: with results, each branch yields their values and tangents.
    pub(super) fn if_stmt(&mut self, s: &Stmt) -> TokenStream {
        let Stmt::If {
            cond,
            then,
            els,
            results,
            is_let,
            ..
        } = s
        else {
            unreachable!()
        };
        let cond = self.fwd.pure(cond);
        let tys: Vec<TyId> = results.iter().map(|r| self.f.target_ty(*r)).collect();
        let (t_stmts, t_vals, t_tans) = self.block(then, &tys);
        let (e_stmts, e_vals, e_tans) = self.block(els, &tys);
        if results.is_empty() {
            let e = if e_stmts.is_empty() {
                quote!()
            } else {
                quote!(else { #e_stmts })
            };
            return quote!(if #cond { #t_stmts } #e);
        }
        // Only active results carry a tangent.
        let keep: Vec<bool> = results.iter().map(|r| self.act.target(*r)).collect();
        let pick = |tans: &[TokenStream]| -> Vec<TokenStream> {
            tans.iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(t, _)| t.clone())
                .collect()
        };
        let (t_tans, e_tans) = (pick(&t_tans), pick(&e_tans));
        let mut names: Vec<TokenStream> = Vec::new();
        let mut ts: Vec<TokenStream> = Vec::new();
        // The types, as the primal's `let` has them: a branch of literals alone leaves rustc a
        // `{float}` it cannot call methods on (`let t: f32 = if c { 0.6 } else { -0.9 }`).
        let (mut name_tys, mut t_tys) = (Vec::new(), Vec::new());
        for ((r, k), &ty) in results.iter().zip(&keep).zip(&tys) {
            let m = matches!(r, Target::Var(v) if *is_let && self.f.vars[*v].mutable)
                .then(|| quote!(mut));
            let n = self.fwd.target(*r);
            names.push(quote!(#m #n));
            if *k {
                let t = self.t_target(*r, &[]).unwrap();
                ts.push(quote!(#m #t));
                t_tys.push(self.t_ty_or_infer(ty));
            }
            name_tys.push(self.f.types.tokens_or_infer(ty));
        }
        let value = quote! {
            if #cond { #t_stmts (#(#t_vals,)* #(#t_tans,)*) } else { #e_stmts (#(#e_vals,)* #(#e_tans,)*) }
        };
        if *is_let {
            quote!(let (#(#names,)* #(#ts,)*): (#(#name_tys,)* #(#t_tys,)*) = #value;)
        } else {
            quote!((#(#names,)* #(#ts,)*) = #value;)
        }
    }
}
