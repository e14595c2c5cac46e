//! Calls whose result is a tuple (`let (a, b) = g(..);`, `(a, b) = g(..);`, a tuple-valued
//! function ending in such a call), in `f_grad`, `f_adjoint` and `f_jvp`, checked against
//! central differences of the same program in `f64`.

use stackgrad::differentiable;

mod common;
use common::{central, close};

#[differentiable(jvp)]
fn polar(r: f64, t: f64) -> (f64, f64) {
    (r * t.cos(), r * t.sin())
}

#[differentiable(jvp)]
fn scaled(x: &[f64; 3]) -> (f64, [f64; 3]) {
    let s = x[0] + 2.0 * x[1] + x[2] * x[2];
    (s, [x[0] * s, x[1] * s, x[2] * s])
}

/// Both elements used, untyped.
#[differentiable(jvp)]
fn both(r: f64, t: f64) -> f64 {
    let (a, b) = polar(r, t);
    a * b + a
}

/// An array element, typed, and the first element only read once.
#[differentiable(jvp)]
fn typed(x: &[f64; 3]) -> f64 {
    let (s, v): (f64, [f64; 3]) = scaled(x);
    s * v[1] + v[2] * v[0]
}

/// One element unused (`_`), the other element through a loop-carried state.
#[differentiable(jvp)]
fn in_loop(r: f64, t: f64) -> f64 {
    let mut acc = 0.0;
    let mut u = t;
    for _ in 0..4 {
        let (_, b) = polar(r, u);
        u = 0.5 * u + b;
        acc += b * b;
    }
    acc + u
}

/// A destructuring assignment, and a tuple-valued function ending in a call.
#[differentiable(jvp)]
fn assigned(r: f64, t: f64) -> (f64, f64) {
    let mut a = r;
    let mut b = t;
    for _ in 0..3 {
        (a, b) = polar(a, b);
    }
    polar(a * b, b)
}

#[test]
fn untyped_elements_of_a_float_tuple() {
    for (r, t) in [(1.3, 0.4), (0.7, -2.1), (2.5, 3.0)] {
        let (v, g) = both_grad(r, t);
        assert_eq!(v, both(r, t));
        let fd = central(|p: &[f64; 2]| both(p[0], p[1]), &[r, t]);
        close(g.0, fd[0], "d/dr");
        close(g.1, fd[1], "d/dt");
        let (_, dt) = both_jvp(r, t, 0.3, -1.1);
        close(dt, 0.3 * fd[0] - 1.1 * fd[1], "jvp");
    }
}

#[test]
fn typed_array_element() {
    let x = [0.4, -1.2, 0.9];
    let (v, g) = typed_grad(&x);
    assert_eq!(v, typed(&x));
    let fd = central(|p: &[f64; 3]| typed(p), &x);
    for i in 0..3 {
        close(g[i], fd[i], "gradient");
    }
    let dir = [0.5, 1.0, -2.0];
    let (_, dt) = typed_jvp(&x, &dir);
    close(dt, (0..3).map(|i| fd[i] * dir[i]).sum(), "jvp");
}

#[test]
fn unused_element_in_a_loop() {
    for (r, t) in [(1.3, 0.4), (0.6, -1.0)] {
        let (_, g) = in_loop_grad(r, t);
        let fd = central(|p: &[f64; 2]| in_loop(p[0], p[1]), &[r, t]);
        close(g.0, fd[0], "d/dr");
        close(g.1, fd[1], "d/dt");
        let (_, dt) = in_loop_jvp(r, t, 1.0, 0.0);
        close(dt, fd[0], "jvp");
    }
}

#[test]
fn destructuring_assignment_and_tuple_tail() {
    let (r, t) = (1.1, 0.3);
    for (wa, wb) in [(1.0, 0.0), (0.0, 1.0), (0.7, -0.4)] {
        let f = |p: &[f64; 2]| {
            let (a, b) = assigned(p[0], p[1]);
            wa * a + wb * b
        };
        let fd = central(f, &[r, t]);
        let mut tape = AssignedTape::new();
        let value = assigned_forward(r, t, &mut tape);
        assert_eq!(value, assigned(r, t));
        let (mut dr, mut dt) = (0.0, 0.0);
        assigned_adjoint(r, t, &tape, (wa, wb), &mut dr, &mut dt);
        close(dr, fd[0], "d/dr");
        close(dt, fd[1], "d/dt");
        let (_, (ta, tb)) = assigned_jvp(r, t, 0.0, 1.0);
        close(wa * ta + wb * tb, fd[1], "jvp");
    }
}

