//! Iterator reductions over arrays and ranges (`x.iter().sum::<f64>()`,
//! `a.iter().zip(b.iter()).map(|(p, q)| p * q).sum()`, `x.iter().fold(0.0, |m, v| m.max(*v))`),
//! rewritten as the loop they stand for and lowered as one:
//!
//! ```text
//! { let mut acc = INIT; for PAT in SOURCE { acc = STEP; } acc }
//! ```

use proc_macro2::{Ident, Span};
use quote::quote;

use super::{Lower, err};
use crate::ir::*;

/// The accumulator of `sum` and `product` (a `fold` names its own): a name user code does not use.
const ACC: &str = "__stackgrad_acc";
/// The element of a reduction without `map` (`x.iter().sum()`).
const ELEM: &str = "__stackgrad_elem";

/// A reduction taken apart: the loop it stands for.
struct Reduction {
    acc: Ident,
    acc_ty: Option<syn::Type>,
    init: syn::Expr,
    pat: syn::Pat,
    source: syn::Expr,
    /// The new accumulator from `acc` and the element.
    step: syn::Expr,
}

/// Is `m` the last call of an iterator reduction (`.sum()`, `.product()`, `.fold(..)`)?
pub(super) fn is_reduction(m: &syn::ExprMethodCall) -> bool {
    matches!(m.method.to_string().as_str(), "sum" | "product" | "fold")
        && iterator_source(&m.receiver)
}

/// Does the chain start at `.iter()`, `.into_iter()` or a range?
fn iterator_source(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::MethodCall(m) => {
            matches!(m.method.to_string().as_str(), "iter" | "into_iter")
                || iterator_source(&m.receiver)
        }
        syn::Expr::Paren(p) => iterator_source(&p.expr),
        syn::Expr::Range(_) => true,
        _ => false,
    }
}

/// A closure's single parameter or `(a, b)` pattern, with its type annotation dropped.
fn closure_pat(p: &syn::Pat) -> syn::Pat {
    match p {
        syn::Pat::Type(t) => (*t.pat).clone(),
        p => p.clone(),
    }
}

/// `v` of `v` or `&v`: the name a `let` can bind.
fn let_pat(p: syn::Pat) -> syn::Pat {
    match p {
        syn::Pat::Reference(r) => *r.pat,
        p => p,
    }
}

