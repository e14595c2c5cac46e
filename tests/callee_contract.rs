//! Calls through the callee contract (`GCall`): a `let` bound without a type to the array a
//! call returns, and const-generic calls without their constants named. Every derivative is
//! checked against central differences in f64.

#![allow(clippy::needless_range_loop)] // index loops are the language the macro differentiates

use stackgrad::differentiable;

mod common;
use common::{central, close};

/// A damped oscillator's right-hand side, with a coupling `y0 * y1`.
#[differentiable(jvp)]
fn deriv(y: &[f64; 3], k: f64) -> [f64; 3] {
    [k * y[1], -k * y[0] - 0.1 * y[1], y[0] * y[1] - y[2]]
}

/// `y + a d`.
#[differentiable(jvp)]
fn axpy(y: &[f64; 3], a: f64, d: &[f64; 3]) -> [f64; 3] {
    let mut o = [0.0; 3];
    for i in 0..3 {
        o[i] = y[i] + a * d[i];
    }
    o
}

/// One Runge-Kutta step, every stage bound without a type, and the squared norm of its result.
#[differentiable(jvp)]
fn rk4_energy(y0: &[f64; 3], k: f64) -> f64 {
    let h = 0.1;
    let k1 = deriv(y0, k);
    let y1 = axpy(y0, 0.5 * h, &k1);
    let k2 = deriv(&y1, k);
    let y2 = axpy(y0, 0.5 * h, &k2);
    let k3 = deriv(&y2, k);
    let y3 = axpy(y0, h, &k3);
    let k4 = deriv(&y3, k);
    let mut e = 0.0;
    for i in 0..3 {
        let yi = y0[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        e += yi * yi;
    }
    e
}

#[test]
fn untyped_lets_of_array_results_against_central_differences() {
    let x = [0.3, -0.7, 1.1, 1.7]; // y0 and k
    let f = |x: &[f64; 4]| rk4_energy(&[x[0], x[1], x[2]], x[3]);
    let fd = central(f, &x);
    let (v, (d_y, d_k)) = rk4_energy_grad(&[x[0], x[1], x[2]], x[3]);
    close(v, f(&x), "value");
    for i in 0..3 {
        close(d_y[i], fd[i], "d_y");
    }
    close(d_k, fd[3], "d_k");
    // Forward mode through the same untyped lets: the tangent along each coordinate.
    for (i, &g) in fd.iter().enumerate() {
        let mut t = [0.0; 4];
        t[i] = 1.0;
        let (_, dv) = rk4_energy_jvp(&[x[0], x[1], x[2]], x[3], &[t[0], t[1], t[2]], t[3]);
        close(dv, g, "jvp");
    }
}

/// `a b^T`, a nested array.
#[differentiable]
fn outer(a: &[f64; 2], b: &[f64; 3]) -> [[f64; 3]; 2] {
    let mut m = [[0.0; 3]; 2];
    for i in 0..2 {
        for j in 0..3 {
            m[i][j] = a[i] * b[j];
        }
    }
    m
}

/// Reads the untyped nested result by element, and passes it whole to another call.
#[differentiable]
fn outer_use(a: &[f64; 2], b: &[f64; 3]) -> f64 {
    let m = outer(a, b);
    let mut s = 0.0;
    for i in 0..2 {
        for j in 0..3 {
            s += m[i][j].sin() * (j as f64 + 1.0);
        }
    }
    s + frob(&m)
}

#[differentiable]
fn frob(m: &[[f64; 3]; 2]) -> f64 {
    let mut s = 0.0;
    for i in 0..2 {
        for j in 0..3 {
            s += m[i][j] * m[i][j];
        }
    }
    s
}

#[test]
fn an_untyped_nested_array_result_against_central_differences() {
    let x = [0.4, -1.2, 0.9, 0.5, -0.3];
    let f = |x: &[f64; 5]| outer_use(&[x[0], x[1]], &[x[2], x[3], x[4]]);
    let fd = central(f, &x);
    let (_, (d_a, d_b)) = outer_use_grad(&[x[0], x[1]], &[x[2], x[3], x[4]]);
    for i in 0..2 {
        close(d_a[i], fd[i], "d_a");
    }
    for j in 0..3 {
        close(d_b[j], fd[2 + j], "d_b");
    }
}

/// A const-generic callee: `N` follows from its arguments' types.
#[differentiable]
fn scaled<const N: usize>(x: &[f64; N], s: f64) -> [f64; N] {
    let mut o = [0.0; N];
    for i in 0..N {
        o[i] = s * x[i] * x[i];
    }
    o
}

#[differentiable]
fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    s
}

/// A generic caller calling generic callees without a turbofish.
#[differentiable]
fn generic_caller<const K: usize>(x: &[f64; K], s: f64) -> f64 {
    let y = scaled(x, s);
    let z = scaled(&y, 0.5);
    dot(&y, &z) + dot(x, x) * y[0]
}

/// A non-generic caller of the same callees: `N = 4` inferred.
#[differentiable]
fn concrete_caller(x: &[f64; 4], s: f64) -> f64 {
    let y = scaled(x, s);
    dot(&y, x) + y[3]
}

