//! Nested differentiation: `#[differentiable(nested)]` makes a function's derivatives callees
//! that other `#[differentiable]` functions differentiate again, in forward or reverse mode.
//!
//! For `fn f(x: &[f64; N], w: f64) -> f64` it adds, besides everything `hvp` generates:
//! - `f_grad_x(x, w) -> [f64; N]` and `f_grad_w(x, w) -> f64`: the gradient with respect to one
//!   parameter, as a value a caller can differentiate;
//! - `f_tangent(x, w, t_x, t_w) -> [f64; 2]`: `[f, ∇f · t]`, `f_jvp` as an array.
//!
//! Each comes with the four items of a differentiable callee (`_forward`, `_forward_into`,
//! `_adjoint`, a tape type) and `_jvp`. None keeps a tape: the derivative of a gradient is a
//! row of the Hessian, and the Hessian is symmetric, so every one of these derivatives is one
//! Hessian-vector product `f_hvp` at the arguments the caller passes again:
//! - the adjoint of `f_grad_x` with cotangent `c` adds `H (c, 0)` to the arguments' adjoints;
//!   its tangent along `t` is the `x` part of `H t`;
//! - the adjoint of `f_tangent` with cotangent `[a, b]` adds `a ∇f + b H t` to the primal
//!   arguments' adjoints and `b ∇f` to the tangents'; its tangent along `(s, s_t)` is
//!   `[∇f · s, s · H t + ∇f · s_t]`.
//!
//! Every derivative is a product of the generated `f_hvp`, so there is no perturbation to
//! confuse: each level's direction is an argument of its own.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::ir::{Func, Kind, TyId};
use crate::items::{Sig, doc};
use crate::names::{bare, tape_name};

/// One differentiated parameter: its name, type and place among the gradients.
struct Param {
    name: Ident,
    ty: TyId,
    tokens: TokenStream,
    float: bool,
}

/// The nested items of `f`, or one error on what `nested` cannot take.
pub fn items(func: &syn::ItemFn, f: &Func) -> syn::Result<TokenStream> {
    check(func, f)?;
    let sig = Sig::new(func, f);
    let params: Vec<Param> = (f.wrt.iter())
        .map(|&i| {
            let var = &f.vars[f.params[i]];
            Param {
                name: var.emit.clone(),
                ty: var.ty,
                tokens: f.types.tokens(var.ty),
                float: f.types.kind(var.ty) == Kind::Float,
            }
        })
        .collect();
    let mut out = TokenStream::new();
    for k in 0..params.len() {
        out.extend(grad_items(&sig, f, &params, k));
    }
    out.extend(tangent_items(&sig, f, &params, false));
    out.extend(tangent_items(&sig, f, &params, true));
    out.extend(grad_callee_items(&sig, f, &params));
    Ok(out)
}

/// `nested` takes a function of one float output whose float and float-array parameters are all
/// differentiated (its callers pass a derivative for each).
fn check(func: &syn::ItemFn, f: &Func) -> syn::Result<()> {
    if f.ret_tuple || f.ret.len() != 1 || f.types.kind(f.ret[0]) != Kind::Float {
        return Err(syn::Error::new_spanned(
            &func.sig.output,
            "`nested` needs a function returning one float (its gradient and `f_tangent` are what callers differentiate); for an array output, call its `_hvp_jvp` tangent program from reverse-mode code",
        ));
    }
    for (i, &p) in f.params.iter().enumerate() {
        let var = &f.vars[p];
        let kind = f.types.kind(var.ty);
        let what = if f.slices.contains(&p) {
            "a slice"
        } else if kind == Kind::Struct {
            "a struct"
        } else {
            if matches!(kind, Kind::Float | Kind::Array) && !f.wrt.contains(&i) {
                return Err(syn::Error::new(
                    var.name.span(),
                    format!(
                        "`nested`: `{}` is not differentiated, but a caller that differentiates `{}`'s derivatives passes a derivative for every float and float-array argument; differentiate it too (leave it out of `wrt(..)` only for integers and other data)",
                        var.name, func.sig.ident
                    ),
                ));
            }
            continue;
        };
        return Err(syn::Error::new(
            var.name.span(),
            format!(
                "`nested` does not take {what} parameter yet (`{}`): pass floats and arrays of floats of compile-time sizes",
                var.name
            ),
        ));
    }
    Ok(())
}

