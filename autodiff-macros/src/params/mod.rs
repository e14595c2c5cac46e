//! `#[derive(Parameters)]`: implements the runtime's `Parameters` trait for a struct of floats.
//!
//! Each field is a float (`f32`, `f64` or a type parameter), a struct that implements
//! `Parameters`, or an array `[T; N]` of either, nested to any depth. An array of floats is one
//! tensor (shape `[N, M, ..]`, a flat row-major slice); an array of structs is a list of
//! sub-models named by position (`blocks.3.ln1.g`). `#[parameters(skip)]` leaves a field out (it
//! must implement `Default`, e.g. `PhantomData`).
//!
//! The impl names the runtime as `::stackgrad::runtime` unless the struct says
//! `#[parameters(crate = "path")]`. It uses no allocation and no `unsafe`, only `::core` and that
//! path, so it works in `no_std` crates.
//!
//! It also implements `Default` as `Parameters::zeroed()`, for any array size and any const
//! generics (`#[derive(Default)]` stops at arrays of 32 elements and bounds every type parameter;
//! `f_grad` needs `Default` for a struct's gradient). `#[parameters(no_default)]` leaves it out,
//! for a struct with its own `Default`.
//!
//! Before:
//! ```text
//! #[derive(Parameters)]
//! struct Mlp { w: [[f32; 4]; 8], b: [f32; 8], head: Linear }
//! ```
//! After (abridged):
//! ```text
//! impl ::stackgrad::runtime::Parameters for Mlp {
//!     type Scalar = f32;
//!     const COUNT: usize = 8 * 4 + 8 + <Linear as Parameters>::COUNT;
//!     const TENSORS: usize = 1 + 1 + <Linear as Parameters>::TENSORS;
//!     fn tensor(&self, index: usize) -> Option<&[f32]> {
//!         if index < 1 { return Some(self.w.as_flattened()); }
//!         if index < 1 + 1 { return Some(self.b.as_slice()); }
//!         if index < 1 + 1 + <Linear as Parameters>::TENSORS { return self.head.tensor(index - (1 + 1)); }
//!         None
//!     }
//!     fn visit<V: Visitor<f32>>(&self, prefix: Option<&Name<'_>>, visitor: &mut V) {
//!         visitor.visit(&Name::field(prefix, "w"), &[8, 4], self.w.as_flattened());
//!         ...
//!     }
//!     ...
//! }
//! impl ::core::default::Default for Mlp {
//!     fn default() -> Self { <Self as ::stackgrad::runtime::Parameters>::zeroed() }
//! }
//! ```

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Expr, Fields, LitStr, Path, Type, WherePredicate};

/// The derive's entry point on `proc_macro2` tokens: the impl, or the compile errors.
pub fn derive(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input).and_then(|input| expand(&input)) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

/// What a field holds once its array dimensions are stripped.
enum Leaf {
    /// A float: `f32`, `f64` or a type parameter.
    Float(Type),
    /// A struct that implements `Parameters`.
    Nested(Type),
}

/// One field of the struct, classified.
struct Field {
    ident: Ident,
    /// Array lengths, outermost first; empty for a plain float or struct.
    dims: Vec<Expr>,
    leaf: Leaf,
}

/// Collects every error, so the user sees all of them at once.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

const SUPPORTED: &str = "`#[derive(Parameters)]` supports fields of type `f32`, `f64`, a type parameter, \
                         a struct that implements `Parameters`, or an array `[T; N]` of these (nested to any depth); \
                         mark other fields `#[parameters(skip)]`";

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let options = struct_options(input, &mut errors);
    let named = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(named),
            other => {
                errors.push(syn::Error::new_spanned(
                    other,
                    "`#[derive(Parameters)]` needs named fields, as in `struct Layer { w: [[f32; 4]; 3], b: [f32; 3] }`",
                ));
                None
            }
        },
        Data::Enum(e) => {
            errors.push(syn::Error::new(
                e.enum_token.span,
                "`#[derive(Parameters)]` applies to structs, not enums",
            ));
            None
        }
        Data::Union(u) => {
            errors.push(syn::Error::new(
                u.union_token.span,
                "`#[derive(Parameters)]` applies to structs, not unions",
            ));
            None
        }
    };
    let type_params: Vec<&Ident> = input.generics.type_params().map(|p| &p.ident).collect();
    let mut fields = Vec::new();
    let mut skipped = Vec::new();
    for f in named.iter().flat_map(|n| &n.named) {
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        if is_skipped(f, &mut errors) {
            skipped.push((ident, f.ty.clone()));
            continue;
        }
        match classify(&f.ty, &type_params) {
            Ok((dims, leaf)) => fields.push(Field { ident, dims, leaf }),
            Err(e) => errors.push(e),
        }
    }
    // Without named fields there is nothing more to say about them.
    let scalar = named.and_then(|_| scalar_type(input, &fields, &mut errors));
    errors.finish()?;
    let (Some((krate, default)), Some(scalar_source)) = (options, scalar) else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "internal error: no scalar type",
        ));
    };
    let scalar = match scalar_source {
        Leaf::Float(ty) => ty.to_token_stream(),
        Leaf::Nested(ty) => assoc(&krate, &ty, "Scalar"),
    };
    Ok(Emit {
        krate,
        scalar,
        fields: &fields,
    }
    .impl_block(input, &skipped, default))
}

