//! IR as tokens where both sweeps print it the same way: integer and bool expression trees, and
//! loop iterators.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::*;

/// An expression tree as tokens, with `leaf` giving each variable read (forward and reverse
/// sweeps differ only there).
pub fn pure_tokens(
    p: &Pure,
    leaf: &mut dyn FnMut(VarId, &[Proj], ReadId) -> TokenStream,
) -> TokenStream {
    let wrap = |p: &Pure, leaf: &mut dyn FnMut(VarId, &[Proj], ReadId) -> TokenStream| {
        let t = pure_tokens(p, leaf);
        match p {
            Pure::Bin(..) | Pure::Unary(..) | Pure::Cast(..) => quote!((#t)),
            _ => t,
        }
    };
    match p {
        Pure::Lit(t) => t.clone(),
        Pure::Var(v, proj, read) => leaf(*v, proj, *read),
        Pure::Unary(op, a) => {
            let a = wrap(a, leaf);
            quote!(#op #a)
        }
        Pure::Bin(op, a, b) => {
            let a = wrap(a, leaf);
            let b = wrap(b, leaf);
            quote!(#a #op #b)
        }
        Pure::Cast(a, ty) => {
            let a = wrap(a, leaf);
            quote!(#a as #ty)
        }
        Pure::Method(r, m, args) => {
            let r = wrap(r, leaf);
            let args: Vec<_> = args.iter().map(|a| pure_tokens(a, leaf)).collect();
            quote!(#r.#m(#(#args),*))
        }
        Pure::Call(path, args) => {
            let args: Vec<_> = args.iter().map(|a| pure_tokens(a, leaf)).collect();
            quote!(#path(#(#args),*))
        }
        Pure::Ref(a) => {
            let a = pure_tokens(a, leaf);
            quote!(&#a)
        }
        Pure::If(c, a, b) => {
            let (c, a, b) = (
                pure_tokens(c, leaf),
                pure_tokens(a, leaf),
                pure_tokens(b, leaf),
            );
            quote!((if #c { #a } else { #b }))
        }
    }
}

/// `(start..end).rev().step_by(k)` as the user wrote it; the adjoint spells `a..=b` as
/// `a..b + 1` so that the iterator can be enumerated backwards.
pub fn range_tokens(
    start: TokenStream,
    end: TokenStream,
    r: &Range,
    reverse: bool,
    mut pure: impl FnMut(&Pure) -> TokenStream,
) -> TokenStream {
    let mut it = match (r.inclusive, reverse) {
        (true, true) => quote!((#start..#end + 1)),
        (true, false) => quote!((#start..=#end)),
        (false, _) => quote!((#start..#end)),
    };
    for a in &r.adapters {
        it = match a {
            Adapter::Rev => quote!(#it.rev()),
            Adapter::StepBy(k) => {
                let k = pure(k);
                quote!(#it.step_by(#k))
            }
        };
    }
    it
}

/// A float literal with its type made explicit (`3.0` -> `3.0_f64`): in the adjoint a
/// literal can be the receiver of a method (`a.ln()`), where its type must be known.
pub fn typed_literal(types: &Types, tokens: &TokenStream, ty: TyId) -> TokenStream {
    let suffixed = |lit: &syn::LitFloat| -> Option<TokenStream> {
        // A float of a type the macro could not tell stays unsuffixed: rustc types it.
        if !lit.suffix().is_empty() || types.kind(ty) != Kind::Float || !types.known(ty) {
            return None;
        }
        let t = types.tokens(ty);
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
