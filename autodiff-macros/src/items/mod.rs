//! The last pass: runs the sweeps against the plan and assembles the generated items (the tape
//! types, `f_forward`, `f_try_forward`, `f_adjoint`, `f_grad`, and the checks that name the
//! primal and the constants).

use std::collections::HashMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::analysis;
use crate::forward::{Fwd, name_temps};
use crate::ir::BlockRef;
use crate::ir::{Func, Kind, Stmt, VarId};
use crate::names::{step_tape_name, tape_name};
use crate::plan::Plan;
use crate::reverse::Rev;
use crate::tape::Tape;

mod jvp;
mod seeded;
use crate::walk::has_panic;
use jvp::{jvp_fn, jvp_vec_fn};
pub use seeded::fused_name;
use seeded::fused_sweep;

/// The code of both sweeps, generated against the final tape layout.
struct Sweeps {
    forward: TokenStream,
    /// The body of `f_try_forward`, for a function with bounded loops.
    try_forward: Option<TokenStream>,
    /// `f_forward_into`'s body, for an array output.
    forward_into: Option<TokenStream>,
    /// The adjoint's declarations (cotangent accumulators) and its sweep.
    decls: Vec<TokenStream>,
    reverse: TokenStream,
    /// The declarations and sweep of `f_grad`, which assigns first contributions; with a fused
    /// loop ([`crate::fused`]), the forward sweep that runs it, and a sweep that accumulates.
    grad: Option<(Vec<TokenStream>, TokenStream, Option<TokenStream>)>,
    /// The adjoint parameter of each differentiated parameter.
    d_params: Vec<Ident>,
    tape: Tape,
    /// `d_out` comes by reference (an array or struct output).
    d_out_by_ref: bool,
    /// That the adjoint of each differentiated slice has the slice's length.
    length_checks: TokenStream,
}

