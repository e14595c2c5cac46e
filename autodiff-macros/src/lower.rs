//! `syn::ItemFn` -> IR. Rejects what is unsupported with an error on the user's span that says
//! what to write instead; keeps going after an error so that every error is reported at once.

use std::collections::HashMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::args::Args;
use crate::ir::*;
use crate::rules::{self, ArgKind};

/// How a statement sequence ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The function's body or a branch of an `if` statement that returns: ends in the return
    /// value, and may `return` early.
    Fn,
    /// A branch of an `if` statement or a block statement: no value.
    Unit,
    /// A block or `if` used as a value with `k` elements (`tuple`: written `(a, b)`).
    Value { k: usize, tuple: bool },
    /// The body of a `for` loop: no value; `break` and `continue` allowed.
    Loop,
}

/// What a name in scope stands for.
#[derive(Clone)]
enum Binding {
    Var(VarId),
    /// `x` bound by `for x in a.iter_mut()`: the place `a[k]`.
    Alias(VarId, Vec<Proj>, TyId),
}

pub struct Lower {
    f: Func,
    scopes: Vec<HashMap<String, Binding>>,
    names: HashMap<String, usize>,
    errors: Vec<syn::Error>,
    n_ifs: usize,
    /// The loops around the statement being lowered, outermost first.
    nest: Vec<usize>,
    /// The ranges of those loops, for bounds that depend on outer loop variables: start, end,
    /// and whether the end is included.
    ranges: HashMap<VarId, (syn::Expr, syn::Expr, bool)>,
    /// The function's name, for messages of generated code.
    fn_name: String,
    /// `max_iters(label = K)` bounds, and whether a loop used each.
    max_iters: Vec<(Ident, syn::Expr, bool)>,
    /// The bounds of the bounded loops being lowered, and their panic messages.
    bounds: Vec<syn::Expr>,
    bound_msgs: Vec<String>,
    /// Lowering a value as a constant because it looked like one (a `const` of unknown kind):
    /// the mutable variables it reads then, whose kind was not known yet. If one turns out a
    /// float that carries a derivative later, the value may not have been constant: an error.
    as_constant: Option<Vec<(VarId, TokenStream)>>,
    undecided: Vec<(VarId, TokenStream)>,
}

/// The statement that marks where a bounded loop checks its bound.
const MAX_ITERS_CHECK: &str = "__stackgrad_max_iters_check";

pub fn lower(item: &syn::ItemFn, args: &Args) -> syn::Result<Func> {
    let mut l = Lower {
        f: Func {
            vars: Vec::new(),
            temps: Vec::new(),
            types: Types::default(),
            body: Block::default(),
            params: Vec::new(),
            param_copies: Vec::new(),
            wrt: Vec::new(),
            ret: Vec::new(),
            ret_tuple: false,
            reads: Vec::new(),
            def_nest: Vec::new(),
            if_nest: Vec::new(),
            loops: Vec::new(),
            generics: Vec::new(),
            consts: Vec::new(),
            n_defs: 0,
            flag_ty: 0,
            usize_ty: 0,
            read_tys: HashMap::new(),
            field_tys: HashMap::new(),
        },
        scopes: vec![HashMap::new()],
        names: HashMap::new(),
        errors: Vec::new(),
        n_ifs: 0,
        nest: Vec::new(),
        ranges: HashMap::new(),
        fn_name: item.sig.ident.to_string(),
        max_iters: args
            .max_iters
            .iter()
            .map(|(l, k)| (l.clone(), k.clone(), false))
            .collect(),
        bounds: Vec::new(),
        bound_msgs: Vec::new(),
        as_constant: None,
        undecided: Vec::new(),
    };
    l.f.flag_ty = l.f.types.fresh(TyVal::Bool);
    l.f.usize_ty =
        l.f.types
            .fresh(TyVal::Int(Ident::new("usize", Span::call_site())));
    l.signature(&item.sig, args);
    let mut body = Block::default();
    for &(param, local) in &l.f.param_copies.clone() {
        let op = l.var_operand(param, Vec::new(), false);
        let id = l.def_id();
        body.stmts.push(Stmt::Def {
            id,
            target: Target::Var(local),
            place: Vec::new(),
            rhs: Rhs::Copy(op),
            is_let: true,
        });
    }
    l.scopes.push(HashMap::new());
    l.seq(
        &item.block.stmts,
        &[],
        &mut body,
        Mode::Fn,
        item.block.span(),
    );
    for (label, _, used) in &l.max_iters {
        if !used {
            l.errors.push(err(
                label,
                format!("no `while` or `loop` is labelled `'{label}` in this function"),
            ));
        }
    }
    let ret = l.f.ret.clone();
    for (o, t) in body.tail.iter().zip(ret) {
        let ty = l.f.operand_ty(o);
        l.f.types.unify(ty, t);
    }
    l.f.body = body;
    default_call_types(&mut l.f);
    default_field_types(&mut l.f);
    for (v, at) in std::mem::take(&mut l.undecided) {
        if l.f.types.kind(l.f.vars[v].ty) == Kind::Float {
            let name = &l.f.vars[v].name;
            l.errors.push(err(
                at,
                format!(
                    "cannot tell whether `{name}` is a float here: it starts as a `const` whose type this function does not show and becomes a float later; give it a type where it is declared, as in `let mut {name}: f64 = ..`"
                ),
            ));
        }
    }
    let mut errors = l.errors.into_iter();
    match errors.next() {
        None => Ok(l.f),
        Some(mut first) => {
            for e in errors {
                first.combine(e);
            }
            Err(first)
        }
    }
}

