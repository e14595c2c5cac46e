//! Sub-slices of slice parameters: `&x[a..b]` (`a..`, `..b`, `a..=b`, and a sub-slice of a
//! sub-slice) bound to a name or read in place, indexed, measured (`.len()`) and iterated
//! (`.iter()`, `.zip(..)`, `.enumerate()`, `0..row.len()`), in loops of independent iterations,
//! in a recorded loop and in a sequential loop under binomial checkpoints; the gradient against
//! central differences in f64, `f_jvp` and `f_hvp` against the gradient and its central
//! differences, `f_try_forward`'s error for a sub-slice past the end.

#![allow(clippy::needless_range_loop)] // index loops over `0..row.len()` are what is tested

mod common;

use common::data;
use stackgrad::differentiable;

/// Central differences of `f` at `x`, element by element.
fn central(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut y = x.to_vec();
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            y[i] = x[i] + h;
            let plus = f(&y);
            y[i] = x[i] - h;
            let minus = f(&y);
            y[i] = x[i];
            (plus - minus) / (2.0 * h)
        })
        .collect()
}

fn close(a: &[f64], b: &[f64], tol: f64, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (i, (a, b)) in a.iter().zip(b).enumerate() {
        assert!(
            (a - b).abs() <= tol * b.abs().max(1.0),
            "{what}[{i}]: {a} against {b}"
        );
    }
}

/// k-means' cost, each row a sub-slice: the closest centroid found by comparing distances
/// (`arg` is `mut`, assigned before the sub-slice that reads it), then the distance to it.
#[differentiable(wrt(c), hvp)]
fn nearest(c: &[f64], p: &[f64], d: usize) -> f64 {
    let k = c.len() / d;
    let mut total = 0.0;
    for i in 0..p.len() / d {
        let point = &p[i * d..i * d + d];
        let mut best = f64::INFINITY;
        let mut arg = 0;
        for j in 0..k {
            let centroid = &c[j * d..(j + 1) * d];
            let mut dist = 0.0;
            for (a, b) in centroid.iter().zip(point) {
                dist += (a - b) * (a - b);
            }
            if dist < best {
                best = dist;
                arg = j;
            }
        }
        let closest = &c[arg * d..arg * d + d];
        for t in 0..closest.len() {
            let e = closest[t] - point[t];
            total += e * e * (1.0 + 0.1 * closest[t]);
        }
    }
    total
}

#[test]
fn rows_of_a_flat_slice_against_central_differences() {
    let d = 3;
    let p = data(1, 40 * d, -1.0, 1.0);
    let c = data(2, 5 * d, -1.0, 1.0);
    let mut g = vec![9.0; c.len()];
    let (value, ()) = nearest_grad(&c, &p, d, &mut g);
    assert_eq!(value, nearest(&c, &p, d));
    close(&g, &central(|c| nearest(c, &p, d), &c), 1e-6, "gradient");
    // H v against central differences of the gradient along v; the gradient it returns is
    // the same.
    let v = data(3, c.len(), -1.0, 1.0);
    let (mut g_h, mut hv) = (vec![0.0; c.len()], vec![0.0; c.len()]);
    nearest_hvp(&c, &p, d, &v, &mut g_h, &mut hv);
    close(&g_h, &g, 1e-12, "f_hvp's gradient");
    let h = 1e-5;
    let along = |s: f64| {
        let x: Vec<f64> = c.iter().zip(&v).map(|(c, v)| c + s * v).collect();
        let mut g = vec![0.0; c.len()];
        nearest_grad(&x, &p, d, &mut g);
        g
    };
    let (gp, gm) = (along(h), along(-h));
    let fd: Vec<f64> = gp
        .iter()
        .zip(&gm)
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect();
    close(&hv, &fd, 1e-6, "H v");
}

