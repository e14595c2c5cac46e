//! Structs that calls return: a hand-written callee (`#[differentiable(custom)]`) returning a
//! struct, whose result a caller binds without a type and reads by field (`let q =
//! transform(..); q.x`), or reads at once (`transform(..).y`); an array field bound with its
//! type. Reverse mode and `jvp`, every derivative against central differences in f64.

#![allow(clippy::needless_range_loop)] // index loops are the language the macro differentiates

use stackgrad::differentiable;

mod common;
use common::{central, close};

/// A point in the plane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// `p` rotated by `theta` and moved by `(tx, ty)`: a rigid transform, its adjoint and tangent
/// written by hand.
#[differentiable(custom, jvp)]
pub fn transform(theta: f64, t: &[f64; 2], p: &[f64; 2]) -> Point {
    let (s, c) = theta.sin_cos();
    Point {
        x: c * p[0] - s * p[1] + t[0],
        y: s * p[0] + c * p[1] + t[1],
    }
}

#[derive(Clone, Debug, Default)]
pub struct TransformTape {}

impl TransformTape {
    pub const fn new() -> Self {
        TransformTape {}
    }
}

pub fn transform_forward(theta: f64, t: &[f64; 2], p: &[f64; 2], _: &mut TransformTape) -> Point {
    transform(theta, t, p)
}

#[allow(clippy::too_many_arguments)] // the four-item convention: one buffer per parameter
pub fn transform_adjoint(
    theta: f64,
    _t: &[f64; 2],
    p: &[f64; 2],
    _: &TransformTape,
    d: &Point,
    d_theta: &mut f64,
    d_t: &mut [f64; 2],
    d_p: &mut [f64; 2],
) {
    let (s, c) = theta.sin_cos();
    *d_theta += d.x * (-s * p[0] - c * p[1]) + d.y * (c * p[0] - s * p[1]);
    d_t[0] += d.x;
    d_t[1] += d.y;
    d_p[0] += c * d.x + s * d.y;
    d_p[1] += -s * d.x + c * d.y;
}

pub fn transform_jvp(
    theta: f64,
    t: &[f64; 2],
    p: &[f64; 2],
    t_theta: f64,
    t_t: &[f64; 2],
    t_p: &[f64; 2],
) -> (Point, Point) {
    let (s, c) = theta.sin_cos();
    let tangent = Point {
        x: t_theta * (-s * p[0] - c * p[1]) + c * t_p[0] - s * t_p[1] + t_t[0],
        y: t_theta * (c * p[0] - s * p[1]) + s * t_p[0] + c * t_p[1] + t_t[1],
    };
    (transform(theta, t, p), tangent)
}

/// The squared distance of a transformed point from a target, the result bound to one name
/// and read by field (`q.x` twice, through `sin` too).
#[differentiable(jvp)]
fn residual(theta: f64, t: &[f64; 2], p: &[f64; 2], target: &[f64; 2]) -> f64 {
    let q = transform(theta, t, p);
    let dx = q.x - target[0];
    let dy = q.y - target[1];
    dx * dx + dy * dy + 0.1 * q.x.sin()
}

/// The result bound to one name and read by field, then the name bound again to an element of
/// a parameter of the same struct, read by the same field names: those are the element's (the
/// call's `q.x` was still found after the second `let`, once that `let` ended the scan).
#[differentiable]
fn rebound(theta: f64, t: &[f64; 2], p: &[f64; 2], pts: &[Point; 2]) -> f64 {
    let q = transform(theta, t, p);
    let s = q.x * q.y;
    let q = &pts[1];
    s + q.x * theta + q.y
}

/// A field read from the call at once, and one field of the struct only.
#[differentiable(jvp)]
fn heights(theta: f64, t: &[f64; 2], p: &[f64; 2]) -> f64 {
    let top = transform(theta, t, p).y;
    top * transform(2.0 * theta, t, p).y
}

#[test]
fn a_name_bound_again_reads_its_own_fields() {
    let (t, p) = ([0.3, -0.2], [1.2, 0.7]);
    let pts = [Point { x: 2.0, y: 3.0 }, Point { x: 5.0, y: 7.0 }];
    let theta: f64 = 0.4;
    let (s, c) = theta.sin_cos();
    let q = [c * p[0] - s * p[1] + t[0], s * p[0] + c * p[1] + t[1]];
    let by_hand = q[0] * q[1] + 5.0 * theta + 7.0;
    close(rebound(theta, &t, &p, &pts), by_hand, "value");
    let (v, (d_theta, _, _, d_pts)) = rebound_grad(theta, &t, &p, &pts);
    close(v, by_hand, "rebound_grad's value");
    let f = |x: &[f64; 1]| rebound(x[0], &t, &p, &pts);
    close(d_theta, central(f, &[theta])[0], "d rebound / d theta");
    assert_eq!(d_pts[1], Point { x: theta, y: 1.0 });
    assert_eq!(d_pts[0], Point::default());
}

