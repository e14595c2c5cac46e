//! Float expressions (lowered to operands and temporaries), call arguments, methods, and the
//! kind of a value as syntax tells it.

use proc_macro2::{Ident, Span};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;

use super::pure::is_bool_method;
use super::signature::scalar_ty;
use super::{Lower, Mode, err, is_compound, is_screaming, unsupported};
use crate::ir::*;
use crate::rules::{self, ArgKind};

/// The kind of a value made of two parts (`a * b`, the branches of an `if`): a constant of
/// unknown kind takes the other part's; a part whose kind syntax does not tell leaves it unknown.
fn either_kind(a: Option<Kind>, b: Option<Kind>) -> Option<Kind> {
    match (a, b) {
        (Some(Kind::Num), Some(Kind::Num)) => Some(Kind::Num),
        (Some(Kind::Num), k) | (k, Some(Kind::Num)) => k,
        (Some(k), _) | (None, Some(k)) => Some(k),
        (None, None) => None,
    }
}

/// The float operator of a binary expression.
fn arith(op: &syn::BinOp) -> Option<BinOp> {
    Some(match op {
        syn::BinOp::Add(_) => BinOp::Add,
        syn::BinOp::Sub(_) => BinOp::Sub,
        syn::BinOp::Mul(_) => BinOp::Mul,
        syn::BinOp::Div(_) => BinOp::Div,
        _ => return None,
    })
}

impl Lower {
    /// Defines a temporary as `rhs`.
    pub(super) fn def_temp(&mut self, out: &mut Block, rhs: Rhs, ty: TyId) -> Operand {
        let t = self.temp(ty);
        let id = self.def_id();
        out.stmts.push(Stmt::Def {
            id,
            target: Target::Temp(t),
            place: Vec::new(),
            rhs,
            is_let: true,
        });
        Operand::Temp(t)
    }

    /// Lowers a float expression to an operand, defining temporaries in `out`.
    pub(super) fn float(&mut self, e: &syn::Expr, out: &mut Block) -> Operand {
        use syn::Expr;
        if self.vec_whole(e) {
            return self.dummy();
        }
        match e {
            Expr::Paren(p) => self.float(&p.expr, out),
            Expr::Group(g) => self.float(&g.expr, out),
            Expr::Lit(l) => self.float_lit(l),
            Expr::Path(p) => self.float_path(e, p),
            Expr::Index(_) | Expr::Field(_) => match self.place(e) {
                Some((_, proj)) if self.sub_slice_value(e, &proj) => self.dummy(),
                Some((var, proj)) => self.var_operand(var, proj, false),
                None if super::tuples::call_field(e).is_some() => {
                    let (c, shape) = super::tuples::call_field(e).unwrap();
                    self.tuple_call(c, &shape, out)
                        .pop()
                        .unwrap_or_else(|| self.dummy())
                }
                None => self.not_a_place(e, out),
            },
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.place(e).is_some() => {
                let (var, proj) = self.place(e).unwrap();
                self.var_operand(var, proj, false)
            }
            Expr::Array(a) => self.float_array(a, out),
            Expr::Repeat(r) => self.float_repeat(r, out),
            Expr::Unary(u) => self.float_unary(u, out),
            Expr::Binary(b) => self.float_binary(b, out),
            Expr::MethodCall(m) if super::reductions::is_reduction(m) => self.reduction(m, out),
            Expr::MethodCall(m) => self.method(m, out),
            Expr::Cast(c) => self.float_cast(c, out),
            Expr::Call(c) => self.call(c, out),
            Expr::If(ifx) => self.value_if(ifx, 1, false, out).remove(0),
            Expr::Block(b) if b.label.is_none() => {
                let blk = self.scoped(&b.block.stmts, Mode::Value { k: 1, tuple: false }, b.span());
                out.stmts.extend(blk.stmts);
                blk.tail.into_iter().next().unwrap_or_else(|| self.dummy())
            }
            Expr::Return(r) => {
                self.error(err(
                    r,
                    "`return` inside an expression is not supported; use it as a statement, as in `if x < 0.0 { return y; }`",
                ));
                self.dummy()
            }
            // `&x[a..b]` as a value (a branch's, a block's): the sub-slice's own error, once.
            Expr::Reference(r) if matches!(&*r.expr, Expr::Index(ix) if matches!(&*ix.index, Expr::Range(_))) =>
            {
                if let Some((_, proj)) = self.place(&r.expr) {
                    self.sub_slice_value(e, &proj);
                }
                self.dummy()
            }
            _ => {
                self.error(err(e, unsupported(e)));
                self.dummy()
            }
        }
    }