/// Every form of range, a sub-slice of a sub-slice, `.len()`, `.enumerate()`, a `zip` of a
/// sub-slice with an array (it stops at the shorter), a sub-slice read in place
/// (`x[1..][i]`, `x[..k].iter()`), and one inside a loop of independent iterations.
#[differentiable(wrt(x, w), jvp)]
fn windows(x: &[f64], w: &[f64; 3], k: usize) -> f64 {
    let head = &x[..k];
    let tail: &[f64] = &x[k..];
    let mid = &x[1..=k];
    let inner = &tail[1..tail.len() - 1];
    let mut s = 0.0;
    for (i, v) in head.iter().enumerate() {
        s += (i as f64 + 1.0) * v * v;
    }
    for v in inner {
        s += w[0] * v.sin();
    }
    for (a, b) in w.iter().zip(mid) {
        s += a * b * b;
    }
    for i in 0..mid.len() {
        s += 0.5 * mid[i] * x[1..][i] * w[2];
    }
    for v in x[..k].iter() {
        s -= 0.25 * v * w[1];
    }
    for i in 0..x.len() - 2 {
        let pair = &x[i..i + 2];
        s += w[1] * pair[0] * pair[1];
    }
    s + tail[0] * inner.len() as f64
}

#[test]
fn every_range_against_central_differences() {
    let x = data(4, 11, -1.0, 1.0);
    let w = [0.3, -0.7, 1.1];
    for k in [1, 4, 8] {
        let mut d_x = vec![5.0; x.len()];
        let (value, d_w) = windows_grad(&x, &w, k, &mut d_x);
        assert_eq!(value, windows(&x, &w, k));
        close(&d_x, &central(|x| windows(x, &w, k), &x), 1e-6, "d_x");
        let d_w_fd = central(|w| windows(&x, &[w[0], w[1], w[2]], k), &w);
        close(&d_w, &d_w_fd, 1e-6, "d_w");
        // The tangent along (t_x, t_w) is the gradient's dot product with it.
        let t_x = data(5, x.len(), -1.0, 1.0);
        let t_w = [0.2, 0.4, -0.6];
        let (value_t, dv) = windows_jvp(&x, &w, k, &t_x, &t_w);
        let along: f64 = (d_x.iter().zip(&t_x).map(|(g, t)| g * t)).sum::<f64>()
            + (0..3).map(|i| d_w[i] * t_w[i]).sum::<f64>();
        assert_eq!(value_t, value);
        assert!(
            (dv - along).abs() <= 1e-12 * along.abs().max(1.0),
            "{dv} {along}"
        );
    }
}

/// A sub-slice read in a loop that calls a costly function (recorded with `alloc`, its length
/// the sub-slice's), and in a sequential loop under binomial checkpoints.
#[differentiable(wrt(x, a))]
fn smooth(x: &[f64], a: f64, n: usize) -> f64 {
    let body = &x[1..n + 1];
    let mut s = 0.0;
    for v in body.iter() {
        s += (a * v).exp();
    }
    let mut h = 0.0;
    #[checkpoint(snapshots = 3, binomial)]
    for v in body {
        h = (h * a + v).tanh();
    }
    s + h
}

#[test]
fn recorded_and_sequential_loops_over_a_sub_slice() {
    let x = data(6, 20, -1.0, 1.0);
    for n in [0, 1, 7, 19] {
        let mut d_x = vec![0.0; x.len()];
        let (value, d_a) = smooth_grad(&x, 0.6, n, &mut d_x);
        assert_eq!(value, smooth(&x, 0.6, n));
        close(&d_x, &central(|x| smooth(x, 0.6, n), &x), 1e-6, "d_x");
        let d_a_fd = central(|a| smooth(&x, a[0], n), &[0.6]);
        close(&[d_a], &d_a_fd, 1e-6, "d_a");
        // `f_forward` records the loop that calls `exp` (its `Vec` sized by the sub-slice's
        // length), `f_adjoint` reads it back: the same gradient.
        let mut tape = SmoothTape::new();
        assert_eq!(smooth_forward(&x, 0.6, n, &mut tape), value);
        let (mut a_x, mut a_a) = (vec![0.0; x.len()], 0.0);
        smooth_adjoint(&x, 0.6, n, &tape, 1.0, &mut a_x, &mut a_a);
        close(&a_x, &d_x, 1e-12, "f_adjoint's d_x");
        close(&[a_a], &[d_a], 1e-12, "f_adjoint's d_a");
    }
}

