//! Innermost loops of lane updates as one flat loop, in vector mode. The lanes of an array of
//! floats are a `[[F; W]; N]`, and where an innermost loop's tangents reach each array only at
//! `base + i` (`t_qx[b] += t_l[k][col + b - a - 1] * xc[a]` in `for b in a + 1..d`), `i`
//! the loop's variable, the lanes the loop covers are one contiguous row of floats in each
//! array. The loop then runs over the elements of those rows at once (`__e` counting `W` per
//! iteration), each element computing what its lane computed: the same operations on the same
//! values, in the same order for each element, so every lane's result is the same to the bit.
//!
//! Run lane by lane, each iteration is a `W`-wide update with its own bounds checks, and a short
//! loop (GMM's triangle: 1 to `d - 1` iterations) cannot vectorize across iterations; as one
//! row of `len x W` floats it is a single loop the compiler vectorizes at the machine's width
//! (BENCHMARKS, vector forward mode).
//!
//! Only the tangent half of a split loop ([`split`](super::split)) is flattened, whose body
//! writes tangents and computes again the values it binds with `let`. Each tangent its body
//! reaches is a row (an array's, at one index `base + i` whose other variables keep their
//! values through the loop, as [`crate::affine`] tells) or a float its body defines; no value
//! is carried from one iteration to the next (a counter `j += 1`), and the printed body does
//! not name the loop's variable, so each primal value a rule reads is the same in every
//! iteration: the `let`s of those values are computed once, before the loop. Anything else
//! prints the loop lane by lane.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, quote};

use super::Tan;
use super::lanes::width;
use super::split::Part;
use crate::affine::{coefficient, invariant, mentions, same};
use crate::ir::*;
use crate::types::{Kind, TyVal};

/// The loop being flattened: its variable, the floats its body defines, and the rows its
/// tangents reach.
pub(super) struct Flat {
    var: VarId,
    /// What the body assigns: an index reading any of them is not the same in every iteration.
    assigned: Vec<VarId>,
    /// The float variables (`let x`) and temporaries the body defines: one float per element.
    vars: Vec<VarId>,
    temps: Vec<usize>,
    rows: Vec<Row>,
}

struct Row {
    var: VarId,
    /// The array of lanes the row is in (`t_l[k]`).
    array: TokenStream,
    /// The index every access uses.
    index: Pure,
    name: Ident,
}

/// What a tangent that is neither in a row nor defined by the body prints as in a flat loop's
/// body: where the printed body names it, the loop stays lane by lane. (The sweep prints some
/// tangents it then leaves out, as a hoisted loop's fixed terms.)
fn unflat() -> Ident {
    Ident::new("__not_flat", Span::mixed_site())
}

/// The element of every row an iteration of the flat loop computes.
fn elem() -> Ident {
    Ident::new("__e", Span::mixed_site())
}

