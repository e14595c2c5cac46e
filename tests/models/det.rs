//! GradBench's `det` (`evals/det`, from cmpad's `det_by_minor`): the determinant by expansion by
//! minors along the first row, recursively, as the eval's C++ reference
//! (`cpp/gradbench/evals/det.hpp`) writes it with a linked list of the columns left. The
//! recursion's stack is in `Vec` locals, one entry per depth. Shared by `tests/vec_locals.rs`
//! and the GradBench tool's `det` eval.

#![allow(clippy::needless_range_loop)] // index loops are how the reference writes it

use stackgrad::differentiable;

/// The determinant of the `ell` x `ell` matrix `a` (row-major). Each step of the loop either
/// takes the next column of the current minor's first row (multiplying its element, with its
/// sign, into the product of those taken above it, and adding the product at the last row) or,
/// when the minor's columns are exhausted, returns to the minor above and puts its column back.
#[differentiable(wrt(a))]
pub fn det(a: &[f64], ell: usize) -> f64 {
    // The steps: an edge of the recursion tree each (ell!/(ell-k)! at depth k), and a return
    // from each minor of depth 1 to ell - 1.
    let mut edges = 0;
    let mut level = 1;
    for k in 0..ell {
        level *= ell - k;
        edges += level;
    }
    let steps = 2 * edges - level;
    // The columns not yet removed, as a linked list: `next[ell]` is the first, `next[j]` the
    // one after column `j`, `ell` ends the list.
    let mut next = vec![0; ell + 1];
    for j in 0..ell {
        next[j] = j + 1;
    }
    // Per depth (the row of the minor): the column taken, the one before it in the list, and
    // whether its position is odd.
    let mut cur = vec![0; ell + 1];
    let mut prev = vec![0; ell + 1];
    let mut odd = vec![0; ell + 1];
    // The products of the elements taken on the way down, with their signs.
    let mut prod = vec![0.0; ell + 1];
    prod[0] = 1.0;
    prev[0] = ell;
    cur[0] = next[ell];
    let mut d = 0;
    let mut total = 0.0;
    for _ in 0..steps {
        if cur[d] != ell {
            let col = cur[d];
            let m = a[d * ell + col] * prod[d];
            if odd[d] == 1 {
                prod[d + 1] = -m;
            } else {
                prod[d + 1] = m;
            }
            if d + 1 == ell {
                total += prod[d + 1];
                prev[d] = col;
                cur[d] = next[col];
                odd[d] = 1 - odd[d];
            } else {
                next[prev[d]] = next[col];
                d += 1;
                prev[d] = ell;
                cur[d] = next[ell];
                odd[d] = 0;
            }
        } else {
            d -= 1;
            let col = cur[d];
            next[prev[d]] = col;
            prev[d] = col;
            cur[d] = next[col];
            odd[d] = 1 - odd[d];
        }
    }
    total
}
