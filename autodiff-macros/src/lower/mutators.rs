//! The methods that rearrange an array in place, as statements, rewritten before lowering as
//! the reads and writes of elements they stand for:
//!
//! ```text
//! a.swap(i, j);                 =>  { let i_ = i; let j_ = j; let t = a[i_]; a[i_] = a[j_]; a[j_] = t; }
//! core::mem::swap(&mut p, &mut q);  =>  { let t = p; p = q; q = t; }
//! a.reverse();                  =>  for k in 0..a.len() / 2 { let t = a[k]; a[k] = a[a.len() - 1 - k]; a[a.len() - 1 - k] = t; }
//! a.fill(v);                    =>  { let v_ = v; for k in 0..a.len() { a[k] = v_; } }
//! ```
//!
//! An element of an array or a row swaps whole (`m.swap(r, p)` of a matrix's rows, as
//! Gaussian elimination pivots); a `Vec` local's elements as an array's. The receiver and
//! `mem::swap`'s places are read and written again (once in Rust), so they are names, fields
//! or elements of them, their computed indices bound to `let`s first, in the order Rust reads
//! them (`m[k + 1].swap(i, j)` => `{ let r = k + 1; .. m[r][i_] .. }`); another place, or an
//! index that assigns, is one error.

use quote::format_ident;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

use super::assigned::{assigns, rearranges};

/// Rewrites the statements that call `swap`, `reverse` or `fill` on an array, or
/// `mem::swap`; the errors of those it cannot take.
pub(super) fn desugar(block: &mut syn::Block) -> Vec<syn::Error> {
    let mut r = Rewrite {
        errors: Vec::new(),
        n: 0,
    };
    r.visit_block_mut(block);
    r.errors
}

struct Rewrite {
    errors: Vec<syn::Error>,
    n: usize,
}

impl VisitMut for Rewrite {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, b);
        for s in &mut b.stmts {
            if let syn::Stmt::Expr(e, _) = s {
                match self.rewrite(e) {
                    Some(Ok(block)) => *e = block,
                    // Left out after its error: one error.
                    Some(Err(err)) => {
                        self.errors.push(err);
                        *e = syn::parse_quote!({});
                    }
                    None => {}
                }
            }
        }
    }
}

impl Rewrite {
    /// The block a statement's call stands for (`None` for another statement).
    fn rewrite(&mut self, e: &syn::Expr) -> Option<syn::Result<syn::Expr>> {
        let n = self.n;
        let (t, k) = (
            format_ident!("__stackgrad_swap_{}", n),
            format_ident!("__stackgrad_at_{}", n),
        );
        let out = match e {
            syn::Expr::MethodCall(m) if m.turbofish.is_none() && rearranges(m) => {
                let args = &m.args;
                let span = m.method.span();
                // The receiver is read and written again, so its computed indices are bound
                // first, and a `swap`'s indices after them, as Rust reads them (the receiver
                // first): none may change anything.
                let bound = bind_indices(&m.receiver, &format!("__stackgrad_row_{n}"));
                let Some((lets, a)) = bound.filter(|_| !args.iter().any(assigns)) else {
                    return Some(Err(syn::Error::new_spanned(
                        m,
                        format!(
                            "`.{}(..)` rearranges a local array in place here when it is called on a name, a field or an element of one (not a sub-slice, `a[i..]`), with indices and arguments that assign nothing: bind what assigns to a `let` first, or write the loop over the elements",
                            m.method
                        ),
                    )));
                };
                let a = &a;
                let rewritten: syn::Expr = match (m.method.to_string().as_str(), args.len()) {
                    ("swap", 2) => {
                        let (i, j) = (&args[0], &args[1]);
                        let (ii, jj) = (
                            format_ident!("__stackgrad_i_{}", n),
                            format_ident!("__stackgrad_j_{}", n),
                        );
                        syn::parse_quote_spanned!(span=> {
                            let #ii = #i;
                            let #jj = #j;
                            let #t = #a[#ii];
                            #a[#ii] = #a[#jj];
                            #a[#jj] = #t;
                        })
                    }
                    // The bound as `a.len()`, which the lowering knows for a fixed-size array
                    // (a loop of a run-time bound is refused in a checkpointed loop).
                    ("reverse", 0) => syn::parse_quote_spanned!(span=> {
                        for #k in 0..#a.len() / 2 {
                            let #t = #a[#k];
                            #a[#k] = #a[#a.len() - 1 - #k];
                            #a[#a.len() - 1 - #k] = #t;
                        }
                    }),
                    ("fill", 1) => {
                        let v = &args[0];
                        syn::parse_quote_spanned!(span=> {
                            let #t = #v;
                            for #k in 0..#a.len() {
                                #a[#k] = #t;
                            }
                        })
                    }
                    _ => return None,
                };
                syn::parse_quote_spanned!(span=> { #(#lets)* #rewritten })
            }
            syn::Expr::Call(c) if mem_swap(&c.func) && c.args.len() == 2 => {
                let bound = (borrowed_mut(&c.args[0]), borrowed_mut(&c.args[1]));
                let (Some((p_lets, p)), Some((q_lets, q))) = (
                    bound
                        .0
                        .and_then(|p| bind_indices(p, &format!("__stackgrad_left_{n}"))),
                    bound
                        .1
                        .and_then(|q| bind_indices(q, &format!("__stackgrad_right_{n}"))),
                ) else {
                    return Some(Err(syn::Error::new_spanned(
                        c,
                        "`mem::swap` is supported of two places borrowed `&mut` (`mem::swap(&mut a, &mut b)`, `&mut h[i + 1]`) whose indices assign nothing; bind what assigns to a `let` first",
                    )));
                };
                let span = c.span();
                syn::parse_quote_spanned!(span=> {
                    #(#p_lets)*
                    #(#q_lets)*
                    let #t = #p;
                    #p = #q;
                    #q = #t;
                })
            }
            _ => return None,
        };
        self.n += 1;
        Some(Ok(out))
    }
}