/// The largest of `x` squared, by the fold the `.reduce(f).unwrap()` error asks for: from the
/// first element over the sub-slice of the rest.
#[differentiable(wrt(x))]
fn largest_square(x: &[f64]) -> f64 {
    x[1..].iter().fold(x[0] * x[0], |m, &v| m.max(v * v))
}

#[test]
fn a_fold_from_the_first_element_over_the_rest() {
    // The largest square at each position in turn (and at the first, which starts the fold).
    for at in 0..4 {
        let mut x = vec![0.3, -0.5, 0.7, -0.2];
        x[at] = -1.5;
        let mut d_x = vec![0.0; 4];
        let (value, ()) = largest_square_grad(&x, &mut d_x);
        assert_eq!(value, 2.25);
        // Closed form: 2 x at the largest, zero elsewhere.
        let mut want = vec![0.0; 4];
        want[at] = -3.0;
        close(&d_x, &want, 1e-12, "d_x");
        close(
            &d_x,
            &central(largest_square, &x),
            1e-6,
            "d_x against central differences",
        );
    }
}

#[test]
fn try_forward_returns_an_error_for_a_sub_slice_past_the_end() {
    let x = data(7, 5, -1.0, 1.0);
    let mut tape = SmoothTape::new();
    assert_eq!(
        smooth_try_forward(&x, 0.6, 5, &mut tape),
        Err("a sub-slice is outside the slice `x`")
    );
    assert!(smooth_try_forward(&x, 0.6, 4, &mut tape).is_ok());
}

#[differentiable(wrt(a, b))]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s
}

/// Sub-slices passed to a differentiable callee, bound to a name and written in place, and a
/// whole slice with them.
#[differentiable(wrt(x, w))]
fn halves(x: &[f64], w: &[f64]) -> f64 {
    let n = x.len() / 2;
    let front = &x[..n];
    dot(front, &w[n..]) + dot(&x[n..], w) * dot(&w[1..], &x[..x.len() - 1])
}

#[test]
fn sub_slices_passed_to_a_callee() {
    let x = data(8, 9, -1.0, 1.0);
    let w = data(9, 7, -1.0, 1.0);
    let (mut d_x, mut d_w) = (vec![0.0; x.len()], vec![0.0; w.len()]);
    let (value, ()) = halves_grad(&x, &w, &mut d_x, &mut d_w);
    assert_eq!(value, halves(&x, &w));
    close(&d_x, &central(|x| halves(x, &w), &x), 1e-6, "d_x");
    close(&d_w, &central(|w| halves(&x, w), &w), 1e-6, "d_w");
}

#[differentiable]
fn mul(a: f64, b: f64) -> f64 {
    a * b
}

/// A sub-slice bound again to another name (`let r2 = row;`), one whose bounds read a `mut`
/// array's element (read again at every use, inside a loop), the same name bound to two
/// sub-slices in sibling loops with a `mut` bound assigned between them, and two elements
/// of a differentiated slice passed to one call.
#[differentiable(wrt(x))]
fn bounds(x: &[f64], n: usize) -> f64 {
    let mut at = [0usize; 2];
    at[1] = n;
    let row = &x[at[0]..at[1]];
    let again = row;
    let mut s = mul(x[0], x[1]);
    for i in 0..again.len() {
        s += row[i] * again[i] * (i as f64 + 1.0);
    }
    let mut k = 1;
    for i in 0..2 {
        let part = &x[k..];
        s += part[i].sin();
    }
    k += 1;
    for i in 0..2 {
        let part = &x[k..];
        s += part[i].cos();
    }
    s
}

