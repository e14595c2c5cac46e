//! Types as the macro's inference knows them: a union-find over type variables, and each
//! type printed as tokens (annotations, tape fields, zeros).

use proc_macro2::{Ident, TokenStream};

pub type TyId = usize;

/// What kind of value an expression has; known while lowering, before exact types are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Float,
    Int,
    Bool,
    /// A fixed-size array (of floats, integers, or arrays).
    Array,
    /// A user struct, passed by reference: its float fields carry derivatives.
    Struct,
    /// A fieldless enum the function matches on: a value without derivative.
    Enum,
    /// A number whose kind the function's source does not tell: a `const` item declared
    /// elsewhere, before its use makes it a float or an integer. It is a constant either way
    /// (no derivative); unification with a float or an integer decides it.
    Num,
}

/// A type as inference knows it.
#[derive(Clone, Debug)]
pub enum TyVal {
    Unknown(Kind),
    F32,
    F64,
    Bool,
    Int(Ident),
    /// `[elem; len]`.
    Array(TyId, TokenStream),
    /// `[elem]`, the type behind a slice parameter `&[elem]`: an array whose length is known at
    /// run time only, read in place (differentiated where `wrt(..)` names the parameter); also
    /// the type of a sub-slice of an array (`&x[a..b]`), differentiated as its array is.
    Slice(TyId),
    /// `Vec<elem>`: a local created with `vec![c; len]`, an array whose length is known at run
    /// time. Read and written by element only; its length is the `len` of its definition
    /// ([`Pure::Vec`], in [`Func::vec_lens`]).
    Vec(TyId),
    Struct(TokenStream),
    /// A struct-typed parameter only ever passed on whole to calls through their contracts
    /// (`g(x, mode)`): maybe a fieldless enum, which the macro cannot tell from here. Its
    /// derivative is of its own type, and its zero comes from the first such callee, which
    /// knows what the type is (`GZero{i}`, a `Default` struct or a copy of the enum, which
    /// carries no derivative): the type, the path of that trait, and the parameter's name.
    PassedOn(TokenStream, TokenStream, Ident),
    Enum(TokenStream),
    /// An array a call returns, bound without a type (`let y = matvec(m, v);`): its element,
    /// and the type named through the callee's contract ([`CallOut`]).
    Out(TyId, std::rc::Rc<CallOut>),
    /// What a call returns, bound without a type and only ever passed on whole by value (`let
    /// y = g(x); h(y)`): a float or an array, which the macro cannot tell, named through the
    /// callee's contract. Taken for an array without elements: it is never indexed, and the
    /// code that handles it names its type only (its zero from a block-local trait, its
    /// cotangent handed to the callee by `__StackgradDOut`).
    Whole(std::rc::Rc<CallOut>),
    /// An element of the tuple a call returns (`let w = g(x).0;`) that nothing else types: a
    /// float, named through the callee's contract (`<() as GCall<..>>::Elem0`), as the callee
    /// declares it (an `f32` where the caller's floats would default to `f64`).
    Elem(std::rc::Rc<CallOut>, usize),
}

/// The type of what a call returns, as its callee's contract names it: `<() as
/// GCall<A0, ..>>::Out` (the argument types from which rustc infers the callee's constants),
/// or, `depth` levels down, its element `<.. as ::core::ops::Index<usize>>::Output`.
#[derive(Clone, Debug)]
pub struct CallOut {
    /// The path of the callee's contract trait (`m::GCall`).
    pub contract: TokenStream,
    /// The type of each argument, without its reference.
    pub args: Vec<TyId>,
    pub depth: usize,
}

impl CallOut {
    /// The whole value of a call of `path` with arguments of types `args`.
    pub fn of(path: &syn::Path, args: Vec<TyId>) -> CallOut {
        CallOut {
            contract: crate::names::contract_path(path),
            args,
            depth: 0,
        }
    }
}

impl TyVal {
    pub fn kind(&self) -> Kind {
        match self {
            TyVal::Unknown(k) => *k,
            TyVal::F32 | TyVal::F64 | TyVal::Elem(..) => Kind::Float,
            TyVal::Bool => Kind::Bool,
            TyVal::Int(_) => Kind::Int,
            TyVal::Array(..)
            | TyVal::Slice(_)
            | TyVal::Vec(..)
            | TyVal::Out(..)
            | TyVal::Whole(_) => Kind::Array,
            TyVal::Struct(_) | TyVal::PassedOn(..) => Kind::Struct,
            TyVal::Enum(_) => Kind::Enum,
        }
    }
}

