//! Jacobians (`#[differentiable(jacobian)]`): `f_jacobian_rev` (a reverse sweep per output),
//! `f_jacobian_fwd` (a tangent per input coordinate) and `f_jacobian` (the one with fewer
//! sweeps), against closed forms and central differences in `f64`.

use stackgrad::differentiable;

/// Polar to Cartesian, scaled: `[s r cos θ, s r sin θ, r²]` of `p = [r, θ]`.
#[differentiable(jacobian)]
fn polar(p: &[f64; 2], s: f64) -> [f64; 3] {
    [s * p[0] * p[1].cos(), s * p[0] * p[1].sin(), p[0] * p[0]]
}

#[test]
fn polar_against_its_closed_form() {
    let (p, s) = ([1.5f64, 0.7], 2.0f64);
    let (r, t) = (p[0], p[1]);
    let j_p = [
        [s * t.cos(), -s * r * t.sin()],
        [s * t.sin(), s * r * t.cos()],
        [2.0 * r, 0.0],
    ];
    let j_s = [r * t.cos(), r * t.sin(), 0.0];
    for (how, (value, (jp, js))) in [
        ("rev", polar_jacobian_rev(&p, s)),
        ("fwd", polar_jacobian_fwd(&p, s)),
        ("auto", polar_jacobian(&p, s)),
    ] {
        assert_eq!(value, polar(&p, s), "{how}");
        for i in 0..3 {
            for c in 0..2 {
                assert!((jp[i][c] - j_p[i][c]).abs() < 1e-14, "{how} {i} {c}");
            }
            assert!((js[i] - j_s[i]).abs() < 1e-14, "{how} {i}");
        }
    }
}

/// A map with a 2-D parameter, a loop, a data parameter and `wrt`: `y = A x + tanh(A x)`
/// elementwise, with `A` a 2 x 3 matrix and `x` data.
#[differentiable(jacobian, wrt(a))]
fn layer(a: &[[f64; 3]; 2], x: &[f64; 3]) -> [f64; 2] {
    let mut y = [0.0; 2];
    for i in 0..2 {
        let mut s = 0.0;
        for k in 0..3 {
            s += a[i][k] * x[k];
        }
        y[i] = s + s.tanh();
    }
    y
}

fn central<const N: usize, const M: usize>(
    f: impl Fn(&[f64; N]) -> [f64; M],
    at: &[f64; N],
) -> [[f64; N]; M] {
    let h = 1e-6;
    let mut j = [[0.0; N]; M];
    for c in 0..N {
        let (mut p, mut m) = (*at, *at);
        p[c] += h;
        m[c] -= h;
        let (fp, fm) = (f(&p), f(&m));
        for i in 0..M {
            j[i][c] = (fp[i] - fm[i]) / (2.0 * h);
        }
    }
    j
}

#[test]
fn a_matrix_parameter_against_central_differences() {
    let a = [[0.3, -0.2, 0.5], [1.1, 0.4, -0.7]];
    let x = [0.9, -1.3, 0.25];
    let flat = |v: &[f64; 6]| layer(&[[v[0], v[1], v[2]], [v[3], v[4], v[5]]], &x);
    let fd = central(flat, &[0.3, -0.2, 0.5, 1.1, 0.4, -0.7]);
    let (value, rev) = layer_jacobian_rev(&a, &x);
    let (_, fwd) = layer_jacobian_fwd(&a, &x);
    let (_, auto) = layer_jacobian(&a, &x);
    assert_eq!(value, layer(&a, &x));
    for i in 0..2 {
        for r in 0..2 {
            for k in 0..3 {
                let want = fd[i][3 * r + k];
                for (how, j) in [("rev", rev), ("fwd", fwd), ("auto", auto)] {
                    assert!(
                        (j[i][r][k] - want).abs() < 1e-8,
                        "{how}: d y{i} / d a{r}{k} = {} against {want}",
                        j[i][r][k]
                    );
                }
                assert!((rev[i][r][k] - fwd[i][r][k]).abs() < 1e-15);
            }
        }
    }
}

/// More outputs than inputs (`f_jacobian` takes columns) and a const generic.
#[differentiable(jacobian)]
fn powers<const M: usize>(x: f64) -> [f64; M] {
    let mut y = [0.0; M];
    let mut p = 1.0;
    for v in y.iter_mut() {
        p *= x;
        *v = p;
    }
    y
}

#[test]
fn a_tall_jacobian_with_a_const_generic() {
    let x = 1.3f64;
    let (value, d) = powers_jacobian::<6>(x);
    let (_, rev) = powers_jacobian_rev::<6>(x);
    for i in 0..6 {
        assert!((value[i] - x.powi(i as i32 + 1)).abs() < 1e-13);
        let want = (i + 1) as f64 * x.powi(i as i32);
        assert!(
            (d[i] - want).abs() < 1e-12 * want,
            "{i}: {} against {want}",
            d[i]
        );
        assert!((rev[i] - d[i]).abs() < 1e-12 * want);
    }
}