/// The pieces every nested item shares.
struct Common<'a> {
    sig: &'a Sig<'a>,
    /// The tape argument, `_hvp`'s name, the unit tape's declaration.
    tape: Ident,
    hvp: Ident,
}

impl<'a> Common<'a> {
    fn new(sig: &'a Sig<'a>) -> Self {
        Common {
            sig,
            tape: Ident::new("tape", Span::mixed_site()),
            hvp: format_ident!("{}_hvp", sig.name),
        }
    }

    /// The callee contract of `item`, whose signature is `sig` (`fn item<..>(..) -> ..`).
    fn contract(&self, sig: TokenStream) -> TokenStream {
        match syn::parse2::<syn::Signature>(sig) {
            Ok(s) => crate::contract::by_signature(self.sig.vis, &s, true),
            Err(e) => e.to_compile_error(),
        }
    }

    /// A tape that holds nothing: the adjoint recomputes what it needs from the arguments.
    fn unit_tape(&self, item: &Ident) -> TokenStream {
        let Sig {
            vis, gdecl, guse, ..
        } = self.sig;
        let tape = tape_name(item);
        let text = format!(
            "The tape of [`{item}`]: empty, as its adjoint is one Hessian-vector product at the arguments (generated by `#[differentiable(nested)]`)."
        );
        quote! {
            #[doc = #text]
            #[derive(::core::clone::Clone, ::core::fmt::Debug)]
            #vis struct #tape #gdecl;
            impl #gdecl #tape #guse {
                /// The tape's size in bytes: nothing.
                pub const BYTES: usize = 0;
                /// No recorded field.
                pub const FIELDS: &'static [(&'static str, &'static str, &'static str, usize)] = &[];
                /// An empty tape.
                pub const fn new() -> Self {
                    Self
                }
                /// The bytes this tape holds: nothing.
                pub fn bytes(&self) -> usize {
                    0
                }
            }
            impl #gdecl ::core::default::Default for #tape #guse {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    }
}

