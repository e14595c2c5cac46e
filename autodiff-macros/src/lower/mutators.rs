//! The methods that rearrange an array in place, as statements, rewritten before lowering as
//! the reads and writes of elements they stand for:
//!
//! ```text
//! a.swap(i, j);                 =>  { let i_ = i; let j_ = j; let t = a[i_]; a[i_] = a[j_]; a[j_] = t; }
//! core::mem::swap(&mut p, &mut q);  =>  { let t = p; p = q; q = t; }
//! a.reverse();                  =>  for k in 0..a.len() / 2 { (a.swap(k, a.len() - 1 - k)) }
//! a.fill(v);                    =>  { let v_ = v; for k in 0..a.len() { a[k] = v_; } }
//! ```
//!
//! An element of an array or a row swaps whole (`m.swap(r, p)` of a matrix's rows, as
//! Gaussian elimination pivots). `mem::swap` takes places whose indices are names or literals
//! (read twice here, once in Rust); another is one error.

use quote::format_ident;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

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
            syn::Expr::MethodCall(m) if m.turbofish.is_none() && place(&m.receiver) => {
                let (a, args) = (&m.receiver, &m.args);
                let span = m.method.span();
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
        syn::Expr::Reference(r) if r.mutability.is_some() && place(&r.expr) => Some(&r.expr),
        _ => None,
    }
}

/// A place whose indices are names or literals: a name, a field or an element of one.
fn place(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some(),
        syn::Expr::Field(f) => place(&f.base),
        syn::Expr::Index(i) => {
            place(&i.expr) && matches!(&*i.index, syn::Expr::Lit(_) | syn::Expr::Path(_))
        }
        _ => false,
    }
}
