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

use crate::ir::{Kind, TyVal};
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
    // A tuple's elements, each its own type: a caller names an element it reads without
    // saying what it is (`let w = g(x).0;`).
    let elems: Vec<&syn::Type> = match &sig.output {
        syn::ReturnType::Type(_, t) => match &**t {
            syn::Type::Tuple(t) => t.elems.iter().collect(),
            _ => Vec::new(),
        },
        syn::ReturnType::Default => Vec::new(),
    };
    let elem_names: Vec<Ident> = (0..elems.len()).map(|k| format_ident!("Elem{k}")).collect();
    quote! {
        #[doc = #doc]
        #[diagnostic::on_unimplemented(message = #message, label = "this call", note = #note)]
        #vis trait #trait_name<#(#params: ?::core::marker::Sized),*> {
            /// What the function returns.
            type Out;
            /// The tape its forward sweep records.
            type Tape;
            #(
                /// An element of the tuple the function returns.
                type #elem_names;
            )*
        }
        impl<#(#gdecl)* #(#free: ?::core::marker::Sized),*> #trait_name<#(#fixed),*> for () {
            type Out = #out;
            type Tape = #tape #guse;
            #(type #elem_names = #elems;)*
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

/// The callee contract, and where it exists, the adjoint with one slot per parameter that
/// callers naming the contract call (`f_adjoint_call`).
pub fn items(
    func: &syn::ItemFn,
    f: &crate::ir::Func,
    d_out_by_ref: bool,
    (jvp, checked): (bool, bool),
) -> TokenStream {
    let contract = contract(func);
    if contract.is_empty() {
        return contract;
    }
    let names = func.sig.inputs.iter().map(|i| match i {
        syn::FnArg::Typed(pt) => match &*pt.pat {
            syn::Pat::Ident(pi) => Some(pi.ident.clone()),
            _ => None,
        },
        syn::FnArg::Receiver(_) => None,
    });
    let mut slots = Vec::new();
    for (i, name) in names.enumerate() {
        let Some(name) = name else {
            return contract;
        };
        let v = f.params[i];
        let ty = f.vars[v].ty;
        let differentiated = f.wrt.contains(&i).then(|| {
            let zero = (!f.slices.contains(&v)).then(|| f.types.zero(ty));
            (f.types.tokens(ty), zero)
        });
        // The zero derivative of the parameter from its value (`self`), for a caller that only
        // passes its own parameter on (`TyVal::PassedOn`): a copy of an enum, which carries
        // none; the zero of a differentiated struct or array.
        let zero_from = match f.types.get(ty) {
            TyVal::Enum(_) => Some(Zero::Blanket(
                quote!(::core::clone::Clone),
                quote!(::core::clone::Clone::clone(self)),
            )),
            TyVal::Struct(_) => Some(Zero::Blanket(
                quote!(::core::default::Default),
                quote!(<Self as ::core::default::Default>::default()),
            )),
            TyVal::PassedOn(_, zero, _) => Some(Zero::Blanket(
                zero.clone(),
                quote!(<Self as #zero>::__stackgrad_zero_of(self)),
            )),
            // Whether or not `f` differentiates it: a caller may pass an alias of the array on.
            TyVal::Array(..) => Some(Zero::Own(f.types.zero(ty))),
            _ => None,
        };
        slots.push(Slot {
            name,
            // (Not for an enum that names the function's constants: its impls would need them.)
            enum_ty: (f.types.kind(ty) == Kind::Enum)
                .then(|| f.types.tokens(ty))
                .filter(|t| {
                    !f.generics
                        .iter()
                        .any(|(c, _)| mentions(t, |tt| matches!(tt, TokenTree::Ident(i) if i == c)))
                }),
            zero_from,
            differentiated,
        });
    }
    let jvp_inline = jvp.then(|| inline_attr(&func.attrs));
    let call = adjoint_call(
        &func.vis,
        &func.sig,
        &slots,
        d_out_by_ref,
        (jvp_inline, checked),
    );
    let zeros = zero_traits(&func.vis, &func.sig, &slots);
    quote!(#contract #call #zeros)
}

/// `GZero{i}` for each parameter `i` with a [`Slot::zero_from`]: implemented for its type, its
/// `zero(&self)` the zero derivative a caller takes for a parameter it only passes on here.
fn zero_traits(vis: &syn::Visibility, sig: &syn::Signature, slots: &[Slot]) -> TokenStream {
    let consts: Vec<&syn::ConstParam> = sig.generics.const_params().collect();
    let mut out = TokenStream::new();
    for (i, (input, slot)) in sig.inputs.iter().zip(slots).enumerate() {
        let (syn::FnArg::Typed(pt), Some(zero)) = (input, &slot.zero_from) else {
            continue;
        };
        let name = crate::names::zero_name(&sig.ident, i);
        let imp = match zero {
            Zero::Blanket(bound, body) => quote! {
                impl<__T: #bound> #name for __T {
                    #[inline]
                    fn __stackgrad_zero_of(&self) -> Self {
                        #body
                    }
                }
            },
            Zero::Own(body) => {
                let ty = pointee(&pt.ty).to_token_stream();
                let gdecl = (consts.iter())
                    .filter(|c| {
                        mentions(&ty, |t| matches!(t, TokenTree::Ident(i) if *i == c.ident))
                    })
                    .map(|c| {
                        let (n, t) = (&c.ident, &c.ty);
                        quote!(const #n: #t)
                    });
                quote! {
                    impl<#(#gdecl),*> #name for #ty {
                        #[inline]
                        fn __stackgrad_zero_of(&self) -> Self {
                            #body
                        }
                    }
                }
            }
        };
        let (bare, param) = (
            crate::names::bare(&sig.ident),
            crate::names::bare(&slot.name),
        );
        let message = format!(
            "a caller passes `{{Self}}` on to `{bare}`'s parameter `{param}`, and it has no zero derivative"
        );
        let note = "a struct passed on needs `Default`, a fieldless enum `Clone` (`#[derive(Clone, Copy)]`)";
        out.extend(quote! {
            // The method's name is no name a user's own method has: the blanket impls below
            // put it on every type with the bound.
            #[doc(hidden)]
            #[diagnostic::on_unimplemented(message = #message, note = #note)]
            #vis trait #name {
                fn __stackgrad_zero_of(&self) -> Self;
            }
            #imp
        });
    }
    out
}

