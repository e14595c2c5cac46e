//! Integer literals with a float suffix (`2_f64`, `1f32`), which Rust reads as floats, rewritten
//! before lowering as the float literals they are (`2.0f64`, `1.0f32`); and the zero of a type,
//! which the passes that write loops and flags start their locals from.

use syn::visit_mut::VisitMut;

pub(super) fn desugar(block: &mut syn::Block) {
    struct Rewrite;
    impl VisitMut for Rewrite {
        fn visit_lit_mut(&mut self, l: &mut syn::Lit) {
            if let syn::Lit::Int(i) = l
                && matches!(i.suffix(), "f32" | "f64")
            {
                let text = format!("{}.0{}", i.base10_digits(), i.suffix());
                *l = syn::Lit::Float(syn::LitFloat::new(&text, i.span()));
            }
        }
    }
    Rewrite.visit_block_mut(block);
}

/// The zero of a type as written: `0.0` of a float, `0` of an integer, `false`, arrays of
/// them.
pub(super) fn zero(ty: &syn::Type) -> Option<syn::Expr> {
    match ty {
        syn::Type::Array(a) => {
            let (z, len) = (zero(&a.elem)?, &a.len);
            Some(syn::parse_quote!([#z; #len]))
        }
        syn::Type::Paren(p) => zero(&p.elem),
        _ => match super::signature::scalar_ty(ty)? {
            crate::ir::TyVal::F32 | crate::ir::TyVal::F64 => Some(syn::parse_quote!(0.0)),
            crate::ir::TyVal::Bool => Some(syn::parse_quote!(false)),
            _ => Some(syn::parse_quote!(0)),
        },
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    #[test]
    fn float_suffixes_make_float_literals() {
        let mut b: syn::Block = syn::parse_str("{ 2_f64 * x + 1f32 as f64 + 3 + 4usize }").unwrap();
        super::desugar(&mut b);
        let text = b.to_token_stream().to_string();
        assert_eq!(text, "{ 2.0f64 * x + 1.0f32 as f64 + 3 + 4usize }");
    }
}
