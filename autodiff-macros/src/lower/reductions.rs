//! Iterator reductions over arrays and ranges (`x.iter().sum::<f64>()`,
//! `a.iter().zip(b.iter()).map(|(p, q)| p * q).sum()`, `x.iter().fold(0.0, |m, v| m.max(*v))`),
//! rewritten as the loop they stand for and lowered as one:
//!
//! ```text
//! { let mut acc = INIT; for PAT in SOURCE { acc = STEP; } acc }
//! ```

use proc_macro2::{Ident, Span};
use quote::{ToTokens, quote};

use super::{Lower, err};
use crate::ir::*;
use crate::names::identifiers;

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

/// The error for `.reduce(f).unwrap()` (and `.max_by(..)`, `.min_by(..)`, `.expect(..)`) of an
/// iterator: a reduction with no first value, which the macro does not take apart.
fn option_reduction(m: &syn::ExprMethodCall) -> Option<String> {
    let syn::Expr::MethodCall(r) = &*m.receiver else {
        return None;
    };
    let unwrapped = matches!(m.method.to_string().as_str(), "unwrap" | "expect");
    let reduce = r.method.to_string();
    if !unwrapped
        || !matches!(reduce.as_str(), "reduce" | "max_by" | "min_by")
        || !iterator_source(&r.receiver)
    {
        return None;
    }
    let (start, pick) = if reduce == "min_by" {
        ("f64::INFINITY", "min")
    } else {
        ("f64::NEG_INFINITY", "max")
    };
    Some(format!(
        "`.{reduce}(..)` of an iterator gives an `Option` (none without elements), which is not differentiated; fold from a first value instead, as in `x.iter().fold({start}, |m, &v| m.{pick}(v))` or `x[1..].iter().fold(x[0], |m, &v| m.{pick}(v))`"
    ))
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

/// `map`'s pattern and body with the names the pattern binds renamed to names no user code has
/// (`v` -> `__stackgrad_map_v`, everywhere in the body, inner bindings included), so that they
/// are not in scope in `fold`'s body.
fn hidden(pat: syn::Pat, body: syn::Expr) -> (syn::Pat, syn::Expr) {
    use std::collections::HashMap;
    use syn::visit_mut::VisitMut;

    struct Rename(HashMap<String, Ident>, bool);
    impl VisitMut for Rename {
        fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
            let name = p.ident.to_string();
            if self.1 {
                let bare = crate::names::bare(&p.ident);
                let new = Ident::new(&format!("__stackgrad_map_{bare}"), p.ident.span());
                self.0.insert(name, new.clone());
                p.ident = new;
            } else if let Some(new) = self.0.get(&name) {
                p.ident = new.clone();
            }
            syn::visit_mut::visit_pat_ident_mut(self, p);
        }
        fn visit_expr_path_mut(&mut self, e: &mut syn::ExprPath) {
            if e.qself.is_none()
                && let Some(id) = e.path.get_ident()
                && let Some(new) = self.0.get(&id.to_string())
            {
                e.path = new.clone().into();
            }
            syn::visit_mut::visit_expr_path_mut(self, e);
        }
    }
    let (mut pat, mut body) = (pat, body);
    let mut r = Rename(HashMap::new(), true);
    r.visit_pat_mut(&mut pat);
    r.1 = false;
    r.visit_expr_mut(&mut body);
    (pat, body)
}

impl Lower {
    /// Whether `m` is `.reduce(f).unwrap()` or the like ([`option_reduction`]), whose error
    /// this reports: the caller stands a dummy value for it.
    pub(super) fn reported_option_reduction(&mut self, m: &syn::ExprMethodCall) -> bool {
        let msg = option_reduction(m);
        if let Some(msg) = &msg {
            self.error(err(&m.receiver, msg));
        }
        msg.is_some()
    }

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
                let user_acc = match closure_pat(&cl.inputs[0]) {
                    syn::Pat::Ident(pi) if pi.subpat.is_none() => pi,
                    p => {
                        self.error(err(p, "name the accumulator, as in `|acc, v| ..`"));
                        return None;
                    }
                };
                let v = closure_pat(&cl.inputs[1]);
                let body = (*cl.body).clone();
                // A closure binds its names in its own body only. The loop binds the
                // accumulator over the source and `map`'s closure too, and `map`'s element over
                // `fold`'s body: where such a name is read there, it takes a name no user code
                // has (`map(|v| v * s).fold(0.0, |s, t| s + t)` reads the parameter `s`).
                let seen = |t: &dyn ToTokens| identifiers(t.to_token_stream());
                let mut around = seen(&source);
                if mapped {
                    around.extend(seen(&pat));
                    around.extend(seen(&elem));
                }
                let (acc, rebind) = if around.contains(&user_acc.ident.to_string()) {
                    let acc = Ident::new(ACC, Span::call_site());
                    let rebind: syn::Stmt = syn::parse_quote!(let #user_acc = #acc;);
                    (acc, Some(rebind))
                } else {
                    (user_acc.ident, None)
                };
                let (pat, step): (syn::Pat, syn::Expr) = if mapped {
                    let (pat, elem) = if seen(&pat).is_disjoint(&seen(&body)) {
                        (pat, elem)
                    } else {
                        hidden(pat, elem)
                    };
                    let v = let_pat(v);
                    let step = match rebind {
                        // `map`'s value first, where the accumulator's name is not bound.
                        Some(rebind) => {
                            let e = Ident::new(ELEM, Span::call_site());
                            syn::parse_quote!({
                                let #e = #elem;
                                #rebind
                                let #v = #e;
                                #body
                            })
                        }
                        None => syn::parse_quote!({ let #v = #elem; #body }),
                    };
                    (pat, step)
                } else if rebind.is_some() {
                    (v, syn::parse_quote!({ #rebind #body }))
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
