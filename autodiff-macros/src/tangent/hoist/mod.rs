//! Loop-invariant tangents (forward mode): the part of a tangent that is the same on every
//! iteration of a loop is computed once, before it, for each iteration of the nest inside.
//!
//! In ADBench GMM's `for i { for k { xc = x[i] - means[k]; qx = Q_k xc; .. } }`, the tangent
//! `t_qx = Q'_k xc + Q_k t_xc` has a second term that does not depend on `i` (`t_xc` is
//! `-t_means[k]`): of the tangents' triangle, half the products. Printed, the loop `for i`
//! (`L`) becomes
//!
//! ```text
//! let mut w_qx = [[0.0; D]; K];
//! if 0 < N {
//!     for k in 0..K { /* t_xc, then w_qx[k] = Q_k t_xc, in the nest's own order */ }
//! }
//! for i in 0..N {
//!     for k in 0..K { /* .., t_qx = Q'_k xc, then t_qx[j] += w_qx[k][j] */ }
//! }
//! ```
//!
//! A tangent is linear in the tangents it is computed from, so a local `A` declared in the nest
//! `for k in 0..K` (`M`, directly in `L`'s body), whose tangent is only assigned and summed into
//! before anything else reads it (an *accumulator*), is the sum of two parts computed by the
//! same statements: the terms that vary with `L` and those that do not (*fixed*: a fixed
//! tangent times a fixed value). The fixed part goes to `w_A[k]` before `L`, the varying part is
//! computed in `L` as before, and the two are added after the last statement that writes `A`.
//! A fixed tangent is a tangent from before `L` that `L` does not assign, or the tangent of a
//! local of `M` all of whose terms are fixed (`t_xc`); a fixed value one `L` does not assign,
//! `M`'s counter and its inner loops' counters, and index `let`s computed from those. The
//! temporaries that carry a sum into an accumulator (`qx[b] += l * xc[a]` is `t3 = l * xc[a];
//! qx[b] = qx[b] + t3`) are split in the same way (*chain* temporaries).
//!
//! Hoisted only where it is sound and pays: `L`'s body has no `break`, `continue` or bound
//! check, `M` (each such nest of `L`'s body, analysed on its own: its slots and fixed part
//! follow the previous nest's) is `for k in 0..K` with `K` a constant and holds only
//! definitions (no call) and loops whose ranges are fixed, and some fixed term is a product.
//! The fixed part runs only when `L` runs at least once (`if start < end`), so it indexes
//! nothing the loop would not. Sums are reordered (the fixed part is added last), so tangents
//! change by rounding only. The tangent program `f_hvp` differentiates is printed the same
//! way: its reverse sweep then sums each slot's cotangent over `L` and runs the fixed part's
//! adjoint once.

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::Tan;
use super::split::Part;
use crate::ir::*;
use crate::walk::{assigned, pure_reads};

mod plan;

/// How a tangent term varies with the hoisted loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    /// The same on every iteration.
    Fixed,
    Varying,
    /// An accumulator's or chain temporary's tangent with coefficient 1: each part has its own.
    Linear,
    /// Such a tangent scaled or passed to a rule: the loop is not hoisted.
    Bad,
}

impl Class {
    /// A term computed from tangents of these classes by a rule that is not a sum.
    pub fn opaque(classes: impl IntoIterator<Item = Class>) -> Class {
        let mut out = Class::Varying;
        for c in classes {
            if matches!(c, Class::Linear | Class::Bad) {
                out = Class::Bad;
            }
        }
        out
    }
}

/// One term of a tangent's sum.
pub struct Term {
    pub tokens: TokenStream,
    pub class: Class,
    /// It reads the primal's result.
    pub reads_out: bool,
    /// It multiplies (or divides): what hoisting saves.
    pub product: bool,
}

impl Term {
    /// A tangent with coefficient 1 (or -1).
    pub fn linear(tokens: TokenStream, class: Class) -> Term {
        Term {
            tokens,
            class,
            reads_out: false,
            product: false,
        }
    }

    pub fn product(tokens: TokenStream, class: Class, reads_out: bool) -> Term {
        Term {
            tokens,
            class,
            reads_out,
            product: true,
        }
    }
}

/// Which part of a hoisted loop is being printed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// The fixed part, before the loop: accumulators are their slots.
    Fixed,
    /// The loop itself, with the varying part.
    Varying,
}