#[test]
fn const_generic_calls_without_a_turbofish_against_central_differences() {
    let x = [0.5, -0.25, 0.75, 1.5, 0.8]; // x and s
    let f = |x: &[f64; 5]| generic_caller::<4>(&[x[0], x[1], x[2], x[3]], x[4]);
    let fd = central(f, &x);
    let (_, (d_x, d_s)) = generic_caller_grad::<4>(&[x[0], x[1], x[2], x[3]], x[4]);
    for i in 0..4 {
        close(d_x[i], fd[i], "generic d_x");
    }
    close(d_s, fd[4], "generic d_s");

    let f = |x: &[f64; 5]| concrete_caller(&[x[0], x[1], x[2], x[3]], x[4]);
    let fd = central(f, &x);
    let (_, (d_x, d_s)) = concrete_caller_grad(&[x[0], x[1], x[2], x[3]], x[4]);
    for i in 0..4 {
        close(d_x[i], fd[i], "concrete d_x");
    }
    close(d_s, fd[4], "concrete d_s");
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mlp {
    pub w: [[f64; 2]; 3],
    pub v: [f64; 3],
}

#[differentiable]
impl Mlp {
    fn hidden(&self, x: &[f64; 2]) -> [f64; 3] {
        let mut h = [0.0; 3];
        for i in 0..3 {
            h[i] = (self.w[i][0] * x[0] + self.w[i][1] * x[1]).tanh();
        }
        h
    }

    /// The hidden layer bound without a type.
    fn loss(&self, x: &[f64; 2]) -> f64 {
        let h = self.hidden(x);
        let mut s = 0.0;
        for i in 0..3 {
            s += self.v[i] * h[i];
        }
        s * s
    }
}

#[test]
fn an_untyped_method_result_against_central_differences() {
    let m = Mlp {
        w: [[0.3, -0.2], [0.5, 0.1], [-0.4, 0.7]],
        v: [0.9, -1.1, 0.6],
    };
    let x = [0.8, -0.5];
    let (_, d) = m.loss_grad(&x);
    let flat = |p: &Mlp| {
        let mut a = [0.0; 9];
        for i in 0..3 {
            a[2 * i] = p.w[i][0];
            a[2 * i + 1] = p.w[i][1];
            a[6 + i] = p.v[i];
        }
        a
    };
    let unflat = |a: &[f64; 9]| {
        let mut p = Mlp::default();
        for i in 0..3 {
            p.w[i] = [a[2 * i], a[2 * i + 1]];
            p.v[i] = a[6 + i];
        }
        p
    };
    let fd = central(|a: &[f64; 9]| unflat(a).loss(&x), &flat(&m));
    let got = flat(&d);
    for i in 0..9 {
        close(got[i], fd[i], "d_self");
    }
}

/// A hand-written callee with the contract (`custom`): `sum_sq(x) = sum x_i^2`, over any
/// length.
#[differentiable(custom)]
pub fn sum_sq<const N: usize>(x: &[f64; N]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

#[derive(Clone, Debug, Default)]
pub struct SumSqTape<const N: usize> {}

impl<const N: usize> SumSqTape<N> {
    pub const fn new() -> Self {
        SumSqTape {}
    }
}

pub fn sum_sq_forward<const N: usize>(x: &[f64; N], _tape: &mut SumSqTape<N>) -> f64 {
    sum_sq(x)
}

pub fn sum_sq_adjoint<const N: usize>(
    x: &[f64; N],
    _tape: &SumSqTape<N>,
    d_out: f64,
    d_x: &mut [f64; N],
) {
    for i in 0..N {
        d_x[i] += 2.0 * x[i] * d_out;
    }
}

#[differentiable]
fn calls_hand_written(x: &[f64; 3]) -> f64 {
    let y = scaled(x, 2.0);
    sum_sq(&y) + sum_sq(x)
}

#[test]
fn a_hand_written_callee_with_its_contract_called_without_a_turbofish() {
    let x = [0.2, -0.9, 1.3];
    let fd = central(calls_hand_written, &x);
    let (_, d_x) = calls_hand_written_grad(&x);
    for i in 0..3 {
        close(d_x[i], fd[i], "d_x");
    }
}

/// An `hvp` callee called without its constants named, from an `hvp` caller.
#[differentiable(hvp)]
fn squares<const N: usize>(x: &[f64; N], s: f64) -> [f64; N] {
    let mut o = [0.0; N];
    for i in 0..N {
        o[i] = s * x[i] * x[i];
    }
    o
}

#[differentiable(hvp)]
fn weighted(z: &[f64; 3]) -> f64 {
    z[0] * z[2] + z[1].sin()
}

/// Untyped lets under `hvp`: one indexed, one iterated, one passed by reference, one unused.
#[differentiable(hvp)]
fn second_order_caller(x: &[f64; 3], s: f64) -> f64 {
    let y = squares(x, s);
    let z = squares(x, 0.5 * s);
    let _unused = squares(x, 2.0);
    let w = squares(&y, s);
    let total = w.iter().map(|v| v * 0.25).sum::<f64>();
    y[0] * y[1] + weighted(&z) * s + total
}

#[test]
fn untyped_lets_under_hvp_against_central_differences_of_the_gradient() {
    let (x, s) = ([0.7, -0.4, 1.2], 0.9);
    let flat = |p: &[f64; 4]| second_order_caller(&[p[0], p[1], p[2]], p[3]);
    let p = [x[0], x[1], x[2], s];
    let fd = central(flat, &p);
    let (_, (d_x, d_s)) = second_order_caller_grad(&x, s);
    for i in 0..3 {
        close(d_x[i], fd[i], "d_x");
    }
    close(d_s, fd[3], "d_s");
    // H v against central differences of the gradient along v.
    let v = [0.3, -0.6, 0.2, 0.5];
    let (_, _, (hv_x, hv_s)) = second_order_caller_hvp(&x, s, &[v[0], v[1], v[2]], v[3]);
    let grad_at = |t: f64| {
        let q: [f64; 4] = core::array::from_fn(|i| p[i] + t * v[i]);
        let (_, (g, gs)) = second_order_caller_grad(&[q[0], q[1], q[2]], q[3]);
        [g[0], g[1], g[2], gs]
    };
    let h = 1e-5;
    let (a, b) = (grad_at(h), grad_at(-h));
    let hv = [hv_x[0], hv_x[1], hv_x[2], hv_s];
    for i in 0..4 {
        close(hv[i], (a[i] - b[i]) / (2.0 * h), "H v");
    }
}

const STEPS: usize = 3;

/// A callee that differentiates `w` only, with an integer parameter.
#[differentiable(wrt(w))]
fn weighted_sum(x: &[f64; 3], w: &[f64; 3], n: usize, s: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        acc += (w[i] * x[i]).sin() * s;
    }
    acc
}

/// Calls it with `data` and `s` carrying no derivative, and an integer `const` passed whole.
#[differentiable(wrt(w))]
fn wrt_caller(data: &[f64; 3], w: &[f64; 3]) -> f64 {
    let y = weighted_sum(data, w, STEPS, 1.5);
    y * y + weighted_sum(data, w, 2, 0.5)
}

#[test]
fn a_wrt_callee_and_an_integer_const_passed_whole_against_central_differences() {
    let data = [0.4, -1.1, 0.8];
    let w = [0.9, 0.3, -0.6];
    let fd = central(|w: &[f64; 3]| wrt_caller(&data, w), &w);
    let (_, d_w) = wrt_caller_grad(&data, &w);
    for i in 0..3 {
        close(d_w[i], fd[i], "d_w");
    }
}

/// A nested array result only passed on by reference: its zero cotangent is shaped by the
/// callee's output type alone.
#[differentiable]
fn passed_on(a: &[f64; 2], b: &[f64; 3]) -> f64 {
    let m = outer(a, b);
    frob(&m) * a[0]
}

#[test]
fn an_untyped_nested_result_only_passed_on_against_central_differences() {
    let x = [0.7, -0.2, 1.1, 0.4, -0.8];
    let f = |x: &[f64; 5]| passed_on(&[x[0], x[1]], &[x[2], x[3], x[4]]);
    let fd = central(f, &x);
    let (_, (d_a, d_b)) = passed_on_grad(&[x[0], x[1]], &[x[2], x[3], x[4]]);
    for i in 0..2 {
        close(d_a[i], fd[i], "d_a");
    }
    for j in 0..3 {
        close(d_b[j], fd[2 + j], "d_b");
    }
}

/// A `wrt(..)` callee in forward mode: `g_jvp_call` takes `()` for the arguments without a
/// tangent (`data`, the integer).
#[differentiable(jvp, wrt(w))]
fn sum_tanh(x: &[f64; 3], w: &[f64; 3], n: usize) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        acc += (w[i] * x[i]).tanh();
    }
    acc
}

