//! The pipeline driver. On error it emits the user's function unchanged next to the error, so
//! the rest of the crate still sees `f` and reports nothing else.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::emit::{Fwd, name_temps};
use crate::ir::Func;
use crate::names::tape_name;
use crate::plan::{BlockRef, Plan};
use crate::reverse::Rev;
use crate::tape::Tape;
use crate::walk::has_panic;
use crate::{analysis, args, lower};
use syn::visit_mut::VisitMut;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => {
            let e = syn::Error::new(
                e.span(),
                "`#[differentiable]` applies to a free function, as in `#[differentiable] fn f(x: f64) -> f64 { .. }`",
            )
            .to_compile_error();
            return quote!(#item #e);
        }
    };
    let generated = generate(attr, &func);
    // The primal is the user's function as written, less the `#[max_iters(K)]`,
    // `#[checkpoint]` and `#[recompute]` attributes, which only this macro reads.
    let mut func = func;
    StripBounds.visit_item_fn_mut(&mut func);
    match generated {
        Ok(items) => quote!(#func #items),
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#func #e)
        }
    }
}

/// Emits a tape struct with `new`, `Default`, `BYTES` and `FIELDS`.
struct TapeItems<'a> {
    vis: &'a syn::Visibility,
    gdecl: &'a TokenStream,
    guse: &'a TokenStream,
    gnames: &'a [&'a Ident],
}