/// The sweeps, against the activity and plan computed once in [`items`]: the reverse sweep is
/// generated once against an open tape to list the records it reads, the forward sweep against those records (its write order
/// is the fields' order), and the reverse sweep again against the final layout, with the forward
/// code of checkpointed iterations in it.
fn sweeps(func: &syn::ItemFn, f: &Func, an: &Analysed, args: &crate::args::Args) -> Sweeps {
    let (act, plan, temp_names) = (&an.act, &an.plan, &an.temp_names);
    let gn: Vec<_> = f.generics.iter().map(|(n, _)| n).collect();
    let rev = |tape: Tape| {
        let mut rev = Rev::new(f, act, plan, temp_names, tape);
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
            .is_some_and(|&t| f.types.kind(t) != Kind::Float);
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
    let mut tape = {
        let alloc = format_ident!("__{}_alloc", tape_name(&func.sig.ident));
        let mut collect = rev(Tape::with_alloc(alloc, args.heap));
        collect.block(&f.body, &seeds);
        collect.tape
    };
    let tape_ident = Ident::new("tape", Span::mixed_site());
    let fwd = Fwd::new(f, &tape, plan, temp_names, &tape_ident, true);
    let forward = fwd.block(&f.body, f.ret_tuple, BlockRef::Fn);
    // With bounded loops or slices, `f_try_forward` returns an error where `f_forward` would
    // panic.
    let try_forward = (has_panic(&f.body) || !f.slices.is_empty()).then(|| {
        fwd.fallible.set(true);
        let body = fwd.block(&f.body, f.ret_tuple, BlockRef::Fn);
        fwd.fallible.set(false);
        body
    });
    // `f_forward_into`, for an array output: the same sweep, its value written into `out`.
    let array_out = !f.ret_tuple && f.types.elem(f.ret[0]).is_some();
    let forward_into = array_out.then(|| {
        if args.tangent_program {
            // Called only by the tangent programs of callers: a copy, not a second sweep.
            let fwd = format_ident!("{}_forward", func.sig.ident);
            let params = f.params.iter().map(|&v| &f.vars[v].emit);
            let out = Ident::new("out", Span::mixed_site());
            let generics = f.generics.iter().map(|(n, _)| n);
            let turbofish = (!f.generics.is_empty()).then(|| quote!(::<#(#generics),*>));
            return quote!(*#out = #fwd #turbofish(#(#params,)* #tape_ident););
        }
        let recorded = fwd.written.borrow().len();
        *fwd.into.borrow_mut() = Some(Ident::new("out", Span::mixed_site()));
        let body = fwd.block(&f.body, f.ret_tuple, BlockRef::Fn);
        *fwd.into.borrow_mut() = None;
        fwd.written.borrow_mut().truncate(recorded);
        body
    });
    let reruns: HashMap<_, _> = (f.loops.iter().enumerate())
        .filter(|(_, lp)| lp.checkpoint.is_some())
        .map(|(l, _)| (l, (fwd.sweep_rerun(l, true), fwd.sweep_rerun(l, false))))
        .collect();
    let written = fwd.written.into_inner();
    for (name, doc) in &written {
        if let Some(doc) = doc {
            tape.set_doc(name, doc.clone());
        }
    }
    tape.sort(&written.into_iter().map(|(n, _)| n).collect::<Vec<_>>());
    tape.freeze();
    // `f_grad`'s own sweep, into zeroed buffers: first contributions assign.
    let grad = (has_grad(f) || has_fused_program(f)).then(|| {
        let fusion = crate::fused::find(f);
        let mut grad = rev(tape.clone());
        grad.reruns = reruns.clone();
        // Fused iterations add into the buffers before the sweep: no first contribution then.
        grad.assign_first = fusion.is_none();
        grad.fused = fusion.as_ref().map(|fu| fu.lp);
        let reverse = grad.block(&f.body, &seeds);
        let forward = fusion.and_then(|fu| fused_forward(f, &tape, an, &tape_ident, &grad, &fu));
        (std::mem::take(&mut grad.decls), reverse, forward)
    });
    let mut rev = rev(tape);
    rev.reruns = reruns;
    let reverse = rev.block(&f.body, &seeds);
    let length_checks = length_checks(&func.sig.ident, f, &rev.param_adjoints(), "gradient buffer");
    Sweeps {
        forward,
        try_forward,
        forward_into,
        decls: std::mem::take(&mut rev.decls),
        reverse,
        grad,
        d_params: rev.param_adjoints(),
        tape: std::mem::take(&mut rev.tape),
        d_out_by_ref,
        length_checks,
    }
}

/// A panic with a clear message where the adjoint (or the tangent) of a differentiated slice
/// does not have the slice's length.
fn length_checks(name: &Ident, f: &Func, d_params: &[Ident], what: &str) -> TokenStream {
    let mut out = TokenStream::new();
    for (k, &i) in f.wrt.iter().enumerate() {
        let v = f.params[i];
        if f.slices.contains(&v) {
            out.extend(length_check(&name.to_string(), what, &d_params[k], f, v));
        }
    }
    out
}

/// `who` panics, naming `buffer` (the `what` of slice parameter `slice`) and both lengths,
/// unless `buffer` has the slice's length.
pub fn length_check(who: &str, what: &str, buffer: &Ident, f: &Func, slice: VarId) -> TokenStream {
    let x = &f.vars[slice].emit;
    let msg = format!(
        "{who}: the {what} `{}` has {{}} elements, but `{}` has {{}}: pass one of the slice's length",
        crate::names::bare(buffer),
        f.vars[slice].name
    );
    quote!(
        if #buffer.len() != #x.len() {
            ::core::panic!(#msg, #buffer.len(), #x.len());
        }
    )
}

/// Sets every element of `buffer`, the gradient buffer of slice parameter `slice`, to zero.
pub fn zero_buffer(buffer: &Ident, f: &Func, slice: VarId) -> TokenStream {
    let elem = f.types.zero(f.types.elem(f.vars[slice].ty).unwrap());
    let e = Ident::new("e", Span::mixed_site());
    quote!(for #e in #buffer.iter_mut() { *#e = #elem; })
}

/// The forward sweep of `f_grad` with run-time loop `fu.lp` fused: each iteration forward into
/// its step tape and back at once, the accumulators' cotangents set from `d_out` before.
fn fused_forward(
    f: &Func,
    tape: &Tape,
    an: &Analysed,
    tape_ident: &Ident,
    grad: &Rev,
    fu: &crate::fused::Fusion,
) -> Option<TokenStream> {
    let body = grad.fused_body.clone()?;
    let fwd = Fwd::new(f, tape, &an.plan, &an.temp_names, tape_ident, true);
    let (var, range) = f.body.stmts.iter().find_map(|s| match s {
        Stmt::For { id, var, range, .. } if *id == fu.lp => Some((*var, range)),
        _ => None,
    })?;
    let lp = &f.loops[fu.lp];
    let (k, i) = (&lp.counter, &f.vars[var].emit);
    let iter = fwd.range(range);
    let d_out = Ident::new("d_out", Span::mixed_site());
    let d_out = quote!(#d_out);
    let early = |e: &crate::fused::Early| match e {
        crate::fused::Early::Operand(o) => fwd.operand(o),
        crate::fused::Early::Pure(p) => {
            let p = fwd.pure(p);
            quote!((#p))
        }
    };
    let seeds = (fu.seeds.iter())
        .filter_map(|(v, terms)| {
            let d = grad.d_vars[*v].clone()?;
            Some((d, crate::fused::coef_tokens(terms, &d_out, &early)))
        })
        .collect();
    let rerun = fwd.rerun(fu.lp, true);
    let (step, step_ty) = (crate::names::step_ident(fu.lp), grad.step_ty(fu.lp));
    let code = crate::fused::LoopCode {
        seeds,
        head: quote!(for (#k, #i) in #iter.enumerate()),
        rerun,
        body,
        step_lets: tape.step_lets(fu.lp, &step, &step_ty),
    };
    *fwd.fused.borrow_mut() = Some((fu.lp, code.tokens()));
    Some(fwd.block(&f.body, false, BlockRef::Fn))
}

/// Whether `f` is the tangent program of `hvp` with a loop to fuse, which gets
/// `f_hvp_jvp_fused` ([`seeded`]).
pub fn has_fused_program(f: &Func) -> bool {
    f.tangent_program && crate::fused::find(f).is_some()
}

/// Whether the function gets an `f_grad`: one float output.
pub fn has_grad(f: &Func) -> bool {
    !f.ret_tuple
        && f.ret
            .first()
            .is_some_and(|&t| f.types.kind(t) == Kind::Float)
}

/// What every generated item repeats: names, parameters, const generics.
pub struct Sig<'a> {
    pub vis: &'a syn::Visibility,
    pub name: &'a Ident,
    pub tape_ty: Ident,
    pub fwd: Ident,
    pub adj: Ident,
    pub ret: TokenStream,
    /// `x: f64`, `w: &[f64; N]`, ...
    pub params: Vec<TokenStream>,
    pub param_tys: Vec<TokenStream>,
    pub args: Vec<Ident>,
    pub gnames: Vec<&'a Ident>,
    /// `<const N: usize>` on every item, `<N>` where the tape type is named.
    pub gdecl: TokenStream,
    pub guse: TokenStream,
    pub wrt_tys: Vec<TokenStream>,
    pub wrt_names: String,
    pub allow: TokenStream,
    pub tape_ident: Ident,
    /// The forward-mode companions' inline attribute ([`crate::contract::inline_attr`]).
    pub inline: TokenStream,
}

impl<'a> Sig<'a> {
    pub fn new(func: &'a syn::ItemFn, f: &'a Func) -> Self {
        let name = &func.sig.ident;
        let param_ty = |v: usize| {
            let ty = f.types.tokens(f.vars[v].ty);
            if f.vars[v].by_ref { quote!(&#ty) } else { ty }
        };
        let gnames: Vec<_> = f.generics.iter().map(|(n, _)| n).collect();
        let gtys: Vec<_> = f.generics.iter().map(|(_, t)| t).collect();
        let (gdecl, guse) = if gnames.is_empty() {
            (quote!(), quote!())
        } else {
            (quote!(<#(const #gnames: #gtys),*>), quote!(<#(#gnames),*>))
        };
        Sig {
            vis: &func.vis,
            name,
            tape_ty: tape_name(name),
            fwd: format_ident!("{}_forward", name),
            adj: format_ident!("{}_adjoint", name),
            ret: match &func.sig.output {
                syn::ReturnType::Type(_, t) => quote!(#t),
                syn::ReturnType::Default => quote!(()),
            },
            params: f
                .params
                .iter()
                .map(|&v| {
                    let (n, ty) = (&f.vars[v].emit, param_ty(v));
                    quote!(#n: #ty)
                })
                .collect(),
            param_tys: f.params.iter().map(|&v| param_ty(v)).collect(),
            args: f.params.iter().map(|&v| f.vars[v].emit.clone()).collect(),
            gnames,
            gdecl,
            guse,
            wrt_tys: (f.wrt.iter())
                .map(|&i| f.types.tokens(f.vars[f.params[i]].ty))
                .collect(),
            wrt_names: list(f.wrt.iter().map(|&i| f.vars[f.params[i]].name.to_string())),
            allow: quote!(#[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]),
            tape_ident: Ident::new("tape", Span::mixed_site()),
            inline: crate::contract::inline_attr(&func.attrs),
        }
    }
}

impl Sig<'_> {
    /// `::<N, M>` for a call of one of the function's const-generic items (a constant may
    /// appear in its output only, where rustc cannot infer it), nothing otherwise.
    pub fn turbofish(&self) -> TokenStream {
        let g = &self.gnames;
        if g.is_empty() {
            TokenStream::new()
        } else {
            quote!(::<#(#g),*>)
        }
    }
}

pub fn items(func: &syn::ItemFn, f: &Func, an: &Analysed, args: &crate::args::Args) -> TokenStream {
    let s = sweeps(func, f, an, args);
    let sig = Sig::new(func, f);
    let jvp = (args.jvp || args.hvp).then(|| jvp_fn(&sig, f, an));
    let jvp_vec =
        ((args.jvp || args.hvp) && !args.tangent_program && crate::tangent::vector_mode(f))
            .then(|| jvp_vec_fn(&sig, f, an));
    let tapes = tape_types(&sig, f, &s.tape);
    let forward = forward_fns(&sig, &s);
    let adjoint = adjoint_fn(&sig, &s);
    let grad = if has_grad(f) {
        grad_fn(&sig, f, &s)
    } else {
        seeded::fused_adjoint_fn(&sig, &s)
    };
    let checks = checks(&sig, f);
    let has_jvp = (args.jvp || args.hvp) && !args.tangent_program;
    // A tangent program's (`f_hvp_jvp`'s) parameters left out take anything: where a caller's
    // tangent program passes a derivative to one, its primal passes one to `f` too, and the
    // error is there, once, naming what the user wrote.
    let checked = !args.tangent_program;
    let contract = crate::contract::items(func, f, s.d_out_by_ref, (has_jvp, checked));
    quote! {
        #tapes
        #forward
        #adjoint
        #grad
        #jvp
        #jvp_vec
        #checks
        #contract
    }
}

/// What the reverse items, `f_jvp` and the tangent program of `f_hvp` read: activity, the tape
/// plan, temporaries' names; computed once per function.
pub struct Analysed {
    pub act: analysis::Activity,
    pub plan: Plan,
    pub temp_names: Vec<Option<Ident>>,
}

impl Analysed {
    pub fn new(f: &Func) -> Self {
        let act = analysis::activity(f);
        let plan = Plan::new(f, &act);
        Analysed {
            act,
            plan,
            temp_names: name_temps(f),
        }
    }
}

/// The function's tape type, and one step tape per checkpointed loop.
fn tape_types(sig: &Sig, f: &Func, tape: &Tape) -> TokenStream {
    let Sig { name, fwd, adj, .. } = sig;
    let tapes = TapeItems {
        vis: sig.vis,
        gdecl: &sig.gdecl,
        guse: &sig.guse,
        gnames: &sig.gnames,
    };
    let doc = format!(
        "The tape of [`{name}`]: what [`{adj}`] reads, recorded by [`{fwd}`] in fixed-size fields{}.",
        match tape.has_vecs() {
            true =>
                " and `Vec`s (of loops over run-time lengths whose iterations carry state, or of every loop under `heap`) sized on first use and reused after",
            false => "",
        }
    );
    let main = tape.fields.iter().filter(|x| x.owner.is_none());
    let heap = Tape::heap_bytes(main.clone()).map(|h| quote!(+ #h));
    let mut out = tapes.emit(&sig.tape_ty, &doc, main);
    let (gdecl, guse) = (&sig.gdecl, &sig.guse);
    let tape_ty = &sig.tape_ty;
    out.extend(quote! {
        impl #gdecl #tape_ty #guse {
            /// The bytes this tape holds: [`Self::BYTES`], and what its `Vec` fields (of loops
            /// over run-time lengths whose iterations carry state) hold on the heap.
            pub fn bytes(&self) -> usize {
                Self::BYTES #heap
            }
        }
    });
    if tape.has_vecs() {
        let alloc = tape.alloc.as_ref().unwrap();
        out.extend(quote!(extern crate alloc as #alloc;));
    }
    for (l, lp) in f.loops.iter().enumerate() {
        if lp.checkpoint.is_some() {
            let doc = format!(
                "One iteration's tape of checkpointed loop #{l} of [`{name}`]: [`{adj}`] fills it again for each iteration, from the state saved before it."
            );
            let ty = step_tape_name(&sig.tape_ty, l);
            out.extend(tapes.emit(&ty, &doc, tape.fields.iter().filter(|x| x.owner == Some(l))));
        }
    }
    out
}

/// `f_forward`; with bounded loops, `f_try_forward`; with an array output, `f_forward_into`.
fn forward_fns(sig: &Sig, s: &Sweeps) -> TokenStream {
    let Sig {
        vis,
        name,
        fwd,
        adj,
        ret,
        params,
        gnames,
        gdecl,
        guse,
        allow,
        tape_ident,
        tape_ty,
        ..
    } = sig;
    let fwd_doc = doc(format!(
        "Computes [`{name}`] and records in `tape` what [`{adj}`] needs."
    ));
    // A generic primal is named from the forward function, where its parameters are in scope.
    let use_generic_primal = if gnames.is_empty() {
        quote!()
    } else {
        quote!(let _ = #name::<#(#gnames),*>;)
    };
    let forward = &s.forward;
    // For an array output. A caller whose tape keeps the value calls it with the value's slot
    // (`Fwd::bind_in_tape`), as it calls an `nn` op's: every callee with an array output has one.
    let fwd_into_fn = s.forward_into.as_ref().map(|body| {
        let into = format_ident!("{}_into", fwd);
        let out = Ident::new("out", Span::mixed_site());
        let doc = doc(format!(
            "[`{fwd}`], writing the value into `out` (all of it): the forward sweep of a caller \
             whose tape keeps the value calls this with the value's place in its tape."
        ));
        quote! {
            #doc
            #[inline]
            #allow
            #vis fn #into #gdecl(#(#params,)* #tape_ident: &mut #tape_ty #guse, #out: &mut #ret) {
                #use_generic_primal
                #body
            }
        }
    });
    let try_fwd_fn = s.try_forward.as_ref().map(|body| {
        let try_fwd = format_ident!("{}_try_forward", name);
        let doc = doc(format!(
            "[`{fwd}`], except that where [`{fwd}`] would panic, on a bounded loop (`#[max_iters(K)]`) that would run past its bound or on an index outside a slice parameter, this returns `Err` with a message saying which."
        ));
        quote! {
            #doc
            #[inline]
            #allow
            #vis fn #try_fwd #gdecl(#(#params,)* #tape_ident: &mut #tape_ty #guse) -> ::core::result::Result<#ret, &'static str> {
                ::core::result::Result::Ok({ #body })
            }
        }
    });
    quote! {
        #fwd_doc
        #[inline]
        #allow
        #vis fn #fwd #gdecl(#(#params,)* #tape_ident: &mut #tape_ty #guse) -> #ret {
            #use_generic_primal
            #forward
        }

        #try_fwd_fn
        #fwd_into_fn
    }
}

/// `f_adjoint`.
fn adjoint_fn(sig: &Sig, s: &Sweeps) -> TokenStream {
    let Sig {
        vis,
        name,
        fwd,
        adj,
        ret,
        params,
        gdecl,
        guse,
        allow,
        tape_ident,
        tape_ty,
        wrt_tys,
        wrt_names,
        ..
    } = sig;
    let d_names = list(s.d_params.iter().map(|d| d.to_string()));
    let by_ref = if s.d_out_by_ref {
        " `d_out`, the cotangent of the output, comes by reference (an array or struct output)."
    } else {
        ""
    };
    let adj_doc = doc(format!(
        "The reverse sweep of [`{name}`]: adds `d_out` times the derivative of `{name}` with respect to \
         {wrt_names} into {d_names}.\n\n`tape` must have been filled by [`{fwd}`] with the same arguments. \
         The adjoints accumulate: zero them first for a plain gradient.{by_ref}"
    ));
    let d_out = Ident::new("d_out", Span::mixed_site());
    let d_out_ty = if s.d_out_by_ref {
        quote!(&#ret)
    } else {
        quote!(#ret)
    };
    let (decls, reverse, d_params) = (&s.decls, &s.reverse, &s.d_params);
    let checks = &s.length_checks;
    quote! {
        #adj_doc
        #[inline]
        #allow
        #vis fn #adj #gdecl(#(#params,)* #tape_ident: &#tape_ty #guse, #d_out: #d_out_ty, #(#d_params: &mut #wrt_tys),*) {
            #checks
            #(#decls)*
            #reverse
        }
    }
}

/// `f_grad`, for a function with one float output: the forward sweep, then the reverse sweep
/// inline, into zeroed buffers, assigning first contributions (the adjoint's contract is to
/// accumulate; here nothing else writes the buffers).
fn grad_fn(sig: &Sig, f: &Func, s: &Sweeps) -> TokenStream {
    let Some((decls, reverse, fused)) = &s.grad else {
        return TokenStream::new();
    };
    let Sig {
        vis,
        name,
        fwd,
        ret,
        params,
        args,
        gdecl,
        guse,
        allow,
        tape_ident,
        tape_ty,
        wrt_tys,
        wrt_names,
        ..
    } = sig;
    let grad = format_ident!("{}_grad", name);
    // A differentiated slice's gradient goes into a buffer the caller passes (its length is the
    // slice's), zeroed first; the others are returned.
    let is_slice = |k: usize| f.slices.contains(&f.params[f.wrt[k]]);
    let (mut owned, mut owned_tys, mut owned_zero) = (Vec::new(), Vec::new(), Vec::new());
    let (mut buffers, mut zero_buffers) = (Vec::new(), TokenStream::new());
    for (k, d) in s.d_params.iter().enumerate() {
        let ty = f.vars[f.params[f.wrt[k]]].ty;
        if is_slice(k) {
            let tyt = &wrt_tys[k];
            buffers.push(quote!(#d: &mut #tyt));
            zero_buffers.extend(zero_buffer(d, f, f.params[f.wrt[k]]));
        } else {
            owned.push(d.clone());
            owned_tys.push(wrt_tys[k].clone());
            owned_zero.push(f.types.zero(ty));
        }
    }
    let buffer_doc = if buffers.is_empty() {
        String::new()
    } else {
        " The gradient with respect to each slice is written into the buffer after the arguments \
         (of the slice's length; it is zeroed first), and the others are returned."
            .to_string()
    };
    let grad_doc = doc(format!(
        "The value of [`{name}`] and its gradient with respect to {wrt_names}, in parameter order.{buffer_doc}"
    ));
    let value = Ident::new("value", Span::mixed_site());
    let d_out = Ident::new("d_out", Span::mixed_site());
    let (grad_ty, grads) = match &owned[..] {
        [d] => (owned_tys[0].clone(), quote!(#d)),
        ds => (quote!((#(#owned_tys),*)), quote!((#(#ds),*))),
    };
    let checks = &s.length_checks;
    // What both shapes share: the head, the buffers' checks and zeroing, the tape, the returned
    // gradients' locals, and the sweep's seed, buffers and cotangents.
    let head = quote! {
        #grad_doc
        #allow
        #vis fn #grad #gdecl(#(#params,)* #(#buffers),*) -> (#ret, #grad_ty)
    };
    let start = quote! {
        #checks
        #zero_buffers
        let mut #tape_ident = <#tape_ty #guse>::new();
    };
    let locals = quote!(#(let mut #owned: #owned_tys = #owned_zero;)*);
    let sweep_start = quote! {
        let #d_out: #ret = 1.0;
        #(let #owned = &mut #owned;)*
        #(#decls)*
    };
    if let Some(forward) = fused {
        // The forward sweep inline, the fused loop's iterations adding into the buffers and
        // the cotangents as they run; then the reverse sweep, without that loop.
        let sweep = fused_sweep((&value, ret), tape_ident, sweep_start, forward, reverse);
        return quote! {
            #head {
                #start
                #locals
                #sweep
                (#value, #grads)
            }
        };
    }
    quote! {
        #head {
            #start
            let #value = #fwd(#(#args,)* &mut #tape_ident);
            #locals
            {
                let #tape_ident = &#tape_ident;
                #sweep_start
                #reverse
            }
            (#value, #grads)
        }
    }
}

/// That every constant path the body names is a `const` item, and a use of the primal (so that
/// calling only the generated functions warns of nothing).
fn checks(sig: &Sig, f: &Func) -> TokenStream {
    let checks: Vec<_> = (f.consts.iter())
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
    let Sig {
        name,
        ret,
        param_tys,
        gnames,
        ..
    } = sig;
    let use_primal = if gnames.is_empty() {
        quote!(const _: fn(#(#param_tys),*) -> #ret = #name;)
    } else {
        quote!()
    };
    quote!(#const_check #use_primal)
}

pub fn doc(text: String) -> TokenStream {
    quote!(#[doc = #text])
}

pub fn list(names: impl Iterator<Item = String>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
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
        let report_tys: Vec<String> = fields
            .iter()
            .map(|x| crate::names::type_text(&x.ty))
            .collect();
        let report_types: Vec<&TokenStream> = fields.iter().map(|x| &x.ty).collect();
        let doc_attr = doc(doc_text.to_string());
        quote! {
            #doc_attr
            #[derive(::core::clone::Clone, ::core::fmt::Debug)]
            #vis struct #ty #gdecl {
                #(#docs #names: #tys,)*
            }

            impl #gdecl #ty #guse {
                /// The exact size of this tape in bytes (with `Vec` fields, of its fixed part:
                /// `bytes()` adds what they hold).
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
