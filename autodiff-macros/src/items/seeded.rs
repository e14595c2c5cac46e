//! Fused sweeps: `f_hvp_jvp_fused`, the tangent program's forward sweep and adjoint in one call,
//! for `f_hvp`, and the fused block it shares with `f_grad` ([`fused_sweep`]).
//! Where the program's run-time loop of independent iterations is fused ([`crate::fused`]: its
//! accumulators reach the `[value, tangent]` output linearly), each iteration runs forward and
//! back at once, and the reverse sweep does not run it again (`kmeans`' closest-centroid search
//! ran twice per Hessian-vector product before).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::{Sig, Sweeps, doc};

/// The name of the tangent program's fused forward and adjoint.
pub fn fused_name(program: &Ident) -> Ident {
    format_ident!("{}_fused", program)
}

/// `f_hvp_jvp_fused(params.., d_out, d_params..) -> value`, for a tangent program with a fused
/// loop: the adjoints accumulate, as `f_hvp_jvp_adjoint`'s do.
pub(super) fn fused_adjoint_fn(sig: &Sig, s: &Sweeps) -> TokenStream {
    let Some((decls, reverse, forward)) = &s.grad else {
        return TokenStream::new();
    };
    let Sig {
        vis,
        name,
        fwd,
        adj,
        ret,
        params,
        args,
        gdecl,
        guse,
        allow,
        tape_ident,
        tape_ty,
        wrt_tys,
        ..
    } = sig;
    let fused = fused_name(name);
    let (d_out, value) = (
        Ident::new("d_out", Span::mixed_site()),
        Ident::new("value", Span::mixed_site()),
    );
    let (d_params, checks) = (&s.d_params, &s.length_checks);
    let text = doc(format!(
        "[`{fwd}`] and then [`{adj}`] (the adjoints accumulate), in one sweep: each iteration of \
         the run-time loop whose accumulators reach the output linearly runs forward and back at \
         once. Returns the value."
    ));
    let sweep = match forward {
        Some(forward) => {
            let sweep = fused_sweep(
                (&value, ret),
                tape_ident,
                quote!(#(#decls)*),
                forward,
                reverse,
            );
            quote!(#sweep #value)
        }
        // The loop's reverse was left out of the sweep but its fused forward could not be
        // made: the plain sweeps, one after the other.
        None => quote! {
            let #value = #fwd(#(#args,)* &mut #tape_ident);
            #adj(#(#args,)* &#tape_ident, #d_out, #(#d_params),*);
            #value
        },
    };
    quote! {
        #text
        #[inline]
        #allow
        #vis fn #fused #gdecl(#(#params,)* #d_out: &#ret, #(#d_params: &mut #wrt_tys),*) -> #ret {
            #checks
            let mut #tape_ident = <#tape_ty #guse>::new();
            #sweep
        }
    }
}

/// `let value: ret;` set by the forward sweep whose fused loop runs each iteration's reverse at
/// once (`forward`, [`crate::fused`]), then the reverse sweep without that loop: `f_grad`'s and
/// `f_hvp_jvp_fused`'s sweeps. `pre` (the cotangents' declarations) opens their block.
pub(super) fn fused_sweep(
    (value, ret): (&Ident, &TokenStream),
    tape: &Ident,
    pre: TokenStream,
    forward: &TokenStream,
    reverse: &TokenStream,
) -> TokenStream {
    quote! {
        let #value: #ret;
        {
            #pre
            #value = {
                let #tape = &mut #tape;
                #forward
            };
            let #tape = &#tape;
            #reverse
        }
    }
}