/// The struct-level options: the runtime's path (`#[parameters(crate = "...")]`, else
/// `::stackgrad::runtime`) and whether to implement `Default` (not with `#[parameters(no_default)]`).
fn struct_options(input: &DeriveInput, errors: &mut Errors) -> Option<(Path, bool)> {
    let mut path = syn::parse_quote!(::stackgrad::runtime);
    let mut default = true;
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("parameters"))
    {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let lit: LitStr = meta.value()?.parse()?;
                path = lit.parse()?;
                Ok(())
            } else if meta.path.is_ident("no_default") {
                default = false;
                Ok(())
            } else {
                Err(meta.error("unknown `parameters` option; expected `#[parameters(crate = \"path::to::runtime\")]` or `#[parameters(no_default)]`"))
            }
        });
        if let Err(e) = parsed {
            errors.push(e);
            return None;
        }
    }
    Some((path, default))
}

/// Whether a field says `#[parameters(skip)]`.
fn is_skipped(field: &syn::Field, errors: &mut Errors) -> bool {
    let mut skip = false;
    for attr in field
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("parameters"))
    {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error(
                    "unknown `parameters` option on a field; expected `#[parameters(skip)]`",
                ))
            }
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    skip
}

/// Splits a field type into its array lengths and what the arrays hold.
fn classify(ty: &Type, type_params: &[&Ident]) -> syn::Result<(Vec<Expr>, Leaf)> {
    let mut dims = Vec::new();
    let mut ty = ty;
    loop {
        match ty {
            Type::Array(a) => {
                dims.push(a.len.clone());
                ty = &a.elem;
            }
            Type::Paren(p) => ty = &p.elem,
            Type::Group(g) => ty = &g.elem,
            _ => break,
        }
    }
    let unsupported =
        |what: &str| syn::Error::new_spanned(ty, format!("{what} `{}`: {SUPPORTED}", show(ty)));
    let Type::Path(tp) = ty else {
        return Err(unsupported("unsupported field type"));
    };
    if tp.qself.is_some() {
        return Err(unsupported("unsupported field type"));
    }
    if let Some(ident) = tp.path.get_ident()
        && (ident == "f32" || ident == "f64" || type_params.contains(&ident))
    {
        return Ok((dims, Leaf::Float(ty.clone())));
    }
    let last = tp
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    const NOT_PARAMETERS: &[&str] = &[
        "bool",
        "char",
        "str",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "String",
        "Vec",
        "VecDeque",
        "Box",
        "Option",
        "Rc",
        "Arc",
        "Cell",
        "RefCell",
        "HashMap",
        "BTreeMap",
        "PhantomData",
    ];
    if NOT_PARAMETERS.contains(&last.as_str()) {
        return Err(unsupported("unsupported field type"));
    }
    Ok((dims, Leaf::Nested(ty.clone())))
}

