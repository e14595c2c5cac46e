//! Values without derivative: integer and bool expression trees, conditions' operands, and
//! constants (`const` items, whose kind a use may decide).

use proc_macro2::{Ident, Span};
use quote::{ToTokens, quote};

use super::signature::scalar_ty;
use super::{Lower, err, is_compound, is_screaming, unsupported};
use crate::ir::{Kind, Pure, TyId, TyVal};
use crate::rules;

/// A method that gives a `bool` whatever its receiver: `is_nan`, `is_finite`, ...
pub(super) fn is_bool_method(name: &str) -> bool {
    matches!(
        name,
        "is_nan"
            | "is_finite"
            | "is_infinite"
            | "is_sign_positive"
            | "is_sign_negative"
            | "is_positive"
            | "is_negative"
    )
}

/// A method integers have too (`K.abs()` may be an integer's), unlike `sin` or `exp`.
fn is_int_method(name: &str) -> bool {
    matches!(
        name,
        "abs" | "pow" | "min" | "max" | "clamp" | "signum" | "rem_euclid" | "div_euclid"
    )
}

impl Lower {
    /// `K.sin()`, `T[1].sin()`: a float method integers do not have makes a constant whose kind
    /// is still open (`Kind::Num`, a `const` item declared elsewhere) a float, in a condition or
    /// a value alike, so a value computed from it is one even where nothing else types it.
    pub(super) fn float_by_method(&mut self, receiver: TyId, method: &str) {
        if self.f.types.kind(receiver) == Kind::Num
            && rules::lookup(method).is_some()
            && !is_int_method(method)
        {
            let float = self.f.types.fresh(TyVal::Unknown(Kind::Float));
            self.f.types.unify(receiver, float);
        }
    }

    /// The type of a constant path: `f64::consts::PI` is an `f64`, others are inferred.
    fn const_ty(&mut self, p: &syn::Path) -> TyId {
        let tv = p
            .segments
            .iter()
            .find_map(|s| match s.ident.to_string().as_str() {
                "f32" => Some(TyVal::F32),
                "f64" => Some(TyVal::F64),
                _ => None,
            })
            .unwrap_or(TyVal::Unknown(Kind::Float));
        self.f.types.fresh(tv)
    }

    /// A path that is not a local: a constant (checked by the caller's kind), or an error.
    pub(super) fn const_path(&mut self, p: &syn::ExprPath) -> Option<TyId> {
        let last = p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        // A group's name read whole: reported where it was looked up as a place.
        let group = syn::Expr::Path(p.clone());
        if self.group_len(&group).is_some() {
            return None;
        }
        if p.qself.is_some() || !is_screaming(&last) {
            let msg = if p.path.segments.len() == 1 {
                format!(
                    "cannot find `{last}`: a differentiable function can use its parameters, its locals and `const` items (named in UPPER_CASE)"
                )
            } else {
                format!(
                    "`{}` is not supported here: a differentiable function can use its parameters, its locals and `const` items (named in UPPER_CASE)",
                    p.to_token_stream()
                )
            };
            self.error(err(p, msg));
            return None;
        }
        let generic = p
            .path
            .get_ident()
            .is_some_and(|id| self.f.generics.iter().any(|(g, _)| g == id));
        if !generic && !self.f.consts.iter().any(|c| c == &p.path) {
            self.f.consts.push(p.path.clone());
        }
        Some(self.const_ty(&p.path))
    }

    /// [`Lower::pure`] for a value taken for a constant because of its `kind`; with
    /// [`Kind::Num`], reads of mutable variables of unknown kind are remembered (see
    /// `undecided`).
    pub(super) fn pure_constant(&mut self, e: &syn::Expr, kind: Kind) -> (Pure, TyId) {
        if kind != Kind::Num {
            return self.pure(e);
        }
        let outer = self.as_constant.replace(Vec::new());
        let r = self.pure(e);
        let reads = std::mem::replace(&mut self.as_constant, outer).unwrap_or_default();
        self.undecided.extend(reads);
        r
    }

