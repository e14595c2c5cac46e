//! The tangent sweep (forward mode): the primal in A-normal form with each active value's
//! tangent computed beside it, `t_y = ∂y/∂x · t_x` per definition, from the same local rules as
//! the reverse sweep (a rule's contribution is linear in the seed it is given, so the tangent of
//! `r = op(x, a)` is the sum of its contributions with each operand's tangent as the seed). No
//! tape: one sweep, in the order the primal runs, except that a loop nest whose tangents read
//! nothing the nest writes runs as the primal's nest and then the tangents' ([`split`]).

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

use crate::analysis::Activity;
use crate::forward::Fwd;
use crate::ir::*;
use crate::names::{Names, bare};
use crate::print::typed_literal;
use crate::rules::{self, Which};

mod branch;
mod calls;
mod flat;
mod helper;
mod hoist;
mod lanes;
mod split;

pub use helper::ZERO_HELPER;
use hoist::{Class, Hoist, Term};
pub use lanes::{vector_mode, width as lanes_width};
use split::Part;

pub struct Tan<'a> {
    pub f: &'a Func,
    act: &'a Activity,
    /// The primal's printer (a forward sweep without a tape).
    fwd: &'a Fwd<'a>,
    /// The tangent of each active variable and temporary.
    t_vars: Vec<Option<Ident>>,
    t_temps: Vec<Option<Ident>>,
    /// `__StackgradZero` is needed (a zero tangent shaped like a value whose type the macro
    /// cannot see).
    pub needs_zero_helper: bool,
    /// `__StackgradCast` is needed (a struct field of a type the macro cannot see, cast).
    pub needs_cast_helper: bool,
    /// The tangent program `f_hvp` differentiates (`f_hvp_jvp`), printed within the language
    /// the macro reads: `[value, tangent]` results, calls to `g_hvp_jvp`, tangents of arrays
    /// taken by value by value, checkpoint attributes kept.
    pub pair: bool,
    /// In `pair` mode, what the language cannot say (a zero tangent of unknown shape).
    pub unsupported: Option<syn::Error>,
    /// In `pair` mode, a zero tangent parameter for each struct parameter not differentiated:
    /// a callee that differentiates the struct reads it (the language has no struct locals).
    zero_structs: Vec<Option<Ident>>,
    /// In `pair` mode, the tangent parameter of each other parameter not differentiated,
    /// which the tangent program takes and ignores: every `_hvp_jvp` takes one tangent per
    /// parameter, so that a caller passes one per argument without knowing which its callee
    /// differentiates (a float array's or float's as the primal is taken, a float for any
    /// other).
    ignored: Vec<Option<Ident>>,
    names: Names,
    /// What each definition prints: both halves, or one (a loop split in two, [`split`]).
    part: Part,
    /// In the tangent half of a split loop, the values it computes again for itself: what the
    /// nest binds with `let` and does not differentiate.
    again: Vec<Target>,
    /// While a loop with invariant tangents is printed ([`hoist`]): what is hoisted, and which
    /// part is being printed.
    hoist: Option<Hoist>,
    /// Vector mode (`f_jvp_vec`, [`lanes`]): every float tangent holds `W` directions.
    lanes: bool,
    /// In vector mode, while a float tangent is printed lane by lane: a tangent read is its
    /// lane `__l`.
    lane: std::cell::Cell<bool>,
    /// In vector mode, the array parameters whose tangents are read in place through their
    /// references (never copied whole: a large array's tangent would be copied on every
    /// call).
    raw: Vec<bool>,
    /// In vector mode, a call takes its arguments' tangents lane by lane (`__LaneOf`).
    needs_lane_of: bool,
    /// In vector mode, while an innermost loop is printed as one loop over rows of lanes
    /// ([`flat`]): the rows and what else its tangents may reach.
    flat: std::cell::RefCell<Option<flat::Flat>>,
}

