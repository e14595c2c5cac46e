//! The signature: parameters and their types, the return type, `wrt(..)`; and the types the
//! macro knows.

use quote::ToTokens;

use super::{Lower, err};
use crate::args::Args;
use crate::ir::{Kind, TyId, TyVal};

/// Parses a scalar type the macro knows.
pub(super) fn scalar_ty(ty: &syn::Type) -> Option<TyVal> {
    let syn::Type::Path(p) = ty else { return None };
    let id = p.path.get_ident()?;
    Some(match id.to_string().as_str() {
        "f32" => TyVal::F32,
        "f64" => TyVal::F64,
        "bool" => TyVal::Bool,
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" => TyVal::Int(id.clone()),
        _ => return None,
    })
}

impl Lower {
    pub(super) fn signature(&mut self, sig: &syn::Signature, args: &Args) {
        self.qualifiers(sig);
        self.generics(&sig.generics);
        for input in &sig.inputs {
            self.param(input);
        }
        self.ret_type(sig);
        self.wrt(args);
    }

    /// `async`, `unsafe`, `extern` and variadic functions are rejected.
    fn qualifiers(&mut self, sig: &syn::Signature) {
        if let Some(a) = &sig.asyncness {
            self.error(err(
                a,
                "`async fn` cannot be differentiable; remove `async`",
            ));
        }
        if let Some(u) = &sig.unsafety {
            self.error(err(
                u,
                "`unsafe fn` cannot be differentiable; remove `unsafe`",
            ));
        }
        if let Some(a) = &sig.abi {
            self.error(err(
                a,
                "`extern` functions cannot be differentiable; remove the ABI",
            ));
        }
        if let Some(v) = &sig.variadic {
            self.error(err(v, "variadic functions cannot be differentiable"));
        }
    }

    /// Const generic parameters only, and no `where` clause.
    fn generics(&mut self, generics: &syn::Generics) {
        for g in &generics.params {
            match g {
                syn::GenericParam::Const(c) if c.default.is_none() => {
                    self.f.generics.push((c.ident.clone(), c.ty.clone()))
                }
                _ => self.error(err(
                    g,
                    "only const generic parameters are supported, as in `<const N: usize>`; write the function for concrete `f32` or `f64` types",
                )),
            }
        }
        if let Some(w) = &generics.where_clause {
            self.error(err(w, "`where` clauses are not supported"));
        }
    }

    /// One parameter: `x: f64`, `a: &[f64; N]`, `p: &Params`, `mut x: f64` (copied into a local).
    fn param(&mut self, input: &syn::FnArg) {
        let pt = match input {
            syn::FnArg::Receiver(r) => {
                self.error(err(
                    r,
                    "methods cannot be differentiable; write a free function that takes the value as a parameter",
                ));
                return;
            }
            syn::FnArg::Typed(pt) => pt,
        };
        let syn::Pat::Ident(pi) = &*pt.pat else {
            self.error(err(
                &pt.pat,
                "patterns in parameters are not supported; name the parameter, as in `x: f64`",
            ));
            return;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            self.error(err(pi, "write the parameter as `name: type`"));
            return;
        }
        let (inner, by_ref) = match &*pt.ty {
            syn::Type::Reference(r) if r.mutability.is_none() && r.lifetime.is_none() => {
                (&*r.elem, true)
            }
            t => (t, false),
        };
        if let (syn::Type::Slice(sl), true) = (inner, by_ref) {
            self.slice_param(pt, pi, &sl.elem);
            return;
        }
        // A fieldless enum: matched on by variant. (Not one only passed on: its type may as well
        // be an alias of a float or an array, which would silently lose its derivative.)
        let enum_ty = (self.enum_params.contains(&pi.ident.to_string())
            && matches!(inner, syn::Type::Path(p) if scalar_ty(inner).is_none() && p.qself.is_none()))
        .then(|| self.f.types.fresh(TyVal::Enum(inner.to_token_stream())));
        let Some(ty) = enum_ty.or_else(|| self.param_ty(pt, &pi.ident, inner, by_ref)) else {
            self.unsupported_param(pt, inner);
            let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
            self.declare(&pi.ident, false, ty, None);
            return;
        };
        let index = self.f.params.len();
        let var = self.declare_var(&pi.ident, false, ty, Some(index), by_ref, false);
        self.f.params.push(var);
        if pi.mutability.is_some() {
            let local = self.declare(&pi.ident, true, ty, None);
            self.f.param_copies.push((var, local));
        }
    }

    /// A slice parameter, `x: &[T]` with `T` a float, an integer, an array or a struct: an
    /// array whose length is `x.len()`, read in place and never differentiated.
    fn slice_param(&mut self, pt: &syn::PatType, pi: &syn::PatIdent, elem: &syn::Type) {
        let name = &pi.ident;
        let Some(e) = self.parse_ty(elem) else {
            self.unsupported_param(pt, elem);
            return;
        };
        if let Some(m) = &pi.mutability {
            self.error(err(m, "a slice parameter is read only: remove `mut`"));
        }
        let ty = self.f.types.fresh(TyVal::Slice(e));
        let index = self.f.params.len();
        let var = self.declare_var(name, false, ty, Some(index), true, false);
        self.f.params.push(var);
        self.f.slices.push(var);
    }