    /// A float literal, typed by its suffix.
    fn float_lit(&mut self, l: &syn::ExprLit) -> Operand {
        match &l.lit {
            syn::Lit::Float(f) => {
                let tv = match f.suffix() {
                    "f32" => TyVal::F32,
                    "f64" => TyVal::F64,
                    _ => TyVal::Unknown(Kind::Float),
                };
                let ty = self.f.types.fresh(tv);
                Operand::Const {
                    tokens: f.to_token_stream(),
                    ty,
                }
            }
            syn::Lit::Int(i) => {
                self.error(err(
                    i,
                    format!(
                        "integer literal `{i}` where a float is expected; write `{}.0`",
                        i.base10_digits()
                    ),
                ));
                self.dummy()
            }
            _ => {
                self.error(err(l, "expected a float here"));
                self.dummy()
            }
        }
    }

    /// A variable (`x`, or an element name of `a.iter()`) or a constant (`PI`, `f64::consts::E`).
    fn float_path(&mut self, e: &syn::Expr, p: &syn::ExprPath) -> Operand {
        if let Some(id) = p.path.get_ident()
            && let Some((var, proj)) = self.place(e)
        {
            if self.sub_slice_value(e, &proj) {
                return self.dummy();
            }
            let op = self.var_operand(var, proj, false);
            if matches!(
                self.f.types.kind(self.f.operand_ty(&op)),
                Kind::Int | Kind::Bool
            ) {
                self.error(err(
                    p,
                    format!("`{id}` is not a float; convert it with `{id} as f64` (or `as f32`)"),
                ));
            }
            return op;
        }
        match self.const_path(p) {
            Some(ty) => Operand::Const {
                tokens: p.to_token_stream(),
                ty,
            },
            None => self.dummy(),
        }
    }

