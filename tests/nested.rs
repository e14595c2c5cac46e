//! Nested differentiation (`#[differentiable(nested)]`): derivatives of code that itself calls a
//! generated gradient or tangent, in the four combinations of forward and reverse mode, checked
//! against closed forms and central differences of the whole program in `f64`.

use stackgrad::differentiable;

// ---------------------------------------------------------------------------------------------
// Perturbation confusion: d/dx [x · d/dy (x + y)] at y = x is 1 everywhere (a tool that confuses
// the inner perturbation with the outer one gets 2).

#[differentiable(nested)]
fn plus(x: f64, y: f64) -> f64 {
    x + y
}

/// Reverse (or forward) over reverse: the inner derivative is `plus`'s gradient.
#[differentiable(jvp)]
fn confusion_r(x: f64) -> f64 {
    x * plus_grad_y(x, x)
}

/// Reverse (or forward) over forward: the inner derivative is `plus`'s tangent along `y`.
#[differentiable(jvp)]
fn confusion_f(x: f64) -> f64 {
    let r: [f64; 2] = plus_tangent(x, x, 0.0, 1.0);
    x * r[1]
}

#[test]
fn no_perturbation_confusion_in_any_mode_combination() {
    for x in [-3.0, 0.0, 0.5, 2.0, 17.0] {
        assert_eq!(confusion_r(x), x);
        assert_eq!(confusion_f(x), x);
        assert_eq!(confusion_r_grad(x).1, 1.0, "reverse over reverse at {x}");
        assert_eq!(confusion_f_grad(x).1, 1.0, "reverse over forward at {x}");
        assert_eq!(
            confusion_r_jvp(x, 1.0).1,
            1.0,
            "forward over reverse at {x}"
        );
        assert_eq!(
            confusion_f_jvp(x, 1.0).1,
            1.0,
            "forward over forward at {x}"
        );
    }
}

// The array form: d/dx_j [∑ x_i · (∇_y ∑ (x_k + y_k))_i] = 1 for every j.

#[differentiable(nested)]
fn plus3(x: &[f64; 3], y: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += x[i] + y[i];
    }
    s
}

#[differentiable(jvp)]
fn confusion3_r(x: &[f64; 3]) -> f64 {
    let g: [f64; 3] = plus3_grad_y(x, x);
    let mut s = 0.0;
    for i in 0..3 {
        s += x[i] * g[i];
    }
    s
}

#[differentiable(jvp)]
fn confusion3_f(x: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let mut e = [0.0; 3];
        e[i] = 1.0;
        let zero = [0.0; 3];
        let r: [f64; 2] = plus3_tangent(x, x, &zero, &e);
        s += x[i] * r[1];
    }
    s
}

#[test]
fn no_perturbation_confusion_for_arrays() {
    let x = [0.3, -1.5, 4.0];
    assert_eq!(confusion3_r_grad(&x).1, [1.0; 3]);
    assert_eq!(confusion3_f_grad(&x).1, [1.0; 3]);
    for j in 0..3 {
        let mut t = [0.0; 3];
        t[j] = 1.0;
        assert_eq!(confusion3_r_jvp(&x, &t).1, 1.0);
        assert_eq!(confusion3_f_jvp(&x, &t).1, 1.0);
    }
}

// The struct form: the outer function differentiates a struct, whose fields the inner derivative
// reads; d/dp [p.x · d/dy (x + y)|_{x = y = p.x}] = (1, 0) in every combination, the inner
// derivative called as an array item or through the tuple `f_jvp` / `f_grad` return.

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Pair {
    x: f64,
    y: f64,
}

#[differentiable(jvp)]
fn confusion_struct_r(p: &Pair) -> f64 {
    p.x * plus_grad_y(p.x, p.x) + 0.0 * p.y
}

#[differentiable(jvp)]
fn confusion_struct_f(p: &Pair) -> f64 {
    let r: [f64; 2] = plus_tangent(p.x, p.x, 0.0, 1.0);
    p.x * r[1] + 0.0 * p.y
}

#[differentiable(jvp)]
fn confusion_struct_tuple(p: &Pair) -> f64 {
    let (_, dv) = plus_jvp(p.x, p.x, 0.0, 1.0);
    p.x * dv + 0.0 * p.y
}

