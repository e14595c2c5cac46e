//! The propagation of one definition's cotangent to its operands: the differentiation rules of
//! each right-hand side, and calls to other differentiable functions' adjoints.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};

use super::Rev;
use crate::ir::*;
use crate::names::companion;
use crate::rules::{self, Which};
use crate::tape::{Key, Spec};

impl<'a> Rev<'a> {
    pub(super) fn rhs(
        &mut self,
        def: usize,
        target: Target,
        place: &[Proj],
        rhs: &Rhs,
        s: &TokenStream,
    ) -> TokenStream {
        match rhs {
            Rhs::Copy(o) => self.pass(o, s),
            Rhs::Neg(o) => self.contrib(o, |_| Some(quote!(-#s))),
            Rhs::Cast(o) if self.f.unseen_field(o) => self.cast_into_field(o, s),
            Rhs::Cast(o) => {
                let ty = self.ty(self.f.operand_ty(o));
                self.contrib(o, |_| Some(quote!(#s as #ty)))
            }
            Rhs::Array(elems) => {
                let mut out = TokenStream::new();
                for (i, o) in elems.iter().enumerate() {
                    let i = proc_macro2::Literal::usize_unsuffixed(i);
                    out.extend(self.contrib(o, |_| Some(quote!(#s[#i]))));
                }
                out
            }
            Rhs::Bin(op, a, b) => {
                let (ca, cb): (TokenStream, TokenStream) = match op {
                    BinOp::Add => (self.pass(a, s), self.pass(b, s)),
                    BinOp::Sub => (self.pass(a, s), self.contrib(b, |_| Some(quote!(-#s)))),
                    BinOp::Mul => (
                        self.contrib(a, |r| {
                            let vb = r.val(b);
                            Some(quote!(#s * #vb))
                        }),
                        self.contrib(b, |r| {
                            let va = r.val(a);
                            Some(quote!(#s * #va))
                        }),
                    ),
                    BinOp::Div => (
                        self.contrib(a, |r| {
                            let vb = r.val(b);
                            Some(quote!(#s / #vb))
                        }),
                        self.contrib(b, |r| {
                            let (vb, out) = (r.val(b), r.out(def, target, place));
                            // `s / b` is also the contribution to `a`: computed once, and in
                            // parallel with the primal's division rather than after it.
                            Some(quote!(-(#s / #vb * #out)))
                        }),
                    ),
                };
                quote!(#ca #cb)
            }
            Rhs::Method {
                method, recv, args, ..
            } => {
                let fty = self.ty(self.f.operand_ty(recv));
                let name = method.name;
                let mut out = TokenStream::new();
                let value = |r: &mut Self, w: Which| match w {
                    Which::Recv => r.val(recv),
                    Which::Arg(i) => r.val(&args[i]),
                    Which::Out => r.out(def, target, place),
                };
                let sibling = self.sibling(def, name, recv);
                out.extend(self.contrib(recv, |r| match sibling {
                    Some((t, negate)) => {
                        let other = r.value_of(t);
                        Some(rules::sibling_contribution(negate, s, &other))
                    }
                    None => rules::contribution(name, Which::Recv, s, &fty, &mut |w| value(r, w)),
                }));
                for (i, a) in args.iter().enumerate() {
                    out.extend(self.contrib(a, |r| {
                        rules::contribution(name, Which::Arg(i), s, &fty, &mut |w| value(r, w))
                    }));
                }
                out
            }
            // Taken for the call's adjoint, which comes next (see `Rev::tuple_call`).
            Rhs::Elem { call, path } => {
                self.elem_seeds.insert((*call, path.clone()), s.clone());
                TokenStream::new()
            }
            Rhs::Call {
                path, args, span, ..
            } => {
                let out = match target {
                    Target::Var(v) => self.place_ty(v, place),
                    t => self.f.target_ty(t),
                };
                // The output cotangent: a float by value, an array or struct by reference; one
                // or the other, as the callee's contract says, for a value only passed on whole.
                let s = if self.f.types.is_whole(out) {
                    if !self.needs_d_out {
                        self.needs_d_out = true;
                        self.decls.push(crate::print::d_out_helper());
                    }
                    quote!(__StackgradDOut::d_out(&#s))
                } else if self.f.types.kind(out) == Kind::Float {
                    s.clone()
                } else {
                    quote!(&#s)
                };
                self.call(def, path, args, *span, &s)
            }
            Rhs::Pure(_) => TokenStream::new(),
        }
    }

    /// The temporary that holds `recv.sibling()` where `def` is `recv.name()` and `name` has a
    /// sibling ([`rules::sibling`]): defined in the same block, of the same value (the same
    /// temporary, or a variable never assigned after its `let`), before `def` or after it with
    /// nothing between that may leave the block; and whether the derivative is its negation.
    /// Where the temporary is copied into a variable never assigned again (`let c = t7;`), the
    /// variable, which the reverse sweep reads anyway.
    fn sibling(&self, def: usize, name: &str, recv: &Operand) -> Option<(Target, bool)> {
        let (other, negate) = rules::sibling(name)?;
        let same = |o: &Operand| match (o, recv) {
            (Operand::Temp(a), Operand::Temp(b)) => a == b,
            (
                Operand::Var {
                    var: a, proj: pa, ..
                },
                Operand::Var {
                    var: b, proj: pb, ..
                },
            ) => a == b && pa.is_empty() && pb.is_empty() && !self.f.vars[*a].mutable,
            _ => false,
        };
        let (stmts, at) = crate::walk::block_of_def(&self.f.body, def)?;
        // Statement `i` ran whenever `def` did.
        let ran = |i: usize| i < at || !stmts[at + 1..i].iter().any(crate::walk::may_exit);
        stmts.iter().enumerate().find_map(|(i, st)| match st {
            Stmt::Def {
                target: Target::Var(v),
                place,
                rhs: Rhs::Method {
                    method, recv: o, ..
                },
                ..
            } if method.name == other
                && same(o)
                && ran(i)
                && place.is_empty()
                && self.exact(*v) =>
            {
                Some((Target::Var(*v), negate))
            }
            Stmt::Def {
                target: Target::Temp(t),
                rhs: Rhs::Method {
                    method, recv: o, ..
                },
                ..
            } if method.name == other && same(o) && ran(i) => {
                let named = stmts.iter().enumerate().find_map(|(j, st)| match st {
                    Stmt::Def {
                        target: Target::Var(v),
                        place,
                        rhs: Rhs::Copy(Operand::Temp(c)),
                        ..
                    } if c == t && place.is_empty() && self.exact(*v) && ran(j) => {
                        Some(Target::Var(*v))
                    }
                    _ => None,
                });
                Some((named.unwrap_or(Target::Temp(*t)), negate))
            }
            _ => None,
        })
    }

    /// A variable whose value the reverse sweep reads as it was computed: never assigned again,
    /// and not recorded narrowed (`#[record(f32)]` rounds what is read back).
    fn exact(&self, v: VarId) -> bool {
        !self.f.vars[v].mutable && self.f.vars[v].record.is_none()
    }

    /// `g_adjoint(args.., &tape.g, s, &mut d_arg..)` for a call to a differentiable function (`s`
    /// by value for a float output, `&s` otherwise): one
    /// adjoint per float, float-array or struct argument (a scratch one where the argument
    /// carries no derivative), so the callee must differentiate every such parameter.
    pub(super) fn call(
        &mut self,
        def: usize,
        path: &syn::Path,
        args: &[Operand],
        span: Span,
        s: &TokenStream,
    ) -> TokenStream {
        let mut pre = TokenStream::new();
        let mut post = TokenStream::new();
        let mut vals = Vec::new();
        let mut d_args = Vec::new();
        let direct = self.direct_adjoints(args);
        let mut helper = false;
        // Through the callee's slot forwarder (`g_adjoint_call`, `Func::through_slots`): one
        // slot per argument, `()` where no derivative flows, so the callee may leave parameters
        // out of its `wrt(..)`, also where its contract cannot name its tape.
        let uniform = self.f.through_slots(path, args);
        for (i, (a, direct)) in args.iter().zip(direct).enumerate() {
            vals.push(self.val(a));
            let ty = self.f.operand_ty(a);
            if uniform && (!self.f.types.differentiable(ty) || !self.act.operand(a)) {
                d_args.push(quote!(()));
                continue;
            }
            // (A known callee's parameter it does not differentiate gets no buffer: the
            // argument carries no derivative, `analysis::lost_derivatives` made sure.)
            if !self.f.types.differentiable(ty)
                || self.f.callee_differentiates(path, i) == Some(false)
            {
                continue;
            }
            let tyt = self.f.types.tokens_infer(ty);
            let zero = self.f.types.zero_acc(ty);
            let d = match a {
                // A place that overlaps a wider one passed to the same call (`h(a[0], a)`,
                // `dot(a, a)`, `h(p.b, p)`): its adjoint goes through a scratch buffer, added in
                // after the call. A struct field's type is not known here, so its buffer is
                // made like the accumulator and added by a local helper trait.
                Operand::Var { var, proj, .. } if self.act.vars[*var] && !direct => {
                    let d = self.names.fresh("d_again");
                    let dp = self.d_place(*var, proj);
                    if proj.iter().any(|p| matches!(p, Proj::Field(_))) {
                        helper = true;
                        pre.extend(quote!(let mut #d = __StackgradAccumulate::zeroed(&#dp);));
                        post.extend(quote!(__StackgradAccumulate::add(&mut #dp, &#d);));
                    } else {
                        pre.extend(quote!(let mut #d: #tyt = #zero;));
                        post.extend(self.add_into(dp, quote!(#d), ty));
                    }
                    quote!(&mut #d)
                }
                Operand::Var { var, proj, .. } if self.act.vars[*var] => {
                    let v = &self.f.vars[*var];
                    let d = self.d_vars[*var].clone().unwrap();
                    // The whole parameter, or `*a` for a reference parameter `a`.
                    if v.param.is_some() && proj.iter().all(|p| matches!(p, Proj::Deref)) {
                        self.touch(*var, proj);
                        quote!(&mut *#d)
                    } else {
                        let dp = self.d_place(*var, proj);
                        quote!(&mut #dp)
                    }
                }
                Operand::Temp(t) if self.act.temps[*t] => {
                    let base = format!("d_{}", self.temp_names[*t].as_ref().unwrap());
                    let d = self.names.fresh(&base);
                    pre.extend(quote!(let mut #d: #tyt = #zero;));
                    self.d_temps[*t] = Some(quote!(#d));
                    quote!(&mut #d)
                }
                // An argument without derivative gets a scratch buffer; for a `const` item, whose
                // type the macro cannot see, a copy of it (the callee adds into it; it is then
                // dropped), for a struct field one made like the field itself.
                Operand::Var {
                    var, proj, read, ..
                } if self.f.vars[*var].constant => {
                    let d = self.names.fresh("d_unused");
                    let value = self.var_val(*var, proj, *read);
                    pre.extend(quote!(let mut #d = #value;));
                    quote!(&mut #d)
                }
                // A `const` item passed whole (`g(x, W)`): a float or an array.
                Operand::Const { tokens, .. } if a.is_named_const() => {
                    let d = self.names.fresh("d_unused");
                    pre.extend(quote!(let mut #d = #tokens;));
                    quote!(&mut #d)
                }
                Operand::Var {
                    var, proj, read, ..
                } if proj.iter().any(|p| matches!(p, Proj::Field(_))) => {
                    let d = self.names.fresh("d_unused");
                    let value = self.var_val(*var, proj, *read);
                    helper = true;
                    pre.extend(quote!(let mut #d = (&&#value).__stackgrad_zero();));
                    quote!(&mut #d)
                }
                _ => {
                    let d = self.names.fresh("d_unused");
                    pre.extend(quote!(let mut #d: #tyt = #zero;));
                    quote!(&mut #d)
                }
            };
            d_args.push(d);
        }
        if helper && !self.needs_accumulate {
            self.needs_accumulate = true;
            self.decls.push(quote!(#ACCUMULATE_HELPER));
        }
        let callee = path.segments.last().unwrap().ident.to_string();
        let tape = self.call_tape(def, path, args, &callee);
        let suffix = if uniform { "adjoint_call" } else { "adjoint" };
        let adjoint = companion(path, |i| format_ident!("{}_{}", i, suffix, span = span));
        quote!(#pre #adjoint(#(#vals,)* &#tape, #s, #(#d_args),*); #post)
    }

    /// `p.k as f64` with `p.k` of a type the macro cannot see: the cotangent goes into a float
    /// field through `__StackgradCast`, and nowhere for an integer field.
    fn cast_into_field(&mut self, o: &Operand, s: &TokenStream) -> TokenStream {
        let Operand::Var { var, proj, .. } = o else {
            return TokenStream::new();
        };
        if !self.act.operand(o) {
            return TokenStream::new();
        }
        let method = if self.first_touch(*var, proj) {
            quote!(set_cast)
        } else {
            quote!(add_cast)
        };
        let d = self.d_place(*var, proj);
        if !self.needs_cast {
            self.needs_cast = true;
            self.decls.push(crate::print::cast_helper());
        }
        quote!(__StackgradCast::#method(&mut #d, (#s) as f64);)
    }

    /// Which arguments of a call get the caller's cotangent buffer itself: of the active places
    /// that overlap in one variable (`h(p.w[0], &p.w)`), the widest (fewest projections); the
    /// others go through scratch buffers, since one buffer cannot be borrowed twice.
    pub(super) fn direct_adjoints(&self, args: &[Operand]) -> Vec<bool> {
        let depth = |a: &Operand| match a {
            // A sub-slice is as wide as its slice here: taken before an element of it.
            Operand::Var { proj, .. } => (proj.iter())
                .filter(|p| !matches!(p, Proj::Deref | Proj::Range { .. }))
                .count(),
            _ => 0,
        };
        let mut order: Vec<usize> = (0..args.len()).collect();
        order.sort_by_key(|&i| depth(&args[i]));
        let mut taken: Vec<(VarId, &[Proj])> = Vec::new();
        let mut direct = vec![true; args.len()];
        for i in order {
            if let Operand::Var { var, proj, ty, .. } = &args[i]
                && self.act.vars[*var]
                && self.f.types.differentiable(*ty)
            {
                if taken.iter().any(|(v, p)| v == var && !disjoint(p, proj)) {
                    direct[i] = false;
                } else {
                    taken.push((*var, proj));
                }
            }
        }
        direct
    }

    /// The callee's tape in the caller's: a `GTape` (`GTape::<N>` for `g::<N>(..)`), or, for a
    /// call without constants named that passes an array, a slice or a struct, the callee
    /// contract's `Tape` for the arguments' types, whose constants rustc infers.
    pub fn call_tape(
        &mut self,
        def: usize,
        path: &syn::Path,
        args: &[Operand],
        callee: &str,
    ) -> TokenStream {
        let key = Key::Call(def);
        if self.tape.get(key).is_none() {
            let inferred = self.f.through_contract(path, args);
            let ty = if inferred {
                let contract = crate::names::contract_path(path);
                let args = args
                    .iter()
                    .map(|a| self.f.types.contract_arg(self.f.operand_ty(a)));
                quote!(<() as #contract<#(#args),*>>::Tape)
            } else {
                companion(path, crate::names::tape_name)
            };
            let init = if inferred {
                quote!(<#ty>::new())
            } else {
                quote!(#ty::new())
            };
            let spec = Spec {
                base: callee.trim_start_matches("r#"),
                ty: ty.clone(),
                init,
                init_is_call: true,
                doc: format!("the tape of the call to `{callee}`"),
                nest: &self.f.def_nest[def],
            };
            self.tape.field(key, spec, &self.f.loops);
        }
        self.tape
            .access(key, &self.tape_ident, &self.f.loops)
            .unwrap()
    }
}

/// Zeroed copies and element-wise sums of cotangent buffers whose type the macro cannot see (a
/// struct field passed twice to one call), for floats and arrays of them; zeros of a nested
/// struct too (`g(&o.i)` without derivative).
pub(super) const ACCUMULATE_HELPER: Helper = Helper;

pub(super) struct Helper;

/// Are two places in the same variable certainly disjoint, as the borrow checker sees them? Only
/// where they part at two different fields (`p.w` and `p.b`, `p.l[i].w` and `p.l[i].b`).
fn disjoint(a: &[Proj], b: &[Proj]) -> bool {
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (Proj::Field(f), Proj::Field(g)) if f != g => return true,
            (Proj::Field(_), Proj::Field(_))
            | (Proj::Index(_), Proj::Index(_))
            | (Proj::Deref, Proj::Deref) => {}
            _ => return false,
        }
    }
    false
}

impl ToTokens for Helper {
    fn to_tokens(&self, out: &mut TokenStream) {
        out.extend(crate::print::zero_fallback(&quote!(__StackgradAccumulate)));
        out.extend(quote! {
            trait __StackgradAccumulate: ::core::marker::Copy {
                fn zeroed(&self) -> Self;
                fn add(&mut self, other: &Self);
            }
            impl __StackgradAccumulate for f32 {
                fn zeroed(&self) -> Self { 0.0 }
                fn add(&mut self, other: &Self) { *self += *other; }
            }
            impl __StackgradAccumulate for f64 {
                fn zeroed(&self) -> Self { 0.0 }
                fn add(&mut self, other: &Self) { *self += *other; }
            }
            impl<T: __StackgradAccumulate, const N: usize> __StackgradAccumulate for [T; N] {
                fn zeroed(&self) -> Self {
                    let mut z = *self;
                    for x in z.iter_mut() { *x = x.zeroed(); }
                    z
                }
                fn add(&mut self, other: &Self) {
                    for (x, y) in self.iter_mut().zip(other.iter()) { x.add(y); }
                }
            }
        });
    }
}
