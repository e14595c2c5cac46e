//! Places: a local or a parameter, with indices, fields and `*` (`a[i][j]`, `p.w[i]`, `*v`),
//! read as operands or assigned.

use proc_macro2::{Ident, Span};

use super::{Binding, Lower, err, is_screaming};
use crate::ir::*;

impl Lower {
    /// A read of `var` (or of a place in it) as an operand.
    pub(super) fn var_operand(&mut self, var: VarId, proj: Vec<Proj>, borrow: bool) -> Operand {
        // A sub-slice read whole (`g(row)` of `let row = &x[a..b];`) is the borrow `&x[a..b]`.
        let borrow = borrow || matches!(proj.last(), Some(Proj::Range { .. }));
        let ty = self.place_ty(var, &proj);
        let read = self.read(var);
        self.f.read_tys.insert(read, ty);
        Operand::Var {
            var,
            proj,
            read,
            borrow,
            ty,
        }
    }

    /// Whether `e` names an element that Rust binds to a reference (`row` of `for row in
    /// m.iter()` or of `let row = &m[i];`, not `k` of `for &k in ks.iter()`): the alias of a
    /// place here, passed on as `&m[i]`.
    pub(super) fn names_reference(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Path(p) if p.path.get_ident()
            .is_some_and(|id| matches!(self.binding(&id.to_string()), Some(Binding::Alias(.., true)))))
    }

    /// A `const` item read as a place (`A[i][j]`, `&A`): a variable of the function's outermost
    /// scope that both sweeps read by its name and nothing differentiates or assigns.
    fn const_item(&mut self, id: &Ident) -> VarId {
        if let Some(Binding::Var(v)) = self.scopes[0].get(&id.to_string()) {
            return *v;
        }
        let ty = self.f.types.fresh(TyVal::Unknown(Kind::Num));
        self.f.vars.push(Var {
            name: id.clone(),
            emit: id.clone(),
            mutable: false,
            ty,
            param: None,
            by_ref: false,
            loop_var: false,
            recompute: false,
            record: None,
            constant: true,
        });
        let v = self.f.vars.len() - 1;
        self.scopes[0].insert(id.to_string(), Binding::Var(v));
        v
    }

    /// The type of a place: array elements follow the array's type; struct fields get one type
    /// variable per path, inferred from their uses.
    pub(super) fn place_ty(&mut self, var: VarId, proj: &[Proj]) -> TyId {
        let mut ty = self.f.vars[var].ty;
        for (n, p) in proj.iter().enumerate() {
            ty = match (p, self.f.types.elem(ty)) {
                (Proj::Deref, _) => ty,
                // A sub-slice of an array: a slice of its element, one type per path (`x[..3]`
                // and `x[3..]` share it).
                (Proj::Range { .. }, Some(e)) if self.f.types.array(ty).is_some() => {
                    let key = (var, sub_slice_path(&proj[..n]));
                    match self.f.field_tys.get(&key) {
                        Some(&t) => t,
                        None => {
                            let t = self.f.types.fresh(TyVal::Slice(e));
                            self.f.field_tys.insert(key, t);
                            t
                        }
                    }
                }
                (Proj::Range { .. }, _)
                    if matches!(self.f.types.get(ty), TyVal::Slice(_) | TyVal::Unknown(_)) =>
                {
                    ty
                }
                // Of something else, an error (`Lower::not_a_slice`): a slice of elements left
                // to inference, so that reading, measuring or iterating it reports nothing more.
                (Proj::Range { .. }, _) => {
                    let e = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                    self.f.types.fresh(TyVal::Slice(e))
                }
                (Proj::Index(_), Some(e)) => e,
                _ => {
                    let key = (var, place_path(&proj[..=n]));
                    match self.f.field_tys.get(&key) {
                        Some(&t) => t,
                        None => {
                            // A `const` item's elements may be integers (`IDX[i]`) or floats.
                            let kind = if self.f.vars[var].constant {
                                Kind::Num
                            } else {
                                Kind::Float
                            };
                            let t = self.f.types.fresh(TyVal::Unknown(kind));
                            self.f.field_tys.insert(key, t);
                            t
                        }
                    }
                }
            };
        }
        ty
    }

    /// A place in a local variable: `x`, `a[i][j]`, `p.w[i]`, or `*v` for `v` bound by
    /// `iter_mut()`. `None` (and no error) when `e` is not one.
    pub(super) fn place(&mut self, e: &syn::Expr) -> Option<(VarId, Vec<Proj>)> {
        match e {
            syn::Expr::Paren(p) => self.place(&p.expr),
            syn::Expr::Group(g) => self.place(&g.expr),
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?;
                match self.binding(&id.to_string())? {
                    Binding::Var(v) => Some((v, Vec::new())),
                    Binding::Alias(v, proj, ..) => Some(self.alias_place(v, proj)),
                    Binding::Group(..) => self.group_place(e),
                }
            }
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                let syn::Expr::Path(p) = &*u.expr else {
                    return None;
                };
                let id = p.path.get_ident()?;
                match self.binding(&id.to_string())? {
                    Binding::Alias(v, proj, ..) => Some(self.alias_place(v, proj)),
                    Binding::Var(v) if self.f.vars[v].by_ref => Some((v, vec![Proj::Deref])),
                    Binding::Var(_) => None,
                    Binding::Group(..) => self.group_place(&u.expr),
                }
            }
            syn::Expr::Index(ix) => {
                if let Some(element) = self.group_element(ix) {
                    return element;
                }
                let (v, mut proj) = self.place_or_const(&ix.expr)?;
                self.untyped_call_result(v, &proj, "an array");
                let base_ty = self.place_ty(v, &proj);
                if let syn::Expr::Range(r) = &*ix.index {
                    // Reported once; the place stands, so that nothing else reports.
                    if !matches!(
                        self.f.types.get(base_ty),
                        TyVal::Slice(_) | TyVal::Unknown(_) | TyVal::Array(..) | TyVal::Out(..)
                    ) {
                        self.not_a_slice(ix, base_ty);
                    }
                    proj.push(self.range_proj(ix, r)?);
                    return Some((v, proj));
                }
                if !matches!(self.f.types.kind(base_ty), Kind::Array)
                    && !matches!(self.f.types.get(base_ty), TyVal::Unknown(_))
                {
                    let msg = match self.f.types.get(base_ty) {
                        // A named type the macro cannot see into: maybe an alias of an array.
                        TyVal::Struct(name) => {
                            let name = crate::names::text(name);
                            format!(
                                "this is indexed, but its type `{name}` is taken for a struct: the macro sees only this function and cannot look through a type alias; if `{name}` is an array type, write the array type in the signature (as in `x: &[f64; N]`)"
                            )
                        }
                        _ => "this is not an array; index only arrays (`[f64; N]`), and annotate a `let` that holds one, as in `let y: [f64; N] = ..`".to_string(),
                    };
                    // Once per message: every later `x[i]` of the same `x` says the same.
                    self.error_once(&ix.expr, &msg);
                }
                let (i, ity) = self.pure(&ix.index);
                let usize_ty = self
                    .f
                    .types
                    .fresh(TyVal::Int(Ident::new("usize", Span::call_site())));
                self.f.types.unify(ity, usize_ty);
                proj.push(Proj::Index(i));
                Some((v, proj))
            }
            syn::Expr::Field(f) => {
                // `t.k` of a tuple bound to one name, `s.a` of a struct a call returns: its
                // own variable.
                if let syn::Expr::Path(p) = &*f.base
                    && let Some(t) = p.path.get_ident()
                    && let Some(v) = self.element(&t.to_string(), &f.member)
                {
                    return Some((v, Vec::new()));
                }
                let (v, mut proj) = self.place_or_const(&f.base)?;
                match &f.member {
                    syn::Member::Named(n) => {
                        self.untyped_call_result(v, &proj, "a struct");
                        proj.push(Proj::Field(n.clone()));
                    }
                    // One error, then the place is read whole so that nothing else reports.
                    syn::Member::Unnamed(_) => {
                        if !self.untyped_call_result(v, &proj, "a tuple") {
                            self.error(err(
                                f,
                                "tuple fields are not supported; use named struct fields",
                            ));
                        }
                    }
                }
                Some((v, proj))
            }
            _ => None,
        }
    }

    /// Rejects, once, indexing or borrowing a local bound without a type to a call's result
    /// (`let y = matvec(m, v); y[0]`): the macro cannot see that the callee returns `what`.
    /// Whether `v` is such a local (reported now or before).
    pub(super) fn untyped_call_result(&mut self, v: VarId, proj: &[Proj], what: &str) -> bool {
        if !proj.is_empty() {
            // `y[i][j]` of such a local: its element is an array too.
            let ty = self.place_ty(v, proj);
            self.f.types.index_below(ty);
            return false;
        }
        if !matches!(self.f.types.get(self.f.vars[v].ty), TyVal::Unknown(_)) {
            return false;
        }
        let Some((callee, field)) = self.call_lets.get(&v).cloned() else {
            return false;
        };
        // An array a call returns: named through the callee's contract.
        let ty = self.f.vars[v].ty;
        if !field
            && what != "a struct"
            && what != "a tuple"
            && !self.tuple_lets.contains_key(&v)
            && let Some((path, args)) = self.call_sigs.get(&ty).cloned()
        {
            self.f
                .types
                .call_out(ty, crate::types::CallOut::of(&path, args));
            return false;
        }
        if !self.reported_lets.insert(v) {
            return true;
        }
        let name = &self.f.vars[v].name;
        let field_of_struct = |read: &str| {
            let (_, f) = read.split_once('.').unwrap_or_default();
            f.parse::<usize>().is_err().then(|| f.to_string())
        };
        let msg = if let Some(read) = self.tuple_fields.get(&v)
            && let Some(field) = field_of_struct(read)
        {
            format!(
                "`{read}` is a field of the struct `{callee}` returns, {what} the macro cannot see from here: bind it with its type first, as in `let {field}: [f64; N] = {read};`"
            )
        } else if let Some(read) = self.tuple_fields.get(&v) {
            format!(
                "`{read}` is an element of what `{callee}` returns, {what} the macro cannot see from here: bind the tuple's elements with its type, as in `let (a, b): (f64, [f64; N]) = {callee}(..);`"
            )
        } else if let Some((i, names)) = self.tuple_lets.get(&v) {
            let tys: Vec<&str> = (0..names.len())
                .map(|j| if j == *i { "[f64; N]" } else { "_" })
                .collect();
            format!(
                "`{name}` holds element {i} of what `{callee}` returns, {what} the macro cannot see from here: annotate the tuple's type, as in `let ({}): ({}) = {callee}(..);`",
                names.join(", "),
                tys.join(", ")
            )
        } else if field && what == "a struct" {
            format!(
                "`{name}` holds `{callee}`, a struct: a `let` holds a float or an array, not a struct; read its fields where you need them, as in `{callee}.field[i]`"
            )
        } else if field {
            format!(
                "`{name}` holds `{callee}`, {what} whose type the macro cannot see (it sees this function, not the struct's declaration): annotate it, as in `let {name}: [f64; N] = {callee};`"
            )
        } else if what == "a struct" {
            format!(
                "`{name}` holds what `{callee}` returns, a struct the macro cannot see from here, and reads it otherwise than by its fields: read each field by name where you need it, as in `{name}.a` (a struct field of it, or a method call on it, is not supported)"
            )
        } else if what == "a tuple" {
            format!(
                "`{name}` holds what `{callee}` returns, a tuple, which a `let` of one name cannot hold: bind its elements, as in `let (a, b) = {callee}(..);` (with the tuple's type where an element is an array: `let (a, b): (f64, [f64; N]) = ..`)"
            )
        } else {
            // `let [a, b] = g(..);` binds what `g` returns to our local first: the user
            // annotates the pattern.
            let (holds, annotated) = if *name == "__stackgrad_elems" {
                (
                    "the array the pattern takes apart is".to_string(),
                    "[a, b]".to_string(),
                )
            } else {
                (format!("`{name}` holds"), name.to_string())
            };
            format!(
                "{holds} what `{callee}` returns, {what} whose type the macro names from the types of the call's arguments, and one of them is a `const` item or a struct field declared elsewhere: annotate its type, as in `let {annotated}: [f64; N] = {callee}(..);`, or pass that argument through a typed local"
            )
        };
        self.error(err(name, msg));
        true
    }

    /// A place, or a `const` item (`A`, read as `A[i]`, `A.w` or `&A`).
    pub(super) fn place_or_const(&mut self, e: &syn::Expr) -> Option<(VarId, Vec<Proj>)> {
        if let Some(place) = self.place(e) {
            return Some(place);
        }
        let syn::Expr::Path(p) = e else {
            return None;
        };
        let id = p.path.get_ident()?;
        is_screaming(&id.to_string()).then(|| (self.const_item(id), Vec::new()))
    }

    /// The place an assignment writes: a local, not a parameter.
    pub(super) fn assigned_place(&mut self, left: &syn::Expr) -> Option<(VarId, Vec<Proj>)> {
        let place = self.place(left);
        if let Some((v, _)) = &place {
            self.assigned_under_sub_slice(left, *v);
        }
        match place {
            Some((v, _)) if self.f.vars[v].constant => {
                let name = &self.f.vars[v].name;
                self.error(err(
                    left,
                    format!("`{name}` is a `const` item; copy it into a local to change it (`let mut a = {name};`)"),
                ));
                None
            }
            Some((v, proj)) if self.f.vars[v].param.is_some() => {
                let name = &self.f.vars[v].name;
                let msg = if proj.is_empty() {
                    format!("cannot assign to the parameter `{name}`; declare it `mut {name}`")
                } else {
                    format!(
                        "cannot assign into the parameter `{name}`: parameters are read-only; copy it into a local (`let mut a = *{name};`)"
                    )
                };
                self.error(err(left, msg));
                None
            }
            Some((v, proj)) if proj.is_empty() && self.is_vec(v) => {
                let name = &self.f.vars[v].name;
                self.error(err(
                    left,
                    format!("`{name}` is a `Vec` local, written by element (`{name}[i] = ..`): it cannot be assigned whole; set its elements in a loop, or declare another `Vec`"),
                ));
                None
            }
            Some(place) => Some(place),
            None => {
                self.error(err(
                    left,
                    "only assignments to local variables and their elements are supported, as in `y = ..;` or `h[i] = ..;`",
                ));
                None
            }
        }
    }
}
