//! `#[differentiable] impl Model { .. }`: a model as a struct with methods. Each `&self`
//! method of the block whose result is a float, an array of floats or a tuple of them becomes a
//! hidden free function of the struct, `__model_loss(self_: &Model, ..)`, with `self` renamed
//! and `self.other(..)` calls turned into calls of the other method's hidden function; the rest
//! of the pipeline differentiates it like any function, so its tape type is `ModelLossTape`,
//! beside the `impl`. The block then gets one method per generated function (`loss_forward`,
//! `loss_adjoint`, `loss_grad`, ..) that passes its arguments on. By default a method is
//! differentiated with respect to `self` alone (the model's parameters; the other arguments are
//! data); `#[wrt(self, x)]` on the method widens it, like `wrt(..)` on a free function.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;
use syn::visit_mut::VisitMut;

use crate::names::SELF;
use syn::{Token, parse_quote};

use crate::args::Args;
use crate::ir::Callee;

/// One method to differentiate.
pub struct Method {
    /// The hidden free function: the method with `self_: &Model` for `&self`.
    pub hidden: syn::ItemFn,
    /// The block's arguments, with the method's `wrt`.
    pub args: Args,
}

/// An `impl` block taken apart.
pub struct Block {
    /// The block as written, less the `#[wrt(..)]` attributes only this macro reads.
    pub item: syn::ItemImpl,
    /// The methods to differentiate, in order.
    pub methods: Vec<Method>,
    /// The generics of the block, which the hidden functions add before the method's own.
    impl_generics: HashSet<String>,
    /// What the hidden functions' names start with: `__model_`.
    prefix: String,
    /// The struct's name, as doc comments name its methods: `Model`.
    type_name: String,
}

/// Takes the block apart: checks it, and makes the hidden function of each method.
pub fn split(args: &Args, item: &syn::ItemImpl) -> syn::Result<Block> {
    if let Some((_, path, _)) = &item.trait_ {
        return Err(syn::Error::new_spanned(
            path,
            "`#[differentiable]` applies to an inherent `impl` block (`impl Model { .. }`), not to a trait implementation; differentiate the method in an inherent block and call it from the trait's",
        ));
    }
    if let Some(wrt) = &args.wrt {
        return Err(syn::Error::new(
            wrt[0].span(),
            "on an `impl` block, write `#[wrt(self, x)]` on the method instead: a method is differentiated with respect to `self` alone unless it says otherwise",
        ));
    }
    let type_name = match &*item.self_ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().expect("a path").ident.clone()
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "`#[differentiable]` applies to the `impl` block of a named struct, as in `impl Model { .. }`",
            ));
        }
    };
    let prefix = snake(&type_name);
    let mut item = item.clone();
    let mut names = HashSet::new();
    let mut wrts = Vec::new();
    for it in &mut item.items {
        let syn::ImplItem::Fn(m) = it else { continue };
        let wrt = take_wrt(&mut m.attrs)?;
        if differentiated(&m.sig) {
            names.insert(m.sig.ident.to_string());
            wrts.push((m.clone(), wrt));
        } else if let Some((attr, _)) = wrt {
            return Err(syn::Error::new_spanned(
                attr,
                "`#[wrt(..)]` on a method this macro does not differentiate: it differentiates the methods that take `&self` and return `f32`, `f64`, an array of them or a tuple of them",
            ));
        }
    }
    let known = known_callees(&prefix, &wrts);
    let rename = Rename {
        names,
        prefix: prefix.clone(),
        self_ty: (*item.self_ty).clone(),
        generic_args: item
            .generics
            .params
            .iter()
            .filter(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
            .map(|p| generic_name(p).clone())
            .collect(),
    };
    let methods = wrts
        .into_iter()
        .map(|(m, wrt)| {
            let mut args = args.clone();
            args.known = known.clone();
            args.wrt = Some(match wrt {
                Some((_, list)) => list,
                None => vec![Ident::new(SELF, Span::call_site())],
            });
            Method {
                hidden: rename.hidden(&item.generics, m),
                args,
            }
        })
        .collect();
    let impl_generics = item
        .generics
        .params
        .iter()
        .map(|p| generic_name(p).to_string())
        .collect();
    Ok(Block {
        item,
        methods,
        impl_generics,
        prefix,
        type_name: type_name.to_string(),
    })
}

/// A method's `#[wrt(..)]` attribute and its list, if it has one.
type Wrt = Option<(syn::Attribute, Vec<Ident>)>;