#[test]
fn no_perturbation_confusion_for_structs() {
    for x in [-3.0, 0.5, 2.0] {
        let p = Pair { x, y: 7.0 };
        let want = Pair { x: 1.0, y: 0.0 };
        assert_eq!(confusion_struct_r_grad(&p).1, want, "reverse over reverse");
        assert_eq!(confusion_struct_f_grad(&p).1, want, "reverse over forward");
        assert_eq!(
            confusion_struct_tuple_grad(&p).1,
            want,
            "reverse over forward (tuple)"
        );
        let t = Pair { x: 1.0, y: 0.0 };
        assert_eq!(
            confusion_struct_r_jvp(&p, &t).1,
            1.0,
            "forward over reverse"
        );
        assert_eq!(
            confusion_struct_f_jvp(&p, &t).1,
            1.0,
            "forward over forward"
        );
        assert_eq!(
            confusion_struct_tuple_jvp(&p, &t).1,
            1.0,
            "forward over forward (tuple)"
        );
        let t = Pair { x: 0.0, y: 1.0 };
        assert_eq!(confusion_struct_r_jvp(&p, &t).1, 0.0);
        assert_eq!(confusion_struct_f_jvp(&p, &t).1, 0.0);
    }
}

// ---------------------------------------------------------------------------------------------
// A min-max whose inner argmax depends on the outer variable: f(x, y) = x · y - |y|² / 2 + x_0 y_1²
// / 10, with the inner maximum found by a fixed number of gradient-ascent steps. Its derivative
// with respect to x goes through every inner step, and so through the mixed second derivatives.

#[differentiable(nested)]
fn coupled(x: &[f64; 2], y: &[f64; 2]) -> f64 {
    x[0] * y[0] + x[1] * y[1] - 0.5 * (y[0] * y[0] + y[1] * y[1]) + 0.1 * x[0] * y[1] * y[1]
}

const STEPS: usize = 12;
const RATE: f64 = 0.4;

/// The inner maximum, by gradient ascent with `coupled`'s generated gradient (reverse inside).
#[differentiable(jvp)]
fn inner_max_r(x: &[f64; 2]) -> f64 {
    let mut y = [0.0; 2];
    for _ in 0..STEPS {
        let g: [f64; 2] = coupled_grad_y(x, &y);
        y = [y[0] + RATE * g[0], y[1] + RATE * g[1]];
    }
    coupled(x, &y)
}

/// The same with the gradient from two tangents (forward inside).
#[differentiable(jvp)]
fn inner_max_f(x: &[f64; 2]) -> f64 {
    let mut y = [0.0; 2];
    let (zero, e0, e1) = ([0.0; 2], [1.0, 0.0], [0.0, 1.0]);
    for _ in 0..STEPS {
        let a: [f64; 2] = coupled_tangent(x, &y, &zero, &e0);
        let b: [f64; 2] = coupled_tangent(x, &y, &zero, &e1);
        y = [y[0] + RATE * a[1], y[1] + RATE * b[1]];
    }
    coupled(x, &y)
}

/// The same program with the inner gradient written out by hand: the reference primal.
fn inner_max_plain(x: &[f64; 2]) -> f64 {
    let mut y = [0.0f64; 2];
    for _ in 0..STEPS {
        let g = [x[0] - y[0], x[1] - y[1] + 0.2 * x[0] * y[1]];
        y = [y[0] + RATE * g[0], y[1] + RATE * g[1]];
    }
    x[0] * y[0] + x[1] * y[1] - 0.5 * (y[0] * y[0] + y[1] * y[1]) + 0.1 * x[0] * y[1] * y[1]
}

fn central(f: impl Fn(&[f64; 2]) -> f64, x: &[f64; 2]) -> [f64; 2] {
    let h = 1e-5;
    std::array::from_fn(|j| {
        let (mut p, mut m) = (*x, *x);
        p[j] += h;
        m[j] -= h;
        (f(&p) - f(&m)) / (2.0 * h)
    })
}

#[test]
fn a_min_max_in_four_mode_combinations_matches_central_differences() {
    for x in [[0.7, -0.4], [1.5, 2.0], [-0.3, 0.9]] {
        let fd = central(inner_max_plain, &x);
        assert!((inner_max_r(&x) - inner_max_plain(&x)).abs() < 1e-14);
        assert!((inner_max_f(&x) - inner_max_plain(&x)).abs() < 1e-14);
        let rr = inner_max_r_grad(&x).1;
        let rf = inner_max_f_grad(&x).1;
        let fr = [0, 1].map(|j| inner_max_r_jvp(&x, &e(j)).1);
        let ff = [0, 1].map(|j| inner_max_f_jvp(&x, &e(j)).1);
        for (mode, g) in [("rr", rr), ("rf", rf), ("fr", fr), ("ff", ff)] {
            for j in 0..2 {
                assert!(
                    (g[j] - fd[j]).abs() < 1e-7 * (1.0 + fd[j].abs()),
                    "{mode} at {x:?}: {g:?} against central differences {fd:?}"
                );
                assert!(
                    (g[j] - rr[j]).abs() < 1e-12 * (1.0 + rr[j].abs()),
                    "{mode} at {x:?}: {g:?} against reverse over reverse {rr:?}"
                );
            }
        }
    }
}

fn e(j: usize) -> [f64; 2] {
    let mut v = [0.0; 2];
    v[j] = 1.0;
    v
}

