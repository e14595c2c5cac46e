//! `f_jvp` and `f_jvp_vec`: the tangent sweeps as items.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::{Analysed, Sig, doc, length_checks, list};
use crate::forward::Fwd;
use crate::ir::Func;
use crate::tangent::Tan;
use crate::tape::Tape;

/// `f_jvp_vec::<W>`: the value and its derivatives along `W` directions at once, each float
/// tangent a `[F; W]` (vector forward mode, `tangent::lanes`).
pub(super) fn jvp_vec_fn(sig: &Sig, f: &Func, an: &Analysed) -> TokenStream {
    let tape = Tape::default();
    let tape_ident = Ident::new("tape", Span::mixed_site());
    let fwd = Fwd::new(f, &tape, &an.plan, &an.temp_names, &tape_ident, false);
    let mut tan = Tan::new(f, &an.act, &fwd).for_lanes();
    let body = tan.lanes_body();
    let (t_names, t_tys): (Vec<_>, Vec<_>) = tan.lanes_params().into_iter().unzip();
    let t_ret = tan.lanes_ret();
    let Sig {
        vis,
        name,
        ret,
        params,
        gnames,
        allow,
        wrt_names,
        inline,
        ..
    } = sig;
    let w = crate::tangent::lanes_width();
    let gtys = f.generics.iter().map(|(_, t)| t);
    let gdecl = quote!(<#(const #gnames: #gtys,)* const #w: usize>);
    let jvp_vec = format_ident!("{}_jvp_vec", name);
    let jvp = format_ident!("{}_jvp", name);
    let doc = doc(format!(
        "[`{jvp}`] along `W` directions at once (vector forward mode): the value of [`{name}`] \
         and its derivatives with respect to {wrt_names} along each; every float's tangent is a \
         `[_; W]`, lane `l` of each the `l`-th direction. One sweep: the primal runs once."
    ));
    let use_generic_primal = if gnames.is_empty() {
        quote!()
    } else {
        quote!(let _ = #name::<#(#gnames),*>;)
    };
    quote! {
        #doc
        #inline
        #allow
        #vis fn #jvp_vec #gdecl(#(#params,)* #(#t_names: #t_tys),*) -> (#ret, #t_ret) {
            #use_generic_primal
            #body
        }
    }
}

/// `f_jvp`: the value and the directional derivative along the tangent arguments.
pub(super) fn jvp_fn(sig: &Sig, f: &Func, an: &Analysed) -> TokenStream {
    let (act, plan, temp_names) = (&an.act, &an.plan, &an.temp_names);
    let tape = Tape::default();
    let tape_ident = Ident::new("tape", Span::mixed_site());
    let fwd = Fwd::new(f, &tape, plan, temp_names, &tape_ident, false);
    let mut tan = Tan::new(f, act, &fwd);
    let body = tan.body();
    let helper = tan.needs_zero_helper.then_some(crate::tangent::ZERO_HELPER);
    let cast = tan.needs_cast_helper.then(crate::print::cast_helper);
    let (t_names, t_tys): (Vec<_>, Vec<_>) = tan.params().into_iter().unzip();
    let Sig {
        vis,
        name,
        ret,
        params,
        gnames,
        gdecl,
        allow,
        wrt_names,
        inline,
        ..
    } = sig;
    let jvp = format_ident!("{}_jvp", name);
    let t_list = list(t_names.iter().map(|t| t.to_string()));
    let jvp_doc = doc(format!(
        "The value of [`{name}`] and its directional derivative: the derivative with respect to \
         {wrt_names} along the tangents {t_list} (forward mode, one sweep, no tape)."
    ));
    let use_generic_primal = if gnames.is_empty() {
        quote!()
    } else {
        quote!(let _ = #name::<#(#gnames),*>;)
    };
    let checks = length_checks(name, f, &t_names, "tangent");
    quote! {
        #jvp_doc
        #inline
        #allow
        #vis fn #jvp #gdecl(#(#params,)* #(#t_names: #t_tys),*) -> (#ret, #ret) {
            #checks
            #helper
            #cast
            #use_generic_primal
            #body
        }
    }
}