/// What each method's callers must know of it: by hidden name, its parameters and which of
/// them it differentiates (`self` alone without `#[wrt(..)]`).
fn known_callees(prefix: &str, methods: &[(syn::ImplItemFn, Wrt)]) -> HashMap<String, Callee> {
    methods
        .iter()
        .map(|(m, wrt)| {
            let listed = |name: &str| match wrt {
                Some((_, list)) => list.iter().any(|w| w == name),
                None => name == SELF,
            };
            let params = m
                .sig
                .inputs
                .iter()
                .map(|input| match input {
                    syn::FnArg::Receiver(_) => ("self".to_string(), listed(SELF)),
                    syn::FnArg::Typed(pt) => {
                        let name = match &*pt.pat {
                            syn::Pat::Ident(pi) => pi.ident.to_string(),
                            other => other.to_token_stream().to_string(),
                        };
                        let d = listed(&name);
                        (name, d)
                    }
                })
                .collect();
            let callee = Callee {
                name: m.sig.ident.to_string(),
                params,
                slots: Vec::new(),
            };
            (format!("{prefix}{}", m.sig.ident), callee)
        })
        .collect()
}

/// `Model` -> `__model_`, `MyNet` -> `__my_net_`.
fn snake(ident: &Ident) -> String {
    let mut s = String::from("__");
    for (i, c) in ident.to_string().chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            s.push('_');
        }
        s.extend(c.to_lowercase());
    }
    s.push('_');
    s
}

/// Removes a `#[wrt(self, x)]` attribute and returns its list (`self` as `self_`).
fn take_wrt(attrs: &mut Vec<syn::Attribute>) -> syn::Result<Wrt> {
    let Some(pos) = attrs.iter().position(|a| a.path().is_ident("wrt")) else {
        return Ok(None);
    };
    let attr = attrs.remove(pos);
    let list = attr.parse_args_with(|input: syn::parse::ParseStream| {
        Punctuated::<Ident, Token![,]>::parse_terminated_with(input, Ident::parse_any)
    })?;
    if list.is_empty() {
        return Err(syn::Error::new_spanned(
            &attr,
            "`#[wrt()]` names no parameter: list the parameters to differentiate, as in `#[wrt(self, x)]`",
        ));
    }
    let list = list
        .into_iter()
        .map(|i| match i == "self" {
            true => Ident::new(SELF, i.span()),
            false => i,
        })
        .collect();
    Ok(Some((attr, list)))
}

/// Does the macro differentiate this method: `&self`, and a result of floats?
fn differentiated(sig: &syn::Signature) -> bool {
    let by_ref = matches!(sig.inputs.first(),
        Some(syn::FnArg::Receiver(r)) if r.reference.is_some() && r.mutability.is_none());
    by_ref && matches!(&sig.output, syn::ReturnType::Type(_, t) if floats(t))
}

fn floats(t: &syn::Type) -> bool {
    match t {
        syn::Type::Path(p) => p.path.is_ident("f32") || p.path.is_ident("f64"),
        syn::Type::Array(a) => floats(&a.elem),
        syn::Type::Tuple(t) => !t.elems.is_empty() && t.elems.iter().all(floats),
        syn::Type::Paren(p) => floats(&p.elem),
        _ => false,
    }
}

fn generic_name(p: &syn::GenericParam) -> &Ident {
    match p {
        syn::GenericParam::Const(c) => &c.ident,
        syn::GenericParam::Type(t) => &t.ident,
        syn::GenericParam::Lifetime(l) => &l.lifetime.ident,
    }
}

/// Makes a method's hidden function: `self` -> `self_`, `Self` -> the struct's type,
/// `self.m(..)` and `Self::m(self, ..)` of a differentiated `m` -> `__model_m(self_, ..)`.
struct Rename {
    names: HashSet<String>,
    prefix: String,
    self_ty: syn::Type,
    /// The block's type and const parameters, passed to every hidden function called
    /// (`__poly_eval::<N>(..)`), so that the caller's tape can name the callee's (`PolyEvalTape<N>`).
    generic_args: Vec<Ident>,
}

