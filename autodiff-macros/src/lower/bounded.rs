//! Bounded `while` and `loop` (`#[max_iters(K)]`), and the compile-time bounds on trip counts
//! that size the tape.

use std::collections::HashMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::spanned::Spanned;

use super::{Binding, Lower, MAX_ITERS_CHECK, Mode, err, is_screaming};
use crate::ir::*;

/// A compile-time bound: a number, or an expression of constants plus a known offset (so that
/// `N - 1 + 1` is `N`, which stable Rust accepts as an array length where `N` is generic).
#[derive(Clone)]
pub(super) struct Bound {
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
    /// The bound's value where it is a number.
    pub(super) fn number(&self) -> Option<i128> {
        self.num
    }

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

    /// Whether `self` is below `size`, as far as both are known: numbers, or the same
    /// expression with offsets (`K - 1` and `K`); `true` where they cannot be compared.
    pub(super) fn below(&self, size: &Bound) -> bool {
        match (self.num, size.num) {
            (Some(a), Some(b)) => a < b,
            (None, None) if self.expr.to_string() == size.expr.to_string() => self.off < size.off,
            _ => true,
        }
    }

    /// Does the bound involve a const generic parameter?
    fn any_generic(&self) -> bool {
        self.generic || self.generic_expr
    }

    /// An upper bound on `a / b` for `a <= self` and a constant `b >= 1`: exact where both are
    /// expressions of numbers and `const` items, else `self` (dividing never increases it).
    fn over(&self, b: &Bound) -> Bound {
        match (self.num, b.num) {
            (Some(x), Some(y)) if y > 0 => Bound::num(x / y),
            _ if !self.any_generic() && !b.any_generic() => {
                self.combine(b, quote!(/), |x, y| x / y)
            }
            _ => self.clone(),
        }
    }

