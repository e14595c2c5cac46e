//! `syn::ItemFn` -> IR. Rejects what is unsupported with an error on the user's span that says
//! what to write instead; keeps going after an error so that every error is reported at once.
//!
//! One `impl Lower` per concern: `signature` (parameters, return type, `wrt`), `stmts`
//! (statement sequences, `let`, assignments, `if`), `places` (`a[i]`, `p.w`), `exprs` (float
//! expressions and the kinds of values), `pure` (integer and bool trees, constants), `loops`
//! (`for`, `#[checkpoint]`), `bounded` (`while` / `loop` with `max_iters`, trip-count bounds),
//! and `defaults` (the float types inference leaves open).

mod adapters;
mod array_fns;
mod asserts;
mod assigned;
mod bounded;
mod closures;
mod defaults;
mod enum_params;
mod exits;
mod exprs;
mod field_reads;
mod literals;
mod loops;
mod matches;
mod mutators;
mod panics;
mod patterns;
mod places;
mod pure;
mod reductions;
mod runtime;
mod signature;
mod stmts;
mod subslices;
mod tuples;
mod vecs;
mod whole;
mod windows;

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::args::Args;
use crate::ir::*;

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
pub(super) enum Binding {
    Var(VarId),
    /// `x` bound by `for x in a.iter_mut()`: the place `a[k]`; and whether Rust binds the
    /// name to a reference (`for x in a.iter()`, `let x = &a[k];`) or to a copy of the
    /// element (`for &x in a.iter()`, `for x in a` of an array by value).
    Alias(VarId, Vec<Proj>, TyId, bool),
    /// `w` of `for w in x.windows(K)` or `x.chunks_exact(K)`: the `K` elements of the array
    /// at `(v, proj)` from `start` on (the place's type is the last field), read by element
    /// (`w[j]` is the place's `[start + j]`) and measured (`w.len()` is `K`) only.
    Group(VarId, Vec<Proj>, Pure, TokenStream, TyId),
}

impl Binding {
    /// The type of what the name stands for: its variable's, its place's, its group's array.
    fn ty(&self, f: &Func) -> TyId {
        match self {
            Binding::Var(v) => f.vars[*v].ty,
            Binding::Alias(_, _, ty, _) | Binding::Group(.., ty) => *ty,
        }
    }
}

/// Why a loop over a length computed from a const generic parameter runs over a run-time
/// length (`Lower::computed_lengths`), and what to write instead: the two errors' shared words.
const COMPUTED: &str = "computed from a const generic parameter (what a call returns, bound by a `let` without a type): rustc takes no such length for an array in a generic tape";
const GIVE_TYPE: &str = "give the `let` its type, as in `let y: [f64; 5] = g(..);`";