#[derive(Clone)]
pub struct Hoist {
    mode: Mode,
    /// The variables `L` assigns, and its counter.
    varying: HashSet<VarId>,
    /// The variables of a nest that the fixed part computes again: counters and index `let`s.
    again: HashSet<VarId>,
    /// The locals and temporaries of a nest whose tangent is fixed.
    fixed: HashSet<Target>,
    /// Each accumulator's slot in the fixed part: `w_qx[k]`.
    acc: HashMap<VarId, TokenStream>,
    chain: HashSet<TempId>,
    /// Chain temporaries with no term in the part being printed.
    absent: HashSet<TempId>,
    /// Fixed locals and temporaries whose tangent only the fixed part reads: the loop does not
    /// compute it.
    dropped: HashSet<Target>,
    /// What adds the fixed parts, after a statement of a nest.
    merges: HashMap<StmtRef, TokenStream>,
}

impl Hoist {
    /// Adds the sets of another nest's analysis (disjoint from these: each nest's locals and
    /// temporaries are its own).
    fn absorb(&mut self, other: Hoist) {
        self.again.extend(other.again);
        self.fixed.extend(other.fixed);
        self.acc.extend(other.acc);
        self.chain.extend(other.chain);
        self.dropped.extend(other.dropped);
        for (at, merge) in other.merges {
            self.merges.entry(at).or_default().extend(merge);
        }
    }

    /// The slot of an accumulator's tangent, while the fixed part is printed.
    pub fn slot(&self, v: VarId) -> Option<&TokenStream> {
        (self.mode == Mode::Fixed)
            .then(|| self.acc.get(&v))
            .flatten()
    }

    /// Whether a definition of `target` keeps a term of class `c` in the part being printed.
    pub fn keeps(&self, target: Target, c: Class) -> bool {
        if !self.splits(target) {
            return true;
        }
        match self.mode {
            Mode::Fixed => matches!(c, Class::Fixed | Class::Linear),
            Mode::Varying => matches!(c, Class::Varying | Class::Linear),
        }
    }

    fn splits(&self, target: Target) -> bool {
        match target {
            Target::Var(v) => self.acc.contains_key(&v),
            Target::Temp(t) => self.chain.contains(&t),
        }
    }

    pub fn merge_after(&self, s: &Stmt) -> Option<&TokenStream> {
        (self.mode == Mode::Varying)
            .then(|| self.merges.get(&StmtRef::of(s)?))
            .flatten()
    }

    pub fn is_absent(&self, t: TempId) -> bool {
        self.absent.contains(&t)
    }

    /// Is a value the same on every iteration of `L`?
    fn value_fixed(&self, o: &Operand) -> bool {
        match o {
            Operand::Const { .. } => true,
            Operand::Temp(_) => false,
            Operand::Var { var, proj, .. } => self.var_fixed(*var) && self.proj_fixed(proj),
        }
    }

    fn var_fixed(&self, v: VarId) -> bool {
        !self.varying.contains(&v) || self.again.contains(&v)
    }

    fn proj_fixed(&self, proj: &[Proj]) -> bool {
        proj.iter()
            .flat_map(Proj::pures)
            .all(|i| self.pure_fixed(i))
    }

    fn pure_fixed(&self, p: &Pure) -> bool {
        let mut reads = Vec::new();
        pure_reads(p, &mut reads);
        reads.iter().all(|(v, _, _)| self.var_fixed(*v))
    }

    fn range_fixed(&self, r: &Range) -> bool {
        let mut reads = Vec::new();
        crate::walk::range_reads(r, &mut reads);
        reads.iter().all(|(v, _, _)| self.var_fixed(*v))
    }
}

