//! Rows of slices borrowed once before an innermost loop's sweep. Where a loop's body reaches a
//! slice only at `base + i` (`l[col + b - a - 1]` in `for b in a + 1..d`), `i` the loop's
//! variable counting by one and `base` the same in every iteration, the sweep borrows the row
//! the loop covers, `&l[base..base + len]` (`base` at the loop's first value), and the row of
//! its cotangent, `&mut d_l[..]`, and indexes both at `i - start`: one bounds check per loop
//! instead of one per access and iteration (GMM's gradient at d = 64 takes 0.75-0.77 of its
//! time with a checked index per element, BENCHMARKS). At `i` itself (`x[i]`) there is no row: the compiler relates such an
//! index to the range already, and a row made log-sum-exp's sweep slower.
//!
//! Only a slice every iteration reaches (not in a branch of an `if`, nor on the right of `&&`
//! or `||`) gets a row, whose index's other variables are parameters, counters, constants or
//! integer `let`s: the row spans exactly the indices the primal read, so it is in bounds, or
//! nothing where the loop runs no iteration.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::Rev;
use crate::affine::{coefficient, invariant, same};
use crate::ir::*;
use crate::types::TyVal;

/// The rows of the innermost loop being swept.
pub(super) struct Rows {
    /// The loop's variable.
    var: VarId,
    /// Its first value, bound before the loop.
    start: Ident,
    rows: Vec<Row>,
}

struct Row {
    var: VarId,
    /// The index every access uses.
    index: Pure,
    primal: Ident,
    cotangent: Option<Ident>,
    /// Whether the sweep read the row, and wrote the cotangent's.
    used: (bool, bool),
}