// A struct parameter: its Jacobian is one gradient struct per output (rows only), here mixed with
// an array parameter.

#[derive(Clone, Debug, Default, PartialEq)]
struct Arm {
    l1: f64,
    l2: f64,
    offset: [f64; 2],
}

/// The tip of a planar two-link arm: link lengths and base offset in the struct, joint angles in
/// the array.
#[differentiable(jacobian)]
fn tip(arm: &Arm, q: &[f64; 2]) -> [f64; 2] {
    let a = q[0] + q[1];
    [
        arm.offset[0] + arm.l1 * q[0].cos() + arm.l2 * a.cos(),
        arm.offset[1] + arm.l1 * q[0].sin() + arm.l2 * a.sin(),
    ]
}

#[test]
fn a_struct_parameter_by_rows_against_central_differences() {
    let arm = Arm {
        l1: 1.3,
        l2: 0.7,
        offset: [0.2, -0.5],
    };
    let q = [0.4, -1.1];
    let (value, (j_arm, j_q)) = tip_jacobian(&arm, &q);
    assert_eq!(value, tip(&arm, &q));
    assert_eq!((value, (j_arm.clone(), j_q)), tip_jacobian_rev(&arm, &q));
    let h = 1e-6;
    for i in 0..2 {
        // Output `i` with one of the struct's floats moved by `by`.
        let moved = |k: usize, by: f64| {
            let mut a = arm.clone();
            match k {
                0 => a.l1 += by,
                1 => a.l2 += by,
                2 => a.offset[0] += by,
                _ => a.offset[1] += by,
            }
            tip(&a, &q)[i]
        };
        let fd = |k: usize| (moved(k, h) - moved(k, -h)) / (2.0 * h);
        let got = [
            j_arm[i].l1,
            j_arm[i].l2,
            j_arm[i].offset[0],
            j_arm[i].offset[1],
        ];
        for (k, g) in got.iter().enumerate() {
            assert!(
                (g - fd(k)).abs() < 1e-7,
                "row {i}, field {k}: {g} against {}",
                fd(k)
            );
        }
        for c in 0..2 {
            let (mut qp, mut qm) = (q, q);
            qp[c] += h;
            qm[c] -= h;
            let fd = (tip(&arm, &qp)[i] - tip(&arm, &qm)[i]) / (2.0 * h);
            assert!((j_q[i][c] - fd).abs() < 1e-7, "row {i}, q[{c}]");
        }
    }
}

// A tuple output: a float and an array, with respect to an array and a float.

#[differentiable(jacobian)]
fn spread(p: &[f64; 2], s: f64) -> (f64, [f64; 3]) {
    let r = (p[0] * p[0] + p[1] * p[1]).sqrt();
    (r * s, [p[0] * s, p[1].sin(), r + s * s])
}

/// `spread`'s blocks: the float element's gradient, then the array element's rows.
type SpreadJacobian = (([f64; 2], f64), ([[f64; 2]; 3], [f64; 3]));

#[test]
fn a_tuple_output_against_central_differences() {
    let (p, s) = ([0.6, -1.4], 0.8);
    let (value, ((g_p, g_s), (j_p, j_s))) = spread_jacobian(&p, s);
    assert_eq!(value, spread(&p, s));
    // Both forms agree to rounding, and with central differences.
    let rev = spread_jacobian_rev(&p, s).1;
    let fwd = spread_jacobian_fwd(&p, s).1;
    let flat = |((a, b), (c, d)): SpreadJacobian| {
        let mut v = vec![a[0], a[1], b];
        for i in 0..3 {
            v.extend([c[i][0], c[i][1], d[i]]);
        }
        v
    };
    for (x, y) in flat(rev).iter().zip(flat(fwd)) {
        assert!((x - y).abs() < 1e-14, "{x} against {y}");
    }
    let outputs = |q: &[f64; 3]| {
        let (a, b) = spread(&[q[0], q[1]], q[2]);
        [a, b[0], b[1], b[2]]
    };
    let fd = central(outputs, &[p[0], p[1], s]);
    let got = [
        [g_p[0], g_p[1], g_s],
        [j_p[0][0], j_p[0][1], j_s[0]],
        [j_p[1][0], j_p[1][1], j_s[1]],
        [j_p[2][0], j_p[2][1], j_s[2]],
    ];
    for i in 0..4 {
        for c in 0..3 {
            assert!(
                (got[i][c] - fd[i][c]).abs() < 1e-7,
                "row {i}, column {c}: {} against {}",
                got[i][c],
                fd[i][c]
            );
        }
    }
}
