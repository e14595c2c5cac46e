//! First-touch assignment, for the sweep inside `f_grad`: there the gradient buffers start at
//! zero, so the first contribution to an element can assign it (`d_x[i] = s * w[i]`) instead of
//! reading it back and adding (`d_x[i] += ..`), as a hand-written gradient does. The adjoint keeps
//! the accumulating contract.
//!
//! A contribution to a place of a differentiated parameter assigns when nothing written before
//! it in the sweep (in the order the sweep runs) can have touched that place, and, inside loops,
//! when every enclosing loop touches disjoint elements of the parameter in different iterations:
//! every place of the parameter the loop body reads has the loop's counter itself as the index at
//! one and the same position (`d_x[i]`, `d_w[i][j]` under `for i`). A place is known by its
//! parameter and the fields it starts with, so `d_p.w` and `d_p.b` are tracked apart. After a
//! branch, a place is touched if either branch touched it.

use super::Rev;
use crate::ir::*;

/// A parameter and the fields its place starts with (`p.w` of `p.w[i][j]`).
#[derive(Clone, PartialEq)]
pub(super) struct Root {
    var: VarId,
    fields: Vec<String>,
}

impl Root {
    fn of(var: VarId, proj: &[Proj]) -> Root {
        let fields = proj
            .iter()
            .filter(|p| !matches!(p, Proj::Deref))
            .map_while(|p| match p {
                Proj::Field(f) => Some(f.to_string()),
                _ => None,
            })
            .collect();
        Root { var, fields }
    }

    /// One is inside the other (`p` and `p.w`, `p.w` and `p.w`).
    fn overlaps(&self, other: &Root) -> bool {
        self.var == other.var && self.fields.iter().zip(&other.fields).all(|(a, b)| a == b)
    }
}

/// The position of `counter` as an index in `proj` (projections after `*`).
fn counter_position(proj: &[Proj], counter: VarId) -> Option<usize> {
    if proj.iter().any(|p| matches!(p, Proj::Range { .. })) {
        return None;
    }
    proj.iter().filter(|p| !matches!(p, Proj::Deref)).position(
        |p| matches!(p, Proj::Index(Pure::Var(v, vp, _)) if *v == counter && vp.is_empty()),
    )
}

/// Every place of a variable overlapping `root` that `b` reads as an operand.
fn reads_of<'f>(b: &'f Block, root: &Root) -> Vec<&'f [Proj]> {
    let mut out = Vec::new();
    crate::walk::each_operand(b, &mut |o| {
        if let Operand::Var { var, proj, .. } = o
            && Root::of(*var, proj).overlaps(root)
        {
            out.push(&proj[..]);
        }
    });
    out
}

/// Do different iterations of a loop over `counter` touch different elements of `root`?
fn disjoint_iterations(body: &Block, counter: VarId, root: &Root) -> bool {
    let mut at = None;
    reads_of(body, root).iter().all(|proj| {
        let p = counter_position(proj, counter);
        p.is_some() && *at.get_or_insert(p) == p
    })
}

impl<'a> Rev<'a> {
    /// May a contribution to `var`'s place `proj` assign it? Only in the assigning sweep, for a
    /// differentiated parameter's place that nothing before can have touched.
    pub(super) fn first_touch(&self, var: VarId, proj: &[Proj]) -> bool {
        if !self.assign_first || self.f.vars[var].param.is_none() {
            return false;
        }
        let root = Root::of(var, proj);
        !self.touched.iter().any(|t| t.overlaps(&root))
            && self.loop_stack.iter().all(|&(counter, body)| {
                body.is_some_and(|body| disjoint_iterations(body, counter, &root))
            })
    }

    /// Marks a parameter's place as written (any write to its cotangent goes through here).
    pub(super) fn touch(&mut self, var: VarId, proj: &[Proj]) {
        if self.f.vars[var].param.is_some() {
            let root = Root::of(var, proj);
            if !self.touched.contains(&root) {
                self.touched.push(root);
            }
        }
    }

    /// After both branches of an `if`: what either touched.
    pub(super) fn join_touched(&mut self, other: Vec<Root>) {
        for r in other {
            if !self.touched.contains(&r) {
                self.touched.push(r);
            }
        }
    }
}