impl<'a> Tan<'a> {
    pub fn new(f: &'a Func, act: &'a Activity, fwd: &'a Fwd<'a>) -> Self {
        let mut names = f.fresh_names(&[]);
        let mut t_vars = vec![None; f.vars.len()];
        // The parameters' tangents first: they are the function's own parameter names.
        for &i in &f.wrt {
            let v = f.params[i];
            t_vars[v] = Some(names.fresh(&format!("t_{}", bare(&f.vars[v].name))));
        }
        for (v, var) in f.vars.iter().enumerate() {
            if act.vars[v] && t_vars[v].is_none() {
                t_vars[v] = Some(names.fresh(&format!("t_{}", bare(&var.emit))));
            }
        }
        let t_temps = (0..f.temps.len())
            .map(|t| {
                act.temps[t]
                    .then(|| names.fresh(&format!("t_{}", fwd.temp_names[t].as_ref().unwrap())))
            })
            .collect();
        Tan {
            f,
            act,
            fwd,
            t_vars,
            t_temps,
            needs_zero_helper: false,
            needs_cast_helper: false,
            pair: false,
            unsupported: None,
            zero_structs: vec![None; f.vars.len()],
            ignored: vec![None; f.vars.len()],
            names,
            part: Part::Both,
            again: Vec::new(),
            hoist: None,
            lanes: false,
            lane: std::cell::Cell::new(false),
            raw: vec![false; f.vars.len()],
            needs_lane_of: false,
            flat: std::cell::RefCell::new(None),
        }
    }

    /// The tangent program `f_hvp` differentiates (see [`Tan::pair`]).
    pub fn for_hvp(mut self) -> Self {
        self.pair = true;
        for (i, &v) in self.f.params.iter().enumerate() {
            let name = bare(&self.f.vars[v].name);
            if self.f.takes_zero_struct(i) {
                let z = self.names.fresh(&format!("z_{name}"));
                self.zero_structs[v] = Some(z);
            } else if !self.f.wrt.contains(&i) {
                self.ignored[v] = Some(self.names.fresh(&format!("t_{name}")));
            }
        }
        self
    }

