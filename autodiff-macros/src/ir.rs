//! IR data types. Every float expression is in A-normal form: each operation defines one value
//! (a user variable or a compiler temporary) from operands that are variables, temporaries or
//! constants. Integer and bool expressions stay as trees ([`Pure`]): they carry no derivative.

use proc_macro2::{Ident, Span, TokenStream};

pub type VarId = usize;
pub type TempId = usize;
pub type ReadId = usize;

pub use crate::types::{Kind, TyId, TyVal, Types};

/// A narrower float type a recorded value is kept in (`#[record(..)]`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Narrow {
    /// The upper 16 bits of an `f32` (bfloat16: `f32`'s range, 8 significant bits), rounded to
    /// nearest, ties to even; kept as `u16`.
    Bf16,
    /// An `f64` rounded to `f32`.
    F32,
}

/// A user variable: a parameter or a `let` binding. Shadowing creates a new variable.
pub struct Var {
    pub name: Ident,
    /// The identifier used in generated code: the user's own for the first binding of a name,
    /// a suffixed hygienic one for later shadowing bindings.
    pub emit: Ident,
    pub mutable: bool,
    pub ty: TyId,
    /// Index of the function parameter this variable is, if it is one.
    pub param: Option<usize>,
    /// A parameter taken by reference (`x: &[f64; N]`, `p: &Params`).
    pub by_ref: bool,
    /// A loop counter: its value is available in the reverse sweep, which runs the same loop.
    pub loop_var: bool,
    /// `#[recompute] let`: the reverse sweep evaluates the definition again instead of reading a
    /// recorded value.
    pub recompute: bool,
    /// `#[record(bf16)] let` / `#[record(f32)] let`: the tape keeps the value in a narrower
    /// float type, and the reverse sweep reads it back widened (see [`Narrow`]); with the
    /// attribute's tokens, for errors about it.
    pub record: Option<(Narrow, TokenStream)>,
    /// A `const` item read by index or field (`A[i][j]`): never differentiated, never assigned.
    pub constant: bool,
}

impl Var {
    /// Is the value there, by its name, wherever either sweep reads it (a parameter, a loop
    /// counter, a `const` item)?
    pub fn in_place(&self) -> bool {
        self.param.is_some() || self.loop_var || self.constant
    }
}

/// A projection of a place: `a[i]` or `p.w`.
#[derive(Clone)]
pub enum Proj {
    Index(Pure),
    Field(Ident),
    /// `*x` for a parameter taken by reference.
    Deref,
    /// `[a..b]` (`[a..]`, `[..b]`, `[a..=b]`) of a slice: a sub-slice, the place that
    /// `let r = &x[a..b];` names. Its bounds read no variable that is assigned after they are
    /// read (`Lower::sub_slice`), so every read of `r[i]` is `x[a..b][i]`, in every sweep.
    Range {
        start: Option<Pure>,
        end: Option<Pure>,
        inclusive: bool,
    },
}