/// One parameter of [`adjoint_call`]: its name, and for a parameter the function
/// differentiates, its adjoint's type (`[f64; N]`) and a zero of it (none for a slice, whose
/// adjoint the caller always passes).
pub struct Slot {
    pub name: Ident,
    pub differentiated: Option<(TokenStream, Option<TokenStream>)>,
    /// A fieldless enum's type: a caller that only passes its own parameter on passes its own
    /// buffer of that type here, which carries no derivative.
    pub enum_ty: Option<TokenStream>,
    /// The zero derivative of the parameter, from its value `self` ([`zero_traits`]).
    pub zero_from: Option<Zero>,
}

/// How `GZero{i}::zero(&self)` is implemented.
#[derive(Clone)]
pub enum Zero {
    /// For every type with the bound (`Default` for a struct, `Clone` for an enum, the
    /// callee's `GZero{j}` for a parameter only passed on): no bound to check where it is
    /// defined, so a type without one compiles until a caller needs its zero.
    Blanket(TokenStream, TokenStream),
    /// For the parameter's type (an array): the zero.
    Own(TokenStream),
}

/// `g_adjoint_call`: `g_adjoint` with one slot per parameter, in order, which a caller that
/// names `g`'s tape through its contract calls. A differentiated parameter's slot takes the
/// caller's adjoint (`&mut d`) or `()` where the argument carries no derivative (a scratch
/// adjoint then); any other parameter's takes `()` only, and a derivative that reaches one is
/// one error at the call naming the parameter (`#[diagnostic::on_unimplemented]`). With
/// `jvp_inline` (its inline attribute, [`inline_attr`]), also `g_jvp_call`: `g_jvp` with one
/// tangent slot per parameter (`&t` or `()` for a
/// differentiated one, anything for any other). That relies on one rule: every function with
/// a forward mode or a tangent program also has a reverse sweep, type-checked, with the same
/// activity (`Analysed::act`) and the same choice of calls through the contract, so a caller
/// whose tangent reaches such a parameter passes a derivative to it in its reverse sweep too,
/// where the error is, once; where it does not, the call's value carries no derivative and its
/// tangent is unused. Unless `checked`, any other parameter's slot in `g_adjoint_call` takes
/// anything too (a tangent program's, under the same rule).
pub fn adjoint_call(
    vis: &syn::Visibility,
    sig: &syn::Signature,
    slots: &[Slot],
    d_out_by_ref: bool,
    (jvp_inline, checked): (Option<TokenStream>, bool),
) -> TokenStream {
    let fw = Forwarder::new(vis, sig, slots, checked);
    let mut out = fw.no_derivative_traits();
    out.extend(fw.adjoint(d_out_by_ref));
    if let Some(inline) = jvp_inline {
        out.extend(fw.jvp(&inline));
    }
    out
}

