//! IR as tokens where both sweeps print it the same way: integer and bool expression trees, loop
//! iterators, and the narrowing and widening of `#[record(..)]` values.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

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
        Pure::Matches(a, pat) => {
            let a = pure_tokens(a, leaf);
            quote!(::core::matches!(#a, #pat))
        }
        Pure::Vec { mac, elem, len } => {
            let len = pure_tokens(len, leaf);
            quote!(#mac![#elem; #len])
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
        // A type named through a callee's contract (`TyVal::Elem`) is no suffix: a cast.
        if matches!(types.get(ty), crate::types::TyVal::Elem(..)) {
            return Some(quote!((#lit as #t)));
        }
        // `2.` has no digit after the point, and `2._f64` is not a literal.
        let digits = lit.base10_digits();
        let zero = if digits.ends_with('.') { "0" } else { "" };
        let lit = syn::LitFloat::new(&format!("{digits}{zero}_{t}"), lit.span());
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

/// The type of a `#[record(..)]` value's tape field: `ty` with each float narrowed (`u16` bits
/// for bf16).
pub fn narrow_ty(types: &Types, ty: TyId, narrow: Narrow) -> TokenStream {
    match types.get(ty) {
        TyVal::Array(e, n) => {
            let e = narrow_ty(types, *e, narrow);
            quote!([#e; #n])
        }
        _ => match narrow {
            Narrow::Bf16 => quote!(u16),
            Narrow::F32 => quote!(f32),
        },
    }
}

/// The zero of [`narrow_ty`], the tape's initial value.
pub fn narrow_zero(types: &Types, ty: TyId, narrow: Narrow) -> TokenStream {
    types.filled(
        ty,
        match narrow {
            Narrow::Bf16 => quote!(0),
            Narrow::F32 => quote!(0.0),
        },
    )
}

/// Is the float at the bottom of `ty` an `f32`?
fn leaf_is_f32(types: &Types, ty: TyId) -> bool {
    matches!(types.get(types.leaf(ty)), TyVal::F32)
}

/// `dst = value` narrowed element by element (`dst` a place of [`narrow_ty`], `value` one of
/// `ty`). bf16 rounds to nearest, ties to even, and keeps NaNs NaN (a quiet bit set), with
/// integer operations on the bits only, so the generated code needs nothing beyond `core`.
pub fn narrow_into(
    types: &Types,
    ty: TyId,
    narrow: Narrow,
    dst: TokenStream,
    value: TokenStream,
) -> TokenStream {
    let x = quote!(__stackgrad_x);
    let one = match narrow {
        Narrow::F32 => quote!(#x as f32),
        Narrow::Bf16 => {
            let x32 = if leaf_is_f32(types, ty) {
                quote!(#x)
            } else {
                quote!((#x as f32))
            };
            quote!({
                let bits = #x32.to_bits();
                if #x32.is_nan() {
                    (bits >> 16) as u16 | 0x40
                } else {
                    (bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16) as u16
                }
            })
        }
    };
    elementwise(
        types,
        ty,
        dst,
        value,
        |x_expr| quote!({ let #x = #x_expr; #one }),
    )
}

/// One float of type `ty`'s leaf widened from `x`, a value of its [`narrow_ty`].
fn widen_one(types: &Types, ty: TyId, narrow: Narrow, x: &TokenStream) -> TokenStream {
    // A float named through a callee's contract, `f32` or `f64` (`TyVal::Elem`): from `f32`.
    let leaf = types.leaf(ty);
    if let TyVal::Elem(..) = types.get(leaf) {
        let t = types.tokens(leaf);
        let x32 = match narrow {
            Narrow::F32 => quote!(#x),
            Narrow::Bf16 => quote!(f32::from_bits(u32::from(#x) << 16)),
        };
        return quote!(<#t as ::core::convert::From<f32>>::from(#x32));
    }
    match narrow {
        Narrow::F32 => quote!(f64::from(#x)),
        Narrow::Bf16 if leaf_is_f32(types, ty) => quote!(f32::from_bits(u32::from(#x) << 16)),
        Narrow::Bf16 => quote!(f64::from(f32::from_bits(u32::from(#x) << 16))),
    }
}

/// A `#[record(..)]` float (a scalar of type `ty`) read back from its tape field `src`.
pub fn widen(types: &Types, ty: TyId, narrow: Narrow, src: TokenStream) -> TokenStream {
    let x = quote!(__stackgrad_x);
    let one = widen_one(types, ty, narrow, &x);
    quote!({ let #x = #src; #one })
}

/// `dst = src` widened element by element: a `#[record(..)]` array of type `ty` read back
/// from its tape field `src` into the local `dst`.
pub fn widen_into(
    types: &Types,
    ty: TyId,
    narrow: Narrow,
    dst: TokenStream,
    src: TokenStream,
) -> TokenStream {
    let x = quote!(__stackgrad_x);
    let one = widen_one(types, ty, narrow, &x);
    elementwise(
        types,
        ty,
        dst,
        src,
        |x_expr| quote!({ let #x = #x_expr; #one }),
    )
}

/// `dst[i0][i1].. = f(src[i0][i1]..);` over every element of an array of type `ty` (or `dst =
/// f(src);` for a scalar).
fn elementwise(
    types: &Types,
    ty: TyId,
    dst: TokenStream,
    src: TokenStream,
    f: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    if types.kind(ty) != Kind::Array {
        let v = f(src);
        return quote!(#dst = #v;);
    }
    let (mut idx, mut lens, mut t) = (Vec::new(), Vec::new(), ty);
    while let Some((e, n)) = types.array(t) {
        idx.push(format_ident!("i{}", idx.len(), span = Span::mixed_site()));
        lens.push(n);
        t = e;
    }
    let (d, s) = (
        Ident::new("__stackgrad_dst", Span::mixed_site()),
        Ident::new("__stackgrad_src", Span::mixed_site()),
    );
    let v = f(quote!(#s #([#idx])*));
    let mut body = quote!(#d #([#idx])* = #v;);
    for (i, n) in idx.iter().zip(&lens).rev() {
        body = quote!(for #i in 0..#n { #body });
    }
    quote!({ let #s = &#src; let #d = &mut #dst; #body })
}

/// `(&&v).__stackgrad_zero()`: a zero shaped like `v`, whose type the macro cannot see. Method
/// lookup tries `&T` before `T`, so a float or an array (any length) takes `base`'s `zeroed`,
/// and anything else (a struct) its `Default`.
pub fn zero_fallback(base: &TokenStream) -> TokenStream {
    quote::quote! {
        trait __StackgradZeroExact<T> {
            fn __stackgrad_zero(&self) -> T;
        }
        impl<T: #base> __StackgradZeroExact<T> for &T {
            fn __stackgrad_zero(&self) -> T { #base::zeroed(*self) }
        }
        trait __StackgradZeroDefault<T> {
            fn __stackgrad_zero(&self) -> T;
        }
        impl<T: ::core::default::Default> __StackgradZeroDefault<T> for T {
            fn __stackgrad_zero(&self) -> T { ::core::default::Default::default() }
        }
    }
}

/// `__StackgradCast`, for a struct field cast to a float whose type the macro cannot see
/// (`p.k as f64`): a float field's tangent and adjoint pass through the cast; an integer
/// field has neither (its tangent reads 0 whatever the tangent struct holds).
pub fn cast_helper() -> TokenStream {
    let ints = [
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
    ]
    .map(|t| proc_macro2::Ident::new(t, proc_macro2::Span::call_site()));
    quote::quote! {
        trait __StackgradCast {
            fn cast_tangent(&self) -> f64;
            fn add_cast(&mut self, s: f64);
            fn set_cast(&mut self, s: f64);
        }
        impl __StackgradCast for f32 {
            fn cast_tangent(&self) -> f64 { *self as f64 }
            fn add_cast(&mut self, s: f64) { *self += s as f32; }
            fn set_cast(&mut self, s: f64) { *self = s as f32; }
        }
        impl __StackgradCast for f64 {
            fn cast_tangent(&self) -> f64 { *self }
            fn add_cast(&mut self, s: f64) { *self += s; }
            fn set_cast(&mut self, s: f64) { *self = s; }
        }
        #(impl __StackgradCast for #ints {
            fn cast_tangent(&self) -> f64 { 0.0 }
            fn add_cast(&mut self, _: f64) {}
            fn set_cast(&mut self, _: f64) {}
        })*
    }
}

/// The largest tuple a call's cotangent is built for by the zero helpers.
const TUPLE_ARITY: usize = 8;

/// `__StackgradZero::zero()`: the zero of a cotangent whose type rustc infers from the callee's
/// adjoint (an element of a call's tuple bound to nothing): floats, arrays and tuples of them.
pub fn zero_helper() -> TokenStream {
    let tuples = (1..=TUPLE_ARITY).map(|n| {
        let ts: Vec<Ident> = (0..n).map(|i| format_ident!("T{}", i)).collect();
        quote::quote!(impl<#(#ts: __StackgradZero),*> __StackgradZero for (#(#ts,)*) {
            fn zero() -> Self { (#(#ts::zero(),)*) }
        })
    });
    quote::quote! {
        trait __StackgradZero {
            fn zero() -> Self;
        }
        impl __StackgradZero for f32 {
            fn zero() -> Self { 0.0 }
        }
        impl __StackgradZero for f64 {
            fn zero() -> Self { 0.0 }
        }
        impl<T: __StackgradZero + ::core::marker::Copy, const N: usize> __StackgradZero for [T; N] {
            fn zero() -> Self { [T::zero(); N] }
        }
        #(#tuples)*
    }
}

/// `__StackgradDOut::d_out(&s)`: the cotangent `s` of a call's value that is a float or an
/// array the macro cannot tell ([`crate::types::TyVal::Whole`]), as the callee's adjoint takes
/// it: a float by value, an array by reference.
pub fn d_out_helper() -> TokenStream {
    quote::quote! {
        trait __StackgradDOut<'a> {
            type D;
            fn d_out(&'a self) -> Self::D;
        }
        impl<'a> __StackgradDOut<'a> for f32 {
            type D = f32;
            fn d_out(&'a self) -> f32 { *self }
        }
        impl<'a> __StackgradDOut<'a> for f64 {
            type D = f64;
            fn d_out(&'a self) -> f64 { *self }
        }
        impl<'a, T: 'a, const N: usize> __StackgradDOut<'a> for [T; N] {
            type D = &'a [T; N];
            fn d_out(&'a self) -> &'a [T; N] { self }
        }
    }
}

/// `__StackgradSet{k}::with(v)`: a tuple (of any arity up to [`TUPLE_ARITY`], which rustc
/// infers) zero but for element `k`, which is `v`: the cotangent of a call's tuple read as
/// `g(..).k`.
pub fn set_helper(k: usize) -> TokenStream {
    let name = format_ident!("__StackgradSet{}", k);
    let impls = (k + 1..=TUPLE_ARITY).map(|n| {
        let ts: Vec<Ident> = (0..n).map(|i| format_ident!("T{}", i)).collect();
        let bounds = (0..n).filter(|&i| i != k).map(|i| &ts[i]);
        let vals = (0..n).map(|i| {
            let t = &ts[i];
            if i == k {
                quote::quote!(v)
            } else {
                quote::quote!(#t::zero())
            }
        });
        let tk = &ts[k];
        let index = syn::Index::from(k);
        quote::quote!(impl<#(#ts),*> #name<#tk> for (#(#ts,)*) where #(#bounds: __StackgradZero),* {
            fn with(v: #tk) -> Self { (#(#vals,)*) }
            fn set(mut self, v: #tk) -> Self { self.#index = v; self }
        })
    });
    quote::quote! {
        trait #name<V> {
            fn with(v: V) -> Self;
            fn set(self, v: V) -> Self;
        }
        #(#impls)*
    }
}

/// The iterations of `start..to` (`start..=to` where `inclusive`) from a bound `start`, zero
/// where the range is empty; `to` typed `usize` first (a literal end alone has no type).
pub fn count_from(start: &Ident, to: TokenStream, inclusive: bool) -> TokenStream {
    let end = Ident::new("__end", Span::mixed_site());
    if inclusive {
        quote!({ let #end: usize = #to; if #end >= #start { #end - #start + 1 } else { 0 } })
    } else {
        quote!({ let #end: usize = #to; #end.saturating_sub(#start) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[[f32; 3]; n]` and `f64`.
    fn types() -> (Types, TyId, TyId) {
        let mut t = Types::default();
        let f = t.fresh(TyVal::F32);
        let row = t.fresh(TyVal::Array(f, quote!(3)));
        let m = t.fresh(TyVal::Array(row, quote!(n)));
        let d = t.fresh(TyVal::F64);
        (t, m, d)
    }

    fn text(t: TokenStream) -> String {
        t.to_string().replace(' ', "")
    }

    #[test]
    fn narrowed_fields_keep_the_shape() {
        let (t, m, d) = types();
        assert_eq!(text(narrow_ty(&t, m, Narrow::Bf16)), "[[u16;3];n]");
        assert_eq!(text(narrow_zero(&t, m, Narrow::Bf16)), "[[0;3];n]");
        assert_eq!(text(narrow_ty(&t, d, Narrow::F32)), "f32");
        assert_eq!(text(narrow_zero(&t, d, Narrow::F32)), "0.0");
    }

    #[test]
    fn arrays_narrow_and_widen_element_by_element() {
        let (t, m, d) = types();
        let into = text(narrow_into(
            &t,
            m,
            Narrow::Bf16,
            quote!(tape.h[k]),
            quote!(h),
        ));
        assert!(into.contains("fori0in0..n{fori1in0..3{"), "{into}");
        assert!(into.contains("letbits=__stackgrad_x.to_bits();"), "{into}");
        assert!(into.contains("0x7fff+((bits>>16)&1)"), "{into}");
        let wide = text(widen_into(
            &t,
            m,
            Narrow::Bf16,
            quote!(w),
            quote!(tape.h[k]),
        ));
        assert!(
            wide.contains("f32::from_bits(u32::from(__stackgrad_x)<<16)"),
            "{wide}"
        );
        // An f64 value narrowed to f32 and widened back.
        assert!(text(narrow_into(&t, d, Narrow::F32, quote!(tape.g), quote!(g))).contains("asf32"));
        assert_eq!(
            text(widen(&t, d, Narrow::F32, quote!(tape.g))),
            "{let__stackgrad_x=tape.g;f64::from(__stackgrad_x)}"
        );
    }
}