    /// Lowers an expression without derivative (integer, bool, or a float in a condition).
    pub(super) fn pure(&mut self, e: &syn::Expr) -> (Pure, TyId) {
        use syn::Expr;
        if self.vec_whole(e) {
            let ty = self.f.types.fresh(TyVal::Unknown(Kind::Int));
            return (Pure::Lit(quote::quote!(0)), ty);
        }
        match e {
            Expr::Paren(p) => self.pure(&p.expr),
            Expr::Group(g) => self.pure(&g.expr),
            Expr::Lit(l) => self.pure_lit(l),
            Expr::Path(_) | Expr::Index(_) | Expr::Field(_) if self.place(e).is_some() => {
                self.pure_place(e)
            }
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.place(e).is_some() => {
                let (var, proj) = self.place(e).unwrap();
                let ty = self.place_ty(var, &proj);
                let read = self.read(var);
                self.f.read_tys.insert(read, ty);
                (Pure::Var(var, proj, read), ty)
            }
            Expr::Path(p) => self.pure_const(p),
            // `x.sin_cos().0` in a condition: `x.sin()`.
            Expr::Field(_) if super::patterns::sin_cos_element(e).is_some() => {
                self.pure(&super::patterns::sin_cos_element(e).unwrap())
            }
            Expr::Unary(u) => {
                let (a, ty) = self.pure(&u.expr);
                if matches!(u.op, syn::UnOp::Neg(_)) {
                    self.signed.push(ty);
                }
                (Pure::Unary(u.op.to_token_stream(), Box::new(a)), ty)
            }
            Expr::Binary(b) => self.pure_binary(b),
            Expr::Cast(c) => {
                let (a, _) = self.pure(&c.expr);
                let tv = scalar_ty(&c.ty).unwrap_or_else(|| {
                    self.error(err(&c.ty, "cast to a float, an integer or `bool`"));
                    TyVal::Unknown(Kind::Int)
                });
                (
                    Pure::Cast(Box::new(a), c.ty.to_token_stream()),
                    self.f.types.fresh(tv),
                )
            }
            Expr::MethodCall(m) => self.pure_method(m),
            Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else {
                    self.error(err(&c.func, super::CALL_BY_NAME));
                    return (
                        Pure::Lit(quote!(0.0)),
                        self.f.types.fresh(TyVal::Unknown(Kind::Float)),
                    );
                };
                let args = c.args.iter().map(|a| self.pure(a).0).collect();
                // `i32::from(b)`, `usize::min(i, j)`: of the integer type named.
                let int = p
                    .path
                    .segments
                    .first()
                    .filter(|_| p.path.segments.len() == 2)
                    .and_then(|s| match scalar_ty(&syn::parse_quote!(#s)) {
                        Some(tv @ TyVal::Int(_)) => Some(tv),
                        _ => None,
                    });
                let tv = int.unwrap_or(TyVal::Unknown(Kind::Float));
                (Pure::Call(p.path.clone(), args), self.f.types.fresh(tv))
            }
            // `&t` as an argument of a call in a condition: `if g(&t, x) < 0.5`.
            Expr::Reference(r) if r.mutability.is_none() => {
                let (a, ty) = self.pure(&r.expr);
                (Pure::Ref(Box::new(a)), ty)
            }
            Expr::If(ifx) => self.pure_if(ifx),
            Expr::Block(b) if b.label.is_none() => self.pure_block(&b.block),
            Expr::Macro(m) if super::matches::matches_args(m).is_some() => self.pure_matches(m),
            _ => {
                self.error(err(e, unsupported(e)));
                self.pure_dummy()
            }
        }
    }

    /// The value that stands for an expression after an error.
    fn pure_dummy(&mut self) -> (Pure, TyId) {
        (
            Pure::Lit(quote!(false)),
            self.f.types.fresh(TyVal::Unknown(Kind::Bool)),
        )
    }