#[test]
fn a_struct_result_read_by_field_against_central_differences() {
    let (t, p, target) = ([0.3, -0.2], [1.2, 0.7], [0.5, 1.5]);
    let theta = 0.4;
    let (v, (d_theta, d_t, d_p, d_target)) = residual_grad(theta, &t, &p, &target);
    close(v, residual(theta, &t, &p, &target), "value");
    // Every input in one vector: theta, t, p, target.
    let x = [theta, t[0], t[1], p[0], p[1], target[0], target[1]];
    let f = |x: &[f64; 7]| residual(x[0], &[x[1], x[2]], &[x[3], x[4]], &[x[5], x[6]]);
    let fd = central(f, &x);
    let ours = [
        d_theta,
        d_t[0],
        d_t[1],
        d_p[0],
        d_p[1],
        d_target[0],
        d_target[1],
    ];
    for i in 0..7 {
        close(ours[i], fd[i], &format!("d residual / d input {i}"));
    }
    // Forward mode: one direction through every input.
    let dir = [0.3, -1.0, 0.5, 0.25, 2.0, -0.5, 1.0];
    let (value, tangent) = residual_jvp(
        theta,
        &t,
        &p,
        &target,
        dir[0],
        &[dir[1], dir[2]],
        &[dir[3], dir[4]],
        &[dir[5], dir[6]],
    );
    close(value, v, "jvp value");
    let along: f64 = (0..7).map(|i| fd[i] * dir[i]).sum();
    close(tangent, along, "residual's jvp");

    let x = [theta, t[0], t[1], p[0], p[1]];
    let f = |x: &[f64; 5]| heights(x[0], &[x[1], x[2]], &[x[3], x[4]]);
    let fd = central(f, &x);
    let (_, (d_theta, d_t, d_p)) = heights_grad(theta, &t, &p);
    let ours = [d_theta, d_t[0], d_t[1], d_p[0], d_p[1]];
    for i in 0..5 {
        close(ours[i], fd[i], &format!("d heights / d input {i}"));
    }
    let (_, tangent) = heights_jvp(theta, &t, &p, 1.0, &[0.0, 0.0], &[0.0, 1.0]);
    close(tangent, fd[0] + fd[4], "heights' jvp");
}

/// The mean of `x` and `x` less its mean: a struct with an array field, over any length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments<const N: usize> {
    pub mean: f64,
    pub centered: [f64; N],
    /// How many values are above the mean: an integer field, without derivative.
    pub above: usize,
}

impl<const N: usize> Default for Moments<N> {
    fn default() -> Self {
        Moments {
            mean: 0.0,
            centered: [0.0; N],
            above: 0,
        }
    }
}

#[differentiable(custom)]
pub fn moments<const N: usize>(x: &[f64; N]) -> Moments<N> {
    let mean = x.iter().sum::<f64>() / N as f64;
    let mut centered = [0.0; N];
    for i in 0..N {
        centered[i] = x[i] - mean;
    }
    let above = centered.iter().filter(|&&c| c > 0.0).count();
    Moments {
        mean,
        centered,
        above,
    }
}

#[derive(Clone, Debug, Default)]
pub struct MomentsTape<const N: usize> {}

impl<const N: usize> MomentsTape<N> {
    pub const fn new() -> Self {
        MomentsTape {}
    }
}

pub fn moments_forward<const N: usize>(x: &[f64; N], _: &mut MomentsTape<N>) -> Moments<N> {
    moments(x)
}

pub fn moments_adjoint<const N: usize>(
    _x: &[f64; N],
    _: &MomentsTape<N>,
    d: &Moments<N>,
    d_x: &mut [f64; N],
) {
    let sum: f64 = d.centered.iter().sum();
    for i in 0..N {
        d_x[i] += (d.mean - sum) / N as f64 + d.centered[i];
    }
}

/// The mean times the sum of squared deviations (halved where one value is above the mean):
/// the const-generic callee called without its constant named, its array field bound with its
/// type, its integer field read in a condition only.
#[differentiable]
fn spread(x: &[f64; 4]) -> f64 {
    let m = moments(x);
    let c: [f64; 4] = m.centered;
    let mut s = 0.0;
    for i in 0..4 {
        s += c[i] * c[i];
    }
    if m.above == 1 {
        0.5 * m.mean * s
    } else {
        m.mean * s
    }
}

/// Struct results in a loop and in both branches of an `if` on one of their fields.
#[differentiable]
fn swept(theta: f64, t: &[f64; 2], p: &[f64; 2]) -> f64 {
    let mut acc = 0.0;
    for k in 0..3 {
        let q = transform(theta * (k as f64 + 1.0), t, p);
        if q.x > 0.0 {
            acc += q.y * q.x;
        } else {
            acc -= q.y.sin();
        }
    }
    acc
}

#[test]
fn struct_results_in_a_loop_and_a_condition_against_central_differences() {
    let x = [1.1, -0.3, 0.4, 0.2, -0.6];
    let f = |x: &[f64; 5]| swept(x[0], &[x[1], x[2]], &[x[3], x[4]]);
    let fd = central(f, &x);
    let (v, (d_theta, d_t, d_p)) = swept_grad(x[0], &[x[1], x[2]], &[x[3], x[4]]);
    close(v, f(&x), "value");
    let ours = [d_theta, d_t[0], d_t[1], d_p[0], d_p[1]];
    for i in 0..5 {
        close(ours[i], fd[i], &format!("d swept / d input {i}"));
    }
}

#[test]
fn a_struct_result_with_an_array_field_against_central_differences() {
    // One value above the mean, then two.
    for x in [[1.0, 2.0, 8.0, 0.5], [1.0, 2.0, 4.0, 3.0]] {
        let (v, d_x) = spread_grad(&x);
        close(v, spread(&x), "value");
        let fd = central(spread, &x);
        for i in 0..4 {
            close(d_x[i], fd[i], &format!("d spread / d x{i}"));
        }
    }
}
