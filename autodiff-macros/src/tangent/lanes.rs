//! Vector forward mode, `f_jvp_vec::<W>`: the tangent sweep carrying `W` directions at once, so
//! the primal runs once for all of them. Each float tangent is a `[F; W]`, arrays of them for
//! arrays (`[[F; W]; N]`, as the parameters and the result take and give them). A float
//! definition's tangent is its scalar rule evaluated for each lane, `from_fn(|__l| rule)`, the
//! tangents it reads taken at lane `__l` (`t_x[__l]`): every rule of the scalar sweep serves
//! unchanged, and the lanes of one definition are contiguous for the compiler to vectorize.
//! The lanes of an array are one flat row of floats, which an innermost loop of lane updates
//! runs over at once ([`flat`](super::flat)).
//!
//! Loop-invariant tangent terms are hoisted as in `f_jvp` (`hoist`, whose fixed part and slots
//! hold lanes too), and loop nests split as there (`split`). For the functions whose tangents are
//! floats and arrays of floats: a struct or slice tangent leaves the function without
//! `f_jvp_vec` ([`vector_mode`]). A call takes the value once and its tangent lane by lane,
//! one `g_jvp_call` per lane ([`Tan::lanes_call`]; a call that names its constants one
//! `g_jvp::<N>` per lane, as `f_jvp` calls it): any `jvp` callee serves, whether it has a
//! vector form or not.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, quote};

use super::Tan;
use crate::ir::*;

/// The lane count's name in `f_jvp_vec`'s generics (no user name starts with two underscores
/// and a capital, by the macro's own naming rules).
pub fn width() -> Ident {
    Ident::new("__W", Span::mixed_site())
}