pub struct Lower {
    f: Func,
    scopes: Vec<HashMap<String, Binding>>,
    names: HashMap<String, usize>,
    /// Every identifier the function's text has: a second binding's emitted name is none of
    /// them.
    written: HashSet<String>,
    errors: Vec<syn::Error>,
    n_ifs: usize,
    /// The loops around the statement being lowered, outermost first.
    nest: Vec<usize>,
    /// The values the variables of those loops take, for bounds that depend on them: the
    /// smallest (0 when unknown) and a compile-time bound on the largest, computed where each
    /// loop begins (a name in its range means what it means there).
    ranges: HashMap<VarId, (i128, Option<bounded::Bound>)>,
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
    /// Locals bound without a type to a call's result (`let y = g(x);`) or a struct's field
    /// (`let row = p.w[1];`), with what they hold (`g`, or `p.w[1]` and `true`): their type is
    /// the callee's or the struct's, which the macro cannot see.
    call_lets: HashMap<VarId, (String, bool)>,
    /// The type of each call's value, with the callee's path and its arguments' types: what a
    /// `call_lets` local indexed or borrowed is named by ([`crate::types::CallOut`]).
    call_sigs: HashMap<TyId, (syn::Path, Vec<TyId>)>,
    /// The variables the body names after declaring them (reads, writes, borrows): a
    /// `call_lets` local not among them is never used, and its type is left to rustc.
    named: std::cell::RefCell<HashSet<VarId>>,
    /// Of those, the elements of a destructured tuple (`let (v, g) = f_grad(..);`): the
    /// element's position and every name the pattern binds, for the error's suggestion.
    tuple_lets: HashMap<VarId, (usize, Vec<String>)>,
    /// Of those, the elements of a tuple bound to one name (`let t = g(..);` read as `t.k`),
    /// as the user reads them (`t.k`).
    tuple_fields: HashMap<VarId, String>,
    /// A call's value only passed on whole may take its contract's type ([`whole`]): not in
    /// `hvp`'s tangent program, which reads the type back from its text.
    whole_ok: bool,
    /// Struct parameters the body only passes on whole to calls by a plain path, whose
    /// derivative the first such call through a contract names ([`TyVal::PassedOn`]).
    passed_on: HashSet<VarId>,
    /// The `alloc` feature is on (see [`Args::alloc`]).
    alloc: bool,
    /// Variables reported as carried through a run-time loop (once each, at the innermost).
    reported_carried: HashSet<VarId>,
    /// Loops run-time only because their arrays' length is computed from a const generic
    /// parameter (`Head::computed`): their errors say how to give it a length.
    computed_lengths: HashSet<usize>,
    /// Loops of independent iterations that compute a costly function ([`Func::costly`]).
    costly: Vec<usize>,
    /// The `call_lets` already reported: each gets one error.
    reported_lets: HashSet<VarId>,
    /// The parameters the body matches on by enum variant: fieldless enums.
    enum_params: HashSet<String>,
    /// The counters of range loops, with their ranges: typed and checked once inference ends.
    range_counters: Vec<(TyId, syn::Expr, bool)>,
    /// Struct fields read by a cast to a float, and their types: see [`Func::unseen_field`].
    cast_fields: Vec<(ReadId, TyId)>,
    /// The integer types of subtractions and negations: where a value may go below 0.
    signed: Vec<TyId>,
    /// The sub-slices in scope whose bounds read `mut` variables, which may not be assigned
    /// while they are ([`subslices`]).
    sub_slices: Vec<subslices::Live>,
    /// The array functions (`x.map(..)`, `from_fn`) rewritten so far, for fresh names.
    n_array_fns: usize,
}

/// The error of a call of something else than a path.
const CALL_BY_NAME: &str = "call a `#[differentiable]` function by its name or path; bind a closure to a name first (`let sq = |v: f64| v * v;`), then call it (`sq(x)`)";

/// The statement that marks where a bounded loop checks its bound.
const MAX_ITERS_CHECK: &str = "__stackgrad_max_iters_check";

pub fn lower(item: &syn::ItemFn, args: &Args) -> syn::Result<Func> {
    let mut l = Lower::new(item, args);
    l.f.tangent_program = args.tangent_program;
    l.enum_params = enum_params::enum_scrutinees(&item.block);
    l.enum_params
        .extend(args.enums.iter().map(|e| e.to_string()));
    l.signature(&item.sig, args);
    for (name, zero) in &args.passed_on {
        if let Some(&v) = (l.f.params.iter()).find(|&&v| l.f.vars[v].name == *name) {
            let (ty, emit) = (l.f.vars[v].ty, l.f.vars[v].emit.clone());
            l.f.types.passed_on(ty, zero.clone(), emit);
        }
    }
    let mut block = (*item.block).clone();
    literals::desugar(&mut block);
    l.errors.extend(matches::desugar(&mut block));
    l.errors.extend(asserts::desugar(&mut block));
    // After `matches` and `asserts`: no call is left inside a macro's tokens.
    l.errors.extend(closures::desugar(&mut block));
    l.errors.extend(mutators::desugar(&mut block));
    adapters::desugar(&mut block);
    // Before `panics`: inside loops, a `return` beside a `panic!` branch is a `break` then,
    // and the `if` is one `panics` takes apart.
    exits::desugar(&mut block, &item.sig.output);
    panics::desugar(&mut block);
    l.passed_on = l.only_passed_on(&block);
    let body = l.body(&block);
    l.not_passed_on(args);
    let costly = std::mem::take(&mut l.costly);
    let mut f = l.finish(body)?;
    f.costly = costly;
    // In the tangent program of `hvp`, a field's tangent cast (`t_p.k as f64`) would read an
    // integer field's slot of the direction: the field is taken for a float there, so that an
    // integer field fails to compile instead (README: bind it with its type first).
    if args.tangent_program {
        f.unseen_casts.clear();
        f.tangent_program = true;
    }
    Ok(f)
}