/// `core::mem::swap`, `std::mem::swap` or `mem::swap`.
fn mem_swap(f: &syn::Expr) -> bool {
    matches!(f, syn::Expr::Path(p) if p.qself.is_none() && super::std_path(&p.path) == ["mem", "swap"])
}

/// The place of `&mut place`.
fn borrowed_mut(e: &syn::Expr) -> Option<&syn::Expr> {
    match e {
        syn::Expr::Reference(r) if r.mutability.is_some() => Some(&r.expr),
        _ => None,
    }
}

/// A place (a name, a field or an element of one) to read and write again: the `let`s that
/// bind its computed indices, leftmost first as Rust reads them (`m[i + 1][j * 2]` binds
/// `i + 1`, then `j * 2`), each a fresh `prefix_k` of ours (`Span::mixed_site()`), and the
/// place with those names in their stead. `None` for another expression, an index that
/// assigns, or a range (a sub-slice, which these methods take only of a whole array here).
fn bind_indices(e: &syn::Expr, prefix: &str) -> Option<(Vec<syn::Stmt>, syn::Expr)> {
    let mut lets = Vec::new();
    let place = bound_place(e, prefix, &mut lets)?;
    Some((lets, place))
}

fn bound_place(e: &syn::Expr, prefix: &str, lets: &mut Vec<syn::Stmt>) -> Option<syn::Expr> {
    match e {
        syn::Expr::Path(p) if p.qself.is_none() => Some(e.clone()),
        syn::Expr::Field(f) => {
            let mut f = f.clone();
            *f.base = bound_place(&f.base, prefix, lets)?;
            Some(syn::Expr::Field(f))
        }
        syn::Expr::Index(i) if !assigns(&i.index) && !matches!(*i.index, syn::Expr::Range(_)) => {
            let mut i = i.clone();
            *i.expr = bound_place(&i.expr, prefix, lets)?;
            if !matches!(*i.index, syn::Expr::Lit(_) | syn::Expr::Path(_)) {
                let index = &i.index;
                let name = syn::Ident::new(
                    &format!("{}_{}", prefix, lets.len()),
                    proc_macro2::Span::mixed_site().located_at(index.span()),
                );
                lets.push(syn::parse_quote_spanned!(index.span()=> let #name = #index;));
                *i.index = syn::parse_quote!(#name);
            }
            Some(syn::Expr::Index(i))
        }
        _ => None,
    }
}

/// What to write instead of a method called as a statement the rewrites before lowering did
/// not take (`swap`, `reverse` and `fill` of local arrays are): one called for its effect on
/// its receiver (`a.sort_by(..)`), or a value computed and dropped.
pub(super) fn effect_method(method: &syn::Ident) -> String {
    let m = method.to_string();
    if m.starts_with("sort") {
        return format!(
            "`.{m}(..)` is not supported: sort a local array by compare-and-swap, which the macro differentiates, as in `for i in 1..N {{ for j in (1..=i).rev() {{ if a[j - 1] > a[j] {{ a.swap(j - 1, j); }} }} }}`"
        );
    }
    format!(
        "`.{m}(..)` as a statement is not supported: of a local array the macro takes `a.swap(i, j)`, `a.reverse()` and `a.fill(v)` in place; write another change as element writes (`a[i] = ..`), and bind a value computed here with `let` or remove it"
    )
}