// ---------------------------------------------------------------------------------------------
// The nested items against closed forms: for f(x, w) = w x_0² x_1 + sin(w), the gradient with
// respect to x is (2 w x_0 x_1, w x_0²); its adjoint with cotangent c adds H (c, 0).

#[differentiable(nested)]
fn cubic(x: &[f64; 2], w: f64) -> f64 {
    w * x[0] * x[0] * x[1] + w.sin()
}

#[test]
fn the_nested_items_match_closed_forms() {
    let (x, w) = ([1.5, -0.5], 0.8);
    assert_eq!(
        cubic_grad_x(&x, w),
        [2.0 * w * x[0] * x[1], w * x[0] * x[0]]
    );
    assert!((cubic_grad_w(&x, w) - (x[0] * x[0] * x[1] + w.cos())).abs() < 1e-15);
    // H restricted to (x, w): rows d/dx0, d/dx1, d/dw of the gradient.
    let h = [
        [2.0 * w * x[1], 2.0 * w * x[0], 2.0 * x[0] * x[1]],
        [2.0 * w * x[0], 0.0, x[0] * x[0]],
        [2.0 * x[0] * x[1], x[0] * x[0], -w.sin()],
    ];
    let c = [0.3, -1.1];
    let (mut d_x, mut d_w) = ([0.0; 2], 0.0);
    let mut tape = CubicGradXTape::new();
    assert_eq!(cubic_grad_x_forward(&x, w, &mut tape), cubic_grad_x(&x, w));
    cubic_grad_x_adjoint(&x, w, &tape, &c, &mut d_x, &mut d_w);
    for (i, d) in [d_x[0], d_x[1], d_w].into_iter().enumerate() {
        let want = h[0][i] * c[0] + h[1][i] * c[1];
        assert!((d - want).abs() < 1e-14, "{i}: {d} against {want}");
    }
    // The tangent of the gradient along (t_x, t_w) is the x rows of H t.
    let (t_x, t_w) = ([0.2, 0.7], -0.4);
    let (g, dg) = cubic_grad_x_jvp(&x, w, &t_x, t_w);
    assert_eq!(g, cubic_grad_x(&x, w));
    for r in 0..2 {
        let want = h[r][0] * t_x[0] + h[r][1] * t_x[1] + h[r][2] * t_w;
        assert!((dg[r] - want).abs() < 1e-14);
    }
    // `cubic_tangent`: [f, ∇f · t], its adjoint and its tangent.
    let grad = [
        2.0 * w * x[0] * x[1],
        w * x[0] * x[0],
        x[0] * x[0] * x[1] + w.cos(),
    ];
    let t = [t_x[0], t_x[1], t_w];
    let gt: f64 = (0..3).map(|i| grad[i] * t[i]).sum();
    let r = cubic_tangent(&x, w, &t_x, t_w);
    assert_eq!(r[0], cubic(&x, w));
    assert!((r[1] - gt).abs() < 1e-14);
    let (a, b) = (0.6, -1.3);
    let (mut d_x, mut d_w, mut d_tx, mut d_tw) = ([0.0; 2], 0.0, [0.0; 2], 0.0);
    let tape = CubicTangentTape::new();
    cubic_tangent_adjoint(
        &x,
        w,
        &t_x,
        t_w,
        &tape,
        &[a, b],
        &mut d_x,
        &mut d_w,
        &mut d_tx,
        &mut d_tw,
    );
    let got = [d_x[0], d_x[1], d_w, d_tx[0], d_tx[1], d_tw];
    for i in 0..3 {
        let ht: f64 = (0..3).map(|j| h[i][j] * t[j]).sum();
        assert!((got[i] - (a * grad[i] + b * ht)).abs() < 1e-13, "{i}");
        assert!((got[3 + i] - b * grad[i]).abs() < 1e-14, "t {i}");
    }
    let (s_x, s_w, s_tx, s_tw) = ([1.0, -2.0], 0.5, [0.25, 0.0], 3.0);
    let (value, tangent) = cubic_tangent_jvp(&x, w, &t_x, t_w, &s_x, s_w, &s_tx, s_tw);
    assert_eq!(value, r);
    let s = [s_x[0], s_x[1], s_w];
    let st = [s_tx[0], s_tx[1], s_tw];
    let gs: f64 = (0..3).map(|i| grad[i] * s[i]).sum();
    let sht: f64 = (0..3)
        .map(|i| (0..3).map(|j| s[i] * h[i][j] * t[j]).sum::<f64>())
        .sum();
    let gst: f64 = (0..3).map(|i| grad[i] * st[i]).sum();
    assert!((tangent[0] - gs).abs() < 1e-14);
    assert!((tangent[1] - (sht + gst)).abs() < 1e-13);
}