impl Lower {
    /// Lowers a reduction as its loop, in a block of its own; `None` (with an error) when its
    /// shape is not one of the supported ones.
    pub(super) fn reduction(&mut self, m: &syn::ExprMethodCall, out: &mut Block) -> Operand {
        let Some(r) = self.take_apart(m) else {
            return self.dummy();
        };
        let Reduction {
            acc,
            acc_ty,
            init,
            pat,
            source,
            step,
        } = r;
        let ty = acc_ty.map(|t| quote!(: #t));
        let block: syn::Expr = syn::parse_quote!({
            let mut #acc #ty = #init;
            for #pat in #source {
                #acc = #step;
            }
            #acc
        });
        self.float(&block, out)
    }

    fn take_apart(&mut self, m: &syn::ExprMethodCall) -> Option<Reduction> {
        let method = m.method.to_string();
        let acc_ty = match &m.turbofish {
            Some(t) if t.args.len() == 1 => match t.args.first() {
                Some(syn::GenericArgument::Type(ty)) => Some(ty.clone()),
                _ => None,
            },
            _ => None,
        };
        // The closure (or function path) of `map`, below the reduction; `copied` and `cloned`
        // change nothing for the loop.
        let mut source = &*m.receiver;
        let mut map: Option<&syn::ExprClosure> = None;
        loop {
            match source {
                syn::Expr::Paren(p) => source = &p.expr,
                syn::Expr::MethodCall(c)
                    if matches!(c.method.to_string().as_str(), "copied" | "cloned") =>
                {
                    source = &c.receiver
                }
                syn::Expr::MethodCall(c) if c.method == "map" && map.is_none() => {
                    let Some(syn::Expr::Closure(cl)) = c.args.first().filter(|_| c.args.len() == 1)
                    else {
                        self.error(err(c, "write `map`'s function as a closure of one parameter, as in `.map(|v| v * v)`"));
                        return None;
                    };
                    if cl.inputs.len() != 1 {
                        self.error(err(cl, "`map`'s closure takes one parameter (a pattern such as `(p, q)` for `zip`)"));
                        return None;
                    }
                    map = Some(cl);
                    source = &c.receiver;
                }
                _ => break,
            }
        }
        let (pat, elem): (syn::Pat, syn::Expr) = match map {
            Some(cl) => (closure_pat(&cl.inputs[0]), (*cl.body).clone()),
            None => {
                let e = Ident::new(ELEM, Span::call_site());
                (syn::parse_quote!(#e), syn::parse_quote!(#e))
            }
        };
        let source = source.clone();
        let acc = Ident::new(ACC, Span::call_site());
        let empty = |args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>| args.is_empty();
        match method.as_str() {
            "sum" | "product" if empty(&m.args) => {
                // `-0.0` is the exact identity of `+` (as in `core`'s `Sum` for floats); the
                // element goes in parentheses, since quoting an expression does not add them.
                let (init, step): (syn::Expr, syn::Expr) = if method == "sum" {
                    (syn::parse_quote!(-0.0), syn::parse_quote!(#acc + (#elem)))
                } else {
                    (syn::parse_quote!(1.0), syn::parse_quote!(#acc * (#elem)))
                };
                Some(Reduction {
                    acc,
                    acc_ty,
                    init,
                    pat,
                    source,
                    step,
                })
            }
            "fold" if m.args.len() == 2 => self.fold(m, map.is_some(), pat, elem, source),
            _ => {
                self.error(err(
                    m,
                    format!(
                        "write `{method}` as `.sum()`, `.product()` or `.fold(init, |acc, v| ..)`"
                    ),
                ));
                None
            }
        }
    }

    /// `.fold(init, |acc, v| step)` or `.fold(init, f64::max)`, after a `map` when `mapped`.
    fn fold(
        &mut self,
        m: &syn::ExprMethodCall,
        mapped: bool,
        pat: syn::Pat,
        elem: syn::Expr,
        source: syn::Expr,
    ) -> Option<Reduction> {
        let init = m.args[0].clone();
        match &m.args[1] {
            syn::Expr::Closure(cl) if cl.inputs.len() == 2 => {
                let acc_ty = match &cl.inputs[0] {
                    syn::Pat::Type(t) => Some((*t.ty).clone()),
                    _ => None,
                };
                let acc = match closure_pat(&cl.inputs[0]) {
                    syn::Pat::Ident(pi) if pi.subpat.is_none() => pi.ident,
                    p => {
                        self.error(err(p, "name the accumulator, as in `|acc, v| ..`"));
                        return None;
                    }
                };
                let v = closure_pat(&cl.inputs[1]);
                let body = (*cl.body).clone();
                // After `map`, the element is `map`'s value, bound to `fold`'s pattern.
                let (pat, step): (syn::Pat, syn::Expr) = if mapped {
                    let v = let_pat(v);
                    (pat, syn::parse_quote!({ let #v = #elem; #body }))
                } else {
                    (v, body)
                };
                Some(Reduction {
                    acc,
                    acc_ty,
                    init,
                    pat,
                    source,
                    step,
                })
            }
            syn::Expr::Path(f) => {
                let acc = Ident::new(ACC, Span::call_site());
                Some(Reduction {
                    acc: acc.clone(),
                    acc_ty: None,
                    init,
                    pat,
                    source,
                    step: syn::parse_quote!(#f(#acc, #elem)),
                })
            }
            other => {
                self.error(err(
                    other,
                    "write `fold`'s function as a closure `|acc, v| ..` or a float function such as `f64::max`",
                ));
                None
            }
        }
    }
}