/// The forward-mode items' inline attribute: the user's `#[inline(..)]` on the function
/// (`always` to inline their sweeps into every caller, `never`), re-emitted as an outer
/// attribute (syn also lists an inner `#![inline(..)]` from the body here; copied as written
/// it would not compile before `fn f_jvp`), else `#[inline]`.
pub fn inline_attr(attrs: &[syn::Attribute]) -> TokenStream {
    match attrs.iter().find(|a| a.path().is_ident("inline")) {
        Some(a) => {
            let meta = &a.meta;
            quote!(#[#meta])
        }
        None => quote!(#[inline]),
    }
}

/// What both forwarders repeat: the function's name, generics, parameters and slots.
struct Forwarder<'a> {
    vis: &'a syn::Visibility,
    name: &'a Ident,
    /// `UpperCamelCase(name)`, the prefix of the generated traits.
    base: String,
    slots: &'a [Slot],
    lt: syn::Lifetime,
    /// `, const N: usize` per const generic, after the lifetime.
    gdecl: Vec<TokenStream>,
    /// `::<N>`, and `<N>` for the tape type.
    turbofish: Option<TokenStream>,
    gtape: Option<TokenStream>,
    /// The parameters as written (`x: &[f64; N]`), and their names.
    params: Vec<TokenStream>,
    names: Vec<Ident>,
    out: TokenStream,
    /// A derivative reaching a parameter it leaves out is an error here (not for a tangent
    /// program's, see [`adjoint_call`]).
    checked: bool,
}

impl<'a> Forwarder<'a> {
    fn new(
        vis: &'a syn::Visibility,
        sig: &'a syn::Signature,
        slots: &'a [Slot],
        checked: bool,
    ) -> Self {
        let consts: Vec<&Ident> = (sig.generics.const_params()).map(|c| &c.ident).collect();
        Forwarder {
            vis,
            name: &sig.ident,
            base: crate::names::camel(&sig.ident),
            slots,
            lt: syn::Lifetime::new("'__stackgrad", Span::mixed_site()),
            gdecl: (sig.generics.const_params())
                .map(|c| {
                    let (n, t) = (&c.ident, &c.ty);
                    quote!(, const #n: #t)
                })
                .collect(),
            turbofish: (!consts.is_empty()).then(|| quote!(::<#(#consts),*>)),
            gtape: (!consts.is_empty()).then(|| quote!(<#(#consts),*>)),
            params: (sig.inputs.iter())
                .filter_map(|i| match i {
                    syn::FnArg::Typed(pt) => Some(pt.to_token_stream()),
                    syn::FnArg::Receiver(_) => None,
                })
                .collect(),
            names: slots.iter().map(|s| s.name.clone()).collect(),
            out: match &sig.output {
                syn::ReturnType::Type(_, t) => t.to_token_stream(),
                syn::ReturnType::Default => quote!(()),
            },
            checked,
        }
    }

    /// The trait a parameter not differentiated takes in its slot: implemented for `()` only,
    /// its message naming the parameter.
    fn no_derivative(&self, param: &Ident) -> Ident {
        let param = format_ident!("{}", crate::names::bare(param));
        format_ident!("{}NoDerivative{}", self.base, crate::names::camel(&param))
    }

    fn no_derivative_traits(&self) -> TokenStream {
        let (vis, bare) = (self.vis, crate::names::bare(self.name));
        let mut out = TokenStream::new();
        for s in self.slots.iter().filter(|s| s.differentiated.is_none()) {
            let (no, param) = (self.no_derivative(&s.name), crate::names::bare(&s.name));
            let message = format!(
                "`{bare}` does not differentiate its parameter `{param}`, and a derivative reaches it at this call"
            );
            let note = format!(
                "differentiate `{param}` in `{bare}` (its `wrt(..)`), or pass it a value that carries no derivative (a parameter of the caller left out of its `wrt(..)`, a constant)"
            );
            // A caller that only passes an enum on (`TyVal::PassedOn`) has a buffer and a
            // tangent of the enum's own type for it, which carry no derivative.
            let own = (s.enum_ty.as_ref())
                .map(|t| quote!(impl #no for &mut #t {} impl #no for &#t {} impl #no for &&#t {}));
            if !self.checked {
                out.extend(quote! {
                    #[doc(hidden)]
                    #vis trait #no {}
                    impl<T: ?::core::marker::Sized> #no for T {}
                });
                continue;
            }
            out.extend(quote! {
                #[doc(hidden)]
                #[diagnostic::on_unimplemented(message = #message, label = "a derivative reaches it here", note = #note)]
                #vis trait #no {}
                impl #no for () {}
                #own
            });
        }
        out
    }

    /// For a slice parameter the function differentiates, the trait its slot takes (a
    /// derivative buffer, `mutable`, or a tangent), over the slice's type `S` (which may name
    /// the function's constants): a slice, or a reference to one, and nothing else. A zero one
    /// of the slice's run-time length would need an allocation, so a caller passing none
    /// (`()`) gets one error naming the parameter.
    fn slice_trait(&self, param: &Ident, mutable: bool, checked: bool) -> (Ident, TokenStream) {
        let (vis, lt, bare) = (self.vis, &self.lt, crate::names::bare(self.name));
        let param = crate::names::bare(param);
        let what = if mutable { "Buffer" } else { "Tangent" };
        let name = format_ident!(
            "{}Slice{}{}",
            self.base,
            what,
            crate::names::camel(&format_ident!("{}", param))
        );
        let (message, note) = (
            format!(
                "`{bare}` differentiates its slice parameter `{param}`, and this call passes no {} for it",
                if mutable {
                    "derivative buffer"
                } else {
                    "tangent"
                }
            ),
            format!(
                "a zero one of the slice's run-time length would need an allocation: differentiate the argument in the caller too (its `wrt(..)`), or leave `{param}` out of `{bare}`'s `wrt(..)`"
            ),
        );
        let m = mutable.then(|| quote!(mut));
        let reborrow = if mutable {
            quote!(&mut **self)
        } else {
            quote!(*self)
        };
        let s = quote!(S: ?::core::marker::Sized + #lt);
        let decl = quote! {
            #[doc(hidden)]
            #[diagnostic::on_unimplemented(message = #message, label = "this call", note = #note)]
            #vis trait #name<#lt, #s> {
                fn slice(self) -> &#lt #m S;
            }
            impl<#lt, #s> #name<#lt, S> for &#lt #m S {
                fn slice(self) -> &#lt #m S { self }
            }
            impl<#lt, '__stackgrad_b: #lt, #s> #name<#lt, S> for &#lt #m &'__stackgrad_b #m S {
                fn slice(self) -> &#lt #m S { #reborrow }
            }
        };
        // A tangent (and a tangent program's buffer, `checked` off): `()` too, an empty slice.
        // Where a caller's forward mode or tangent program passes none to an active call, its
        // reverse sweep passes `g` no buffer either, and the error is there, once; an inactive
        // call is not differentiated (were it, the empty slice would panic, never go unnoticed).
        let empty = (!checked || !mutable).then(|| {
            quote! {
                impl<#lt, T: #lt> #name<#lt, [T]> for () {
                    fn slice(self) -> &#lt #m [T] { &#m [] }
                }
            }
        });
        let decl = quote!(#decl #empty);
        (name, decl)
    }

    /// A slot trait `name<'a, T>`: `method(self)` gives `Some` of the reference passed (also
    /// for `&&T` where `again`), `None` for `()`.
    fn slot_trait(
        &self,
        name: &Ident,
        method: &Ident,
        refty: TokenStream,
        again: bool,
    ) -> TokenStream {
        let (vis, lt) = (self.vis, &self.lt);
        let opt = quote!(::core::option::Option);
        let bound = quote!(T: ?::core::marker::Sized + #lt);
        // A tangent that is a reference already (a reference parameter's), borrowed again.
        let twice = again.then(|| {
            quote! {
                impl<#lt, #bound> #name<#lt, T> for &#lt #refty {
                    fn #method(self) -> #opt<#refty> { #opt::Some(*self) }
                }
            }
        });
        quote! {
            #[doc(hidden)]
            #vis trait #name<#lt, #bound> {
                fn #method(self) -> #opt<#refty>;
            }
            impl<#lt, #bound> #name<#lt, T> for #refty {
                fn #method(self) -> #opt<#refty> { #opt::Some(self) }
            }
            #twice
            impl<#lt, #bound> #name<#lt, T> for () {
                fn #method(self) -> #opt<#refty> { #opt::None }
            }
        }
    }

    fn adjoint(&self, d_out_by_ref: bool) -> TokenStream {
        let Forwarder { vis, name, lt, .. } = self;
        let slot = format_ident!("{}Slot", self.base);
        let (mut params, mut lets, mut ds) = (Vec::new(), TokenStream::new(), Vec::new());
        let mut decls = TokenStream::new();
        // Numbered, so that no slot is named like a parameter (the `nested` items have `t_x`).
        for (i, s) in self.slots.iter().enumerate() {
            let d = format_ident!("__stackgrad_d{i}", span = Span::mixed_site());
            match &s.differentiated {
                Some((ty, None)) => {
                    let (tr, decl) = self.slice_trait(&s.name, true, self.checked);
                    params.push(quote!(#d: impl #tr<#lt, #ty>));
                    lets.extend(quote!(let #d: &mut #ty = #tr::slice(#d);));
                    decls.extend(decl);
                }
                Some((ty, Some(zero))) => {
                    let scratch = format_ident!("{}_scratch", d);
                    params.push(quote!(#d: impl #slot<#lt, #ty>));
                    // Zeroed only where the caller passes no buffer.
                    lets.extend(quote! {
                        let mut #scratch: #ty;
                        let #d: &mut #ty = match #slot::slot(#d) {
                            ::core::option::Option::Some(d) => d,
                            ::core::option::Option::None => {
                                #scratch = #zero;
                                &mut #scratch
                            }
                        };
                    });
                }
                None => {
                    let no = self.no_derivative(&s.name);
                    params.push(quote!(#d: impl #no));
                    continue;
                }
            }
            ds.push(d);
        }
        let (call, adjoint) = (
            format_ident!("{name}_adjoint_call"),
            format_ident!("{name}_adjoint"),
        );
        let tape = tape_name(name);
        let out = &self.out;
        let d_out_ty = if d_out_by_ref {
            quote!(&#out)
        } else {
            quote!(#out)
        };
        let (t, d_out) = (
            Ident::new("tape", Span::mixed_site()),
            Ident::new("d_out", Span::mixed_site()),
        );
        let (gdecl, tf, gtape, args, names) = (
            &self.gdecl,
            &self.turbofish,
            &self.gtape,
            &self.params,
            &self.names,
        );
        let doc = format!(
            "[`{adjoint}`] with one slot per parameter, called by `#[differentiable]` callers that name [`{tape}`] through `{}Call`: `&mut d` or `()` for a differentiated parameter, `()` for any other.",
            self.base
        );
        let traits = self.slot_trait(&slot, &format_ident!("slot"), quote!(&#lt mut T), false);
        quote! {
            #traits
            #decls
            #[doc = #doc]
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::too_many_arguments, clippy::needless_lifetimes)]
            #vis fn #call<#lt #(#gdecl)*>(#(#args,)* #t: &#tape #gtape, #d_out: #d_out_ty, #(#params),*) {
                #lets
                #adjoint #tf(#(#names,)* #t, #d_out, #(#ds),*);
            }
        }
    }

    fn jvp(&self, inline: &TokenStream) -> TokenStream {
        let Forwarder { vis, name, lt, .. } = self;
        let tan = format_ident!("{}Tangent", self.base);
        let (mut params, mut lets, mut ts) = (Vec::new(), TokenStream::new(), Vec::new());
        let mut decls = TokenStream::new();
        for (i, s) in self.slots.iter().enumerate() {
            let t = format_ident!("__stackgrad_t{i}", span = Span::mixed_site());
            let Some((ty, zero)) = &s.differentiated else {
                params.push(quote!(#t: impl ::core::marker::Sized));
                continue;
            };
            match zero {
                Some(zero) => {
                    let z = format_ident!("{}_zero", t);
                    params.push(quote!(#t: impl #tan<#lt, #ty>));
                    lets.extend(quote! {
                        let #z: #ty;
                        let #t: &#ty = match #tan::tangent(#t) {
                            ::core::option::Option::Some(t) => t,
                            ::core::option::Option::None => {
                                #z = #zero;
                                &#z
                            }
                        };
                    });
                }
                None => {
                    let (tr, decl) = self.slice_trait(&s.name, false, self.checked);
                    params.push(quote!(#t: impl #tr<#lt, #ty>));
                    lets.extend(quote!(let #t: &#ty = #tr::slice(#t);));
                    decls.extend(decl);
                }
            }
            // `g_jvp` takes a float's tangent by value, an array's or a struct's by reference.
            let float = matches!(ty.to_string().as_str(), "f64" | "f32");
            ts.push(if float { quote!(*#t) } else { quote!(#t) });
        }
        let (call, jvp) = (
            format_ident!("{name}_jvp_call"),
            format_ident!("{name}_jvp"),
        );
        let (gdecl, tf, args, names, out) = (
            &self.gdecl,
            &self.turbofish,
            &self.params,
            &self.names,
            &self.out,
        );
        let doc = format!(
            "[`{jvp}`] with one tangent slot per parameter, called by `#[differentiable]` callers in forward mode: `&t` or `()` (a zero tangent) for a differentiated parameter, `()` for any other."
        );
        let traits = self.slot_trait(&tan, &format_ident!("tangent"), quote!(&#lt T), true);
        quote! {
            #traits
            #decls
            #[doc = #doc]
            #inline
            #[allow(unused_mut, unused_variables, clippy::too_many_arguments, clippy::needless_lifetimes)]
            #vis fn #call<#lt #(#gdecl)*>(#(#args,)* #(#params),*) -> (#out, #out) {
                #lets
                #jvp #tf(#(#names,)* #(#ts),*)
            }
        }
    }
}

/// The slots of a function whose adjoint is written by hand (`custom`) or generated with every
/// float parameter differentiated (the `nested` items), from its signature: a float, an array of
/// floats or a struct (a path in `UpperCamelCase`) is differentiated.
pub fn slots_of(sig: &syn::Signature) -> Option<Vec<Slot>> {
    let mut out = Vec::new();
    for input in &sig.inputs {
        let syn::FnArg::Typed(pt) = input else {
            return None;
        };
        let syn::Pat::Ident(pi) = &*pt.pat else {
            return None;
        };
        let ty = pointee(&pt.ty);
        let zero = zero_of(ty);
        out.push(Slot {
            name: pi.ident.clone(),
            differentiated: zero.clone().map(|z| (ty.to_token_stream(), Some(z))),
            enum_ty: None,
            zero_from: match ty {
                syn::Type::Array(_) => zero.map(Zero::Own),
                syn::Type::Path(_) if zero.is_some() && !float(ty) => Some(Zero::Blanket(
                    quote!(::core::default::Default),
                    quote!(<Self as ::core::default::Default>::default()),
                )),
                _ => None,
            },
        });
    }
    Some(out)
}

/// The contract and the adjoint with one slot per parameter of a function generated with the
/// signature `sig` whose adjoint takes one buffer per float, float array or struct parameter.
pub fn by_signature(vis: &syn::Visibility, sig: &syn::Signature, jvp: bool) -> TokenStream {
    let contract = contract_of(vis, sig);
    if contract.is_empty() {
        return contract;
    }
    let Some(slots) = slots_of(sig) else {
        return contract;
    };
    let float = |t: &syn::Type| matches!(t, syn::Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32"));
    let by_ref = match &sig.output {
        syn::ReturnType::Type(_, t) => !float(t) && !matches!(&**t, syn::Type::Tuple(_)),
        syn::ReturnType::Default => false,
    };
    let call = adjoint_call(
        vis,
        sig,
        &slots,
        by_ref,
        (jvp.then(|| quote!(#[inline])), true),
    );
    let zeros = zero_traits(vis, sig, &slots);
    quote!(#contract #call #zeros)
}

/// `f64` or `f32`.
fn float(t: &syn::Type) -> bool {
    matches!(t, syn::Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32"))
}

/// A zero of a float, an array of floats or a struct type; `None` for anything else.
fn zero_of(ty: &syn::Type) -> Option<TokenStream> {
    match ty {
        syn::Type::Array(a) => {
            let e = zero_of(&a.elem)?;
            let n = &a.len;
            Some(quote!([#e; #n]))
        }
        syn::Type::Paren(p) => zero_of(&p.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let s = last.ident.to_string();
            if s == "f64" || s == "f32" {
                Some(quote!(0.0))
            } else if s.starts_with(|c: char| c.is_ascii_uppercase()) {
                Some(quote!(<#ty as ::core::default::Default>::default()))
            } else {
                None
            }
        }
        _ => None,
    }
}
