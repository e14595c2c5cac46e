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
//! or elements whose indices are names or literals; another is one error.

use quote::format_ident;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

use super::assigned::{assigns, rearranges};
use super::patterns::is_simple_place;

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
                let (a, args) = (&m.receiver, &m.args);
                let span = m.method.span();
                // The receiver is read and written again, and a `swap`'s indices are bound
                // before it is read (Rust reads the receiver first): neither may change anything.
                if !is_simple_place(a) || args.iter().any(assigns) {
                    return Some(Err(syn::Error::new_spanned(
                        m,
                        format!(
                            "`.{}(..)` rearranges a local array in place here when it is called on a name, a field or an element whose indices are names or literals, with arguments that assign nothing: bind a computed index or argument to a `let` first",
                            m.method
                        ),
                    )));
                }
                match (m.method.to_string().as_str(), args.len()) {
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
                }
            }
            syn::Expr::Call(c) if mem_swap(&c.func) && c.args.len() == 2 => {
                let (Some(p), Some(q)) = (borrowed_mut(&c.args[0]), borrowed_mut(&c.args[1]))
                else {
                    return Some(Err(syn::Error::new_spanned(
                        c,
                        "`mem::swap` is supported of two places borrowed `&mut` whose indices are names or literals (`mem::swap(&mut a, &mut b)`, `&mut h[i]`); bind a computed index to a `let` first",
                    )));
                };
                let span = c.span();
                syn::parse_quote_spanned!(span=> {
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

/// The place of `&mut place`, if its indices are names or literals.
fn borrowed_mut(e: &syn::Expr) -> Option<&syn::Expr> {
    match e {
        syn::Expr::Reference(r) if r.mutability.is_some() && is_simple_place(&r.expr) => {
            Some(&r.expr)
        }
        _ => None,
    }
}