// ---------------------------------------------------------------------------------------------
// The generated gradient called the obvious way, `let (v, d_y) = f_grad(..);`, inside code
// that is differentiated again (`nested` makes `f_grad` a callee).

#[differentiable(nested)]
fn inner(x: f64, y: f64) -> f64 {
    x * y * y + (x * y).sin()
}

#[differentiable(nested)]
fn plus(y: f64) -> f64 {
    y * y
}

/// The inner gradient with respect to `y` from `f_grad_y`'s sibling: `inner` differentiates
/// two parameters, so its gradient is a tuple `(d_x, d_y)` bound whole.
#[differentiable(nested)]
fn field(y: &[f64; 2]) -> f64 {
    y[0] * y[0] * y[1] + y[1].exp()
}

/// Reverse or forward over reverse through `plus_grad`: `d/dx [x · d/dy (y²)]_{y = x}` = 4x.
#[differentiable(jvp)]
fn outer_scalar(x: f64) -> f64 {
    let (v, d) = plus_grad(x);
    x * d + v
}

/// Gradient descent on `field` over `y` as the inner loop, differentiated with respect to the
/// starting point and the step.
#[differentiable(jvp)]
fn descent(y0: &[f64; 2], step: f64) -> f64 {
    let mut y = [y0[0], y0[1]];
    let mut last = 0.0;
    for _ in 0..5 {
        let (v, g): (f64, [f64; 2]) = field_grad(&y);
        y = [y[0] - step * g[0], y[1] - step * g[1]];
        last = v;
    }
    last + y[0] * y[1]
}

#[test]
fn confusion_through_f_grad() {
    for x in [-2.0, 0.0, 0.5, 3.0] {
        // x · 2x + x² = 3x², derivative 6x: the inner `d` is 2y at y = x, not differentiated
        // as if y were x's own perturbation twice.
        assert_eq!(outer_scalar(x), 3.0 * x * x);
        close(outer_scalar_grad(x).1, 6.0 * x, "reverse over reverse");
        close(outer_scalar_jvp(x, 1.0).1, 6.0 * x, "forward over reverse");
    }
}

#[test]
fn descent_through_f_grad_against_central_differences() {
    for p in [[0.3, -0.2, 0.05], [0.1, 0.4, 0.1]] {
        let f = |q: &[f64; 3]| descent(&[q[0], q[1]], q[2]);
        let fd = central(f, &p);
        let (v, (g_y, g_s)) = descent_grad(&[p[0], p[1]], p[2]);
        assert_eq!(v, f(&p));
        close(g_y[0], fd[0], "d/dy0");
        close(g_y[1], fd[1], "d/dy1");
        close(g_s, fd[2], "d/dstep");
        let (_, dt) = descent_jvp(&[p[0], p[1]], p[2], &[0.2, -0.7], 1.5);
        close(dt, 0.2 * fd[0] - 0.7 * fd[1] + 1.5 * fd[2], "jvp");
    }
}

#[test]
fn inner_gradient_items_against_closed_forms() {
    let (x, y) = (0.7, -1.3);
    let mut tape = InnerGradTape::new();
    let ((v, (gx, gy)), _) = (inner_grad_forward(x, y, &mut tape), ());
    assert_eq!(v, inner(x, y));
    let c = (x * y).cos();
    close(gx, y * y + y * c, "d/dx");
    close(gy, 2.0 * x * y + x * c, "d/dy");
    // Adjoint of (v, (gx, gy)) with cotangent (a, (p, q)): a ∇f + H (p, q).
    let s = (x * y).sin();
    let (hxx, hxy, hyy) = (-y * y * s, 2.0 * y + c - x * y * s, 2.0 * x - x * x * s);
    let (a, p, q) = (0.5, 1.5, -2.0);
    let (mut dx, mut dy) = (0.0, 0.0);
    inner_grad_adjoint(x, y, &tape, (a, (p, q)), &mut dx, &mut dy);
    close(dx, a * gx + hxx * p + hxy * q, "adjoint x");
    close(dy, a * gy + hxy * p + hyy * q, "adjoint y");
    let ((_, _), (tv, (tgx, tgy))) = inner_grad_jvp(x, y, p, q);
    close(tv, gx * p + gy * q, "tangent of the value");
    close(tgx, hxx * p + hxy * q, "tangent of d/dx");
    close(tgy, hxy * p + hyy * q, "tangent of d/dy");
}

