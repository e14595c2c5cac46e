//! Jacobians of tuple-valued functions: `#[differentiable(jacobian)]` on
//! `fn f(x: &[f64; N], w: f64) -> (f64, [f64; M])` adds `f_jacobian_rev`, `f_jacobian_fwd` and
//! `f_jacobian` as for an array output ([`crate::jacobian`]), returning the value and one block
//! per output element, in order: for a float element the gradient of that element with respect
//! to each differentiated parameter (shaped like the parameter), for an `[f64; M]` element a
//! `[P; M]` per parameter `P` (row `i` the gradient of its element `i`). With several
//! differentiated parameters each block is a tuple over them.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ir::{Func, Kind, TyVal};
use crate::items::Sig;
use crate::jacobian::{check_params, chooser, rows_only};

/// One element of the output tuple: a float, or an array of floats (its length).
enum Out {
    Float,
    Array(TokenStream),
}

/// The tuple Jacobian items of `f`, or one error on what they cannot take.
pub fn items(func: &syn::ItemFn, f: &Func) -> syn::Result<TokenStream> {
    let outs = outputs(func, f)?;
    check_params(f)?;
    let sig = Sig::new(func, f);
    let p = Parts::new(&sig, f, &outs);
    let rev = rev_fn(&p);
    let fwd = (!rows_only(f)).then(|| fwd_fn(&p));
    let rows = outs.iter().map(|o| match o {
        Out::Float => quote!(1),
        Out::Array(n) => quote!(#n),
    });
    let jac = chooser(
        &sig,
        f,
        (&quote!((0 #(+ #rows)*)), &p.ret),
        "for each element of its output, its Jacobian with respect to {}, by whichever of [`{rev}`] (a reverse sweep per output float) and [`{fwd}`] (a tangent per input coordinate) runs fewer sweeps",
    );
    Ok(quote!(#rev #fwd #jac))
}

/// The output's elements: floats and arrays of floats.
fn outputs(func: &syn::ItemFn, f: &Func) -> syn::Result<Vec<Out>> {
    (f.ret.iter())
        .map(|&r| match (f.types.get(r), f.types.elem(r)) {
            (TyVal::Array(_, n), Some(e)) if f.types.kind(e) == Kind::Float => {
                Ok(Out::Array(n.clone()))
            }
            _ if f.types.kind(r) == Kind::Float => Ok(Out::Float),
            _ => Err(syn::Error::new_spanned(
                &func.sig.output,
                "`jacobian` of a tuple output takes floats and arrays of floats as its elements",
            )),
        })
        .collect()
}

/// What both forms share: the blocks' locals (`j{k}_{p}`, output element `k`, parameter `p`),
/// their declarations and the returned value.
struct Parts<'a> {
    sig: &'a Sig<'a>,
    f: &'a Func,
    outs: &'a [Out],
    /// The returned type.
    ret: TokenStream,
    j: Vec<Vec<Ident>>,
    decls: TokenStream,
    result: TokenStream,
}

impl<'a> Parts<'a> {
    fn new(sig: &'a Sig<'a>, f: &'a Func, outs: &'a [Out]) -> Self {
        let mixed = |s: String| Ident::new(&s, Span::mixed_site());
        let j: Vec<Vec<Ident>> = (0..outs.len())
            .map(|k| {
                (0..f.wrt.len())
                    .map(|p| mixed(format!("j{k}_{p}")))
                    .collect()
            })
            .collect();
        let group = |items: Vec<TokenStream>| match &items[..] {
            [one] => one.clone(),
            many => quote!((#(#many),*)),
        };
        let (mut decls, mut tys, mut results) = (TokenStream::new(), Vec::new(), Vec::new());
        for (k, out) in outs.iter().enumerate() {
            let mut block_tys = Vec::new();
            for (p, (&i, t)) in f.wrt.iter().zip(&sig.wrt_tys).enumerate() {
                let ty = f.vars[f.params[i]].ty;
                let zero = f.types.zero(ty);
                let jk = &j[k][p];
                let (bty, init) = match out {
                    Out::Float => (quote!(#t), zero),
                    Out::Array(n) if f.types.kind(ty) == Kind::Struct => {
                        (quote!([#t; #n]), quote!(::core::array::from_fn(|_| #zero)))
                    }
                    Out::Array(n) => (quote!([#t; #n]), quote!([#zero; #n])),
                };
                decls.extend(quote!(let mut #jk: #bty = #init;));
                block_tys.push(bty);
            }
            tys.push(group(block_tys));
            results.push(group(j[k].iter().map(|x| quote!(#x)).collect()));
        }
        let value = &sig.ret;
        Parts {
            sig,
            f,
            outs,
            ret: quote!((#value, (#(#tys,)*))),
            j,
            decls,
            result: quote!((#(#results,)*)),
        }
    }

    /// The output cotangent: zero but for element `k`, which is `one`.
    fn seed(&self, k: usize, one: TokenStream) -> TokenStream {
        let elems = self
            .outs
            .iter()
            .enumerate()
            .map(|(m, o)| match (m == k, o) {
                (true, _) => one.clone(),
                (false, Out::Float) => quote!(0.0),
                (false, Out::Array(n)) => quote!([0.0; #n]),
            });
        quote!((#(#elems,)*))
    }
}

/// Rows: one forward sweep, then one reverse sweep per float of the output.
fn rev_fn(p: &Parts) -> TokenStream {
    let Sig {
        name, adj, args, ..
    } = p.sig;
    let tf = p.sig.turbofish();
    let [tape, e, i] = ["tape", "e", "i"].map(|s| Ident::new(s, Span::mixed_site()));
    let mut sweeps = TokenStream::new();
    for (k, out) in p.outs.iter().enumerate() {
        let js = &p.j[k];
        sweeps.extend(match out {
            Out::Float => {
                let seed = p.seed(k, quote!(1.0));
                quote!(#adj #tf(#(#args,)* &#tape, #seed, #(&mut #js),*);)
            }
            Out::Array(n) => {
                let seed = p.seed(k, quote!(#e));
                quote! {
                    let mut #e = [0.0; #n];
                    for #i in 0..#n {
                        #e[#i] = 1.0;
                        #adj #tf(#(#args,)* &#tape, #seed, #(&mut #js[#i]),*);
                        #e[#i] = 0.0;
                    }
                }
            }
        });
    }
    let text = format!(
        "The value of [`{name}`] and its Jacobian by rows: one forward sweep, then one reverse sweep per float of the output (generated by `#[differentiable(jacobian)]`)."
    );
    crate::jacobian::rev_item(p.sig, &text, &p.ret, &p.decls, &sweeps, &p.result)
}

/// Columns: one tangent sweep per coordinate of each differentiated parameter.
fn fwd_fn(p: &Parts) -> TokenStream {
    let name = &p.sig.name;
    let [d, i] = ["d", "i"].map(|s| Ident::new(s, Span::mixed_site()));
    let text = format!(
        "The value of [`{name}`] and its Jacobian by columns: one `{name}_jvp` per coordinate of the differentiated parameters (generated by `#[differentiable(jacobian)]`)."
    );
    let parts = (&p.ret, &p.decls, &p.result);
    crate::jacobian::fwd_item(p.sig, p.f, &text, parts, |pi, at| {
        let scatter = p.outs.iter().enumerate().map(|(k, out)| {
            let (jk, kk) = (&p.j[k][pi], syn::Index::from(k));
            match out {
                Out::Float => quote!(#jk #at = #d.#kk;),
                Out::Array(n) => quote!(for #i in 0..#n { #jk[#i] #at = #d.#kk[#i]; }),
            }
        });
        quote!(#(#scatter)*)
    })
}