/// Union-find over type variables; unresolved floats default to `f64` and integers to `i32`,
/// as rustc does.
#[derive(Default)]
pub struct Types {
    parent: Vec<TyId>,
    val: Vec<TyVal>,
    /// The elements of contract-named arrays, with what each is if it is indexed in turn.
    below: Vec<(TyId, CallOut)>,
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
    /// report on the primal function, where the user wrote it. Of two unknowns, the one that
    /// knows more wins: a float or an integer over a number of unknown kind.
    /// Whether two types were unified into one.
    pub fn same(&self, a: TyId, b: TyId) -> bool {
        self.root(a) == self.root(b)
    }

    pub fn unify(&mut self, a: TyId, b: TyId) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return;
        }
        if let (
            TyVal::Array(ea, _) | TyVal::Slice(ea) | TyVal::Vec(ea) | TyVal::Out(ea, _),
            TyVal::Array(eb, _) | TyVal::Slice(eb) | TyVal::Vec(eb) | TyVal::Out(eb, _),
        ) = (&self.val[ra], &self.val[rb])
        {
            let (ea, eb) = (*ea, *eb);
            self.unify(ea, eb);
        }
        let keep_b = match (&self.val[ra], &self.val[rb]) {
            (TyVal::Unknown(Kind::Num), _) => true,
            (_, TyVal::Unknown(Kind::Num)) => false,
            // An array type as written says more than one named through a contract.
            (TyVal::Out(..), TyVal::Array(..)) => true,
            // What is only passed on whole (the tangent program's `let y: W = pair[0];`) may
            // be a float: never taken for the array a contract names.
            (TyVal::Out(..), TyVal::Whole(_)) => true,
            (TyVal::Whole(_), TyVal::Out(..)) => false,
            // A float it meets is what it is.
            (TyVal::Whole(_), TyVal::F64 | TyVal::F32) => true,
            (TyVal::F64 | TyVal::F32, TyVal::Whole(_)) => false,
            (a, _) => matches!(a, TyVal::Unknown(_)),
        };
        if keep_b {
            self.parent[ra] = rb;
        } else {
            self.parent[rb] = ra;
        }
    }

    /// The element type of an array type.
    pub fn elem(&self, a: TyId) -> Option<TyId> {
        match self.get(a) {
            TyVal::Array(e, _) | TyVal::Slice(e) | TyVal::Vec(e) | TyVal::Out(e, _) => Some(*e),
            _ => None,
        }
    }

    /// A fixed-size array's element and length, as an expression: a contract-named array's
    /// ([`TyVal::Out`]) is computed from its size, which names only types.
    pub fn array(&self, a: TyId) -> Option<(TyId, TokenStream)> {
        match self.get(a) {
            TyVal::Array(e, n) => Some((*e, n.clone())),
            TyVal::Out(e, _) => {
                let w = self.tokens(a);
                let size = quote::quote!(::core::mem::size_of);
                Some((
                    *e,
                    quote::quote!((#size::<#w>() / #size::<<#w as ::core::ops::Index<usize>>::Output>())),
                ))
            }
            _ => None,
        }
    }

    /// Makes `a` the array `call` returns (or its element, `depth` levels down): an unknown type
    /// that is indexed or borrowed. Its element is a float unless it is indexed too.
    pub fn call_out(&mut self, a: TyId, call: CallOut) {
        let elem = self.fresh(TyVal::Unknown(Kind::Float));
        let below = CallOut {
            depth: call.depth + 1,
            ..call.clone()
        };
        self.below.push((elem, below));
        let out = self.fresh(TyVal::Out(elem, std::rc::Rc::new(call)));
        self.unify(a, out);
    }

    /// Makes `a`, an element of the tuple `call` returns, element `k` as the callee's contract
    /// names it ([`TyVal::Elem`]), if nothing else has typed it.
    pub fn tuple_elem(&mut self, a: TyId, call: CallOut, k: usize) {
        let r = self.root(a);
        if matches!(self.val[r], TyVal::Unknown(Kind::Float)) {
            self.val[r] = TyVal::Elem(std::rc::Rc::new(call), k);
        }
    }

    /// Makes `a` what `call` returns, a float or an array only passed on whole
    /// ([`TyVal::Whole`]).
    pub fn whole(&mut self, a: TyId, call: CallOut) {
        let whole = self.fresh(TyVal::Whole(std::rc::Rc::new(call)));
        self.unify(a, whole);
    }

    /// Makes the struct parameter `param`'s type `a` one only passed on ([`TyVal::PassedOn`]),
    /// whose zero is `<P as zero>::__stackgrad_zero_of(param)`.
    pub fn passed_on(&mut self, a: TyId, zero: TokenStream, param: Ident) {
        let r = self.root(a);
        if let TyVal::Struct(p) = &self.val[r] {
            self.val[r] = TyVal::PassedOn(p.clone(), zero, param);
        }
    }

    /// Makes the struct type `a` a value without derivative, as an enum's (`Kind::Enum`).
    pub fn as_data(&mut self, a: TyId) {
        let r = self.root(a);
        if let TyVal::Struct(p) = &self.val[r] {
            self.val[r] = TyVal::Enum(p.clone());
        }
    }

    /// Whether `a` is what a call returns, only passed on whole ([`TyVal::Whole`]).
    pub fn is_whole(&self, a: TyId) -> bool {
        matches!(self.get(a), TyVal::Whole(_))
    }

    /// Makes an unknown element of a contract-named array an array too (`y[i][j]`); whether it
    /// is one.
    pub fn index_below(&mut self, a: TyId) -> bool {
        if !matches!(self.get(a), TyVal::Unknown(_)) {
            return false;
        }
        let Some((_, below)) = self.below.iter().find(|(e, _)| self.same(*e, a)) else {
            return false;
        };
        let below = below.clone();
        self.call_out(a, below);
        true
    }

    /// The type an argument contributes to a callee's contract: arrays, slices and structs as
    /// they are (their constants are what rustc infers), anything else `()` (no constant comes
    /// from a number, and its position in the contract takes any type).
    pub fn contract_arg(&self, a: TyId) -> TokenStream {
        match self.get(a) {
            TyVal::Vec(..) => quote::quote!(()),
            v if matches!(v.kind(), Kind::Array | Kind::Struct | Kind::Enum) => self.tokens(a),
            _ => quote::quote!(()),
        }
    }

    /// Is this a float, an array of floats or a struct: something that can carry a derivative?
    pub fn differentiable(&self, a: TyId) -> bool {
        match self.kind(a) {
            Kind::Float | Kind::Struct => true,
            Kind::Array => self.elem(a).is_none_or(|e| self.differentiable(e)),
            _ => false,
        }
    }

    /// Is the type fully known to the macro (no float or number left to inference)?
    pub fn known(&self, a: TyId) -> bool {
        match self.get(a) {
            // Its length is no part of its type: a `let` leaves it to rustc.
            TyVal::Vec(..) => false,
            TyVal::Unknown(Kind::Float | Kind::Num) => false,
            TyVal::Array(e, _) | TyVal::Slice(e) => self.known(*e),
            _ => true,
        }
    }

    /// The type as tokens where rustc can infer it (a `let` binding): a float the macro could
    /// not type is `_`, so rustc types it as it types the user's own function (from a `const`
    /// item's declared type, a callee's signature) instead of the macro guessing `f64`.
    pub fn tokens_infer(&self, a: TyId) -> TokenStream {
        match self.get(a) {
            TyVal::Vec(..) => quote::quote!(_),
            // An integer the macro could not type (a loop counter, a literal): rustc types it
            // from its uses, which may include a callee's `usize` parameter the macro cannot see.
            TyVal::Unknown(Kind::Float | Kind::Num | Kind::Int) => quote::quote!(_),
            TyVal::Array(e, n) => {
                let e = self.tokens_infer(*e);
                quote::quote!([#e; #n])
            }
            TyVal::Slice(e) => {
                let e = self.tokens_infer(*e);
                quote::quote!([#e])
            }
            _ => self.tokens(a),
        }
    }

    /// The type as tokens where it is [`Self::known`], else `_` (a destructuring `let`'s element
    /// type, which the macro's own lowering reads back: it has no `[_; N]`).
    pub fn tokens_or_infer(&self, a: TyId) -> TokenStream {
        if self.known(a) {
            self.tokens(a)
        } else {
            quote::quote!(_)
        }
    }

    /// The scalar type at the bottom of a (nested) array type, or the type itself.
    pub fn leaf(&self, a: TyId) -> TyId {
        match self.elem(a) {
            Some(e) => self.leaf(e),
            None => a,
        }
    }

    /// `: T` for a `let`, or nothing where rustc infers the type better (a float the macro
    /// could not type: see [`Types::tokens_infer`]).
    pub fn annotation(&self, a: TyId) -> TokenStream {
        if self.known(a) && !matches!(self.get(a), TyVal::Unknown(Kind::Int)) {
            let ty = self.tokens(a);
            quote::quote!(: #ty)
        } else {
            TokenStream::new()
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
            TyVal::Array(e, n) => {
                let e = self.tokens(*e);
                quote::quote!([#e; #n])
            }
            TyVal::Slice(e) => {
                let e = self.tokens(*e);
                quote::quote!([#e])
            }
            TyVal::Struct(p) | TyVal::Enum(p) | TyVal::PassedOn(p, ..) => p.clone(),
            TyVal::Elem(c, k) => {
                let contract = &c.contract;
                let args = c.args.iter().map(|&t| self.contract_arg(t));
                let elem = quote::format_ident!("Elem{k}");
                quote::quote!(<() as #contract<#(#args),*>>::#elem)
            }
            TyVal::Out(_, c) | TyVal::Whole(c) => {
                let mut t = self.contract_out(c);
                for _ in 0..c.depth {
                    t = quote::quote!(<#t as ::core::ops::Index<usize>>::Output);
                }
                // The same type, written so that `hvp`'s tangent program, lowered again from
                // its text, reads it back as one passed on whole.
                if matches!(self.get(a), TyVal::Whole(_)) {
                    t = quote::quote!(<[#t; 1] as ::core::iter::IntoIterator>::Item);
                }
                t
            }
            // Never a field or a signature's type: a `Vec` local is never recorded or passed
            // whole (lowering rejects both).
            TyVal::Unknown(_) | TyVal::Vec(..) => quote::quote!(_),
        }
    }

    /// What a call returns, as its callee's contract names it: `<() as GCall<A0, ..>>::Out`
    /// (`c.depth` aside).
    pub fn contract_out(&self, c: &CallOut) -> TokenStream {
        let contract = &c.contract;
        let args = c.args.iter().map(|&t| self.contract_arg(t));
        quote::quote!(<() as #contract<#(#args),*>>::Out)
    }

    /// The zero value of a type, as a literal.
    pub fn zero(&self, a: TyId) -> TokenStream {
        self.filled(a, quote::quote!(0.0))
    }

    /// A value of the type with every float set to `float` (`0.0`, or `-0.0` for accumulators).
    /// The starting value of an accumulator of type `a`: `-0.0` for a float (the additive
    /// identity, so the compiler can fold the first `+=`), `0.0` in arrays (a fill with `-0.0` is
    /// not a `memset`; for a large array the compiler emitted scattered stores).
    pub fn zero_acc(&self, a: TyId) -> TokenStream {
        let fill = if self.kind(a) == Kind::Array {
            quote::quote!(0.0)
        } else {
            quote::quote!(-0.0)
        };
        self.filled(a, fill)
    }

    pub fn filled(&self, a: TyId, float: TokenStream) -> TokenStream {
        match self.get(a) {
            TyVal::Array(e, n) => {
                let e = self.filled(*e, float);
                quote::quote!([#e; #n])
            }
            // Its shape is the callee's (named by its contract), which an array only borrowed or
            // passed on does not tell: the zero of whatever floats and arrays of them it is, from
            // a block-local trait (generated code names only `::core`).
            TyVal::Out(..) | TyVal::Whole(_) => {
                let ty = self.tokens(a);
                quote::quote!({
                    #[diagnostic::on_unimplemented(
                        message = "`{Self}` is what a call returns, bound by a `let` and passed on whole to another call, which takes a float or an array of floats there",
                        note = "a struct a call returns is read by field where it is needed (`s.a`), not passed on whole"
                    )]
                    trait __StackgradZero: ::core::marker::Copy {
                        const ZERO: Self;
                    }
                    impl __StackgradZero for f32 {
                        const ZERO: Self = 0.0;
                    }
                    impl __StackgradZero for f64 {
                        const ZERO: Self = 0.0;
                    }
                    impl<T: __StackgradZero, const N: usize> __StackgradZero for [T; N] {
                        const ZERO: Self = [T::ZERO; N];
                    }
                    <#ty as __StackgradZero>::ZERO
                })
            }
            // A slice is never zeroed: it is not differentiated and never recorded.
            TyVal::Slice(_) => quote::quote!([]),
            // Zeroed where its length is at hand, by its `Pure::Vec` definition
            // ([`Pure::vec_filled`]), never through here.
            TyVal::Vec(..) => panic!("stackgrad: a `Vec` local zeroed without its length"),
            TyVal::Struct(p) => quote::quote!(<#p as ::core::default::Default>::default()),
            TyVal::PassedOn(p, zero, param) => {
                quote::quote!(<#p as #zero>::__stackgrad_zero_of(#param))
            }
            v => match v.kind() {
                Kind::Float | Kind::Num => float,
                Kind::Int => quote::quote!(0),
                _ => quote::quote!(false),
            },
        }
    }
}