/// Reverse or forward over forward through `plus_jvp`: `x · d/dy (y²)` along 1 at y = x.
#[differentiable(jvp)]
fn outer_forward(x: f64) -> f64 {
    let (v, dv) = plus_jvp(x, 1.0);
    x * dv + v
}

/// A min-max step through `inner_jvp` in a loop: forward over forward and reverse over forward.
#[differentiable(jvp)]
fn ascent(x: f64, y0: f64) -> f64 {
    let mut y = y0;
    for _ in 0..4 {
        let (_, slope) = inner_jvp(x, y, 0.0, 1.0);
        y += 0.1 * slope;
    }
    inner(x, y)
}

#[test]
fn confusion_through_f_jvp() {
    for x in [-2.0, 0.0, 0.5, 3.0] {
        assert_eq!(outer_forward(x), 3.0 * x * x);
        close(outer_forward_grad(x).1, 6.0 * x, "reverse over forward");
        close(outer_forward_jvp(x, 1.0).1, 6.0 * x, "forward over forward");
    }
}

#[test]
fn ascent_through_f_jvp_against_central_differences() {
    for p in [[0.4, -0.3], [-0.6, 0.8]] {
        let fd = central(|q: &[f64; 2]| ascent(q[0], q[1]), &p);
        let (_, (gx, gy)) = ascent_grad(p[0], p[1]);
        close(gx, fd[0], "d/dx");
        close(gy, fd[1], "d/dy0");
        let (_, dt) = ascent_jvp(p[0], p[1], 0.6, -1.0);
        close(dt, 0.6 * fd[0] - fd[1], "jvp");
    }
}

// ---------------------------------------------------------------------------------------------
// `_` for an array element, `g(..).k` of a float and of an array, and a nested pattern over the
// gradient tuple of a function of two parameters.

/// The array element unnamed: its cotangent is a zero of a type only the callee knows.
#[differentiable(jvp)]
fn first_only(x: &[f64; 3]) -> f64 {
    let (s, _) = scaled(x);
    s * s
}

/// Elements read as `g(..).k`, a float and an array.
#[differentiable(jvp)]
fn fields(r: f64, t: f64) -> f64 {
    let y = polar(r, t).1;
    let x = [r, t, r * t];
    let v: [f64; 3] = scaled(&x).1;
    y * v[2] + (polar(t, r)).0
}

#[differentiable(nested)]
fn coupled(x: &[f64; 2], y: &[f64; 2]) -> f64 {
    x[0] * y[0] + x[1] * y[1] - 0.5 * (y[0] * y[0] + y[1] * y[1]) + 0.1 * x[0] * y[1] * y[1]
}

/// An inner ascent over `y` with `coupled`'s whole gradient, `(v, (d_x, d_y))`, destructured.
#[differentiable(jvp)]
fn saddle_like(x: &[f64; 2]) -> f64 {
    let mut y = [0.0; 2];
    for _ in 0..6 {
        let (_, (_, d_y)): (f64, (_, [f64; 2])) = coupled_grad(x, &y);
        y = [y[0] + 0.4 * d_y[0], y[1] + 0.4 * d_y[1]];
    }
    coupled(x, &y)
}

#[test]
fn unnamed_array_element() {
    let x = [0.4, -1.2, 0.9];
    let fd = central(|p: &[f64; 3]| first_only(p), &x);
    let (_, g) = first_only_grad(&x);
    for i in 0..3 {
        close(g[i], fd[i], "gradient");
    }
}

#[test]
fn elements_read_by_field() {
    for (r, t) in [(1.3, 0.4), (0.7, -2.1)] {
        let fd = central(|p: &[f64; 2]| fields(p[0], p[1]), &[r, t]);
        let (v, g) = fields_grad(r, t);
        assert_eq!(v, fields(r, t));
        close(g.0, fd[0], "d/dr");
        close(g.1, fd[1], "d/dt");
        let (_, dt) = fields_jvp(r, t, -0.5, 2.0);
        close(dt, -0.5 * fd[0] + 2.0 * fd[1], "jvp");
    }
}