    /// A number or `bool` literal, typed by its suffix.
    fn pure_lit(&mut self, l: &syn::ExprLit) -> (Pure, TyId) {
        let tv = match &l.lit {
            syn::Lit::Float(f) => match f.suffix() {
                "f32" => TyVal::F32,
                "f64" => TyVal::F64,
                _ => TyVal::Unknown(Kind::Float),
            },
            syn::Lit::Int(i) => match i.suffix() {
                "" => TyVal::Unknown(Kind::Int),
                s => TyVal::Int(Ident::new(s, Span::call_site())),
            },
            syn::Lit::Bool(_) => TyVal::Bool,
            _ => {
                self.error(err(l, "only number and `bool` literals are supported"));
                TyVal::Unknown(Kind::Int)
            }
        };
        (Pure::Lit(l.to_token_stream()), self.f.types.fresh(tv))
    }

    /// A read of a place; while lowering a constant of unknown kind, reads of mutable variables
    /// of unknown kind are remembered (see `as_constant`).
    fn pure_place(&mut self, e: &syn::Expr) -> (Pure, TyId) {
        let (var, proj) = self.place(e).unwrap();
        let ty = self.place_ty(var, &proj);
        if self.f.vars[var].mutable
            && self.f.types.kind(ty) == Kind::Num
            && let Some(reads) = &mut self.as_constant
        {
            reads.push((var, e.to_token_stream()));
        }
        let read = self.read(var);
        self.f.read_tys.insert(read, ty);
        (Pure::Var(var, proj, read), ty)
    }

    /// A path that is not a local: a constant, or an error.
    fn pure_const(&mut self, p: &syn::ExprPath) -> (Pure, TyId) {
        match self.const_path(p) {
            Some(ty) => {
                // An UPPER_CASE constant declared elsewhere: a float or an integer, as its use
                // decides (`m > K` makes it a float when `m` is one).
                let ty = if self.f.types.kind(ty) == Kind::Float
                    && !matches!(self.f.types.get(ty), TyVal::F32 | TyVal::F64)
                {
                    self.f.types.fresh(TyVal::Unknown(Kind::Num))
                } else {
                    ty
                };
                (Pure::Lit(p.to_token_stream()), ty)
            }
            None => (
                Pure::Lit(quote!(0)),
                self.f.types.fresh(TyVal::Unknown(Kind::Int)),
            ),
        }
    }

    /// Comparisons and `&&`, `||` give a `bool`; arithmetic keeps its operands' type.
    fn pure_binary(&mut self, b: &syn::ExprBinary) -> (Pure, TyId) {
        if is_compound(&b.op).is_some() {
            self.error(err(
                b.op,
                "assignments are statements; write them on their own line",
            ));
        }
        let (l, lt) = self.pure(&b.left);
        let (r, rt) = self.pure(&b.right);
        let op = b.op.to_token_stream();
        let ty = match b.op {
            syn::BinOp::Eq(_)
            | syn::BinOp::Ne(_)
            | syn::BinOp::Lt(_)
            | syn::BinOp::Le(_)
            | syn::BinOp::Gt(_)
            | syn::BinOp::Ge(_) => {
                self.f.types.unify(lt, rt);
                self.f.types.fresh(TyVal::Bool)
            }
            syn::BinOp::And(_) | syn::BinOp::Or(_) => self.f.types.fresh(TyVal::Bool),
            syn::BinOp::Shl(_) | syn::BinOp::Shr(_) => lt,
            _ => {
                self.f.types.unify(lt, rt);
                if matches!(b.op, syn::BinOp::Sub(_)) {
                    self.signed.push(lt);
                }
                lt
            }
        };
        (Pure::Bin(op, Box::new(l), Box::new(r)), ty)
    }