impl Rev<'_> {
    /// Starts the rows of loop `id` (innermost, of one step, that cannot leave early), for the
    /// slices its body reaches at one index `base + i` only.
    pub(super) fn start_rows(&mut self, id: usize, var: VarId, range: &Range, body: &Block) {
        let lp = &self.f.loops[id];
        let swept_in_order = lp.checkpoint.is_none() || lp.independent();
        if !swept_in_order
            || lp.breaks
            || self.fused == Some(id)
            || self.rows.is_some()
            || (range.adapters.iter()).any(|a| !matches!(a, Adapter::Rev))
            || body
                .stmts
                .iter()
                .any(|s| crate::walk::may_exit(s) || has_loop(s))
        {
            return;
        }
        let mut assigned = Vec::new();
        crate::walk::assigned(body, &mut assigned);
        let mut seen: Vec<(VarId, Option<Pure>)> = Vec::new();
        accesses(body, false, &mut |v, proj, some| {
            // Borrowed for every iteration, a row must be reached in every one.
            let index = match proj {
                [Proj::Index(p)] if !some => Some(p.clone()),
                _ => None,
            };
            match seen.iter_mut().find(|(s, _)| *s == v) {
                Some((_, Some(p))) if index.as_ref().is_some_and(|q| same(p, q)) => {}
                Some(entry) => entry.1 = None,
                None => seen.push((v, index)),
            }
        });
        let mut rows = Vec::new();
        for (v, index) in seen {
            let Some(index) = index else { continue };
            let x = &self.f.vars[v];
            let slice = matches!(self.f.types.get(x.ty), TyVal::Slice(_));
            // At the loop's variable itself (`x[i]`) the compiler relates the index to the
            // range well enough: a row there took longer (log-sum-exp's sweep).
            let bare = matches!(&index, Pure::Var(v, p, _) if *v == var && p.is_empty());
            if !slice
                || bare
                || x.param.is_none()
                || assigned.contains(&v)
                || coefficient(&index, var) != Some(1)
                || !invariant(self.f, &index, var, &assigned)
            {
                continue;
            }
            let name = crate::names::bare(&x.emit);
            let primal = self.names.fresh(&format!("{name}_row"));
            let cotangent = (self.d_vars[v].clone())
                .map(|d| self.names.fresh(&format!("{}_row", crate::names::bare(&d))));
            rows.push(Row {
                var: v,
                index,
                primal,
                cotangent,
                used: (false, false),
            });
        }
        if !rows.is_empty() {
            let start = self.names.fresh("row_start");
            self.rows = Some(Rows { var, start, rows });
        }
    }

    /// Ends the rows started for the loop over `range`: the borrows of those its sweep used,
    /// to put right before the loop.
    pub(super) fn end_rows(&mut self, range: &Range) -> TokenStream {
        let Some(set) = self.rows.take() else {
            return TokenStream::new();
        };
        if set.rows.iter().all(|r| r.used == (false, false)) {
            return TokenStream::new();
        }
        let start = &set.start;
        let len = Ident::new("row_len", Span::mixed_site());
        let (from, to) = (self.pure_val(&range.start), self.pure_val(&range.end));
        let count = crate::print::count_from(start, to, range.inclusive);
        let mut out = quote!(
            let #start: usize = #from;
            let #len: usize = #count;
        );
        for row in &set.rows {
            if row.used == (false, false) {
                continue;
            }
            // The index at the loop's first value, only where the loop runs: the primal
            // computed it there.
            let base = Ident::new("row_base", Span::mixed_site());
            let at = crate::print::pure_tokens(&row.index, &mut |v, proj, read| {
                if v == set.var {
                    quote!(#start)
                } else {
                    self.var_val(v, proj, read)
                }
            });
            let x = &self.f.vars[row.var].emit;
            let primal = &row.primal;
            // One length for every row, whatever the branch: the compiler relates it to the
            // loop's count.
            out.extend(quote!(let #base: usize = if #len > 0 { #at } else { 0 };));
            if row.used.0 {
                out.extend(quote!(let #primal = &#x[#base..#base + #len];));
            }
            if let (true, Some(d_row)) = (row.used.1, &row.cotangent) {
                let d = self.d_vars[row.var].clone().unwrap();
                out.extend(quote!(let #d_row = &mut #d[#base..#base + #len];));
            }
        }
        out
    }

    /// `row[i - start]` for a read of `var` at `proj` that a row covers.
    pub(super) fn row_read(&mut self, var: VarId, proj: &[Proj]) -> Option<TokenStream> {
        self.row_at(var, proj, false)
    }

    /// `d_row[i - start]` for the cotangent of `var` at `proj`, where a row covers it.
    pub(super) fn row_cotangent(&mut self, var: VarId, proj: &[Proj]) -> Option<TokenStream> {
        self.row_at(var, proj, true)
    }

    fn row_at(&mut self, var: VarId, proj: &[Proj], cotangent: bool) -> Option<TokenStream> {
        let [Proj::Index(p)] = proj else {
            return None;
        };
        let set = self.rows.as_mut()?;
        let row = set
            .rows
            .iter_mut()
            .find(|r| r.var == var && same(&r.index, p))?;
        let name = if cotangent {
            row.used.1 = true;
            row.cotangent.clone()?
        } else {
            row.used.0 = true;
            row.primal.clone()
        };
        let (i, start) = (&self.f.vars[set.var].emit, &set.start);
        Some(quote!(#name[#i - #start]))
    }
}

/// Every place of every variable the block reaches, with its projections (none for a whole
/// variable it writes), and whether the place is reached only in some iterations (in a branch of
/// an `if`, the right of `&&` or `||`).
fn accesses<'b>(b: &'b Block, branch: bool, f: &mut impl FnMut(VarId, &'b [Proj], bool)) {
    let mut reads = Vec::new();
    let mut some = Vec::new();
    for s in &b.stmts {
        match s {
            Stmt::Def {
                target, place, rhs, ..
            } => {
                let from = reads.len();
                crate::walk::rhs_reads(rhs, place, &mut reads);
                if let Rhs::Pure(p) = rhs {
                    conditional(p, &mut some);
                }
                // Indices with branches of their own (`z[if c { k[i] } else { 0 }]`).
                for (_, proj, _) in &reads[from..] {
                    indices_conditional(proj, &mut some);
                }
                indices_conditional(place, &mut some);
                if let Target::Var(v) = target {
                    f(*v, &[], branch);
                }
            }
            Stmt::If {
                cond,
                then,
                els,
                results,
                ..
            } => {
                crate::walk::pure_reads(cond, &mut reads);
                conditional(cond, &mut some);
                accesses(then, true, f);
                accesses(els, true, f);
                for r in results {
                    if let Target::Var(v) = r {
                        f(*v, &[], branch);
                    }
                }
            }
            Stmt::For { range, body, .. } => {
                crate::walk::range_reads(range, &mut reads);
                accesses(body, true, f);
            }
            Stmt::Break | Stmt::Continue | Stmt::Panic(_) => {}
        }
    }
    for o in &b.tail {
        crate::walk::operand_reads(o, &mut reads);
    }
    for (v, proj, _) in reads {
        f(v, proj, branch || some.contains(&v));
    }
}

/// The variables an expression reads only on some of its paths: in the branches of an `if`, on
/// the right of `&&` or `||`.
fn conditional(p: &Pure, out: &mut Vec<VarId>) {
    let all = |p: &Pure, out: &mut Vec<VarId>| {
        let mut reads = Vec::new();
        crate::walk::pure_reads(p, &mut reads);
        out.extend(reads.iter().map(|(v, ..)| *v));
    };
    match p {
        Pure::If(c, a, b) => {
            conditional(c, out);
            all(a, out);
            all(b, out);
        }
        Pure::Bin(op, a, b) if matches!(op.to_string().as_str(), "&&" | "||") => {
            conditional(a, out);
            all(b, out);
        }
        Pure::Var(_, proj, _) => indices_conditional(proj, out),
        p => (crate::walk::pure_children(p).into_iter()).for_each(|c| conditional(c, out)),
    }
}

/// [`conditional`] over the indices of a place.
fn indices_conditional(proj: &[Proj], out: &mut Vec<VarId>) {
    for i in proj.iter().flat_map(Proj::pures) {
        conditional(i, out);
    }
}

/// Does the statement hold a loop, at any depth?
fn has_loop(s: &Stmt) -> bool {
    match s {
        Stmt::For { .. } => true,
        Stmt::If { then, els, .. } => then.stmts.iter().chain(&els.stmts).any(has_loop),
        _ => false,
    }
}