    /// In `pair` mode, the tangent program's parameters after the primal's: one per
    /// parameter, in parameter order, each `(name, type, differentiated)`. A differentiated
    /// parameter's tangent is taken as the primal is; a struct not differentiated has its zero
    /// (`z_p: &P`, which callees that differentiate it read); any other a tangent the program
    /// ignores, of the primal's type for floats and float arrays, the function's float otherwise
    /// (a slice's too).
    /// The tangents of differentiated parameters are differentiated, and so are the floats
    /// ignored for parameters without derivatives (their adjoints stay zero), so that a caller
    /// that passes an adjoint for every float argument (a call named with `::<..>`) finds one
    /// for each; the ignored tangent of a float or float array left out of `wrt(..)` is not (a
    /// caller reaches such a callee through its contract, with `()` for it: no scratch copy of
    /// a large array).
    pub fn pair_params(&self) -> Vec<(Ident, TokenStream, bool)> {
        let mut out = Vec::new();
        for (i, &v) in self.f.params.iter().enumerate() {
            let var = &self.f.vars[v];
            let ty = self.f.types.tokens(var.ty);
            let taken = if var.by_ref { quote!(&#ty) } else { ty.clone() };
            if self.f.wrt.contains(&i) {
                out.push((self.t_vars[v].clone().unwrap(), taken, true));
            } else if let Some(z) = &self.zero_structs[v] {
                out.push((z.clone(), quote!(&#ty), false));
            } else if let Some(t) = &self.ignored[v] {
                match self.f.pair_slot(i) {
                    // The function's float (`f_hvp` returns one, or an array of them).
                    PairSlot::Ignored => {
                        let ty = match self.f.ret.first() {
                            Some(&r) => self.f.types.tokens(self.f.types.leaf(r)),
                            None => quote!(f64),
                        };
                        out.push((t.clone(), ty, true));
                    }
                    PairSlot::Own => out.push((t.clone(), taken.clone(), false)),
                    _ => out.push((t.clone(), taken, false)),
                }
            }
        }
        out
    }

    /// The tangents of enums ([`PairSlot::Own`], slices aside), which the tangent program
    /// takes and ignores.
    pub fn own_params(&self) -> Vec<Ident> {
        (self.f.params.iter().enumerate())
            .filter(|&(i, &v)| self.f.pair_slot(i) == PairSlot::Own && !self.f.slices.contains(&v))
            .filter_map(|(_, &v)| self.ignored[v].clone())
            .collect()
    }

    /// The tangent parameters, in parameter order: `(name, type)`, arrays and structs by
    /// reference, floats by value (in `pair` mode: as the primal parameter is taken).
    pub fn params(&self) -> Vec<(Ident, TokenStream)> {
        (self.f.wrt.iter())
            .map(|&i| {
                let v = self.f.params[i];
                let ty = self.f.types.tokens(self.f.vars[v].ty);
                let by_ref = if self.pair {
                    self.f.vars[v].by_ref
                } else {
                    self.f.types.kind(self.f.vars[v].ty) != Kind::Float
                };
                let ty = if by_ref { quote!(&#ty) } else { ty };
                (self.t_vars[v].clone().unwrap(), ty)
            })
            .collect()
    }

    /// The body of `f_jvp`: `(value, tangent)`.
    pub fn body(&mut self) -> TokenStream {
        // An array taken by value has its tangent by reference: a copy makes it a value too.
        let mut pre = TokenStream::new();
        for &i in &self.f.wrt {
            let v = self.f.params[i];
            let var = &self.f.vars[v];
            if !self.pair && !var.by_ref && self.f.types.kind(var.ty) != Kind::Float {
                let t = self.t_vars[v].clone().unwrap();
                pre.extend(quote!(let #t = *#t;));
            }
        }
        let (stmts, value, tangent) = self.block(&self.f.body, &self.f.ret);
        let (value, tangent) = match (self.f.ret_tuple, &value[..]) {
            (false, [v]) => (v.clone(), tangent[0].clone()),
            _ => (quote!((#(#value),*)), quote!((#(#tangent),*))),
        };
        if self.pair {
            return quote!(#pre #stmts [#value, #tangent]);
        }
        quote!(#pre #stmts (#value, #tangent))
    }

    fn ty(&self, t: TyId) -> TokenStream {
        self.f.types.tokens_infer(t)
    }

    /// The tangent of a place in an active variable: `t_x[i].w`, or `None` for an inactive one.
    fn t_place(&self, var: VarId, proj: &[Proj]) -> Option<TokenStream> {
        let t = self.t_vars[var].as_ref().filter(|_| self.act.vars[var])?;
        // (A hoisted loop's slots are printed by its fixed part, never in a flat loop.)
        if self.flat_on() {
            return Some(self.flat_place(var, t.to_token_stream(), self.raw[var], proj));
        }
        if self.raw[var] {
            let place = self.projected(t.to_token_stream(), proj);
            return Some(self.raw_lanes(place, proj.is_empty()));
        }
        if let Some(slot) = self.hoist.as_ref().and_then(|h| h.slot(var)) {
            return Some(self.in_lane(self.projected(slot.clone(), proj)));
        }
        Some(self.in_lane(self.projected(t.to_token_stream(), proj)))
    }

    /// A place in the variable `base`: `base[i].w`.
    fn projected(&self, base: TokenStream, proj: &[Proj]) -> TokenStream {
        let mut out = base;
        for p in proj {
            out = match p {
                Proj::Index(_) | Proj::Range { .. } => {
                    let b = p.bracket(&mut |i| self.fwd.pure(i));
                    quote!(#out #b)
                }
                Proj::Field(f) => quote!(#out.#f),
                Proj::Deref => quote!((*#out)),
            };
        }
        out
    }

    /// An operand's tangent, `None` where it is zero.
    fn t_operand(&self, o: &Operand) -> Option<TokenStream> {
        match o {
            Operand::Var { var, proj, .. } => self.t_place(*var, proj),
            Operand::Temp(t) => self.t_temps[*t]
                .as_ref()
                .filter(|_| self.act.temps[*t])
                .filter(|_| !self.hoist.as_ref().is_some_and(|h| h.is_absent(*t)))
                .map(|n| match self.flat_on() {
                    true => self.flat_temp(*t, n.to_token_stream()),
                    false => self.in_lane(n.to_token_stream()),
                }),
            Operand::Const { .. } => None,
        }
    }

    fn t_target(&self, t: Target, place: &[Proj]) -> Option<TokenStream> {
        match t {
            Target::Var(v) => self.t_place(v, place),
            Target::Temp(t) => self.t_operand(&Operand::Temp(t)),
        }
    }

    /// An operand's primal value where a rule reads it (a literal typed, so that
    /// `2.0_f64.cos()` compiles).
    fn value(&self, o: &Operand) -> TokenStream {
        match o {
            Operand::Const { tokens, ty } => typed_literal(&self.f.types, tokens, *ty),
            o => self.fwd.operand(o),
        }
    }

    /// The zero of a tangent's type (in vector mode, of all its lanes, outside a lane).
    fn zero(&self, ty: TyId) -> TokenStream {
        if self.lanes && !self.lane.get() {
            return self.f.types.filled(ty, lanes::zero());
        }
        self.f.types.zero(ty)
    }

    /// The type of the place a definition writes.
    fn def_ty(&self, target: Target, place: &[Proj]) -> TyId {
        match target {
            Target::Var(v) => self.f.place_ty(v, place),
            t => self.f.target_ty(t),
        }
    }

    /// The tangent of `o as T`: through `__StackgradCast` for a struct field of a type the
    /// macro cannot see (an integer field has no tangent, whatever the tangent struct holds).
    /// The tangent program of `hvp` casts it as written, and its reverse sweep takes the field
    /// for a float of the cast's type (see `lower`): an integer field fails to compile there.
    fn t_cast(&self, o: &Operand, ty: TyId) -> Option<TokenStream> {
        let ty = self.f.types.tokens(ty);
        let t = self.t_operand(o)?;
        Some(if self.f.unseen_field(o) && !self.pair {
            quote!((__StackgradCast::cast_tangent(&#t) as #ty))
        } else {
            quote!(#t as #ty)
        })
    }

    /// The tangent of a right-hand side, given the tokens of its result (`out`); `None` where
    /// it is zero. Of a definition a hoisted loop splits ([`hoist`]), the terms of one part.
    fn t_rhs(
        &self,
        target: Target,
        rhs: &Rhs,
        ty: TyId,
        out: &TokenStream,
        reads_out: &mut bool,
    ) -> Option<TokenStream> {
        let keep = |c: Class| self.hoist.as_ref().is_none_or(|h| h.keeps(target, c));
        let terms: Vec<Term> = (self.t_terms(rhs, ty, out).into_iter())
            .filter(|t| keep(t.class))
            .collect();
        *reads_out |= terms.iter().any(|t| t.reads_out);
        match terms.len() {
            0 => None,
            1 => Some(terms.into_iter().next().unwrap().tokens),
            _ => {
                let terms = terms.iter().map(|Term { tokens: t, .. }| {
                    match syn::parse2::<syn::Expr>(t.clone()) {
                        Ok(syn::Expr::Binary(b))
                            if matches!(b.op, syn::BinOp::Mul(_) | syn::BinOp::Div(_)) =>
                        {
                            t.clone()
                        }
                        Ok(syn::Expr::Path(_) | syn::Expr::Index(_) | syn::Expr::Field(_)) => {
                            t.clone()
                        }
                        _ => quote!((#t)),
                    }
                });
                Some(quote!(#(#terms)+*))
            }
        }
    }

    /// The terms of a right-hand side's tangent, each with its class (see [`Class`]).
    fn t_terms(&self, rhs: &Rhs, ty: TyId, out: &TokenStream) -> Vec<Term> {
        let class = |o: &Operand| self.tangent_class(o);
        let one = |t: Option<TokenStream>, o: &Operand| {
            t.map(|t| Term::linear(t, class(o))).into_iter().collect()
        };
        match rhs {
            Rhs::Copy(o) => one(self.t_operand(o), o),
            Rhs::Neg(o) => one(self.t_operand(o).map(|t| quote!(-#t)), o),
            Rhs::Cast(o) => one(self.t_cast(o, ty), o),
            Rhs::Array(elems) => {
                if elems.iter().all(|e| self.t_operand(e).is_none()) {
                    return Vec::new();
                }
                let zero = self.f.types.elem(ty).map(|e| self.zero(e));
                let tokens = elems
                    .iter()
                    .map(|e| self.t_operand(e).or_else(|| zero.clone()).unwrap());
                let class = Class::opaque(elems.iter().map(class));
                vec![Term::linear(quote!([#(#tokens),*]), class)]
            }
            Rhs::Bin(op, a, b) => self.t_bin_terms(*op, a, b, out),
            Rhs::Method {
                method, recv, args, ..
            } => self.t_method_terms(method, recv, args, out),
            Rhs::Call { .. } | Rhs::Elem { .. } | Rhs::Pure(_) => Vec::new(),
        }
    }

    fn t_bin_terms(&self, op: BinOp, a: &Operand, b: &Operand, out: &TokenStream) -> Vec<Term> {
        let class = |o: &Operand| self.tangent_class(o);
        // A term `t_o * c`, `c` the product of the values `coeffs`.
        let scaled = |tokens: TokenStream, o: &Operand, coeffs: &[&Operand]| {
            Term::product(tokens, self.scaled_class(o, coeffs), false)
        };
        // A term that reads the result.
        let reading = |tokens: TokenStream, classes: &[Class]| {
            Term::product(tokens, Class::opaque(classes.iter().copied()), true)
        };
        let (ta, tb) = (self.t_operand(a), self.t_operand(b));
        let (va, vb) = (self.value(a), self.value(b));
        let terms = match op {
            // t_r = t_a + t_b
            BinOp::Add => [
                ta.map(|t| Term::linear(t, class(a))),
                tb.map(|t| Term::linear(t, class(b))),
            ],
            // t_r = t_a - t_b (two terms where a hoisted loop splits them)
            BinOp::Sub => match (ta, tb) {
                (Some(ta), Some(tb)) if class(a) == class(b) => {
                    [Some(Term::linear(quote!(#ta - #tb), class(a))), None]
                }
                (ta, tb) => [
                    ta.map(|t| Term::linear(t, class(a))),
                    tb.map(|t| Term::linear(quote!(-#t), class(b))),
                ],
            },
            // t_r = 2 a t_a for `a * a` (exactly the sum of the two products)
            BinOp::Mul if ta.is_some() && self.same_operand(a, b) => {
                let ta = ta.unwrap();
                [Some(scaled(quote!(2.0 * #va * #ta), a, &[a])), None]
            }
            // t_r = t_a * b + a * t_b
            BinOp::Mul => [
                ta.map(|t| scaled(quote!(#t * #vb), a, &[b])),
                tb.map(|t| scaled(quote!(#va * #t), b, &[a])),
            ],
            // t_r = (t_a - r t_b) / b, as t_a / b - r (t_b / b): the divisions by `b` run in
            // parallel with the primal's, not after it.
            BinOp::Div => match (ta, tb) {
                (Some(ta), Some(tb)) => [
                    Some(reading(
                        quote!(#ta / #vb - #out * (#tb / #vb)),
                        &[class(a), class(b)],
                    )),
                    None,
                ],
                (Some(ta), None) => [Some(scaled(quote!(#ta / #vb), a, &[b])), None],
                // t_r = -(r r / c) t_b for a literal `c`: no second division. (Not in the
                // reverse sweep, where the chain after the primal's division is what counts:
                // there micrograd's gradient was 25 % slower with it.)
                (None, Some(tb)) if let Some(inv) = a.literal_reciprocal() => [
                    Some(reading(quote!(-(#out * (#out * #inv)) * #tb), &[class(b)])),
                    None,
                ],
                (None, Some(tb)) => [
                    Some(reading(quote!(-(#out * (#tb / #vb))), &[class(b)])),
                    None,
                ],
                (None, None) => [None, None],
            },
        };
        terms.into_iter().flatten().collect()
    }

    fn t_method_terms(
        &self,
        method: &rules::Method,
        recv: &Operand,
        args: &[Operand],
        out: &TokenStream,
    ) -> Vec<Term> {
        let fty = self.f.types.tokens(self.f.operand_ty(recv));
        let reads_out = std::cell::Cell::new(false);
        let mut v = |w: Which| match w {
            Which::Recv => self.value(recv),
            Which::Arg(i) => self.value(&args[i]),
            Which::Out => {
                reads_out.set(true);
                out.clone()
            }
        };
        let mut terms = Vec::new();
        let operands = std::iter::once((Which::Recv, recv))
            .chain(args.iter().enumerate().map(|(i, a)| (Which::Arg(i), a)));
        for (w, o) in operands {
            reads_out.set(false);
            if let Some(t) = self.t_operand(o)
                && let Some(c) = rules::contribution(method.name, w, &t, &fty, &mut v)
            {
                let class = Class::opaque([self.tangent_class(o)]);
                terms.push(Term::product(c, class, reads_out.get()));
            }
        }
        terms
    }

    /// Do two operands read the same value? (By variable and place, not by name: a user's
    /// `t16` and the temporary `t16` are different identifiers that print alike.)
    fn same_operand(&self, a: &Operand, b: &Operand) -> bool {
        match (a, b) {
            (
                Operand::Var {
                    var: v, proj: p, ..
                },
                Operand::Var {
                    var: w, proj: q, ..
                },
            ) => v == w && self.fwd.place(*v, p).to_string() == self.fwd.place(*w, q).to_string(),
            (Operand::Temp(s), Operand::Temp(t)) => s == t,
            _ => false,
        }
    }

    /// The reads a right-hand side makes of the variable it writes (`x = x * y`): its tangent
    /// must then be computed before the primal overwrites `x`.
    fn reads_target(rhs: &Rhs, target: Target) -> bool {
        crate::walk::operands(rhs)
            .iter()
            .any(|o| match (o, target) {
                (Operand::Var { var, .. }, Target::Var(v)) => *var == v,
                _ => false,
            })
    }

    fn stmt(&mut self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Def {
                id,
                target,
                place,
                rhs,
                is_let,
            } => self.def(*id, *target, place, rhs, *is_let),
            Stmt::If { .. } => self.if_stmt(s),
            Stmt::For {
                id,
                var,
                range,
                body,
            } => {
                if let Some(hoisted) = self.hoist_loop(s) {
                    return hoisted;
                }
                if let Some(split) = self.split_loop(s) {
                    return split;
                }
                if let Some(flat) = self.flat_loop(s) {
                    return flat;
                }
                let i = &self.f.vars[*var].emit;
                let iter = self.fwd.range(range);
                let (body, _, _) = self.block(body, &[]);
                let attr = self.pair.then(|| self.checkpoint_attr(*id));
                quote!(#attr for #i in #iter { #body })
            }
            Stmt::Break => quote!(break;),
            Stmt::Continue => quote!(continue;),
            Stmt::Panic(msg) => quote!(::core::panic!(#msg);),
        }
    }

    fn def(
        &mut self,
        id: usize,
        target: Target,
        place: &[Proj],
        rhs: &Rhs,
        is_let: bool,
    ) -> TokenStream {
        let fwd = self.fwd;
        let name = fwd.target(target);
        let active = self.act.target(target);
        let ty = self.def_ty(target, place);
        if let Rhs::Call {
            path,
            args,
            span,
            tuple,
        } = rhs
        {
            return self.call(target, (place, is_let), path, args, *span, tuple.as_deref());
        }
        if let Rhs::Elem { call, path, .. } = rhs {
            return self.elem(target, (place, is_let), *call, path);
        }
        if let Rhs::Cast(o) = rhs
            && active
            && !self.pair
            && self.f.unseen_field(o)
        {
            self.needs_cast_helper = true;
        }
        let value = fwd.rhs(id, target, place, rhs);
        let t_name = active.then(|| self.t_target(target, place)).flatten();
        // A hoisted loop's definition with nothing of its part to compute.
        let t_name = t_name.filter(|_| !self.nothing_to_add(target, place, rhs, ty, is_let));
        let Some(t_name) = t_name else {
            if self.part == Part::Tangent && !self.again.contains(&target) {
                return quote!();
            }
            return Self::bind(fwd, target, place, is_let, value);
        };
        // A `Vec` local's tangent: zeros of its length, as its definition computes it.
        let vec_zero = match rhs {
            Rhs::Pure(p) => {
                let ety = self.f.types.elem(ty).unwrap_or(ty);
                let zero = self.zero(ety);
                p.vec_filled(typed_literal(&self.f.types, &zero, ety))
            }
            _ => None,
        };
        let vec_zero = vec_zero.map(|z| fwd.pure(&z));
        let tangent = |me: &Self, out: &TokenStream, reads_out: &mut bool| {
            if let Some(z) = &vec_zero {
                return z.clone();
            }
            if me.lanes && me.f.types.kind(ty) == Kind::Float {
                return me.lanes_rhs(target, rhs, ty, out, reads_out);
            }
            me.t_rhs(target, rhs, ty, out, reads_out)
                .unwrap_or_else(|| me.zero(ty))
        };
        let mut reads_out = false;
        let tty = self.ty(ty);
        let t_tty = self.t_ty(ty);
        let ann = self.t_ann(ty);
        if is_let && place.is_empty() && !self.assigns_slot(target) {
            // A new binding: the primal first, so that the rule can read the result.
            let prim = Self::bind(fwd, target, place, true, value);
            let t = tangent(self, &name.to_token_stream(), &mut reads_out);
            let m = matches!(target, Target::Var(v) if self.f.vars[v].mutable).then(|| quote!(mut));
            return match self.part {
                Part::Both => quote!(#prim let #m #t_name #ann = #t;),
                Part::Primal => prim,
                Part::Tangent => quote!(let #m #t_name #ann = #t;),
            };
        }
        // An assignment. Where the tangent reads the result or the variable assigned
        // (`x = x * y`), both go through locals before either is written.
        let p = match target {
            Target::Var(v) => fwd.place(v, place),
            t => fwd.target(t).to_token_stream(),
        };
        let t = tangent(self, &p, &mut reads_out);
        // A split loop's halves (a tangent that reads the result is never split: it names it).
        match (self.part, reads_out) {
            (Part::Primal, _) => return quote!(#p = #value;),
            (Part::Tangent, false) => return quote!(#t_name = #t;),
            _ => {}
        }
        match (reads_out, Self::reads_target(rhs, target)) {
            // The tangent reads the operands' old values only: it goes first.
            (false, _) => quote!(#t_name = #t; #p = #value;),
            // It reads the result, and the operands are not overwritten.
            (true, false) => quote!(#p = #value; #t_name = #t;),
            // Both: through locals, with fresh names (fixed ones met the tangent of a user's
            // `r`, also named `t_r`). The tangent program `f_hvp` differentiates has no blocks.
            (true, true) => {
                let r = self.names.fresh("r");
                let tv = self.names.fresh("t_r");
                let t = tangent(self, &r.to_token_stream(), &mut reads_out);
                if self.pair {
                    return quote!(let #r #ann = #value; let #tv #ann = #t; #p = #r; #t_name = #tv;);
                }
                quote!({ let #r: #tty = #value; let #tv: #t_tty = #t; #p = #r; #t_name = #tv; })
            }
        }
    }

    /// The primal definition alone.
    fn bind(
        fwd: &Fwd,
        target: Target,
        place: &[Proj],
        is_let: bool,
        value: TokenStream,
    ) -> TokenStream {
        if place.is_empty() {
            return fwd.bind(&[target], is_let, value);
        }
        let Target::Var(v) = target else {
            unreachable!()
        };
        let p = fwd.place(v, place);
        quote!(#p = #value;)
    }

    /// A checkpointed loop's attribute, kept in the tangent program so that its reverse sweep
    /// checkpoints the same loop.
    fn checkpoint_attr(&self, l: usize) -> TokenStream {
        let lp = &self.f.loops[l];
        match (&lp.checkpoint, lp.binomial) {
            (None, _) => quote!(),
            // A run-time loop of independent iterations: one again in the tangent program.
            (Some(None), _) if lp.runtime => quote!(),
            (Some(None), _) => quote!(#[checkpoint]),
            (Some(Some(s)), false) => quote!(#[checkpoint(snapshots = #s)]),
            (Some(Some(s)), true) => quote!(#[checkpoint(snapshots = #s, binomial)]),
        }
    }

    /// A block's statements, and its tail's values and tangents (zero where inactive), for a
    /// tail of the given types.
    fn block(
        &mut self,
        b: &Block,
        tys: &[TyId],
    ) -> (TokenStream, Vec<TokenStream>, Vec<TokenStream>) {
        let mut stmts = TokenStream::new();
        for s in &b.stmts {
            stmts.extend(self.stmt(s));
            if self.part != Part::Primal
                && let Some(merge) = self.hoist.as_ref().and_then(|h| h.merge_after(s))
            {
                stmts.extend(merge.clone());
            }
        }
        let vals = b.tail.iter().map(|o| self.fwd.operand(o)).collect();
        let tans = b
            .tail
            .iter()
            .zip(tys)
            .map(|(o, &ty)| self.t_operand(o).unwrap_or_else(|| self.zero(ty)))
            .collect();
        (stmts, vals, tans)
    }
}

/// The body of `f_jvp` for a function's source, differentiated with respect to the parameters
/// `wrt` names (`"a, b"`; `None`: every one).
#[cfg(test)]
fn jvp_body(src: &str, wrt: Option<&str>) -> String {
    use proc_macro2::Span;

    let func: syn::ItemFn = syn::parse_str(src).unwrap();
    let args = crate::args::Args {
        wrt: wrt.map(|w| {
            w.split(", ")
                .map(|w| Ident::new(w, Span::call_site()))
                .collect()
        }),
        ..Default::default()
    };
    let f = crate::lower::lower(&func, &args).unwrap();
    let act = crate::analysis::activity(&f);
    let plan = crate::plan::Plan::new(&f, &act);
    let temps = crate::forward::name_temps(&f);
    let tape = crate::tape::Tape::default();
    let name = Ident::new("tape", Span::call_site());
    let fwd = Fwd::new(&f, &tape, &plan, &temps, &name, false);
    Tan::new(&f, &act, &fwd).body().to_string()
}