/// A flat loop's body split in two: the `let`s that read no element (the values the tangent
/// half computes again, the same in every iteration since the body does not name the loop's
/// variable, and what they read), computed once before the loop, and the rest, per element. A
/// `let mut` stays in the loop (an element may update it), and so does every `let` that reads
/// an element, a row, or a name such a `let` binds, or binds a name a statement before it in
/// the loop reads or binds.
fn invariant_lets(printed: TokenStream, rows: Vec<String>) -> (TokenStream, TokenStream) {
    let Ok(body) = syn::parse2::<syn::Block>(quote!({ #printed })) else {
        return (TokenStream::new(), printed);
    };
    let mut per_element: std::collections::HashSet<String> = rows.into_iter().collect();
    per_element.insert(elem().to_string());
    // Every name the statements kept in the loop so far read or bind: a `let` moved before
    // them must not bind one of those (they would read it instead of theirs).
    let mut in_loop = std::collections::HashSet::new();
    let (mut once, mut each) = (TokenStream::new(), TokenStream::new());
    for st in body.stmts {
        let tokens = st.to_token_stream();
        let names = crate::names::occurrences(&tokens);
        let hoist = match &st {
            syn::Stmt::Local(local) => {
                let mut bound = Vec::new();
                let plain = bindings(&local.pat, &mut bound)
                    && local.init.as_ref().is_some_and(|i| i.diverge.is_none());
                let reads = names.keys().any(|n| per_element.contains(n));
                let moved = plain && !reads && !bound.iter().any(|n| in_loop.contains(n));
                if !moved {
                    per_element.extend(bound);
                }
                moved
            }
            _ => false,
        };
        if hoist {
            once.extend(tokens);
        } else {
            in_loop.extend(names.into_keys());
            each.extend(tokens);
        }
    }
    (once, each)
}

/// The names a `let`'s pattern binds, into `out`; whether each is a plain binding (no `mut`, no
/// `ref`, no pattern but a name, typed or not).
fn bindings(pat: &syn::Pat, out: &mut Vec<String>) -> bool {
    match pat {
        syn::Pat::Type(t) => bindings(&t.pat, out),
        syn::Pat::Ident(i) => {
            out.push(i.ident.to_string());
            i.mutability.is_none() && i.by_ref.is_none() && i.subpat.is_none()
        }
        _ => {
            out.extend(crate::names::occurrences(&pat.to_token_stream()).into_keys());
            false
        }
    }
}

impl Tan<'_> {
    /// The tangent half of an innermost loop as one loop over the rows its tangents reach, or
    /// `None` where it cannot be.
    pub(super) fn flat_loop(&mut self, s: &Stmt) -> Option<TokenStream> {
        let Stmt::For {
            var, range, body, ..
        } = s
        else {
            return None;
        };
        let stepped = (range.adapters.iter()).any(|a| matches!(a, Adapter::StepBy(_)));
        if !self.lanes || self.part != Part::Tangent || stepped || !body.tail.is_empty() {
            return None;
        }
        let (mut vars, mut temps) = (Vec::new(), Vec::new());
        for st in &body.stmts {
            let Stmt::Def {
                target,
                place,
                rhs,
                is_let,
                ..
            } = st
            else {
                return None;
            };
            let (active, float) = (
                self.act.target(*target),
                self.f.types.kind(self.def_ty(*target, place)) == Kind::Float,
            );
            // A value carried from one iteration to the next (a counter `j += 1` that the
            // tangent half computes again) would change from element to element.
            let carried =
                !active && matches!(target, Target::Var(_)) && !(*is_let && place.is_empty());
            if matches!(rhs, Rhs::Call { .. } | Rhs::Elem { .. }) || (active && !float) || carried {
                return None;
            }
            match target {
                Target::Temp(t) => temps.push(*t),
                Target::Var(v) if *is_let && place.is_empty() => vars.push(*v),
                Target::Var(_) => {}
            }
        }
        let mut assigned = Vec::new();
        crate::walk::assigned(body, &mut assigned);
        *self.flat.borrow_mut() = Some(Flat {
            var: *var,
            assigned,
            vars,
            temps,
            rows: Vec::new(),
        });
        let (printed, _, _) = self.block(body, &[]);
        let flat = self.flat.take()?;
        let names = crate::names::occurrences(&printed);
        let i = self.f.vars[*var].emit.to_string();
        let failed = names.contains_key(&unflat().to_string());
        // A rule's own branch (`max`, `abs`) reads a tangent in some iterations only: kept
        // lane by lane, so that a row holds only what every iteration reads.
        let text = printed.to_string();
        let branches = ["if", "match"].iter().any(|k| names.contains_key(*k))
            || text.contains("&&")
            || text.contains("||");
        if failed
            || branches
            || printed.is_empty()
            || flat.rows.is_empty()
            || names.contains_key(&i)
        {
            return None;
        }
        Some(self.flat_rows(&flat, range, (printed, &names)))
    }

    /// The rows borrowed at the loop's first value, and the loop over their elements.
    /// `names`: how often the printed body names each identifier (a row it never names is not
    /// borrowed).
    fn flat_rows(
        &self,
        flat: &Flat,
        range: &Range,
        (printed, names): (TokenStream, &std::collections::HashMap<String, usize>),
    ) -> TokenStream {
        let (w, e) = (width(), elem());
        let start = Ident::new("__flat_start", Span::mixed_site());
        let len = Ident::new("__flat_len", Span::mixed_site());
        let (from, to) = (self.fwd.pure(&range.start), self.fwd.pure(&range.end));
        let count = crate::print::count_from(&start, to, range.inclusive);
        let mut rows = TokenStream::new();
        for (n, row) in flat.rows.iter().enumerate() {
            if !names.contains_key(&row.name.to_string()) {
                continue;
            }
            // The index at the loop's first value, where the loop runs: the primal computed it
            // there, so the row is in bounds.
            let at = crate::print::pure_tokens(&row.index, &mut |v, proj, _| {
                if v == flat.var {
                    start.to_token_stream()
                } else {
                    self.fwd.place(v, proj)
                }
            });
            let base = Ident::new(&format!("__flat_base{n}"), Span::mixed_site());
            let (name, array) = (&row.name, &row.array);
            let borrow = if flat.assigned.contains(&row.var) {
                quote!(&mut #array.as_flattened_mut())
            } else {
                quote!(&#array.as_flattened())
            };
            rows.extend(quote!(
                let #base: usize = #at;
                let #name = #borrow[#base * #w..][..#len * #w];
            ));
        }
        let row_names = flat.rows.iter().map(|r| r.name.to_string());
        let (once, each) = invariant_lets(printed, row_names.collect());
        quote!({
            let #start: usize = #from;
            let #len: usize = #count;
            if #len > 0 {
                #rows
                #once
                for #e in 0..#len * #w { #each }
            }
        })
    }

    /// Whether a flat loop's body is being printed.
    pub(super) fn flat_on(&self) -> bool {
        self.flat.borrow().is_some()
    }

    /// A tangent place in a flat loop's body: its row's element, or a float the body defines.
    /// `array` is the variable's tangent, `raw` a parameter's read through its reference.
    pub(super) fn flat_place(
        &self,
        var: VarId,
        array: TokenStream,
        raw: bool,
        proj: &[Proj],
    ) -> TokenStream {
        let mut guard = self.flat.borrow_mut();
        let flat = guard.as_mut().unwrap();
        let Some((Proj::Index(index), prefix)) = proj.split_last() else {
            if proj.is_empty() && flat.vars.contains(&var) {
                return array;
            }
            return unflat().to_token_stream();
        };
        let fixed = |p: &Pure, k: i64| {
            coefficient(p, flat.var) == Some(k) && invariant(self.f, p, flat.var, &flat.assigned)
        };
        let lanes = matches!(self.f.types.get(self.f.place_ty(var, prefix)),
            TyVal::Array(e, _) if self.f.types.kind(*e) == Kind::Float);
        // The prefix is printed before the loop, where its variable is not in scope.
        let prefix_fixed = (prefix.iter())
            .all(|p| matches!(p, Proj::Index(q) if fixed(q, 0) && !mentions(q, flat.var)));
        if !lanes || !prefix_fixed || !fixed(index, 1) {
            return unflat().to_token_stream();
        }
        let array = if raw && prefix.is_empty() {
            quote!((*#array))
        } else {
            self.projected(array, prefix)
        };
        let e = elem();
        // One row per variable: two of one array could overlap, one of them written.
        if let Some(row) = flat.rows.iter().find(|r| r.var == var) {
            let same_row = row.array.to_string() == array.to_string() && same(&row.index, index);
            if !same_row {
                return unflat().to_token_stream();
            }
            let name = &row.name;
            return quote!(#name[#e]);
        }
        let name = Ident::new(&format!("__row{}", flat.rows.len()), Span::mixed_site());
        flat.rows.push(Row {
            var,
            array,
            index: index.clone(),
            name: name.clone(),
        });
        quote!(#name[#e])
    }

    /// A temporary's tangent in a flat loop's body: the float the body defines.
    pub(super) fn flat_temp(&self, t: usize, name: TokenStream) -> TokenStream {
        let guard = self.flat.borrow();
        match guard.as_ref().unwrap().temps.contains(&t) {
            true => name,
            false => unflat().to_token_stream(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statements of each half, as text.
    fn split(body: TokenStream) -> (String, String) {
        let (once, each) = invariant_lets(body, vec!["__row0".into(), "__row1".into()]);
        (once.to_string(), each.to_string())
    }

    #[test]
    fn lets_that_read_no_element_move_before_the_loop() {
        let (once, each) = split(quote!(
            let c: f64 = x[a].exp();
            let t_t0: f64 = __row0[__e] * c;
            let t_t1: f64 = t_t0 * 2.0;
            __row1[__e] = __row1[__e] + t_t1;
            let d = c * 3.0;
            let mut m = 0.0;
            let u;
            let (p, q) = (c, d);
        ));
        assert_eq!(
            once,
            quote!(let c: f64 = x[a].exp(); let d = c * 3.0;).to_string()
        );
        let kept = quote!(
            let t_t0: f64 = __row0[__e] * c;
            let t_t1: f64 = t_t0 * 2.0;
            __row1[__e] = __row1[__e] + t_t1;
            let mut m = 0.0;
            let u;
            let (p, q) = (c, d);
        );
        assert_eq!(each, kept.to_string());
    }

    /// A name a statement kept in the loop reads or binds is not bound before the loop again.
    #[test]
    fn a_let_stays_where_moving_it_would_shadow() {
        let (once, each) = split(quote!(
            let c = 1.0;
            let t = __row0[__e] * c;
            let c = 2.0;
            let t = t + c;
            __row1[__e] = t;
        ));
        assert_eq!(once, quote!(let c = 1.0;).to_string());
        let kept = quote!(let t = __row0[__e] * c; let c = 2.0; let t = t + c; __row1[__e] = t;);
        assert_eq!(each, kept.to_string());
    }
}