#[differentiable(jvp, wrt(w))]
fn jvp_caller(data: &[f64; 3], w: &[f64; 3]) -> f64 {
    let y = sum_tanh(data, w, STEPS);
    y * y
}

#[test]
fn a_wrt_callee_in_forward_mode_against_central_differences() {
    let data = [0.4, -1.1, 0.8];
    let w = [0.9, 0.3, -0.6];
    let fd = central(|w: &[f64; 3]| jvp_caller(&data, w), &w);
    for (i, &g) in fd.iter().enumerate() {
        let mut t = [0.0; 3];
        t[i] = 1.0;
        let (_, dv) = jvp_caller_jvp(&data, &w, &t);
        close(dv, g, "jvp");
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Square,
    Cube,
}

#[differentiable]
fn power(x: f64, mode: &Mode) -> f64 {
    match mode {
        Mode::Square => x * x,
        _ => x * x * x,
    }
}

/// A fieldless enum only passed on: `wrt(x)` says it carries no derivative (the macro cannot
/// tell it from a struct here), and the call passes `()` in its slot.
#[differentiable(wrt(x))]
fn passes_enum(x: f64, mode: &Mode) -> f64 {
    power(x, mode) + x.sin()
}

#[test]
fn a_fieldless_enum_passed_on_against_central_differences() {
    for mode in [Mode::Square, Mode::Cube] {
        let fd = central(|x: &[f64; 1]| passes_enum(x[0], &mode), &[1.3]);
        let (_, d) = passes_enum_grad(1.3, &mode);
        close(d, fd[0], "d_x");
    }
}

/// The same enum passed on by a caller that names no `wrt(..)`: a parameter only passed on
/// whole takes the zero derivative its callee states for it, a copy of the enum here (`power`
/// matches on `mode`), so `Mode` needs no `Default`.
#[differentiable]
fn passes_enum_on(x: f64, mode: &Mode) -> f64 {
    power(x, mode) * x.cos()
}

/// In forward mode too: `mode`'s tangent is any value of its type, which the callee ignores.
#[differentiable(jvp)]
fn power_j(x: f64, mode: &Mode) -> f64 {
    match mode {
        Mode::Square => x * x,
        _ => x * x * x,
    }
}

#[differentiable(jvp)]
fn passes_enum_jvp(x: f64, mode: &Mode) -> f64 {
    power_j(x, mode) + power_j(2.0 * x, mode)
}

#[test]
fn a_fieldless_enum_passed_on_without_wrt_against_central_differences() {
    for mode in [Mode::Square, Mode::Cube] {
        let fd = central(|x: &[f64; 1]| passes_enum_on(x[0], &mode), &[1.3]);
        let (v, (d, _)) = passes_enum_on_grad(1.3, &mode);
        assert_eq!(v, passes_enum_on(1.3, &mode));
        close(d, fd[0], "d_x");
        let fd = central(|x: &[f64; 1]| passes_enum_jvp(x[0], &mode), &[0.7]);
        let (_, t) = passes_enum_jvp_jvp(0.7, &mode, 1.0, &mode);
        close(t, fd[0], "jvp");
        let (_, (d, _)) = passes_enum_jvp_grad(0.7, &mode);
        close(d, fd[0], "d_x");
    }
}

/// Under `hvp`: the enum's tangent is a value of its type in every tangent program, the
/// callee's that matches on it and the callers' that pass it on (with `wrt(x)` or without).
#[differentiable(hvp)]
fn power_h(x: f64, mode: &Mode) -> f64 {
    match mode {
        Mode::Square => x * x,
        _ => x * x * x,
    }
}

#[differentiable(hvp)]
fn passes_enum_hvp(x: f64, mode: &Mode) -> f64 {
    power_h(x, mode) * x.sin()
}

#[differentiable(hvp, wrt(x))]
fn passes_enum_hvp_x(x: f64, mode: &Mode) -> f64 {
    passes_enum_hvp(x, mode) + power_h(x, mode)
}

#[test]
fn a_fieldless_enum_passed_on_under_hvp_against_central_differences_of_the_gradient() {
    let h = 1e-5;
    for mode in [Mode::Square, Mode::Cube] {
        let x = 0.9;
        let fd = central(|x: &[f64; 1]| passes_enum_hvp_x(x[0], &mode), &[x]);
        let (_, d) = passes_enum_hvp_x_grad(x, &mode);
        close(d, fd[0], "d_x");
        let grad = |x: f64| passes_enum_hvp_x_grad(x, &mode).1;
        let (_, g, hv) = passes_enum_hvp_x_hvp(x, &mode, 0.6);
        close(g, d, "gradient");
        close(hv, 0.6 * (grad(x + h) - grad(x - h)) / (2.0 * h), "H v");
        let grad = |x: f64| passes_enum_hvp_grad(x, &mode).1.0;
        let (_, (g, _), (hv, _)) = passes_enum_hvp_hvp(x, &mode, 0.6, &mode);
        close(g, grad(x), "gradient");
        close(hv, 0.6 * (grad(x + h) - grad(x - h)) / (2.0 * h), "H v");
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lin {
    pub a: f64,
    pub b: f64,
}

#[differentiable(hvp)]
fn lin(x: f64, p: &Lin) -> f64 {
    p.a * x + p.b * p.b
}

/// `p` differentiated only through `x`'s coefficient: `lin_x` leaves it out.
#[differentiable(hvp, wrt(x))]
fn lin_x(x: f64, p: &Lin) -> f64 {
    p.a * x * x
}

/// A struct only passed on, to a callee that differentiates it: its gradient is the struct.
#[differentiable(hvp)]
fn passes_struct_on(x: f64, p: &Lin) -> f64 {
    lin(x, p) * x
}

/// A struct only passed on, to a callee that does not differentiate it: left out of `wrt(..)`
/// here too (without, one error at the call), it has a zero tangent under `hvp`.
#[differentiable(hvp, wrt(x))]
fn passes_struct_to_wrt(x: f64, p: &Lin) -> f64 {
    lin_x(x, p) + x
}

#[test]
fn a_struct_passed_on_takes_its_callees_derivative() {
    let p = Lin { a: 0.8, b: -1.1 };
    let x = 1.7;
    let fd = central(
        |q: &[f64; 3]| passes_struct_on(q[0], &Lin { a: q[1], b: q[2] }),
        &[x, p.a, p.b],
    );
    let (_, (dx, dp)) = passes_struct_on_grad(x, &p);
    close(dx, fd[0], "d_x");
    close(dp.a, fd[1], "d_p.a");
    close(dp.b, fd[2], "d_p.b");
    let fd = central(|q: &[f64; 1]| passes_struct_to_wrt(q[0], &p), &[x]);
    let (_, dx) = passes_struct_to_wrt_grad(x, &p);
    close(dx, fd[0], "d_x");
    // Under `hvp`: H v against central differences of the gradient along v.
    let h = 1e-5;
    let v = [0.4, -0.7, 0.3];
    let grad = |t: f64| {
        let q = Lin {
            a: p.a + t * v[1],
            b: p.b + t * v[2],
        };
        let (_, (dx, dp)) = passes_struct_on_grad(x + t * v[0], &q);
        [dx, dp.a, dp.b]
    };
    let vp = Lin { a: v[1], b: v[2] };
    let (_, _, (hx, hp)) = passes_struct_on_hvp(x, &p, v[0], &vp);
    let (a, b) = (grad(h), grad(-h));
    for (i, hv) in [hx, hp.a, hp.b].into_iter().enumerate() {
        close(hv, (a[i] - b[i]) / (2.0 * h), "H v");
    }
    let grad = |x: f64| passes_struct_to_wrt_grad(x, &p).1;
    let (_, _, hx) = passes_struct_to_wrt_hvp(x, &p, 0.6);
    close(hx, 0.6 * (grad(x + h) - grad(x - h)) / (2.0 * h), "H v");
}

/// Under `hvp`: a `wrt(..)` callee with an integer parameter, called with an integer `const`
/// passed whole and a literal. Every `_hvp_jvp` takes one tangent per parameter (ignoring those
/// of what it does not differentiate), so the caller's tangent program passes one per argument.
#[differentiable(hvp, wrt(w))]
fn sin_sum(x: &[f64; 3], w: &[f64; 3], n: usize, s: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        acc += (w[i] * x[i]).sin() * s;
    }
    acc
}

#[differentiable(hvp, wrt(w))]
fn hvp_wrt_caller(data: &[f64; 3], w: &[f64; 3]) -> f64 {
    let y = sin_sum(data, w, STEPS, 1.5);
    y * y + sin_sum(data, w, 2, 0.5) * w[1]
}

#[test]
fn a_wrt_callee_and_an_integer_const_under_hvp_against_central_differences() {
    let data = [0.4, -1.1, 0.8];
    let w = [0.9, 0.3, -0.6];
    let fd = central(|w: &[f64; 3]| hvp_wrt_caller(&data, w), &w);
    let (_, d_w) = hvp_wrt_caller_grad(&data, &w);
    for i in 0..3 {
        close(d_w[i], fd[i], "d_w");
    }
    // H v against central differences of the gradient along v.
    let v = [0.5, -0.2, 0.7];
    let (value, g, hv) = hvp_wrt_caller_hvp(&data, &w, &v);
    close(value, hvp_wrt_caller(&data, &w), "value");
    let h = 1e-5;
    let at = |t: f64| hvp_wrt_caller_grad(&data, &core::array::from_fn(|i| w[i] + t * v[i])).1;
    let (a, b) = (at(h), at(-h));
    for i in 0..3 {
        close(g[i], fd[i], "hvp's gradient");
        close(hv[i], (a[i] - b[i]) / (2.0 * h), "H v");
    }
}

/// A tuple-valued callee, and one of three elements with an array in the middle.
#[differentiable(jvp)]
fn polar(r: f64, a: f64) -> (f64, f64) {
    (r * a.cos(), r * a.sin())
}

#[differentiable(jvp)]
fn three(x: f64) -> (f64, [f64; 2], f64) {
    (x * x, [x, 2.0 * x], x.sin())
}

/// Tuples bound to one name and read by element: both of two, two of three (next to a local
/// of the user's named `t_0`), and one of two inside a loop.
#[differentiable(jvp)]
fn one_name_tuples(r: f64, a: f64, xs: &[f64; 3]) -> f64 {
    let t = polar(r, a);
    let u = three(a);
    let t_0 = 3.0;
    let mut acc = t.0 * t.1 + u.2 * t_0 + u.0;
    for i in 0..3 {
        let s = polar(xs[i], a);
        acc += s.1 * xs[i];
    }
    acc
}

#[test]
fn tuples_bound_to_one_name_against_central_differences() {
    let p = [1.3, 0.4, 0.5, -0.7, 1.1];
    let f = |p: &[f64; 5]| one_name_tuples(p[0], p[1], &[p[2], p[3], p[4]]);
    let fd = central(f, &p);
    let (v, (d_r, d_a, d_xs)) = one_name_tuples_grad(p[0], p[1], &[p[2], p[3], p[4]]);
    // The value by hand: polar and three written out.
    let (r, a) = (p[0], p[1]);
    let mut by_hand = r * a.cos() * r * a.sin() + a.sin() * 3.0 + a * a;
    for x in &p[2..] {
        by_hand += x * a.sin() * x;
    }
    close(v, by_hand, "value");
    close(d_r, fd[0], "d_r");
    close(d_a, fd[1], "d_a");
    for i in 0..3 {
        close(d_xs[i], fd[2 + i], "d_xs");
    }
    // Forward mode: the tangent along each coordinate.
    for (i, &g) in fd.iter().enumerate() {
        let mut t = [0.0; 5];
        t[i] = 1.0;
        let xs = [p[2], p[3], p[4]];
        let (_, dv) = one_name_tuples_jvp(p[0], p[1], &xs, t[0], t[1], &[t[2], t[3], t[4]]);
        close(dv, g, "jvp");
    }
}

/// A tuple bound to one name, read by element, then the name bound again to a float (which
/// reads the old one's elements): it was refused as a tuple used whole.
#[differentiable(jvp)]
fn rebound(r: f64, a: f64) -> f64 {
    let t = polar(r, a);
    let s = t.0 * t.1;
    let t = s * 2.0 + t.1;
    t * t
}

#[test]
fn a_tuple_name_bound_again_against_central_differences() {
    let p = [1.3, 0.4];
    let f = |p: &[f64; 2]| rebound(p[0], p[1]);
    let fd = central(f, &p);
    let (v, (d_r, d_a)) = rebound_grad(p[0], p[1]);
    let (x, y) = (p[0] * p[1].cos(), p[0] * p[1].sin());
    let by_hand = (x * y * 2.0 + y) * (x * y * 2.0 + y);
    close(v, by_hand, "value");
    close(d_r, fd[0], "d_r");
    close(d_a, fd[1], "d_a");
    close(rebound_jvp(p[0], p[1], 1.0, 0.0).1, fd[0], "jvp along r");
    close(rebound_jvp(p[0], p[1], 0.0, 1.0).1, fd[1], "jvp along a");
}

/// In `f32`, a tuple's element read only by a condition (the call then carries no
/// derivative): the tape recorded it as an `f64` (E0308 in the generated code; genprog seed
/// 85); it takes the function's float type.
#[differentiable(jvp)]
fn polar32(r: f32, a: f32) -> (f32, f32) {
    (r * a.cos(), r * a.sin())
}

#[differentiable(jvp)]
fn branch32(r: f32, a: f32) -> f32 {
    let y = polar32(r, a).1 * 0.5;
    if (y.tanh() * 0.9).acos() > 1.2 {
        r * a
    } else {
        r - a
    }
}

#[test]
fn an_f32_tuple_element_read_by_a_condition_only() {
    // Both branches: (1.5, 0.8) the second, the others the first.
    for (r, a) in [(1.5f32, 0.8f32), (1.5, -0.8), (0.7, 2.0)] {
        let then = ((0.5 * r * a.sin()).tanh() * 0.9).acos() > 1.2;
        let (value, (d_r, d_a)) = branch32_grad(r, a);
        let (want, want_r, want_a) = if then {
            (r * a, a, r)
        } else {
            (r - a, 1.0, -1.0)
        };
        assert_eq!((value, d_r, d_a), (want, want_r, want_a), "at ({r}, {a})");
        assert_eq!(branch32_jvp(r, a, 1.0, 2.0), (want, want_r + 2.0 * want_a));
    }
}

/// `y + y²` by element, and a weighted sum scaled by `s`, taking the array by value.
#[differentiable(hvp)]
fn plus_square(x: &[f64; 3]) -> [f64; 3] {
    [x[0] + x[0] * x[0], x[1] + x[1] * x[1], x[2] + x[2] * x[2]]
}

#[differentiable(hvp)]
fn weigh(v: [f64; 3], s: f64) -> f64 {
    (v[0] + 2.0 * v[1] - 3.0 * v[2]) * s
}

#[differentiable(hvp)]
fn norm3(x: &[f64; 3]) -> f64 {
    (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt()
}

#[differentiable(hvp)]
fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Untyped lets only ever passed on whole by value: an array (`y`, three times, twice to one
/// call) and floats (`n`, `z`). Each takes the type its callee's contract names, a float or an
/// array alike, under `hvp` too.
#[differentiable(hvp)]
fn passed_whole(x: &[f64; 3]) -> f64 {
    let y = plus_square(x);
    let n = norm3(x);
    let z = weigh(y, n);
    weigh(y, z) + 0.1 * dot3(y, y)
}

#[test]
fn results_only_passed_on_whole_against_central_differences() {
    let x = [0.3, -0.8, 1.2];
    let f = |x: &[f64; 3]| passed_whole(x);
    let fd = central(f, &x);
    // The value by hand.
    let y = x.map(|v| v + v * v);
    let n = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
    let w = |s: f64| (y[0] + 2.0 * y[1] - 3.0 * y[2]) * s;
    let (v, g) = passed_whole_grad(&x);
    close(
        v,
        w(w(n)) + 0.1 * (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]),
        "value",
    );
    for i in 0..3 {
        close(g[i], fd[i], "gradient");
        let mut t = [0.0; 3];
        t[i] = 1.0;
        let (_, d) = passed_whole_jvp(&x, &t);
        close(d, fd[i], "jvp");
    }
    // H v against central differences of the gradient along v.
    let v = [0.4, 0.1, -0.7];
    let (_, _, hv) = passed_whole_hvp(&x, &v);
    let h = 1e-5;
    let at = |t: f64| passed_whole_grad(&core::array::from_fn(|i| x[i] + t * v[i])).1;
    let (a, b) = (at(h), at(-h));
    for i in 0..3 {
        close(hv[i], (a[i] - b[i]) / (2.0 * h), "H v");
    }
}

/// Under `nested`: a result only passed on whole in a function whose gradient another one
/// differentiates.
#[differentiable(nested)]
fn energy(x: &[f64; 3], s: f64) -> f64 {
    let y = plus_square(x);
    weigh(y, s * s)
}

#[differentiable(jvp)]
fn through_gradient(x: &[f64; 3], s: f64) -> f64 {
    let g = energy_grad_s(x, s);
    g * s + x[0]
}

#[test]
fn a_result_passed_on_whole_under_nested_against_central_differences() {
    let p = [0.3, -0.8, 1.2, 0.7];
    let f = |p: &[f64; 4]| through_gradient(&[p[0], p[1], p[2]], p[3]);
    let fd = central(f, &p);
    // d energy / ds = 2 s w(y): the value by hand.
    let y = [p[0], p[1], p[2]].map(|v| v + v * v);
    let w = y[0] + 2.0 * y[1] - 3.0 * y[2];
    let (v, (d_x, d_s)) = through_gradient_grad(&[p[0], p[1], p[2]], p[3]);
    close(v, 2.0 * p[3] * w * p[3] + p[0], "value");
    for i in 0..3 {
        close(d_x[i], fd[i], "d_x");
    }
    close(d_s, fd[3], "d_s");
}

#[differentiable(jvp)]
fn square1(x: f64) -> f64 {
    x * x
}

#[differentiable(jvp)]
fn scale1(y: f64, w: f64) -> f64 {
    y * w
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Weight {
    pub w: f64,
}

/// Untyped float results that are *not* only passed on through contracts: one to a float
/// method by its type's path (`f64::exp(y)`), one to a call that also passes a struct field
/// (`scale1(z, p.w)`, not through the contract): both stay floats.
#[differentiable(jvp, wrt(x))]
fn float_paths(p: &Weight, x: f64) -> f64 {
    let y = square1(x);
    let z = square1(x);
    f64::exp(y) * 0.1 + scale1(z, p.w)
}

#[test]
fn float_results_passed_to_float_paths_and_fields_against_central_differences() {
    let p = Weight { w: 1.7 };
    let fd = central(|x: &[f64; 1]| float_paths(&p, x[0]), &[0.6]);
    let (_, d) = float_paths_grad(&p, 0.6);
    close(d, fd[0], "d_x");
    let (_, t) = float_paths_jvp(&p, 0.6, 1.0);
    close(t, fd[0], "jvp");
}

/// Under `hvp`, a slice of data passed to a callee that leaves it out of `wrt(..)`: the
/// callee's tangent program takes a float it ignores for it, which the caller passes.
#[differentiable(hvp, wrt(w))]
fn sum_sin(xs: &[f64], w: f64) -> f64 {
    let mut s = 0.0;
    for x in xs.iter() {
        s += (w * x).sin();
    }
    s
}

#[differentiable(hvp, wrt(w))]
fn slice_caller(xs: &[f64], w: f64) -> f64 {
    sum_sin(xs, w) * w
}

#[test]
fn a_slice_of_data_under_hvp_against_central_differences() {
    let xs = [0.3, -0.5, 0.9];
    let f = |w: &[f64; 1]| slice_caller(&xs, w[0]);
    let w = 0.7;
    let (v, g, hv) = slice_caller_hvp(&xs, w, 1.0);
    close(v, f(&[w]), "value");
    close(g, central(f, &[w])[0], "gradient");
    let h = 1e-5;
    let grad = |w: f64| slice_caller_grad(&xs, w).1;
    close(hv, (grad(w + h) - grad(w - h)) / (2.0 * h), "H v");
}

/// Public callers of private callees (and of a `pub(crate)` one in a module): a parameter only
/// passed on takes its zero from the callee's `GZero{i}` inside the caller's bodies, so no
/// private item reaches a public signature (`-D warnings` in CI builds this).
pub mod public_callers {
    use super::{Lin, Mode, central, close};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    fn scale(x: f64, p: &Lin) -> f64 {
        p.a * x + p.b
    }

    #[differentiable(hvp)]
    fn shape(x: f64, mode: &Mode) -> f64 {
        match mode {
            Mode::Square => x * x,
            _ => x * x * x,
        }
    }

    mod inner {
        use super::Lin;
        use stackgrad::differentiable;

        #[differentiable(hvp)]
        pub(crate) fn bend(x: f64, p: &Lin) -> f64 {
            (p.a * x).sin() * p.b
        }
    }

    #[differentiable(hvp)]
    pub fn model(x: f64, p: &Lin, mode: &Mode) -> f64 {
        scale(x, p) * shape(x, mode) + inner::bend(x, p)
    }

    /// A public caller of the public caller: the zeros chain through `model`'s own traits.
    #[differentiable(hvp)]
    pub fn outer(x: f64, p: &Lin, mode: &Mode) -> f64 {
        model(x, p, mode) * 0.5
    }

    #[test]
    fn public_callers_against_central_differences() {
        for mode in [Mode::Square, Mode::Cube] {
            let q = [0.7, 1.2, -0.4];
            let f = |q: &[f64; 3]| outer(q[0], &Lin { a: q[1], b: q[2] }, &mode);
            let fd = central(f, &q);
            let p = Lin { a: q[1], b: q[2] };
            let (_, (dx, dp, _)) = outer_grad(q[0], &p, &mode);
            close(dx, fd[0], "d_x");
            close(dp.a, fd[1], "d_p.a");
            close(dp.b, fd[2], "d_p.b");
            // H v along x and p.a, against central differences of the gradient.
            let (h, v) = (1e-5, [0.3, -0.5, 0.2]);
            let grad = |t: f64| {
                let p = Lin {
                    a: q[1] + t * v[1],
                    b: q[2] + t * v[2],
                };
                let (_, (dx, dp, _)) = outer_grad(q[0] + t * v[0], &p, &mode);
                [dx, dp.a, dp.b]
            };
            let vp = Lin { a: v[1], b: v[2] };
            let (_, _, (hx, hp, _)) = outer_hvp(q[0], &p, &mode, v[0], &vp, &mode);
            let (a, b) = (grad(h), grad(-h));
            for (i, hv) in [hx, hp.a, hp.b].into_iter().enumerate() {
                close(hv, (a[i] - b[i]) / (2.0 * h), "H v");
            }
        }
    }
}

/// An alias of an array passed on to a callee that leaves the array out of its `wrt(..)`: the
/// caller takes it for a struct only passed on, and its zero tangent under `hvp` comes from the
/// callee's `GZero0`, which every array parameter has.
pub type V3 = [f64; 3];

#[differentiable(hvp, wrt(x))]
fn weigh_v(v: &[f64; 3], x: f64) -> f64 {
    (v[0] + v[1] * v[2]) * x * x
}

#[differentiable(hvp, wrt(x))]
fn weigh_alias(v: &V3, x: f64) -> f64 {
    weigh_v(v, x) + x.exp()
}

/// A fieldless enum with a constant, matched on by a const-generic function.
#[derive(Clone, Copy)]
pub enum Stencil<const N: usize> {
    Left,
    Right,
}

#[differentiable]
fn stencil<const N: usize>(x: &[f64; N], s: &Stencil<N>) -> f64 {
    match s {
        Stencil::Left => x[0] * x[1],
        _ => x[N - 1] * x[N - 2],
    }
}

#[test]
fn an_array_alias_and_a_const_generic_enum() {
    let (v, x, h) = ([0.5, -1.5, 2.0], 0.8, 1e-5);
    let grad = |x: f64| weigh_alias_grad(&v, x).1;
    let (_, g, hv) = weigh_alias_hvp(&v, x, 0.7);
    close(
        g,
        central(|q: &[f64; 1]| weigh_alias(&v, q[0]), &[x])[0],
        "d_x",
    );
    close(hv, 0.7 * (grad(x + h) - grad(x - h)) / (2.0 * h), "H v");
    let y = [0.3, 1.7, -0.9, 2.2];
    for s in [Stencil::Left, Stencil::Right] {
        let fd = central(|y: &[f64; 4]| stencil(y, &s), &y);
        let (_, d) = stencil_grad(&y, &s);
        for i in 0..4 {
            close(d[i], fd[i], "d_x");
        }
    }
}

/// An enum passed on only to a call in a condition (whose value carries no derivative): data
/// here, left out of the gradient, without `Default`.
#[differentiable(hvp)]
fn branch_on(x: f64, mode: &Mode) -> f64 {
    if power_h(x, mode) > 1.0 {
        x * x
    } else {
        x.sin()
    }
}

#[differentiable(hvp)]
fn calls_branch_on(x: f64, mode: &Mode) -> f64 {
    branch_on(x, mode) * x
}

#[test]
fn an_enum_passed_on_only_in_a_condition() {
    for mode in [Mode::Square, Mode::Cube] {
        for x in [0.6, 1.4] {
            let fd = central(|q: &[f64; 1]| calls_branch_on(q[0], &mode), &[x]);
            let (_, (d, _)) = calls_branch_on_grad(x, &mode);
            close(d, fd[0], "d_x");
            let (_, d) = branch_on_grad(x, &mode);
            let fd = central(|q: &[f64; 1]| branch_on(q[0], &mode), &[x]);
            close(d, fd[0], "d_x");
            let h = 1e-5;
            let grad = |x: f64| calls_branch_on_grad(x, &mode).1.0;
            let (_, _, (hv, _)) = calls_branch_on_hvp(x, &mode, 0.5, &mode);
            close(hv, 0.5 * (grad(x + h) - grad(x - h)) / (2.0 * h), "H v");
        }
    }
}

/// A `wrt(..)` callee of two floats.
#[differentiable(jvp, wrt(x))]
fn gain(x: f64, y: f64) -> f64 {
    x * x * y.sin()
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Rig {
    pub w: [f64; 2],
    pub a: f64,
}

const OFFSET: f64 = 0.25;

/// Arguments whose types the macro cannot see (a struct's fields, a `const` item), so not
/// through the callee's contract: the fields of the differentiated `p` carry derivatives into
/// `x`, the undifferentiated `q`'s and the `const` none into `y`.
#[differentiable(jvp, wrt(x, p))]
fn passes_fields(x: f64, p: &Rig, q: &Rig) -> f64 {
    gain(p.w[0], q.a) * x + gain(x * p.a, q.w[1]) + gain(p.w[1], OFFSET)
}

#[test]
fn a_wrt_callee_passed_struct_fields_and_a_const_against_central_differences() {
    let (p, q) = (
        Rig {
            w: [0.3, -0.8],
            a: 1.1,
        },
        Rig {
            w: [0.6, 0.7],
            a: -0.4,
        },
    );
    let at = [0.5, p.w[0], p.w[1], p.a];
    let of = |v: &[f64; 4]| {
        let p = Rig {
            w: [v[1], v[2]],
            a: v[3],
        };
        passes_fields(v[0], &p, &q)
    };
    let fd = central(of, &at);
    let (_, (dx, dp)) = passes_fields_grad(at[0], &p, &q);
    close(dx, fd[0], "d_x");
    close(dp.w[0], fd[1], "d_p.w[0]");
    close(dp.w[1], fd[2], "d_p.w[1]");
    close(dp.a, fd[3], "d_p.a");
    let t = Rig {
        w: [0.2, -0.5],
        a: 0.9,
    };
    let (_, dv) = passes_fields_jvp(at[0], &p, &q, 1.5, &t);
    let along = 1.5 * fd[0] + 0.2 * fd[1] - 0.5 * fd[2] + 0.9 * fd[3];
    close(dv, along, "jvp");
}

/// Five features of a const-generic input.
#[differentiable(jvp)]
fn features<const N: usize>(a: &[f64; N], x: f64) -> [f64; 5] {
    let mut o = [0.0; 5];
    for i in 0..5 {
        o[i] = (a[i % N] * x + i as f64).sin();
    }
    o
}

/// A generic function iterating an untyped `let` of a call's result, alone and zipped with a
/// `[f64; N]`, carrying state: the result's length is computed from `N` (through the contract),
/// which rustc takes as no array length in a generic tape, so the loop alone is run-time (its
/// steps in `Vec`s); zipped, the tape's bound is `N`.
#[differentiable(jvp)]
fn iterates_a_generic_result<const N: usize>(x: f64, a: [f64; N]) -> f64 {
    let y = features::<N>(&a, x);
    let mut s = x;
    for e in y.iter() {
        s = (s * e).tanh() + 0.5 * e;
    }
    for (e, w) in y.iter().zip(a.iter()) {
        s = (s + e * w).sin();
    }
    s * y[3]
}

#[test]
fn an_untyped_generic_result_iterated_against_central_differences() {
    let p = [0.4, -0.7, 1.2, 0.3];
    let fd = central(
        |q: &[f64; 4]| iterates_a_generic_result(q[0], [q[1], q[2], q[3]]),
        &p,
    );
    let (_, (dx, da)) = iterates_a_generic_result_grad(p[0], [p[1], p[2], p[3]]);
    close(dx, fd[0], "d_x");
    for i in 0..3 {
        close(da[i], fd[i + 1], "d_a");
    }
    let (_, dv) = iterates_a_generic_result_jvp(p[0], [p[1], p[2], p[3]], 1.0, &[0.5, 0.0, -1.0]);
    close(dv, fd[0] + 0.5 * fd[1] - fd[3], "jvp");
}

/// `gain` with a Hessian.
#[differentiable(hvp, wrt(x))]
fn gain2(x: f64, y: f64) -> f64 {
    x * x * y.sin()
}

const WEIGHTS: [f64; 2] = [0.8, -0.3];

/// A `const` item's element passed as a place (`WEIGHTS[1]`), under `jvp`: vector mode too.
#[differentiable(jvp)]
fn const_place(x: f64) -> f64 {
    gain(x, WEIGHTS[1]) * x + gain(x * x, WEIGHTS[0])
}

/// A struct's field passed as a place under `hvp`.
#[differentiable(hvp, wrt(x))]
fn field_under_hvp(x: f64, q: &Rig) -> f64 {
    gain2(x, q.a) * x + gain2(x.sin(), q.w[1])
}

#[test]
fn a_wrt_callee_passed_a_const_place_in_vector_mode_and_a_field_under_hvp() {
    let x = 0.7;
    let fd = central(|v: &[f64; 1]| const_place(v[0]), &[x]);
    close(const_place_grad(x).1, fd[0], "d_x");
    close(const_place_jvp(x, 1.0).1, fd[0], "jvp");
    let (_, lanes) = const_place_jvp_vec::<2>(x, [1.0, -2.0]);
    close(lanes[0], fd[0], "jvp_vec lane 0");
    close(lanes[1], -2.0 * fd[0], "jvp_vec lane 1");
    let q = Rig {
        w: [0.6, 0.7],
        a: -0.4,
    };
    let fd = central(|v: &[f64; 1]| field_under_hvp(v[0], &q), &[x]);
    let (_, d) = field_under_hvp_grad(x, &q);
    close(d, fd[0], "d_x");
    let h = 1e-5;
    let grad = |x: f64| field_under_hvp_grad(x, &q).1;
    let (_, g, hv) = field_under_hvp_hvp(x, &q, 1.5);
    close(g, fd[0], "hvp's gradient");
    close(hv, 1.5 * (grad(x + h) - grad(x - h)) / (2.0 * h), "H v");
}

const SHIFT: [f64; 2] = [0.3, -0.2];

/// The enum passed on to `power_j` in an argument of a call that is not through its contract
/// (`gain` is passed `SHIFT[1]`, a `const` item's element): `mode` is still only passed on, its
/// zero `power_j`'s (a copy), so `Mode` needs no `Default`. (Before, the outer call's `const`
/// made `mode` a struct parameter, whose zero is its `Default`: E0277.)
#[differentiable(jvp)]
fn enum_in_a_nested_call(x: f64, mode: &Mode) -> f64 {
    gain(power_j(x, mode), SHIFT[1]) + x
}

#[test]
fn an_enum_passed_on_in_a_nested_call_against_central_differences() {
    for mode in [Mode::Square, Mode::Cube] {
        let fd = central(|v: &[f64; 1]| enum_in_a_nested_call(v[0], &mode), &[0.9]);
        let (_, (d, _)) = enum_in_a_nested_call_grad(0.9, &mode);
        close(d, fd[0], "d_x");
        close(
            enum_in_a_nested_call_jvp(0.9, &mode, 1.0, &mode).1,
            fd[0],
            "jvp",
        );
    }
}

/// `power_j` with a weight, and under `hvp`; `moded_wrt_x` leaves the weight out.
#[differentiable(hvp)]
fn moded(x: f64, w: f64, mode: &Mode) -> f64 {
    match mode {
        Mode::Square => x * x * w,
        _ => x * x * x * w,
    }
}

#[differentiable(hvp, wrt(x))]
fn moded_wrt_x(x: f64, w: f64, mode: &Mode) -> f64 {
    match mode {
        Mode::Square => x.sin() * w,
        _ => x * x * w,
    }
}

/// The enum passed on in the same call as a struct's field or a `const` item's element (calls
/// through the callee's slot forwarders, not its contract), beside calls through the contract:
/// `mode` is still only passed on, its zero the callee's (a copy), so `Mode` needs no
/// `Default`. (Before, such a call made `mode` a struct parameter: E0277 `Mode: Default`.)
#[differentiable(hvp)]
fn enum_beside_a_field(x: f64, q: &Rig, mode: &Mode) -> f64 {
    moded(x, q.a, mode) + x * moded_wrt_x(x, SHIFT[0], mode) + moded(x * x, x, mode)
}

#[differentiable(hvp)]
fn enum_beside_a_const(x: f64, mode: &Mode) -> f64 {
    moded(x, SHIFT[1], mode) * x + moded_wrt_x(x, OFFSET, mode)
}

#[test]
fn an_enum_passed_on_beside_a_field_or_a_const_against_central_differences() {
    let q = Rig {
        w: [0.6, 0.7],
        a: -0.4,
    };
    let h = 1e-5;
    for mode in [Mode::Square, Mode::Cube] {
        let p = [0.9, q.a];
        let at = |v: &[f64; 2]| Rig { a: v[1], ..q };
        let fd = central(|v: &[f64; 2]| enum_beside_a_field(v[0], &at(v), &mode), &p);
        let (_, (d_x, d_q, _)) = enum_beside_a_field_grad(p[0], &q, &mode);
        close(d_x, fd[0], "d_x");
        close(d_q.a, fd[1], "d_q.a");
        close(d_q.w[0], 0.0, "d_q.w");
        let zero = Rig {
            w: [0.0; 2],
            a: 0.0,
        };
        let t_q = Rig { a: -2.0, ..zero };
        let (_, dv) = enum_beside_a_field_jvp(p[0], &q, &mode, 0.5, &t_q, &mode);
        close(dv, 0.5 * fd[0] - 2.0 * fd[1], "jvp");
        // H v along (0.5, q.a: -2.0) against central differences of the gradient.
        let (_, (g_x, _, _), (hv_x, hv_q, _)) =
            enum_beside_a_field_hvp(p[0], &q, &mode, 0.5, &t_q, &mode);
        close(g_x, fd[0], "hvp's gradient");
        let grad_at = |s: f64| {
            let q2 = Rig {
                a: q.a - 2.0 * s,
                ..q
            };
            let (_, (d_x, d_q, _)) = enum_beside_a_field_grad(p[0] + 0.5 * s, &q2, &mode);
            (d_x, d_q.a)
        };
        let (plus, minus) = (grad_at(h), grad_at(-h));
        close(hv_x, (plus.0 - minus.0) / (2.0 * h), "H v (x)");
        close(hv_q.a, (plus.1 - minus.1) / (2.0 * h), "H v (q.a)");
        let fd = central(|v: &[f64; 1]| enum_beside_a_const(v[0], &mode), &[0.9]);
        let (_, (d, _)) = enum_beside_a_const_grad(0.9, &mode);
        close(d, fd[0], "d_x (const)");
        let grad = |x: f64| enum_beside_a_const_grad(x, &mode).1.0;
        let (_, (g, _), (hv, _)) = enum_beside_a_const_hvp(0.9, &mode, 1.5, &mode);
        close(g, fd[0], "hvp's gradient");
        close(hv, 1.5 * (grad(0.9 + h) - grad(0.9 - h)) / (2.0 * h), "H v");
    }
}

/// A generic function whose array's length is written in braces (`[f64; { N }]`): the constant
/// `N` itself, so its loops (`a.iter()`, `0..a.len()`) keep a tape of fixed size, and may sit in
/// a checkpointed loop. (rustc
/// lints the braces, which code generated from a macro's `{ $n }` still writes.)
#[differentiable]
#[allow(unused_braces)]
fn braced_length<const N: usize>(x: f64, a: &[f64; { N }]) -> f64 {
    let mut s = x;
    #[checkpoint]
    for _t in 0..3 {
        for v in a.iter() {
            s = (s * v).sin() + 0.5 * s;
        }
        for i in 0..a.len() {
            s += 0.1 * a[i] * s.cos();
        }
    }
    s
}

#[test]
fn a_braced_generic_length_in_a_checkpointed_loop() {
    let p = [0.4, -0.7, 1.2, 0.3];
    let fd = central(|q: &[f64; 4]| braced_length(q[0], &[q[1], q[2], q[3]]), &p);
    let (_, (dx, da)) = braced_length_grad(p[0], &[p[1], p[2], p[3]]);
    close(dx, fd[0], "d_x");
    for i in 0..3 {
        close(da[i], fd[i + 1], "d_a");
    }
}

/// An array result bound without a type (named through `spread`'s contract), iterated inside a
/// checkpointed loop, under `hvp`: the tangent program prints that loop's bound as the size of
/// the contract's type over its element's, a constant, where it took it for a run-time length
/// and stopped ("the macro's tangent program is outside its own language").
#[differentiable(hvp)]
fn spread(x: f64, a: [f64; 4]) -> [f64; 4] {
    let mut o = a;
    for i in 0..4 {
        o[i] = (o[i] + x).sin();
    }
    o
}

#[differentiable(hvp)]
fn untyped_result_in_a_checkpoint(z: f64, a: &[f64; 4]) -> f64 {
    let y = spread(a[2] * z, *a);
    let mut d = z;
    #[checkpoint(snapshots = 1, binomial)]
    for _i in 0..=3 {
        for (k, e) in y.iter().enumerate() {
            d = (d * e).sin() + 0.5 * d + 0.01 * k as f64;
        }
    }
    d
}

#[test]
fn an_untyped_result_iterated_in_a_checkpoint_under_hvp() {
    let p = [0.7, 0.3, -0.5, 0.9, 0.2];
    let (z, a) = (p[0], [p[1], p[2], p[3], p[4]]);
    let f = |q: &[f64; 5]| untyped_result_in_a_checkpoint(q[0], &[q[1], q[2], q[3], q[4]]);
    let fd = central(f, &p);
    let (_, (d_z, d_a)) = untyped_result_in_a_checkpoint_grad(z, &a);
    close(d_z, fd[0], "d_z");
    for i in 0..4 {
        close(d_a[i], fd[i + 1], "d_a");
    }
    // H v against central differences of the gradient along v.
    let (vz, va) = (0.5, [1.0, -0.5, 0.25, 2.0]);
    let (_, (g_z, _), (hv_z, hv_a)) = untyped_result_in_a_checkpoint_hvp(z, &a, vz, &va);
    close(g_z, fd[0], "hvp's gradient");
    let h = 1e-5;
    let grad_at = |s: f64| {
        let a2: [f64; 4] = core::array::from_fn(|i| a[i] + s * va[i]);
        untyped_result_in_a_checkpoint_grad(z + s * vz, &a2).1
    };
    let (plus, minus) = (grad_at(h), grad_at(-h));
    close(hv_z, (plus.0 - minus.0) / (2.0 * h), "H v (z)");
    for i in 0..4 {
        close(hv_a[i], (plus.1[i] - minus.1[i]) / (2.0 * h), "H v (a)");
    }
}
