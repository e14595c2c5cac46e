//! The windows of an iterator loop's arrays: `.skip(k)`, `.take(n)` and `.rev()` right after
//! `.iter()`, and the counts they yield; and the groups of `.windows(K)` and
//! `.chunks_exact(K)`, each bound to a name read by element.

use proc_macro2::TokenStream;
use quote::ToTokens;

use super::{Binding, Lower, err};
use crate::ir::{Proj, Pure, TyVal, VarId};

/// The `.skip(k)`, `.take(n)` and `.rev()` right after an iterated array's `.iter()`: the
/// first element it yields and the most it yields (each an integer literal or a `const`), and
/// whether it yields them last first (a `.rev()` that `.enumerate()` or a `zip` follows).
#[derive(Default)]
pub(super) struct Window {
    pub(super) skip: Option<TokenStream>,
    pub(super) take: Option<TokenStream>,
    pub(super) rev: bool,
    /// `.skip(k)` and `.take(n)` after the `.rev()`: the last `k` elements left out, then at
    /// most `n` of the rest, last first.
    pub(super) back_skip: Option<TokenStream>,
    pub(super) back_take: Option<TokenStream>,
    /// `.step_by(s)` after the `.skip(k)` and `.take(n)`: every `s`-th of their elements.
    pub(super) step: Option<TokenStream>,
    /// The elements come as references (`.iter()`, `.iter_mut()`, `&a`), not by value.
    pub(super) borrowed: bool,
    /// `.windows(K)` or `.chunks_exact(K)` instead of `.iter()`: groups of `K` elements.
    pub(super) group: Option<Group>,
    /// Iterating a group (`w.iter()` of `w` in `x.windows(K)`): its start in its array, and
    /// its size.
    pub(super) within: Option<(Pure, TokenStream)>,
}

/// The groups of `K` elements `.windows(K)` (`chunks: false`, each from the next element on)
/// or `.chunks_exact(K)` (`chunks: true`, side by side, the rest left out) yields.
#[derive(Clone)]
pub(super) struct Group {
    pub(super) chunks: bool,
    pub(super) k: TokenStream,
}

/// A group's name read otherwise than by element or length.
const GROUP_USE: &str = "a group of `.windows(K)` or `.chunks_exact(K)` of an array is read by element (`w[0]`, `w[j]`), measured (`w.len()`) and iterated (`w.iter()`); to pass it to a call, index the array instead (`g(x[i], x[i + 1])`), or make the array a slice parameter (`x: &[f64]`), whose groups are sub-slices";

impl Window {
    /// Whether the window yields a count of its own (not the whole array's).
    pub(super) fn counted(&self) -> bool {
        self.skip.is_some()
            || self.take.is_some()
            || self.back_skip.is_some()
            || self.back_take.is_some()
            || self.step.is_some()
            || self.group.is_some()
    }