#[test]
fn bounds_read_at_each_use_against_central_differences() {
    let x = data(10, 8, -1.0, 1.0);
    for n in [2, 5, 8] {
        let mut d_x = vec![0.0; x.len()];
        let (value, ()) = bounds_grad(&x, n, &mut d_x);
        assert_eq!(value, bounds(&x, n));
        close(&d_x, &central(|x| bounds(x, n), &x), 1e-6, "d_x");
    }
}

/// A sequential loop over `0..row.len()`, recorded into the tape's `Vec` (sized by the
/// sub-slice's length) and read back by the adjoint.
#[differentiable(wrt(x, a))]
fn recurrence(x: &[f64], a: f64, n: usize) -> f64 {
    let row = &x[1..n];
    let mut h = 0.0;
    for i in 0..row.len() {
        h = (h * a + row[i]).tanh();
    }
    h
}

#[test]
fn a_recorded_loop_over_a_sub_slice_length() {
    let x = data(11, 12, -1.0, 1.0);
    for n in [1, 2, 9, 12] {
        let mut d_x = vec![0.0; x.len()];
        let (value, d_a) = recurrence_grad(&x, 0.8, n, &mut d_x);
        assert_eq!(value, recurrence(&x, 0.8, n));
        close(&d_x, &central(|x| recurrence(x, 0.8, n), &x), 1e-6, "d_x");
        close(
            &[d_a],
            &central(|a| recurrence(&x, a[0], n), &[0.8]),
            1e-6,
            "d_a",
        );
        let mut tape = RecurrenceTape::new();
        assert_eq!(recurrence_forward(&x, 0.8, n, &mut tape), value);
        let (mut a_x, mut a_a) = (vec![0.0; x.len()], 0.0);
        recurrence_adjoint(&x, 0.8, n, &tape, 1.0, &mut a_x, &mut a_a);
        close(&a_x, &d_x, 1e-12, "f_adjoint's d_x");
        close(&[a_a], &[d_a], 1e-12, "f_adjoint's d_a");
    }
    // Past the end: `f_try_forward` returns the error, where the tape's `Vec` is sized first.
    let mut tape = RecurrenceTape::new();
    assert_eq!(
        recurrence_try_forward(&x, 0.8, 13, &mut tape),
        Err("a sub-slice is outside the slice `x`")
    );
}

#[differentiable(wrt(a, b))]
fn scaled_sum(a: f64, b: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in b {
        s += a * v;
    }
    s
}

/// `*v` over a sub-slice whose bounds read a `mut` array's elements, in a loop of independent
/// iterations over rows (each iteration run again by the reverse sweep), and an element and a
/// sub-slice of one differentiated slice passed to one call, in either order.
#[differentiable(wrt(x))]
fn deref_rows(x: &[f64], d: usize) -> f64 {
    let mut at = [0usize; 2];
    at[1] = d;
    let mut total = scaled_sum(x[0], &x[1..]) + scaled_sum(x[1], &x[..2]);
    for i in 0..x.len() / d {
        let row = &x[i * d + at[0]..i * d + at[1]];
        let mut s = 0.0;
        for v in row.iter() {
            s += *v * *v;
        }
        total += s.sqrt();
    }
    total
}

#[test]
fn deref_and_an_element_beside_a_sub_slice_against_central_differences() {
    let x = data(12, 12, 0.5, 1.5);
    for d in [2, 3, 4] {
        let mut d_x = vec![0.0; x.len()];
        let (value, ()) = deref_rows_grad(&x, d, &mut d_x);
        assert_eq!(value, deref_rows(&x, d));
        close(&d_x, &central(|x| deref_rows(x, d), &x), 1e-6, "d_x");
    }
}

const WEIGHTS: [f64; 4] = [0.5, 1.0, 1.5, 2.0];

/// A sub-slice of a `const` array zipped with a sub-slice of a differentiated slice.
#[differentiable(wrt(x))]
fn weighted_tail(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, w) in x[1..].iter().zip(WEIGHTS[1..].iter()) {
        s += a * a * w;
    }
    s
}

