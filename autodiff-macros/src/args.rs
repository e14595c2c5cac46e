//! The attribute's arguments: `#[differentiable]`, `#[differentiable(wrt(x, y))]`, and bounds
//! for `while` / `loop`: `#[differentiable(max_iters(newton = 50))]` for a loop labelled
//! `'newton:`. Options name loops by label, so the function itself stays untouched.

use proc_macro2::{Ident, TokenStream};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Token, parenthesized};

#[derive(Clone, Default)]
pub struct Args {
    /// `None`: every float parameter.
    pub wrt: Option<Vec<Ident>>,
    /// `max_iters(label = K)`: the bound of each labelled `while` / `loop`.
    pub max_iters: Vec<(Ident, syn::Expr)>,
    /// `jvp`: also the tangent function `f_jvp`.
    pub jvp: bool,
    /// `hvp`: also `f_jvp` and the Hessian-vector product `f_hvp`.
    pub hvp: bool,
    /// `nested`: also `f_grad_x` per differentiated parameter and `f_tangent`, which other
    /// differentiable functions differentiate again (implies `hvp`).
    pub nested: bool,
    /// `jacobian`: also `f_jacobian`, `f_jacobian_rev` and `f_jacobian_fwd` (implies `jvp`).
    pub jacobian: bool,
    /// Callees whose parameters the macro knows (the other methods of a `#[differentiable]`
    /// `impl` block), by name: each parameter's name and whether the callee differentiates it.
    /// Not an attribute argument: the `methods` pass fills it.
    pub known: std::collections::HashMap<String, crate::ir::Callee>,
    /// The macro's own tangent program of `f_hvp`, which only `f_hvp` and the tangent programs
    /// of callers call: its `f_forward_into` copies `f_forward`'s value instead of being a
    /// second sweep. Not an attribute argument: the `hvp` pass sets it.
    pub tangent_program: bool,
    /// Parameters of the tangent program that are fieldless enums though it never matches on
    /// them: the tangents it takes and ignores for enums (`PairSlot::Own`). Not an attribute
    /// argument.
    pub enums: Vec<Ident>,
    /// Parameters of the tangent program that are structs only passed on in the primal, and
    /// the trait that gives their zero (`TyVal::PassedOn`): the primal parameter and its
    /// tangent, whether or not the tangent program's own text passes them on. Not an
    /// attribute argument.
    pub passed_on: Vec<(Ident, TokenStream)>,
    /// The `alloc` feature is on: a run-time loop whose iterations carry state records into
    /// `Vec` fields of the tape (grown on first use, reused after). Not an attribute argument.
    pub alloc: bool,
    /// `heap`: the outermost loop level of every field of the tape is a `Vec` (needs `alloc`).
    pub heap: bool,
    /// `custom`: the derivative items are written by hand; the macro adds only the callee
    /// contract (`FCall`, see [`crate::contract`]).
    pub custom: Option<Ident>,
}

