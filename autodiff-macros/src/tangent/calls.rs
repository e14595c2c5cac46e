//! The tangent of a call, `let (y, t_y) = g_jvp(args.., tangents..)`: each argument's
//! tangent as the callee takes it, and the zero tangents of arguments that carry none (in the
//! tangent program `f_hvp` differentiates, zero structs and arrays the language can say).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};

use super::Tan;
use crate::ir::*;
use crate::names::companion;

impl Tan<'_> {
    /// In `pair` mode, a zero tangent for a call argument that carries none, within the
    /// language: a zero struct parameter's place, or a zero array local declared in `pre`.
    /// A whole struct field or a `const` item: a float or an array, the macro cannot tell
    /// (it types such a value a float unless the function indexes it).
    fn unseen(&self, a: &Operand) -> bool {
        let whole = match a {
            Operand::Var { var, proj, .. } => match proj.last() {
                Some(Proj::Field(_)) => true,
                None => self.f.vars[*var].constant,
                _ => false,
            },
            Operand::Const { .. } => a.is_named_const(),
            Operand::Temp(_) => false,
        };
        whole && self.f.types.kind(self.f.operand_ty(a)) == Kind::Float
    }

    /// In `pair` mode, the zero tangent of a field of a struct parameter not differentiated:
    /// the same field of its zero struct.
    fn zero_field(&self, a: &Operand) -> Option<TokenStream> {
        let Operand::Var { var, proj, .. } = a else {
            return None;
        };
        let z = self.zero_structs[*var].as_ref()?;
        Some(self.projected(z.to_token_stream(), proj))
    }

    /// In `pair` mode, the tangent of argument `i` as the callee's tangent program takes it:
    /// one per argument (`Tan::pair_params`). A struct the callee does not differentiate has
    /// its zero in that place (a known callee tells; the argument then carries no derivative,
    /// which the analysis checks: a struct parameter not differentiated here either, whose own
    /// zero goes on); an argument of a type without derivatives (an integer, an enum) a float
    /// zero the callee ignores.
    fn pair_arg(
        &mut self,
        path: &syn::Path,
        (i, a): (usize, &Operand),
        ty: TyId,
        span: Span,
        pre: &mut TokenStream,
    ) -> TokenStream {
        let known = self.f.known_callee(path);
        let slot = known.and_then(|c| c.slots.get(i).copied());
        if slot == Some(PairSlot::Ignored) {
            return quote!(0.0);
        }
        // An enum: the argument itself, which the callee ignores (`PairSlot::Own`; a callee
        // that only passes the parameter on takes a value of its type there too).
        if slot == Some(PairSlot::Own) || self.f.types.kind(ty) == Kind::Enum {
            return self.fwd.operand(a);
        }
        // A known callee ignores this tangent: the argument itself serves (no zero made).
        let ignored = known.and_then(|c| c.params.get(i)).is_some_and(|(_, d)| !d);
        if slot == Some(PairSlot::Tangent) && ignored {
            return self.fwd.operand(a);
        }
        if slot == Some(PairSlot::ZeroStruct) {
            let zero = match a {
                Operand::Var { var, proj, .. } if proj.is_empty() => {
                    self.zero_structs[*var].clone()
                }
                _ => None,
            };
            if let Some(z) = zero {
                return quote!(#z);
            }
            let e = syn::Error::new(
                span,
                "`hvp`: this method does not differentiate a struct parameter, and the macro can pass it a zero tangent only for a struct parameter of the caller that is not differentiated either; pass such a parameter, or differentiate it in both methods",
            );
            match &mut self.unsupported {
                Some(all) => all.combine(e),
                None => self.unsupported = Some(e),
            }
            return quote!(0.0);
        }
        if !self.f.types.differentiable(ty) {
            return quote!(0.0);
        }
        self.arg_tangent(a, ty, span, pre)
    }

    /// In `pair` mode, the zero tangent of an argument that carries none, within the language:
    /// the same field of a zero struct, or a zero array local declared in `pre`.
    fn pair_zero(
        &mut self,
        a: &Operand,
        ty: TyId,
        span: Span,
        pre: &mut TokenStream,
    ) -> TokenStream {
        let kind = self.f.types.kind(ty);
        if let Some(out) = self.zero_field(a) {
            return quote!(&#out);
        }
        // A slice without derivative: the slice itself, which a tangent program that leaves
        // the parameter out ignores (`PairSlot::Own`). A callee that differentiates it would
        // read it as a tangent: the primal's reverse sweep passes it no derivative buffer
        // there, one error (a zero slice of its length would need an allocation).
        if matches!(self.f.types.get(ty), TyVal::Slice(_)) {
            return self.fwd.operand(a);
        }
        if kind == Kind::Array && self.f.types.known(ty) {
            let z = self.names.fresh("zero");
            let (t, v) = (self.f.types.tokens(ty), self.zero(ty));
            pre.extend(quote!(let #z: #t = #v;));
            return quote!(&#z);
        }
        self.unsupported = Some(syn::Error::new(
            span,
            "`hvp`: the macro cannot give this argument a zero tangent (its type is not visible here: a `const` item or a struct field); pass a local copy with a type, as in `let a: [f64; 3] = A;`",
        ));
        quote!(0.0)
    }

    /// `let (y, t_y) = g_jvp(args.., tangents..)`: one tangent per float, float-array or struct
    /// argument (a zero one where the argument carries none).
    pub(super) fn call(
        &mut self,
        target: Target,
        (place, is_let): (&[Proj], bool),
        path: &syn::Path,
        args: &[Operand],
        span: Span,
        tuple: Option<&TupleShape>,
    ) -> TokenStream {
        let fwd = self.fwd;
        let vals: Vec<_> = args.iter().map(|a| fwd.operand(a)).collect();
        let t_name = self
            .act
            .target(target)
            .then(|| self.t_target(target, place))
            .flatten();
        let Some(t_name) = t_name else {
            let value = quote!(#path(#(#vals),*));
            return Self::bind(fwd, target, place, is_let, value);
        };
        if self.pair
            && let Some(shape) = tuple
        {
            self.no_hvp_of_its_own(path, span, shape);
        }
        if self.lanes {
            return self.lanes_call((target, place, is_let), (path, args, span), t_name);
        }
        let mut pre = TokenStream::new();
        let (jvp, t_args) = self.callee_tangents(path, args, span, &mut pre);
        let call = quote!(#jvp(#(#vals,)* #(#t_args),*));
        let ty = self.def_ty(target, place);
        let tty = self.ty(ty);
        if self.pair {
            // `[value, tangent]`, an array the language indexes.
            let pair = self.names.fresh("pair");
            let (y, t_y) = (quote!(#pair[0]), quote!(#pair[1]));
            // Where the value's type is the callee's to tell (a call's result the function
            // does not type), the pair is bound without one: lowered again, it is typed
            // through the callee's contract once indexed.
            let ann = self.f.types.known(ty).then(|| {
                let ety = self.f.types.tokens(ty);
                quote!(: [#ety; 2])
            });
            let call = quote!(let #pair #ann = #call;);
            if is_let && place.is_empty() {
                let name = fwd.target(target);
                let m =
                    matches!(target, Target::Var(v) if self.f.vars[v].mutable).then(|| quote!(mut));
                let ann = self.f.types.annotation(ty);
                return quote!(#pre #call let #m #name #ann = #y; let #m #t_name #ann = #t_y;);
            }
            let p = match target {
                Target::Var(v) => fwd.place(v, place),
                t => fwd.target(t).to_token_stream(),
            };
            return quote!(#pre #call #p = #y; #t_name = #t_y;);
        }
        if is_let && place.is_empty() {
            let name = fwd.target(target);
            // A tuple's type is the callee's: its elements are typed where they are bound.
            if tuple.is_some() {
                return quote!(#pre let (#name, #t_name) = #call;);
            }
            let m = matches!(target, Target::Var(v) if self.f.vars[v].mutable).then(|| quote!(mut));
            return quote!(let (#m #name, #m #t_name): (#tty, #tty) = #call;);
        }
        let p = match target {
            Target::Var(v) => fwd.place(v, place),
            t => fwd.target(t).to_token_stream(),
        };
        quote!((#p, #t_name) = #call;)
    }

    /// Under `hvp`, the error for a call whose result is a tuple or a struct, which its callee
    /// has no tangent program of (`g_hvp_jvp` returns `[value, tangent]`).
    fn no_hvp_of_its_own(&mut self, path: &syn::Path, span: Span, shape: &TupleShape) {
        let callee = crate::names::user_text(&path.to_token_stream());
        let what = match shape {
            TupleShape::Struct(_) => "a struct",
            _ => "a tuple",
        };
        let e = syn::Error::new(
            span,
            format!(
                "`hvp` differentiates the tangent of this call, and `{callee}` returns {what}, which has no `hvp` of its own: return an array from `{callee}` (and declare it `hvp`), or leave `hvp` off this function"
            ),
        );
        match &mut self.unsupported {
            Some(all) => all.combine(e),
            None => self.unsupported = Some(e),
        }
    }

    /// Element `k` of a call's tuple and its tangent, the same element of the call's.
    pub(super) fn elem(
        &mut self,
        target: Target,
        (place, is_let): (&[Proj], bool),
        call: Target,
        path: &[syn::Member],
    ) -> TokenStream {
        let fwd = self.fwd;
        let k = crate::walk::path_tokens(path);
        let whole = fwd.target(call);
        let prim = Self::bind(fwd, target, place, is_let, quote!(#whole #k));
        let tangents = (self.act.target(target) && self.act.target(call))
            .then(|| Some((self.t_target(target, place)?, self.t_target(call, &[])?)))
            .flatten();
        match tangents {
            Some((t, t_whole)) if is_let && place.is_empty() => {
                let m =
                    matches!(target, Target::Var(v) if self.f.vars[v].mutable).then(|| quote!(mut));
                quote!(#prim let #m #t = #t_whole #k;)
            }
            Some((t, t_whole)) => quote!(#prim #t = #t_whole #k;),
            None => prim,
        }
    }

    /// The companion a call calls and the tangents it passes: through the callee's slot
    /// forwarder (`g_jvp_call`), one slot per argument, `&t` or `()` where the argument carries
    /// none, as in the reverse sweep (`Rev::call`); in a tangent program one tangent per
    /// argument, in the callee's order (`g_hvp_jvp`, [`Tan::pair_params`]); else (`g::<N>(..)`)
    /// one per argument the callee differentiates (`g_jvp`, [`Tan::arg_tangent`]). In vector
    /// mode each is read at lane `__l`.
    pub(super) fn callee_tangents(
        &mut self,
        path: &syn::Path,
        args: &[Operand],
        span: Span,
        pre: &mut TokenStream,
    ) -> (TokenStream, Vec<TokenStream>) {
        let mut t_args = Vec::new();
        let uniform = !self.pair && self.f.through_slots(path, args);
        for (i, a) in args.iter().enumerate() {
            let ty = self.f.operand_ty(a);
            if uniform {
                let t = self.f.types.differentiable(ty).then(|| self.t_operand(a));
                t_args.push(match t.flatten() {
                    Some(_) if self.lanes => {
                        let lane = self.lane_of(a);
                        quote!(&#lane)
                    }
                    Some(t) => quote!(&(#t)),
                    None => quote!(()),
                });
                continue;
            }
            if self.pair {
                let t = self.pair_arg(path, (i, a), ty, span, pre);
                t_args.push(t);
                continue;
            }
            if !self.f.types.differentiable(ty)
                || self.f.callee_differentiates(path, i) == Some(false)
            {
                continue;
            }
            let t = self.arg_tangent(a, ty, span, pre);
            t_args.push(t);
        }
        let suffix = if self.pair {
            "hvp_jvp"
        } else if uniform {
            "jvp_call"
        } else {
            "jvp"
        };
        let jvp = companion(path, |i| format_ident!("{}_{}", i, suffix, span = span));
        (jvp, t_args)
    }

    /// Lane `__l` of an argument's tangent (which has one), as a place: `__LaneOf::lane(&(t),
    /// __l)`. Of a sub-slice of an array (`&x[a..b]`), the sub-slice of its array's lane: a
    /// slice's lane would need a buffer of its run-time length.
    fn lane_of(&self, a: &Operand) -> TokenStream {
        if let Operand::Var { var, proj, .. } = a
            && let Some(k) = self.f.array_under_ranges(*var, proj)
            && let Some(t) = self.t_place(*var, &proj[..k])
        {
            let rest = self.projected(quote!(), &proj[k..]);
            return quote!(__LaneOf::lane(&(#t), __l)#rest);
        }
        let t = self.t_operand(a).expect("an argument with a tangent");
        quote!(__LaneOf::lane(&(#t), __l))
    }

    /// The tangent of one argument, as the callee takes it; in vector mode (a call that names
    /// its constants, [`Tan::lanes_call`]) its lane `__l` (`__LaneOf::lane`).
    fn arg_tangent(
        &mut self,
        a: &Operand,
        ty: TyId,
        span: Span,
        pre: &mut TokenStream,
    ) -> TokenStream {
        let fwd = self.fwd;
        // Floats by value, arrays and structs by reference (an argument written `&a` is
        // one, whatever the macro knows of its type).
        let borrowed = matches!(a, Operand::Var { borrow: true, .. });
        let float = !borrowed && self.f.types.kind(ty) == Kind::Float;
        // In `pair` mode a tangent is taken as its primal is: an array passed by value
        // (`g(b)`) has its tangent passed by value too.
        // (A reference parameter passed on as it is, `g(b)` with `b: &[f64; N]`, is a
        // reference.)
        let reference = matches!(a, Operand::Var { var, proj, .. }
            if proj.is_empty() && self.f.vars[*var].by_ref);
        let by_value = self.pair && !borrowed && !reference && self.f.types.kind(ty) == Kind::Array;
        // A struct field or a `const` item passed by value, whose type the macro does not
        // see: a float's tangent goes by value, an array's by reference, as `g_jvp` takes
        // them; a helper trait tells which.
        let unseen = !self.pair && !borrowed && self.unseen(a);
        let t = (self.t_operand(a)).map(|t| match self.lanes {
            true => self.lane_of(a),
            false => t,
        });
        match t {
            Some(t) if unseen => {
                self.needs_zero_helper = true;
                quote!(__StackgradZero::as_arg(&#t))
            }
            // Taken as the primal is: the zero struct's field, by value.
            None if self.pair && !borrowed && self.unseen(a) && self.zero_field(a).is_some() => {
                self.zero_field(a).unwrap()
            }
            None if unseen => {
                self.needs_zero_helper = true;
                let v = fwd.operand(a);
                quote!(__StackgradZero::as_arg(&__StackgradZero::zeroed(&#v)))
            }
            Some(t) if float || by_value => t,
            Some(t) => quote!(&#t),
            None if float => quote!(0.0),
            None if self.pair => {
                let z = self.pair_zero(a, ty, span, pre);
                if by_value { quote!(*#z) } else { z }
            }
            None if self.f.types.known(ty) && self.f.types.kind(ty) != Kind::Float => {
                // One direction's zero (in vector mode too: the call takes a lane).
                let z = self.f.types.zero(ty);
                quote!(&#z)
            }
            None => {
                // A `const` item or a struct field: a zero shaped like the value.
                self.needs_zero_helper = true;
                let v = fwd.operand(a);
                let v = if borrowed { v } else { quote!(&#v) };
                quote!(&(&#v).__stackgrad_zero())
            }
        }
    }
}