#[test]
fn a_sub_slice_of_a_const_array() {
    let x = data(13, 6, -1.0, 1.0);
    let mut d_x = vec![0.0; x.len()];
    let (value, ()) = weighted_tail_grad(&x, &mut d_x);
    assert_eq!(value, weighted_tail(&x));
    // d/dx_i = 2 x_i W[i] for i = 1..=3 (zip stops at the shorter), 0 elsewhere.
    let want: Vec<f64> = (0..6)
        .map(|i| {
            if (1..4).contains(&i) {
                2.0 * x[i] * WEIGHTS[i]
            } else {
                0.0
            }
        })
        .collect();
    close(&d_x, &want, 1e-12, "d_x");
}

/// Sub-slices of arrays: of a parameter (constant bounds and bounds known at run time), of a
/// row of a 2-D parameter and of local arrays (one changed after a loop reads it), and
/// sub-slices of those; indexed, measured, iterated by a recorded loop
/// that carries state and by a checkpointed one, summed, zipped, and passed to a callee that
/// differentiates its slices. A loop over one has at most its array's length: the tape has
/// fixed-size fields.
#[differentiable(jvp, hvp)]
fn array_parts(x: &[f64; 6], m: &[[f64; 4]; 3], k: usize) -> f64 {
    let head = &x[..3];
    let tail = &x[3..];
    let mid = &x[k..k + 2];
    let row = &m[k][1..];
    let mut s = head[0] * tail[2] + mid[1] * head.len() as f64 + x[1..3][1] * 0.5;
    let mut r = 0.5;
    for (a, b) in head.iter().zip(tail) {
        r = r * a.sin() + b * r.cos();
    }
    for i in 0..row.len() {
        s += row[i] * mid[i % 2];
    }
    s += inner(&x[1..4], &m[2][..3]);
    s += x[2..].iter().map(|v| v * v).sum::<f64>();
    // A local array changed after a loop over its sub-slice: the tape keeps what the loop read.
    let mut g: [f64; 4] = [x[0], x[1] * x[2], m[1][3], 0.5];
    for v in g[1..3].iter() {
        r = r * v.cos() + 0.25 * v;
    }
    g[1] = r * x[4];
    s += g[..2].iter().map(|v| v * v).sum::<f64>();
    // An element and a sub-slice of one array passed to one call; a sub-slice of a sub-slice.
    s += scale(x[0], &x[1..]) + scale(m[2][1..][..2][1], &m[2][1..][..2]);
    for v in x[1..][..3].iter() {
        r = r * 0.8 + v * v;
    }
    for v in tail[..2].iter() {
        r = r * 0.9 + v;
    }
    // A row bound by `let`, in chunks of a length that divides its own.
    let top = &m[0];
    for c in top.chunks(2) {
        s += c[0] * c[1];
    }
    let h: [f64; 5] = [x[0] * x[1], x[1].exp(), m[0][0], x[5], s];
    let lh = &h[1..4];
    s += inner(&h[..2], &x[4..]);
    // A sub-slice of a local without derivative, to a callee that leaves it out.
    let c: [f64; 3] = [0.5, -1.0, 2.0];
    s += weighted(&c[1..], &x[..2]);
    #[checkpoint]
    for v in lh.iter() {
        r = r * 0.9 + v.tanh();
    }
    s + r + lh.iter().zip(row).map(|(a, b)| a * b).sum::<f64>()
}

#[differentiable(wrt(a, b), hvp)]
fn scale(a: f64, b: &[f64]) -> f64 {
    a * b.iter().map(|v| v.sin()).sum::<f64>()
}

#[differentiable(wrt(b), hvp)]
fn weighted(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(w, y)| w * y * y).sum()
}