    /// A method of an integer, a float or a constant: `x.is_nan()`, `i.pow(2)`, `K.sin()`.
    fn pure_method(&mut self, m: &syn::ExprMethodCall) -> (Pure, TyId) {
        if self.reported_option_reduction(m) {
            return (
                Pure::Lit(quote!(0.0)),
                self.f.types.fresh(TyVal::Unknown(Kind::Float)),
            );
        }
        if m.method == "len"
            && m.args.is_empty()
            && let Some(len) = self.vec_len(&m.receiver)
        {
            return (len, self.f.usize_ty);
        }
        if m.method == "len"
            && m.args.is_empty()
            && let Some(k) = self.group_len(&m.receiver)
        {
            return (Pure::Lit(k), self.f.usize_ty);
        }
        let (recv, rt) = self.pure(&m.receiver);
        let name = m.method.to_string();
        let kind = self.f.types.kind(rt);
        if name == "len"
            && m.args.is_empty()
            && !matches!(kind, Kind::Float | Kind::Int | Kind::Bool)
        {
            // `W.len()` of an array or a `const` array (a `zip`'s end, as `hvp`'s tangent
            // program prints it).
            let usize_ty = self
                .f
                .types
                .fresh(TyVal::Int(Ident::new("usize", Span::call_site())));
            return (
                Pure::Method(Box::new(recv), m.method.clone(), Vec::new()),
                usize_ty,
            );
        }
        let bool_method = is_bool_method(&name);
        let int_method = is_int_method(&name);
        let float_method = rules::lookup(&name).is_some();
        self.float_by_method(rt, &name);
        let kind = self.f.types.kind(rt);
        let ok = bool_method
            || (kind == Kind::Float && float_method)
            || (kind == Kind::Int && int_method)
            || (kind == Kind::Num && int_method);
        if !ok {
            self.error(err(
                &m.method,
                format!("method `{name}` is not supported here"),
            ));
        }
        let mut args = Vec::new();
        for a in &m.args {
            let (p, at) = self.pure(a);
            if name != "powi" && name != "pow" {
                self.f.types.unify(rt, at);
            }
            args.push(p);
        }
        let ty = if bool_method {
            self.f.types.fresh(TyVal::Bool)
        } else {
            rt
        };
        (Pure::Method(Box::new(recv), m.method.clone(), args), ty)
    }

    /// `if` inside a condition (`if (if y > 0.5 { 1.0 } else { x }) < y`): the forward sweep
    /// evaluates it as written; the reverse sweep reads the branch taken.
    fn pure_if(&mut self, ifx: &syn::ExprIf) -> (Pure, TyId) {
        let Some((_, els)) = &ifx.else_branch else {
            self.error(err(ifx, "an `if` used as a value needs an `else` branch"));
            return self.pure_dummy();
        };
        let cond = self.cond(&ifx.cond);
        let (then, tt) = self.pure_block(&ifx.then_branch);
        let (els, et) = self.pure(els);
        self.f.types.unify(tt, et);
        (Pure::If(Box::new(cond), Box::new(then), Box::new(els)), tt)
    }

    /// `matches!(value, pattern)` (what a `match` arm becomes): a pattern of integers, bools
    /// and fieldless enum variants, which binds nothing; of a tuple written out, the condition
    /// it stands for element by element.
    fn pure_matches(&mut self, m: &syn::ExprMacro) -> (Pure, TyId) {
        let bool_ty = self.f.types.fresh(TyVal::Bool);
        let (e, pat) = match super::matches::matches_args(m) {
            Some(Ok(p)) => p,
            _ => {
                self.error(err(
                    m,
                    "write `matches!(value, pattern)` (a guard `if ..` is not supported)",
                ));
                return (Pure::Lit(quote!(false)), bool_ty);
            }
        };
        match super::matches::tuple_matches(&e, &pat) {
            Some(Ok(cond)) => return self.pure(&cond),
            Some(Err(e)) => {
                self.error(e);
                return (Pure::Lit(quote!(false)), bool_ty);
            }
            None => {}
        }
        if let Some(bad) = super::matches::binding_in(&pat) {
            self.error(err(bad, super::matches::UNSUPPORTED_PATTERN));
        }
        let (a, _) = self.pure(&e);
        (Pure::Matches(Box::new(a), pat.to_token_stream()), bool_ty)
    }

    /// A block of a value without derivative: one expression, as in `{ x * 2.0 }`.
    fn pure_block(&mut self, b: &syn::Block) -> (Pure, TyId) {
        match b.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => self.pure(e),
            _ => {
                self.error(err(
                    b,
                    "where an integer or a `bool` is computed (a condition, an index), a block must be a single expression, as in `{ i * n + j }`, and so must a closure's body called there (with arguments it can read in place: names, fields, elements, literals, or one its parameter reads once); compute the value with `let` before",
                ));
                self.pure_dummy()
            }
        }
    }
}