impl Rename {
    fn hidden(&self, generics: &syn::Generics, m: syn::ImplItemFn) -> syn::ItemFn {
        let mut sig = m.sig;
        let Some(syn::FnArg::Receiver(r)) = sig.inputs.first().cloned() else {
            unreachable!("a differentiated method takes `&self`")
        };
        let this = Ident::new(SELF, r.self_token.span);
        let self_ty = &self.self_ty;
        sig.inputs[0] = parse_quote!(#this: &#self_ty);
        sig.ident = format_ident!("{}{}", self.prefix, sig.ident, span = sig.ident.span());
        let mut params = generics.params.clone();
        params.extend(sig.generics.params.iter().cloned());
        sig.generics.params = params;
        let mut f = syn::ItemFn {
            attrs: m
                .attrs
                .into_iter()
                .filter(|a| !a.path().is_ident("doc"))
                .collect(),
            vis: m.vis,
            sig,
            block: Box::new(m.block),
        };
        f.attrs.push(parse_quote!(#[doc(hidden)]));
        let mut visitor = RenameVisitor { r: self };
        visitor.visit_signature_mut(&mut f.sig);
        visitor.visit_block_mut(&mut f.block);
        f
    }
}

struct RenameVisitor<'a> {
    r: &'a Rename,
}

impl RenameVisitor<'_> {
    /// `m` -> `__model_m::<N, ..>`, when `m` is a differentiated method of the block: the
    /// block's generic parameters, then the call's own (`self.m::<K>(..)`).
    fn hidden_path(
        &self,
        method: &Ident,
        turbofish: Option<&syn::AngleBracketedGenericArguments>,
    ) -> Option<syn::Expr> {
        self.r.names.contains(&method.to_string()).then(|| {
            let name = format_ident!("{}{}", self.r.prefix, method, span = method.span());
            let mut args: Vec<TokenStream> = self
                .r
                .generic_args
                .iter()
                .map(|g| g.to_token_stream())
                .collect();
            if let Some(t) = turbofish {
                args.extend(t.args.iter().map(|a| a.to_token_stream()));
            }
            match args.is_empty() {
                true => parse_quote!(#name),
                false => parse_quote!(#name::<#(#args),*>),
            }
        })
    }
}

fn is_self(e: &syn::Expr) -> bool {
    matches!(e, syn::Expr::Path(p) if p.qself.is_none() && p.path.is_ident("self"))
}

impl VisitMut for RenameVisitor<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::MethodCall(mc) = e
            && is_self(&mc.receiver)
            && let Some(func) = self.hidden_path(&mc.method, mc.turbofish.as_ref())
        {
            let mut args: Punctuated<syn::Expr, Token![,]> = Punctuated::new();
            args.push((*mc.receiver).clone());
            args.extend(mc.args.iter().cloned());
            *e = syn::Expr::Call(syn::ExprCall {
                attrs: mc.attrs.clone(),
                func: Box::new(func),
                paren_token: mc.paren_token,
                args,
            });
        }
        if let syn::Expr::Call(call) = e
            && let syn::Expr::Path(p) = &*call.func
            && p.qself.is_none()
            && p.path.segments.len() == 2
            && p.path.segments[0].ident == "Self"
            && let Some(func) = self.hidden_path(
                &p.path.segments[1].ident,
                match &p.path.segments[1].arguments {
                    syn::PathArguments::AngleBracketed(a) => Some(a),
                    _ => None,
                },
            )
        {
            *call.func = func;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
        if p.qself.is_none() && p.path.is_ident("self") {
            let span = p.path.segments[0].ident.span();
            p.path = Ident::new(SELF, span).into();
        }
        syn::visit_mut::visit_expr_path_mut(self, p);
    }

    fn visit_type_mut(&mut self, t: &mut syn::Type) {
        if let syn::Type::Path(p) = t
            && p.qself.is_none()
            && p.path.is_ident("Self")
        {
            *t = self.r.self_ty.clone();
            return;
        }
        syn::visit_mut::visit_type_mut(self, t);
    }
}

/// What goes where, from the pipeline's output for one method (`items`): the methods that
/// pass their arguments on to the generated functions (`__model_loss_grad(self_, x)` gives
/// `fn loss_grad(&self, x) { __model_loss_grad(self, x) }`; the tangent program of `hvp`,
/// `_hvp_jvp`, stays a free function: only generated code calls it), and the items beside the
/// block: the tape types with the method's visibility, the functions private (only the block's
/// methods call them), their doc comments naming the methods (`Model::loss`).
pub fn finish(
    block: &Block,
    method: &Method,
    items: TokenStream,
    allows: &[syn::Attribute],
) -> syn::Result<(Vec<syn::ImplItemFn>, TokenStream)> {
    let mut file: syn::File = syn::parse2(items)?;
    // The user's `#[allow(..)]`s of the method and the block (`crate::attrs::allows`), which
    // the methods calling the items copy from them.
    crate::attrs::add_allows(allows, &mut file);
    let hidden = method.hidden.sig.ident.to_string();
    let mut methods = Vec::new();
    for item in &mut file.items {
        if let syn::Item::Fn(f) = item {
            let name = f.sig.ident.to_string();
            let takes_self = matches!(f.sig.inputs.first(),
                Some(syn::FnArg::Typed(pt)) if matches!(&*pt.pat, syn::Pat::Ident(i) if i.ident == SELF));
            // The callee contract's forwarders (`_adjoint_call`, `_jvp_call`) are call plumbing
            // between the block's own functions, not methods of the struct.
            let plumbing = name.ends_with("_adjoint_call") || name.ends_with("_jvp_call");
            if takes_self
                && name.starts_with(&format!("{hidden}_"))
                && !name.contains("_hvp_jvp")
                && !plumbing
            {
                methods.push(delegate(block, f, &name[block.prefix.len()..]));
            }
            // Private (only the block's methods call them), and never reported unused: when a
            // private method's generated methods go unused, rustc would otherwise also warn
            // about these functions, whose names the user never wrote.
            f.vis = syn::Visibility::Inherited;
            f.attrs.push(parse_quote!(#[allow(dead_code)]));
        }
    }
    let mut docs = Docs {
        prefix: &block.prefix,
        to: format!("{}::", block.type_name),
    };
    docs.visit_file_mut(&mut file);
    Ok((methods, file.into_token_stream()))
}

/// Doc comments of generated items: `__model_loss` -> `Model::loss` (or `Self::loss` in the
/// block), `self_` -> `self`.
struct Docs<'a> {
    prefix: &'a str,
    to: String,
}

impl VisitMut for Docs<'_> {
    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        if !attr.path().is_ident("doc") {
            return;
        }
        let syn::Meta::NameValue(nv) = &mut attr.meta else {
            return;
        };
        if let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = &mut nv.value
        {
            let text = s
                .value()
                .replace(self.prefix, &self.to)
                .replace(SELF, "self");
            *s = syn::LitStr::new(&text, s.span());
        }
    }
}

fn delegate(block: &Block, f: &syn::ItemFn, name: &str) -> syn::ImplItemFn {
    let ident = Ident::new(name, f.sig.ident.span());
    let hidden = &f.sig.ident;
    let mut sig = f.sig.clone();
    sig.ident = ident;
    sig.generics.params = sig
        .generics
        .params
        .into_iter()
        .filter(|p| !block.impl_generics.contains(&generic_name(p).to_string()))
        .collect();
    let generics: Vec<&Ident> = f
        .sig
        .generics
        .params
        .iter()
        .filter(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
        .map(generic_name)
        .collect();
    let turbofish = (!generics.is_empty()).then(|| quote!(::<#(#generics),*>));
    let mut passed: Vec<TokenStream> = vec![quote!(self)];
    for input in sig.inputs.iter_mut().skip(1) {
        let syn::FnArg::Typed(pt) = input else {
            continue;
        };
        if let syn::Pat::Ident(pi) = &mut *pt.pat {
            // `d_self_`, `t_self_`, `v_self_`: the buffer and directions of `self`.
            let name = pi.ident.to_string();
            if let Some(base) = name.strip_suffix(SELF)
                && base.ends_with('_')
            {
                pi.ident = Ident::new(&format!("{base}self"), pi.ident.span());
            }
            pi.mutability = None;
            passed.push(pi.ident.to_token_stream());
        }
    }
    sig.inputs[0] = parse_quote!(&self);
    let vis = &f.vis;
    let mut method: syn::ImplItemFn = parse_quote! {
        #vis #sig {
            #hidden #turbofish(#(#passed),*)
        }
    };
    method.attrs = f.attrs.clone();
    let mut docs = Docs {
        prefix: &block.prefix,
        to: "Self::".to_string(),
    };
    docs.visit_impl_item_fn_mut(&mut method);
    method
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(src: &str) -> syn::ItemImpl {
        syn::parse_str(src).expect("an impl block")
    }

    #[test]
    fn names_and_which_methods() {
        assert_eq!(snake(&format_ident!("Model")), "__model_");
        assert_eq!(snake(&format_ident!("MyNet")), "__my_net_");
        let sig = |s: &str| -> syn::Signature { syn::parse_str(s).unwrap() };
        assert!(differentiated(&sig("fn f(&self, x: f64) -> f64")));
        assert!(differentiated(&sig("fn f(&self) -> ([f32; 3], f32)")));
        assert!(!differentiated(&sig("fn f(&mut self) -> f64")));
        assert!(!differentiated(&sig("fn f(self) -> f64")));
        assert!(!differentiated(&sig("fn f(x: f64) -> f64")));
        assert!(!differentiated(&sig("fn f(&self) -> usize")));
        assert!(!differentiated(&sig("fn f(&self)")));
    }

    #[test]
    fn hidden_functions_rename_self_and_calls() {
        let b = block(
            "impl<const N: usize> Net<N> {
                fn new() -> Self { Net { w: [0.0; N] } }
                #[wrt(self, x)]
                fn hidden(&self, x: &[f64; N]) -> f64 { self.w[0] * x[0] }
                fn loss(&self, x: &[f64; N], other: &Self) -> f64 {
                    self.hidden(x) + Self::hidden(self, x) + other.w[0]
                }
            }",
        );
        let split = split(&Args::default(), &b).unwrap();
        assert_eq!(split.methods.len(), 2);
        let loss = &split.methods[1];
        let text = loss.hidden.to_token_stream().to_string();
        assert!(text.contains("fn __net_loss < const N : usize >"), "{text}");
        assert!(text.contains("self_ : & Net < N >"), "{text}");
        assert!(text.contains("other : & Net < N >"), "{text}");
        assert_eq!(
            text.matches("__net_hidden :: < N > (self_ , x)").count(),
            2,
            "{text}"
        );
        assert!(!text.contains("self ."), "{text}");
        // The default: `self` alone; `#[wrt(self, x)]` read and removed from the block.
        assert_eq!(loss.args.wrt.as_ref().unwrap(), &[format_ident!("self_")]);
        let hidden = &split.methods[0];
        let wrt: Vec<String> = hidden
            .args
            .wrt
            .as_ref()
            .unwrap()
            .iter()
            .map(|i| i.to_string())
            .collect();
        assert_eq!(wrt, ["self_", "x"]);
        let known = &loss.args.known["__net_hidden"];
        assert_eq!(known.name, "hidden");
        assert_eq!(
            known.params,
            [("self".to_string(), true), ("x".to_string(), true)]
        );
        assert!(!split.item.to_token_stream().to_string().contains("wrt"));
    }

    #[test]
    fn rejects_what_it_cannot_differentiate() {
        let e = |src: &str, args: Args| split(&args, &block(src)).err().unwrap().to_string();
        assert!(e("impl T for S { }", Args::default()).contains("inherent"));
        let wrt = Args {
            wrt: Some(vec![format_ident!("x")]),
            ..Args::default()
        };
        assert!(e("impl S { }", wrt).contains("on the method"));
        let other = e(
            "impl S { #[wrt(self)] fn f(&mut self) -> f64 { 0.0 } }",
            Args::default(),
        );
        assert!(other.contains("does not differentiate"), "{other}");
    }

    #[test]
    fn delegates_pass_their_arguments_on() {
        let b = block("impl Net { fn loss(&self, x: f64) -> f64 { self.w * x } }");
        let split = split(&Args::default(), &b).unwrap();
        let items = quote! {
            /// The gradient of [`__net_loss`] in `self_`.
            pub fn __net_loss_grad(self_: &Net, x: f64) -> (f64, Net) { (0.0, Net { w: 0.0 }) }
            pub fn __net_loss_adjoint(self_: &Net, x: f64, tape: &NetLossTape, d_out: f64, d_self_: &mut Net) {}
            pub fn __net_loss_hvp_jvp(self_: &Net, x: f64) -> [f64; 2] { [0.0, 0.0] }
            pub struct NetLossTape {}
        };
        let (methods, module) = finish(&split, &split.methods[0], items, &[]).unwrap();
        let methods: Vec<String> = methods
            .iter()
            .map(|m| m.to_token_stream().to_string())
            .collect();
        assert_eq!(methods.len(), 2, "{methods:?}");
        assert!(
            methods[0].contains("The gradient of [`Self::loss`] in `self`"),
            "{}",
            methods[0]
        );
        assert!(
            methods[0].contains(
                "pub fn loss_grad (& self , x : f64) -> (f64 , Net) { __net_loss_grad (self , x) }"
            ),
            "{}",
            methods[0]
        );
        assert!(
            methods[1].contains(
                "d_self : & mut Net) { __net_loss_adjoint (self , x , tape , d_out , d_self) }"
            ),
            "{}",
            methods[1]
        );
        let module = module.to_string();
        assert!(module.contains("[`Net::loss`]"), "{module}");
        assert!(!module.contains("pub fn"), "{module}");
        assert!(module.contains("pub struct NetLossTape"), "{module}");
    }
}