impl TapeItems<'_> {
    fn emit<'f>(
        &self,
        ty: &Ident,
        doc_text: &str,
        fields: impl Iterator<Item = &'f crate::tape::Field>,
    ) -> TokenStream {
        let (vis, gdecl, guse, gnames) = (self.vis, self.gdecl, self.guse, self.gnames);
        let fields: Vec<_> = fields.collect();
        let mut names: Vec<_> = fields.iter().map(|x| x.name.clone()).collect();
        let mut tys: Vec<_> = fields.iter().map(|x| x.ty.clone()).collect();
        let mut docs: Vec<_> = fields.iter().map(|x| doc(x.doc.clone())).collect();
        let mut inits: Vec<_> = fields.iter().map(|x| x.init.clone()).collect();
        if !gnames.is_empty() {
            // Every const parameter appears in a field, even where no recorded value needs it.
            names.push(Ident::new("const_params", Span::call_site()));
            tys.push(quote!((#([(); #gnames],)*)));
            inits.push(quote!((#([(); #gnames],)*)));
            docs.push(doc("The const parameters (zero-sized).".into()));
        }
        let inits = names.iter().zip(&inits).map(|(n, i)| quote!(#n: #i));
        let report_names: Vec<String> = fields.iter().map(|x| x.name.to_string()).collect();
        let report_docs: Vec<String> = fields.iter().map(|x| x.doc.replace('`', "")).collect();
        let report_tys: Vec<String> = fields.iter().map(|x| crate::names::text(&x.ty)).collect();
        let report_types: Vec<&TokenStream> = fields.iter().map(|x| &x.ty).collect();
        let doc_attr = doc(doc_text.to_string());
        quote! {
            #doc_attr
            #[derive(::core::clone::Clone, ::core::fmt::Debug)]
            #vis struct #ty #gdecl {
                #(#docs #names: #tys,)*
            }

            impl #gdecl #ty #guse {
                /// The exact size of this tape in bytes.
                pub const BYTES: usize = ::core::mem::size_of::<Self>();

                /// Every recorded field, in the order the forward sweep writes it: its name, what
                /// it records, its type and its size in bytes. The sizes add up to
                /// [`Self::BYTES`] up to alignment padding.
                pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[
                    #((#report_names, #report_docs, #report_tys, ::core::mem::size_of::<#report_types>()),)*
                ];

                /// A zeroed tape.
                pub const fn new() -> Self {
                    Self { #(#inits),* }
                }
            }

            impl #gdecl ::core::default::Default for #ty #guse {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    }
}

struct StripBounds;

impl syn::visit_mut::VisitMut for StripBounds {
    fn visit_expr_while_mut(&mut self, w: &mut syn::ExprWhile) {
        w.attrs.retain(|a| !a.path().is_ident("max_iters"));
        syn::visit_mut::visit_expr_while_mut(self, w);
    }

    fn visit_expr_loop_mut(&mut self, l: &mut syn::ExprLoop) {
        l.attrs.retain(|a| !a.path().is_ident("max_iters"));
        syn::visit_mut::visit_expr_loop_mut(self, l);
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        l.attrs.retain(|a| !a.path().is_ident("recompute"));
        syn::visit_mut::visit_local_mut(self, l);
    }

    fn visit_expr_for_loop_mut(&mut self, l: &mut syn::ExprForLoop) {
        l.attrs.retain(|a| !a.path().is_ident("checkpoint"));
        syn::visit_mut::visit_expr_for_loop_mut(self, l);
    }
}

fn generate(attr: TokenStream, func: &syn::ItemFn) -> syn::Result<TokenStream> {
    let args = args::parse(attr)?;
    let f = lower::lower(func, &args)?;
    Ok(items(func, &f))
}

fn doc(text: String) -> TokenStream {
    quote!(#[doc = #text])
}

fn list(names: impl Iterator<Item = String>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn items(func: &syn::ItemFn, f: &Func) -> TokenStream {
    let act = analysis::activity(f);
    let plan = Plan::new(f, &act);
    let temp_names = name_temps(f);
    let gn: Vec<_> = f.generics.iter().map(|(n, _)| n).collect();
    let rev = |tape: Tape| {
        let mut rev = Rev::new(f, &act, &plan, &temp_names, tape);
        rev.tape_ty = tape_name(&func.sig.ident);
        rev.guse = if gn.is_empty() {
            quote!()
        } else {
            quote!(<#(#gn),*>)
        };
        rev
    };
    let d_out = Ident::new("d_out", Span::mixed_site());
    // The output cotangent comes by value for a float or a tuple, by reference for an array or
    // a struct (no copy of a large array per call); the sweep reads it as the place `(*d_out)`.
    let d_out_by_ref = !f.ret_tuple
        && f.ret
            .first()
            .is_some_and(|&t| f.types.kind(t) != crate::ir::Kind::Float);
    let seeds: Vec<_> = if d_out_by_ref {
        vec![Some(quote!((*#d_out)))]
    } else if f.ret_tuple {
        (0..f.ret.len())
            .map(|i| {
                let i = syn::Index::from(i);
                Some(quote!(#d_out.#i))
            })
            .collect()
    } else {
        vec![Some(quote!(#d_out))]
    };
    // The records the reverse sweep reads, as the plan provides them: the tape's fields.
    let mut tape = {
        let mut collect = rev(Tape::default());
        collect.block(&f.body, &seeds);
        collect.tape
    };
    let tape_ident = Ident::new("tape", Span::mixed_site());
    let fwd_emit = Fwd {
        written: Default::default(),
        f,
        tape: &tape,
        plan: &plan,
        temp_names: &temp_names,
        tape_ident: &tape_ident,
        recording: std::cell::Cell::new(true),
        fallible: std::cell::Cell::new(false),
        rerun_exit: std::cell::Cell::new(None),
        in_tape: Default::default(),
    };
    let forward = fwd_emit.block(&f.body, f.ret_tuple, BlockRef::Fn);
    // With bounded loops, `f_try_forward` returns an error where `f_forward` would panic.
    let bounded = has_panic(&f.body);
    let try_forward = bounded.then(|| {
        fwd_emit.fallible.set(true);
        let body = fwd_emit.block(&f.body, f.ret_tuple, BlockRef::Fn);
        fwd_emit.fallible.set(false);
        body
    });
    // Checkpointed loops: the reverse sweep re-runs each iteration with the forward code.
    let reruns: std::collections::HashMap<_, _> = (f.loops.iter().enumerate())
        .filter(|(_, lp)| lp.checkpoint.is_some())
        .map(|(l, _)| (l, (fwd_emit.rerun(l, true), fwd_emit.rerun(l, false))))
        .collect();
    let written = fwd_emit.written.into_inner();
    for (name, doc) in &written {
        if let Some(doc) = doc {
            tape.set_doc(name, doc.clone());
        }
    }
    tape.sort(&written.into_iter().map(|(n, _)| n).collect::<Vec<_>>());
    tape.freeze();
    // The reverse sweep against the final layout.
    let mut rev = rev(tape);
    rev.reruns = reruns;
    let reverse = rev.block(&f.body, &seeds);
    let decls = std::mem::take(&mut rev.decls);
    let d_params = rev.param_adjoints();
    let tape = std::mem::take(&mut rev.tape);

    let vis = &func.vis;
    let name = &func.sig.ident;
    let tape_ty = tape_name(name);
    let fwd = format_ident!("{}_forward", name);
    let adj = format_ident!("{}_adjoint", name);
    let grad = format_ident!("{}_grad", name);
    let ret = match &func.sig.output {
        syn::ReturnType::Type(_, t) => quote!(#t),
        syn::ReturnType::Default => quote!(()),
    };
    let param_ty = |v: usize| {
        let ty = f.types.tokens(f.vars[v].ty);
        if f.vars[v].by_ref { quote!(&#ty) } else { ty }
    };
    let params: Vec<_> = f
        .params
        .iter()
        .map(|&v| {
            let (n, ty) = (&f.vars[v].emit, param_ty(v));
            quote!(#n: #ty)
        })
        .collect();
    // Const generics: `<const N: usize>` on every item, `<N>` where the tape type is named.
    let gnames: Vec<_> = f.generics.iter().map(|(n, _)| n).collect();
    let gtys: Vec<_> = f.generics.iter().map(|(_, t)| t).collect();
    let gdecl = if gnames.is_empty() {
        quote!()
    } else {
        quote!(<#(const #gnames: #gtys),*>)
    };
    let guse = if gnames.is_empty() {
        quote!()
    } else {
        quote!(<#(#gnames),*>)
    };
    let tape_ty_use = quote!(#tape_ty #guse);
    let wrt_zero: Vec<_> = f
        .wrt
        .iter()
        .map(|&i| f.types.zero(f.vars[f.params[i]].ty))
        .collect();
    let args: Vec<_> = f.params.iter().map(|&v| f.vars[v].emit.clone()).collect();
    let wrt_tys: Vec<_> = f
        .wrt
        .iter()
        .map(|&i| f.types.tokens(f.vars[f.params[i]].ty))
        .collect();
    let wrt_names = list(f.wrt.iter().map(|&i| f.vars[f.params[i]].name.to_string()));
    let d_names = list(d_params.iter().map(|d| d.to_string()));
    let _ = &wrt_zero;

    let tape_doc = format!(
        "The tape of [`{name}`]: what [`{adj}`] reads, recorded by [`{fwd}`] in fixed-size fields."
    );
    let tapes = TapeItems {
        vis,
        gdecl: &gdecl,
        guse: &guse,
        gnames: &gnames,
    };
    let main_tape = tapes.emit(
        &tape_ty,
        &tape_doc,
        tape.fields.iter().filter(|x| x.owner.is_none()),
    );
    let mut step_tapes = TokenStream::new();
    for (l, lp) in f.loops.iter().enumerate() {
        if lp.checkpoint.is_some() {
            let doc = format!(
                "One iteration's tape of checkpointed loop #{l} of [`{name}`]: [`{adj}`] fills it again for each iteration, from the state saved before it."
            );
            let ty = crate::names::step_tape_name(&tape_ty, l);
            step_tapes.extend(tapes.emit(
                &ty,
                &doc,
                tape.fields.iter().filter(|x| x.owner == Some(l)),
            ));
        }
    }
    let fwd_doc = doc(format!(
        "Computes [`{name}`] and records in `tape` what [`{adj}`] needs."
    ));
    let by_ref = if d_out_by_ref {
        " `d_out`, the cotangent of the output, comes by reference (an array or struct output)."
    } else {
        ""
    };
    let adj_doc = doc(format!(
        "The reverse sweep of [`{name}`]: adds `d_out` times the derivative of `{name}` with respect to \
         {wrt_names} into {d_names}.\n\n`tape` must have been filled by [`{fwd}`] with the same arguments. \
         The adjoints accumulate: zero them first for a plain gradient.{by_ref}"
    ));
    let allow = quote!(#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]);

    let try_fwd_fn = try_forward.map(|body| {
        let try_fwd = format_ident!("{}_try_forward", name);
        let doc = doc(format!(
            "[`{fwd}`], except that a bounded loop (`#[max_iters(K)]`) that would run past its bound returns `Err` with the message [`{fwd}`] panics with."
        ));
        quote! {
            #doc
            #[inline]
            #allow
            #vis fn #try_fwd #gdecl(#(#params,)* #tape_ident: &mut #tape_ty_use) -> ::core::result::Result<#ret, &'static str> {
                ::core::result::Result::Ok({ #body })
            }
        }
    });
    let grad_fn = if f.ret_tuple
        || f.ret
            .first()
            .is_none_or(|&t| f.types.kind(t) != crate::ir::Kind::Float)
    {
        TokenStream::new()
    } else {
        let grad_doc = doc(format!(
            "The value of [`{name}`] and its gradient with respect to {wrt_names}, in parameter order."
        ));
        let value = Ident::new("value", Span::mixed_site());
        let (grad_ty, grads) = match d_params.as_slice() {
            [d] => (wrt_tys[0].clone(), quote!(#d)),
            ds => (quote!((#(#wrt_tys),*)), quote!((#(#ds),*))),
        };
        quote! {
            #grad_doc
            #allow
            #vis fn #grad #gdecl(#(#params),*) -> (#ret, #grad_ty) {
                let mut #tape_ident = <#tape_ty_use>::new();
                let #value = #fwd(#(#args,)* &mut #tape_ident);
                #(let mut #d_params: #wrt_tys = #wrt_zero;)*
                #adj(#(#args,)* &#tape_ident, 1.0, #(&mut #d_params),*);
                (#value, #grads)
            }
        }
    };

    let d_out_ty = if d_out_by_ref {
        quote!(&#ret)
    } else {
        quote!(#ret)
    };
    let checks: Vec<_> = f
        .consts
        .iter()
        .filter(|p| p.segments.last().is_some_and(|s| s.ident != "NAN"))
        .collect();
    let const_check = if checks.is_empty() {
        TokenStream::new()
    } else {
        // A `static` cannot be a pattern: this fails to compile unless every name is a `const`.
        let check = Ident::new("only_const_items", Span::mixed_site());
        quote! {
            const _: () = {
                #[allow(dead_code, unused_variables, clippy::all)]
                fn #check() { #(if let #checks = #checks {})* }
            };
        }
    };
    let param_tys: Vec<_> = f.params.iter().map(|&v| param_ty(v)).collect();
    // Uses the primal, so that calling only the generated functions warns of nothing (a
    // generic primal is named from the forward function, where its parameters are in scope).
    let (use_primal, use_generic_primal) = if gnames.is_empty() {
        (
            quote!(const _: fn(#(#param_tys),*) -> #ret = #name;),
            quote!(),
        )
    } else {
        (quote!(), quote!(let _ = #name::<#(#gnames),*>;))
    };

    quote! {
        #main_tape
        #step_tapes

        #fwd_doc
        #[inline]
        #allow
        #vis fn #fwd #gdecl(#(#params,)* #tape_ident: &mut #tape_ty_use) -> #ret {
            #use_generic_primal
            #forward
        }

        #try_fwd_fn

        #adj_doc
        #[inline]
        #allow
        #vis fn #adj #gdecl(#(#params,)* #tape_ident: &#tape_ty_use, #d_out: #d_out_ty, #(#d_params: &mut #wrt_tys),*) {
            #(#decls)*
            #reverse
        }

        #grad_fn
        #const_check
        #use_primal
    }
}

#[cfg(test)]
mod tests {
    //! Golden expansions: each `tests/expand/NAME.rs` holds one `#[differentiable]` function;
    //! its expansion, formatted, must equal `NAME.expanded.rs`. `GOLDEN=overwrite` rewrites them.

    use super::*;
    use std::path::Path;

    fn expand_file(src: &str) -> String {
        let mut func: syn::ItemFn = syn::parse_str(src).expect("a function");
        let pos = func
            .attrs
            .iter()
            .position(|a| a.path().is_ident("differentiable"))
            .expect("#[differentiable]");
        let attr = func.attrs.remove(pos);
        let args = match attr.meta {
            syn::Meta::List(l) => l.tokens,
            _ => TokenStream::new(),
        };
        let out = expand(args, quote!(#func));
        let file: syn::File = syn::parse2(out.clone())
            .unwrap_or_else(|e| panic!("expansion does not parse: {e}\n{out}"));
        prettyplease::unparse(&file)
    }

    /// `EXPAND=path/to/fn.rs cargo test -p autodiff-macros print_expansion -- --nocapture`
    /// prints the expansion of one function: a tool for reading what the macro generates.
    #[test]
    fn print_expansion() {
        if let Ok(path) = std::env::var("EXPAND") {
            println!("{}", expand_file(&std::fs::read_to_string(path).unwrap()));
        }
    }

    #[test]
    fn golden_expansions() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
        let overwrite = std::env::var("GOLDEN").is_ok_and(|v| v == "overwrite");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if !name.ends_with(".rs") || name.ends_with(".expanded.rs") {
                continue;
            }
            n += 1;
            let got = expand_file(&std::fs::read_to_string(&path).unwrap());
            let golden = path.with_extension("expanded.rs");
            if overwrite {
                std::fs::write(&golden, &got).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            assert!(
                got == want,
                "{name}: the expansion changed; review it and run with GOLDEN=overwrite\n{got}"
            );
        }
        assert!(n >= 3, "expected at least 3 golden expansions, found {n}");
    }
}
