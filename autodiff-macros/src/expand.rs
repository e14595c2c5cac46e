//! The pipeline driver. On error it emits the user's function unchanged next to the error, so
//! the rest of the crate still sees `f` and reports nothing else.

use proc_macro2::TokenStream;
use quote::quote;

use crate::items::{Analysed, items};
use crate::{analysis, args, attrs, hvp, jacobian, jacobian_tuple, lower, methods, nested};
use syn::visit_mut::VisitMut;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => {
            if let Ok(block) = syn::parse2::<syn::ItemImpl>(item.clone()) {
                return expand_impl(attr, block);
            }
            let e = syn::Error::new(
                e.span(),
                "`#[differentiable]` applies to a free function, as in `#[differentiable] fn f(x: f64) -> f64 { .. }`, or to an `impl` block of a struct",
            )
            .to_compile_error();
            return quote!(#item #e);
        }
    };
    let generated = (args::parse(attr).and_then(|args| generate(&args, &func)))
        .and_then(|items| with_allows(&attrs::allows(&func.attrs), items));
    // The primal is the user's function as written, less the `#[max_iters(K)]`,
    // `#[checkpoint]`, `#[recompute]` and `#[record(..)]` attributes, which only this macro reads.
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

/// `allows` put on each of the generated `items`, when there are any.
fn with_allows(allows: &[syn::Attribute], items: TokenStream) -> syn::Result<TokenStream> {
    if allows.is_empty() {
        return Ok(items);
    }
    let mut file: syn::File = syn::parse2(items)?;
    attrs::add_allows(allows, &mut file);
    Ok(quote!(#file))
}

struct StripBounds;

impl syn::visit_mut::VisitMut for StripBounds {
    fn visit_expr_while_mut(&mut self, w: &mut syn::ExprWhile) {
        w.attrs.retain(|a| !a.path().is_ident("max_iters"));
        drop_unused_label(&mut w.label, &w.body);
        syn::visit_mut::visit_expr_while_mut(self, w);
    }

    fn visit_expr_loop_mut(&mut self, l: &mut syn::ExprLoop) {
        l.attrs.retain(|a| !a.path().is_ident("max_iters"));
        drop_unused_label(&mut l.label, &l.body);
        syn::visit_mut::visit_expr_loop_mut(self, l);
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        l.attrs
            .retain(|a| !a.path().is_ident("recompute") && !a.path().is_ident("record"));
        syn::visit_mut::visit_local_mut(self, l);
    }

    fn visit_expr_for_loop_mut(&mut self, l: &mut syn::ExprForLoop) {
        l.attrs.retain(|a| !a.path().is_ident("checkpoint"));
        syn::visit_mut::visit_expr_for_loop_mut(self, l);
    }
}

/// A loop's label that only names it for `max_iters(label = K)`: the primal drops it, so that
/// rustc does not warn about a label the user's code never jumps to.
fn drop_unused_label(label: &mut Option<syn::Label>, body: &syn::Block) {
    struct Uses<'l>(&'l syn::Lifetime, bool);
    impl<'a> syn::visit::Visit<'a> for Uses<'_> {
        fn visit_lifetime(&mut self, l: &'a syn::Lifetime) {
            self.1 |= l.ident == self.0.ident;
        }
    }
    if let Some(l) = label {
        let mut uses = Uses(&l.name, false);
        syn::visit::Visit::visit_block(&mut uses, body);
        if !uses.1 {
            *label = None;
        }
    }
}

/// Under `hvp`, what each method's tangent program takes for each parameter, told to its
/// callers (`Callee::slots`). Only the method's lowering tells a struct it does not
/// differentiate from a fieldless enum it matches on, so each is lowered here first; one that
/// fails gets its error when it is generated.
fn pair_slots(methods: &mut [methods::Method]) {
    let all: std::collections::HashMap<String, Vec<crate::ir::PairSlot>> = (methods.iter())
        .filter_map(|m| {
            let f = lower::lower(&m.hidden, &m.args).ok()?;
            let slots = (0..f.params.len()).map(|i| f.pair_slot(i)).collect();
            Some((m.hidden.sig.ident.to_string(), slots))
        })
        .collect();
    for m in methods {
        for (key, callee) in &mut m.args.known {
            callee.slots = all.get(key).cloned().unwrap_or_default();
        }
    }
}