    /// The type of a parameter (`inner`, behind the reference when `by_ref`): by reference only
    /// arrays and structs; a struct only by reference.
    fn param_ty(
        &mut self,
        pt: &syn::PatType,
        name: &syn::Ident,
        inner: &syn::Type,
        by_ref: bool,
    ) -> Option<TyId> {
        match self.parse_ty(inner) {
            Some(ty) if by_ref && !matches!(self.f.types.kind(ty), Kind::Array | Kind::Struct) => {
                None
            }
            Some(ty) if !by_ref && self.f.types.kind(ty) == Kind::Struct => {
                self.error(err(
                    &pt.ty,
                    format!(
                        "take the struct by reference: `{}: &{}` (a fieldless enum is recognised where this function matches on it, as in `match {} {{ .. }}`)",
                        name,
                        crate::names::text(&inner.to_token_stream()),
                        name
                    ),
                ));
                Some(ty)
            }
            other => other,
        }
    }

    /// The error for a parameter type the macro does not support, with what to take instead.
    fn unsupported_param(&mut self, pt: &syn::PatType, inner: &syn::Type) {
        let is_vec = matches!(inner, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Vec"));
        let msg = match &*pt.ty {
            _ if is_vec => "`Vec` is not supported as a parameter: take a slice, as in `x: &[f64]` (the caller passes `&v`), or an array, as in `x: &[f64; N]`".to_string(),
            syn::Type::Reference(r) if r.mutability.is_some() && matches!(&*r.elem, syn::Type::Slice(_)) => {
                "a slice parameter is read only: take `&[..]`, not `&mut [..]`".to_string()
            }
            _ => format!(
                "parameter type `{}` is not supported; use `f32` or `f64`, arrays of them (`[f64; N]`, `&[[f32; N]; M]`), a struct by reference (`&Params`), integers or `bool`",
                crate::names::text(&pt.ty.to_token_stream())
            ),
        };
        self.error(err(&pt.ty, msg));
    }

    /// `-> f64`, `-> [f32; N]` or `-> (f64, f64)`: one entry of `ret` per element.
    fn ret_type(&mut self, sig: &syn::Signature) {
        let ty = match &sig.output {
            syn::ReturnType::Default => {
                self.error(err(
                    sig,
                    "a differentiable function must return `f32`, `f64` or a tuple of them, as in `-> f64`",
                ));
                return;
            }
            syn::ReturnType::Type(_, ty) => ty,
        };
        let elems: Vec<&syn::Type> = match &**ty {
            syn::Type::Tuple(t) => {
                // The body is still lowered as returning the tuple: one error, not a second
                // one at its value.
                if t.elems.len() == 1 {
                    self.error(err(
                        ty,
                        "a tuple of one element is not supported as the return type; return the element itself, as in `-> f64`",
                    ));
                }
                self.f.ret_tuple = true;
                t.elems.iter().collect()
            }
            other => vec![other],
        };
        for t in elems {
            match self.parse_ty(t) {
                Some(id)
                    if self.f.types.differentiable(id) && self.f.types.kind(id) != Kind::Struct =>
                {
                    self.f.ret.push(id);
                }
                Some(id) if self.f.types.kind(id) == Kind::Struct => self.error(err(
                    t,
                    format!(
                        "return type `{0}` is not supported: the macro takes `{0}` for a struct (it sees only this function, not type aliases); return `f32`, `f64`, an array of them written out (as in `-> [f64; N]`) or a tuple of floats",
                        crate::names::text(&t.to_token_stream())
                    ),
                )),
                _ => self.error(err(
                    t,
                    format!(
                        "return type `{}` is not supported; return `f32`, `f64`, an array of them or a tuple of floats",
                        crate::names::text(&t.to_token_stream())
                    ),
                )),
            }
        }
        if self.f.ret_tuple && self.f.ret.is_empty() {
            self.error(err(ty, "return a float or a non-empty tuple of floats"));
        }
    }

    /// The differentiated parameters: `wrt(..)`, or every float parameter.
    fn wrt(&mut self, args: &Args) {
        let is_float = |l: &Self, i: usize| {
            l.f.types.differentiable(l.f.vars[l.f.params[i]].ty)
                && !l.f.slices.contains(&l.f.params[i])
        };
        let Some(names) = &args.wrt else {
            self.f.wrt = (0..self.f.params.len())
                .filter(|&i| is_float(self, i))
                .collect();
            return;
        };
        for name in names {
            let found =
                (0..self.f.params.len()).find(|&i| self.f.vars[self.f.params[i]].name == *name);
            match found {
                None => self.error(err(
                    name,
                    format!("`{name}` is not a parameter of this function; `wrt(..)` lists parameters to differentiate"),
                )),
                Some(i) if self.f.slices.contains(&self.f.params[i])
                    && self.f.types.differentiable(self.f.vars[self.f.params[i]].ty) =>
                {
                    self.f.wrt.push(i)
                }
                Some(i) if !is_float(self, i) => self.error(err(
                    name,
                    format!("`{name}` is not a float parameter; only `f32` and `f64` parameters, arrays of them and structs can be differentiated"),
                )),
                Some(i) if self.f.wrt.contains(&i) => {
                    self.error(err(name, format!("`{name}` is listed twice")))
                }
                Some(i) => self.f.wrt.push(i),
            }
        }
        self.f.wrt.sort_unstable();
    }

    /// Parses a type the macro knows: scalars, arrays of any depth, and user structs.
    /// A type named through a callee's contract, as the macro prints it (`hvp`'s tangent
    /// program is lowered again): `<() as GCall<A0, ..>>::Out`, or an element of one,
    /// `<T as ::core::ops::Index<usize>>::Output`. (Never a tuple's element, `::Elem0`: only
    /// a call with a derivative has its elements named so, and an `hvp` function's
    /// differentiated callees are `hvp` themselves, which return no tuple.)
    fn contract_ty(&mut self, p: &syn::TypePath) -> Option<TyId> {
        let q = p.qself.as_ref()?;
        let segs: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let (assoc, trait_seg) = (segs.last()?, segs.get(q.position.checked_sub(1)?)?);
        if segs.len() != q.position + 1 {
            return None;
        }
        // `<[W; 1] as IntoIterator>::Item`: `W` itself, a value only passed on whole
        // ([`TyVal::Whole`]).
        if let (true, syn::Type::Array(arr)) = (
            assoc.ident == "Item" && trait_seg.ident == "IntoIterator",
            &*q.ty,
        ) {
            let inner = self.parse_ty(&arr.elem)?;
            let TyVal::Out(_, call) = self.f.types.get(inner).clone() else {
                return None;
            };
            let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
            self.f.types.whole(ty, (*call).clone());
            return Some(ty);
        }
        if assoc.ident == "Output" && trait_seg.ident == "Index" {
            let whole = self.parse_ty(&q.ty)?;
            let elem = self.f.types.elem(whole)?;
            self.f.types.index_below(elem);
            return Some(elem);
        }
        let unit = matches!(&*q.ty, syn::Type::Tuple(t) if t.elems.is_empty());
        if assoc.ident != "Out" || !unit {
            return None;
        }
        let syn::PathArguments::AngleBracketed(a) = &trait_seg.arguments else {
            return None;
        };
        let mut args = Vec::new();
        for arg in &a.args {
            let syn::GenericArgument::Type(t) = arg else {
                return None;
            };
            args.push(match t {
                // What the contract takes in any position: a float, an integer.
                syn::Type::Tuple(t) if t.elems.is_empty() => {
                    self.f.types.fresh(TyVal::Unknown(Kind::Float))
                }
                t => self.parse_ty(t)?,
            });
        }
        let mut path = p.path.clone();
        path.segments = path.segments.into_iter().take(q.position).collect();
        if let Some(last) = path.segments.last_mut() {
            last.arguments = syn::PathArguments::None;
        }
        let contract = path.to_token_stream();
        let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
        let call = crate::types::CallOut {
            contract,
            args,
            depth: 0,
        };
        self.f.types.call_out(ty, call);
        Some(ty)
    }

    pub(super) fn parse_ty(&mut self, ty: &syn::Type) -> Option<TyId> {
        match ty {
            syn::Type::Array(a) => {
                let e = self.parse_ty(&a.elem)?;
                Some(self.f.types.fresh(TyVal::Array(e, a.len.to_token_stream())))
            }
            syn::Type::Paren(p) => self.parse_ty(&p.elem),
            syn::Type::Path(p) if p.qself.is_some() => self.contract_ty(p),
            syn::Type::Path(p) if p.qself.is_none() => match scalar_ty(ty) {
                Some(tv) => Some(self.f.types.fresh(tv)),
                None if p.path.segments.last().is_some_and(|s| {
                    [
                        "Vec", "Box", "Option", "String", "Rc", "Arc", "HashMap", "VecDeque",
                    ]
                    .iter()
                    .any(|n| s.ident == n)
                }) =>
                {
                    None
                }
                None if p.path.segments.last().is_some_and(|s| {
                    s.ident
                        .to_string()
                        .starts_with(|c: char| c.is_ascii_uppercase())
                }) =>
                {
                    Some(self.f.types.fresh(TyVal::Struct(ty.to_token_stream())))
                }
                None => None,
            },
            _ => None,
        }
    }
}