/// Types the floats of calls that inference left open. The macro cannot see a callee's
/// signature, so where a call's float arguments and result are partly typed (`h(1.5, x)` with
/// `x: f32`, `h(h(x, x), x)`), the open ones take the one float type the others agree on: a
/// callee's parameters and result are of one float type unless its signature mixes them, and
/// then a wrong guess fails to compile (Rust has no implicit float conversion), never silently.
/// What stays open is typed by rustc where the code allows (`let` bindings), `f64` otherwise.
fn default_call_types(f: &mut Func) {
    fn calls(b: &Block, f: &Func, out: &mut Vec<Vec<TyId>>) {
        for s in &b.stmts {
            match s {
                Stmt::Def {
                    target,
                    place,
                    rhs: Rhs::Call { args, .. },
                    ..
                } => {
                    let out_ty = match target {
                        Target::Var(v) => f.place_ty(*v, place),
                        t => f.target_ty(*t),
                    };
                    let tys = args
                        .iter()
                        .map(|a| f.operand_ty(a))
                        .chain([out_ty])
                        .filter(|&t| {
                            matches!(f.types.kind(t), Kind::Float | Kind::Array | Kind::Num)
                        })
                        .map(|t| f.types.leaf(t))
                        .filter(|&t| matches!(f.types.kind(t), Kind::Float | Kind::Num))
                        .collect();
                    out.push(tys);
                }
                Stmt::If { then, els, .. } => {
                    calls(then, f, out);
                    calls(els, f, out);
                }
                Stmt::For { body, .. } => calls(body, f, out),
                _ => {}
            }
        }
    }
    let mut all = Vec::new();
    calls(&f.body, f, &mut all);
    loop {
        let mut changed = false;
        for tys in &all {
            let known: Vec<TyId> = tys.iter().copied().filter(|&t| f.types.known(t)).collect();
            let Some(&first) = known.first() else {
                continue;
            };
            let one = known.iter().all(|&t| {
                std::mem::discriminant(f.types.get(t)) == std::mem::discriminant(f.types.get(first))
            });
            if !one {
                continue;
            }
            for &t in tys {
                if !f.types.known(t) {
                    f.types.unify(first, t);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Types the struct fields that inference left open. The macro does not see a struct's
/// declaration; in a function whose float parameters and result are all of one float type, its
/// structs' open fields are taken to be of that type too (`(p.b as f64).exp() as f32` in f32
/// code). A wrong guess fails to compile, never silently.
fn default_field_types(f: &mut Func) {
    let floats: Vec<TyId> = f
        .params
        .iter()
        .map(|&v| f.vars[v].ty)
        .chain(f.ret.iter().copied())
        .filter(|&t| matches!(f.types.kind(t), Kind::Float | Kind::Array))
        .map(|t| f.types.leaf(t))
        .filter(|&t| f.types.kind(t) == Kind::Float && f.types.known(t))
        .collect();
    let Some(&first) = floats.first() else {
        return;
    };
    let same = |t: TyId| std::mem::discriminant(f.types.get(t));
    if floats.iter().any(|&t| same(t) != same(first)) {
        return;
    }
    let fields: Vec<TyId> = f.field_tys.values().map(|&t| f.types.leaf(t)).collect();
    for t in fields {
        if f.types.kind(t) == Kind::Float && !f.types.known(t) {
            f.types.unify(first, t);
        }
    }
}

fn err(node: impl ToTokens, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new_spanned(node, msg)
}

/// Parses a scalar type the macro knows.
fn scalar_ty(ty: &syn::Type) -> Option<TyVal> {
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

/// A compile-time bound: a number, or an expression of constants plus a known offset (so that
/// `N - 1 + 1` is `N`, which stable Rust accepts as an array length where `N` is generic).
#[derive(Clone)]
struct Bound {
    num: Option<i128>,
    expr: TokenStream,
    /// Added to `expr`.
    off: i128,
    /// The expression involves a const generic parameter in arithmetic: not usable as an array
    /// length on stable Rust.
    generic_expr: bool,
    /// The expression is a const generic parameter (plus `off`).
    generic: bool,
}

impl Bound {
    fn num(n: i128) -> Self {
        Bound {
            num: Some(n),
            expr: TokenStream::new(),
            off: 0,
            generic_expr: false,
            generic: false,
        }
    }

    fn sym(expr: TokenStream, generic: bool) -> Self {
        Bound {
            num: None,
            expr,
            off: 0,
            generic_expr: false,
            generic,
        }
    }

    /// Is this an expression stable Rust rejects as an array length (`N + 1` with `N` generic)?
    fn is_generic_expr(&self) -> bool {
        self.generic_expr || (self.generic && self.off > 0)
    }

    /// The bound as an array length. A generic parameter less a constant is bounded by the
    /// parameter itself (`N - 1 <= N`), which stable Rust accepts where `N - 1` is not.
    fn tokens(&self) -> TokenStream {
        match self.num {
            Some(n) => {
                let n = proc_macro2::Literal::usize_unsuffixed(n.max(0) as usize);
                quote!(#n)
            }
            None => {
                let e = &self.expr;
                let k = proc_macro2::Literal::usize_unsuffixed(self.off.unsigned_abs() as usize);
                match self.off {
                    0 => e.clone(),
                    o if o < 0 && self.generic => e.clone(),
                    o if o < 0 => quote!((#e - #k)),
                    _ => quote!((#e + #k)),
                }
            }
        }
    }

    fn combine(&self, other: &Bound, op: TokenStream, f: impl Fn(i128, i128) -> i128) -> Bound {
        if let (Some(a), Some(b)) = (self.num, other.num) {
            return Bound::num(f(a, b));
        }
        let (a, b) = (self.tokens(), other.tokens());
        Bound {
            num: None,
            expr: quote!((#a #op #b)),
            off: 0,
            generic_expr: self.generic
                || other.generic
                || self.is_generic_expr()
                || other.is_generic_expr(),
            generic: false,
        }
    }

    fn plus(&self, o: &Bound) -> Bound {
        match o.num {
            Some(k) => self.add(k),
            None if self.num.is_some() => o.plus(self),
            None => self.combine(o, quote!(+), |a, b| a + b),
        }
    }

    fn times(&self, o: &Bound) -> Bound {
        self.combine(o, quote!(*), |a, b| a * b)
    }

    fn add(&self, k: i128) -> Bound {
        match self.num {
            Some(n) => Bound::num(n + k),
            None => Bound {
                off: self.off + k,
                ..self.clone()
            },
        }
    }

    fn sub(&self, k: i128) -> Bound {
        self.add(-k)
    }

    fn div_ceil(&self, k: &Bound) -> Bound {
        if let (Some(a), Some(b)) = (self.num, k.num)
            && b > 0
        {
            return Bound::num((a + b - 1) / b);
        }
        if self.generic && k.num.is_some() {
            // Conservative: one slot per value of the range.
            return self.clone();
        }
        let (a, b) = (self.tokens(), k.tokens());
        Bound {
            num: None,
            expr: quote!(::core::primitive::usize::div_ceil(#a, #b)),
            off: 0,
            generic_expr: self.generic
                || k.generic
                || self.is_generic_expr()
                || k.is_generic_expr(),
            generic: false,
        }
    }
}

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

/// The name a loop pattern binds: `x` or `&x`.
fn pat_name(p: &syn::Pat) -> Option<Ident> {
    match p {
        syn::Pat::Ident(pi) if pi.subpat.is_none() => Some(pi.ident.clone()),
        syn::Pat::Reference(r) => pat_name(&r.pat),
        _ => None,
    }
}

fn is_screaming(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Does the expression or block contain a `return` (outside closures)?
fn has_return(node: &impl ToTokens) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_expr_return(&mut self, _: &'a syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    }
    let mut v = V(false);
    if let Ok(e) = syn::parse2::<syn::Expr>(node.to_token_stream()) {
        v.visit_expr(&e);
    }
    v.0
}

/// Does the `if` contain a `break` or `continue` of the enclosing loop (not of a loop inside it)?
fn has_jump(ifx: &syn::ExprIf) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_expr_break(&mut self, _: &'a syn::ExprBreak) {
            self.0 = true;
        }
        fn visit_expr_continue(&mut self, _: &'a syn::ExprContinue) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_for_loop(&mut self, _: &'a syn::ExprForLoop) {}
        fn visit_expr_while(&mut self, _: &'a syn::ExprWhile) {}
        fn visit_expr_loop(&mut self, _: &'a syn::ExprLoop) {}
    }
    let mut v = V(false);
    v.visit_expr_if(ifx);
    v.0
}

fn is_unit_expr(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Assign(_) => true,
        syn::Expr::Binary(b) => is_compound(&b.op).is_some(),
        syn::Expr::If(i) => i.else_branch.is_none(),
        syn::Expr::While(_) | syn::Expr::Loop(_) | syn::Expr::ForLoop(_) => true,
        _ => false,
    }
}

fn is_compound(op: &syn::BinOp) -> Option<BinOp> {
    Some(match op {
        syn::BinOp::AddAssign(_) => BinOp::Add,
        syn::BinOp::SubAssign(_) => BinOp::Sub,
        syn::BinOp::MulAssign(_) => BinOp::Mul,
        syn::BinOp::DivAssign(_) => BinOp::Div,
        _ => return None,
    })
}

fn arith(op: &syn::BinOp) -> Option<BinOp> {
    Some(match op {
        syn::BinOp::Add(_) => BinOp::Add,
        syn::BinOp::Sub(_) => BinOp::Sub,
        syn::BinOp::Mul(_) => BinOp::Mul,
        syn::BinOp::Div(_) => BinOp::Div,
        _ => return None,
    })
}

/// Why an expression is not supported, and what to write instead.
fn unsupported(e: &syn::Expr) -> String {
    use syn::Expr::*;
    match e {
        Closure(_) => "closures are not supported in a differentiable function; write the closure's body inline, or make it a `#[differentiable]` function and call it".into(),
        While(_) => "`while` loops are not supported: the tape needs a fixed size known at compile time; write a `for` loop with a constant bound, as in `for i in 0..N`, with `break` for an early exit".into(),
        Loop(_) => "`loop` is not supported: the tape needs a fixed size known at compile time; write a `for` loop with a constant bound, as in `for i in 0..N`, with `break` for an early exit".into(),
        ForLoop(_) => "this `for` loop is not supported here".into(),
        Match(_) => "`match` is not supported; write an `if` / `else if` / `else` chain".into(),
        Macro(m) => format!(
            "macro `{}!` is not supported in a differentiable function: the macro cannot see through it; write the computation out, or move it into a function and supply its adjoint",
            m.mac.path.to_token_stream()
        ),
        Index(_) => "index a local array, an array parameter or a field of a struct parameter".into(),
        Field(f) if matches!(f.member, syn::Member::Unnamed(_)) => {
            "tuple fields are not supported; return or bind each value on its own".into()
        }
        Field(_) => "read fields of a struct parameter taken by reference (`p: &Params`, then `p.w[i]`)".into(),
        Reference(_) => "references are only supported as arguments of calls, as in `dot::<N>(&a, &b)`".into(),
        Unsafe(_) => "`unsafe` blocks are not supported in a differentiable function".into(),
        Tuple(_) => "a tuple is only supported as the function's return value, as in `(a, b)`".into(),
        Array(_) | Repeat(_) => "bind the array with `let` first, as in `let h = [0.0; N];`".into(),
        Struct(_) => "struct literals are not supported in a differentiable function; take the struct as a parameter".into(),
        Range(_) => "ranges are only supported as the iterator of a `for` loop".into(),
        Let(_) => "`if let` is not supported; compare values with `==`, `<`, ... instead".into(),
        Break(_) | Continue(_) => "`break` and `continue` are supported in a loop's body and in `if` statements there".into(),
        Async(_) | Await(_) => "`async` is not supported in a differentiable function".into(),
        Try(_) => "the `?` operator is not supported in a differentiable function".into(),
        _ => format!(
            "`{}` is not supported in a differentiable function; use arithmetic (`+ - * /`), float methods, `if`/`else`, `for` loops and calls to `#[differentiable]` functions",
            crate::names::text(&e.to_token_stream())
        ),
    }
}

impl Lower {
    fn error(&mut self, e: syn::Error) {
        self.errors.push(e);
    }

    fn if_id(&mut self) -> usize {
        self.f.if_nest.push(self.nest.clone());
        self.n_ifs += 1;
        self.n_ifs - 1
    }

    fn def_id(&mut self) -> usize {
        self.f.def_nest.push(self.nest.clone());
        self.f.n_defs += 1;
        self.f.n_defs - 1
    }

    fn read(&mut self, var: VarId) -> ReadId {
        self.f.reads.push((var, self.nest.clone()));
        self.f.reads.len() - 1
    }

    /// A read of `var` (or of a place in it) as an operand.
    fn var_operand(&mut self, var: VarId, proj: Vec<Proj>, borrow: bool) -> Operand {
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

    /// The type of a place: array elements follow the array's type; struct fields get one type
    /// variable per path, inferred from their uses.
    fn place_ty(&mut self, var: VarId, proj: &[Proj]) -> TyId {
        let mut ty = self.f.vars[var].ty;
        for (n, p) in proj.iter().enumerate() {
            ty = match (p, self.f.types.elem(ty)) {
                (Proj::Deref, _) => ty,
                (Proj::Index(_), Some(e)) => e,
                _ => {
                    let key = (var, place_path(&proj[..=n]));
                    match self.f.field_tys.get(&key) {
                        Some(&t) => t,
                        None => {
                            let t = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                            self.f.field_tys.insert(key, t);
                            t
                        }
                    }
                }
            };
        }
        ty
    }

    fn temp(&mut self, ty: TyId) -> TempId {
        self.f.temps.push(Temp { ty });
        self.f.temps.len() - 1
    }

    fn dummy(&mut self) -> Operand {
        let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
        Operand::Const {
            tokens: quote!(0.0),
            ty,
        }
    }

    /// Declares the names a rejected pattern binds, so that their uses report nothing more.
    fn poison(&mut self, pat: &syn::Pat) {
        struct Names(Vec<Ident>);
        impl<'a> Visit<'a> for Names {
            fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
                self.0.push(p.ident.clone());
            }
        }
        let mut names = Names(Vec::new());
        names.visit_pat(pat);
        for n in names.0 {
            let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
            self.declare(&n, false, ty, None);
        }
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        match self.binding(name)? {
            Binding::Var(v) => Some(v),
            Binding::Alias(..) => None,
        }
    }

    fn binding(&self, name: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    /// Declares a variable in the innermost scope, with a unique name for generated code.
    fn declare(&mut self, name: &Ident, mutable: bool, ty: TyId, param: Option<usize>) -> VarId {
        self.declare_var(name, mutable, ty, param, false, false)
    }

    fn declare_var(
        &mut self,
        name: &Ident,
        mutable: bool,
        ty: TyId,
        param: Option<usize>,
        by_ref: bool,
        loop_var: bool,
    ) -> VarId {
        let key = name.to_string();
        let n = self.names.entry(key.clone()).or_insert(0);
        let emit = if *n == 0 {
            name.clone()
        } else {
            format_ident!("{}_{}", key, *n, span = Span::mixed_site())
        };
        *n += 1;
        self.f.vars.push(Var {
            name: name.clone(),
            emit,
            mutable,
            ty,
            param,
            by_ref,
            loop_var,
            recompute: false,
        });
        let id = self.f.vars.len() - 1;
        self.scopes
            .last_mut()
            .unwrap()
            .insert(key, Binding::Var(id));
        id
    }

    fn signature(&mut self, sig: &syn::Signature, args: &Args) {
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
        for g in &sig.generics.params {
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
        if let Some(w) = &sig.generics.where_clause {
            self.error(err(w, "`where` clauses are not supported"));
        }
        for input in &sig.inputs {
            let pt = match input {
                syn::FnArg::Receiver(r) => {
                    self.error(err(
                        r,
                        "methods cannot be differentiable; write a free function that takes the value as a parameter",
                    ));
                    continue;
                }
                syn::FnArg::Typed(pt) => pt,
            };
            let syn::Pat::Ident(pi) = &*pt.pat else {
                self.error(err(
                    &pt.pat,
                    "patterns in parameters are not supported; name the parameter, as in `x: f64`",
                ));
                continue;
            };
            if pi.by_ref.is_some() || pi.subpat.is_some() {
                self.error(err(pi, "write the parameter as `name: type`"));
                continue;
            }
            let (inner, by_ref) = match &*pt.ty {
                syn::Type::Reference(r) if r.mutability.is_none() && r.lifetime.is_none() => {
                    (&*r.elem, true)
                }
                t => (t, false),
            };
            let parsed = match self.parse_ty(inner) {
                Some(ty)
                    if by_ref && !matches!(self.f.types.kind(ty), Kind::Array | Kind::Struct) =>
                {
                    None
                }
                Some(ty) if !by_ref && self.f.types.kind(ty) == Kind::Struct => {
                    self.error(err(
                        &pt.ty,
                        format!(
                            "take the struct by reference: `{}: &{}`",
                            pi.ident,
                            crate::names::text(&inner.to_token_stream())
                        ),
                    ));
                    Some(ty)
                }
                other => other,
            };
            let Some(ty) = parsed else {
                let is_vec = matches!(inner, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Vec"));
                let msg = match &*pt.ty {
                    _ if is_vec => "`Vec` is not supported: the tape needs sizes known at compile time; take an array, as in `x: &[f64; N]`".to_string(),
                    syn::Type::Slice(_) | syn::Type::Reference(_) if matches!(inner, syn::Type::Slice(_)) => {
                        "slices are not supported: the tape needs sizes known at compile time; take an array, as in `x: &[f64; N]`".to_string()
                    }
                    _ => format!(
                        "parameter type `{}` is not supported; use `f32` or `f64`, arrays of them (`[f64; N]`, `&[[f32; N]; M]`), a struct by reference (`&Params`), integers or `bool`",
                        crate::names::text(&pt.ty.to_token_stream())
                    ),
                };
                self.error(err(&pt.ty, msg));
                let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                self.declare(&pi.ident, false, ty, None);
                continue;
            };
            let index = self.f.params.len();
            let var = self.declare_var(&pi.ident, false, ty, Some(index), by_ref, false);
            self.f.params.push(var);
            if pi.mutability.is_some() {
                let local = self.declare(&pi.ident, true, ty, None);
                self.f.param_copies.push((var, local));
            }
        }
        match &sig.output {
            syn::ReturnType::Default => self.error(err(
                sig,
                "a differentiable function must return `f32`, `f64` or a tuple of them, as in `-> f64`",
            )),
            syn::ReturnType::Type(_, ty) => {
                let elems: Vec<&syn::Type> = match &**ty {
                    syn::Type::Tuple(t) => {
                        self.f.ret_tuple = true;
                        t.elems.iter().collect()
                    }
                    other => vec![other],
                };
                for t in elems {
                    match self.parse_ty(t) {
                        Some(id) if self.f.types.differentiable(id) && self.f.types.kind(id) != Kind::Struct => {
                            self.f.ret.push(id);
                        }
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
        }
        let is_float = |l: &Self, i: usize| l.f.types.differentiable(l.f.vars[l.f.params[i]].ty);
        match &args.wrt {
            None => {
                self.f.wrt = (0..self.f.params.len())
                    .filter(|&i| is_float(self, i))
                    .collect();
            }
            Some(names) => {
                for name in names {
                    let found = (0..self.f.params.len())
                        .find(|&i| self.f.vars[self.f.params[i]].name == *name);
                    match found {
                        None => self.error(err(
                            name,
                            format!("`{name}` is not a parameter of this function; `wrt(..)` lists parameters to differentiate"),
                        )),
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
        }
    }

    /// Parses a type the macro knows: scalars, arrays of any depth, and user structs.
    fn parse_ty(&mut self, ty: &syn::Type) -> Option<TyId> {
        match ty {
            syn::Type::Array(a) => {
                let e = self.parse_ty(&a.elem)?;
                Some(self.f.types.fresh(TyVal::Array(e, a.len.to_token_stream())))
            }
            syn::Type::Paren(p) => self.parse_ty(&p.elem),
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

    /// Lowers `stmts` into a new block, in a scope of their own.
    fn scoped(&mut self, stmts: &[syn::Stmt], mode: Mode, span: Span) -> Block {
        self.scopes.push(HashMap::new());
        let mut block = Block::default();
        self.seq(stmts, &[], &mut block, mode, span);
        self.scopes.pop();
        block
    }

    /// Lowers a statement sequence; `conts` are the statements that follow it in enclosing
    /// blocks (an `if` statement with a `return` in a branch pulls them into its branches, so
    /// every path ends in the function's value).
    fn seq(
        &mut self,
        stmts: &[syn::Stmt],
        conts: &[&[syn::Stmt]],
        out: &mut Block,
        mode: Mode,
        span: Span,
    ) {
        for (i, s) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            match s {
                syn::Stmt::Local(local) => self.local(local, out),
                syn::Stmt::Item(item) => self.error(err(
                    item,
                    "items inside a differentiable function are not supported; move them outside the function",
                )),
                syn::Stmt::Macro(m) if m.mac.path.is_ident(MAX_ITERS_CHECK) => self.max_iters_check(out),
                syn::Stmt::Macro(m) => self.error(err(
                    m,
                    format!(
                        "macro `{}!` is not supported in a differentiable function: the macro cannot see through it; write the computation out",
                        m.mac.path.to_token_stream()
                    ),
                )),
                syn::Stmt::Expr(e, semi) => {
                    let rest = &stmts[i + 1..];
                    let mut conts2 = vec![rest];
                    conts2.extend_from_slice(conts);
                    match (e, mode) {
                        (syn::Expr::Return(r), Mode::Fn) => {
                            match &r.expr {
                                Some(v) => out.tail = self.value(v, self.ret_shape(), out),
                                None => self.error(err(r, "`return` needs a value")),
                            }
                            return;
                        }
                        (syn::Expr::Return(r), Mode::Loop) => {
                            self.error(err(
                                r,
                                "`return` inside a loop is not supported; `break` out of the loop and return after it",
                            ));
                            return;
                        }
                        (syn::Expr::Break(b), Mode::Loop) => {
                            let own = self.nest.last().and_then(|&l| self.f.loops[l].label.clone());
                            let outer = b.label.as_ref().is_some_and(|l| Some(l.ident.to_string()) != own);
                            if outer || b.expr.is_some() {
                                self.error(err(
                                    b,
                                    "only a plain `break` of the innermost loop is supported, without value",
                                ));
                            }
                            if let Some(&l) = self.nest.last() {
                                self.f.loops[l].breaks = true;
                            }
                            out.stmts.push(Stmt::Break);
                            return;
                        }
                        (syn::Expr::Continue(c), Mode::Loop) => {
                            if c.label.is_some() {
                                self.error(err(c, "only a plain `continue` is supported, without label"));
                            }
                            out.stmts.push(Stmt::Continue);
                            return;
                        }
                        (syn::Expr::Break(_) | syn::Expr::Continue(_), _) => {
                            self.error(err(
                                e,
                                "`break` and `continue` are supported in a loop's body and in the branches of `if` statements there, not inside a block or `if` used as a value",
                            ));
                            return;
                        }
                        (syn::Expr::Return(r), _) => {
                            self.error(err(
                                r,
                                "`return` is only supported in the function's body and in the branches of `if` statements there, not inside a loop, a block or an `if` used as a value; in a loop, `break` out of it and return after it",
                            ));
                            return;
                        }
                        // An `if` that leaves the sequence (`return` in the body, `break` or
                        // `continue` in a loop) takes the rest of the sequence into its branches;
                        // so does a block that may contain one.
                        (syn::Expr::If(ifx), Mode::Fn | Mode::Loop)
                            if (mode == Mode::Fn && has_return(ifx)) || (mode == Mode::Loop && has_jump(ifx)) =>
                        {
                            self.returning_if(ifx, &conts2, out, mode);
                            return;
                        }
                        (syn::Expr::Block(b), Mode::Fn | Mode::Loop) if b.label.is_none() => {
                            self.scopes.push(HashMap::new());
                            self.seq(&b.block.stmts, &conts2, out, mode, b.span());
                            return;
                        }
                        _ => {}
                    }
                    let value_end = last && semi.is_none() && !is_unit_expr(e);
                    match mode {
                        Mode::Fn if value_end && conts.iter().all(|c| c.is_empty()) => {
                            out.tail = self.value(e, self.ret_shape(), out);
                            return;
                        }
                        Mode::Value { k, tuple } if value_end => {
                            out.tail = self.value(e, (k, tuple), out);
                            return;
                        }
                        _ => self.stmt_expr(e, out),
                    }
                }
            }
        }
        match (mode, conts.split_first()) {
            (Mode::Fn, Some((next, rest))) => {
                self.scopes.pop();
                self.seq(next, rest, out, Mode::Fn, span);
            }
            (Mode::Loop, Some((next, rest))) => {
                self.scopes.pop();
                self.seq(next, rest, out, Mode::Loop, span);
            }
            (Mode::Fn, _) if self.f.ret.is_empty() => {}
            (Mode::Fn | Mode::Value { .. }, _) => self.error(syn::Error::new(
                span,
                "this block does not end in a value; end it with the value, as in `x * y`",
            )),
            (Mode::Unit | Mode::Loop, _) => {}
        }
    }

    fn ret_shape(&self) -> (usize, bool) {
        (self.f.ret.len(), self.f.ret_tuple)
    }

    /// `if c { ..; return a; } rest`: each branch continues with `rest`.
    fn returning_if(
        &mut self,
        ifx: &syn::ExprIf,
        conts: &[&[syn::Stmt]],
        out: &mut Block,
        mode: Mode,
    ) {
        let id = self.if_id();
        let cond = self.cond(&ifx.cond);
        let saved = self.scopes.clone();
        let mut then = Block::default();
        self.scopes.push(HashMap::new());
        self.seq(
            &ifx.then_branch.stmts,
            conts,
            &mut then,
            mode,
            ifx.then_branch.span(),
        );
        self.scopes = saved.clone();
        let mut els = Block::default();
        self.scopes.push(HashMap::new());
        match ifx.else_branch.as_ref().map(|(_, e)| &**e) {
            None => self.seq(&[], conts, &mut els, mode, ifx.span()),
            Some(syn::Expr::Block(b)) => self.seq(&b.block.stmts, conts, &mut els, mode, b.span()),
            Some(e) => {
                let stmt = syn::Stmt::Expr(e.clone(), None);
                self.seq(std::slice::from_ref(&stmt), conts, &mut els, mode, e.span())
            }
        }
        self.scopes = saved;
        if mode == Mode::Loop {
            out.stmts.push(Stmt::If {
                id,
                cond,
                then,
                els,
                results: Vec::new(),
                is_let: false,
            });
            return;
        }
        let results = self.if_results(&then, &els, self.f.ret.len());
        out.tail = results.iter().map(|t| Operand::Temp(*t)).collect();
        out.stmts.push(Stmt::If {
            id,
            cond,
            then,
            els,
            results: results.into_iter().map(Target::Temp).collect(),
            is_let: true,
        });
    }

    fn if_results(&mut self, then: &Block, els: &Block, k: usize) -> Vec<TempId> {
        (0..k)
            .map(|i| {
                let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                for b in [then, els] {
                    if let Some(o) = b.tail.get(i) {
                        let t = self.f.operand_ty(o);
                        self.f.types.unify(ty, t);
                    }
                }
                self.temp(ty)
            })
            .collect()
    }

    fn cond(&mut self, e: &syn::Expr) -> Pure {
        let (p, ty) = self.pure(e);
        if self.f.types.kind(ty) != Kind::Bool {
            self.error(err(e, "a condition must be a `bool`, as in `x > 0.0`"));
        }
        p
    }

    fn local(&mut self, local: &syn::Local, out: &mut Block) {
        let (pat, ann) = match &local.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        let syn::Pat::Ident(pi) = pat else {
            let msg = match pat {
                syn::Pat::Tuple(_) => {
                    "destructuring `let` is not supported; bind each value with its own `let`"
                }
                syn::Pat::Wild(_) => "`let _ = ..` discards the value; remove the statement",
                _ => "this pattern is not supported; bind a name, as in `let y = ..;`",
            };
            self.error(err(pat, msg));
            self.poison(pat);
            return;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            self.error(err(pi, "bind a plain name, as in `let y = ..;`"));
            return;
        }
        let Some(init) = &local.init else {
            self.error(err(
                local,
                format!(
                    "`let {};` without a value is not supported; write `let {} = ..;`",
                    pi.ident, pi.ident
                ),
            ));
            return;
        };
        if let Some((_, d)) = &init.diverge {
            self.error(err(d, "`let .. else` is not supported"));
            return;
        }
        let ann_ty = match ann {
            None => None,
            Some(t) => match self.parse_ty(t) {
                Some(ty) if self.f.types.kind(ty) != Kind::Struct => Some(ty),
                _ => {
                    self.error(err(
                        t,
                        format!("type `{}` is not supported here; use `f32`, `f64`, an array, an integer or `bool`", crate::names::text(&t.to_token_stream())),
                    ));
                    self.poison(pat);
                    return;
                }
            },
        };
        let kind = match ann_ty {
            Some(t) => self.f.types.kind(t),
            None => self.kind_of(&init.expr).unwrap_or(Kind::Float),
        };
        let mutable = pi.mutability.is_some();
        if matches!(kind, Kind::Float | Kind::Array) {
            let op = self.float(&init.expr, out);
            let ty = self.f.operand_ty(&op);
            let var = self.declare(&pi.ident, mutable, ty, None);
            if let Some(a) = ann_ty {
                self.f.types.unify(ty, a);
            }
            self.bind(out, op, Target::Var(var), Vec::new(), true);
            if local.attrs.iter().any(|a| a.path().is_ident("recompute")) {
                if mutable {
                    self.error(err(
                        pi,
                        "`#[recompute]` applies to an immutable `let`: its value is computed once, so the reverse sweep can compute it again",
                    ));
                }
                self.f.vars[var].recompute = true;
            }
        } else {
            let (p, ty) = self.pure_constant(&init.expr, kind);
            if let Some(a) = ann_ty {
                self.f.types.unify(ty, a);
            }
            let var = self.declare(&pi.ident, mutable, ty, None);
            let id = self.def_id();
            out.stmts.push(Stmt::Def {
                id,
                target: Target::Var(var),
                place: Vec::new(),
                rhs: Rhs::Pure(p),
                is_let: true,
            });
        }
    }

    /// Makes `target` hold `op`: renames the definition that produced a temporary, or copies.
    fn bind(
        &mut self,
        out: &mut Block,
        op: Operand,
        target: Target,
        place: Vec<Proj>,
        is_let: bool,
    ) {
        let ty = self.f.operand_ty(&op);
        let tt = match target {
            Target::Var(v) => self.place_ty(v, &place),
            t => self.f.target_ty(t),
        };
        self.f.types.unify(ty, tt);
        if let Operand::Temp(t) = op {
            match out.stmts.last_mut() {
                Some(Stmt::Def {
                    target: tg @ Target::Temp(_),
                    place: pl,
                    is_let: l,
                    ..
                }) if *tg == Target::Temp(t) => {
                    *tg = target;
                    *pl = place;
                    *l = is_let;
                    return;
                }
                Some(Stmt::If {
                    results, is_let: l, ..
                }) if place.is_empty() && results.as_slice() == [Target::Temp(t)] => {
                    results[0] = target;
                    *l = is_let;
                    return;
                }
                _ => {}
            }
        }
        let id = self.def_id();
        out.stmts.push(Stmt::Def {
            id,
            target,
            place,
            rhs: Rhs::Copy(op),
            is_let,
        });
    }

    /// A place in a local variable: `x`, `a[i][j]`, `p.w[i]`, or `*v` for `v` bound by
    /// `iter_mut()`. `None` (and no error) when `e` is not one.
    fn place(&mut self, e: &syn::Expr) -> Option<(VarId, Vec<Proj>)> {
        match e {
            syn::Expr::Paren(p) => self.place(&p.expr),
            syn::Expr::Group(g) => self.place(&g.expr),
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?;
                match self.binding(&id.to_string())? {
                    Binding::Var(v) => Some((v, Vec::new())),
                    Binding::Alias(v, proj, _) => Some((v, proj)),
                }
            }
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                let syn::Expr::Path(p) = &*u.expr else {
                    return None;
                };
                let id = p.path.get_ident()?;
                match self.binding(&id.to_string())? {
                    Binding::Alias(v, proj, _) => Some((v, proj)),
                    Binding::Var(v) if self.f.vars[v].by_ref => Some((v, vec![Proj::Deref])),
                    Binding::Var(_) => None,
                }
            }
            syn::Expr::Index(ix) => {
                let (v, mut proj) = self.place(&ix.expr)?;
                let base_ty = self.place_ty(v, &proj);
                if !matches!(self.f.types.kind(base_ty), Kind::Array)
                    && !matches!(self.f.types.get(base_ty), TyVal::Unknown(_))
                {
                    self.error(err(
                        &ix.expr,
                        "this is not an array; index only arrays (`[f64; N]`), and annotate a `let` that holds one, as in `let y: [f64; N] = ..`",
                    ));
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
                let (v, mut proj) = self.place(&f.base)?;
                match &f.member {
                    syn::Member::Named(n) => proj.push(Proj::Field(n.clone())),
                    syn::Member::Unnamed(_) => {
                        self.error(err(
                            f,
                            "tuple fields are not supported; use named struct fields",
                        ));
                        return None;
                    }
                }
                Some((v, proj))
            }
            _ => None,
        }
    }

    fn assigned_place(&mut self, left: &syn::Expr) -> Option<(VarId, Vec<Proj>)> {
        match self.place(left) {
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

    fn stmt_expr(&mut self, e: &syn::Expr, out: &mut Block) {
        match e {
            syn::Expr::Paren(p) => self.stmt_expr(&p.expr, out),
            syn::Expr::Assign(a) => {
                let Some((var, place)) = self.assigned_place(&a.left) else {
                    return;
                };
                let ty = self.place_ty(var, &place);
                self.decide_num(ty, &a.right);
                if matches!(
                    self.f.types.kind(ty),
                    Kind::Float | Kind::Array | Kind::Struct
                ) {
                    let op = self.float(&a.right, out);
                    self.bind(out, op, Target::Var(var), place, false);
                } else {
                    let (p, pty) = self.pure(&a.right);
                    self.f.types.unify(ty, pty);
                    let id = self.def_id();
                    out.stmts.push(Stmt::Def {
                        id,
                        target: Target::Var(var),
                        place,
                        rhs: Rhs::Pure(p),
                        is_let: false,
                    });
                }
            }
            syn::Expr::Binary(b) if is_compound(&b.op).is_some() => {
                let op = is_compound(&b.op).unwrap();
                let Some((var, place)) = self.assigned_place(&b.left) else {
                    return;
                };
                let ty = self.place_ty(var, &place);
                self.decide_num(ty, &b.right);
                if self.f.types.kind(ty) == Kind::Float {
                    let rhs = self.float(&b.right, out);
                    let old = self.var_operand(var, place.clone(), false);
                    let rty = self.f.operand_ty(&rhs);
                    self.f.types.unify(ty, rty);
                    let id = self.def_id();
                    out.stmts.push(Stmt::Def {
                        id,
                        target: Target::Var(var),
                        place,
                        rhs: Rhs::Bin(op, old, rhs),
                        is_let: false,
                    });
                } else {
                    let (p, rty) = self.pure(&b.right);
                    self.f.types.unify(ty, rty);
                    let sym = op.tokens();
                    let read = self.read(var);
                    let id = self.def_id();
                    out.stmts.push(Stmt::Def {
                        id,
                        target: Target::Var(var),
                        place: place.clone(),
                        rhs: Rhs::Pure(Pure::Bin(
                            sym,
                            Box::new(Pure::Var(var, place, read)),
                            Box::new(p),
                        )),
                        is_let: false,
                    });
                }
            }
            syn::Expr::ForLoop(fl) => self.for_loop(fl, out),
            syn::Expr::While(w) => {
                self.bounded_loop(e, &w.attrs, w.label.as_ref(), Some(&w.cond), &w.body, out)
            }
            syn::Expr::Loop(l) => {
                self.bounded_loop(e, &l.attrs, l.label.as_ref(), None, &l.body, out)
            }
            syn::Expr::If(ifx) => {
                let id = self.if_id();
                let cond = self.cond(&ifx.cond);
                let then = self.scoped(&ifx.then_branch.stmts, Mode::Unit, ifx.span());
                let mut els = Block::default();
                if let Some((_, e)) = &ifx.else_branch {
                    self.scopes.push(HashMap::new());
                    self.stmt_expr(e, &mut els);
                    self.scopes.pop();
                }
                out.stmts.push(Stmt::If {
                    id,
                    cond,
                    then,
                    els,
                    results: Vec::new(),
                    is_let: false,
                });
            }
            syn::Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(HashMap::new());
                self.seq(&b.block.stmts, &[], out, Mode::Unit, b.span());
                self.scopes.pop();
            }
            syn::Expr::Lit(_)
            | syn::Expr::Path(_)
            | syn::Expr::Binary(_)
            | syn::Expr::Unary(_)
            | syn::Expr::MethodCall(_)
            | syn::Expr::Call(_)
            | syn::Expr::Cast(_) => self.error(err(
                e,
                "this statement computes a value and drops it; bind it with `let` or remove it",
            )),
            _ => self.error(err(e, unsupported(e))),
        }
    }

    /// `for i in a..b { .. }` (with `.rev()`, `.step_by(k)`, `..=`) and `for x in a.iter()`
    /// (with `.enumerate()`, `.zip(b.iter())`, `iter_mut()`), all lowered to counted loops.
    fn for_loop(&mut self, fl: &syn::ExprForLoop, out: &mut Block) {
        let label = fl.label.as_ref().map(|l| l.name.ident.to_string());
        // Peel the adapters: `(a..b).step_by(2).rev()` -> base `a..b`, [step_by(2), rev].
        let mut chain: Vec<&syn::ExprMethodCall> = Vec::new();
        let mut base = &*fl.expr;
        loop {
            match base {
                syn::Expr::Paren(p) => base = &p.expr,
                syn::Expr::MethodCall(m) => {
                    chain.push(m);
                    base = &m.receiver;
                }
                _ => break,
            }
        }
        chain.reverse();
        let id = self.f.loops.len();
        let usize_ty = self
            .f
            .types
            .fresh(TyVal::Int(Ident::new("usize", Span::call_site())));
        let mut aliases: Vec<(Ident, VarId, Vec<Proj>)> = Vec::new();
        let (range, trips, var_name, bounds) = if let syn::Expr::Range(r) = base {
            let (Some(start), Some(end)) = (&r.start, &r.end) else {
                self.error(err(r, "a loop range needs both bounds, as in `0..N`"));
                return;
            };
            let mut adapters = Vec::new();
            let mut step = None;
            for m in &chain {
                match (m.method.to_string().as_str(), m.args.len()) {
                    ("rev", 0) => adapters.push(Adapter::Rev),
                    ("step_by", 1) => {
                        let (k, kt) = self.pure(&m.args[0]);
                        self.f.types.unify(kt, usize_ty);
                        step = Some(&m.args[0]);
                        adapters.push(Adapter::StepBy(k));
                    }
                    _ => {
                        self.error(err(
                            &m.method,
                            format!("`.{}()` is not supported on a loop range; use `.rev()` and `.step_by(k)`", m.method),
                        ));
                        return;
                    }
                }
            }
            let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
            let Some(trips) = self.trip_bound(start, end, inclusive, step) else {
                return;
            };
            let (s, st) = self.pure(start);
            let (e, et) = self.pure(end);
            self.f.types.unify(st, et);
            self.f.types.unify(st, usize_ty);
            let name = match &*fl.pat {
                syn::Pat::Ident(pi) if pi.subpat.is_none() => pi.ident.clone(),
                syn::Pat::Wild(_) => Ident::new("_i", Span::mixed_site()),
                p => {
                    self.error(err(
                        p,
                        "bind the loop variable to a name, as in `for i in 0..N`",
                    ));
                    return;
                }
            };
            (
                Range {
                    start: s,
                    end: e,
                    inclusive,
                    adapters,
                },
                trips,
                name,
                Some(((**start).clone(), (**end).clone(), inclusive)),
            )
        } else {
            // `a.iter()`, `a.iter_mut()`, then `.enumerate()` or `.zip(b.iter())`.
            let mut iters = Vec::new();
            let mut enumerate = false;
            let mut first = true;
            for m in &chain {
                let name = m.method.to_string();
                match name.as_str() {
                    "iter" | "iter_mut" if first => iters.push((base, name == "iter_mut")),
                    "enumerate" if !first && !enumerate && iters.len() == 1 => enumerate = true,
                    "zip" if !first && !enumerate && iters.len() == 1 && m.args.len() == 1 => {
                        match &m.args[0] {
                            syn::Expr::MethodCall(z)
                                if z.method == "iter" || z.method == "iter_mut" =>
                            {
                                iters.push((&*z.receiver, z.method == "iter_mut"))
                            }
                            a => {
                                self.error(err(a, "zip with another array's `.iter()`, as in `a.iter().zip(b.iter())`"));
                                return;
                            }
                        }
                    }
                    _ => {
                        self.error(err(
                            &m.method,
                            "supported loops: `for i in a..b` (with `.rev()`, `.step_by(k)`), `for x in a.iter()`, `a.iter().enumerate()`, `a.iter().zip(b.iter())` and `iter_mut()` on local arrays",
                        ));
                        return;
                    }
                }
                first = false;
            }
            if iters.is_empty() {
                self.error(err(
                    &fl.expr,
                    "a loop must run over a range with a constant bound (`0..N`) or an array's `.iter()`: the tape needs a fixed size",
                ));
                return;
            }
            let mut len = None;
            let mut places = Vec::new();
            for (arr, _) in &iters {
                let Some((v, proj)) = self.place(arr) else {
                    self.error(err(arr, "iterate over a local array or an array parameter"));
                    return;
                };
                let ty = self.place_ty(v, &proj);
                match self.f.types.get(ty).clone() {
                    TyVal::Array(_, n) => len = len.or(Some(n)),
                    _ => {
                        self.error(err(
                            arr,
                            "the length of this array is not known here; loop over an index instead, as in `for i in 0..N`",
                        ));
                        return;
                    }
                }
                places.push((v, proj));
            }
            let len = len.unwrap();
            let names: Vec<Ident> = match (&*fl.pat, enumerate, places.len()) {
                (syn::Pat::Tuple(t), true, 1) if t.elems.len() == 2 => {
                    let (Some(i), Some(x)) = (pat_name(&t.elems[0]), pat_name(&t.elems[1])) else {
                        self.error(err(&fl.pat, "write the pattern as `(i, x)`"));
                        return;
                    };
                    vec![i, x]
                }
                (syn::Pat::Tuple(t), false, 2) if t.elems.len() == 2 => {
                    let (Some(x), Some(y)) = (pat_name(&t.elems[0]), pat_name(&t.elems[1])) else {
                        self.error(err(&fl.pat, "write the pattern as `(x, y)`"));
                        return;
                    };
                    let i = Ident::new("i", Span::mixed_site());
                    vec![i, x, y]
                }
                (p, false, 1) => {
                    let Some(x) = pat_name(p) else {
                        self.error(err(
                            p,
                            "bind the element to a name, as in `for x in a.iter()`",
                        ));
                        return;
                    };
                    vec![Ident::new("i", Span::mixed_site()), x]
                }
                (p, ..) => {
                    self.error(err(p, "this pattern does not match the iterator"));
                    return;
                }
            };
            let counter = names[0].clone();
            let zero = syn::parse_quote!(0);
            let (s, st) = self.pure(&zero);
            self.f.types.unify(st, usize_ty);
            let end = Pure::Lit(len.clone());
            for (name, (v, proj)) in names[1..].iter().zip(places) {
                aliases.push((name.clone(), v, proj));
            }
            let len_generic = syn::parse2::<Ident>(len.clone())
                .is_ok_and(|id| self.f.generics.iter().any(|(g, _)| *g == id));
            // The index of `.enumerate()` bounds inner loops like a range's variable.
            let bounds = syn::parse2::<syn::Expr>(len.clone())
                .ok()
                .map(|len| (zero.clone(), len, false));
            (
                Range {
                    start: s,
                    end,
                    inclusive: false,
                    adapters: Vec::new(),
                },
                (len, len_generic),
                counter,
                bounds,
            )
        };
        let (checkpoint, binomial) = self.checkpoint_attr(&fl.attrs);
        let (trips, trips_generic) = trips;
        self.f.loops.push(Loop {
            nest: self.nest.clone(),
            counter: format_ident!("k{}", id, span = Span::mixed_site()),
            trips,
            trips_generic,
            breaks: false,
            label,
            checkpoint,
            binomial,
            carried: Vec::new(),
        });
        let first_var = self.f.vars.len();
        self.scopes.push(HashMap::new());
        let var = self.declare_var(&var_name, false, usize_ty, None, false, true);
        if let Some(b) = bounds {
            self.ranges.insert(var, b);
        }
        for (name, v, mut proj) in aliases {
            let read = self.read(var);
            proj.push(Proj::Index(Pure::Var(var, Vec::new(), read)));
            let ty = self.place_ty(v, &proj);
            self.scopes
                .last_mut()
                .unwrap()
                .insert(name.to_string(), Binding::Alias(v, proj, ty));
        }
        self.nest.push(id);
        let body = self.scoped(&fl.body.stmts, Mode::Loop, fl.body.span());
        self.nest.pop();
        self.scopes.pop();
        if self.f.loops[id].checkpoint.is_some() {
            if self
                .nest
                .iter()
                .any(|&l| self.f.loops[l].checkpoint.is_some())
            {
                self.error(err(
                    fl,
                    "a checkpointed loop inside another is not supported; checkpoint the outer one",
                ));
            }
            let mut used = std::collections::BTreeSet::new();
            crate::walk::referenced(&body, &mut used);
            self.f.loops[id].carried = used
                .into_iter()
                .filter(|&v| {
                    v < first_var && self.f.vars[v].param.is_none() && !self.f.vars[v].loop_var
                })
                .collect();
        }
        out.stmts.push(Stmt::For {
            id,
            var,
            range,
            body,
        });
    }

    /// `#[checkpoint]` or `#[checkpoint(snapshots = S)]` on a `for` loop.
    fn checkpoint_attr(&mut self, attrs: &[syn::Attribute]) -> (Option<Option<TokenStream>>, bool) {
        let Some(a) = attrs.iter().find(|a| a.path().is_ident("checkpoint")) else {
            return (None, false);
        };
        if matches!(a.meta, syn::Meta::Path(_)) {
            return (Some(None), false);
        }
        let parsed = a.parse_args_with(
            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
        );
        let mut snapshots = None;
        let mut binomial = false;
        for m in parsed.iter().flatten() {
            match m {
                syn::Meta::NameValue(nv) if nv.path.is_ident("snapshots") => {
                    snapshots = Some(nv.value.to_token_stream());
                }
                syn::Meta::Path(p) if p.is_ident("binomial") => binomial = true,
                _ => snapshots = None,
            }
        }
        match (parsed.is_ok(), snapshots) {
            (true, Some(s)) => (Some(Some(s)), binomial),
            _ => {
                self.error(err(
                    a,
                    "write `#[checkpoint]`, `#[checkpoint(snapshots = S)]` or `#[checkpoint(snapshots = S, binomial)]`",
                ));
                (None, false)
            }
        }
    }

    /// `'label: while cond { .. }` or `'label: loop { .. }` with `max_iters(label = K)`: a counted
    /// loop of at most `K` iterations that checks `cond` first, records its trip count, and
    /// panics (in debug and release alike) if it would start iteration `K + 1`.
    fn bounded_loop(
        &mut self,
        e: &syn::Expr,
        attrs: &[syn::Attribute],
        label: Option<&syn::Label>,
        cond: Option<&syn::Expr>,
        body: &syn::Block,
        out: &mut Block,
    ) {
        let attr = attrs.iter().find(|a| a.path().is_ident("max_iters"));
        let bound = match attr {
            Some(a) => match a.parse_args::<syn::Expr>() {
                Ok(k) => Some(k),
                Err(_) => {
                    self.error(err(
                        a,
                        "write the bound as `#[max_iters(K)]`, with `K` a literal or a `const`",
                    ));
                    return;
                }
            },
            None => label.and_then(|l| {
                let name = l.name.ident.to_string();
                self.max_iters
                    .iter_mut()
                    .find(|(m, _, _)| *m == name)
                    .map(|b| {
                        b.2 = true;
                        b.1.clone()
                    })
            }),
        };
        let Some(k) = bound else {
            let what = if cond.is_some() {
                "a `while` loop"
            } else {
                "a `loop`"
            };
            let fix = "put `#[max_iters(K)]` on it (at most `K` iterations)";
            self.error(err(
                e,
                format!(
                    "{what} needs a bound: the tape needs a fixed size known at compile time; {fix}, or write a `for` loop with a constant bound and `break`"
                ),
            ));
            return;
        };
        let Some(max) = self.max_of(&k) else {
            self.error(err(
                &k,
                "the bound must be a compile-time constant: a literal or a `const`",
            ));
            return;
        };
        let trips = max.add(1);
        if trips.is_generic_expr() {
            self.error(err(&k, "the bound cannot be a const generic parameter (stable Rust cannot size the tape with `K + 1`)"));
            return;
        }
        let id = self.f.loops.len();
        let name = match label {
            Some(l) => format!("'{}", l.name.ident),
            None => format!(
                "`{}`{}",
                if cond.is_some() { "while" } else { "loop" },
                crate::names::line_of(e.span())
            ),
        };
        self.f.loops.push(Loop {
            nest: self.nest.clone(),
            counter: format_ident!("k{}", id, span = Span::mixed_site()),
            trips: trips.tokens(),
            trips_generic: trips.generic,
            breaks: true,
            label: label.map(|l| l.name.ident.to_string()),
            checkpoint: None,
            binomial: false,
            carried: Vec::new(),
        });
        self.bound_msgs.push(format!(
            "{name} in `{}` did not finish within {} iterations: raise its `max_iters`",
            self.fn_name,
            crate::names::text(&k.to_token_stream())
        ));
        self.bounds.push(k.clone());
        self.scopes.push(HashMap::new());
        let it = Ident::new("iteration", Span::mixed_site());
        let var = self.declare_var(&it, false, self.f.usize_ty, None, false, true);
        // Hidden from the user's names: only the bound check reads it.
        let scope = self.scopes.last_mut().unwrap();
        scope.remove("iteration");
        scope.insert("#iteration".into(), Binding::Var(var));
        let check = Ident::new(MAX_ITERS_CHECK, Span::call_site());
        let mut stmts: Vec<syn::Stmt> = Vec::new();
        if let Some(c) = cond {
            stmts.push(syn::parse_quote!(if !(#c) { break; }));
        }
        stmts.push(syn::parse_quote!(#check!();));
        stmts.extend(body.stmts.iter().cloned());
        self.nest.push(id);
        let blk = self.scoped(&stmts, Mode::Loop, body.span());
        self.nest.pop();
        self.scopes.pop();
        let zero = Pure::Lit(quote!(0));
        let end = Pure::Lit(trips.tokens());
        let range = Range {
            start: zero,
            end,
            inclusive: false,
            adapters: Vec::new(),
        };
        self.bound_msgs.pop();
        self.bounds.pop();
        out.stmts.push(Stmt::For {
            id,
            var,
            range,
            body: blk,
        });
    }

    /// `if iteration == K { panic!(..) }` at the top of a bounded loop's body.
    fn max_iters_check(&mut self, out: &mut Block) {
        let (Some(k), Some(msg)) = (self.bounds.last().cloned(), self.bound_msgs.last().cloned())
        else {
            return;
        };
        let Some(it) = self.lookup("#iteration") else {
            return;
        };
        let read = self.read(it);
        let cond = Pure::Bin(
            quote!(==),
            Box::new(Pure::Var(it, Vec::new(), read)),
            Box::new(Pure::Lit(quote!(#k))),
        );
        let id = self.if_id();
        let then = Block {
            stmts: vec![Stmt::Panic(msg)],
            tail: Vec::new(),
        };
        out.stmts.push(Stmt::If {
            id,
            cond,
            then,
            els: Block::default(),
            results: Vec::new(),
            is_let: false,
        });
    }

    /// A compile-time bound on the trip count of `start..end` (stepped by `step`): the length
    /// of the tape arrays recorded in the loop. Bounds may be literals, `const` items, const
    /// generic parameters, and outer loop variables (a triangular loop `for j in 0..i`).
    fn trip_bound(
        &mut self,
        start: &syn::Expr,
        end: &syn::Expr,
        inclusive: bool,
        step: Option<&syn::Expr>,
    ) -> Option<(TokenStream, bool)> {
        let Some(mut hi) = self.max_of(end) else {
            self.error(err(
                end,
                format!(
                    "the loop bound `{}` is not a compile-time constant, and the tape needs a fixed size: use a literal, a `const`, a const generic parameter or an outer loop's variable (a `#[max_iters(..)]` bound for other loops is planned)",
                    crate::names::text(&end.to_token_stream())
                ),
            ));
            return None;
        };
        if inclusive {
            hi = hi.add(1);
        }
        let lo = self.min_of(start);
        let mut span = if lo > 0 { hi.sub(lo) } else { hi };
        if let Some(k) = step {
            match self.max_of(k) {
                Some(k) => span = span.div_ceil(&k),
                None => {
                    self.error(err(k, "the step must be a compile-time constant"));
                    return None;
                }
            }
        }
        if span.is_generic_expr() {
            self.error(err(
                end,
                "this bound would size the tape with an expression of a const generic parameter, which stable Rust does not allow in array lengths; write the loop as `0..N` (or `(0..N).rev()`)",
            ));
            return None;
        }
        Some((span.tokens(), span.generic))
    }

    /// An upper bound on an integer expression, known at compile time.
    fn max_of(&self, e: &syn::Expr) -> Option<Bound> {
        match e {
            syn::Expr::Paren(p) => self.max_of(&p.expr),
            syn::Expr::Group(g) => self.max_of(&g.expr),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => Some(Bound::num(i.base10_parse().ok()?)),
            syn::Expr::Path(p) => {
                let id = p.path.get_ident();
                if let Some(id) = id
                    && let Some(v) = self.lookup(&id.to_string())
                {
                    // The largest value of a loop variable: its range's end, less one when the
                    // end is excluded.
                    let (_, end, inclusive) = self.ranges.get(&v)?;
                    let max = self.max_of(end)?;
                    return Some(if *inclusive { max } else { max.sub(1) });
                }
                let last = p.path.segments.last()?.ident.to_string();
                let generic = id.is_some_and(|id| self.f.generics.iter().any(|(g, _)| g == id));
                (generic || is_screaming(&last)).then(|| Bound::sym(p.to_token_stream(), generic))
            }
            syn::Expr::Binary(b) => {
                let l = self.max_of(&b.left)?;
                match b.op {
                    syn::BinOp::Add(_) => Some(l.plus(&self.max_of(&b.right)?)),
                    // `a - b` with `b >= 0` (usize): at most `a`, less a known `b`.
                    syn::BinOp::Sub(_) => Some(match self.literal(&b.right) {
                        Some(k) => l.sub(k),
                        _ => l,
                    }),
                    syn::BinOp::Mul(_) => Some(l.times(&self.max_of(&b.right)?)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn literal(&self, e: &syn::Expr) -> Option<i128> {
        match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse().ok(),
            syn::Expr::Paren(p) => self.literal(&p.expr),
            _ => None,
        }
    }

    /// A lower bound on a non-negative integer expression (0 when unknown).
    fn min_of(&self, e: &syn::Expr) -> i128 {
        match e {
            syn::Expr::Paren(p) => self.min_of(&p.expr),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse().unwrap_or(0),
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .and_then(|v| self.ranges.get(&v))
                .map(|(start, _, _)| self.min_of(start))
                .unwrap_or(0),
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
                self.min_of(&b.left) + self.min_of(&b.right)
            }
            _ => 0,
        }
    }

    /// Lowers a value of `k` elements: a float, or a tuple written out.
    fn value(&mut self, e: &syn::Expr, (k, tuple): (usize, bool), out: &mut Block) -> Vec<Operand> {
        if !tuple {
            return vec![self.float(e, out)];
        }
        match e {
            syn::Expr::Paren(p) => self.value(&p.expr, (k, tuple), out),
            syn::Expr::Tuple(t) if t.elems.len() == k => {
                t.elems.iter().map(|x| self.float(x, out)).collect()
            }
            syn::Expr::If(ifx) => self.value_if(ifx, k, tuple, out),
            syn::Expr::Block(b) if b.label.is_none() => {
                let blk = self.scoped(&b.block.stmts, Mode::Value { k, tuple }, b.span());
                out.stmts.extend(blk.stmts);
                blk.tail
            }
            _ => {
                self.error(err(
                    e,
                    format!("this function returns a tuple of {k}: end it with a tuple expression such as `(a, b)`"),
                ));
                (0..k).map(|_| self.dummy()).collect()
            }
        }
    }

    fn value_if(
        &mut self,
        ifx: &syn::ExprIf,
        k: usize,
        tuple: bool,
        out: &mut Block,
    ) -> Vec<Operand> {
        let id = self.if_id();
        let cond = self.cond(&ifx.cond);
        let then = self.scoped(
            &ifx.then_branch.stmts,
            Mode::Value { k, tuple },
            ifx.then_branch.span(),
        );
        let mut els = Block::default();
        match ifx.else_branch.as_ref().map(|(_, e)| &**e) {
            None => {
                self.error(err(ifx, "an `if` used as a value needs an `else` branch"));
                els.tail = (0..k).map(|_| self.dummy()).collect();
            }
            Some(e) => {
                self.scopes.push(HashMap::new());
                els.tail = self.value(e, (k, tuple), &mut els);
                self.scopes.pop();
            }
        }
        let results = self.if_results(&then, &els, k);
        out.stmts.push(Stmt::If {
            id,
            cond,
            then,
            els,
            results: results.iter().map(|t| Target::Temp(*t)).collect(),
            is_let: true,
        });
        results.into_iter().map(Operand::Temp).collect()
    }

    fn def_temp(&mut self, out: &mut Block, rhs: Rhs, ty: TyId) -> Operand {
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
    fn const_path(&mut self, p: &syn::ExprPath) -> Option<TyId> {
        let last = p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
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

    /// Lowers a float expression to an operand, defining temporaries in `out`.
    fn float(&mut self, e: &syn::Expr, out: &mut Block) -> Operand {
        use syn::Expr;
        match e {
            Expr::Paren(p) => self.float(&p.expr, out),
            Expr::Group(g) => self.float(&g.expr, out),
            Expr::Lit(l) => match &l.lit {
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
            },
            Expr::Path(p) => {
                if let Some(id) = p.path.get_ident()
                    && let Some((var, proj)) = self.place(e)
                {
                    let op = self.var_operand(var, proj, false);
                    if matches!(
                        self.f.types.kind(self.f.operand_ty(&op)),
                        Kind::Int | Kind::Bool
                    ) {
                        self.error(err(
                            p,
                            format!(
                                "`{id}` is not a float; convert it with `{id} as f64` (or `as f32`)"
                            ),
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
            Expr::Index(_) | Expr::Field(_) => match self.place(e) {
                Some((var, proj)) => self.var_operand(var, proj, false),
                None => {
                    self.error(err(e, "index or field of something that is not a local, a parameter or a loop element"));
                    self.dummy()
                }
            },
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.place(e).is_some() => {
                let (var, proj) = self.place(e).unwrap();
                self.var_operand(var, proj, false)
            }
            Expr::Array(a) => {
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
            Expr::Repeat(r) => {
                // `[0.0; N]`: a constant array (its element carries no derivative).
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
                            self.error(err(&r.expr, "fill an array with a constant, as in `[0.0; N]`, then assign its elements"));
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
            Expr::Unary(u) => match u.op {
                syn::UnOp::Neg(_) => {
                    if let Expr::Lit(l) = &*u.expr
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
                    self.error(err(u, "dereferencing with `*` is not supported; take the value itself, as in `x: f64`"));
                    self.dummy()
                }
                _ => {
                    self.error(err(u, "only unary `-` applies to floats"));
                    self.dummy()
                }
            },
            Expr::Binary(b) => {
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
            Expr::MethodCall(m) => self.method(m, out),
            Expr::Cast(c) => {
                let Some(tv @ (TyVal::F32 | TyVal::F64)) = scalar_ty(&c.ty) else {
                    self.error(err(&c.ty, "expected a cast to `f32` or `f64` here"));
                    return self.dummy();
                };
                let ty = self.f.types.fresh(tv);
                if self.kind_of(&c.expr).unwrap_or(Kind::Float) == Kind::Float {
                    let a = self.float(&c.expr, out);
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
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    self.error(err(
                        &c.func,
                        "call a `#[differentiable]` function by its name or path",
                    ));
                    return self.dummy();
                };
                let n = p.path.segments.len();
                if p.qself.is_some()
                    || p.path
                        .segments
                        .iter()
                        .take(n - 1)
                        .any(|s| !s.arguments.is_none())
                {
                    self.error(err(p, "call a `#[differentiable]` function by a plain path, as in `g(x)`, `module::g(x)` or `dot::<N>(&a, &b)`"));
                    return self.dummy();
                }
                let args = c.args.iter().map(|a| self.operand(a, out)).collect();
                let ty = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                self.def_temp(
                    out,
                    Rhs::Call {
                        path: p.path.clone(),
                        args,
                        span: c.span(),
                    },
                    ty,
                )
            }
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
            _ => {
                self.error(err(e, unsupported(e)));
                self.dummy()
            }
        }
    }

    /// An argument of a call or an integer argument of a method: float or not.
    fn operand(&mut self, e: &syn::Expr, out: &mut Block) -> Operand {
        if let syn::Expr::Reference(r) = e {
            if r.mutability.is_some() {
                self.error(err(r, "pass arrays and structs by shared reference (`&a`); the adjoint writes the derivatives"));
            }
            return match self.place(&r.expr) {
                Some((var, proj)) => self.var_operand(var, proj, true),
                None => {
                    self.error(err(r, "pass a reference to a local, a parameter or a place in one, as in `&a` or `&p.w`"));
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
            return self.var_operand(var, proj, false);
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
        let Some(spec) = rules::lookup(&name) else {
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
    fn kind_of(&self, e: &syn::Expr) -> Option<Kind> {
        use syn::Expr;
        match e {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Float(_) => Some(Kind::Float),
                syn::Lit::Int(_) => Some(Kind::Int),
                syn::Lit::Bool(_) => Some(Kind::Bool),
                _ => None,
            },
            Expr::Path(p) => {
                if let Some(id) = p.path.get_ident() {
                    match self.binding(&id.to_string()) {
                        Some(Binding::Var(v)) => return Some(self.f.types.kind(self.f.vars[v].ty)),
                        Some(Binding::Alias(_, _, ty)) => return Some(self.f.types.kind(ty)),
                        None => {}
                    }
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
                let mut ty = match self.binding(&id.to_string())? {
                    Binding::Var(v) => self.f.vars[v].ty,
                    Binding::Alias(_, _, ty) => ty,
                };
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
                "is_nan" | "is_finite" | "is_infinite" | "is_sign_positive"
                | "is_sign_negative" | "is_positive" | "is_negative" => Some(Kind::Bool),
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
    fn decide_num(&mut self, ty: TyId, rhs: &syn::Expr) {
        if self.f.types.kind(ty) != Kind::Num {
            return;
        }
        if !matches!(self.kind_of(rhs), Some(Kind::Int | Kind::Bool | Kind::Num)) {
            let float = self.f.types.fresh(TyVal::Unknown(Kind::Float));
            self.f.types.unify(ty, float);
        }
    }

    /// [`Lower::pure`] for a value taken for a constant because of its `kind`; with
    /// [`Kind::Num`], reads of mutable variables of unknown kind are remembered (see
    /// `undecided`).
    fn pure_constant(&mut self, e: &syn::Expr, kind: Kind) -> (Pure, TyId) {
        if kind != Kind::Num {
            return self.pure(e);
        }
        let outer = self.as_constant.replace(Vec::new());
        let r = self.pure(e);
        let reads = std::mem::replace(&mut self.as_constant, outer).unwrap_or_default();
        self.undecided.extend(reads);
        r
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

    /// Lowers an expression without derivative (integer, bool, or a float in a condition).
    fn pure(&mut self, e: &syn::Expr) -> (Pure, TyId) {
        use syn::Expr;
        match e {
            Expr::Paren(p) => self.pure(&p.expr),
            Expr::Group(g) => self.pure(&g.expr),
            Expr::Lit(l) => {
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
            Expr::Path(_) | Expr::Index(_) | Expr::Field(_) if self.place(e).is_some() => {
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
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.place(e).is_some() => {
                let (var, proj) = self.place(e).unwrap();
                let ty = self.place_ty(var, &proj);
                let read = self.read(var);
                self.f.read_tys.insert(read, ty);
                (Pure::Var(var, proj, read), ty)
            }
            Expr::Path(p) => {
                match self.const_path(p) {
                    Some(ty) => {
                        // An UPPER_CASE constant declared elsewhere: a float or an integer, as
                        // its use decides (`m > K` makes it a float when `m` is one).
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
            Expr::Unary(u) => {
                let (a, ty) = self.pure(&u.expr);
                (Pure::Unary(u.op.to_token_stream(), Box::new(a)), ty)
            }
            Expr::Binary(b) => {
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
                        lt
                    }
                };
                (Pure::Bin(op, Box::new(l), Box::new(r)), ty)
            }
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
            Expr::MethodCall(m) => {
                let (recv, rt) = self.pure(&m.receiver);
                let name = m.method.to_string();
                let kind = self.f.types.kind(rt);
                let bool_method = matches!(
                    name.as_str(),
                    "is_nan"
                        | "is_finite"
                        | "is_infinite"
                        | "is_sign_positive"
                        | "is_sign_negative"
                        | "is_positive"
                        | "is_negative"
                );
                let int_method = matches!(
                    name.as_str(),
                    "abs" | "pow" | "min" | "max" | "signum" | "rem_euclid" | "div_euclid"
                );
                let float_method = rules::lookup(&name).is_some();
                if kind == Kind::Num && float_method && !int_method {
                    // `K.sin()`: the method makes the constant a float.
                    let float = self.f.types.fresh(TyVal::Unknown(Kind::Float));
                    self.f.types.unify(rt, float);
                }
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
            Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else {
                    self.error(err(&c.func, "call a function by its name or path"));
                    return (
                        Pure::Lit(quote!(0.0)),
                        self.f.types.fresh(TyVal::Unknown(Kind::Float)),
                    );
                };
                let args = c.args.iter().map(|a| self.pure(a).0).collect();
                (
                    Pure::Call(p.path.clone(), args),
                    self.f.types.fresh(TyVal::Unknown(Kind::Float)),
                )
            }
            // `&t` as an argument of a call in a condition: `if g(&t, x) < 0.5`.
            Expr::Reference(r) if r.mutability.is_none() => {
                let (a, ty) = self.pure(&r.expr);
                (Pure::Ref(Box::new(a)), ty)
            }
            // `if` and blocks inside a condition (`if (if y > 0.5 { 1.0 } else { x }) < y`): the
            // forward sweep evaluates them as written; the reverse sweep reads the branch taken.
            Expr::If(ifx) => {
                let Some((_, els)) = &ifx.else_branch else {
                    self.error(err(ifx, "an `if` used as a value needs an `else` branch"));
                    return (
                        Pure::Lit(quote!(false)),
                        self.f.types.fresh(TyVal::Unknown(Kind::Bool)),
                    );
                };
                let cond = self.cond(&ifx.cond);
                let (then, tt) = self.pure_block(&ifx.then_branch);
                let (els, et) = self.pure(els);
                self.f.types.unify(tt, et);
                (Pure::If(Box::new(cond), Box::new(then), Box::new(els)), tt)
            }
            Expr::Block(b) if b.label.is_none() => self.pure_block(&b.block),
            _ => {
                self.error(err(e, unsupported(e)));
                (
                    Pure::Lit(quote!(false)),
                    self.f.types.fresh(TyVal::Unknown(Kind::Bool)),
                )
            }
        }
    }
}

impl Lower {
    /// A block of a value without derivative: one expression, as in `{ x * 2.0 }`.
    fn pure_block(&mut self, b: &syn::Block) -> (Pure, TyId) {
        match b.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => self.pure(e),
            _ => {
                self.error(err(
                    b,
                    "inside a condition, a block must be a single expression, as in `{ x * 2.0 }`; compute the value with `let` before the `if`",
                ));
                (
                    Pure::Lit(quote!(false)),
                    self.f.types.fresh(TyVal::Unknown(Kind::Bool)),
                )
            }
        }
    }
}