    /// `[a, b, c]`: one element type.
    fn float_array(&mut self, a: &syn::ExprArray, out: &mut Block) -> Operand {
        let elems: Vec<Operand> = a.elems.iter().map(|x| self.float(x, out)).collect();
        let ety = self.f.types.fresh(TyVal::Unknown(Kind::Float));
        for o in &elems {
            let t = self.f.operand_ty(o);
            self.f.types.unify(ety, t);
        }
        let n = proc_macro2::Literal::usize_unsuffixed(elems.len());
        let ty = self.f.types.fresh(TyVal::Array(ety, quote!(#n)));
        self.def_temp(out, Rhs::Array(elems), ty)
    }

    /// `[0.0; N]`: a constant array (its element carries no derivative).
    fn float_repeat(&mut self, r: &syn::ExprRepeat, out: &mut Block) -> Operand {
        let (elem, ety) = match self.kind_of(&r.expr) {
            Some(Kind::Array) => match self.float(&r.expr, out) {
                Operand::Const { tokens, ty } => (tokens, ty),
                _ => {
                    self.error(err(
                        &r.expr,
                        "fill an array with a constant, as in `[0.0; N]`",
                    ));
                    return self.dummy();
                }
            },
            _ => {
                let (p, t) = self.pure(&r.expr);
                let Pure::Lit(tokens) = p else {
                    self.error(err(
                        &r.expr,
                        "fill an array with a constant, as in `[0.0; N]`, then assign its elements",
                    ));
                    return self.dummy();
                };
                (tokens, t)
            }
        };
        let len = &r.len;
        let ty = self.f.types.fresh(TyVal::Array(ety, quote!(#len)));
        Operand::Const {
            tokens: quote!([#elem; #len]),
            ty,
        }
    }

    /// `-x` (a negative literal stays a constant); other unary operators are errors.
    fn float_unary(&mut self, u: &syn::ExprUnary, out: &mut Block) -> Operand {
        match u.op {
            syn::UnOp::Neg(_) => {
                if let syn::Expr::Lit(l) = &*u.expr
                    && let syn::Lit::Float(_) = l.lit
                {
                    let Operand::Const { tokens, ty } = self.float(&u.expr, out) else {
                        unreachable!()
                    };
                    return Operand::Const {
                        tokens: quote!((-#tokens)),
                        ty,
                    };
                }
                let a = self.float(&u.expr, out);
                let ty = self.f.operand_ty(&a);
                self.def_temp(out, Rhs::Neg(a), ty)
            }
            syn::UnOp::Deref(_) => {
                // `*x.iter().max_by(..).unwrap()`: the reduction is the mistake to name.
                if let syn::Expr::MethodCall(m) = &*u.expr
                    && self.reported_option_reduction(m)
                {
                    return self.dummy();
                }
                self.error(err(u, "dereferencing with `*` is not supported; take the value itself, as in `x: f64`"));
                self.dummy()
            }
            _ => {
                self.error(err(u, "only unary `-` applies to floats"));
                self.dummy()
            }
        }
    }

    /// `a + b`, `a - b`, `a * b`, `a / b`: both sides of one float type.
    fn float_binary(&mut self, b: &syn::ExprBinary, out: &mut Block) -> Operand {
        let Some(op) = arith(&b.op) else {
            let msg = if is_compound(&b.op).is_some() {
                "assignments are statements here; write them on their own line".to_string()
            } else {
                format!(
                    "operator `{}` does not give a float; use `+ - * /` on floats",
                    b.op.to_token_stream()
                )
            };
            self.error(err(b.op, msg));
            return self.dummy();
        };
        let l = self.float(&b.left, out);
        let r = self.float(&b.right, out);
        let (lt, rt) = (self.f.operand_ty(&l), self.f.operand_ty(&r));
        self.f.types.unify(lt, rt);
        self.def_temp(out, Rhs::Bin(op, l, r), lt)
    }

    /// `x as f32`: a float converted (with a derivative), or an integer or constant (without).
    fn float_cast(&mut self, c: &syn::ExprCast, out: &mut Block) -> Operand {
        let Some(tv @ (TyVal::F32 | TyVal::F64)) = scalar_ty(&c.ty) else {
            self.error(err(&c.ty, "expected a cast to `f32` or `f64` here"));
            return self.dummy();
        };
        let ty = self.f.types.fresh(tv);
        if self.kind_of(&c.expr).unwrap_or(Kind::Float) == Kind::Float {
            let a = self.float(&c.expr, out);
            if let Operand::Var { proj, read, ty, .. } = &a
                && proj.iter().any(|p| matches!(p, Proj::Field(_)))
            {
                self.cast_fields.push((*read, *ty));
            }
            self.def_temp(out, Rhs::Cast(a), ty)
        } else {
            let kind = self.kind_of(&c.expr).unwrap_or(Kind::Float);
            let (p, _) = self.pure_constant(&c.expr, kind);
            self.def_temp(
                out,
                Rhs::Pure(Pure::Cast(Box::new(p), c.ty.to_token_stream())),
                ty,
            )
        }
    }

    /// `g(x, &a)`: a call of a `#[differentiable]` function by a plain path.
    fn call(&mut self, c: &syn::ExprCall, out: &mut Block) -> Operand {
        let syn::Expr::Path(p) = &*c.func else {
            self.error(err(&c.func, super::CALL_BY_NAME));
            return self.dummy();
        };
        if let Some(o) = self.float_fn(c, p, out) {
            return o;
        }
        if !self.callee_path(p) {
            return self.dummy();
        }
        let args: Vec<Operand> = c.args.iter().map(|a| self.operand(a, out)).collect();
        self.slice_passed_twice(c, &args);
        let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
        self.pass_on(&p.path, &args);
        if !args.iter().any(|a| self.f.unseen_arg(a)) {
            let arg_tys = args.iter().map(|a| self.f.operand_ty(a)).collect();
            self.call_sigs.insert(ty, (p.path.clone(), arg_tys));
        }
        self.def_temp(
            out,
            Rhs::Call {
                path: p.path.clone(),
                args,
                span: c.span(),
                tuple: None,
            },
            ty,
        )
    }

    /// `let (a, b) = g(x, &v);`, `g(..).1`: a call whose result is a tuple, one temporary per
    /// element `shape` binds (a float unless what binds it says otherwise), each an
    /// [`Rhs::Elem`] of the call, in the pattern's order.
    pub(super) fn tuple_call(
        &mut self,
        c: &syn::ExprCall,
        shape: &super::tuples::PatShape,
        out: &mut Block,
    ) -> Vec<Operand> {
        let leaves = shape.leaves();
        let syn::Expr::Path(p) = &*c.func else {
            self.error(err(&c.func, super::CALL_BY_NAME));
            return (0..leaves).map(|_| self.dummy()).collect();
        };
        if !self.callee_path(p) {
            return (0..leaves).map(|_| self.dummy()).collect();
        }
        let args: Vec<Operand> = c.args.iter().map(|a| self.operand(a, out)).collect();
        self.slice_passed_twice(c, &args);
        self.pass_on(&p.path, &args);
        // A struct's cotangent is named through the contract, from the argument types.
        if matches!(shape, super::tuples::PatShape::Struct(_))
            && let Some(a) = (c.args.iter().zip(&args)).find(|(_, a)| self.f.unseen_arg(a))
        {
            let callee = crate::names::user_text(&quote::ToTokens::to_token_stream(&p.path));
            self.error(err(
                a.0,
                format!(
                    "`{callee}` returns a struct, whose type the macro names from the types of the call's arguments, and this one is a `const` item or a struct field declared elsewhere: pass it through a local with its type, as in `let a: [f64; N] = ..;`"
                ),
            ));
        }
        // The whole tuple: never read, never printed with a type.
        let whole = self.f.types.fresh(TyVal::Unknown(Kind::Float));
        let call = Target::Temp(self.temp(whole));
        let id = self.def_id();
        let tuple = self.tuple_shape(shape);
        let elems = crate::walk::tuple_targets(&tuple);
        // The tuple's own elements, which `analysis::name_tuple_elems` may name through the
        // callee's contract: not for a call that names its constants (`g::<N>(..)`) or passes an
        // array or a struct whose type the macro cannot see (a float read from a struct's field
        // takes any type in the contract).
        let named = (p.path.segments.last()).is_some_and(|s| !s.arguments.is_empty());
        let unseen = |a: &Operand| {
            self.f.unseen_arg(a) && self.f.types.kind(self.f.operand_ty(a)) != Kind::Float
        };
        if !named && !args.iter().any(unseen) {
            let arg_tys: Vec<TyId> = args.iter().map(|a| self.f.operand_ty(a)).collect();
            for (at, t) in &elems {
                if let ([syn::Member::Unnamed(k)], Target::Temp(t), Target::Temp(c)) =
                    (&at[..], t, call)
                {
                    let ty = self.f.temps[*t].ty;
                    let k = k.index as usize;
                    (self.f.tuple_elems).push((ty, c, p.path.clone(), arg_tys.clone(), k));
                }
            }
        } else {
            for (_, t) in &elems {
                if let Target::Temp(t) = t {
                    self.f.blind_elems.push(self.f.temps[*t].ty);
                }
            }
        }
        out.stmts.push(Stmt::Def {
            id,
            target: call,
            place: Vec::new(),
            rhs: Rhs::Call {
                path: p.path.clone(),
                args,
                span: c.span(),
                tuple: Some(Box::new(tuple)),
            },
            is_let: true,
        });
        let mut ops = Vec::new();
        for (path, t) in elems {
            let eid = self.def_id();
            out.stmts.push(Stmt::Def {
                id: eid,
                target: t,
                place: Vec::new(),
                rhs: Rhs::Elem { call, path },
                is_let: true,
            });
            if let Target::Temp(t) = t {
                ops.push(Operand::Temp(t));
            }
        }
        ops
    }

    /// A temporary for every leaf of a pattern's shape.
    fn tuple_shape(&mut self, shape: &super::tuples::PatShape) -> TupleShape {
        use super::tuples::PatShape;
        match shape {
            PatShape::Tuple(items) => {
                TupleShape::Tuple(items.iter().map(|s| self.tuple_shape(s)).collect())
            }
            PatShape::Leaf => {
                let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                TupleShape::Elem(Target::Temp(self.temp(ty)))
            }
            PatShape::Skip(t) => TupleShape::Skip(*t),
            PatShape::Field(k, inner) => TupleShape::Field(*k, Box::new(self.tuple_shape(inner))),
            PatShape::Fields(items) => TupleShape::Fields(
                (items.iter())
                    .map(|(k, s)| (*k, self.tuple_shape(s)))
                    .collect(),
            ),
            PatShape::Struct(items) => TupleShape::Struct(
                (items.iter())
                    .map(|(k, s)| (k.clone(), self.tuple_shape(s)))
                    .collect(),
            ),
        }
    }

    /// Whether `p` names a function a `#[differentiable]` function can call (an error if not).
    fn callee_path(&mut self, p: &syn::ExprPath) -> bool {
        if p.qself.is_none() && p.path.is_ident(&self.fn_name) {
            self.error(err(
                p,
                format!(
                    "`{0}` calls itself: a `#[differentiable]` function's tape holds its callees' tapes, so a recursive one would hold itself; write the recursion as a loop, or as one function per size (`{0}_3` calling `{0}_2`)",
                    self.fn_name
                ),
            ));
            return false;
        }
        let n = p.path.segments.len();
        // `Model::run(m, x)`: a method (or associated function) named by its type's path.
        if n >= 2
            && p.qself.is_none()
            && (p.path.segments[n - 2].ident.to_string())
                .starts_with(|c: char| c.is_ascii_uppercase())
        {
            let ty = &p.path.segments[n - 2].ident;
            let name = &p.path.segments[n - 1].ident;
            let msg = if ty == "Self" {
                format!(
                    "`Self::{name}` is an associated function without `self`, which a `#[differentiable] impl` does not differentiate; take `&self` (and call `self.{name}(..)`), or write `{name}` as a free `#[differentiable]` function"
                )
            } else {
                format!(
                    "`{ty}::{name}` is called through its type: a `#[differentiable]` function calls other functions by name or module path (`g(x)`, `module::g(x)`), and the methods of its own `#[differentiable] impl` as `self.{name}(..)` or `Self::{name}(self, ..)`; write `{name}` as a free `#[differentiable]` function that takes the struct by reference, or make this function a method of the same impl"
                )
            };
            self.error(err(p, msg));
            return false;
        }
        if p.qself.is_some()
            || p.path
                .segments
                .iter()
                .take(n - 1)
                .any(|s| !s.arguments.is_none())
        {
            self.error(err(p, "call a `#[differentiable]` function by a plain path, as in `g(x)`, `module::g(x)` or `dot::<N>(&a, &b)`"));
            return false;
        }
        true
    }

    /// `f64::max(x, 0.0)`, `f32::sqrt(x)`: a float method called by its path, lowered as the
    /// method form `x.max(0.0)` with the receiver of the named type.
    fn float_fn(
        &mut self,
        c: &syn::ExprCall,
        p: &syn::ExprPath,
        out: &mut Block,
    ) -> Option<Operand> {
        let segments: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let [ty, name] = segments[..] else {
            return None;
        };
        let tv = match scalar_ty(&syn::parse_quote!(#ty)) {
            Some(tv @ (TyVal::F64 | TyVal::F32)) if p.qself.is_none() => tv,
            _ => return None,
        };
        let mut args = c.args.iter().cloned();
        let Some(receiver) = args.next() else {
            self.error(err(
                c,
                format!(
                    "`{}` takes the value as its first argument",
                    p.to_token_stream()
                ),
            ));
            return Some(self.dummy());
        };
        let m = syn::ExprMethodCall {
            attrs: Vec::new(),
            receiver: Box::new(syn::parse_quote!((#receiver))),
            dot_token: Default::default(),
            method: name.ident.clone(),
            turbofish: None,
            paren_token: c.paren_token,
            args: args.collect(),
        };
        let o = self.method(&m, out);
        let float = self.f.types.fresh(tv);
        let ot = self.f.operand_ty(&o);
        self.f.types.unify(ot, float);
        Some(o)
    }

    /// An argument of a call or an integer argument of a method: float or not.
    fn operand(&mut self, e: &syn::Expr, out: &mut Block) -> Operand {
        if self.vec_whole(e) {
            return self.dummy();
        }
        if let syn::Expr::Reference(r) = e {
            if r.mutability.is_some() {
                self.error(err(r, "pass arrays and structs by shared reference (`&a`); the adjoint writes the derivatives"));
            }
            return match self.place_or_const(&r.expr) {
                Some((var, proj)) => {
                    self.untyped_call_result(var, &proj, "an array or a struct");
                    self.var_operand(var, proj, true)
                }
                None => {
                    self.error_unless_group(&r.expr, err(r, "pass a reference to a local, a parameter or a place in one, as in `&a` or `&p.w`"));
                    self.dummy()
                }
            };
        }
        // An argument of unknown kind (a `const` declared elsewhere) is taken for a float: a
        // callee's parameters are floats, arrays and structs, or integers it never
        // differentiates; an integer constant there fails to compile, never silently.
        if matches!(self.kind_of(e), None | Some(Kind::Float | Kind::Num)) {
            let o = self.float(e, out);
            let ty = self.f.operand_ty(&o);
            if self.f.types.kind(ty) == Kind::Num {
                let float = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                self.f.types.unify(ty, float);
            }
            return o;
        }
        if let Some((var, proj)) = self.place(e) {
            return self.var_operand(var, proj, self.names_reference(e));
        }
        let (p, ty) = self.pure(e);
        if let Pure::Lit(tokens) = &p {
            return Operand::Const {
                tokens: tokens.clone(),
                ty,
            };
        }
        self.def_temp(out, Rhs::Pure(p), ty)
    }

    /// A float method (`x.sin()`, `x.powi(2)`), by its rule in `rules`.
    fn method(&mut self, m: &syn::ExprMethodCall, out: &mut Block) -> Operand {
        let name = m.method.to_string();
        if let Some((v, proj)) = self.place(&m.receiver)
            && proj.is_empty()
            && self.f.types.kind(self.f.vars[v].ty) == Kind::Struct
        {
            self.error(err(
                &m.method,
                format!(
                    "methods of user types cannot be differentiated; write `{name}` as a `#[differentiable]` function that takes the struct, as in `{name}({})`",
                    self.f.vars[v].name
                ),
            ));
            return self.dummy();
        }
        let is_array = (self.place(&m.receiver))
            .is_some_and(|(v, proj)| self.f.types.kind(self.f.place_ty(v, &proj)) == Kind::Array);
        if is_array && rules::lookup(&name).is_none() {
            let msg = match name.as_str() {
                "map" => super::array_fns::NOT_HERE.to_string(),
                _ => format!(
                    "method `{name}` is not supported on arrays: write a loop, as in `let mut out = [0.0; N]; for i in 0..N {{ out[i] = .. }}`"
                ),
            };
            self.error(err(&m.method, msg));
            return self.dummy();
        }
        let Some(spec) = rules::lookup(&name) else {
            if name == "sin_cos" {
                self.error(err(&m.method, super::patterns::SIN_COS));
                return self.dummy();
            }
            if self.reported_option_reduction(m) {
                return self.dummy();
            }
            self.error(err(
                &m.method,
                format!(
                    "method `{name}` is not supported on floats; supported methods: {}. For anything else, write a `#[differentiable]` function or supply its adjoint by hand",
                    rules::method_names()
                ),
            ));
            return self.dummy();
        };
        if let Some(t) = &m.turbofish {
            self.error(err(t, "remove the turbofish"));
        }
        if m.args.len() != spec.args.len() {
            self.error(err(
                m,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    spec.args.len(),
                    m.args.len()
                ),
            ));
            return self.dummy();
        }
        let recv = self.float(&m.receiver, out);
        let ty = self.f.operand_ty(&recv);
        self.float_by_method(ty, &name);
        let mut args = Vec::new();
        for (a, kind) in m.args.iter().zip(spec.args) {
            match kind {
                ArgKind::Float => {
                    let o = self.float(a, out);
                    let at = self.f.operand_ty(&o);
                    self.f.types.unify(ty, at);
                    args.push(o);
                }
                ArgKind::Int => {
                    let o = self.operand(a, out);
                    let at = self.f.operand_ty(&o);
                    let i32_ty = self
                        .f
                        .types
                        .fresh(TyVal::Int(Ident::new("i32", Span::call_site())));
                    self.f.types.unify(at, i32_ty);
                    args.push(o);
                }
            }
        }
        self.def_temp(
            out,
            Rhs::Method {
                method: spec,
                recv,
                args,
                span: m.method.span(),
            },
            ty,
        )
    }

    /// What kind of value an expression has, where it can be told from syntax.
    pub(super) fn kind_of(&self, e: &syn::Expr) -> Option<Kind> {
        use syn::Expr;
        match e {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Float(_) => Some(Kind::Float),
                syn::Lit::Int(_) => Some(Kind::Int),
                syn::Lit::Bool(_) => Some(Kind::Bool),
                _ => None,
            },
            Expr::Path(p) => {
                if let Some(id) = p.path.get_ident()
                    && let Some(b) = self.binding(&id.to_string())
                {
                    return Some(self.f.types.kind(b.ty(&self.f)));
                }
                if p.path
                    .segments
                    .iter()
                    .any(|s| s.ident == "f32" || s.ident == "f64")
                {
                    return Some(Kind::Float);
                }
                let last = p.path.segments.last()?.ident.to_string();
                let generic = p
                    .path
                    .get_ident()
                    .is_some_and(|id| self.f.generics.iter().any(|(g, _)| g == id));
                if generic {
                    return Some(Kind::Int);
                }
                is_screaming(&last).then_some(Kind::Num)
            }
            Expr::Paren(p) => self.kind_of(&p.expr),
            Expr::Group(g) => self.kind_of(&g.expr),
            Expr::Unary(u) => self.kind_of(&u.expr),
            Expr::Array(_) | Expr::Repeat(_) => Some(Kind::Array),
            Expr::Reference(r) => self.kind_of(&r.expr),
            Expr::Index(ix) => {
                let mut depth = 1;
                let mut base = &*ix.expr;
                while let Expr::Index(inner) = base {
                    depth += 1;
                    base = &inner.expr;
                }
                let Expr::Path(p) = base else { return None };
                let id = p.path.get_ident()?;
                let mut ty = self.binding(&id.to_string())?.ty(&self.f);
                for _ in 0..depth {
                    ty = self.f.types.elem(ty)?;
                }
                Some(self.f.types.kind(ty))
            }
            Expr::Field(_) => None,
            Expr::Binary(b) => match b.op {
                syn::BinOp::Eq(_)
                | syn::BinOp::Ne(_)
                | syn::BinOp::Lt(_)
                | syn::BinOp::Le(_)
                | syn::BinOp::Gt(_)
                | syn::BinOp::Ge(_)
                | syn::BinOp::And(_)
                | syn::BinOp::Or(_) => Some(Kind::Bool),
                // A constant of unknown kind takes the other side's; with a side whose kind is
                // not known from syntax, nothing is known.
                _ => either_kind(self.kind_of(&b.left), self.kind_of(&b.right)),
            },
            Expr::MethodCall(m) => match m.method.to_string().as_str() {
                name if is_bool_method(name) => Some(Kind::Bool),
                // An array's or a slice's length.
                "len" if m.args.is_empty() => Some(Kind::Int),
                name => match self.kind_of(&m.receiver) {
                    Some(Kind::Int) => Some(Kind::Int),
                    Some(Kind::Num) if rules::lookup(name).is_none() => Some(Kind::Num),
                    _ => Some(Kind::Float),
                },
            },
            Expr::Cast(c) => scalar_ty(&c.ty).map(|t| t.kind()),
            Expr::Call(_) => Some(Kind::Float),
            // Both branches: `if c { K } else { x }` is a float when `x` is one.
            Expr::If(i) => {
                let then = self.block_kind(&i.then_branch);
                match &i.else_branch {
                    Some((_, e)) => either_kind(then, self.kind_of(e)),
                    None => then,
                }
            }
            Expr::Block(b) => self.block_kind(&b.block),
            _ => None,
        }
    }

    /// A variable that holds a constant of unknown kind (`let mut v = K;`) and is assigned
    /// `rhs`: a float unless `rhs` is an integer or another such constant.
    pub(super) fn decide_num(&mut self, ty: TyId, rhs: &syn::Expr) {
        if self.f.types.kind(ty) != Kind::Num {
            return;
        }
        if !matches!(self.kind_of(rhs), Some(Kind::Int | Kind::Bool | Kind::Num)) {
            let float = self.f.types.fresh(TyVal::Unknown(Kind::Float));
            self.f.types.unify(ty, float);
        }
    }

    /// The kind of a block's value. Its tail may name the block's own locals, which are not in
    /// scope yet: a tail that looks like a constant after statements tells nothing.
    fn block_kind(&self, b: &syn::Block) -> Option<Kind> {
        match b.stmts.split_last() {
            Some((syn::Stmt::Expr(e, None), rest)) => match self.kind_of(e) {
                Some(Kind::Num) if !rest.is_empty() => None,
                k => k,
            },
            _ => None,
        }
    }
}