    /// An upper bound on `a % b` for `a <= self` and a constant `b >= 1`: `b - 1`, or `self`
    /// when that is smaller or `b` involves a const generic parameter.
    fn modulo(&self, b: &Bound) -> Bound {
        match (self.num, b.num) {
            (Some(x), Some(y)) if y > 0 => Bound::num(x.min(y - 1)),
            (_, Some(y)) if y > 0 => Bound::num(y - 1),
            _ if !b.any_generic() => b.sub(1),
            _ => self.clone(),
        }
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

impl Lower {
    /// `'label: while cond { .. }` or `'label: loop { .. }` with `max_iters(label = K)`: a counted
    /// loop of at most `K` iterations that checks `cond` first, records its trip count, and
    /// panics (in debug and release alike) if it would start iteration `K + 1`.
    pub(super) fn bounded_loop(
        &mut self,
        e: &syn::Expr,
        attrs: &[syn::Attribute],
        label: Option<&syn::Label>,
        cond: Option<&syn::Expr>,
        body: &syn::Block,
        out: &mut Block,
    ) {
        let Some((k, trips)) = self.iteration_bound(e, attrs, label, cond) else {
            return;
        };
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
            extrema: Vec::new(),
            runtime: false,
        });
        self.bound_msgs.push(format!(
            "{name} in `{}` did not finish within {} iterations: raise its `max_iters`",
            self.fn_name,
            crate::names::text(&k.to_token_stream())
        ));
        self.bounds.push(k.clone());
        let (var, blk) = self.bounded_body(id, cond, body);
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

    /// The bound `K` of a bounded loop (`#[max_iters(K)]` on it, or `max_iters(label = K)` in
    /// the attribute's arguments) and its trip bound `K + 1`; `None` after an error.
    fn iteration_bound(
        &mut self,
        e: &syn::Expr,
        attrs: &[syn::Attribute],
        label: Option<&syn::Label>,
        cond: Option<&syn::Expr>,
    ) -> Option<(syn::Expr, Bound)> {
        let attr = attrs.iter().find(|a| a.path().is_ident("max_iters"));
        let bound = match attr {
            Some(a) => match a.parse_args::<syn::Expr>() {
                Ok(k) => Some(k),
                Err(_) => {
                    self.error(err(
                        a,
                        "write the bound as `#[max_iters(K)]`, with `K` a literal or a `const`",
                    ));
                    return None;
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
            return None;
        };
        let Some(max) = self.max_of(&k) else {
            self.error(err(
                &k,
                "the bound must be a compile-time constant: a literal or a `const`",
            ));
            return None;
        };
        let trips = max.add(1);
        if trips.is_generic_expr() {
            self.error(err(&k, "the bound cannot be a const generic parameter (stable Rust cannot size the tape with `K + 1`)"));
            return None;
        }
        Some((k, trips))
    }

    /// The body of bounded loop `id`: `if !(cond) { break; }`, the bound check, then `body`,
    /// with a hidden iteration counter in scope; returns the counter and the lowered body.
    fn bounded_body(
        &mut self,
        id: usize,
        cond: Option<&syn::Expr>,
        body: &syn::Block,
    ) -> (VarId, Block) {
        self.scopes.push(HashMap::new());
        let it = Ident::new("iteration", Span::mixed_site());
        let var = self.declare_var(&it, false, self.f.usize_ty, None, false, true);
        // Hidden from the user's names: only the bound check reads it.
        self.hide(&it, var);
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
        (var, blk)
    }

    /// `if iteration == K { panic!(..) }` at the top of a bounded loop's body.
    pub(super) fn max_iters_check(&mut self, out: &mut Block) {
        let (Some(k), Some(msg)) = (self.bounds.last().cloned(), self.bound_msgs.last().cloned())
        else {
            return;
        };
        let Some(it) = self.lookup("#iteration") else {
            return;
        };
        let read = self.read(it);
        // The counter is a `usize`; a `const` bound may be of any integer type.
        let k = match &k {
            syn::Expr::Lit(_) => quote!(#k),
            _ => quote!(((#k) as usize)),
        };
        let cond = Pure::Bin(
            quote!(==),
            Box::new(Pure::Var(it, Vec::new(), read)),
            Box::new(Pure::Lit(k)),
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
    pub(super) fn trip_bound(
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
        // A negative start (`-3..3`, an `i32` counter) adds its distance from 0.
        let lo = self.min_of(start);
        let mut span = match lo.cmp(&0) {
            std::cmp::Ordering::Greater => hi.sub(lo),
            std::cmp::Ordering::Less => hi.add(-lo),
            std::cmp::Ordering::Equal => hi,
        };
        if let Some(k) = step {
            // The most trips come with the smallest step: a constant's value, else a lower
            // bound (at least 1) of a step that reads loop variables (`step_by(i + 1)`).
            match self.constant(k) {
                // A const generic step: at most the span's trips (a step is at least 1).
                Some(k) if k.any_generic() => {}
                Some(k) => span = span.div_ceil(&k),
                None if self.max_of(k).is_some() => {
                    span = span.div_ceil(&Bound::num(self.min_of(k).max(1)))
                }
                None => {
                    self.error(err(k, "the step must be a compile-time constant"));
                    return None;
                }
            }
        }
        if span.is_generic_expr() {
            self.error(err(
                end,
                format!(
                    "the loop bound `{}{}` would size the tape with arithmetic on a const generic parameter, which stable Rust does not allow in array lengths: write the loop as `0..N` (or `(0..N).rev()`, `0..N / k`, `0..N % k`), split it into loops of such bounds, or make the bound a `const` item",
                    if inclusive { "..=" } else { "" },
                    crate::names::text(&end.to_token_stream())
                ),
            ));
            return None;
        }
        Some((span.tokens(), span.generic))
    }

    /// The smallest value of a loop variable over `start..end` (`..=end` when `inclusive`),
    /// 0 when unknown, and a compile-time bound on its largest.
    pub(super) fn values(
        &self,
        start: &syn::Expr,
        end: &syn::Expr,
        inclusive: bool,
    ) -> (i128, Option<Bound>) {
        let max = self.max_of(end);
        let max = if inclusive {
            max
        } else {
            max.map(|m| m.sub(1))
        };
        (self.min_of(start), max)
    }

    /// An upper bound on an integer expression, known at compile time.
    pub(super) fn max_of(&self, e: &syn::Expr) -> Option<Bound> {
        // `(N)`, `{ N }` (as a length may be written: `[f64; { N }]`).
        match peeled(e) {
            // `K as usize`, as `hvp`'s tangent program prints a bounded loop's trip bound (the
            // path is cast where it is read).
            syn::Expr::Cast(c) if is_usize(&c.ty) => self.max_of(&c.expr),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => Some(Bound::num(i.base10_parse().ok()?)),
            syn::Expr::Path(p) => {
                let id = p.path.get_ident();
                if let Some(id) = id
                    && let Some(v) = self.lookup(&id.to_string())
                {
                    // The largest value of a loop variable, computed where its loop began.
                    return self.ranges.get(&v)?.1.clone();
                }
                let last = p.path.segments.last()?.ident.to_string();
                let generic = id.is_some_and(|id| self.f.generics.iter().any(|(g, _)| g == id));
                // A `const` item may be of any integer type (`const K: i32`), and an array
                // length is a `usize`; a const generic parameter is one already, and stable
                // Rust allows only the bare parameter there.
                let tokens = match generic {
                    true => p.to_token_stream(),
                    false => quote!((#p as usize)),
                };
                (generic || is_screaming(&last)).then(|| Bound::sym(tokens, generic))
            }
            // `::core::cmp::min(a, b)` (a `zip` of arrays whose lengths the macro cannot
            // compare, as the tangent program of `hvp` prints it), `usize::min(a, b)` or
            // `a.min(b)`: the smaller of
            // two numbers, else a bound that is not a const generic, else the first.
            syn::Expr::Call(c) if c.args.len() == 2 && is_min(&c.func) => {
                self.smaller(&c.args[0], &c.args[1])
            }
            // `::core::primitive::usize::saturating_sub(a, k)` (the elements of an array of
            // length `a` past `.skip(k)`, as the tangent program of `hvp` prints the loop): at
            // most `a`, exactly `a - k` (or 0) where both are numbers.
            // `::core::primitive::usize::div_ceil(a, k)` (the elements of `.step_by(k)`): at
            // most `a`, exactly where both are numbers.
            syn::Expr::Call(c) if c.args.len() == 2 && is_usize_fn(&c.func, "div_ceil") => {
                let a = self.max_of(&c.args[0])?;
                Some(match (a.num, self.literal(&c.args[1])) {
                    (Some(n), Some(k)) if k > 0 => Bound::num((n + k - 1) / k),
                    _ => a,
                })
            }
            syn::Expr::Call(c) if c.args.len() == 2 && is_saturating_sub(&c.func) => {
                let a = self.max_of(&c.args[0])?;
                Some(match (a.num, self.literal(&c.args[1])) {
                    (Some(n), Some(k)) => Bound::num((n - k).max(0)),
                    _ => a,
                })
            }
            // `::core::mem::size_of::<T>()` of a type that names no const generic parameter: a
            // constant (the tangent program of `hvp` prints a loop over an array typed through
            // a callee's contract as `0..(size_of::<Out>() / size_of::<Elem>())`, as the
            // primal's tape has its length).
            syn::Expr::Call(c) if c.args.is_empty() && is_size_of(&c.func) => {
                let tokens = c.to_token_stream();
                (!self.names_generics(&tokens)).then(|| Bound::sym(tokens, false))
            }
            syn::Expr::MethodCall(m) if m.method == "min" && m.args.len() == 1 => {
                self.smaller(&m.receiver, &m.args[0])
            }
            // `a.len()` of an array or of a row of one (`m[i].len()`): its length, as written
            // in its type (a slice's is known at run time only).
            syn::Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => {
                if let Some(k) = self.group_len(&m.receiver) {
                    return self.max_of(&syn::parse2::<syn::Expr>(k).ok()?);
                }
                self.array_len(&m.receiver)
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
                    // By a value known exactly; else at most `a` (a divisor is at least 1).
                    syn::BinOp::Div(_) => Some(match self.constant(&b.right) {
                        Some(k) => l.over(&k),
                        None => l,
                    }),
                    syn::BinOp::Rem(_) => Some(match self.constant(&b.right) {
                        Some(k) => l.modulo(&k),
                        None => l,
                    }),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The length of an array local or parameter, or of a row of one (`m[i]`, `m[i][j]`): its
    /// (element) type's, as written; `None` for a slice's or another expression's. A
    /// sub-slice of one (`x[a..b]`, `row` of `let row = &m[i][1..];`) has at most its
    /// array's length.
    pub(super) fn array_len(&self, receiver: &syn::Expr) -> Option<Bound> {
        let (mut base, mut depth) = (receiver, 0);
        while let syn::Expr::Index(ix) = base {
            if !matches!(&*ix.index, syn::Expr::Range(_)) {
                depth += 1;
            }
            base = &*ix.expr;
        }
        let syn::Expr::Path(p) = base else {
            return None;
        };
        let (v, mut ty) = match self.binding(&p.path.get_ident()?.to_string())? {
            Binding::Var(v) => (v, self.f.vars[v].ty),
            // A row (`let row = &m[1];`) or a sub-slice of an array (`&m[k][1..]`): the
            // array's element type as deep as the alias indexes (a range changes no depth).
            Binding::Alias(v, proj, ..) => {
                if proj.iter().any(|p| matches!(p, Proj::Field(_))) {
                    return None;
                }
                depth += proj.iter().filter(|p| matches!(p, Proj::Index(_))).count();
                (v, self.f.vars[v].ty)
            }
            Binding::Group(..) => return None,
        };
        if self.f.slices.contains(&v) {
            return None;
        }
        for _ in 0..depth {
            let TyVal::Array(elem, _) = self.f.types.get(ty) else {
                return None;
            };
            ty = *elem;
        }
        let TyVal::Array(_, n) = self.f.types.get(ty) else {
            return None;
        };
        self.max_of(&syn::parse2::<syn::Expr>(n.clone()).ok()?)
    }

    /// A bound on the smaller of `a` and `b`.
    fn smaller(&self, a: &syn::Expr, b: &syn::Expr) -> Option<Bound> {
        let (a, b) = (self.max_of(a), self.max_of(b));
        match (a, b) {
            (Some(a), Some(b)) => Some(match (a.num, b.num) {
                (Some(m), Some(n)) => Bound::num(m.min(n)),
                _ if a.any_generic() && !b.any_generic() => b,
                _ => a,
            }),
            (a, b) => a.or(b),
        }
    }

    /// The value of a constant integer expression (no loop variable in it), for a divisor.
    fn constant(&self, e: &syn::Expr) -> Option<Bound> {
        struct Locals<'l>(&'l Lower, bool);
        impl<'a> syn::visit::Visit<'a> for Locals<'_> {
            fn visit_ident(&mut self, id: &'a Ident) {
                self.1 |= self.0.lookup(&id.to_string()).is_some();
            }
        }
        let mut v = Locals(self, false);
        syn::visit::Visit::visit_expr(&mut v, e);
        if v.1 || !exact(e) {
            None
        } else {
            self.max_of(e)
        }
    }

    /// An integer literal, possibly in parentheses.
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

    /// A lower bound on an integer expression: 0 when unknown, which holds for the unsigned
    /// (see [`Lower::start_known`] for the signed).
    fn min_of(&self, e: &syn::Expr) -> i128 {
        match e {
            syn::Expr::Paren(p) => self.min_of(&p.expr),
            syn::Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) if matches!(&**expr, syn::Expr::Lit(_)) => -self.min_of(expr),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse().unwrap_or(0),
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&id.to_string()))
                .and_then(|v| self.ranges.get(&v))
                .map(|&(min, _)| min)
                .unwrap_or(0),
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
                self.min_of(&b.left) + self.min_of(&b.right)
            }
            _ => 0,
        }
    }

    /// Whether [`Lower::min_of`] is a true lower bound of `e` whatever its integer type: `e` is
    /// built from literals, const generics and loop variables (not a `const` item, which may be
    /// negative).
    pub(super) fn start_known(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Paren(p) => self.start_known(&p.expr),
            syn::Expr::Lit(_) => true,
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                matches!(&*u.expr, syn::Expr::Lit(_))
            }
            syn::Expr::Path(p) => p.path.get_ident().is_some_and(|id| {
                self.f.generics.iter().any(|(g, _)| g == id)
                    || self
                        .lookup(&id.to_string())
                        .is_some_and(|v| self.ranges.contains_key(&v))
            }),
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
                self.start_known(&b.left) && self.start_known(&b.right)
            }
            _ => false,
        }
    }
}

/// Is `f` the path of `cmp::min` (`::core::cmp::min`, `std::cmp::min`) or `usize::min`?
fn is_min(f: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = f else {
        return false;
    };
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    names.ends_with(&["cmp".to_string(), "min".to_string()]) || names == ["usize", "min"]
}

/// `usize::saturating_sub` as a path, `::core::primitive::usize::saturating_sub` too.
fn is_saturating_sub(f: &syn::Expr) -> bool {
    is_usize_fn(f, "saturating_sub")
}

/// `usize::name` (`::core::primitive::usize::name`).
fn is_usize_fn(f: &syn::Expr, name: &str) -> bool {
    let syn::Expr::Path(p) = f else {
        return false;
    };
    let names: Vec<String> = (p.path.segments.iter())
        .map(|s| s.ident.to_string())
        .collect();
    names.ends_with(&["usize".to_string(), name.to_string()])
}

/// The expression a block of nothing else holds (`{ N }`).
fn block_expr(b: &syn::ExprBlock) -> Option<&syn::Expr> {
    match &b.block.stmts[..] {
        [syn::Stmt::Expr(e, None)] if b.label.is_none() => Some(e),
        _ => None,
    }
}

/// `e` without the parentheses, invisible groups and blocks of nothing else around it
/// (`({ N })` -> `N`).
pub(super) fn peeled(mut e: &syn::Expr) -> &syn::Expr {
    loop {
        e = match e {
            syn::Expr::Paren(p) => &p.expr,
            syn::Expr::Group(g) => &g.expr,
            syn::Expr::Block(b) => match block_expr(b) {
                Some(inner) => inner,
                None => return e,
            },
            _ => return e,
        };
    }
}

/// `::core::mem::size_of::<T>`, as the tangent program of `hvp` prints it (not a user's
/// `size_of`, which may be any function).
fn is_size_of(f: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = f else {
        return false;
    };
    let names: Vec<String> = (p.path.segments.iter())
        .map(|s| s.ident.to_string())
        .collect();
    let turbofish = (p.path.segments.last())
        .is_some_and(|s| matches!(s.arguments, syn::PathArguments::AngleBracketed(_)));
    p.qself.is_none()
        && p.path.leading_colon.is_some()
        && names == ["core", "mem", "size_of"]
        && turbofish
}

/// `usize`, the type a tape length is cast to.
pub(super) fn is_usize(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("usize"))
}

/// Does `max_of` give `e`'s exact value, not only a bound (no `min`, no `a - b` with `b` not a
/// literal)? A step or a divisor needs the exact value.
fn exact(e: &syn::Expr) -> bool {
    match peeled(e) {
        syn::Expr::Lit(_) | syn::Expr::Path(_) => true,
        syn::Expr::Cast(c) if is_usize(&c.ty) => exact(&c.expr),
        syn::Expr::Call(c) => c.args.is_empty() && is_size_of(&c.func),
        syn::Expr::Binary(b) => match b.op {
            syn::BinOp::Sub(_) => {
                exact(&b.left)
                    && matches!(
                        &*b.right,
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(_),
                            ..
                        })
                    )
            }
            _ => exact(&b.left) && exact(&b.right),
        },
        _ => false,
    }
}
