//! `for` loops over ranges and arrays, lowered to counted loops; `#[checkpoint]`.

use std::collections::HashMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident};
use syn::spanned::Spanned;

use super::windows::{At, Window, literal, min_tokens, usize_lit};
use super::{Binding, COMPUTED, GIVE_TYPE, Lower, Mode, err};
use crate::ir::*;

/// A variable and a path in it: `a`, `p.w`.
type Place = (VarId, Vec<Proj>);

/// What a `for` loop's iterator lowers to.
struct Head {
    range: Range,
    /// A compile-time bound on the trip count, and whether it is a const generic parameter.
    trips: (TokenStream, bool),
    /// The counter's name: the range's variable, or a hidden index for `a.iter()` or `for _`.
    counter: Ident,
    /// The counter is the macro's, not the user's: the body's names never resolve to it.
    hidden: bool,
    /// The counter's range (start, end, inclusive), for the bounds of inner loops.
    bounds: Option<(syn::Expr, syn::Expr, bool)>,
    /// The element names of `a.iter()`, `.zip(..)`, each bound to a place in its array, at
    /// the counter plus the array's skipped elements (`.skip(k)`), or, reversed (`.rev()`
    /// before `.enumerate()` or a `zip`), at its window's end less the counter's successor.
    aliases: Vec<Alias>,
    /// The trip count is known at run time only (`trips` is then the count's expression).
    runtime: bool,
    /// Run-time only because the arrays' length is computed from a const generic parameter
    /// (an untyped `let` of a call's result, in a generic function).
    computed: bool,
}

/// An element name of an iterator loop, its array's place, where the counter reads it, and
/// whether Rust binds the name to a reference.
type Alias = (Ident, VarId, Vec<Proj>, At, bool);

/// Peels the adapters: `(a..b).step_by(2).rev()` -> base `a..b`, [step_by(2), rev].
fn adapter_chain(expr: &syn::Expr) -> (&syn::Expr, Vec<&syn::ExprMethodCall>) {
    let mut chain: Vec<&syn::ExprMethodCall> = Vec::new();
    let mut base = expr;
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
    (base, chain)
}

/// `a` of `&a`.
fn unref(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Reference(r) if r.mutability.is_none() => &r.expr,
        e => e,
    }
}

