//! The callee contract: a trait per function that tells a caller's generated code, through the
//! type system, what the function returns and what its tape is, for the types of the arguments
//! it is called with.
//!
//! ```text
//! pub trait DotCall<A0: ?Sized, A1: ?Sized> { type Out; type Tape; }
//! impl<const N: usize> DotCall<[f64; N], [f64; N]> for () {
//!     type Out = f64;
//!     type Tape = DotTape<N>;
//! }
//! ```
//!
//! A caller names `<() as DotCall<[f64; K], [f64; K]>>::Tape` where it would name `DotTape<K>`:
//! rustc infers the constants from the argument types (each parameter's type without its
//! reference), so a call needs no turbofish, and an untyped `let y = matvec(m, v);` has the
//! type `<() as MatvecCall<..>>::Out`. A parameter whose type names none of the constants takes
//! any type in its position (a caller passes `()` for what it does not see).

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};

use crate::names::{contract_name, tape_name};

/// The contract of `func`, or nothing where it cannot be stated (a constant no parameter's type
/// names, which rustc could not infer; a lifetime in the output; a `self` receiver).
pub fn contract(func: &syn::ItemFn) -> TokenStream {
    contract_of(&func.vis, &func.sig)
}

/// The contract of a function generated with the signature `sig` (`f_grad_x`, `f_tangent`).
pub fn contract_of(vis: &syn::Visibility, sig: &syn::Signature) -> TokenStream {
    let consts: Vec<&Ident> = (sig.generics.const_params()).map(|c| &c.ident).collect();
    if sig.generics.type_params().next().is_some() {
        return TokenStream::new();
    }
    let mut fixed = Vec::new();
    let mut free = Vec::new();
    let mut named = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        let syn::FnArg::Typed(pt) = input else {
            return TokenStream::new();
        };
        let ty = pointee(&pt.ty);
        let tokens = ty.to_token_stream();
        let mentioned: Vec<&Ident> = consts
            .iter()
            .copied()
            .filter(|c| mentions(&tokens, |t| matches!(t, TokenTree::Ident(i) if i == *c)))
            .collect();
        let lifetime = mentions(
            &tokens,
            |t| matches!(t, TokenTree::Punct(p) if p.as_char() == '\''),
        );
        if mentioned.is_empty() || lifetime || matches!(ty, syn::Type::ImplTrait(_)) {
            let a = Ident::new(&format!("__A{i}"), Span::mixed_site());
            free.push(a.clone());
            fixed.push(a.to_token_stream());
        } else {
            named.extend(mentioned);
            fixed.push(tokens);
        }
    }
    if consts.iter().any(|c| !named.contains(c)) {
        return TokenStream::new();
    }
    let out = match &sig.output {
        syn::ReturnType::Type(_, t) => t.to_token_stream(),
        syn::ReturnType::Default => quote!(()),
    };
    if mentions(
        &out,
        |t| matches!(t, TokenTree::Punct(p) if p.as_char() == '\''),
    ) {
        return TokenStream::new();
    }
    let name = &sig.ident;
    let trait_name = contract_name(name);
    let tape = tape_name(name);
    let params: Vec<Ident> = (0..sig.inputs.len())
        .map(|i| format_ident!("A{i}"))
        .collect();
    let gdecl = sig.generics.const_params().map(|c| {
        let (n, t) = (&c.ident, &c.ty);
        quote!(const #n: #t,)
    });
    let guse = (!consts.is_empty()).then(|| quote!(<#(#consts),*>));
    let bare = crate::names::bare(name);
    let doc = format!(
        "The call contract of [`{bare}`]: for the types of its arguments (each without its reference), what it returns and its tape, which a `#[differentiable]` caller names without spelling `{bare}`'s constants."
    );
    let message = format!(
        "a `#[differentiable]` caller cannot tell `{bare}`'s constants from the types of the arguments it passes"
    );
    let note = format!(
        "name them at the call, as in `{bare}::<N>(..)`, or pass a `const` item or a struct field through a typed local first (`let w: [f64; 3] = W;`)"
    );
    quote! {
        #[doc = #doc]
        #[diagnostic::on_unimplemented(message = #message, label = "this call", note = #note)]
        #vis trait #trait_name<#(#params: ?::core::marker::Sized),*> {
            /// What the function returns.
            type Out;
            /// The tape its forward sweep records.
            type Tape;
        }
        impl<#(#gdecl)* #(#free: ?::core::marker::Sized),*> #trait_name<#(#fixed),*> for () {
            type Out = #out;
            type Tape = #tape #guse;
        }
    }
}

/// A parameter's type without its reference: `&[f64; N]` -> `[f64; N]`.
fn pointee(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Reference(r) => &r.elem,
        syn::Type::Paren(p) => pointee(&p.elem),
        syn::Type::Group(g) => pointee(&g.elem),
        t => t,
    }
}

/// Whether a token (in any group) satisfies `is`.
fn mentions(tokens: &TokenStream, is: impl Fn(&TokenTree) -> bool + Copy) -> bool {
    tokens.clone().into_iter().any(|t| match &t {
        TokenTree::Group(g) => mentions(&g.stream(), is),
        t => is(t),
    })
}