impl Proj {
    /// The integer expressions the projection evaluates: an index, a sub-slice's bounds.
    pub fn pures(&self) -> impl Iterator<Item = &Pure> {
        let (a, b) = match self {
            Proj::Index(i) => (Some(i), None),
            Proj::Range { start, end, .. } => (start.as_ref(), end.as_ref()),
            Proj::Field(_) | Proj::Deref => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// An index or a sub-slice as written after its place, `[i]` or `[a..b]`, with the
    /// integers as `pure` spells them.
    pub fn bracket(&self, pure: &mut dyn FnMut(&Pure) -> TokenStream) -> TokenStream {
        match self {
            Proj::Index(i) => {
                let i = pure(i);
                quote::quote!([#i])
            }
            Proj::Range { .. } => {
                let r = self.range_tokens(pure);
                quote::quote!([#r])
            }
            Proj::Field(_) | Proj::Deref => unreachable!("an index or a sub-slice"),
        }
    }

    /// A sub-slice's range, `a..b`, with the bounds as `pure` spells them.
    pub fn range_tokens(&self, pure: &mut dyn FnMut(&Pure) -> TokenStream) -> TokenStream {
        let Proj::Range {
            start,
            end,
            inclusive,
        } = self
        else {
            unreachable!("a sub-slice's projection")
        };
        let a = start.as_ref().map(&mut *pure);
        let b = end.as_ref().map(&mut *pure);
        if *inclusive {
            quote::quote!(#a..=#b)
        } else {
            quote::quote!(#a..#b)
        }
    }
}

pub struct Temp {
    pub ty: TyId,
}

#[derive(Clone)]
pub enum Operand {
    /// A read of a variable or of a place in it (`a[i]`, `p.w[i][j]`); `read` identifies this
    /// read site (a mutable variable's value is recorded per read). `borrow`: written `&a`.
    Var {
        var: VarId,
        proj: Vec<Proj>,
        read: ReadId,
        borrow: bool,
        /// The type of the place read.
        ty: TyId,
    },
    Temp(TempId),
    /// A literal or a path to a constant.
    Const {
        tokens: TokenStream,
        ty: TyId,
    },
}

impl Operand {
    /// A constant written by name (`W`, `core::f64::consts::PI`), not a literal: a `const` item
    /// whose type the macro does not see.
    pub fn is_named_const(&self) -> bool {
        matches!(self, Operand::Const { tokens, .. }
            if matches!(tokens.clone().into_iter().next(), Some(proc_macro2::TokenTree::Ident(_))))
    }
}

impl Operand {
    /// The value of a finite numeric literal (`2.5`, `3`, `0.5_f32`); `None` for anything else,
    /// paths to constants included.
    pub fn literal(&self) -> Option<f64> {
        let Operand::Const { tokens, .. } = self else {
            return None;
        };
        let v = match syn::parse2::<syn::Lit>(tokens.clone()).ok()? {
            syn::Lit::Float(f) => f.base10_parse::<f64>().ok()?,
            syn::Lit::Int(i) => i.base10_parse::<f64>().ok()?,
            _ => return None,
        };
        v.is_finite().then_some(v)
    }

    /// The reciprocal of a literal `c` whose reciprocal is a normal number of either float type
    /// (`2^-100 <= |c| <= 2^100`), as a literal with `c`'s suffix (`0.1` for `10.0`, `(-0.5_f32)`
    /// for `-2.0_f32`): a derivative that would divide by the literal multiplies instead. A
    /// literal, not `1.0 / c`, so that the tangent program of `hvp` sees a constant, not a
    /// division to record.
    pub fn literal_reciprocal(&self) -> Option<TokenStream> {
        let c = self.literal()?;
        let Operand::Const { tokens, .. } = self else {
            return None;
        };
        if !(2f64.powi(-100)..=2f64.powi(100)).contains(&c.abs()) {
            return None;
        }
        let text = tokens.to_string();
        let r = (1.0 / c).abs();
        let lit = if text.ends_with("f32") {
            proc_macro2::Literal::f32_suffixed(r as f32)
        } else if text.ends_with("f64") {
            proc_macro2::Literal::f64_suffixed(r)
        } else {
            proc_macro2::Literal::f64_unsuffixed(r)
        };
        Some(if c < 0.0 {
            quote::quote!((-#lit))
        } else {
            quote::quote!(#lit)
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn tokens(self) -> TokenStream {
        match self {
            BinOp::Add => quote::quote!(+),
            BinOp::Sub => quote::quote!(-),
            BinOp::Mul => quote::quote!(*),
            BinOp::Div => quote::quote!(/),
        }
    }
}

/// The right-hand side of a definition.
pub enum Rhs {
    Copy(Operand),
    Neg(Operand),
    Bin(BinOp, Operand, Operand),
    Method {
        method: &'static crate::rules::Method,
        recv: Operand,
        args: Vec<Operand>,
        span: Span,
    },
    Cast(Operand),
    /// `[a, b, c]`.
    Array(Vec<Operand>),
    Call {
        path: syn::Path,
        args: Vec<Operand>,
        span: Span,
        /// For a call whose result is a tuple (`let (a, b) = g(..);`, `g(..).1`), which of its
        /// elements are bound, each to a temporary an [`Rhs::Elem`] right after the call
        /// defines; the call's own target then stands for the whole tuple and is never read.
        tuple: Option<Box<TupleShape>>,
    },
    /// The element at `path` (`.1.0` is `[1, 0]`, `.a` a struct's field) of the tuple or
    /// struct the call that defines `call` returned: bound from the call's value (forward and
    /// tangent sweeps), its cotangent handed to the call's adjoint in the tuple's (the
    /// struct's) cotangent.
    Elem {
        call: Target,
        path: Vec<syn::Member>,
    },
    /// An integer, bool or constant float expression: no derivative.
    Pure(Pure),
}

/// What a destructuring binds of a call's tuple, and so how the call's adjoint builds the
/// tuple's cotangent.
#[derive(Clone, Debug)]
pub enum TupleShape {
    /// `(a, b, ..)`: every element, in order.
    Tuple(Vec<TupleShape>),
    /// One element bound to a temporary.
    Elem(Target),
    /// One element bound to nothing (`_`): a zero cotangent, of the type the `let` gives it.
    Skip(Option<TyId>),
    /// `.k` of a tuple of arity unknown here: element `k`, the others zero.
    Field(usize, Box<TupleShape>),
    /// `t.j`, `t.k` of a tuple bound to one name (`let t = g(..);`), of arity unknown here:
    /// those elements, in increasing order, the others zero.
    Fields(Vec<(usize, TupleShape)>),
    /// `s.a`, `s.b` of a struct a call returns (`let s = g(..);`, `g(..).a`), whose fields the
    /// macro cannot see: those fields, in the order of their names; the struct's cotangent is
    /// its `Default` with them set.
    Struct(Vec<(syn::Ident, TupleShape)>),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Target {
    Var(VarId),
    Temp(TempId),
}

pub enum Stmt {
    /// `let target = rhs` (`is_let`), `target = rhs` or, with `place`, `target[i].f = rhs`.
    Def {
        id: usize,
        target: Target,
        place: Vec<Proj>,
        rhs: Rhs,
        is_let: bool,
    },
    /// `if cond { then } else { els }`; with `results`, each branch's tail defines them.
    If {
        id: usize,
        cond: Pure,
        then: Block,
        els: Block,
        results: Vec<Target>,
        is_let: bool,
    },
    /// `for var in range { body }`.
    For {
        id: usize,
        var: VarId,
        range: Range,
        body: Block,
    },
    Break,
    Continue,
    /// A bounded `while` / `loop` ran out of iterations (forward sweep only).
    Panic(String),
}

/// `start..end` or `start..=end`, then `.rev()` and `.step_by(k)` in the order written.
#[derive(Clone)]
pub struct Range {
    pub start: Pure,
    pub end: Pure,
    pub inclusive: bool,
    pub adapters: Vec<Adapter>,
}

#[derive(Clone)]
pub enum Adapter {
    Rev,
    StepBy(Pure),
}

/// A loop: what the tape needs to know of it.
pub struct Loop {
    /// The loops around it, outermost first.
    pub nest: Vec<usize>,
    /// The iteration counter in generated code (`k0`, `k1`, ...).
    pub counter: Ident,
    /// A compile-time bound on its trip count: the length of tape arrays recorded in it.
    pub trips: TokenStream,
    /// `trips` is a const generic parameter: usable as an array length, but not in arithmetic
    /// there (`div_ceil(N, S)` sizes nothing on stable Rust).
    pub trips_generic: bool,
    /// Has a `break`: the trip count is recorded.
    pub breaks: bool,
    /// The loop's label, if it has one (`'newton`).
    pub label: Option<String>,
    /// `#[checkpoint]` (`Some(None)`) or `#[checkpoint(snapshots = S)]` (`Some(Some(S))`).
    pub checkpoint: Option<Option<TokenStream>>,
    /// `#[checkpoint(snapshots = S, binomial)]`: Griewank's binomial schedule in the reverse
    /// sweep, the tape keeping the state before the loop only.
    pub binomial: bool,
    /// Variables declared before the loop that its body reads or writes (not parameters or
    /// loop counters): the state a checkpoint saves.
    pub carried: Vec<VarId>,
    /// The trip count is known only at run time (`0..n`, `0..x.len()`, a slice's `.iter()`):
    /// nothing recorded in it may have a dimension for it. Without `#[checkpoint(..)]` its
    /// iterations are independent (they share accumulators only, `acc += ..`): the forward
    /// sweep records none of them, and the reverse sweep runs each again into one iteration's
    /// tape, then back (Tapenade's II-loop); with `binomial`, a sequential loop.
    pub runtime: bool,
    /// The accumulators of a run-time loop of independent iterations written `acc =
    /// acc.max(e)` or `acc = acc.min(e)` (the others add): the reverse sweep runs such a loop's
    /// iterations in their own order (see `reverse/loops.rs`, `independent`).
    pub extrema: Vec<VarId>,
}

impl Loop {
    /// A run-time loop recorded like a loop of constant bounds, into `Vec` fields of the tape
    /// (its iterations carry state, and the `alloc` feature is on).
    pub fn taped(&self) -> bool {
        self.runtime && self.checkpoint.is_none()
    }

    /// A run-time loop of independent iterations: the reverse sweep runs each again into one
    /// iteration's tape (not a binomial schedule).
    pub fn independent(&self) -> bool {
        self.runtime && !self.binomial && self.checkpoint.is_some()
    }

    /// How many states a checkpointed loop saves, and every how many iterations (`None`: every
    /// one).
    pub fn checkpoint_layout(&self) -> (TokenStream, Option<TokenStream>) {
        let trips = &self.trips;
        match &self.checkpoint {
            Some(Some(s)) => (
                s.clone(),
                Some(quote::quote!(::core::primitive::usize::div_ceil(#trips, #s))),
            ),
            _ => (trips.clone(), None),
        }
    }
}

/// A sequence of statements and, for value blocks, the operands they produce.
#[derive(Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub tail: Vec<Operand>,
}

/// An expression tree without derivative: conditions, integer arithmetic, integer-to-float casts.
#[derive(Clone)]
pub enum Pure {
    Lit(TokenStream),
    /// A read of a variable or a place in it.
    Var(VarId, Vec<Proj>, ReadId),
    Unary(TokenStream, Box<Pure>),
    Bin(TokenStream, Box<Pure>, Box<Pure>),
    Cast(Box<Pure>, TokenStream),
    Method(Box<Pure>, Ident, Vec<Pure>),
    /// A call to the primal of a differentiable function.
    Call(syn::Path, Vec<Pure>),
    /// `&a`, an argument of such a call.
    Ref(Box<Pure>),
    /// `if c { a } else { b }` inside a condition.
    If(Box<Pure>, Box<Pure>, Box<Pure>),
    /// `matches!(value, pattern)`: an arm of a `match` (the pattern binds nothing).
    Matches(Box<Pure>, TokenStream),
    /// `vec![elem; len]` (`mac` the macro's path as written): a `Vec` local's definition, its
    /// elements a constant.
    Vec {
        mac: TokenStream,
        elem: TokenStream,
        len: Box<Pure>,
    },
}

/// `::core::cmp::min`, the shorter length of a loop over zipped slices: a [`Pure::Call`] that
/// runs no primal (the plan looks through it).
pub fn core_min() -> syn::Path {
    syn::parse_quote!(::core::cmp::min)
}

impl Pure {
    /// The same `vec![..; len]` with every element `elem` (an adjoint's or a tangent's zero).
    pub fn vec_filled(&self, elem: TokenStream) -> Option<Pure> {
        match self {
            Pure::Vec { mac, len, .. } => Some(Pure::Vec {
                mac: mac.clone(),
                elem,
                len: len.clone(),
            }),
            _ => None,
        }
    }
}

/// A position between statements (where the forward sweep stores a snapshot).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum At {
    /// After the statement with this reference.
    After(StmtRef),
    /// At the start of a block.
    Start(BlockRef),
}

/// A statement, by the id of its kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StmtRef {
    Def(usize),
    If(usize),
    For(usize),
}

/// A block: a loop's body, a branch of an `if`, or the function's body.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BlockRef {
    Fn,
    Body(usize),
    Then(usize),
    Else(usize),
}

impl StmtRef {
    pub fn of(s: &Stmt) -> Option<StmtRef> {
        match s {
            Stmt::Def { id, .. } => Some(StmtRef::Def(*id)),
            Stmt::If { id, .. } => Some(StmtRef::If(*id)),
            Stmt::For { id, .. } => Some(StmtRef::For(*id)),
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => None,
        }
    }
}

/// A lowered function.
pub struct Func {
    pub vars: Vec<Var>,
    pub temps: Vec<Temp>,
    pub types: Types,
    pub body: Block,
    /// Parameters in order: their variables.
    pub params: Vec<VarId>,
    /// Mutable parameters get a shadowing `let mut` copy; maps param var -> local var.
    pub param_copies: Vec<(VarId, VarId)>,
    /// The differentiated parameters (indices into `params`).
    pub wrt: Vec<usize>,
    /// One entry for a scalar return, one per element for a tuple return.
    pub ret: Vec<TyId>,
    pub ret_tuple: bool,
    /// Every variable read: its variable and the loops around the read.
    pub reads: Vec<(VarId, Vec<usize>)>,
    /// The loops around each definition (by def id) and each `if` (by if id).
    pub def_nest: Vec<Vec<usize>>,
    pub if_nest: Vec<Vec<usize>>,
    pub loops: Vec<Loop>,
    /// Loops of independent iterations over a run-time length that call a costly function
    /// (`Lower::record_if_costly`): recorded, but for one `f_grad` fuses (`fused::record_costly`,
    /// which the pipeline runs right after lowering).
    pub costly: Vec<usize>,
    /// The elements of the tuples calls return (`let (a, b) = g(..)`, `g(..).0`): each
    /// element's type, the call's temporary, the callee's path, the arguments' types and the
    /// element's position. One nothing else types, of an active call, is named through the
    /// callee's contract (`analysis::name_tuple_elems`).
    pub tuple_elems: Vec<(TyId, usize, syn::Path, Vec<TyId>, usize)>,
    /// The elements of the tuples calls return that no contract can name (the call names its
    /// constants, or passes an array or a struct whose type the macro cannot see): one nothing
    /// else types takes the function's own float type (`analysis::name_tuple_elems`).
    pub blind_elems: Vec<TyId>,
    /// The function's const generic parameters.
    pub generics: Vec<(Ident, syn::Type)>,
    /// Constant paths named in the body (checked to be `const` items).
    pub consts: Vec<syn::Path>,
    pub n_defs: usize,
    /// The type of branch flags (`bool`) and of trip counts (`usize`).
    pub flag_ty: TyId,
    pub usize_ty: TyId,
    /// The type of the place each read reads.
    pub read_tys: std::collections::HashMap<ReadId, TyId>,
    /// Types of struct fields and their elements, by variable and path (`.w[]`).
    pub field_tys: std::collections::HashMap<(VarId, String), TyId>,
    /// Callees whose differentiated parameters are known ([`crate::args::Args::known`]).
    pub known: std::collections::HashMap<String, Callee>,
    /// The reads of struct fields cast to a float (`p.k as f64`) whose type nothing in the
    /// function decides: see [`Func::unseen_field`].
    pub unseen_casts: std::collections::HashSet<ReadId>,
    /// The tangent program of `hvp` (`f_hvp_jvp`), whose `[value, tangent]` output a fused loop
    /// may reach ([`crate::fused::find`]).
    pub tangent_program: bool,
    /// The slice parameters (`x: &[f64]`, `xs: &[[f64; D]]`): read in place, never
    /// differentiated; their type is an array whose length is `x.len()`.
    pub slices: Vec<VarId>,
    /// The `Vec` locals (`let mut y = vec![0.0; n];`), each with its definition, a
    /// [`Pure::Vec`]: the sweeps size their cotangents and tangents by it.
    pub vec_lens: std::collections::HashMap<VarId, Pure>,
}

/// A callee whose parameters the macro knows: another method of a `#[differentiable]` `impl`
/// block, called through its hidden function.
#[derive(Clone, Debug)]
pub struct Callee {
    /// The name the user calls it by (`hidden` for `self.hidden(x)`).
    pub name: String,
    /// Each parameter's name (`self` first) and whether the callee differentiates it.
    pub params: Vec<(String, bool)>,
    /// Under `hvp`, what its tangent program takes for each parameter after the primal ones
    /// (known once the method is lowered, `expand::pair_slots`; empty: a tangent each).
    pub slots: Vec<PairSlot>,
}

/// What a tangent program (`_hvp_jvp`) takes for a parameter, after the primal parameters
/// (`Tan::pair_params`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairSlot {
    /// A tangent of the parameter's type (one it ignores where it does not differentiate it).
    Tangent,
    /// The zero of a struct it does not differentiate.
    ZeroStruct,
    /// A float it ignores: the parameter's type has no derivatives (an integer, a `bool`).
    Ignored,
    /// A value of the parameter's own type, taken as the parameter is, that it ignores: for a
    /// fieldless enum, or a slice left out. A caller passes the enum (the slice) itself, or
    /// where it only passes a parameter of its own on (`TyVal::PassedOn`, which may be an
    /// enum), that parameter's tangent.
    Own,
}

/// The key of a place's type among struct field types: `.w[]` for `p.w[i]`.
pub fn place_path(proj: &[Proj]) -> String {
    let mut path = String::new();
    for p in proj {
        match p {
            Proj::Index(_) => path.push_str("[]"),
            Proj::Field(f) => {
                path.push('.');
                path.push_str(&f.to_string());
            }
            Proj::Deref | Proj::Range { .. } => {}
        }
    }
    path
}

/// The key of the slice type of a sub-slice of the array at `proj` (in [`Func::field_tys`]):
/// its path and `[..]`, which no other key has (a sub-slice of a place of unknown type keeps
/// that place's key: `p.w[1..][j]` and `p.w[i]` share their element's).
pub fn sub_slice_path(proj: &[Proj]) -> String {
    place_path(proj) + "[..]"
}

impl Func {
    /// Fresh names for a printer's locals: none is a name of the user's variables, as written
    /// or as emitted (a second binding `x` is emitted `x_1`, a hygienic name like the fresh
    /// ones), nor one of `extra`.
    pub fn fresh_names(&self, extra: &[&str]) -> crate::names::Names {
        let mut reserved = self.var_names();
        reserved.extend(extra.iter().map(|s| s.to_string()));
        let reserved: Vec<&str> = reserved.iter().map(|s| s.as_str()).collect();
        crate::names::Names::new(&reserved)
    }

    /// Every name the user's variables have, as written and as emitted.
    fn var_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for v in &self.vars {
            for name in [&v.name, &v.emit] {
                out.push(name.to_string());
                out.push(crate::names::bare(name));
            }
        }
        out
    }

    /// The callee of a call by a one-segment path, if the macro knows its parameters.
    pub fn known_callee(&self, path: &syn::Path) -> Option<&Callee> {
        // One segment, with or without generic arguments (a method of a generic block is
        // called as `__model_hidden::<N>`).
        if path.leading_colon.is_some() || path.segments.len() != 1 {
            return None;
        }
        self.known.get(&path.segments[0].ident.to_string())
    }

    /// An argument whose type the macro cannot see: a `const` item or a struct's field passed
    /// whole as a place (`g(&W)`, `g(&p.w)`, `g(p.w)`), which a callee's contract cannot be named
    /// with. A `const` passed by value by name (`g(x, K)`) is taken for a float, as everywhere:
    /// it takes any type in the contract.
    pub fn unseen_arg(&self, a: &Operand) -> bool {
        // A type written in the function (an array whose length it names, a struct) is seen.
        let written = matches!(
            self.types.get(self.operand_ty(a)),
            TyVal::Array(..) | TyVal::Struct(_) | TyVal::PassedOn(..)
        );
        match a {
            Operand::Var { var, proj, .. } => {
                !written
                    && (self.vars[*var].constant
                        || proj.iter().any(|p| matches!(p, Proj::Field(_))))
            }
            _ => false,
        }
    }

    /// Whether a call goes through its callee's contract (the callee's tape named by
    /// `GCall`, its adjoint called as `g_adjoint_call`): it names no constants (`g(..)`, not
    /// `g::<N>(..)`, whose tape is `GTape::<N>` and adjoint `g_adjoint`, as for a hand-written
    /// callee without contract) and passes nothing whose type the macro cannot see.
    pub fn through_contract(&self, path: &syn::Path, args: &[Operand]) -> bool {
        !names_constants(path) && !args.iter().any(|a| self.unseen_arg(a))
    }

    /// Whether a call's adjoint and tangent go through the callee's slot forwarders
    /// (`g_adjoint_call`, `g_jvp_call`: one slot per argument, `()` where no derivative flows,
    /// so that the callee may leave parameters out of its `wrt(..)`): every call that names no
    /// constants, also one passing a `const` item or a struct's field (which names `GTape`
    /// itself, [`Func::through_contract`]), except to another method of the block whose
    /// contract cannot be named (the macro knows what it differentiates).
    pub fn through_slots(&self, path: &syn::Path, args: &[Operand]) -> bool {
        self.through_contract(path, args)
            || (!names_constants(path) && self.known_callee(path).is_none())
    }

    /// Under `hvp`, whether the tangent program takes a zero struct for parameter `i`: a struct
    /// parameter not differentiated, whose zero tangent a callee differentiating it reads.
    pub fn takes_zero_struct(&self, i: usize) -> bool {
        !self.wrt.contains(&i) && self.types.kind(self.vars[self.params[i]].ty) == Kind::Struct
    }

    /// What the tangent program takes for parameter `i` (`Tan::pair_params`).
    pub fn pair_slot(&self, i: usize) -> PairSlot {
        let ty = self.vars[self.params[i]].ty;
        // A slice left out: a slice it ignores, which a caller passes its own slice for
        // (data or a tangent alike; it has no zero slice of that length at hand).
        let slice = matches!(self.types.get(ty), TyVal::Slice(_));
        if !self.wrt.contains(&i) && (self.types.kind(ty) == Kind::Enum || slice) {
            return PairSlot::Own;
        }
        if self.takes_zero_struct(i) {
            PairSlot::ZeroStruct
        } else if self.wrt.contains(&i) || (self.types.differentiable(ty) && !slice) {
            PairSlot::Tangent
        } else {
            PairSlot::Ignored
        }
    }

    /// Whether a known callee differentiates its parameter `i`: `None` for a callee the macro
    /// cannot see, which must differentiate every float, array and struct parameter.
    pub fn callee_differentiates(&self, path: &syn::Path, i: usize) -> Option<bool> {
        let callee = self.known_callee(path)?;
        callee.params.get(i).map(|(_, d)| *d)
    }

    pub fn reads_ty(&self, read: ReadId) -> Option<TyId> {
        self.read_tys.get(&read).copied()
    }

    pub fn field_ty(&self, var: VarId, proj: &[Proj]) -> Option<TyId> {
        self.field_tys.get(&(var, place_path(proj))).copied()
    }

    /// A struct field (or an element of one) whose type the macro cannot see, read as a float:
    /// cast (`p.k as f64`), it may be a float or an integer, so its tangent and adjoint go
    /// through [`crate::print::cast_helper`].
    pub fn unseen_field(&self, o: &Operand) -> bool {
        matches!(o, Operand::Var { read, .. } if self.unseen_casts.contains(read))
    }

    pub fn operand_ty(&self, o: &Operand) -> TyId {
        match o {
            Operand::Var { ty, .. } => *ty,
            Operand::Temp(t) => self.temps[*t].ty,
            Operand::Const { ty, .. } => *ty,
        }
    }

    /// The type of a place in a variable, following array element types (struct fields: the
    /// field's own type variable).
    pub fn place_ty(&self, v: VarId, place: &[Proj]) -> TyId {
        let mut ty = self.vars[v].ty;
        for (n, p) in place.iter().enumerate() {
            ty = match (p, self.types.elem(ty)) {
                (Proj::Index(_), Some(e)) => e,
                // A sub-slice has its slice's type; of an array, a slice type of its own
                // (`Lower::place_ty`).
                (Proj::Range { .. }, _) => {
                    let key = (v, sub_slice_path(&place[..n]));
                    self.field_tys.get(&key).copied().unwrap_or(ty)
                }
                _ => return self.field_ty(v, place).unwrap_or(ty),
            };
        }
        ty
    }

    /// Where a place's trailing sub-slices of an array begin (`1` for `m[k][a..][..b]`): the
    /// array they are taken of is `place[..k]`. `None` where the place ends otherwise or in a
    /// slice's sub-slice.
    pub fn array_under_ranges(&self, v: VarId, place: &[Proj]) -> Option<usize> {
        let ranges = (place.iter().rev())
            .take_while(|p| matches!(p, Proj::Range { .. }))
            .count();
        let k = place.len() - ranges;
        (ranges > 0
            && !self.slices.contains(&v)
            && self.types.array(self.place_ty(v, &place[..k])).is_some())
        .then_some(k)
    }

    /// How much of a read's place the tape records where it records the read: all of it, but
    /// of a sub-slice of an array (`h[1..3]`, whose length a loop reads) the array, which has
    /// a size (the sweeps take the sub-slice of the record).
    pub fn recorded_len(&self, v: VarId, place: &[Proj]) -> usize {
        self.array_under_ranges(v, place).unwrap_or(place.len())
    }

    pub fn target_ty(&self, t: Target) -> TyId {
        match t {
            Target::Var(v) => self.vars[v].ty,
            Target::Temp(t) => self.temps[t].ty,
        }
    }
}

/// Whether a call names its callee's constants (`g::<N>(..)`).
pub fn names_constants(path: &syn::Path) -> bool {
    (path.segments.last()).is_some_and(|s| !s.arguments.is_empty())
}