#[test]
fn nested_pattern_over_a_gradient_tuple() {
    for x in [[0.3, -0.2], [1.1, 0.4]] {
        let fd = central(|p: &[f64; 2]| saddle_like(p), &x);
        let (v, g) = saddle_like_grad(&x);
        assert_eq!(v, saddle_like(&x));
        close(g[0], fd[0], "d/dx0");
        close(g[1], fd[1], "d/dx1");
        let (_, dt) = saddle_like_jvp(&x, &[0.3, 1.0]);
        close(dt, 0.3 * fd[0] + fd[1], "jvp");
    }
}

// ---------------------------------------------------------------------------------------------
// A tuple written out with integer elements (an index computation), bound as one `let` each.

#[differentiable(jvp)]
fn offsets(x: &[f64; 8], k: usize) -> f64 {
    let (w, bias) = (2 * k, 2 * k + 1);
    let (a, mut b): (usize, f64) = (k, x[0]);
    b += x[a];
    let (i, j) = (bias, w);
    x[w] * x[bias] + b * x[i] - x[j]
}

#[test]
fn integer_elements_of_a_tuple_written_out() {
    let x = [0.3, -1.2, 0.8, 1.5, -0.4, 2.0, 0.9, -0.7];
    for k in 0..4 {
        let fd = central(|p: &[f64; 8]| offsets(p, k), &x);
        let (v, g) = offsets_grad(&x, k);
        assert_eq!(v, offsets(&x, k));
        for c in 0..8 {
            close(g[c], fd[c], "gradient");
        }
    }
}

/// A mutable element of a call's tuple, assigned again (its tangent is mutable too).
#[differentiable(jvp)]
fn mutable_element(r: f64, t: f64) -> f64 {
    let (_, mut b) = polar(r, t);
    b -= 0.5;
    for _ in 0..2 {
        b = (b * r).sin();
    }
    b
}

#[test]
fn a_mutable_element_assigned_again() {
    let (r, t) = (0.9, 0.4);
    let fd = central(|p: &[f64; 2]| mutable_element(p[0], p[1]), &[r, t]);
    let (_, g) = mutable_element_grad(r, t);
    close(g.0, fd[0], "d/dr");
    close(g.1, fd[1], "d/dt");
    let (_, dt) = mutable_element_jvp(r, t, 0.0, 1.0);
    close(dt, fd[1], "jvp");
}

/// A tuple of `f32`s from a const-generic callee.
#[differentiable(jvp)]
fn moments32<const N: usize>(a: &[f32; N], b: &[f32; N]) -> (f32, f32) {
    let mut s = 0.0;
    let mut q = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
        q += (a[i] - b[i]).sin();
    }
    (s, q)
}

/// An element of a call that names its constants (`g::<4>(..)`, so no contract types it), read
/// only through casts: it takes the function's own float type, `f32` here. (Before, a guessed
/// `f64`: "`(f32, f32): __StackgradSet1<f64>` is not satisfied"; genprog seed 23, p176.)
#[differentiable(jvp)]
fn casts_an_element32(x: f32, w: [f32; 4]) -> f32 {
    let b = [x, x * x, 0.5, -x];
    (moments32::<4>(&w, &b).1 * 0.33) as f64 as f32 + x * moments32::<4>(&b, &b).0
}

#[test]
fn an_element_of_a_call_naming_its_constants_only_cast_in_f32_code() {
    let (x, w) = (0.6f32, [0.3f32, -0.8, 1.1, 0.4]);
    // Central differences of the f32 function, in f64 around it (step 1e-3: f32's precision).
    let h = 1e-3f32;
    let fd = (casts_an_element32(x + h, w) as f64 - casts_an_element32(x - h, w) as f64)
        / (2.0 * h as f64);
    let (_, (dx, _)) = casts_an_element32_grad(x, w);
    assert!(
        (dx as f64 - fd).abs() <= 1e-3 * (1.0 + fd.abs()),
        "d_x {dx} against central differences {fd}"
    );
    let (_, dv) = casts_an_element32_jvp(x, w, 1.0, &[0.0; 4]);
    assert!(
        (dv as f64 - fd).abs() <= 1e-3 * (1.0 + fd.abs()),
        "jvp {dv} against {fd}"
    );
}