#[differentiable(wrt(a, b), hvp)]
fn inner(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `array_parts` of one flat vector: `x`, then `m` row by row.
fn array_parts_flat(z: &[f64], k: usize) -> f64 {
    let (x, m) = unflatten(z);
    array_parts(&x, &m, k)
}

fn unflatten(z: &[f64]) -> ([f64; 6], [[f64; 4]; 3]) {
    let x: [f64; 6] = core::array::from_fn(|i| z[i]);
    let m: [[f64; 4]; 3] = core::array::from_fn(|r| core::array::from_fn(|c| z[6 + 4 * r + c]));
    (x, m)
}

fn flatten(x: &[f64; 6], m: &[[f64; 4]; 3]) -> Vec<f64> {
    x.iter().chain(m.iter().flatten()).copied().collect()
}

#[test]
fn sub_slices_of_arrays_against_central_differences() {
    let z = data(11, 18, -1.0, 1.0);
    let v = data(12, 18, -1.0, 1.0);
    let (x, m) = unflatten(&z);
    let (vx, vm) = unflatten(&v);
    for k in [0, 1, 2] {
        let (value, (g_x, g_m)) = array_parts_grad(&x, &m, k);
        assert_eq!(value, array_parts(&x, &m, k));
        let g = flatten(&g_x, &g_m);
        close(
            &g,
            &central(|z| array_parts_flat(z, k), &z),
            1e-6,
            "gradient",
        );
        // The tangent along `v`: the gradient's product with it; along a unit direction.
        let (_, t) = array_parts_jvp(&x, &m, k, &vx, &vm);
        let gv: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
        close(&[t], &[gv], 1e-12, "f_jvp");
        let (e6x, e6m) = unflatten(&(0..18).map(|i| f64::from(i == 6)).collect::<Vec<_>>());
        let (_, t6) = array_parts_jvp(&x, &m, k, &e6x, &e6m);
        close(&[t6], &[g[6]], 1e-12, "f_jvp along m[0][0]");
        // Three directions in one sweep: `v`, the unit one and `-v`, each as `f_jvp` has it.
        let lanes =
            |x: &[f64], u: usize| -> [f64; 3] { [x[u], if u == 6 { 1.0 } else { 0.0 }, -x[u]] };
        let t_x: [[f64; 3]; 6] = core::array::from_fn(|i| lanes(&v, i));
        let t_m: [[[f64; 3]; 4]; 3] =
            core::array::from_fn(|r| core::array::from_fn(|c| lanes(&v, 6 + 4 * r + c)));
        let (_, t3) = array_parts_jvp_vec::<3>(&x, &m, k, &t_x, &t_m);
        close(&t3, &[t, t6, -t], 1e-12, "f_jvp_vec");
        // H v against central differences of the gradient along v.
        let (_, _, (hv_x, hv_m)) = array_parts_hvp(&x, &m, k, &vx, &vm);
        let h = 1e-5;
        let at = |s: f64| {
            let zs: Vec<f64> = z.iter().zip(&v).map(|(a, b)| a + s * b).collect();
            let (x, m) = unflatten(&zs);
            let (_, (g_x, g_m)) = array_parts_grad(&x, &m, k);
            flatten(&g_x, &g_m)
        };
        let (plus, minus) = (at(h), at(-h));
        let fd: Vec<f64> = plus
            .iter()
            .zip(&minus)
            .map(|(p, m)| (p - m) / (2.0 * h))
            .collect();
        close(&flatten(&hv_x, &hv_m), &fd, 1e-6, "H v");
    }
}

/// A sub-slice of an array the tape keeps in `f32`, passed to a callee beside an element.
#[differentiable(hvp)]
fn recorded_part(x: &[f64; 3]) -> f64 {
    #[record(f32)]
    let n: [f64; 3] = [x[0] * x[1], x[2].sin(), 0.5];
    scale(n[0], &n[1..]) + x[0]
}

#[test]
fn a_sub_slice_of_a_recorded_array_against_central_differences() {
    let x = [0.7, -0.4, 1.1];
    let (value, g) = recorded_part_grad(&x);
    assert_eq!(value, recorded_part(&x));
    // The adjoint reads `n` rounded to `f32`: about 1e-7 of the exact gradient.
    close(
        &g,
        &central(|z| recorded_part(&[z[0], z[1], z[2]]), &x),
        1e-6,
        "gradient",
    );
}