/// Where the float type of every tensor comes from: the float fields, which must agree, or else
/// the first nested struct's `Scalar`.
fn scalar_type(input: &DeriveInput, fields: &[Field], errors: &mut Errors) -> Option<Leaf> {
    let mut first: Option<(&Ident, &Type)> = None;
    for f in fields {
        let Leaf::Float(ty) = &f.leaf else { continue };
        match first {
            None => first = Some((&f.ident, ty)),
            Some((name, want))
                if want.to_token_stream().to_string() != ty.to_token_stream().to_string() =>
            {
                errors.push(syn::Error::new_spanned(
                    ty,
                    format!(
                        "all float fields must have one type: `{name}` is `{}`, this is `{}`",
                        show(want),
                        show(ty)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    if let Some((_, ty)) = first {
        return Some(Leaf::Float(ty.clone()));
    }
    let nested = fields.iter().find_map(|f| match &f.leaf {
        Leaf::Nested(ty) => Some(ty),
        Leaf::Float(_) => None,
    });
    if nested.is_none() {
        errors.push(syn::Error::new_spanned(
            &input.ident,
            "`#[derive(Parameters)]` needs at least one parameter field (a float, an array of floats or a nested struct)",
        ));
    }
    nested.map(|ty| Leaf::Nested(ty.clone()))
}

/// Code generation for one struct.
struct Emit<'a> {
    krate: Path,
    scalar: TokenStream,
    fields: &'a [Field],
}

/// `<ty as krate::Parameters>::item`, spanned at the field's type so that a type that does not
/// implement `Parameters` is reported there.
fn assoc(krate: &Path, ty: &Type, item: &str) -> TokenStream {
    let item = Ident::new(item, ty.span());
    quote_spanned!(ty.span()=> <#ty as #krate::Parameters>::#item)
}

/// The type as the user wrote it, for messages: `Vec<f32>`, not `Vec < f32 >`.
fn show(ty: &Type) -> String {
    let mut s = ty.to_token_stream().to_string();
    for (from, to) in [
        (" < ", "<"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        (" :: ", "::"),
        (":: ", "::"),
        ("& ", "&"),
        (" ;", ";"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// `start + term`, or `term` when nothing comes before it.
fn add(start: &Option<TokenStream>, term: TokenStream) -> TokenStream {
    match start {
        Some(start) => quote!(#start + #term),
        None => term,
    }
}

/// A local name that cannot collide with the user's (mixed-site hygiene).
fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// `self.field` seen as a flat slice of its innermost elements.
fn flat(field: &Ident, depth: usize, mutable: bool) -> TokenStream {
    match (depth, mutable) {
        (0, false) => quote!(::core::slice::from_ref(&self.#field)),
        (0, true) => quote!(::core::slice::from_mut(&mut self.#field)),
        (1, false) => quote!(self.#field.as_slice()),
        (1, true) => quote!(self.#field.as_mut_slice()),
        (d, false) => {
            let calls = (1..d).map(|_| quote!(.as_flattened()));
            quote!(self.#field #(#calls)*)
        }
        (d, true) => {
            let calls = (1..d).map(|_| quote!(.as_flattened_mut()));
            quote!(self.#field #(#calls)*)
        }
    }
}

impl Emit<'_> {
    fn impl_block(
        &self,
        input: &DeriveInput,
        skipped: &[(Ident, Type)],
        default: bool,
    ) -> TokenStream {
        let Emit { krate, scalar, .. } = self;
        let name = &input.ident;
        let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
        let mut predicates: Vec<WherePredicate> = where_clause
            .map(|w| w.predicates.iter().cloned().collect())
            .unwrap_or_default();
        if !input.generics.params.is_empty() {
            predicates.extend(self.bounds(skipped));
        }
        // Scalars: every element of every array. Tensors: one per float field, one per nested
        // tensor per array element.
        let count = self.sum(|f| match &f.leaf {
            Leaf::Float(_) => (quote!(1usize), true),
            Leaf::Nested(ty) => (assoc(krate, ty, "COUNT"), true),
        });
        let tensors = self.sum(|f| match &f.leaf {
            Leaf::Float(_) => (quote!(1usize), false),
            Leaf::Nested(ty) => (assoc(krate, ty, "TENSORS"), true),
        });
        let zeroed = self.fields.iter().map(|f| {
            let ident = &f.ident;
            let value = self.zero_value(f);
            quote!(#ident: #value)
        });
        let skipped_zero = skipped
            .iter()
            .map(|(ident, _)| quote!(#ident: ::core::default::Default::default()));
        let tensor = self.tensor_fn(false);
        let tensor_mut = self.tensor_fn(true);
        let visit = self.visit_fn(false);
        let visit_mut = self.visit_fn(true);
        // Same generics and bounds as the `Parameters` impl, so `Self: Parameters` holds.
        let default_impl = default.then(|| {
            quote! {
                #[automatically_derived]
                impl #impl_generics ::core::default::Default for #name #ty_generics where #(#predicates,)* {
                    fn default() -> Self {
                        <Self as #krate::Parameters>::zeroed()
                    }
                }
            }
        });
        quote! {
            #[automatically_derived]
            impl #impl_generics #krate::Parameters for #name #ty_generics where #(#predicates,)* {
                type Scalar = #scalar;
                const COUNT: ::core::primitive::usize = #count;
                const TENSORS: ::core::primitive::usize = #tensors;

                fn zeroed() -> Self {
                    Self { #(#zeroed,)* #(#skipped_zero,)* }
                }
                #tensor
                #tensor_mut
                #visit
                #visit_mut
            }
            #default_impl
        }
    }

    /// `where` bounds for a generic struct: float type parameters implement `Float`, nested structs
    /// implement `Parameters` with the same scalar, skipped fields implement `Default`.
    fn bounds(&self, skipped: &[(Ident, Type)]) -> Vec<WherePredicate> {
        let Emit { krate, scalar, .. } = self;
        let mut out: Vec<WherePredicate> = Vec::new();
        // A float field's type is `f32`, `f64` or a type parameter.
        let is_param =
            |ty: &Type| !matches!(ty.to_token_stream().to_string().as_str(), "f32" | "f64");
        for f in self.fields {
            match &f.leaf {
                Leaf::Float(ty) if is_param(ty) => {
                    out.push(syn::parse_quote_spanned!(ty.span()=> #ty: #krate::Float))
                }
                Leaf::Float(_) => {}
                // The scalar may be this type's own `Scalar`; restating it would be a cycle.
                Leaf::Nested(ty)
                    if scalar.to_string()
                        == quote!(<#ty as #krate::Parameters>::Scalar).to_string() =>
                {
                    out.push(syn::parse_quote_spanned!(ty.span()=> #ty: #krate::Parameters));
                }
                Leaf::Nested(ty) => {
                    let bound = quote!(#krate::Parameters<Scalar = #scalar>);
                    out.push(syn::parse_quote_spanned!(ty.span()=> #ty: #bound));
                }
            }
        }
        for (_, ty) in skipped {
            out.push(syn::parse_quote_spanned!(ty.span()=> #ty: ::core::default::Default));
        }
        out
    }

    /// The sum over fields of `term(field)`, times the field's array lengths where it says so.
    fn sum(&self, term: impl Fn(&Field) -> (TokenStream, bool)) -> TokenStream {
        let terms = self.fields.iter().map(|f| {
            let (leaf, times_dims) = term(f);
            let dims = f.dims.iter().filter(|_| times_dims);
            quote!(#leaf #(* (#dims))*)
        });
        quote!(#(#terms)+*)
    }

    /// The all-zero value of a field.
    fn zero_value(&self, f: &Field) -> TokenStream {
        let Emit { krate, scalar, .. } = self;
        match &f.leaf {
            Leaf::Float(_) => f.dims.iter().rev().fold(
                quote!(<#scalar as #krate::Float>::ZERO),
                |inner, d| quote!([#inner; #d]),
            ),
            Leaf::Nested(ty) => f.dims.iter().fold(
                {
                    let zeroed = assoc(krate, ty, "zeroed");
                    quote_spanned!(ty.span()=> #zeroed())
                },
                |inner, _| quote!(::core::array::from_fn(|_| #inner)),
            ),
        }
    }

    /// `tensor` or `tensor_mut`: tensor `index` in field order.
    fn tensor_fn(&self, mutable: bool) -> TokenStream {
        let Emit { krate, scalar, .. } = self;
        let index = local("index");
        let (inner, per) = (local("inner"), local("per"));
        // Tensors before the current field: `None` for the first field.
        let mut start: Option<TokenStream> = None;
        let mut arms = Vec::new();
        for f in self.fields {
            let depth = f.dims.len();
            let items = flat(&f.ident, depth, mutable);
            let dims = &f.dims;
            let (end, arm) = match &f.leaf {
                Leaf::Float(_) => (
                    add(&start, quote!(1usize)),
                    quote!(return ::core::option::Option::Some(#items);),
                ),
                Leaf::Nested(ty) => {
                    let getter = assoc(krate, ty, if mutable { "tensor_mut" } else { "tensor" });
                    let get = if mutable {
                        quote!(get_mut)
                    } else {
                        quote!(get)
                    };
                    let tensors = assoc(krate, ty, "TENSORS");
                    let end = add(&start, quote!(#tensors #(* (#dims))*));
                    let offset = match &start {
                        Some(start) => quote!(#index - (#start)),
                        None => quote!(#index),
                    };
                    let arm = if depth == 0 {
                        let field = &f.ident;
                        let refer = if mutable {
                            quote!(&mut self.#field)
                        } else {
                            quote!(&self.#field)
                        };
                        quote_spanned!(ty.span()=> return #getter(#refer, #offset);)
                    } else {
                        quote_spanned! {ty.span()=>
                            let #inner = #offset;
                            let #per = #tensors;
                            return #getter(
                                #items.#get(#inner.checked_div(#per)?)?,
                                #inner.checked_rem(#per)?,
                            );
                        }
                    };
                    (end, arm)
                }
            };
            arms.push(quote!(if #index < #end { #arm }));
            start = Some(end);
        }
        let (name, slice) = if mutable {
            (quote!(tensor_mut), quote!(&mut [#scalar]))
        } else {
            (quote!(tensor), quote!(&[#scalar]))
        };
        let receiver = if mutable {
            quote!(&mut self)
        } else {
            quote!(&self)
        };
        quote! {
            fn #name(
                #receiver,
                #index: ::core::primitive::usize,
            ) -> ::core::option::Option<#slice> {
                #(#arms)*
                ::core::option::Option::None
            }
        }
    }

    /// `visit` or `visit_mut`: each tensor with its dotted name and shape.
    fn visit_fn(&self, mutable: bool) -> TokenStream {
        let Emit { krate, scalar, .. } = self;
        let (prefix, visitor) = (local("prefix"), local("visitor"));
        let visitor_ty = format_ident!("__StackgradVisitor");
        let (name, method, bound, receiver, iter) = if mutable {
            (
                quote!(visit_mut),
                quote!(visit_mut),
                quote!(VisitorMut),
                quote!(&mut self),
                quote!(iter_mut),
            )
        } else {
            (
                quote!(visit),
                quote!(visit),
                quote!(Visitor),
                quote!(&self),
                quote!(iter),
            )
        };
        let calls = self.fields.iter().map(|f| {
            let ident = &f.ident;
            let label = ident.unraw().to_string();
            let field_name = local("field_name");
            let dims = &f.dims;
            match &f.leaf {
                Leaf::Float(_) => {
                    let values = flat(ident, dims.len(), mutable);
                    quote! {
                        <#visitor_ty as #krate::#bound<#scalar>>::#method(
                            #visitor, &#krate::Name::field(#prefix, #label), &[#(#dims),*], #values,
                        );
                    }
                }
                Leaf::Nested(ty) => {
                    let call = assoc(krate, ty, if mutable { "visit_mut" } else { "visit" });
                    // One loop per array dimension, each adding an index segment to the name;
                    // built from the innermost call outwards.
                    let refer = if mutable { quote!(&mut self.#ident) } else { quote!(&self.#ident) };
                    let item = |level: usize| if level == 0 { refer.clone() } else { local(&format!("x{}", level - 1)).to_token_stream() };
                    let parent = |level: usize| if level == 0 { field_name.clone() } else { local(&format!("n{}", level - 1)) };
                    let (item_k, parent_k) = (item(dims.len()), parent(dims.len()));
                    let call = quote_spanned! {ty.span()=>
                        #call(#item_k, ::core::option::Option::Some(&#parent_k), &mut *#visitor);
                    };
                    let body = (0..dims.len()).rev().fold(call, |body, level| {
                        let (i, x, n) = (local(&format!("i{level}")), local(&format!("x{level}")), local(&format!("n{level}")));
                        let (item, parent) = (item(level), parent(level));
                        quote! {
                            for (#i, #x) in (#item).#iter().enumerate() {
                                let #n = #krate::Name::index(::core::option::Option::Some(&#parent), #i);
                                #body
                            }
                        }
                    });
                    quote! {
                        {
                            let #field_name = #krate::Name::field(#prefix, #label);
                            #body
                        }
                    }
                }
            }
        });
        quote! {
            fn #name<#visitor_ty: #krate::#bound<#scalar>>(
                #receiver,
                #prefix: ::core::option::Option<&#krate::Name<'_>>,
                #visitor: &mut #visitor_ty,
            ) {
                #(#calls)*
            }
        }
    }
}

#[cfg(test)]
mod tests;
