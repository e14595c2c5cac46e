//! IR data types. Every float expression is in A-normal form: each operation defines one value
//! (a user variable or a compiler temporary) from operands that are variables, temporaries or
//! constants. Integer and bool expressions stay as trees ([`Pure`]): they carry no derivative.

use proc_macro2::{Ident, Span, TokenStream};

pub type VarId = usize;
pub type TempId = usize;
pub type ReadId = usize;
pub type TyId = usize;

/// What kind of value an expression has; known while lowering, before exact types are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Float,
    Int,
    Bool,
}

/// A type as inference knows it.
#[derive(Clone, Debug)]
pub enum TyVal {
    Unknown(Kind),
    F32,
    F64,
    Bool,
    Int(Ident),
}

impl TyVal {
    pub fn kind(&self) -> Kind {
        match self {
            TyVal::Unknown(k) => *k,
            TyVal::F32 | TyVal::F64 => Kind::Float,
            TyVal::Bool => Kind::Bool,
            TyVal::Int(_) => Kind::Int,
        }
    }
}

/// Union-find over type variables; unresolved floats default to `f64` and integers to `i32`,
/// as rustc does.
#[derive(Default)]
pub struct Types {
    parent: Vec<TyId>,
    val: Vec<TyVal>,
}

impl Types {
    pub fn fresh(&mut self, v: TyVal) -> TyId {
        self.parent.push(self.parent.len());
        self.val.push(v);
        self.parent.len() - 1
    }

    fn root(&self, mut a: TyId) -> TyId {
        while self.parent[a] != a {
            a = self.parent[a];
        }
        a
    }

    pub fn get(&self, a: TyId) -> &TyVal {
        &self.val[self.root(a)]
    }

    pub fn kind(&self, a: TyId) -> Kind {
        self.get(a).kind()
    }

    /// Merges two type variables. A conflict between two known types is left for rustc to
    /// report on the primal function, where the user wrote it.
    pub fn unify(&mut self, a: TyId, b: TyId) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return;
        }
        let keep_b = matches!(self.val[ra], TyVal::Unknown(_));
        if keep_b {
            self.parent[ra] = rb;
        } else {
            self.parent[rb] = ra;
        }
    }

    /// The final type as tokens, with rustc's defaults for unconstrained literals.
    pub fn tokens(&self, a: TyId) -> TokenStream {
        match self.get(a) {
            TyVal::F32 => quote::quote!(f32),
            TyVal::F64 | TyVal::Unknown(Kind::Float) => quote::quote!(f64),
            TyVal::Bool | TyVal::Unknown(Kind::Bool) => quote::quote!(bool),
            TyVal::Unknown(Kind::Int) => quote::quote!(i32),
            TyVal::Int(i) => quote::quote!(#i),
        }
    }

    /// The zero value of a type, as a literal.
    pub fn zero(&self, a: TyId) -> TokenStream {
        match self.kind(a) {
            Kind::Float => quote::quote!(0.0),
            Kind::Int => quote::quote!(0),
            Kind::Bool => quote::quote!(false),
        }
    }
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
}

pub struct Temp {
    pub ty: TyId,
}

#[derive(Clone)]
pub enum Operand {
    /// A read of a variable; `read` identifies this read site (a mutable variable's value is
    /// recorded per read).
    Var {
        var: VarId,
        read: ReadId,
    },
    Temp(TempId),
    /// A literal or a path to a constant.
    Const {
        tokens: TokenStream,
        ty: TyId,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
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
    Call {
        path: syn::Path,
        args: Vec<Operand>,
        span: Span,
    },
    /// An integer, bool or constant float expression: no derivative.
    Pure(Pure),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Target {
    Var(VarId),
    Temp(TempId),
}

pub enum Stmt {
    /// `let target = rhs` (`is_let`) or `target = rhs`.
    Def {
        id: usize,
        target: Target,
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
    Var(VarId),
    Unary(TokenStream, Box<Pure>),
    Bin(TokenStream, Box<Pure>, Box<Pure>),
    Cast(Box<Pure>, TokenStream),
    Method(Box<Pure>, Ident, Vec<Pure>),
    /// A call to the primal of a differentiable function.
    Call(syn::Path, Vec<Pure>),
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
    /// Every variable read, to its variable.
    pub reads: Vec<VarId>,
    /// Constant paths named in the body (checked to be `const` items).
    pub consts: Vec<syn::Path>,
    pub n_defs: usize,
    /// The type of branch flags (`bool`).
    pub flag_ty: TyId,
}

impl Func {
    pub fn operand_ty(&self, o: &Operand) -> TyId {
        match o {
            Operand::Var { var, .. } => self.vars[*var].ty,
            Operand::Temp(t) => self.temps[*t].ty,
            Operand::Const { ty, .. } => *ty,
        }
    }

    pub fn target_ty(&self, t: Target) -> TyId {
        match t {
            Target::Var(v) => self.vars[v].ty,
            Target::Temp(t) => self.temps[t].ty,
        }
    }
}