/// `#[differentiable] impl Model { .. }`: each differentiated method's hidden function goes
/// through the pipeline; the block gets the methods that call its items (`methods`).
/// `#[differentiable(custom)]`: a function whose tape, forward and adjoint are written by hand
/// gets the callee contract only, or one error where it has other options or no contract can
/// be stated.
fn custom_contract(
    args: &args::Args,
    custom: &proc_macro2::Ident,
    func: &syn::ItemFn,
) -> syn::Result<TokenStream> {
    let other =
        args.wrt.is_some() || args.hvp || args.jacobian || args.heap || !args.max_iters.is_empty();
    if other {
        return Err(syn::Error::new(
            custom.span(),
            "`custom` takes only `jvp` beside it: the function's tape, `_forward` and `_adjoint` are written by hand, so no other option applies; write `#[differentiable(custom)]`, or `#[differentiable(custom, jvp)]` where `_jvp` is written by hand too",
        ));
    }
    let contract = crate::contract::by_signature(&func.vis, &func.sig, args.jvp);
    if contract.is_empty() {
        return Err(syn::Error::new_spanned(
            &func.sig,
            "`custom`: no contract can be stated for this signature (a const generic that no parameter's type names, a lifetime in the output, `self`, or a type parameter); call it with its constants named (`g::<N>(..)`) and bind its result with a type",
        ));
    }
    Ok(contract)
}

