//! Sub-slices of slices: `x[a..b]` (`a..`, `..b`, `a..=b`) read as a place, and
//! `let row = &x[a..b];`, a name for one. A sub-slice is a projection of its slice
//! ([`Proj::Range`]): `row[i]` is the place `x[a..b][i]`, `row.len()` is `x[a..b].len()`,
//! `row.iter()` iterates it, and every sweep spells it so (`d_x[a..b][i]` in the adjoint,
//! `t_x[a..b][i]` in a tangent). The compiler checks a sub-slice's bounds once where a loop
//! runs over it and an index against its length, which is why `&x[j * d..j * d + d]` read by
//! `.zip(..)` runs faster than `x[j * d + t]`.

use super::{Binding, Lower, err};
use crate::ir::*;

/// Whether `p` reads a place through a sub-slice (`row.len()`, `x[a..][i]`).
pub(super) fn reads_sub_slice(p: &Pure) -> bool {
    let mut reads = Vec::new();
    crate::walk::pure_reads(p, &mut reads);
    (reads.iter().flat_map(|(_, proj, _)| proj.iter())).any(|p| matches!(p, Proj::Range { .. }))
}

impl Lower {
    /// The place a `let` binds to a name, if its value is a sub-slice: `&x[a..b]`, or `row`
    /// (`&row`) of another such name.
    pub(super) fn sub_slice<'e>(&self, e: &'e syn::Expr) -> Option<&'e syn::Expr> {
        let inner = match e {
            syn::Expr::Reference(r) if r.mutability.is_none() => &*r.expr,
            e => e,
        };
        match inner {
            syn::Expr::Index(ix) if matches!(&*ix.index, syn::Expr::Range(_)) => {
                matches!(e, syn::Expr::Reference(_)).then_some(inner)
            }
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?;
                match self.binding(&id.to_string())? {
                    Binding::Alias(_, proj, ..)
                        if matches!(proj.last(), Some(Proj::Range { .. })) =>
                    {
                        Some(inner)
                    }
                    // A group of a slice: the sub-slice it is (`Lower::group_place`).
                    Binding::Group(.., ty) if matches!(self.f.types.get(ty), TyVal::Slice(_)) => {
                        Some(inner)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `[a..b]` of a place of type `base_ty`: the projection, or an error where the place is
    /// not a slice.
    pub(super) fn range_proj(&mut self, ix: &syn::ExprIndex, r: &syn::ExprRange) -> Option<Proj> {
        let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
        let mut bound = |e: &Option<Box<syn::Expr>>| {
            e.as_ref().map(|e| {
                let (p, ty) = self.pure(e);
                let usize_ty = self.f.usize_ty;
                self.f.types.unify(ty, usize_ty);
                p
            })
        };
        let (start, end) = (bound(&r.start), bound(&r.end));
        if inclusive && end.is_none() {
            self.error(err(
                ix,
                "an inclusive range needs its end, as in `x[a..=b]`",
            ));
            return None;
        }
        Some(Proj::Range {
            start,
            end,
            inclusive,
        })
    }

    /// An error where a sub-slice is a value (`let r2 = row;` is bound as `row` is, before
    /// this): copied, chosen by a branch, returned. The sweeps read it in place only.
    pub(super) fn sub_slice_value(&mut self, e: &syn::Expr, proj: &[Proj]) -> bool {
        if !matches!(proj.last(), Some(Proj::Range { .. })) {
            return false;
        }
        let msg = "a sub-slice is read in place: by element (`row[i]`), measured, iterated, or passed to a call; bind one with `let row = &x[a..b];` where it is used, not as the value of a branch or a block";
        // Once: each branch of an `if` would say the same.
        self.error_once(e, msg);
        true
    }

    /// The error for `x[a..b]` of something that is not a slice, whose type is `base`.
    pub(super) fn not_a_slice(&mut self, ix: &syn::ExprIndex, base: TyId) {
        let msg = if matches!(self.f.types.get(base), TyVal::Vec(_)) {
            "a `Vec` local is read by index, not by sub-slice: loop over the indices, as in `for i in a..b` reading `h[i]`, or make it an array (`[0.0; N]`)"
        } else {
            "a sub-slice `x[a..b]` is taken of an array or a slice (`x: &[f64; N]`, `x: &[f64]`), or of a sub-slice of one; this is neither"
        };
        // Once: an integer context reads the place twice (its kind, then its value).
        self.error_once(ix, msg);
    }

    /// `let row = &x[a..b];`: `row` names the place `x[a..b]` (see the module's doc).
    pub(super) fn sub_slice_let(
        &mut self,
        local: &syn::Local,
        pi: &syn::PatIdent,
        ann: Option<&syn::Type>,
        place: &syn::Expr,
    ) {
        let pat = syn::Pat::Ident(pi.clone());
        // Each error below reports, then binds the name all the same: its uses report nothing.
        if let Some(m) = &pi.mutability {
            self.error(err(m, "a sub-slice is bound with `let`, not `let mut`"));
        } else if let Some(t) = ann
            && !matches!(t, syn::Type::Reference(r) if r.mutability.is_none() && matches!(&*r.elem, syn::Type::Slice(_)))
        {
            self.error(err(
                t,
                "a sub-slice is a `&[T]`: write `&[f64]`, or no type",
            ));
        } else if let Some(a) = local.attrs.first() {
            self.error(err(
                a,
                "a sub-slice names a place in its slice, which the tape never holds: remove this attribute",
            ));
        }
        let before = self.errors.len();
        let Some((v, proj)) = self.place(place) else {
            if self.errors.len() == before {
                self.error(err(
                    place,
                    "take a sub-slice of an array, a slice or another sub-slice, as in `&x[a..b]`",
                ));
            }
            return self.poison(&pat);
        };
        if !matches!(proj.last(), Some(Proj::Range { .. })) {
            return self.poison(&pat);
        }
        // Every read of `row` evaluates the bounds again: the `mut` variables they read may
        // not change while `row` is in scope (`assigned_under_sub_slice`).
        let key = self.place_text(v, &proj);
        self.watch_bounds(&proj, Some(pi.ident.to_string()), key);
        let ty = self.place_ty(v, &proj);
        self.bind_name(pi.ident.to_string(), Binding::Alias(v, proj, ty, true));
    }
}

impl Lower {
    /// The length a loop over the places of a `zip` runs: the shorter, each a slice's (or a
    /// sub-slice's) `.len()` or an array's length.
    pub(super) fn iter_len(&mut self, places: &[(VarId, Vec<Proj>)]) -> Pure {
        let lens: Vec<Pure> = (places.iter())
            .map(|(v, proj)| self.place_len(*v, proj))
            .collect();
        // `::core::cmp::min`, not `.min(..)`: a user's trait with a `min` on `usize` in scope
        // would make the method call ambiguous.
        let mut lens = lens.into_iter();
        let first = lens.next().expect("a loop over one place at least");
        lens.fold(first, |a, b| Pure::Call(core_min(), vec![a, b]))
    }

    /// The length of the array or slice at a place: its type's, or its `.len()` where only
    /// the run time knows it.
    pub(super) fn place_len(&mut self, v: VarId, proj: &[Proj]) -> Pure {
        let ty = self.place_ty(v, proj);
        match self.f.types.array(ty) {
            Some((_, n)) => Pure::Lit(n),
            None => {
                let read = self.read(v);
                self.f.read_tys.insert(read, ty);
                let len = proc_macro2::Ident::new("len", proc_macro2::Span::call_site());
                Pure::Method(Box::new(Pure::Var(v, proj.to_vec(), read)), len, Vec::new())
            }
        }
    }

    /// A length as the forward sweep spells it where a loop begins (a recorded loop sizes its
    /// tape's `Vec`s by it): each variable by its emitted name, a sub-slice past its slice's
    /// end empty (`x.get(a..b).unwrap_or(&[])`: the loop itself then panics, or in
    /// `f_try_forward` returns its `Err`).
    pub(super) fn pure_text(&self, p: &Pure) -> proc_macro2::TokenStream {
        fn leaf(f: &Func, v: VarId, proj: &[Proj]) -> proc_macro2::TokenStream {
            let mut out = quote::ToTokens::to_token_stream(&f.vars[v].emit);
            for p in proj {
                let mut pure =
                    |i: &Pure| crate::print::pure_tokens(i, &mut |v, proj, _| leaf(f, v, proj));
                out = match p {
                    Proj::Index(_) => {
                        let b = p.bracket(&mut pure);
                        quote::quote!(#out #b)
                    }
                    Proj::Range { .. } => {
                        let r = p.range_tokens(&mut pure);
                        quote::quote!(#out.get(#r).unwrap_or(&[]))
                    }
                    Proj::Field(f) => quote::quote!(#out.#f),
                    Proj::Deref => quote::quote!((*#out)),
                };
            }
            out
        }
        crate::print::pure_tokens(p, &mut |v, proj, _| leaf(&self.f, v, proj))
    }
}

impl Lower {
    /// Keeps the `mut` variables the bounds in `proj` read while the sub-slice is in scope:
    /// one bound to `name` (with its place's text, `key`) or, without a name, the one a loop
    /// about to begin iterates (`for v in x[k..].iter()`: Rust slices once, every sweep reads
    /// `x[k..][i]` at each step).
    pub(super) fn watch_bounds(&mut self, proj: &[Proj], name: Option<String>, key: String) {
        let mut reads = Vec::new();
        crate::walk::proj_reads(proj, &mut reads);
        let mutable: Vec<VarId> = (reads.iter().map(|(w, ..)| *w))
            .filter(|&w| self.f.vars[w].mutable)
            .collect();
        if mutable.is_empty() {
            return;
        }
        let depth = self.scopes.len() + usize::from(name.is_none());
        self.sub_slices.push(Live {
            name,
            depth,
            key,
            reads: mutable,
        });
    }

    /// Forgets the sub-slices of scopes deeper than the current one (a loop's, when it ends).
    pub(super) fn end_sub_slices(&mut self) {
        let depth = self.scopes.len();
        self.sub_slices.retain(|l| l.depth <= depth);
    }

    /// An assignment to `v`, written `left`: an error where a sub-slice in scope reads `v` in
    /// its bounds. The user's `row` keeps the bounds it was made with; every sweep reads
    /// `x[a..b]` again at each read of `row`, and would see the new value.
    pub(super) fn assigned_under_sub_slice(&mut self, left: &syn::Expr, v: VarId) {
        let live = self.sub_slices.iter().find(|l| {
            l.reads.contains(&v)
                && match &l.name {
                    None => self.scopes.len() >= l.depth,
                    // Still the binding it was made for: the name bound to the same place.
                    Some(name) => (self.scopes.get(l.depth - 1)).is_some_and(|s| {
                        matches!(s.get(name), Some(Binding::Alias(w, proj, ..)) if self.place_text(*w, proj) == l.key)
                    }),
                }
        });
        if let Some(l) = live {
            let what = match &l.name {
                Some(name) => format!("the sub-slice `{name}`, whose bounds read it, is in scope"),
                None => format!("a loop runs over `{}`, whose bounds read it", l.key),
            };
            let msg = format!(
                "`{}` is assigned while {what}; take the sub-slice after the last assignment, or slice with a copy made before it (`let at = {0};`, `&x[at..]`)",
                crate::names::bare(&self.f.vars[v].name)
            );
            self.error(err(left, msg));
        }
    }

    /// A place as the user's names spell it, to tell sub-slices apart.
    fn place_text(&self, v: VarId, proj: &[Proj]) -> String {
        self.pure_text(&Pure::Var(v, proj.to_vec(), 0)).to_string()
    }

    /// The place a name bound to a place stands for, at this use: with reads of its own
    /// ([`Lower::fresh_reads`]) where it is a sub-slice or its indices read a local (`&m[k]`
    /// of `let k = idx[t];`), which the plan records where each read is.
    pub(super) fn alias_place(&mut self, v: VarId, mut proj: Vec<Proj>) -> (VarId, Vec<Proj>) {
        let mut reads = Vec::new();
        crate::walk::proj_reads(&proj, &mut reads);
        let local = reads.iter().any(|(w, ..)| !self.f.vars[*w].in_place());
        if local || proj.iter().any(|p| matches!(p, Proj::Range { .. })) {
            self.fresh_reads(&mut proj);
        }
        (v, proj)
    }

    /// `proj` with a read of its own for every variable its bounds read: a sub-slice bound to
    /// a name reads them again wherever the name is read (the plan records a read per site).
    fn fresh_reads(&mut self, proj: &mut [Proj]) {
        fn pure(l: &mut Lower, p: &mut Pure) {
            if let Pure::Var(v, proj, read) = p {
                let new = l.read(*v);
                if let Some(&ty) = l.f.read_tys.get(read) {
                    l.f.read_tys.insert(new, ty);
                }
                *read = new;
                l.fresh_reads(proj);
            }
            for c in crate::walk::pure_children_mut(p) {
                pure(l, c);
            }
        }
        for p in proj.iter_mut() {
            match p {
                Proj::Index(i) => pure(self, i),
                Proj::Range { start, end, .. } => {
                    start
                        .iter_mut()
                        .chain(end.iter_mut())
                        .for_each(|i| pure(self, i));
                }
                Proj::Field(_) | Proj::Deref => {}
            }
        }
    }
}

/// A sub-slice in scope whose bounds read `mut` variables.
pub(super) struct Live {
    /// The name it is bound to; `None` for one a loop iterates in place.
    name: Option<String>,
    /// The depth of the scope it lives in.
    depth: usize,
    /// Its place as the user's names spell it.
    key: String,
    /// The `mut` variables its bounds read.
    reads: Vec<VarId>,
}

impl Lower {
    /// An error where one call is passed a differentiated slice twice, whole or in parts
    /// (`dot(x, x)`, `dot(&x[..n], &x[n..])`), or an array twice with a sub-slice of it among
    /// them (`dot(&x[..3], &x[3..])`): the callee's adjoint would take two buffers in `d_x`,
    /// which cannot be borrowed twice, and a buffer of a length known at run time only is not
    /// made on the side. (Two elements, `g(x[0], x[1])`, and an array whole twice go through a
    /// buffer of their own.)
    pub(super) fn slice_passed_twice(&mut self, c: &syn::ExprCall, args: &[Operand]) {
        // Each variable passed, and whether one of its places passed is a sub-slice.
        let mut seen: Vec<(VarId, bool)> = Vec::new();
        for (a, o) in c.args.iter().zip(args) {
            let Operand::Var { var, ty, .. } = o else {
                continue;
            };
            let var_ref = &self.f.vars[*var];
            let slice = matches!(self.f.types.get(*ty), TyVal::Slice(_));
            let differentiated = if self.f.slices.contains(var) {
                var_ref.param.is_some_and(|i| self.f.wrt.contains(&i)) && slice
            } else {
                // An array parameter differentiated, or a local array (maybe active), passed
                // whole or in parts (an element goes through a buffer of its own). Not a local
                // in the tangent program of `hvp`, which passes a local without derivative as
                // its own tangent, beside it.
                !var_ref.constant
                    && var_ref
                        .param
                        .map_or(!self.f.tangent_program, |i| self.f.wrt.contains(&i))
                    && self.f.types.differentiable(var_ref.ty)
                    && self.f.types.kind(*ty) == Kind::Array
            };
            if !differentiated {
                continue;
            }
            match seen.iter_mut().find(|(v, _)| v == var) {
                Some((_, any)) if *any || slice => {
                    let name = crate::names::bare(&self.f.vars[*var].name);
                    let copy = match self.f.slices.contains(var) {
                        true => String::new(),
                        false => format!(
                            ", or pass a copy of one part (`let lo = [{name}[0], {name}[1]];`)"
                        ),
                    };
                    self.error(err(
                        a,
                        format!(
                            "`{name}` is passed to this call twice (whole or as sub-slices), and it is differentiated: the callee's adjoint would take two buffers in `d_{name}`, which cannot be borrowed twice; pass `{name}` once and the bounds with it, and slice in the callee{copy}"
                        ),
                    ));
                    return;
                }
                Some(_) => {}
                None => seen.push((*var, slice)),
            }
        }
    }
}