/// The zero of one float tangent's lanes.
pub(super) fn zero() -> TokenStream {
    let w = width();
    quote!([0.0; #w])
}

/// Whether `f` gets `f_jvp_vec`: its differentiated parameters and results are floats and
/// arrays of floats, no value is a struct (a struct parameter left out of `wrt` neither), and
/// every call goes through its callee's slot forwarder (`g_jvp_call`, `Func::through_slots`)
/// or names its constants (`g::<N>(..)`, not another method of the block), and returns a float
/// or an array of a type written here.
pub fn vector_mode(f: &Func) -> bool {
    let plain = |ty: TyId| {
        let leaf = f.types.leaf(ty);
        f.types.kind(leaf) == Kind::Float && !matches!(f.types.get(ty), TyVal::Slice(_))
    };
    let params = f.wrt.iter().all(|&i| plain(f.vars[f.params[i]].ty));
    let structs = (f.vars.iter()).any(|v| f.types.kind(v.ty) == Kind::Struct);
    params && !structs && f.ret.iter().all(|&t| plain(t)) && calls_fit(f, &f.body)
}

/// Whether the type is written in the function (not named through a callee's contract).
fn written(f: &Func, ty: TyId) -> bool {
    match f.types.get(ty) {
        TyVal::Out(..) | TyVal::Whole(_) | TyVal::Elem(..) => false,
        TyVal::Array(e, _) => written(f, *e),
        _ => f.types.known(ty),
    }
}

/// Every call of `b` one that vector mode takes ([`vector_mode`]).
fn calls_fit(f: &Func, b: &Block) -> bool {
    b.stmts.iter().all(|s| match s {
        Stmt::Def {
            target,
            place,
            rhs: Rhs::Call {
                path, args, tuple, ..
            },
            ..
        } => {
            let ty = match target {
                Target::Var(v) => f.place_ty(*v, place),
                t => f.target_ty(*t),
            };
            // Through the slot forwarders, or naming the callee's constants (`g_jvp`, lane by
            // lane, as `f_jvp` calls it).
            let named = names_constants(path) && f.known_callee(path).is_none();
            tuple.is_none() && (f.through_slots(path, args) || named) && written(f, ty)
        }
        Stmt::Def { rhs, .. } => !matches!(rhs, Rhs::Elem { .. }),
        Stmt::If { then, els, .. } => calls_fit(f, then) && calls_fit(f, els),
        Stmt::For { body, .. } => calls_fit(f, body),
        _ => true,
    })
}

impl Tan<'_> {
    /// The tangent sweep of `f_jvp_vec`.
    pub fn for_lanes(mut self) -> Self {
        self.lanes = true;
        self
    }

    /// A tangent read at lane `__l` while a float tangent is printed lane by lane.
    pub(super) fn in_lane(&self, t: TokenStream) -> TokenStream {
        if self.lane.get() { quote!(#t[__l]) } else { t }
    }

    /// The type of a tangent of a value of type `ty`.
    pub(super) fn t_ty(&self, ty: TyId) -> TokenStream {
        if self.lanes {
            self.lanes_ty(ty)
        } else {
            self.f.types.tokens_infer(ty)
        }
    }

    /// `t_ty`, or `_` where the value's type is not known.
    pub(super) fn t_ty_or_infer(&self, ty: TyId) -> TokenStream {
        if self.lanes && self.f.types.known(ty) {
            self.lanes_ty(ty)
        } else {
            self.f.types.tokens_or_infer(ty)
        }
    }

    /// `: T` for a tangent's `let`, where the value's is written.
    pub(super) fn t_ann(&self, ty: TyId) -> TokenStream {
        if !self.lanes || self.flat_on() {
            return self.f.types.annotation(ty);
        }
        if self.f.types.known(ty) {
            let t = self.lanes_ty(ty);
            return quote!(: #t);
        }
        TokenStream::new()
    }

    /// `ty` with each float `F` as `[F; W]`.
    fn lanes_ty(&self, ty: TyId) -> TokenStream {
        let w = width();
        match self.f.types.get(ty) {
            TyVal::Array(e, n) => {
                let e = self.lanes_ty(*e);
                quote!([#e; #n])
            }
            // Its length can be named in a type only through its primal type: left to rustc.
            TyVal::Out(..) => quote!(_),
            _ if self.f.types.kind(ty) == Kind::Float => {
                let f = self.f.types.tokens(ty);
                quote!([#f; #w])
            }
            _ => self.f.types.tokens_infer(ty),
        }
    }

    /// The tangent of `place` in an array parameter read in place through its reference
    /// ([`Tan::raw`]): its lane `__l`, or all its lanes (the whole parameter's dereferenced).
    pub(super) fn raw_lanes(&self, place: TokenStream, whole: bool) -> TokenStream {
        match (self.lane.get(), whole) {
            (true, _) => quote!(#place[__l]),
            (false, true) => quote!((*#place)),
            (false, false) => place,
        }
    }

    /// The tangent parameters of `f_jvp_vec`: a float's lanes by value, an array's by
    /// reference.
    pub fn lanes_params(&self) -> Vec<(Ident, TokenStream)> {
        (self.f.wrt.iter())
            .map(|&i| {
                let v = self.f.params[i];
                let ty = self.f.vars[v].ty;
                let t = self.lanes_ty(ty);
                let t = match self.f.types.kind(ty) {
                    Kind::Float => t,
                    _ => quote!(&#t),
                };
                (self.t_vars[v].clone().unwrap(), t)
            })
            .collect()
    }

    /// The result type of `f_jvp_vec`: the value's, and the tangent's with `W` lanes a float.
    pub fn lanes_ret(&self) -> TokenStream {
        let tys: Vec<_> = self.f.ret.iter().map(|&t| self.lanes_ty(t)).collect();
        match (self.f.ret_tuple, &tys[..]) {
            (false, [t]) => t.clone(),
            _ => quote!((#(#tys),*)),
        }
    }

    /// A call in vector mode, `let y = g(args..);`: its tangent lane by lane, each lane one
    /// `g_jvp_call` with every argument's tangent at that lane (`__LaneOf::lane`, `()` where
    /// it carries none; for `g::<N>(..)`, one `g_jvp::<N>` with the tangents `f_jvp` passes,
    /// [`Tan::arg_tangent`]), written into the lanes of `t_y`; then the value, once.
    pub(super) fn lanes_call(
        &mut self,
        (target, place, is_let): (Target, &[Proj], bool),
        (path, args, span): (&syn::Path, &[Operand], Span),
        t_name: TokenStream,
    ) -> TokenStream {
        let fwd = self.fwd;
        let vals: Vec<_> = args.iter().map(|a| fwd.operand(a)).collect();
        let mut pre = TokenStream::new();
        let (jvp, slots) = self.callee_tangents(path, args, span, &mut pre);
        self.needs_lane_of = true;
        let ty = self.def_ty(target, place);
        let (tt, zero, w) = (self.t_ty(ty), self.zero(ty), width());
        let tangent = quote!({
            #pre
            let mut __t: #tt = #zero;
            for __l in 0..#w {
                let (_, __lane) = #jvp(#(#vals,)* #(#slots),*);
                __LaneOf::set_lane(&mut __t, __l, __lane);
            }
            __t
        });
        // The tangent first: the value may overwrite (or shadow) an argument (`h = g(h, x)`).
        let new = Ident::new("__lanes_t", Span::mixed_site());
        let prim = Self::bind(fwd, target, place, is_let, quote!(#path(#(#vals),*)));
        if is_let && place.is_empty() {
            let m = matches!(target, Target::Var(v) if self.f.vars[v].mutable).then(|| quote!(mut));
            let ann = self.t_ann(ty);
            return quote!(let #new #ann = #tangent; #prim let #m #t_name #ann = #new;);
        }
        quote!(let #new = #tangent; #prim #t_name = #new;)
    }

    /// The body of `f_jvp_vec`: the parameters' lanes bound (an array's read in place, unless
    /// the function assigns it), the sweep, the result's lanes.
    pub fn lanes_body(&mut self) -> TokenStream {
        let mut pre = TokenStream::new();
        for &i in &self.f.wrt {
            let v = self.f.params[i];
            let t = self.t_vars[v].clone().unwrap();
            let ty = self.f.vars[v].ty;
            let (array, mutable) = (self.f.types.kind(ty) == Kind::Array, self.f.vars[v].mutable);
            if array && !mutable {
                self.raw[v] = true;
            } else if array {
                let inner = self.lanes_ty(ty);
                pre.extend(quote!(let mut #t: #inner = *#t;));
            } else if mutable {
                pre.extend(quote!(let mut #t = #t;));
            }
        }
        let (stmts, value, tangent) = self.block(&self.f.body, &self.f.ret);
        if self.needs_lane_of {
            pre.extend(lane_of());
        }
        if self.needs_zero_helper {
            crate::tangent::ZERO_HELPER.to_tokens(&mut pre);
        }
        match (self.f.ret_tuple, &value[..]) {
            (false, [v]) => {
                let t = &tangent[0];
                quote!(#pre #stmts (#v, #t))
            }
            _ => quote!(#pre #stmts ((#(#value),*), (#(#tangent),*))),
        }
    }

    /// `t += u;` for two float tangents (in vector mode, lane by lane), as the sweep writes a
    /// sum: `t = t + u;`.
    pub(super) fn add_into(&self, t: TokenStream, u: TokenStream) -> TokenStream {
        if self.lanes {
            quote!(#t = ::core::array::from_fn(|__l| #t[__l] + #u[__l]);)
        } else {
            quote!(#t = #t + #u;)
        }
    }

    /// `t += u;` for two arrays of `n` float tangents, element by element (in vector mode,
    /// one loop over their lanes as flat rows).
    pub(super) fn add_rows(
        &mut self,
        t: TokenStream,
        u: TokenStream,
        n: TokenStream,
    ) -> TokenStream {
        if self.lanes {
            let (a, b) = (
                Ident::new("__a", Span::mixed_site()),
                Ident::new("__b", Span::mixed_site()),
            );
            return quote! {
                for (#a, #b) in #t.as_flattened_mut().iter_mut().zip(#u.as_flattened()) {
                    *#a = *#a + *#b;
                }
            };
        }
        let j = self.names.fresh("j");
        quote!(for #j in (0..#n) { #t[#j] = #t[#j] + #u[#j]; })
    }

    /// A float definition's tangent, lane by lane: `from_fn(|__l| rule)`, the rule
    /// reading each tangent at lane `__l`; the lanes' zero where the rule gives none. The
    /// scalar sweep binds it as it binds a scalar tangent.
    pub(super) fn lanes_rhs(
        &self,
        target: Target,
        rhs: &Rhs,
        ty: TyId,
        out: &TokenStream,
        reads_out: &mut bool,
    ) -> TokenStream {
        self.lane.set(true);
        let t = self.t_rhs(target, rhs, ty, out, reads_out);
        self.lane.set(false);
        // In a flat loop, one element of a row.
        if self.flat_on() {
            return t.unwrap_or_else(|| self.f.types.zero(ty));
        }
        match t {
            Some(t) => quote!(::core::array::from_fn(|__l| #t)),
            None => zero(),
        }
    }
}

/// `__LaneOf`: one lane of a tangent (a float's lanes, or arrays of them) as the scalar sweep
/// holds it, and that lane written back. The impl for arrays would overlap the one for a
/// float's lanes only for an element type `f32` or `f64` implementing the trait, which none
/// does: the trait is declared here, so rustc knows all its impls.
fn lane_of() -> TokenStream {
    let float = |f: TokenStream| {
        quote! {
            impl<const W: usize> __LaneOf<W> for [#f; W] {
                type One = #f;
                #[inline(always)]
                fn lane(&self, l: usize) -> #f {
                    self[l]
                }
                #[inline(always)]
                fn set_lane(&mut self, l: usize, v: #f) {
                    self[l] = v;
                }
            }
        }
    };
    let (f32s, f64s) = (float(quote!(f32)), float(quote!(f64)));
    quote! {
        trait __LaneOf<const W: usize> {
            type One;
            fn lane(&self, l: usize) -> Self::One;
            fn set_lane(&mut self, l: usize, v: Self::One);
        }
        #f32s
        #f64s
        impl<T: __LaneOf<W>, const N: usize, const W: usize> __LaneOf<W> for [T; N] {
            type One = [T::One; N];
            #[inline(always)]
            fn lane(&self, l: usize) -> Self::One {
                ::core::array::from_fn(|i| self[i].lane(l))
            }
            #[inline(always)]
            fn set_lane(&mut self, l: usize, v: Self::One) {
                for (s, x) in self.iter_mut().zip(v) {
                    s.set_lane(l, x);
                }
            }
        }
    }
}