/// `g.k` of a gradient tuple, or `g` for a function with one differentiated parameter.
fn part(g: &Ident, k: usize, n: usize) -> TokenStream {
    if n == 1 {
        quote!(#g)
    } else {
        let k = syn::Index::from(k);
        quote!(#g.#k)
    }
}

/// `∑ a_i b_i` over every float of two values of type `ty` (each an expression of the type or a
/// reference to it).
fn dot(f: &Func, ty: TyId, a: TokenStream, b: TokenStream) -> TokenStream {
    match f.types.elem(ty) {
        None => quote!((#a * #b)),
        Some(e) => {
            let (x, y) = (
                Ident::new("a", Span::mixed_site()),
                Ident::new("b", Span::mixed_site()),
            );
            let inner = dot(f, e, quote!(#x), quote!(#y));
            quote!((#a).iter().zip((#b).iter()).fold(0.0, |s, (#x, #y)| s + #inner))
        }
    }
}

/// `*d += scale * h` (or `*d += h`) for every float of type `ty`: `d` a `&mut` of the type, `h` a reference.
fn add(f: &Func, ty: TyId, d: TokenStream, h: TokenStream, scale: Option<&Ident>) -> TokenStream {
    match f.types.elem(ty) {
        None => match scale {
            Some(a) => quote!(*#d += #a * *#h;),
            None => quote!(*#d += *#h;),
        },
        Some(e) => {
            let (x, y) = (
                Ident::new("d", Span::mixed_site()),
                Ident::new("h", Span::mixed_site()),
            );
            let inner = add(f, e, quote!(#x), quote!(#y), scale);
            quote!(for (#x, #y) in (#d).iter_mut().zip((#h).iter()) { #inner })
        }
    }
}

/// How a direction is passed to `f_hvp`: a float by value, an array by reference.
fn by_hvp(p: &Param, v: TokenStream) -> TokenStream {
    if p.float { v } else { quote!(&#v) }
}

/// `f_grad_x` and its callee items, for differentiated parameter `k`.
fn grad_items(sig: &Sig, f: &Func, params: &[Param], k: usize) -> TokenStream {
    let c = Common::new(sig);
    let Sig {
        vis,
        name,
        params: decl,
        args,
        gdecl,
        guse,
        allow,
        ..
    } = sig;
    let (tape, hvp) = (&c.tape, &c.hvp);
    let tf = sig.turbofish();
    let p = &params[k];
    let n = params.len();
    let item = format_ident!("{}_grad_{}", name, bare(&p.name));
    let (fwd, into, adj, jvp) = (
        format_ident!("{}_forward", item),
        format_ident!("{}_forward_into", item),
        format_ident!("{}_adjoint", item),
        format_ident!("{}_jvp", item),
    );
    let tape_ty = tape_name(&item);
    let grad = format_ident!("{}_grad", name);
    let ty = &p.tokens;
    let mut names = f.fresh_names(&[]);
    let g = Ident::new("g", Span::mixed_site());
    let hv = Ident::new("hv", Span::mixed_site());
    let gk = part(&g, k, n);
    let pname = bare(&p.name);
    let text = doc(format!(
        "The gradient of [`{name}`] with respect to `{pname}` alone, a value other `#[differentiable]` functions differentiate again (generated by `#[differentiable(nested)]`, with `{fwd}`, `{adj}`, `{tape_ty}` and `{jvp}`)."
    ));
    // The adjoint: `H v` with `v` zero but for this parameter, which is the cotangent.
    let d_out = names.fresh("d_out");
    let d_out_ty = if p.float { quote!(#ty) } else { quote!(&#ty) };
    let dirs: Vec<TokenStream> = (params.iter().enumerate())
        .map(|(j, q)| {
            if j == k {
                quote!(#d_out)
            } else {
                by_hvp(q, f.types.zero(q.ty))
            }
        })
        .collect();
    let d_names: Vec<Ident> = (params.iter())
        .map(|q| names.fresh(&format!("d_{}", bare(&q.name))))
        .collect();
    let d_tys = params.iter().map(|q| {
        let t = &q.tokens;
        quote!(&mut #t)
    });
    let adds = params.iter().enumerate().map(|(j, q)| {
        let (d, h) = (&d_names[j], part(&hv, j, n));
        add(f, q.ty, quote!(#d), quote!(&#h), None)
    });
    let t_names: Vec<Ident> = (params.iter())
        .map(|q| names.fresh(&format!("t_{}", bare(&q.name))))
        .collect();
    let t_tys = params.iter().map(|q| {
        let t = &q.tokens;
        if q.float { quote!(#t) } else { quote!(&#t) }
    });
    let hk = part(&hv, k, n);
    let out = names.fresh("out");
    let into_fn = (!p.float).then(|| {
        quote! {
            #[inline]
            #allow
            #vis fn #into #gdecl(#(#decl,)* #tape: &mut #tape_ty #guse, #out: &mut #ty) {
                *#out = #item #tf(#(#args),*);
            }
        }
    });
    let unit = c.unit_tape(&item);
    let contract = c.contract(quote!(fn #item #gdecl(#(#decl),*) -> #ty));
    quote! {
        #text
        #[inline]
        #allow
        #vis fn #item #gdecl(#(#decl),*) -> #ty {
            let (_, #g) = #grad #tf(#(#args),*);
            #gk
        }
        #unit
        #contract
        #[inline]
        #allow
        #vis fn #fwd #gdecl(#(#decl,)* #tape: &mut #tape_ty #guse) -> #ty {
            #item #tf(#(#args),*)
        }
        #into_fn
        #[inline]
        #allow
        #vis fn #adj #gdecl(#(#decl,)* #tape: &#tape_ty #guse, #d_out: #d_out_ty, #(#d_names: #d_tys),*) {
            let (_, _, #hv) = #hvp #tf(#(#args,)* #(#dirs),*);
            #(#adds)*
        }
        #[inline]
        #allow
        #vis fn #jvp #gdecl(#(#decl,)* #(#t_names: #t_tys),*) -> (#ty, #ty) {
            let (_, _, #hv) = #hvp #tf(#(#args,)* #(#t_names),*);
            (#item #tf(#(#args),*), #hk)
        }
    }
}

/// The names of `f_tangent`'s directions and adjoints, one per differentiated parameter, and
/// their types: `t` (the tangent), `s`, `s_t` (its own tangent's directions), `d`, `d_t`.
struct Dirs {
    t: Vec<Ident>,
    s: Vec<Ident>,
    st: Vec<Ident>,
    d: Vec<Ident>,
    dt: Vec<Ident>,
    t_tys: Vec<TokenStream>,
    mut_tys: Vec<TokenStream>,
}

impl Dirs {
    fn new(params: &[Param], names: &mut crate::names::Names) -> Self {
        let mut fresh = |prefix: &str| -> Vec<Ident> {
            (params.iter())
                .map(|q| names.fresh(&format!("{prefix}{}", bare(&q.name))))
                .collect()
        };
        let (t, s, st, d, dt) = (
            fresh("t_"),
            fresh("s_"),
            fresh("s_t_"),
            fresh("d_"),
            fresh("d_t_"),
        );
        let t_tys = (params.iter())
            .map(|q| {
                let t = &q.tokens;
                if q.float { quote!(#t) } else { quote!(&#t) }
            })
            .collect();
        let mut_tys = (params.iter())
            .map(|q| {
                let t = &q.tokens;
                quote!(&mut #t)
            })
            .collect();
        Dirs {
            t,
            s,
            st,
            d,
            dt,
            t_tys,
            mut_tys,
        }
    }
}

/// The adjoint of `f_tangent` with cotangent `[a, b]`: `a ∇f + b H t` into the primal
/// arguments' adjoints `d`, `b ∇f` into the tangents' `dt` (`g` the gradient, `ht` `H t`).
fn tangent_adds(
    f: &Func,
    params: &[Param],
    (d, dt): (&[Ident], &[Ident]),
    [g, ht, a, b]: [&Ident; 4],
) -> Vec<TokenStream> {
    let n = params.len();
    (0..n)
        .map(|j| {
            let (dj, dtj, gj, hj) = (&d[j], &dt[j], part(g, j, n), part(ht, j, n));
            let ty = params[j].ty;
            let grad = add(f, ty, quote!(#dj), quote!(&#gj), Some(a));
            let hess = add(f, ty, quote!(#dj), quote!(&#hj), Some(b));
            let tan = add(f, ty, quote!(#dtj), quote!(&#gj), Some(b));
            quote!(#grad #hess #tan)
        })
        .collect()
}

/// `f_tangent(x.., t..) -> [f, ∇f · t]` and its callee items; with `tuple`, the callee items of
/// `f_jvp` itself, whose result is the tuple `(f, ∇f · t)` (`let (v, dv) = f_jvp(..);` in
/// differentiable code).
fn tangent_items(sig: &Sig, f: &Func, params: &[Param], tuple: bool) -> TokenStream {
    let c = Common::new(sig);
    let Sig {
        vis,
        name,
        params: decl,
        args,
        gdecl,
        guse,
        allow,
        ret,
        ..
    } = sig;
    let (tape, hvp) = (&c.tape, &c.hvp);
    let tf = sig.turbofish();
    let item = format_ident!("{}_{}", name, if tuple { "jvp" } else { "tangent" });
    let (fwd, into, adj, jvp) = (
        format_ident!("{}_forward", item),
        format_ident!("{}_forward_into", item),
        format_ident!("{}_adjoint", item),
        format_ident!("{}_jvp", item),
    );
    let f_jvp = format_ident!("{}_jvp", name);
    let tape_ty = tape_name(&item);
    let mut names = f.fresh_names(&[]);
    let Dirs {
        t,
        s,
        st,
        d,
        dt,
        t_tys,
        mut_tys,
    } = Dirs::new(params, &mut names);
    let [v, g, ht, a, b] = ["v", "g", "ht", "a", "b"].map(|x| Ident::new(x, Span::mixed_site()));
    let [_, gs, sht, gst] = sums(f, params, [&g, &ht], [&t, &s, &st]);
    let adds = tangent_adds(f, params, (&d, &dt), [&g, &ht, &a, &b]);
    let d_out = names.fresh("d_out");
    let out = names.fresh("out");
    let text = doc(format!(
        "`[value, tangent]` of [`{name}`] along the directions `{}`: `{name}_jvp` as an array, which other `#[differentiable]` functions differentiate again (generated by `#[differentiable(nested)]`, with `{fwd}`, `{adj}`, `{tape_ty}` and `{jvp}`).",
        t.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("`, `")
    ));
    let unit = c.unit_tape(&item);
    // `[f, ∇f · t]`, or for `f_jvp`'s callee items the tuple `(f, ∇f · t)`.
    let pair = |x: TokenStream, y: TokenStream| {
        if tuple {
            quote!((#x, #y))
        } else {
            quote!([#x, #y])
        }
    };
    let pair_ty = if tuple {
        quote!((#ret, #ret))
    } else {
        quote!([#ret; 2])
    };
    let contract = c.contract(quote!(fn #item #gdecl(#(#decl,)* #(#t: #t_tys),*) -> #pair_ty));
    let (d_out_ty, split) = if tuple {
        (pair_ty.clone(), quote!(#d_out))
    } else {
        (quote!(&#pair_ty), quote!((#d_out[0], #d_out[1])))
    };
    // The value is the primal item's own, bit for bit (the gradient `f_hvp` computes may round
    // differently from `f_jvp`'s tangent).
    let value = quote!(#item #tf(#(#args,)* #(#t),*));
    let tangent = pair(gs, quote!(#sht + #gst));
    // `f_jvp` exists; `f_tangent` and its `_forward_into` (an array output) are made here.
    let own = (!tuple).then(|| {
        quote! {
            #text
            #[inline]
            #allow
            #vis fn #item #gdecl(#(#decl,)* #(#t: #t_tys),*) -> [#ret; 2] {
                let (#v, #g) = #f_jvp #tf(#(#args,)* #(#t),*);
                [#v, #g]
            }
            #[inline]
            #allow
            #vis fn #into #gdecl(#(#decl,)* #(#t: #t_tys,)* #tape: &mut #tape_ty #guse, #out: &mut [#ret; 2]) {
                *#out = #item #tf(#(#args,)* #(#t),*);
            }
        }
    });
    let callee_text = tuple.then(|| {
        doc(format!(
            "The callee items of [`{item}`], so that other `#[differentiable]` functions differentiate `let (v, dv) = {item}(..);` (generated by `#[differentiable(nested)]`): `{fwd}`, `{adj}` and `{jvp}`, each one `{name}_hvp`."
        ))
    });
    quote! {
        #own
        #unit
        #contract
        #callee_text
        #[inline]
        #allow
        #vis fn #fwd #gdecl(#(#decl,)* #(#t: #t_tys,)* #tape: &mut #tape_ty #guse) -> #pair_ty {
            #item #tf(#(#args,)* #(#t),*)
        }
        #[inline]
        #allow
        #vis fn #adj #gdecl(#(#decl,)* #(#t: #t_tys,)* #tape: &#tape_ty #guse, #d_out: #d_out_ty, #(#d: #mut_tys,)* #(#dt: #mut_tys),*) {
            let (_, #g, #ht) = #hvp #tf(#(#args,)* #(#t),*);
            let (#a, #b) = #split;
            #(#adds)*
        }
        #[inline]
        #allow
        #vis fn #jvp #gdecl(#(#decl,)* #(#t: #t_tys,)* #(#s: #t_tys,)* #(#st: #t_tys),*) -> (#pair_ty, #pair_ty) {
            let (_, #g, #ht) = #hvp #tf(#(#args,)* #(#t),*);
            (#value, #tangent)
        }
    }
}

/// `f_grad` itself as a callee (`let (v, d_y) = f_grad(x, &y);` in differentiable code): its
/// callee items, each one `f_hvp`. The adjoint of `(f, ∇f)` with cotangent `(a, c)` adds
/// `a ∇f + H c` to the arguments' adjoints; its tangent along `t` is `(∇f · t, H t)`.
fn grad_callee_items(sig: &Sig, f: &Func, params: &[Param]) -> TokenStream {
    let c = Common::new(sig);
    let Sig {
        vis,
        name,
        params: decl,
        args,
        gdecl,
        guse,
        allow,
        ret,
        ..
    } = sig;
    let (tape, hvp) = (&c.tape, &c.hvp);
    let tf = sig.turbofish();
    let n = params.len();
    let item = format_ident!("{}_grad", name);
    let (fwd, adj, jvp) = (
        format_ident!("{}_forward", item),
        format_ident!("{}_adjoint", item),
        format_ident!("{}_jvp", item),
    );
    let tape_ty = tape_name(&item);
    let g_ty = if n == 1 {
        params[0].tokens.clone()
    } else {
        let tys = params.iter().map(|q| &q.tokens);
        quote!((#(#tys,)*))
    };
    let out_ty = quote!((#ret, #g_ty));
    let mut names = f.fresh_names(&[]);
    let d_out = names.fresh("d_out");
    let d: Vec<Ident> = (params.iter())
        .map(|q| names.fresh(&format!("d_{}", bare(&q.name))))
        .collect();
    let t: Vec<Ident> = (params.iter())
        .map(|q| names.fresh(&format!("t_{}", bare(&q.name))))
        .collect();
    let mut_tys = params.iter().map(|q| {
        let t = &q.tokens;
        quote!(&mut #t)
    });
    let t_tys = params.iter().map(|q| {
        let t = &q.tokens;
        if q.float { quote!(#t) } else { quote!(&#t) }
    });
    let [a, cg, g, hv] = ["a", "c", "g", "hv"].map(|s| Ident::new(s, Span::mixed_site()));
    let dirs = (0..n).map(|j| by_hvp(&params[j], part(&cg, j, n)));
    let adds = (0..n).map(|j| {
        let (dj, gj, hj) = (&d[j], part(&g, j, n), part(&hv, j, n));
        let ty = params[j].ty;
        let grad = add(f, ty, quote!(#dj), quote!(&#gj), Some(&a));
        let hess = add(f, ty, quote!(#dj), quote!(&#hj), None);
        quote!(#grad #hess)
    });
    let terms = (0..n).map(|j| {
        let tj = &t[j];
        dot(f, params[j].ty, part(&g, j, n), quote!(#tj))
    });
    let text = doc(format!(
        "The callee items of [`{item}`], so that other `#[differentiable]` functions differentiate `let (v, g) = {item}(..);` (generated by `#[differentiable(nested)]`): `{fwd}`, `{adj}` and `{jvp}`, each one `{name}_hvp`."
    ));
    let unit = c.unit_tape(&item);
    let contract = c.contract(quote!(fn #item #gdecl(#(#decl),*) -> #out_ty));
    quote! {
        #unit
        #contract
        #text
        #[inline]
        #allow
        #vis fn #fwd #gdecl(#(#decl,)* #tape: &mut #tape_ty #guse) -> #out_ty {
            #item #tf(#(#args),*)
        }
        #[inline]
        #allow
        #vis fn #adj #gdecl(#(#decl,)* #tape: &#tape_ty #guse, #d_out: #out_ty, #(#d: #mut_tys),*) {
            let (#a, #cg) = #d_out;
            let (_, #g, #hv) = #hvp #tf(#(#args,)* #(#dirs),*);
            #(#adds)*
        }
        #[inline]
        #allow
        #vis fn #jvp #gdecl(#(#decl,)* #(#t: #t_tys),*) -> (#out_ty, #out_ty) {
            let (_, #g, #hv) = #hvp #tf(#(#args,)* #(#t),*);
            (#item #tf(#(#args),*), ((0.0 #(+ #terms)*), #hv))
        }
    }
}

/// `∇f · t`, `∇f · s`, `s · H t` and `∇f · s_t` over every differentiated parameter: `g` and
/// `ht` the gradient and `H t` (tuples), `t`, `s`, `st` the directions' names.
fn sums(
    f: &Func,
    params: &[Param],
    [g, ht]: [&Ident; 2],
    [t, s, st]: [&[Ident]; 3],
) -> [TokenStream; 4] {
    let n = params.len();
    let id = |x: &Ident| quote!(#x);
    let sum = |term: &dyn Fn(usize) -> TokenStream| {
        let terms = (0..n).map(term);
        quote!((0.0 #(+ #terms)*))
    };
    [
        sum(&|j| dot(f, params[j].ty, part(g, j, n), id(&t[j]))),
        sum(&|j| dot(f, params[j].ty, part(g, j, n), id(&s[j]))),
        sum(&|j| dot(f, params[j].ty, id(&s[j]), part(ht, j, n))),
        sum(&|j| dot(f, params[j].ty, part(g, j, n), id(&st[j]))),
    ]
}