impl Lower {
    fn new(item: &syn::ItemFn, args: &Args) -> Lower {
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
                costly: Vec::new(),
                tuple_elems: Vec::new(),
                blind_elems: Vec::new(),
                generics: Vec::new(),
                consts: Vec::new(),
                n_defs: 0,
                flag_ty: 0,
                usize_ty: 0,
                read_tys: HashMap::new(),
                field_tys: HashMap::new(),
                known: args.known.clone(),
                unseen_casts: HashSet::new(),
                tangent_program: false,
                slices: Vec::new(),
                vec_lens: HashMap::new(),
            },
            scopes: vec![HashMap::new()],
            names: HashMap::new(),
            written: crate::names::identifiers(item.to_token_stream()),
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
            call_lets: HashMap::new(),
            call_sigs: HashMap::new(),
            named: Default::default(),
            tuple_lets: HashMap::new(),
            tuple_fields: HashMap::new(),
            whole_ok: !args.tangent_program,
            passed_on: HashSet::new(),
            alloc: args.alloc,
            reported_carried: HashSet::new(),
            computed_lengths: HashSet::new(),
            costly: Vec::new(),
            reported_lets: HashSet::new(),
            enum_params: HashSet::new(),
            range_counters: Vec::new(),
            cast_fields: Vec::new(),
            signed: Vec::new(),
            sub_slices: Vec::new(),
            n_array_fns: 0,
        };
        l.f.flag_ty = l.f.types.fresh(TyVal::Bool);
        l.f.usize_ty =
            l.f.types
                .fresh(TyVal::Int(Ident::new("usize", Span::call_site())));
        l
    }

    /// The function's body: the copies of `mut` parameters, then its statements.
    fn body(&mut self, block: &syn::Block) -> Block {
        let mut body = Block::default();
        for &(param, local) in &self.f.param_copies.clone() {
            let op = self.var_operand(param, Vec::new(), false);
            let id = self.def_id();
            body.stmts.push(Stmt::Def {
                id,
                target: Target::Var(local),
                place: Vec::new(),
                rhs: Rhs::Copy(op),
                is_let: true,
            });
        }
        self.scopes.push(HashMap::new());
        self.seq(&block.stmts, &[], &mut body, Mode::Fn, block.span());
        body
    }

    /// Checks what only the whole body tells, types what inference left open, and returns the
    /// function or every error at once.
    fn finish(mut self, body: Block) -> syn::Result<Func> {
        for (label, _, used) in &self.max_iters {
            if !used {
                self.errors.push(err(
                    label,
                    format!("no `while` or `loop` is labelled `'{label}` in this function"),
                ));
            }
        }
        let ret = self.f.ret.clone();
        for (o, t) in body.tail.iter().zip(ret) {
            let ty = self.f.operand_ty(o);
            self.f.types.unify(ty, t);
        }
        self.f.body = body;
        for &(read, ty) in &self.cast_fields {
            if !self.f.types.known(ty) {
                self.f.unseen_casts.insert(read);
            }
        }
        // Fields first: a call's arguments are often struct fields (`g(&p.w)`), whose type
        // then types the call's result.
        defaults::default_field_types(&mut self.f);
        // A call's result bound without a type and never used: its type is the callee's, which
        // rustc infers (the call's float arguments say nothing about an array it may return).
        let unused: HashSet<TyId> = (self.call_lets.iter())
            .filter(|(v, _)| !self.named.borrow().contains(*v))
            .map(|(v, _)| self.f.vars[*v].ty)
            .collect();
        defaults::default_call_types(&mut self.f, &unused);
        self.undecided_floats();
        self.narrow_records();
        self.reversible_counters();
        vecs::type_elements(&mut self.f);
        let mut errors = self.errors.into_iter();
        match errors.next() {
            None => Ok(self.f),
            Some(mut first) => {
                for e in errors {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }

    /// The reverse sweep runs a loop backwards with `.enumerate().rev()`, which needs the range
    /// to be an `ExactSizeIterator`: `Range<i64>` (and of `u64`, `i128`, `u128`) is not.
    fn reversible_counters(&mut self) {
        for (ty, range, start_known) in &self.range_counters {
            // A counter nothing in the function types is a `usize`, as an index or a callee's
            // `usize` parameter the macro cannot see would make it.
            // A counter whose values meet a subtraction or a negation (`let d = i - 2; if d < 0`)
            // is an `i32`, as rustc makes it when nothing else types it: as a `usize` it would
            // wrap where the user's function goes below 0.
            let signed = self.signed.iter().any(|&t| self.f.types.same(t, *ty));
            if matches!(self.f.types.get(*ty), TyVal::Unknown(Kind::Int)) && !signed {
                let usize_ty = self.f.usize_ty;
                self.f.types.unify(*ty, usize_ty);
            }
            let signed =
                matches!(self.f.types.get(*ty), TyVal::Int(t) if t.to_string().starts_with('i'));
            if signed && !start_known {
                self.errors.push(err(
                    range,
                    "the start of this range may be negative (a `const` the macro cannot see), and the tape is sized for starts from 0 up: start it at a literal, or bind the value first, as in `for j in 0..N { let i = j as i32 + K; .. }`",
                ));
            }
            // The reverse sweep runs `a..=b` as `a..b + 1`: `b + 1` overflows at `u8::MAX`.
            if let TyVal::Int(t) = self.f.types.get(*ty)
                && ["i8", "u8", "i16", "u16"].contains(&t.to_string().as_str())
                && matches!(range, syn::Expr::Range(r) if matches!(r.limits, syn::RangeLimits::Closed(_)))
            {
                self.errors.push(err(
                    range,
                    format!(
                        "an inclusive range of `{t}` is not supported (the reverse sweep runs it as `a..b + 1`, which overflows at `{t}::MAX`): loop over `i32` or `usize` and convert, as in `(i as {t})`"
                    ),
                ));
            }
            if let TyVal::Int(t) = self.f.types.get(*ty)
                && ["i64", "u64", "i128", "u128"].contains(&t.to_string().as_str())
            {
                self.errors.push(err(
                    range,
                    format!(
                        "a loop counter of type `{t}` is not supported (the reverse sweep runs the loop backwards, and a range of `{t}` does not know its length): loop over `i32` or `usize` and convert where needed, as in `(i as {t})`"
                    ),
                ));
            }
        }
    }

    /// Checks each `#[record(..)]` against its value's type, known by now: a float or an array of
    /// floats, and `f32` storage only for `f64` values.
    fn narrow_records(&mut self) {
        for v in &self.f.vars {
            let Some((narrow, at)) = &v.record else {
                continue;
            };
            let leaf = self.f.types.get(self.f.types.leaf(v.ty));
            let message = match (leaf, *narrow) {
                (TyVal::F32, Narrow::F32) => format!(
                    "`{}` is already `f32`: `#[record(f32)]` narrows an `f64` value; write `#[record(bf16)]` to keep an `f32` value in 16 bits",
                    v.name
                ),
                // An element of a call's tuple (`TyVal::Elem`) may be either float.
                (TyVal::F32 | TyVal::F64 | TyVal::Unknown(Kind::Float) | TyVal::Elem(..), _) => {
                    continue;
                }
                _ => format!(
                    "`#[record(..)]` applies to a float or an array of floats, and `{}` is neither",
                    v.name
                ),
            };
            self.errors.push(syn::Error::new_spanned(at, message));
        }
        let mut misuse = Vec::new();
        record_misuse(&self.f, &self.f.body, &mut misuse);
        for (v, what) in misuse {
            let var = &self.f.vars[v];
            let at = &var.record.as_ref().expect("a recorded variable").1;
            self.errors.push(syn::Error::new_spanned(
                at,
                format!(
                    "`{}` is read {what}, which needs its exact value, and `#[record(..)]` keeps it rounded; remove the attribute from this `let`",
                    var.name
                ),
            ));
        }
    }

    /// Reports the variables that started as a constant of unknown kind and became floats.
    fn undecided_floats(&mut self) {
        for (v, at) in std::mem::take(&mut self.undecided) {
            if self.f.types.kind(self.f.vars[v].ty) == Kind::Float {
                let name = &self.f.vars[v].name;
                self.errors.push(err(
                    at,
                    format!(
                        "cannot tell whether `{name}` is a float here: it starts as a `const` whose type this function does not show and becomes a float later; give it a type where it is declared, as in `let mut {name}: f64 = ..`"
                    ),
                ));
            }
        }
    }
}

fn err(node: impl ToTokens, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new_spanned(node, msg)
}

fn is_screaming(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
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

/// Finds a `return` of the node it visits: not one of a closure inside it.
#[derive(Default)]
struct Returns(bool);

impl<'a> Visit<'a> for Returns {
    fn visit_expr_return(&mut self, _: &'a syn::ExprReturn) {
        self.0 = true;
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
}

/// Whether an expression holds a `return` (outside closures).
fn has_return(e: &syn::Expr) -> bool {
    let mut r = Returns::default();
    r.visit_expr(e);
    r.0
}

/// The names of a path's segments, a leading `core` or `std` left out: `["panic"]` of
/// `std::panic`, `["array", "from_fn"]` of `core::array::from_fn`.
fn std_path(path: &syn::Path) -> Vec<String> {
    let mut segs: Vec<String> = (path.segments.iter())
        .map(|s| s.ident.to_string())
        .collect();
    if segs.len() > 1 && (segs[0] == "core" || segs[0] == "std") {
        segs.remove(0);
    }
    segs
}

/// Why an expression is not supported, and what to write instead.
fn unsupported(e: &syn::Expr) -> String {
    use syn::Expr::*;
    match e {
        Closure(_) => "a closure is supported bound to a name and called (`let sq = |v: f64| v * v;`, then `sq(x)`), or as the argument of `map`, `fold` or `from_fn`; here write its body inline, or make it a `#[differentiable]` function and call it".into(),
        While(_) => "`while` loops are not supported: the tape needs a fixed size known at compile time; write a `for` loop with a constant bound, as in `for i in 0..N`, with `break` for an early exit".into(),
        Loop(l) if l.attrs.iter().any(|a| a.path().is_ident("max_iters")) => "a bounded `loop` is a statement; one used as a value (`break value`) is not supported: assign the value to a variable declared before the loop, then `break;`".into(),
        Loop(_) => "`loop` is not supported: the tape needs a fixed size known at compile time; write a `for` loop with a constant bound, as in `for i in 0..N`, with `break` for an early exit".into(),
        ForLoop(_) => "this `for` loop is not supported here".into(),
        Match(_) => "`match` is not supported; write an `if` / `else if` / `else` chain".into(),
        Macro(m) => format!(
            "macro `{}!` is not supported in a differentiable function: the macro cannot see through it; write the computation out, or move it into a function and supply its adjoint",
            m.mac.path.to_token_stream()
        ),
        Index(i) if array_fns::is_array_fn(&i.expr) => array_fns::NOT_HERE.into(),
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
        Let(_) => "`if let` and `while let` are not supported; compare values with `==`, `<`, ... instead".into(),
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

    /// `msg` on `at`, unless an error already says it (each place of one mistake would).
    fn error_once(&mut self, at: impl ToTokens, msg: &str) {
        if !self.errors.iter().any(|e| e.to_string() == msg) {
            self.error(err(at, msg));
        }
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

    /// Moves the macro's own variable `name`, just declared, out of reach of the user's names:
    /// it is found as `#name` only.
    fn hide(&mut self, name: &Ident, var: VarId) {
        let scope = self.scopes.last_mut().unwrap();
        scope.remove(&name.to_string());
        scope.insert(format!("#{name}"), Binding::Var(var));
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        match self.binding(name)? {
            Binding::Var(v) => Some(v),
            Binding::Alias(..) | Binding::Group(..) => None,
        }
    }

    /// `t.k` of a tuple bound to one name (`let t = g(..);`, [`tuples::one_name_tuple`]): its
    /// own variable, where the innermost scope that binds `t` binds it so; `None` where `t`
    /// is bound otherwise there (`let t = 2.0;` after it: a name binds nothing of an older
    /// binding's elements).
    fn element(&self, name: &str, member: &syn::Member) -> Option<VarId> {
        let key = format!("{name}.{}", tuples::member_text(member));
        let prefix = format!("{name}.");
        for scope in self.scopes.iter().rev() {
            if let Some(Binding::Var(v)) = scope.get(&key) {
                self.named.borrow_mut().insert(*v);
                return Some(*v);
            }
            if scope.contains_key(name) || scope.keys().any(|k| k.starts_with(&prefix)) {
                return None;
            }
        }
        None
    }

    /// Binds `name` in the innermost scope, forgetting the elements (`name.k`) a tuple bound
    /// to it there before had.
    fn bind_name(&mut self, name: String, binding: Binding) {
        self.forget(&name, false);
        self.scopes.last_mut().unwrap().insert(name, binding);
    }

    /// Forgets, in the innermost scope, the elements bound to `name` (`name.k`), and with
    /// `whole` its own binding too.
    fn forget(&mut self, name: &str, whole: bool) {
        let prefix = format!("{name}.");
        (self.scopes.last_mut().unwrap())
            .retain(|k, _| !(k.starts_with(&prefix) || (whole && k == name)));
    }

    fn binding(&self, name: &str) -> Option<Binding> {
        let b = self
            .scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).cloned())?;
        let (Binding::Var(v) | Binding::Alias(v, ..) | Binding::Group(v, ..)) = &b;
        self.named.borrow_mut().insert(*v);
        Some(b)
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
            // `x_1`, or `x_2` where the user wrote an `x_1`: the tangent program `f_hvp`
            // differentiates is lowered again from its text, where the two would be one name.
            while self.written.contains(&format!("{key}_{n}")) {
                *n += 1;
            }
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
            record: None,
            constant: false,
        });
        let id = self.f.vars.len() - 1;
        self.bind_name(key, Binding::Var(id));
        id
    }
}

/// The `#[record(..)]` variables of `b` read where the reverse sweep needs their exact value
/// (with what reads them): in an index or a loop bound, which the sweep evaluates again, and
/// inside a checkpointed loop that they come from outside of, whose iterations the sweep runs
/// again from the tape. (Conditions and integer or `bool` values computed from them are safe:
/// the plan records those instead of evaluating them again from a recorded variable.)
fn record_misuse(f: &Func, b: &Block, out: &mut Vec<(VarId, &'static str)>) {
    let push = |reads: Vec<(VarId, &[Proj], ReadId)>, what, out: &mut Vec<_>| {
        for (v, ..) in reads {
            if f.vars[v].record.is_some() && !out.iter().any(|(w, _)| *w == v) {
                out.push((v, what));
            }
        }
    };
    for s in &b.stmts {
        let mut reads = Vec::new();
        match s {
            Stmt::Def { place, rhs, .. } => {
                crate::walk::proj_reads(place, &mut reads);
                for o in crate::walk::operands(rhs) {
                    if let Operand::Var { proj, .. } = o {
                        crate::walk::proj_reads(proj, &mut reads);
                    }
                }
                push(reads, "in an index", out);
            }
            Stmt::If { then, els, .. } => {
                record_misuse(f, then, out);
                record_misuse(f, els, out);
            }
            Stmt::For {
                id, range, body, ..
            } => {
                crate::walk::range_reads(range, &mut reads);
                push(reads, "in a loop bound", out);
                if f.loops[*id].checkpoint.is_some() {
                    let mut inside = std::collections::BTreeSet::new();
                    crate::walk::referenced(body, &mut inside);
                    // A recorded variable is an immutable `let`: assigned only where defined.
                    let mut defined = Vec::new();
                    crate::walk::assigned(body, &mut defined);
                    let outer: Vec<_> = inside
                        .into_iter()
                        .filter(|v| !defined.contains(v))
                        .map(|v| (v, &[][..], 0))
                        .collect();
                    let why = if f.loops[*id].runtime && !f.loops[*id].binomial {
                        "inside a loop over a run-time length, whose iterations the reverse sweep runs again"
                    } else {
                        "inside a checkpointed loop whose iterations are run again"
                    };
                    push(outer, why, out);
                }
                record_misuse(f, body, out);
            }
            _ => {}
        }
    }
    let mut reads = Vec::new();
    for o in &b.tail {
        if let Operand::Var { proj, .. } = o {
            crate::walk::proj_reads(proj, &mut reads);
        }
    }
    push(reads, "in an index", out);
}
#[cfg(test)]
mod tests;