fn expand_impl(attr: TokenStream, block: syn::ItemImpl) -> TokenStream {
    let free_only = (attr.clone().into_iter())
        .find(|t| ["nested", "jacobian"].contains(&t.to_string().as_str()));
    let generated = args::parse(attr).and_then(|args| {
        if let Some(t) = &free_only {
            return Err(syn::Error::new(
                t.span(),
                format!("`{t}` is for free functions: write the function as a free `#[differentiable({t})]` function that takes the struct's fields it needs"),
            ));
        }
        let mut split = methods::split(&args, &block)?;
        if args.hvp {
            pair_slots(&mut split.methods);
        }
        let mut out = TokenStream::new();
        let mut delegates = Vec::new();
        let mut errors: Option<syn::Error> = None;
        let block_allows = attrs::allows(&block.attrs);
        for method in &split.methods {
            match generate(&method.args, &method.hidden) {
                Ok(items) => {
                    let mut allowed = block_allows.clone();
                    allowed.extend(attrs::allows(&method.hidden.attrs));
                    let (calls, items) = methods::finish(&split, method, items, &allowed)?;
                    delegates.extend(calls);
                    // The method's copy as a private function, with the generated functions'
                    // allowances (see `methods::finish`): the user's lints see the method.
                    let mut hidden = method.hidden.clone();
                    hidden.vis = syn::Visibility::Inherited;
                    StripBounds.visit_item_fn_mut(&mut hidden);
                    out.extend(quote! {
                        #[allow(dead_code, clippy::all)]
                        #(#block_allows)*
                        #hidden
                        #items
                    });
                }
                Err(e) => match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                },
            }
        }
        if let Some(e) = errors {
            return Err(e);
        }
        split
            .item
            .items
            .extend(delegates.into_iter().map(syn::ImplItem::Fn));
        StripBounds.visit_item_impl_mut(&mut split.item);
        let item = &split.item;
        Ok(quote!(#item #out))
    });
    generated.unwrap_or_else(|e| {
        // The block as written (less the attributes only this macro reads) and the error.
        let mut block = block;
        for it in &mut block.items {
            if let syn::ImplItem::Fn(m) = it {
                m.attrs.retain(|a| !a.path().is_ident("wrt"));
            }
        }
        StripBounds.visit_item_impl_mut(&mut block);
        let e = e.to_compile_error();
        quote!(#block #e)
    })
}

fn generate(args: &args::Args, func: &syn::ItemFn) -> syn::Result<TokenStream> {
    if let Some(custom) = &args.custom {
        return custom_contract(args, custom, func);
    }
    let mut f = lower::lower(func, args)?;
    crate::fused::record_costly(&mut f);
    analysis::name_tuple_elems(&mut f);
    let an = Analysed::new(&f);
    analysis::lost_derivatives(&f, &an.act)?;
    let mut extra = TokenStream::new();
    if args.nested {
        extra.extend(nested::items(func, &f)?);
    }
    if args.jacobian && f.ret_tuple {
        extra.extend(jacobian_tuple::items(func, &f)?);
    } else if args.jacobian {
        extra.extend(jacobian::items(func, &f)?);
    }
    let mut out = items(func, &f, &an, args);
    out.extend(extra);
    if args.hvp {
        // The tangent program goes through the pipeline again, as a function of its own.
        let mut program = hvp::tangent_program(func, &f, &an)?;
        // Its tape may have `Vec` fields where the function's has (the same feature).
        program.args.alloc = args.alloc;
        let mut g = lower::lower(&program.item, &program.args).map_err(|e| {
            syn::Error::new(
                e.span(),
                format!("`hvp`: the macro's tangent program is outside its own language here ({e}); this is a bug in stackgrad, please report it"),
            )
        })?;
        crate::fused::record_costly(&mut g);
        out.extend(items(&program.item, &g, &Analysed::new(&g), &program.args));
        let mut item = program.item;
        StripBounds.visit_item_fn_mut(&mut item);
        out.extend(quote!(#item));
        out.extend(hvp::hvp_fn(func, &f, crate::items::has_fused_program(&g)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! Golden expansions: each `tests/expand/NAME.rs` holds one `#[differentiable]` function;
    //! its expansion, formatted, must equal `NAME.expanded.rs`. `GOLDEN=overwrite` rewrites them.

    use super::*;
    use std::path::Path;

    /// The expansion of one `#[differentiable]` function or `impl` block.
    fn expand_file(src: &str) -> String {
        let mut item: syn::Item = syn::parse_str(src).expect("a function or an impl block");
        let attrs = match &mut item {
            syn::Item::Fn(f) => &mut f.attrs,
            syn::Item::Impl(i) => &mut i.attrs,
            _ => panic!("a function or an impl block"),
        };
        let pos = attrs
            .iter()
            .position(|a| a.path().is_ident("differentiable"))
            .expect("#[differentiable]");
        let attr = attrs.remove(pos);
        let args = match attr.meta {
            syn::Meta::List(l) => l.tokens,
            _ => TokenStream::new(),
        };
        let out = expand(args, quote!(#item));
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

    /// `EXPANSION_SIZES=a.rs,b.rs cargo test -p autodiff-macros --lib expansion_sizes --
    /// --nocapture` prints the lines of the formatted expansion of every `#[differentiable]`
    /// function in those files, beside the function's own lines (`tools/compile_time.sh`).
    #[test]
    fn expansion_sizes() {
        let Ok(paths) = std::env::var("EXPANSION_SIZES") else {
            return;
        };
        for path in paths.split(',') {
            let file = syn::parse_file(&std::fs::read_to_string(path).unwrap()).unwrap();
            for item in file.items {
                let syn::Item::Fn(f) = &item else { continue };
                if !f.attrs.iter().any(|a| a.path().is_ident("differentiable")) {
                    continue;
                }
                let source = prettyplease::unparse(&syn::parse_quote!(#item));
                let expanded = expand_file(&quote!(#item).to_string());
                println!(
                    "{:6} lines from {:4}: {} ({path})",
                    expanded.lines().count(),
                    source.lines().count(),
                    f.sig.ident
                );
            }
        }
    }

    /// The adjoint's body of `src`, one statement per line.
    fn adjoint_of(src: &str) -> String {
        let text = expand_file(src);
        let start = text.find("_adjoint(").expect("an adjoint");
        let body = &text[start..];
        body[body.find('{').unwrap()..body.find("\n}\n").unwrap()].to_string()
    }

    /// Statement-level preaccumulation: repeated reads summed, constants folded, an update's
    /// cotangent scaled in place, consecutive scalings folded; no form where it saves nothing.
    #[test]
    fn preaccumulation() {
        let update = adjoint_of(
            "#[differentiable] fn f(x: f64, r: f64) -> f64 {
                let mut d = x * r;
                d += 3.0 * d + r.exp();
                d
            }",
        );
        assert!(update.contains("d_d *= 4.0;"), "{update}");
        assert!(!update.contains("* 3.0"), "{update}");

        let chain = adjoint_of(
            "#[differentiable] fn f(x: f64) -> f64 {
                let mut c = x.sin();
                c += c + 1.0;
                c = c + c * 0.5;
                c
            }",
        );
        assert!(chain.contains("d_c *= 3.0;"), "{chain}");
        assert_eq!(chain.matches("*=").count(), 1, "{chain}");

        let square = adjoint_of(
            "#[differentiable] fn f(x: f64) -> f64 {
                let y = x * x;
                y
            }",
        );
        assert!(square.contains("d_y * 2.0 * x"), "{square}");

        // `v[i] = v[i] + t`: the element's cotangent stays where it is.
        let element = adjoint_of(
            "#[differentiable] fn f(x: &[f64; 4]) -> f64 {
                let mut v = [0.0; 4];
                for i in 0..4 {
                    v[i] = v[i] + x[i].sin();
                }
                v[0] + v[3]
            }",
        );
        assert!(!element.contains("d_v[i] = "), "{element}");

        // Distinct places, each read once: followed literally.
        let plain = adjoint_of(
            "#[differentiable] fn f(a: f64, b: f64) -> f64 {
                let e = a - b;
                e
            }",
        );
        assert!(!plain.contains("*="), "{plain}");
        assert!(plain.contains("*d_b += -d_e;"), "{plain}");
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