const EXPECTED: &str = "expected `#[differentiable]`, `#[differentiable(wrt(x, y))]`, `#[differentiable(jvp)]`, `#[differentiable(hvp)]`, `#[differentiable(nested)]`, `#[differentiable(jacobian)]`, `#[differentiable(heap)]`, `#[differentiable(custom)]` or `#[differentiable(max_iters(label = K))]`";

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = Args::default();
        while !input.is_empty() {
            let key: Ident = input
                .parse()
                .map_err(|e| syn::Error::new(e.span(), EXPECTED))?;
            if key == "max_iters" {
                let content;
                parenthesized!(content in input);
                let bounds =
                    Punctuated::<syn::MetaNameValue, Token![,]>::parse_terminated(&content)?;
                for b in bounds {
                    let Some(label) = b.path.get_ident() else {
                        return Err(syn::Error::new_spanned(
                            &b.path,
                            "name the loop by its label, as in `max_iters(newton = 50)` for `'newton: while ..`",
                        ));
                    };
                    args.max_iters.push((label.clone(), b.value));
                }
                if !input.is_empty() {
                    input.parse::<Token![,]>()?;
                }
                continue;
            }
            if key == "custom" {
                if args.custom.is_some() {
                    return Err(syn::Error::new(key.span(), "`custom` is given twice"));
                }
                args.custom = Some(key);
                if !input.is_empty() {
                    input.parse::<Token![,]>()?;
                }
                continue;
            }
            if key == "heap" {
                if args.heap {
                    return Err(syn::Error::new(key.span(), "`heap` is given twice"));
                }
                args.heap = true;
                if !input.is_empty() {
                    input.parse::<Token![,]>()?;
                }
                continue;
            }
            if ["jvp", "hvp", "nested", "jacobian"]
                .iter()
                .any(|k| key == k)
            {
                let flag = if key == "jvp" {
                    &mut args.jvp
                } else if key == "hvp" {
                    &mut args.hvp
                } else if key == "nested" {
                    &mut args.nested
                } else {
                    &mut args.jacobian
                };
                if *flag {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("`{key}` is given twice"),
                    ));
                }
                *flag = true;
                if !input.is_empty() {
                    input.parse::<Token![,]>()?;
                }
                continue;
            }
            if key != "wrt" {
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown argument `{key}`: {EXPECTED}"),
                ));
            }
            if args.wrt.is_some() {
                return Err(syn::Error::new(key.span(), "`wrt` is given twice"));
            }
            let content;
            parenthesized!(content in input);
            let names = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
            if names.is_empty() {
                return Err(syn::Error::new(
                    key.span(),
                    "`wrt()` names no parameter: list the parameters to differentiate, as in `wrt(x, y)`",
                ));
            }
            args.wrt = Some(names.into_iter().collect());
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}

pub fn parse(tokens: TokenStream) -> syn::Result<Args> {
    let span = tokens
        .clone()
        .into_iter()
        .find(|t| t.to_string() == "heap")
        .map(|t| t.span());
    let mut args = Args::parse.parse2(tokens)?;
    // The macro's own tests (golden expansions) see the feature on, however cargo unified it.
    args.alloc = cfg!(any(feature = "alloc", test));
    // The nested items' derivatives are Hessian-vector products.
    args.hvp |= args.nested;
    // The forward Jacobian is a tangent per input coordinate.
    args.jvp |= args.jacobian;
    if args.heap && !args.alloc {
        return Err(syn::Error::new(
            span.unwrap_or_else(proc_macro2::Span::call_site),
            "`heap` puts the tape's loops in `Vec`s, which needs the `alloc` feature (of `stackgrad`, on by default, or of `autodiff-macros`); without it, keep a large tape in a `static` (its `new()` is a `const fn`)",
        ));
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn parses_empty_and_wrt() {
        assert!(parse(quote!()).unwrap().wrt.is_none());
        let modes = parse(quote!(jvp, wrt(w))).unwrap();
        assert!(modes.jvp && !modes.hvp);
        assert_eq!(modes.wrt.unwrap()[0], "w");
        assert!(parse(quote!(heap, wrt(x))).unwrap().heap);
        let wrt = parse(quote!(wrt(x, y))).unwrap().wrt.unwrap();
        assert_eq!(wrt.len(), 2);
        assert_eq!(wrt[1], "y");
    }

    #[test]
    fn rejects_unknown_and_duplicate() {
        let e = parse(quote!(with(x))).err().unwrap().to_string();
        assert!(e.contains("unknown argument `with`"), "{e}");
        let e = parse(quote!(wrt(x), wrt(y))).err().unwrap().to_string();
        assert!(e.contains("given twice"), "{e}");
        assert!(parse(quote!(wrt())).is_err());
        let e = parse(quote!(jvp, jvp)).err().unwrap().to_string();
        assert!(e.contains("`jvp` is given twice"), "{e}");
    }
}