impl Tan<'_> {
    /// The class of an operand's tangent as a term of its own.
    pub(super) fn tangent_class(&self, o: &Operand) -> Class {
        let Some(h) = &self.hoist else {
            return Class::Varying;
        };
        match o {
            Operand::Temp(t) if h.chain.contains(t) => Class::Linear,
            Operand::Temp(t) if h.fixed.contains(&Target::Temp(*t)) => Class::Fixed,
            // At an index that varies, its slot could not be read before the loop.
            Operand::Var { var, proj, .. } if h.acc.contains_key(var) => match h.proj_fixed(proj) {
                true => Class::Linear,
                false => Class::Bad,
            },
            Operand::Var { var, proj, .. }
                if (h.fixed.contains(&Target::Var(*var)) || !h.varying.contains(var))
                    && h.proj_fixed(proj) =>
            {
                Class::Fixed
            }
            _ => Class::Varying,
        }
    }

    /// The class of `t_o * c`, `c` the product of the values `coeffs`.
    pub(super) fn scaled_class(&self, o: &Operand, coeffs: &[&Operand]) -> Class {
        let Some(h) = &self.hoist else {
            return Class::Varying;
        };
        match self.tangent_class(o) {
            Class::Linear | Class::Bad => Class::Bad,
            Class::Fixed if coeffs.iter().all(|c| h.value_fixed(c)) => Class::Fixed,
            _ => Class::Varying,
        }
    }

    /// Whether a definition of a hoisted loop has nothing to compute in the part printed: a
    /// chain temporary without terms there (then marked absent, and its uses drop it), an
    /// accumulator summed into with nothing, an accumulator's `let` in the fixed part with
    /// nothing (its slot starts at zero).
    pub(super) fn nothing_to_add(
        &mut self,
        target: Target,
        place: &[Proj],
        rhs: &Rhs,
        ty: TyId,
        is_let: bool,
    ) -> bool {
        let Some(h) = &self.hoist else {
            return false;
        };
        if h.mode == Mode::Varying && h.dropped.contains(&target) {
            return true;
        }
        if !h.splits(target) {
            return false;
        }
        let out = self.fwd.target(target).to_token_stream();
        let kept: Vec<Term> = (self.t_terms(rhs, ty, &out).into_iter())
            .filter(|t| h.keeps(target, t.class))
            .collect();
        match target {
            Target::Temp(t) => {
                if kept.is_empty() {
                    self.hoist.as_mut().unwrap().absent.insert(t);
                }
                kept.is_empty()
            }
            Target::Var(_) if is_let => h.mode == Mode::Fixed && kept.is_empty(),
            Target::Var(v) => match kept.as_slice() {
                [only] => {
                    Some(only.tokens.to_string()) == self.t_place(v, place).map(|t| t.to_string())
                }
                _ => false,
            },
        }
    }

    /// Is a `let` of this target, in the part printed, an assignment to its slot?
    pub(super) fn assigns_slot(&self, target: Target) -> bool {
        matches!((&self.hoist, target), (Some(h), Target::Var(v)) if h.slot(v).is_some())
    }

    /// `L` printed with its fixed part hoisted, or `None` where nothing is hoisted.
    pub(super) fn hoist_loop(&mut self, s: &Stmt) -> Option<TokenStream> {
        if self.part != Part::Both || self.hoist.is_some() {
            return None;
        }
        let Stmt::For {
            var, range, body, ..
        } = s
        else {
            return None;
        };
        if !body.stmts.iter().any(|m| matches!(m, Stmt::For { .. })) || exits(body) {
            return None;
        }
        let mut varying = Vec::new();
        assigned(body, &mut varying);
        let h = Hoist {
            mode: Mode::Fixed,
            varying: varying.into_iter().chain([*var]).collect(),
            again: HashSet::new(),
            fixed: HashSet::new(),
            acc: HashMap::new(),
            chain: HashSet::new(),
            absent: HashSet::new(),
            dropped: HashSet::new(),
            merges: HashMap::new(),
        };
        // Every nest that can be hoisted from, each analysed on its own: a nest's locals and
        // temporaries are its own, so the sets of the nests are disjoint and their union
        // classes every statement of the loop as its own nest's analysis did.
        let plans: Vec<_> = (body.stmts.iter())
            .filter_map(|m| self.plan_nest(h.clone(), m))
            .collect();
        if plans.is_empty() {
            return None;
        }
        let mut merged = h;
        let mut nests = Vec::new();
        for (p, nest) in plans {
            merged.absorb(p);
            nests.push(nest);
        }
        // The slots, then the fixed parts, in the nests' order.
        let mut out = TokenStream::new();
        let mut fixed = TokenStream::new();
        let (saved_part, saved_again) = (self.part, std::mem::take(&mut self.again));
        self.hoist = Some(merged);
        self.part = Part::Tangent;
        for nest in &nests {
            out.extend(nest.slots.clone());
            self.again = nest.again.clone();
            fixed.extend(self.fixed_part(nest.stmt).0);
        }
        // Only if the loop runs (its adapters, `rev` and `step_by`, do not change that).
        let (start, end) = (self.fwd.pure(&range.start), self.fwd.pure(&range.end));
        let runs = if range.inclusive {
            quote!(#start <= #end)
        } else {
            quote!(#start < #end)
        };
        out.extend(quote!(if #runs { #fixed }));
        // The loop, with the varying part.
        self.part = saved_part;
        self.again = saved_again;
        let h = self.hoist.as_mut().unwrap();
        h.mode = Mode::Varying;
        h.absent.clear();
        out.extend(self.stmt(s));
        self.hoist = None;
        Some(out)
    }

    /// A nest's statements that compute its fixed part: the fixed locals' tangents, the
    /// accumulators' and chain temporaries' fixed terms, the index `let`s they read, in loops
    /// that hold any of the first three. With whether it holds any.
    fn fixed_part(&mut self, s: &Stmt) -> (TokenStream, bool) {
        match s {
            Stmt::Def {
                id,
                target,
                place,
                rhs,
                is_let,
            } => {
                let h = self.hoist.as_ref().unwrap();
                let wanted = h.fixed.contains(target) || h.splits(*target);
                if wanted || self.again.contains(target) {
                    (self.def(*id, *target, place, rhs, *is_let), wanted)
                } else {
                    (TokenStream::new(), false)
                }
            }
            Stmt::For {
                var, range, body, ..
            } => {
                let (mut inner, mut wanted) = (TokenStream::new(), false);
                for s in &body.stmts {
                    let (tokens, w) = self.fixed_part(s);
                    inner.extend(tokens);
                    wanted |= w;
                }
                if !wanted {
                    return (TokenStream::new(), false);
                }
                let i = &self.f.vars[*var].emit;
                let iter = self.fwd.range(range);
                (quote!(for #i in #iter { #inner }), true)
            }
            _ => (TokenStream::new(), false),
        }
    }
}

/// Does a block leave its loop early, or check a bound?
fn exits(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Break | Stmt::Continue | Stmt::Panic(_) => true,
        Stmt::If { then, els, .. } => exits(then) || exits(els),
        Stmt::For { body, .. } => exits(body),
        Stmt::Def { .. } => false,
    })
}

/// Only definitions (no call) and loops of them, without tails.
fn plain(b: &Block) -> bool {
    b.tail.is_empty()
        && b.stmts.iter().all(|s| match s {
            Stmt::Def { rhs, .. } => !matches!(rhs, Rhs::Call { .. }),
            Stmt::For { body, .. } => plain(body),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use crate::tangent::jvp_body;

    const GMM_LIKE: &str =
        "fn f(q: &[[f64; 3]; 2], l: &[[f64; 3]; 2], mu: &[[f64; 3]; 2], x: &[[f64; 3]; 4]) -> f64 {
        let mut s = 0.0;
        for i in 0..4 {
            for k in 0..2 {
                let mut xc = [0.0; 3];
                for d in 0..3 { xc[d] = x[i][d] - mu[k][d]; }
                let mut qx = [0.0; 3];
                for d in 0..3 { qx[d] = q[k][d] * xc[d]; }
                for a in 0..3 { for b in a + 1..3 { qx[b] += l[k][a + b - 1] * xc[a]; } }
                for d in 0..3 { s += qx[d] * qx[d]; }
            }
        }
        s
    }";

    /// `f_jvp`'s body of a function of `q`, `mu` (differentiated) and `x` whose loop over `i`
    /// holds `body`.
    fn in_loop(body: &str) -> String {
        let src = format!(
            "fn f(q: &[[f64; 3]; 2], mu: &[[f64; 3]; 2], x: &[[f64; 3]; 4]) -> f64 {{
                let mut s = 0.0;
                for i in 0..4 {{ {body} }}
                s
            }}"
        );
        jvp_body(&src, Some("q, mu"))
    }

    /// The code between `from` and `to` (the text after `from` if `to` is absent).
    fn between<'c>(code: &'c str, from: &str, to: &str) -> &'c str {
        let start = code
            .find(from)
            .unwrap_or_else(|| panic!("no `{from}` in {code}"));
        let rest = &code[start..];
        rest.find(to).map_or(rest, |end| &rest[..end])
    }

    #[test]
    fn an_accumulators_fixed_part_is_computed_once_before_the_loop() {
        let code = jvp_body(GMM_LIKE, Some("q, l, mu"));
        assert!(
            code.contains("let mut w_qx : [[f64 ; 3] ; 2] = [[0.0 ; 3] ; 2] ;"),
            "{code}"
        );
        // Before the loop, if it runs: `t_xc` and the fixed terms, in the nest's order.
        let fixed = between(&code, "if 0 < 4 {", "for i in");
        assert!(fixed.contains("t_xc [d] = - t_mu [k] [d] ;"), "{code}");
        assert!(
            fixed.contains("w_qx [k] [d_1] = q [k] [d_1] * t_xc [d_1] ;"),
            "{code}"
        );
        assert!(
            fixed.contains("let t_t0 : f64 = l [k] [(a + b) - 1] * t_xc [a] ; w_qx [k] [b] = w_qx [k] [b] + t_t0 ;"),
            "{code}"
        );
        assert!(!fixed.contains("xc [d] = x"), "{code}");
        // In the loop: the varying terms only, then the fixed part added once `t_qx` is
        // complete, before the sum reads it; `t_xc` is read by nothing left there.
        let inner = between(&code, "for i in", "(s , t_s)");
        assert!(
            inner.contains("t_qx [d_1] = t_q [k] [d_1] * xc [d_1] ;"),
            "{code}"
        );
        assert!(
            inner.contains("let t_t0 : f64 = t_l [k] [(a + b) - 1] * xc [a] ;"),
            "{code}"
        );
        assert!(!inner.contains("t_xc"), "{code}");
        let merge = "for j in (0 .. 3) { t_qx [j] = t_qx [j] + w_qx [k] [j] ; }";
        let after = between(inner, merge, "(s , t_s)");
        assert!(
            after.starts_with(merge) && after.contains("2.0 * qx [d_2] * t_qx [d_2]"),
            "{code}"
        );
        assert!(
            !between(inner, "for i in", merge).contains("* t_qx"),
            "{code}"
        );
    }

    #[test]
    fn an_accumulator_that_sums_another_is_not_split() {
        // `z` reads `t_qx` once it is whole: splitting `z` would add `w_qx` twice.
        let code = in_loop(
            "for k in 0..2 {
                let mut qx = [0.0; 3];
                for d in 0..3 { qx[d] = q[k][d] * (x[i][d] - mu[k][d]); }
                let mut z = 0.0;
                for d in 0..3 { z += q[k][d] * mu[k][d] - qx[d]; }
                s += z * z;
            }",
        );
        assert!(code.contains("w_qx") && !code.contains("w_z"), "{code}");
    }

    #[test]
    fn every_nest_of_a_loop_is_hoisted_from() {
        let code = in_loop(
            "for k in 0..2 {
                let mut qx = [0.0; 3];
                for d in 0..3 { qx[d] = q[k][d] * (x[i][d] - mu[k][d]); }
                s += qx[0] * qx[1];
            }
            for k in 0..2 {
                let mut qy = [0.0; 3];
                for d in 0..3 { qy[d] = q[k][d] * (x[i][d] + mu[k][d]); }
                s += qy[0] * qy[2];
            }",
        );
        // Both slots and both fixed parts before the loop, each nest's merge after its own
        // accumulator is complete; in the loop, neither nest reads `t_mu`.
        let fixed = between(&code, "if 0 < 4 {", "for i in");
        assert!(
            fixed.contains("w_qx [k] [d] = q [k] [d] * t_t0 ;")
                && fixed.contains("w_qy [k_1] [d_1] = q [k_1] [d_1] * t_t2 ;"),
            "{code}"
        );
        let inner = between(&code, "for i in", "(s , t_s)");
        assert!(!inner.contains("t_mu"), "{code}");
        let (first, second) = inner.split_at(inner.find("for k_1 in").expect("two nests"));
        assert!(
            first.contains("+ w_qx [k] [j] ;") && !first.contains("w_qy"),
            "{code}"
        );
        assert!(
            second.contains("+ w_qy [k_1] [j_1] ;") && !second.contains("w_qx"),
            "{code}"
        );
    }

    #[test]
    fn nothing_is_hoisted_where_it_would_be_unsound_or_not_pay() {
        let hoisted = |body: &str| in_loop(body).contains("w_");
        let nest = "for k in 0..2 {
            let mut qx = [0.0; 3];
            for d in 0..3 { qx[d] = q[k][d] * (x[i][d] - mu[k][d]); }
            s += qx[0] * qx[1];
        }";
        assert!(hoisted(nest));
        // The loop may stop early.
        assert!(!hoisted(&format!("{nest} if s > 10.0 {{ break; }}")));
        // The nest's range does not start at 0, or is not a constant.
        assert!(!hoisted(&nest.replace("0..2", "1..2")));
        assert!(!hoisted(&nest.replace("0..2", "0..i")));
        // The accumulator is read before it is complete.
        assert!(!hoisted(&nest.replace(
            "s += qx[0]",
            "s += qx[2]; for d in 0..3 { qx[d] += mu[k][d] * q[k][d]; } s += qx[0]"
        )));
        // The accumulator is summed into from a place that varies with the loop (its slot's
        // place could not be read before it).
        assert!(!hoisted(&nest.replace(
            "s += qx[0]",
            "for d in 0..3 { qx[d] += qx[i % 3]; } s += qx[0]"
        )));
        // A fixed part without a product: nothing to save.
        assert!(!hoisted(&nest.replace(
            "q[k][d] * (x[i][d] - mu[k][d])",
            "x[i][d] - mu[k][d]"
        )));
    }
}
