//! The user's lint allowances, carried to the generated items.

/// The user's `#[allow(..)]` attributes among `attrs` (a function's, a method's or its `impl`
/// block's, outer or inner: `#![allow(..)]` in the body), as outer attributes. The generated
/// items get them too: they repeat the function's names and expressions, so a lint the user
/// allowed on the function (`non_snake_case` for a matrix `R`, `unused_braces` for
/// `[f64; { N }]`) would fire on them otherwise.
pub fn allows(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    (attrs.iter())
        .filter(|a| a.path().is_ident("allow"))
        .map(|a| syn::Attribute {
            style: syn::AttrStyle::Outer,
            ..a.clone()
        })
        .collect()
}

/// `allows` put on each item of `file`.
pub fn add_allows(allows: &[syn::Attribute], file: &mut syn::File) {
    for item in &mut file.items {
        let attrs = match item {
            syn::Item::Fn(i) => &mut i.attrs,
            syn::Item::Struct(i) => &mut i.attrs,
            syn::Item::Enum(i) => &mut i.attrs,
            syn::Item::Impl(i) => &mut i.attrs,
            syn::Item::Trait(i) => &mut i.attrs,
            syn::Item::Const(i) => &mut i.attrs,
            syn::Item::Static(i) => &mut i.attrs,
            syn::Item::Type(i) => &mut i.attrs,
            syn::Item::Mod(i) => &mut i.attrs,
            syn::Item::Macro(i) => &mut i.attrs,
            syn::Item::Use(i) => &mut i.attrs,
            _ => continue,
        };
        attrs.extend(allows.iter().cloned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{ToTokens, quote};

    /// Only `allow`s, outer and inner alike, come out as outer attributes.
    #[test]
    fn allows_are_the_allow_attributes_made_outer() {
        let f: syn::ItemFn = syn::parse_quote! {
            #[inline]
            #[allow(non_snake_case)]
            #[warn(unused)]
            fn f(X: f64) -> f64 {
                #![allow(unused_braces)]
                X
            }
        };
        let got: Vec<String> = allows(&f.attrs)
            .iter()
            .map(|a| a.to_token_stream().to_string())
            .collect();
        assert_eq!(
            got,
            [
                quote!(#[allow(non_snake_case)]).to_string(),
                quote!(#[allow(unused_braces)]).to_string()
            ]
        );
    }

    /// Every item gets them, after its own attributes.
    #[test]
    fn every_item_gets_the_allows() {
        let mut file: syn::File = syn::parse_quote! {
            #[doc = "a"]
            fn f_grad() {}
            struct FTape;
            impl FTape {}
            trait FCall {}
        };
        let allow: syn::Attribute = syn::parse_quote!(#[allow(non_snake_case)]);
        add_allows(std::slice::from_ref(&allow), &mut file);
        for item in &file.items {
            let text = item.to_token_stream().to_string();
            assert!(text.contains("# [allow (non_snake_case)]"), "{text}");
        }
        assert!(
            (file.items[0].to_token_stream().to_string()).starts_with("# [doc = \"a\"] # [allow"),
        );
    }
}
