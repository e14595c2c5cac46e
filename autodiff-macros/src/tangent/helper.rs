//! The helper trait the tangent program declares when it passes values whose type it cannot see.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// For a value whose type the macro cannot see (a `const` item or a struct field passed to a
/// call): a zero shaped like it, and its tangent as `g_jvp` takes it (a float by value, an array
/// by reference); for floats and arrays of them.
pub const ZERO_HELPER: ZeroHelper = ZeroHelper;

pub struct ZeroHelper;

impl ToTokens for ZeroHelper {
    fn to_tokens(&self, out: &mut TokenStream) {
        out.extend(crate::print::zero_fallback(&quote!(__StackgradZero)));
        out.extend(quote! {
            #[diagnostic::on_unimplemented(
                message = "`#[differentiable]` takes a `const` item or a struct field passed whole to a callee for a float or an array of floats, not `{Self}`",
                label = "a `{Self}` passed whole",
                note = "bind it with its type first and pass the local: `let n: usize = K;` or `let n: usize = p.n;`"
            )]
            trait __StackgradZero: ::core::marker::Copy {
                type Arg<'a> where Self: 'a;
                fn zeroed(&self) -> Self;
                fn as_arg(&self) -> Self::Arg<'_>;
            }
            impl __StackgradZero for f32 {
                type Arg<'a> = f32;
                fn zeroed(&self) -> Self { 0.0 }
                fn as_arg(&self) -> f32 { *self }
            }
            impl __StackgradZero for f64 {
                type Arg<'a> = f64;
                fn zeroed(&self) -> Self { 0.0 }
                fn as_arg(&self) -> f64 { *self }
            }
            impl<T: __StackgradZero, const N: usize> __StackgradZero for [T; N] {
                type Arg<'a> = &'a [T; N] where T: 'a;
                fn zeroed(&self) -> Self {
                    let mut z = *self;
                    for x in z.iter_mut() { *x = x.zeroed(); }
                    z
                }
                fn as_arg(&self) -> &[T; N] { self }
            }
        });
    }
}
