//! A user's `#[allow(..)]` on a differentiated function, method or `impl` block covers the items
//! generated from it, which repeat its names: this file denies the lints it allows, so it
//! compiles only if each allowance reaches every generated item.

#![deny(non_snake_case, unused_braces)]

use stackgrad::differentiable;

/// A rotation `R` applied to a point `X`, squared norm: matrix names in capitals, as vision and
/// robotics code writes them.
#[differentiable(jvp, hvp)]
#[allow(non_snake_case)]
fn squared_image(R: &[f64; 9], X: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let Ri = R[3 * i] * X[0] + R[3 * i + 1] * X[1] + R[3 * i + 2] * X[2];
        s += Ri * Ri;
    }
    s
}

/// The allowance written before the macro's attribute.
#[allow(non_snake_case)]
#[differentiable(jvp)]
fn product(P: &[f64; 2]) -> f64 {
    P[0] * P[1]
}

#[derive(Default, Debug)]
struct Camera {
    f: f64,
}

/// The allowance on the method.
#[differentiable(hvp)]
impl Camera {
    #[allow(non_snake_case)]
    #[wrt(self, X)]
    fn cost(&self, X: &[f64; 3]) -> f64 {
        self.f * X[0] * X[1] + X[2]
    }
}

#[derive(Default, Debug)]
struct Lens {
    k: f64,
}

/// The allowance on the block.
#[differentiable(jvp)]
#[allow(non_snake_case)]
impl Lens {
    #[wrt(self, X)]
    fn cost(&self, X: &[f64; 2]) -> f64 {
        self.k * X[0].sin() * X[1]
    }
}

/// The allowance inside the body (`#![allow(..)]`).
#[differentiable(jvp)]
fn inner_allowance(V: &[f64; 2]) -> f64 {
    #![allow(non_snake_case)]
    V[0].sin() * V[1]
}

#[derive(Default, Debug)]
struct Prism {
    n: f64,
}

/// The allowance inside the block (`#![allow(..)]`).
#[differentiable(jvp)]
impl Prism {
    #![allow(non_snake_case)]
    #[wrt(self, X)]
    fn cost(&self, X: &[f64; 2]) -> f64 {
        self.n * X[0] * X[0] + X[1]
    }
}

/// A length in braces, which rustc lints (and code generated from a macro's `{ $n }` writes).
#[differentiable(jvp)]
#[allow(unused_braces)]
fn braced<const N: usize>(a: &[f64; { N }]) -> f64 {
    let mut s = 0.0;
    for v in a.iter() {
        s += v * v * v;
    }
    s
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
        "{what}: {a} against {b}"
    );
}

#[test]
fn allowed_capital_names_in_a_function() {
    let (r, x) = (
        [0.3, -1.2, 0.5, 0.9, 0.4, -0.7, 1.1, 0.2, 0.6],
        [0.8, -0.5, 1.3],
    );
    let (v, (d_r, d_x)) = squared_image_grad(&r, &x);
    // Closed forms: with y = R X, d/dX = 2 R^T y, d/dR = 2 y X^T.
    let y: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|j| r[3 * i + j] * x[j]).sum())
        .collect();
    close(v, y.iter().map(|y| y * y).sum(), "value");
    for j in 0..3 {
        let want: f64 = (0..3).map(|i| 2.0 * r[3 * i + j] * y[i]).sum();
        close(d_x[j], want, "d_X");
        for i in 0..3 {
            close(d_r[3 * i + j], 2.0 * y[i] * x[j], "d_R");
        }
    }
    let d_p = product_grad(&[1.5, -2.0]).1;
    close(d_p[0], -2.0, "d_P[0]");
    close(d_p[1], 1.5, "d_P[1]");
}

#[test]
fn allowed_capital_names_in_methods() {
    let x = [0.7, -1.1, 0.4];
    let (_, (d_cam, d_x)) = Camera { f: 2.5 }.cost_grad(&x);
    close(d_cam.f, x[0] * x[1], "d_f");
    close(d_x[0], 2.5 * x[1], "d_X[0]");
    close(d_x[1], 2.5 * x[0], "d_X[1]");
    close(d_x[2], 1.0, "d_X[2]");
    let (_, (d_lens, d_x)) = Lens { k: 0.6 }.cost_grad(&[0.3, 2.0]);
    close(d_lens.k, 0.3_f64.sin() * 2.0, "d_k");
    close(d_x[0], 0.6 * 0.3_f64.cos() * 2.0, "d_X[0]");
    close(d_x[1], 0.6 * 0.3_f64.sin(), "d_X[1]");
}

#[test]
fn allowed_inside_the_body_or_the_block() {
    let (_, d_v) = inner_allowance_grad(&[0.4, -1.5]);
    close(d_v[0], 0.4_f64.cos() * -1.5, "d_V[0]");
    close(d_v[1], 0.4_f64.sin(), "d_V[1]");
    let (_, (d_prism, d_x)) = Prism { n: 1.5 }.cost_grad(&[0.8, 2.0]);
    close(d_prism.n, 0.64, "d_n");
    close(d_x[0], 2.0 * 1.5 * 0.8, "d_X[0]");
    close(d_x[1], 1.0, "d_X[1]");
}

#[test]
fn allowed_braces_around_a_length() {
    let (v, d_a) = braced_grad(&[0.5, -2.0, 1.5]);
    close(v, 0.125 - 8.0 + 3.375, "value");
    for (d, a) in d_a.iter().zip([0.5, -2.0, 1.5]) {
        close(*d, 3.0 * a * a, "d_a");
    }
}