/// For each element of an iterator loop's pattern, whether it is `&x` (a copy of the element):
/// `x`, `(i, x)`, `(x, y)` or `(i, (x, y))`.
fn element_copies(pat: &syn::Pat, enumerate: bool) -> Vec<bool> {
    let copy = |p: &syn::Pat| matches!(p, syn::Pat::Reference(_));
    match pat {
        syn::Pat::Tuple(t) if enumerate => match &t.elems[1] {
            syn::Pat::Tuple(inner) => inner.elems.iter().map(copy).collect(),
            p => vec![copy(p)],
        },
        syn::Pat::Tuple(t) => t.elems.iter().map(copy).collect(),
        p => vec![copy(p)],
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

impl Lower {
    /// `for i in a..b { .. }` (with `.rev()`, `.step_by(k)`, `..=`) and `for x in a.iter()`
    /// (with `.enumerate()`, `.zip(b.iter())`, `iter_mut()`), all lowered to counted loops.
    pub(super) fn for_loop(&mut self, fl: &syn::ExprForLoop, out: &mut Block) {
        let label = fl.label.as_ref().map(|l| l.name.ident.to_string());
        let (base, chain) = adapter_chain(&fl.expr);
        let id = self.f.loops.len();
        let usize_ty = self
            .f
            .types
            .fresh(TyVal::Int(Ident::new("usize", Span::call_site())));
        // A range's counter has the type of its bounds, as rustc infers it: `usize` where it
        // indexes, `i32` in `i - j` with `j: i32`. An iterator's counter is a `usize`.
        let counter_ty = match base {
            syn::Expr::Range(_) => self.f.types.fresh(TyVal::Unknown(Kind::Int)),
            _ => usize_ty,
        };
        if let syn::Expr::Range(r) = base {
            let start_known = r.start.as_ref().is_some_and(|s| self.start_known(s));
            self.range_counters
                .push((counter_ty, base.clone(), start_known));
        }
        let head = match base {
            syn::Expr::Range(r) => self.range_head(fl, r, &chain, (counter_ty, usize_ty)),
            _ => self.iter_head(fl, base, &chain, usize_ty),
        };
        let Some(Head {
            range,
            trips: (trips, trips_generic),
            counter,
            hidden,
            bounds,
            aliases,
            runtime,
            computed,
        }) = head
        else {
            return;
        };
        if computed {
            self.computed_lengths.insert(id);
        }
        let (mut checkpoint, binomial) = self.checkpoint_attr(&fl.attrs);
        if runtime {
            checkpoint = self.runtime_checkpoint(fl, checkpoint, binomial);
        }
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
            extrema: Vec::new(),
            runtime,
        });
        let values = bounds.map(|(start, end, inclusive)| self.values(&start, &end, inclusive));
        let first_var = self.f.vars.len();
        self.scopes.push(HashMap::new());
        let var = self.declare_var(&counter, false, counter_ty, None, false, true);
        if hidden {
            // Out of the user's reach: an `i` in the body of `for x in a.iter()` is the user's.
            self.hide(&counter, var);
        }
        if let Some(v) = values {
            self.ranges.insert(var, v);
        }
        self.bind_aliases(var, aliases);
        self.nest.push(id);
        let body = self.scoped(&fl.body.stmts, Mode::Loop, fl.body.span());
        self.nest.pop();
        self.scopes.pop();
        self.end_sub_slices();
        if self.f.loops[id].checkpoint.is_some() {
            self.carried(fl, id, first_var, &body);
            self.check_independent(fl, id, &body);
        }
        out.stmts.push(Stmt::For {
            id,
            var,
            range,
            body,
        });
    }

    /// `for i in a..b`, `a..=b`, with `.rev()` and `.step_by(k)` in `chain`.
    fn range_head(
        &mut self,
        fl: &syn::ExprForLoop,
        r: &syn::ExprRange,
        chain: &[&syn::ExprMethodCall],
        (counter_ty, usize_ty): (TyId, TyId),
    ) -> Option<Head> {
        let (Some(start), Some(end)) = (&r.start, &r.end) else {
            self.error(err(r, "a loop range needs both bounds, as in `0..N`"));
            return None;
        };
        let (adapters, step) = self.range_adapters(chain, usize_ty)?;
        let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
        // A bound known at run time only (`0..n`, `0..x.len()`): a run-time loop.
        let runtime = self.runtime_bound(end);
        let (s, st) = self.pure(start);
        let (e, et) = self.pure(end);
        let trips = if runtime {
            // The range's length (what a recorded loop's `Vec`s hold): zero where it is empty
            // (a negative end of a signed range), one more where it is inclusive; `step_by`
            // only shortens it. A bound that reads a sub-slice (`0..row.len()`) as every sweep
            // spells it: `row` is the user's name only.
            let (start, end) =
                if super::subslices::reads_sub_slice(&s) || super::subslices::reads_sub_slice(&e) {
                    (self.pure_text(&s), self.pure_text(&e))
                } else {
                    (start.to_token_stream(), end.to_token_stream())
                };
            let count = if inclusive {
                quote::quote!(if (#end) >= (#start) { ((#end) - (#start)) as usize + 1 } else { 0 })
            } else {
                quote::quote!(if (#end) > (#start) { ((#end) - (#start)) as usize } else { 0 })
            };
            (quote::quote!((#count)), false)
        } else {
            self.trip_bound(start, end, inclusive, step)?
        };
        self.f.types.unify(st, et);
        self.f.types.unify(st, counter_ty);
        let counter = match &*fl.pat {
            syn::Pat::Ident(pi) if pi.subpat.is_none() => pi.ident.clone(),
            syn::Pat::Wild(_) => Ident::new("_i", Span::mixed_site()),
            p => {
                self.error(err(
                    p,
                    "bind the loop variable to a name, as in `for i in 0..N`",
                ));
                return None;
            }
        };
        Some(Head {
            range: Range {
                start: s,
                end: e,
                inclusive,
                adapters,
            },
            trips,
            hidden: matches!(&*fl.pat, syn::Pat::Wild(_)),
            counter,
            bounds: Some(((**start).clone(), (**end).clone(), inclusive)),
            aliases: Vec::new(),
            runtime,
            computed: false,
        })
    }

    /// The adapters of a range, in the order written, and the step of `.step_by(k)`.
    fn range_adapters<'a>(
        &mut self,
        chain: &[&'a syn::ExprMethodCall],
        usize_ty: TyId,
    ) -> Option<(Vec<Adapter>, Option<&'a syn::Expr>)> {
        let mut adapters = Vec::new();
        let mut step = None;
        for m in chain {
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
                    return None;
                }
            }
        }
        Some((adapters, step))
    }

    /// `for x in a.iter()`, `a.iter_mut()`, then `.enumerate()` or `.zip(b.iter())`: a hidden
    /// counter over the elements the arrays yield (all of them, or their windows: `.skip(k)`,
    /// `.take(n)`), each element name an alias of a place (at the counter plus the array's
    /// skipped elements, or from its window's end where `.rev()` reverses the array alone).
    /// `a.windows(K)` and `a.chunks_exact(K)` in place of `a.iter()`: the counter over the
    /// groups, each name bound to its group ([`Binding::Group`]).
    fn iter_head(
        &mut self,
        fl: &syn::ExprForLoop,
        base: &syn::Expr,
        chain: &[&syn::ExprMethodCall],
        usize_ty: TyId,
    ) -> Option<Head> {
        let (iters, windows, enumerate, rev) = self.iter_chain(fl, base, chain)?;
        let (steps, len, places, each) = self.iter_places(&iters)?;
        // A group's elements (`for v in w.iter()` of `w` in `x.windows(K)`): `K` of them.
        let grouped: Vec<bool> = windows.iter().map(|w| w.within.is_some()).collect();
        // With `.skip(k)` or `.take(n)`, the fewest elements an array yields.
        let windowed = windows.iter().any(Window::counted);
        let steps = if windowed {
            let mut counts = (windows.iter().zip(&each)).map(|(w, len)| w.count(len));
            let first = counts.next().expect("one array at least");
            counts.fold(first, |a, b| min_tokens(&a, &b))
        } else {
            steps
        };
        // A slice's length is known at run time only: a run-time loop, over the shorter of a
        // `zip`'s operands. So is, in effect, a length computed from a const generic parameter
        // (the size of what a call returns for `[f64; N]` arguments, an untyped `let`): rustc
        // takes no such expression as an array length in a generic tape (it takes `N` alone).
        let computed = self.names_generics(&len) && !self.generic_alone(&len);
        let runtime = computed
            || (places.iter().zip(&grouped)).any(|((v, _), g)| !g && self.f.slices.contains(v));
        // Over a sub-slice, the length is its place's, `x[a..b].len()`, as every sweep spells
        // it (the user's `row` is a name no sweep has).
        let sub_slice =
            (places.iter().flat_map(|(_, p)| p)).any(|p| matches!(p, Proj::Range { .. }));
        if sub_slice && windows.iter().any(|w| w.group.is_some()) {
            self.error(err(
                &fl.expr,
                "`.windows(K)` and `.chunks_exact(K)` of a sub-slice are not supported; loop over indices instead, as in `for i in a..b - 1` reading `x[i]` and `x[i + 1]`",
            ));
            return None;
        }
        if sub_slice && (windowed || windows.iter().any(|w| w.rev)) {
            self.error(err(
                &fl.expr,
                "`.skip(k)`, `.take(n)` and `.rev()` before `.enumerate()` or a `zip` over a sub-slice are not supported; take the sub-slice they select instead, as in `x[a + k..b].iter()`, and index it backwards (`for i in (0..n).rev()`) for `.rev()`",
            ));
            return None;
        }
        let (steps, end) = if sub_slice {
            let end = self.iter_len(&places);
            (self.pure_text(&end), end)
        } else {
            (steps.clone(), Pure::Lit(steps))
        };
        // The trip bound (the tape's): the count where the windows make it a number, else the
        // arrays' length (also for a count of 0: a loop of no iterations keeps the bound it
        // had, and the tape no field of length 0).
        let len = match literal(&steps) {
            _ if runtime => steps.clone(),
            Some(n) if windowed && n > 0 => usize_lit(n),
            _ => len,
        };
        let names = self.iter_names(&fl.pat, enumerate, places.len())?;
        for ((_, proj), arr) in places.iter().zip(&iters) {
            let key = crate::names::user_text(&arr.to_token_stream()).replace(" ..", "..");
            self.watch_bounds(proj, None, key);
        }
        let counter = names[0].clone();
        let zero: syn::Expr = syn::parse_quote!(0);
        let (s, st) = self.pure(&zero);
        self.f.types.unify(st, usize_ty);
        let copies = element_copies(&fl.pat, enumerate);
        let mut aliases = Vec::new();
        for (((name, (v, proj)), w), copy) in names[1..].iter().zip(places).zip(windows).zip(copies)
        {
            // A name binds a reference where the elements come as references (`a.iter()`,
            // `&a`, a slice or an array parameter taken by reference), `&x` a copy.
            let by_ref = (self.f.vars[v].by_ref && proj.is_empty()) || self.f.slices.contains(&v);
            let reference = !copy && (w.borrowed || by_ref);
            let at = self.window_at(w, v, &proj);
            aliases.push((name.clone(), v, proj, at, reference));
        }
        let len_generic = self.generic_alone(&len);
        // The index of `.enumerate()` bounds inner loops like a range's variable.
        let bounds = syn::parse2::<syn::Expr>(len.clone())
            .ok()
            .map(|len| (zero.clone(), len, false));
        Some(Head {
            range: Range {
                start: s,
                end,
                inclusive: false,
                adapters: if rev { vec![Adapter::Rev] } else { Vec::new() },
            },
            trips: (len, len_generic && !runtime),
            counter,
            hidden: !enumerate,
            bounds: if runtime { None } else { bounds },
            aliases,
            runtime,
            computed,
        })
    }

    /// The arrays iterated (`a` of `a.iter()` or `a.iter_mut()`, and `b` of `.zip(b.iter())`),
    /// their windows (`.skip(k)`, `.take(n)` and `.rev()` right after each `.iter()`), and
    /// whether the chain has `.enumerate()` and ends in `.rev()` (the counter's order).
    fn iter_chain<'a>(
        &mut self,
        fl: &syn::ExprForLoop,
        base: &'a syn::Expr,
        chain: &[&'a syn::ExprMethodCall],
    ) -> Option<(Vec<&'a syn::Expr>, Vec<Window>, bool, bool)> {
        let (mut iters, mut windows) = (Vec::new(), vec![Window::default()]);
        let (mut enumerate, mut rev) = (false, false);
        let mut first = true;
        // `for x in a` and `for x in &a`: as `a.iter()`.
        if chain.is_empty() && !matches!(base, syn::Expr::Range(_)) {
            iters.push(unref(base));
            windows[0].borrowed = matches!(base, syn::Expr::Reference(_));
            windows[0].within = self.group_at(unref(base));
        }
        for (k, m) in chain.iter().enumerate() {
            let name = m.method.to_string();
            match name.as_str() {
                "iter" | "iter_mut" if first => {
                    iters.push(base);
                    windows[0].borrowed = true;
                    windows[0].within = self.group_at(base);
                }
                "windows" | "chunks_exact" | "chunks" if first => {
                    iters.push(base);
                    windows[0] = self.group_window(m)?;
                }
                "skip" | "take" | "step_by" if !first && !enumerate && iters.len() == 1 => {
                    self.narrow(&mut windows[0], m)?
                }
                // Before `.enumerate()` or a `zip`: this array's elements, last first.
                "rev" if !first && !enumerate && iters.len() == 1 && k + 1 < chain.len() => {
                    self.narrow(&mut windows[0], m)?
                }
                // Last: the same counter, run backwards (`a.iter().enumerate().rev()` pairs
                // each element with its own index, as the counter reads it).
                "rev" if !first && k + 1 == chain.len() && m.args.is_empty() => rev = true,
                "enumerate" if !first && !enumerate => enumerate = true,
                "zip" if !first && !enumerate && iters.len() == 1 && m.args.len() == 1 => {
                    let (_, zipped) = adapter_chain(&m.args[0]);
                    match (&m.args[0], zipped.split_first()) {
                        // `.zip(b.iter())`, with `.skip(k)` and `.take(n)` after `iter()`.
                        (_, Some((z, after))) if z.method == "iter" || z.method == "iter_mut" => {
                            iters.push(&*z.receiver);
                            let mut window = Window {
                                borrowed: true,
                                within: self.group_at(&z.receiver),
                                ..Window::default()
                            };
                            for m in after {
                                self.narrow(&mut window, m)?;
                            }
                            windows.push(window);
                        }
                        // `.zip(b.windows(K))`, `.zip(b.chunks_exact(K))`.
                        (_, Some((z, after)))
                            if ["windows", "chunks_exact", "chunks"]
                                .iter()
                                .any(|g| z.method == g) =>
                        {
                            iters.push(&*z.receiver);
                            let mut window = self.group_window(z)?;
                            for m in after {
                                self.narrow(&mut window, m)?;
                            }
                            windows.push(window);
                        }
                        // `.zip(b)`, `.zip(&b)`: as `.zip(b.iter())`.
                        (
                            a
                            @ (syn::Expr::Path(_) | syn::Expr::Reference(_) | syn::Expr::Field(_)),
                            None,
                        ) => {
                            iters.push(unref(a));
                            windows.push(Window {
                                borrowed: matches!(a, syn::Expr::Reference(_)),
                                within: self.group_at(unref(a)),
                                ..Window::default()
                            });
                        }
                        (a, _) => {
                            self.error(err(a, "zip with another array or slice, as in `a.iter().zip(b.iter())` or `a.iter().zip(b)`"));
                            return None;
                        }
                    }
                }
                "skip" | "take" | "step_by" if !first => {
                    self.error(err(
                        &m.method,
                        format!("`.{}(..)` goes right after `.iter()`, before `.enumerate()` and `.zip(..)`: `a.iter().step_by(s).enumerate()` (whose index then counts the steps), `a.iter().skip(k).zip(b.iter().skip(k))`; `.skip(k)`, `.step_by(s)` and `.take(n)` of a name or a literal may also end `a.iter().enumerate()` or `a.iter().zip(b.iter()).enumerate()` (of arrays whose indices the loop neither binds nor assigns)", m.method),
                    ));
                    return None;
                }
                _ => {
                    self.error(err(
                        &m.method,
                        "supported loops: `for i in a..b` (with `.rev()`, `.step_by(k)`), `for x in a.iter()`, `a.iter().enumerate()`, `a.iter().zip(b.iter())` (then `.enumerate()` too) and `iter_mut()` on local arrays, with `.skip(k)`, `.take(n)`, `.step_by(s)` and `.rev()` right after `.iter()` and `.rev()` last; `a.windows(K)` and `a.chunks_exact(K)` (or `a.chunks(K)` where `K` divides its length) in place of `a.iter()`",
                    ));
                    return None;
                }
            }
            first = false;
        }
        if iters.is_empty() {
            self.error(err(
                &fl.expr,
                "a loop must run over a range (`0..N`, `0..x.len()`, `0..n`) or an array or slice (`for x in a`, `for x in a.iter()`)",
            ));
            return None;
        }
        Some((iters, windows, enumerate, rev))
    }

    /// The places of the iterated arrays, the number of steps (the length they share; for a
    /// `zip` of arrays of lengths written differently, the shorter, as `zip` stops there:
    /// `::core::cmp::min(N, 4)` when it is not known here) and a compile-time bound on it (the
    /// shorter of two literal lengths, else a length that is not a const generic parameter,
    /// else the first), and each array's length.
    fn iter_places(
        &mut self,
        iters: &[&syn::Expr],
    ) -> Option<(TokenStream, TokenStream, Vec<Place>, Vec<TokenStream>)> {
        let mut lens: Vec<TokenStream> = Vec::new();
        // Each array's length, in order.
        let mut each = Vec::new();
        // The length of a `const` array, which the macro does not see: read when the loop runs.
        let mut unseen = None;
        let mut places = Vec::new();
        for arr in iters {
            if let Some((v, proj, _, k)) = self.group_of(arr) {
                lens.push(k.clone());
                each.push(k);
                places.push((v, proj));
                continue;
            }
            let Some((v, proj)) = self.place_or_const(arr) else {
                self.error_unless_group(
                    arr,
                    err(
                        arr,
                        "iterate over a local array, an array parameter or a `const` array",
                    ),
                );
                return None;
            };
            // Iterated, a local bound without a type to a call's result is an array.
            self.untyped_call_result(v, &proj, "an array");
            let ty = self.place_ty(v, &proj);
            let len = match self.f.types.get(ty).clone() {
                TyVal::Array(..) | TyVal::Out(..) => self.f.types.array(ty).unwrap().1,
                // A sub-slice of an array: at most the array's length, the tape's bound (the
                // loop runs the sub-slice's, [`Lower::iter_len`]).
                TyVal::Slice(_) if !self.f.slices.contains(&v) => {
                    match self.array_above_range(v, &proj) {
                        Some(n) => n,
                        None => quote::quote!((#arr).len()),
                    }
                }
                TyVal::Slice(_) => quote::quote!((#arr).len()),
                // A `const` array zipped with an array of known length.
                TyVal::Unknown(_) if iters.len() == 2 && self.f.vars[v].constant => {
                    let len = quote::quote!((#arr).len());
                    unseen = Some(len.clone());
                    each.push(len);
                    places.push((v, proj));
                    continue;
                }
                TyVal::Vec(_) => {
                    self.error(err(
                        arr,
                        "a `Vec` local is read by index: loop over its indices, as in `for i in 0..y.len()`",
                    ));
                    return None;
                }
                _ => {
                    self.error(err(
                        arr,
                        "the length of this array is not known here; loop over an index instead, as in `for i in 0..N`",
                    ));
                    return None;
                }
            };
            lens.push(len.clone());
            each.push(len);
            places.push((v, proj));
        }
        let Some(first) = lens.first().cloned() else {
            self.error(err(
                iters[0],
                "the lengths of these arrays are not known here; loop over an index instead, as in `for i in 0..N`",
            ));
            return None;
        };
        let (steps, bound) = match &lens[..] {
            [a, b] if a.to_string() != b.to_string() => match (literal(a), literal(b)) {
                (Some(m), Some(n)) => (usize_lit(m.min(n)), usize_lit(m.min(n))),
                // The bound: one that names no const generic parameter, if there is one, else
                // one that is such a parameter alone (an array length in a generic tape).
                _ => {
                    let bound = [a, b]
                        .into_iter()
                        .find(|t| !self.names_generics(t))
                        .or_else(|| [a, b].into_iter().find(|t| self.generic_alone(t)))
                        .unwrap_or(&first)
                        .clone();
                    (quote::quote!(::core::cmp::min(#a, #b)), bound)
                }
            },
            _ => (first.clone(), first),
        };
        let steps = match unseen {
            Some(len) => quote::quote!(::core::cmp::min(#steps, #len)),
            None => steps,
        };
        Some((steps, bound, places, each))
    }

    /// The length of the array a place's sub-slices are taken of (`N` for `x[a..b]` or
    /// `x[a..][..b]` of `x: &[f64; N]`), where nothing follows them.
    fn array_above_range(&mut self, v: VarId, proj: &[Proj]) -> Option<TokenStream> {
        let k = self.f.array_under_ranges(v, proj)?;
        let ty = self.place_ty(v, &proj[..k]);
        self.f.types.array(ty).map(|(_, n)| n)
    }

    /// Whether a loop around the current one is checkpointed with constant bounds (its
    /// iterations run again from snapshots of fixed size).
    pub(super) fn in_constant_checkpoint(&self) -> bool {
        (self.nest.iter())
            .any(|&l| self.f.loops[l].checkpoint.is_some() && !self.f.loops[l].runtime)
    }

    /// Whether a length is one of the function's const generic parameters alone: `N`, or `N`
    /// in braces or parentheses (`[f64; { N }]`).
    fn generic_alone(&self, len: &TokenStream) -> bool {
        let Ok(e) = syn::parse2::<syn::Expr>(len.clone()) else {
            return false;
        };
        matches!(super::bounded::peeled(&e), syn::Expr::Path(p) if p.qself.is_none()
            && p.path.get_ident().is_some_and(|id| self.f.generics.iter().any(|(g, _)| g == id)))
    }

    /// Whether a length names one of the function's const generic parameters anywhere (`N`,
    /// `N - 1`, the size of a callee's result for `[f64; N]` arguments).
    pub(super) fn names_generics(&self, len: &TokenStream) -> bool {
        (crate::names::occurrences(len).keys()).any(|n| self.f.generics.iter().any(|(g, _)| g == n))
    }

    /// The names the pattern binds: the counter (`i` of `.enumerate()`, or a hidden one), then
    /// one per array.
    fn iter_names(&mut self, pat: &syn::Pat, enumerate: bool, arrays: usize) -> Option<Vec<Ident>> {
        Some(match (pat, enumerate, arrays) {
            (syn::Pat::Tuple(t), true, 1) if t.elems.len() == 2 => {
                let (Some(i), Some(x)) = (pat_name(&t.elems[0]), pat_name(&t.elems[1])) else {
                    self.error(err(pat, "write the pattern as `(i, x)`"));
                    return None;
                };
                vec![i, x]
            }
            // `.zip(..).enumerate()`: `(i, (x, y))`.
            (syn::Pat::Tuple(t), true, 2) if t.elems.len() == 2 => {
                let pair = match &t.elems[1] {
                    syn::Pat::Tuple(p) if p.elems.len() == 2 => Some((&p.elems[0], &p.elems[1])),
                    _ => None,
                };
                let names = pair
                    .and_then(|(x, y)| Some((pat_name(&t.elems[0])?, pat_name(x)?, pat_name(y)?)));
                let Some((i, x, y)) = names else {
                    self.error(err(pat, "write the pattern as `(i, (x, y))`"));
                    return None;
                };
                vec![i, x, y]
            }
            (syn::Pat::Tuple(t), false, 2) if t.elems.len() == 2 => {
                let (Some(x), Some(y)) = (pat_name(&t.elems[0]), pat_name(&t.elems[1])) else {
                    self.error(err(pat, "write the pattern as `(x, y)`"));
                    return None;
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
                    return None;
                };
                vec![Ident::new("i", Span::mixed_site()), x]
            }
            (p, ..) => {
                self.error(err(p, "this pattern does not match the iterator"));
                return None;
            }
        })
    }

    /// Binds each element name to its array's place at the counter `var`.
    fn bind_aliases(&mut self, var: VarId, aliases: Vec<Alias>) {
        for (name, v, mut proj, at, reference) in aliases {
            let read = self.read(var);
            let k = Box::new(Pure::Var(var, Vec::new(), read));
            if let At::Group(g) = at {
                let start = match g.chunks {
                    true => Pure::Bin(quote::quote!(*), k, Box::new(Pure::Lit(g.k.clone()))),
                    false => *k,
                };
                let ty = self.place_ty(v, &proj);
                self.bind_name(name.to_string(), Binding::Group(v, proj, start, g.k, ty));
                continue;
            }
            proj.push(Proj::Index(at.index(k)));
            let ty = self.place_ty(v, &proj);
            self.bind_name(name.to_string(), Binding::Alias(v, proj, ty, reference));
        }
    }

    /// The state a checkpointed loop `id` saves: the variables declared before it (from
    /// `first_var` on are its own) that its body uses, not parameters or loop counters.
    fn carried(&mut self, fl: &syn::ExprForLoop, id: usize, first_var: VarId, body: &Block) {
        // A run-time loop of independent iterations may be inside others: its iterations run
        // again inside each run of theirs. Other checkpointed loops may not nest.
        // A run-time loop (of independent iterations, or binomial) may be inside other run-time
        // loops: its iterations run again inside each run of theirs. Other checkpointed loops
        // may not nest.
        let outer = (self.nest.iter()).any(|&l| self.f.loops[l].checkpoint.is_some());
        if outer && !self.f.loops[id].runtime {
            self.error(err(
                fl,
                "a checkpointed loop inside another is not supported; checkpoint the outer one",
            ));
        } else if self.in_constant_checkpoint() && self.computed_lengths.contains(&id) {
            self.error(err(
                &fl.expr,
                format!("this loop's array has a length {COMPUTED}, so the loop runs over a run-time length, which a checkpointed loop cannot hold; {GIVE_TYPE}"),
            ));
        } else if self.in_constant_checkpoint() {
            self.error(err(
                &fl.expr,
                "a loop over a run-time length inside a checkpointed loop is not supported; it may be inside loops of constant bounds or other loops over run-time lengths",
            ));
        }
        let mut used = std::collections::BTreeSet::new();
        crate::walk::referenced(body, &mut used);
        self.f.loops[id].carried = used
            .into_iter()
            .filter(|&v| v < first_var && !self.f.vars[v].in_place())
            .collect();
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
                syn::Meta::List(l) if l.path.is_ident("binomial") => {
                    snapshots = Some(l.tokens.clone());
                    binomial = true;
                }
                _ => snapshots = None,
            }
        }
        match (parsed.is_ok(), snapshots) {
            (true, Some(s)) => (Some(Some(s)), binomial),
            _ => {
                self.error(err(
                    a,
                    "write `#[checkpoint]`, `#[checkpoint(snapshots = S)]`, `#[checkpoint(binomial(S))]` or `#[checkpoint(snapshots = S, binomial)]`",
                ));
                (None, false)
            }
        }
    }
}