    /// How many elements the array of length `len` yields: its groups, or `len` past the
    /// skipped ones, at most the taken ones, every `step`-th, then the same from the end
    /// after a `.rev()` (worked out here where all are literals).
    pub(super) fn count(&self, len: &TokenStream) -> TokenStream {
        if let Some(Group { chunks, k }) = &self.group {
            return match chunks {
                // `len - (K - 1)`, not `len + 1 - K`: `hvp`'s tangent program reads the count
                // again as a loop bound, at most `len` (a const generic alone, as a tape's
                // length must be). A `const` `K` of 0 (`.windows(0)` panics) overflows in
                // `K - 1`: rustc's `arithmetic_overflow` error for a `const` item, a panic in
                // a debug build for a const generic parameter.
                false => {
                    let less = match literal(k) {
                        Some(k) => usize_lit(k - 1),
                        None => quote::quote!(#k - 1),
                    };
                    sub_tokens(len, &less)
                }
                true => match (literal(len), literal(k)) {
                    (Some(l), Some(k)) => usize_lit(l / k),
                    _ => quote::quote!(((#len) / #k)),
                },
            };
        }
        let mut rest = len.clone();
        if let Some(k) = &self.skip {
            rest = sub_tokens(&rest, k);
        }
        if let Some(n) = &self.take {
            rest = min_tokens(&rest, n);
        }
        if let Some(s) = &self.step {
            rest = div_ceil_tokens(&rest, s);
        }
        if let Some(k) = &self.back_skip {
            rest = sub_tokens(&rest, k);
        }
        if let Some(n) = &self.back_take {
            rest = min_tokens(&rest, n);
        }
        rest
    }
}

pub(super) fn usize_lit(n: usize) -> TokenStream {
    proc_macro2::Literal::usize_unsuffixed(n).into_token_stream()
}

/// The smaller of two counts: a literal where both are.
pub(super) fn min_tokens(a: &TokenStream, b: &TokenStream) -> TokenStream {
    match (literal(a), literal(b)) {
        (Some(a), Some(b)) => usize_lit(a.min(b)),
        _ => quote::quote!(::core::cmp::min(#a, #b)),
    }
}

/// A count less `k`, at least 0: a literal where both are.
fn sub_tokens(a: &TokenStream, k: &TokenStream) -> TokenStream {
    match (literal(a), literal(k)) {
        (Some(a), Some(k)) => usize_lit(a.saturating_sub(k)),
        _ => quote::quote!(::core::primitive::usize::saturating_sub(#a, #k)),
    }
}

/// A count divided by `s`, rounded up: a literal where both are.
fn div_ceil_tokens(a: &TokenStream, s: &TokenStream) -> TokenStream {
    match (literal(a), literal(s)) {
        (Some(a), Some(s)) => usize_lit(a.div_ceil(s)),
        _ => quote::quote!(::core::primitive::usize::div_ceil(#a, #s)),
    }
}

/// Where an iterator loop's counter `k` reads its array: at `k` plus the elements skipped
/// (`.skip(k)`), or, reversed, at `end - (k + 1)` (`end` one past the last element yielded).
pub(super) enum At {
    /// From the skipped elements on, every `step`-th.
    From(Option<TokenStream>, Option<TokenStream>),
    Back(Pure),
    /// A group of `.windows(K)` (from the counter on) or `.chunks_exact(K)` (from `K` times
    /// the counter on).
    Group(Group),
    /// In a group that starts at the position: where the counter reads within it.
    Within(Pure, Box<At>),
}

impl At {
    /// The position the counter `k` reads (not of a group, which binds a name of its own).
    pub(super) fn index(self, k: Box<Pure>) -> Pure {
        let bin = |op: TokenStream, a: Pure, b: Pure| Pure::Bin(op, Box::new(a), Box::new(b));
        match self {
            At::From(skip, step) => {
                let k = match step {
                    Some(s) => bin(quote::quote!(*), *k, Pure::Lit(s)),
                    None => *k,
                };
                match skip {
                    Some(skip) => bin(quote::quote!(+), k, Pure::Lit(skip)),
                    None => k,
                }
            }
            At::Back(end) => {
                let after = bin(quote::quote!(+), *k, Pure::Lit(quote::quote!(1)));
                bin(quote::quote!(-), end, after)
            }
            At::Within(start, at) => bin(quote::quote!(+), start, at.index(k)),
            At::Group(_) => unreachable!("a group binds a name of its own"),
        }
    }
}

impl Lower {
    /// Where the counter reads the array at `(v, proj)` through its window: at the counter
    /// plus the skipped elements, or, reversed, back from one past the last element the
    /// window yields (the array's end, or `skip + take` where that comes first).
    pub(super) fn window_at(&mut self, w: Window, v: VarId, proj: &[Proj]) -> At {
        if let Some(g) = w.group {
            return At::Group(g);
        }
        let Some((start, k)) = w.within.clone() else {
            let len = self.place_len(v, proj);
            return w.at(len);
        };
        At::Within(start, Box::new(w.at(Pure::Lit(k))))
    }
}

impl Window {
    /// Where the counter reads an array of length `len` through the window.
    fn at(self, len: Pure) -> At {
        if !self.rev {
            return At::From(self.skip, self.step);
        }
        let end = match (self.skip, self.take) {
            (_, None) => len,
            (skip, Some(n)) => {
                let skip = skip.unwrap_or_else(|| quote::quote!(0));
                let end = Pure::Lit(quote::quote!((#skip + #n)));
                Pure::Call(crate::ir::core_min(), vec![end, len])
            }
        };
        // Read only where the counter is below the count: never below the skipped ones.
        At::Back(match self.back_skip {
            None => end,
            Some(k) => Pure::Bin(quote::quote!(-), Box::new(end), Box::new(Pure::Lit(k))),
        })
    }
}

impl Lower {
    /// Whether a count is the same in every sweep: integer literals, `const` items (`K`,
    /// `Self::K`, `m::K`) and const generic parameters, with arithmetic and `as usize`.
    fn constant_count(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(_),
                ..
            }) => true,
            syn::Expr::Paren(p) => self.constant_count(&p.expr),
            syn::Expr::Group(g) => self.constant_count(&g.expr),
            syn::Expr::Cast(c) => super::bounded::is_usize(&c.ty) && self.constant_count(&c.expr),
            syn::Expr::Binary(b) => {
                matches!(
                    b.op,
                    syn::BinOp::Add(_)
                        | syn::BinOp::Sub(_)
                        | syn::BinOp::Mul(_)
                        | syn::BinOp::Div(_)
                        | syn::BinOp::Rem(_)
                ) && self.constant_count(&b.left)
                    && self.constant_count(&b.right)
            }
            // Not a local, a parameter or an element name (an alias) in capitals.
            syn::Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(id) => {
                    let name = id.to_string();
                    let generic = self.f.generics.iter().any(|(g, _)| g == id);
                    let local = match self.binding(&name) {
                        Some(Binding::Var(v)) => !self.f.vars[v].constant,
                        Some(Binding::Alias(..) | Binding::Group(..)) => true,
                        None => false,
                    };
                    (generic || super::is_screaming(&name)) && !local
                }
                None => (p.path.segments.last()).is_some_and(|s| {
                    s.arguments.is_none() && super::is_screaming(&s.ident.to_string())
                }),
            },
            _ => false,
        }
    }

    /// Narrows an array's window by the `.skip(k)`, `.take(n)` or `.rev()` after its `.iter()`:
    /// `k` and `n` constants ([`Lower::constant_count`]), which every sweep reads alike; after
    /// a `.rev()`, `.skip(k)` leaves out the last `k` and `.take(n)` keeps `n` of the rest.
    pub(super) fn narrow(&mut self, window: &mut Window, m: &syn::ExprMethodCall) -> Option<()> {
        let skip = m.method == "skip";
        if window.group.is_some() && m.method == "rev" {
            self.error(err(
                &m.method,
                "`.rev()` of a group before `.enumerate()` or in a `zip` is not supported; `.rev()` last runs the loop backwards with its index (`x.windows(K).enumerate().rev()`); for the groups last first with an index from 0, loop over indices",
            ));
            return None;
        }
        if window.group.is_some() {
            self.error(err(
                &m.method,
                format!("`.{}(..)` after `.windows(K)` or `.chunks_exact(K)` is not supported; loop over indices instead, as in `for i in k..x.len() - 1` reading `x[i]` and `x[i + 1]`", m.method),
            ));
            return None;
        }
        if m.method == "rev" && m.args.is_empty() {
            if window.step.is_some() {
                self.error(err(
                    &m.method,
                    "`.rev()` after `.step_by(s)` before `.enumerate()` or in a `zip` is not supported; `.rev()` last reverses the loop (`x.iter().step_by(2).enumerate().rev()`)",
                ));
                return None;
            }
            if window.back_skip.is_some() || window.back_take.is_some() {
                self.error(err(
                    &m.method,
                    "`.rev()` after `.rev().skip(k)` or `.rev().take(n)` is not supported; write the window forwards: `.rev().skip(k).rev()` is `.take(len - k)`, `.rev().take(n).rev()` is `.skip(len - n)`",
                ));
                return None;
            }
            if window.rev {
                self.error(err(
                    &m.method,
                    "two `.rev()` on one array cancel: leave both out",
                ));
                return None;
            }
            window.rev = true;
            return Some(());
        }
        if m.method == "step_by" && (window.rev || window.step.is_some()) {
            self.error(err(
                &m.method,
                "`.step_by(s)` once, before any `.rev()` of the array: `.rev()` last reverses the loop (`x.iter().step_by(2).enumerate().rev()`)",
            ));
            return None;
        }
        if !skip && m.method != "take" && m.method != "step_by" {
            self.error(err(
                &m.method,
                format!("`.{}()` is not supported on the iterator of a `zip`; write `b.iter()`, with `.skip(k)`, `.take(n)` and `.rev()` if needed", m.method),
            ));
            return None;
        }
        if window.step.is_some() {
            self.error(err(
                &m.method,
                format!("`.{}(..)` after `.step_by(s)` is not supported; write `.skip(k)` and `.take(n)` before it (they count the array's elements), or loop over indices", m.method),
            ));
            return None;
        }
        let bound = match &m.args.first() {
            // In parentheses where it is more than one token: it is read inside sums.
            Some(e) if m.args.len() == 1 && self.constant_count(e) => Some(match e {
                syn::Expr::Lit(_) | syn::Expr::Path(_) => e.to_token_stream(),
                e => quote::quote!((#e)),
            }),
            _ => None,
        };
        let Some(bound) = bound else {
            let instead = match m.method.to_string().as_str() {
                "skip" => "`for i in k..a.len()`",
                "step_by" => "`for i in (0..a.len()).step_by(s)`",
                _ => "`for i in 0..n.min(a.len())`",
            };
            self.error(err(
                m.args.first().map_or(&m.method as &dyn ToTokens, |a| a as &dyn ToTokens),
                format!("`.{}(..)` takes an integer literal or a `const` here (the same in every sweep); for a count computed at run time, loop over the indices: {instead}", m.method),
            ));
            return None;
        };
        if m.method == "step_by" {
            if literal(&bound) == Some(0) {
                self.error(err(
                    &m.args[0],
                    "`.step_by(0)` panics: the step is at least 1",
                ));
                return None;
            }
            window.step = Some(bound);
            return Some(());
        }
        // Before the `.rev()`, or after it (from the last element on).
        let (first, then) = match window.rev {
            false => (&mut window.skip, &mut window.take),
            true => (&mut window.back_skip, &mut window.back_take),
        };
        if then.is_some() || (skip && first.is_some()) {
            self.error(err(
                &m.method,
                "write one `.skip(k)` and then one `.take(n)` after `.iter()` (and after `.rev()`): `.take(n).skip(k)` is `.skip(k).take(n - k)` (for `n >= k`), two `.skip`s are one of their sum and two `.take`s one of the smaller",
            ));
            return None;
        }
        *(if skip { first } else { then }) = Some(bound);
        Some(())
    }
}

impl Lower {
    /// `.windows(K)` or `.chunks_exact(K)` in place of `.iter()`: a window yielding groups of
    /// `K` elements, `K` a constant ([`Lower::constant_count`]) other than 0 (on which Rust
    /// panics).
    pub(super) fn group_window(&mut self, m: &syn::ExprMethodCall) -> Option<Window> {
        let chunks = m.method == "chunks_exact" || m.method == "chunks";
        if self.group_at(&m.receiver).is_some() {
            self.error(err(
                &m.method,
                format!("`.{}(K)` of a group is not supported; group the array itself, or loop over indices", m.method),
            ));
            return None;
        }
        let k = match m.args.first() {
            Some(e) if m.args.len() == 1 && self.constant_count(e) => match e {
                syn::Expr::Lit(_) | syn::Expr::Path(_) => e.to_token_stream(),
                e => quote::quote!((#e)),
            },
            _ => {
                self.error(err(
                    m.args.first().map_or(&m.method as &dyn ToTokens, |a| a as &dyn ToTokens),
                    format!("`.{}(K)` takes an integer literal or a `const` here (the same in every sweep); for a size known at run time, loop over indices: `for i in (0..x.len()).step_by(k)`", m.method),
                ));
                return None;
            }
        };
        if literal(&k) == Some(0) {
            self.error(err(
                &m.args[0],
                format!(
                    "`.{}(0)` panics: the size of a group is at least 1",
                    m.method
                ),
            ));
            return None;
        }
        if m.method == "chunks" {
            self.whole_chunks(m, &k)?;
        }
        Some(Window {
            borrowed: true,
            group: Some(Group { chunks, k }),
            ..Window::default()
        })
    }

    /// `x.chunks(K)` is `x.chunks_exact(K)` where the macro sees that `K` divides the array's
    /// length (every chunk then has `K` elements); elsewhere, one error.
    fn whole_chunks(&mut self, m: &syn::ExprMethodCall, k: &TokenStream) -> Option<()> {
        let (n, k) = (self.exact_len(&m.receiver), literal(k));
        if let (Some(n), Some(k)) = (n, k)
            && n % k as i128 == 0
        {
            return Some(());
        }
        let here = match (n, k) {
            (Some(n), Some(k)) => format!(
                " (here {n} elements in chunks of {k}: the last has {})",
                n % k as i128
            ),
            (None, _) => {
                " (this length is not a number here: a slice's, a sub-slice's or a `const`'s)"
                    .to_string()
            }
            (_, None) => " (`K` is not a number here)".to_string(),
        };
        self.error(err(
            m,
            format!(
                "`.chunks(K)` is taken where `K` and the array's length are numbers and `K` divides the length, so that every chunk has `K` elements{here}; otherwise write `.chunks_exact(K)`, and read the elements after the last whole chunk by index"
            ),
        ));
        None
    }

    /// The length of an array (or of a row of one) where its type spells it as a number: not a
    /// sub-slice's, which its array's length only bounds.
    fn exact_len(&self, e: &syn::Expr) -> Option<i128> {
        let mut base = super::bounded::peeled(e);
        while let syn::Expr::Index(ix) = base {
            if matches!(&*ix.index, syn::Expr::Range(_)) {
                return None;
            }
            base = super::bounded::peeled(&ix.expr);
        }
        if let syn::Expr::Path(p) = base
            && let Some(Binding::Alias(_, proj, ..)) =
                self.binding(&p.path.get_ident()?.to_string())
            && proj.iter().any(|p| matches!(p, Proj::Range { .. }))
        {
            return None;
        }
        self.array_len(e)?.number()
    }

    /// The start and size of the group `e` names, if it names one.
    pub(super) fn group_at(&self, e: &syn::Expr) -> Option<(Pure, TokenStream)> {
        self.group_of(e).map(|(_, _, start, k)| (start, k))
    }

    /// The group a name is bound to, where `e` is the name of one.
    pub(super) fn group_of(&self, e: &syn::Expr) -> Option<(VarId, Vec<Proj>, Pure, TokenStream)> {
        // `*w` is the group too (`(*w)[0]`, as Rust reads `w[0]`).
        let p = match super::bounded::peeled(e) {
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                super::bounded::peeled(&u.expr)
            }
            e => e,
        };
        let syn::Expr::Path(p) = p else {
            return None;
        };
        match self.binding(&p.path.get_ident()?.to_string())? {
            Binding::Group(v, proj, start, k, _) => Some((v, proj, start, k)),
            _ => None,
        }
    }

    /// `w[j]` of a group: its array's place at the group's start plus `j`; `None` where
    /// `ix` indexes no group, `Some(None)` after an error (`w[a..b]`).
    pub(super) fn group_element(
        &mut self,
        ix: &syn::ExprIndex,
    ) -> Option<Option<(VarId, Vec<Proj>)>> {
        let (v, mut proj, start, k) = self.group_of(&ix.expr)?;
        // After an error, the group's first element: nothing else reports.
        let first = |mut proj: Vec<Proj>, start: Pure| {
            proj.push(Proj::Index(start));
            Some(Some((v, proj)))
        };
        if matches!(&*ix.index, syn::Expr::Range(_)) {
            self.error(err(
                ix,
                "a range of a group is not supported; read its elements (`w[j]`), or take the range of the array or slice itself (`&x[i + a..i + b]`)",
            ));
            // The array: measured or iterated, it reports nothing more.
            return Some(Some((v, proj)));
        }
        // `x[start + j]` is in bounds where Rust's `w[j]` may not be (`chunks_exact` leaves
        // the elements after its last group): an index known to be past the size is an error.
        // (One the macro cannot bound is read as it is, where `f` itself panics.)
        let size = syn::parse2::<syn::Expr>(k.clone())
            .ok()
            .and_then(|k| self.max_of(&k));
        if let (Some(j), Some(size)) = (self.max_of(&ix.index), size)
            && !j.below(&size)
        {
            let w = crate::names::user_text(&ix.expr.to_token_stream());
            self.error(err(
                &ix.index,
                format!("`{w}` holds {k} elements, and this index may reach past them (where Rust's `{w}[..]` panics, the group's place would read the next elements): index it below {k}, as with a literal or a loop over `0..{w}.len()`"),
            ));
            return first(proj, start);
        }
        let (j, jt) = self.pure(&ix.index);
        let usize_ty = self.f.usize_ty;
        self.f.types.unify(jt, usize_ty);
        proj.push(Proj::Index(Pure::Bin(
            quote::quote!(+),
            Box::new(start),
            Box::new(j),
        )));
        Some(Some(self.alias_place(v, proj)))
    }

    /// `w.len()` of a group: its size.
    pub(super) fn group_len(&self, e: &syn::Expr) -> Option<TokenStream> {
        self.group_of(e).map(|(.., k)| k)
    }

    /// `error`, unless `e` is a group's name (read whole: reported where it was looked up).
    pub(super) fn error_unless_group(&mut self, e: &syn::Expr, error: syn::Error) {
        if self.group_len(e).is_none() {
            self.error(error);
        }
    }

    /// A group's name read whole: of a slice, the sub-slice `x[start..start + K]` (passed to
    /// a callee that takes `&[f64]`, as any sub-slice); of an array, an error, once.
    pub(super) fn group_place(&mut self, e: &syn::Expr) -> Option<(VarId, Vec<Proj>)> {
        let (v, mut proj, start, k) = self.group_of(e)?;
        let ty = self.place_ty(v, &proj);
        if !matches!(self.f.types.get(ty), TyVal::Slice(_)) {
            self.error_once(e, GROUP_USE);
            return None;
        }
        let end = Pure::Bin(
            quote::quote!(+),
            Box::new(start.clone()),
            Box::new(Pure::Lit(k)),
        );
        proj.push(Proj::Range {
            start: Some(start),
            end: Some(end),
            inclusive: false,
        });
        Some(self.alias_place(v, proj))
    }
}

/// The value of an integer literal (`4`), if the tokens are one.
pub(super) fn literal(t: &TokenStream) -> Option<usize> {
    syn::parse2::<syn::LitInt>(t.clone())
        .ok()?
        .base10_parse::<usize>()
        .ok()
}
