//! `#[differentiable] impl Model { .. }`: a model as a struct with methods. Every gradient is
//! checked against central finite differences of the user's own method (`common::GradCheck`).

#![allow(clippy::needless_range_loop)] // index loops are how the models are written

mod common;

use common::{GradCheck, cube};
use stackgrad::differentiable;

#[path = "models/mlp.rs"]
mod mlp;
use mlp::{HIDDEN, INPUTS, Mlp, PARAMS};

#[differentiable]
impl Mlp {
    /// Not differentiated (no `&self`): stays as written.
    pub fn zeros() -> Self {
        Mlp::default()
    }

    /// Not differentiated (an integer result).
    pub fn parameters(&self) -> usize {
        PARAMS
    }

    /// The hidden layer: an array result, in the parameters and the input.
    #[wrt(self, x)]
    pub fn hidden(&self, x: &[f64; INPUTS]) -> [f64; HIDDEN] {
        let mut h = [0.0; HIDDEN];
        for i in 0..HIDDEN {
            let mut z = self.b1[i];
            for j in 0..INPUTS {
                z += self.w1[i][j] * x[j];
            }
            h[i] = z.tanh();
        }
        h
    }

    /// The output, through `self.hidden(x)`; differentiated in the input too, so that
    /// `loss_everywhere` and `saliency` can pass it an input that carries a derivative.
    #[wrt(self, x)]
    pub fn predict(&self, x: &[f64; INPUTS]) -> f64 {
        let h: [f64; HIDDEN] = self.hidden(x);
        let mut out = self.b2;
        for i in 0..HIDDEN {
            out += self.w2[i] * h[i];
        }
        out
    }

    /// Squared error, through `Self::predict(self, x)`.
    pub fn loss(&self, x: &[f64; INPUTS], y: f64) -> f64 {
        let e = Self::predict(self, x) - y;
        0.5 * e * e
    }

    /// The same loss, differentiated with respect to the input and the target too.
    #[wrt(self, x, y)]
    pub fn loss_everywhere(&self, x: &[f64; INPUTS], y: f64) -> f64 {
        let e = self.predict(x) - y;
        0.5 * e * e
    }

    /// Only the input: the model is data here.
    #[wrt(x)]
    pub fn saliency(&self, x: &[f64; INPUTS]) -> f64 {
        self.predict(x).sin()
    }
}

/// The same network as a free function: what every method must agree with.
fn reference_predict(p: &Mlp, x: &[f64; INPUTS]) -> f64 {
    let mut out = p.b2;
    for i in 0..HIDDEN {
        let mut z = p.b1[i];
        for j in 0..INPUTS {
            z += p.w1[i][j] * x[j];
        }
        out += p.w2[i] * z.tanh();
    }
    out
}

fn reference_loss(p: &Mlp, x: &[f64; INPUTS], y: f64) -> f64 {
    let e = reference_predict(p, x) - y;
    0.5 * e * e
}

type Point = (Mlp, [f64; INPUTS], f64);

fn points() -> Vec<[f64; PARAMS + INPUTS + 1]> {
    cube(71, 20, -1.5, 1.5)
}

#[test]
fn primal_methods_stay_as_written() {
    let (p, x, y): Point = common::unflatten(&points()[0]);
    assert_eq!(Mlp::zeros(), Mlp::default());
    assert_eq!(p.parameters(), PARAMS);
    assert_eq!(p.loss(&x, y), reference_loss(&p, &x, y));
    assert_eq!(p.loss_everywhere(&x, y), reference_loss(&p, &x, y));
}

#[test]
fn loss_grad_is_the_gradient_in_self() {
    // The input and the target are data: the points move the parameters alone.
    let (_, x, y): Point = common::unflatten(&points()[0]);
    GradCheck::new("loss").flat(
        &cube::<PARAMS>(73, 20, -1.5, 1.5),
        |p: &Mlp| reference_loss(p, &x, y),
        |p: &Mlp| p.loss_grad(&x, y),
    );
}

#[test]
fn wrt_widens_to_the_input_and_the_target() {
    GradCheck::new("loss_everywhere").flat(
        &points(),
        |(p, x, y): &Point| reference_loss(p, x, *y),
        |(p, x, y): &Point| p.loss_everywhere_grad(x, *y),
    );
}

#[test]
fn wrt_narrows_to_the_input() {
    let points: Vec<[f64; INPUTS]> = cube(72, 20, -1.5, 1.5);
    let (p, _, _): Point = common::unflatten(&self::points()[1]);
    GradCheck::new("saliency").flat(
        &points,
        |x: &[f64; INPUTS]| reference_predict(&p, x).sin(),
        |x: &[f64; INPUTS]| p.saliency_grad(x),
    );
}

#[test]
fn forward_and_adjoint_accumulate_like_a_free_function() {
    let (p, x, y): Point = common::unflatten(&points()[2]);
    let mut tape = MlpLossTape::new();
    let value = p.loss_forward(&x, y, &mut tape);
    assert_eq!(value, reference_loss(&p, &x, y));
    // Adjoints add into the buffer: twice with `d_out = 1` is once with `d_out = 2`.
    let mut twice = Mlp::default();
    p.loss_adjoint(&x, y, &tape, 1.0, &mut twice);
    p.loss_adjoint(&x, y, &tape, 1.0, &mut twice);
    let mut once = Mlp::default();
    p.loss_adjoint(&x, y, &tape, 2.0, &mut once);
    assert_eq!(twice, once);
    assert_eq!(once.b2, 2.0 * p.loss_grad(&x, y).1.b2);
    assert!(MlpLossTape::BYTES > 0 && !MlpLossTape::FIELDS.is_empty());
}

#[test]
fn array_method_adjoint_is_a_vector_jacobian_product() {
    let (p, x, _): Point = common::unflatten(&points()[3]);
    let weights = [0.5, -1.0, 2.0, 0.25];
    let mut tape = MlpHiddenTape::new();
    let h = p.hidden_forward(&x, &mut tape);
    assert_eq!(h, p.hidden(&x));
    let (mut d_p, mut d_x) = (Mlp::default(), [0.0; INPUTS]);
    p.hidden_adjoint(&x, &tape, &weights, &mut d_p, &mut d_x);
    assert!(d_x.iter().all(|d| d.is_finite() && *d != 0.0));
    // Against central differences of `weights · hidden` in each parameter.
    let flat: [f64; PARAMS] = common::flatten(&p);
    let got: [f64; PARAMS] = common::flatten(&d_p);
    for k in 0..PARAMS {
        let step = 1e-6;
        let at = |s: f64| {
            let mut q = flat;
            q[k] += s;
            let q: Mlp = common::unflatten(&q);
            common::weighted(&weights, &q.hidden(&x))
        };
        let fd = (at(step) - at(-step)) / (2.0 * step);
        common::assert_close(&format!("d hidden / d p[{k}]"), got[k], fd, 1e-6);
    }
}

/// Tuple and array results of methods: the adjoint takes the output's cotangent (a tuple by
/// value, an array by reference); no `_grad` for them, as for free functions.
mod outputs {
    use stackgrad::differentiable;

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Polar {
        pub r: f64,
    }

    #[differentiable]
    impl Polar {
        /// `(r cos t, r sin t)`, in `r` and `t`.
        #[wrt(self, t)]
        pub fn point(&self, t: f64) -> (f64, f64) {
            (self.r * t.cos(), self.r * t.sin())
        }

        /// `[r, r², r³]`.
        pub fn powers(&self) -> [f64; 3] {
            [self.r, self.r * self.r, self.r * self.r * self.r]
        }

        /// A method calling a method that returns a tuple: destructured, bound to one name
        /// and read by element, and read at once.
        #[wrt(self, t)]
        pub fn spread(&self, t: f64) -> f64 {
            let (x, y) = self.point(t);
            let q = self.point(2.0 * t);
            x * y + q.0 * q.1.sin() + self.point(t).1
        }
    }

    #[test]
    fn a_method_reading_a_methods_tuple_against_central_differences() {
        let f = |v: &[f64; 2]| Polar { r: v[0] }.spread(v[1]);
        let v = [1.5, 0.7];
        let fd = crate::common::central(f, &v);
        let (value, (d_p, d_t)) = Polar { r: v[0] }.spread_grad(v[1]);
        crate::common::close(value, f(&v), "value");
        crate::common::close(d_p.r, fd[0], "d spread / d r");
        crate::common::close(d_t, fd[1], "d spread / d t");
    }

    #[test]
    fn tuple_and_array_adjoints_against_the_closed_form() {
        let p = Polar { r: 1.5 };
        let t = 0.7_f64;
        let mut tape = PolarPointTape::new();
        assert_eq!(p.point_forward(t, &mut tape), p.point(t));
        // Cotangent (1, 2): d/dr = cos t + 2 sin t, d/dt = r (-sin t + 2 cos t).
        let (mut d_p, mut d_t) = (Polar::default(), 0.0);
        p.point_adjoint(t, &tape, (1.0, 2.0), &mut d_p, &mut d_t);
        assert!((d_p.r - (t.cos() + 2.0 * t.sin())).abs() < 1e-14);
        assert!((d_t - p.r * (-t.sin() + 2.0 * t.cos())).abs() < 1e-14);
        let mut tape = PolarPowersTape::new();
        assert_eq!(p.powers_forward(&mut tape), p.powers());
        assert_eq!(p.powers(), [1.5, 2.25, 3.375]);
        // Cotangent (1, 1, 1): d/dr = 1 + 2 r + 3 r².
        let mut d_p = Polar::default();
        p.powers_adjoint(&tape, &[1.0, 1.0, 1.0], &mut d_p);
        assert!((d_p.r - (1.0 + 2.0 * 1.5 + 3.0 * 2.25)).abs() < 1e-14);
    }
}

/// A const-generic model in forward mode and second order: `hvp` on the block gives each method
/// `_jvp`, with the tangent of `self` after the primal arguments, and `_hvp(.., v_self, v_x..)`,
/// returning the value, the gradient and the Hessian-vector product.
mod generic_forward_and_second_order {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Debug, PartialEq, stackgrad::Parameters)]
    pub struct Poly<const N: usize> {
        pub c: [f64; N],
    }

    #[differentiable(hvp)]
    impl<const N: usize> Poly<N> {
        /// `Σ c_k x^k` by Horner's rule.
        #[wrt(self, x)]
        pub fn eval(&self, x: f64) -> f64 {
            let mut acc = 0.0;
            for k in 0..N {
                acc = acc * x + self.c[N - 1 - k];
            }
            acc
        }

        /// `eval(x)²`, in the coefficients alone.
        pub fn energy(&self, x: f64) -> f64 {
            let p = self.eval(x);
            p * p
        }
    }

    #[test]
    fn gradient_and_tangent_against_the_closed_form() {
        for point in cube::<5>(74, 20, -1.2, 1.2) {
            let poly = Poly {
                c: [point[0], point[1], point[2], point[3]],
            };
            let x = point[4];
            let p: f64 = (0..4).map(|k| poly.c[k] * x.powi(k as i32)).sum();
            // d energy / d c_k = 2 p x^k.
            let (value, d_poly) = poly.energy_grad(x);
            assert_close("energy", value, p * p, 1e-12);
            for k in 0..4 {
                assert_close(
                    "d energy / d c_k",
                    d_poly.c[k],
                    2.0 * p * x.powi(k as i32),
                    1e-12,
                );
            }
            // d eval / d x = Σ k c_k x^(k-1); along (t_c, t_x).
            let t_c = Poly {
                c: [0.5, -1.0, 0.25, 2.0],
            };
            let t_x = -0.75;
            let dx: f64 = (1..4)
                .map(|k| k as f64 * poly.c[k] * x.powi(k as i32 - 1))
                .sum();
            let along: f64 = (0..4).map(|k| t_c.c[k] * x.powi(k as i32)).sum::<f64>() + dx * t_x;
            let (v, t) = poly.eval_jvp(x, &t_c, t_x);
            assert_eq!(v, poly.eval(x));
            assert_close("eval tangent", t, along, 1e-12);
            let (_, t) = poly.energy_jvp(x, &t_c);
            let along_c: f64 = (0..4).map(|k| t_c.c[k] * x.powi(k as i32)).sum();
            assert_close("energy tangent", t, 2.0 * p * along_c, 1e-12);
        }
    }

    #[test]
    fn hessian_vector_products_against_the_closed_forms() {
        for point in cube::<5>(75, 20, -1.2, 1.2) {
            let s = Poly {
                c: [point[0], point[1], point[2], point[3]],
            };
            let x = point[4];
            let pow = |k: usize| x.powi(k as i32);
            let p: f64 = (0..4).map(|k| s.c[k] * pow(k)).sum();
            let v = Poly {
                c: [0.5, -1.0, 0.25, 2.0],
            };
            let v_x = -0.75;

            // energy = p²: gradient 2 p x^k, Hessian 2 x^j x^k.
            let (value, grad, hv) = s.energy_hvp(x, &v);
            assert_close("energy", value, p * p, 1e-12);
            let along: f64 = (0..4).map(|j| v.c[j] * pow(j)).sum();
            for k in 0..4 {
                assert_close("d energy / d c_k", grad.c[k], 2.0 * p * pow(k), 1e-12);
                assert_close("(H v)_k of energy", hv.c[k], 2.0 * pow(k) * along, 1e-12);
            }

            // eval in (c, x): d²/dc² = 0, d²/dc_k dx = k x^(k-1), d²/dx² = Σ k (k-1) c_k x^(k-2).
            let (value, (grad_c, grad_x), (hv_c, hv_x)) = s.eval_hvp(x, &v, v_x);
            assert_eq!(value, s.eval(x));
            let dx: f64 = (1..4).map(|k| k as f64 * s.c[k] * pow(k - 1)).sum();
            let dxx: f64 = (2..4)
                .map(|k| (k * (k - 1)) as f64 * s.c[k] * pow(k - 2))
                .sum();
            assert_close("d eval / d x", grad_x, dx, 1e-12);
            for k in 0..4 {
                assert_close("d eval / d c_k", grad_c.c[k], pow(k), 1e-12);
                let cross = if k == 0 { 0.0 } else { k as f64 * pow(k - 1) };
                assert_close("(H v)_c_k of eval", hv_c.c[k], cross * v_x, 1e-12);
            }
            let cross: f64 = (1..4).map(|k| k as f64 * pow(k - 1) * v.c[k]).sum();
            assert_close("(H v)_x of eval", hv_x, cross + dxx * v_x, 1e-12);
        }
    }
}

/// Under `hvp`, a method calls another that does not differentiate every argument: data (`x`)
/// and a float literal (`scale`). The tangent program calls the callee's `_hvp_jvp`, whose
/// adjoint takes adjoints for its differentiated parameters and tangents only (the call passed
/// one for each float argument before: "takes 7 arguments but 8 were supplied").
mod second_order_calls_with_data_arguments {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Lin {
        pub w: [f64; 2],
    }

    #[differentiable(hvp)]
    impl Lin {
        pub fn predict(&self, x: &[f64; 2], scale: f64) -> f64 {
            (self.w[0] * x[0] + self.w[1] * x[1]).tanh() * scale
        }

        pub fn loss(&self, x: &[f64; 2], y: f64) -> f64 {
            let e = self.predict(x, 2.0) - y;
            e * e
        }

        #[wrt(self, x)]
        pub fn predict_in_x(&self, x: &[f64; 2], scale: f64) -> f64 {
            (self.w[0] * x[0] + self.w[1] * x[1]).tanh() * scale
        }

        #[wrt(self, x)]
        pub fn loss_in_x(&self, x: &[f64; 2], y: f64) -> f64 {
            let e = self.predict_in_x(x, 2.0) - y;
            e * e
        }
    }

    fn dot(a: &[f64; 2], b: &[f64; 2]) -> f64 {
        a[0] * b[0] + a[1] * b[1]
    }

    #[test]
    fn hessian_vector_products_against_the_closed_forms() {
        let s = 2.0;
        for p in cube::<7>(76, 20, -1.0, 1.0) {
            let m = Lin { w: [p[0], p[1]] };
            let x = [p[2], p[3]];
            let y = p[4];
            let v = Lin { w: [p[5], p[6]] };
            let v_x = [0.5 * p[6] - 0.25, 0.75 - p[5]];
            // L = (s tanh z - y)², z = w·x: ∇_w L = g x, ∇_x L = g w, g = 2 e s sech² z;
            // dg = 2 s² sech⁴ z dz - 4 e s tanh z sech² z dz.
            let z = dot(&m.w, &x);
            let (th, sech2) = (z.tanh(), 1.0 - z.tanh() * z.tanh());
            let e = s * th - y;
            let g = 2.0 * e * s * sech2;
            let dg = |dz: f64| (2.0 * s * s * sech2 * sech2 - 4.0 * e * s * th * sech2) * dz;

            let (value, grad, hv) = m.loss_hvp(&x, y, &v);
            assert_close("loss", value, e * e, 1e-12);
            let dg_w = dg(dot(&x, &v.w));
            for k in 0..2 {
                assert_close("d loss / d w", grad.w[k], g * x[k], 1e-12);
                assert_close("(H v)_w", hv.w[k], x[k] * dg_w, 1e-12);
            }

            let (value, (grad_w, grad_x), (hv_w, hv_x)) = m.loss_in_x_hvp(&x, y, &v, &v_x);
            assert_close("loss_in_x", value, e * e, 1e-12);
            let dg_wx = dg(dot(&x, &v.w) + dot(&m.w, &v_x));
            for k in 0..2 {
                assert_close("d loss / d w", grad_w.w[k], g * x[k], 1e-12);
                assert_close("d loss / d x", grad_x[k], g * m.w[k], 1e-12);
                assert_close("(H v)_w", hv_w.w[k], x[k] * dg_wx + g * v_x[k], 1e-12);
                assert_close("(H v)_x", hv_x[k], m.w[k] * dg_wx + g * v.w[k], 1e-12);
            }
        }
    }
}

/// `hvp` on an `impl` block whose methods leave a struct out of `#[wrt(..)]`: a data struct
/// passed on (`self.predict(d)`), or `self` itself (`self.scaled(x)` in methods differentiating
/// `x` only). The callee's tangent program takes a zero struct for it, which the caller passes
/// on (this failed to compile with E0061 before).
mod second_order_calls_with_struct_data {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Lin {
        pub w: [f64; 2],
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Sample {
        pub x: [f64; 2],
        pub y: f64,
    }

    #[differentiable(hvp)]
    impl Lin {
        #[wrt(self)]
        pub fn predict(&self, d: &Sample) -> f64 {
            (self.w[0] * d.x[0] + self.w[1] * d.x[1]).tanh()
        }

        #[wrt(self)]
        pub fn loss(&self, d: &Sample) -> f64 {
            let e = self.predict(d) - d.y;
            e * e
        }

        #[wrt(x)]
        pub fn scaled(&self, x: f64) -> f64 {
            (self.w[0] * x).sin()
        }

        #[wrt(x)]
        pub fn energy(&self, x: f64) -> f64 {
            let e = self.scaled(x) * x;
            e * e
        }
    }

    #[test]
    fn hessian_vector_products_against_the_closed_forms() {
        for p in cube::<7>(77, 20, -1.0, 1.0) {
            let m = Lin { w: [p[0], p[1]] };
            let d = Sample {
                x: [p[2], p[3]],
                y: p[4],
            };
            let v = Lin { w: [p[5], p[6]] };
            // L = (tanh z - y)², z = w·x: ∇_w L = g x, g = 2 e sech² z, H v = x dg(x·v),
            // dg = (2 sech⁴ z - 4 e tanh z sech² z) dz.
            let z = m.w[0] * d.x[0] + m.w[1] * d.x[1];
            let (th, sech2) = (z.tanh(), 1.0 - z.tanh() * z.tanh());
            let e = th - d.y;
            let g = 2.0 * e * sech2;
            let dz = d.x[0] * v.w[0] + d.x[1] * v.w[1];
            let dg = (2.0 * sech2 * sech2 - 4.0 * e * th * sech2) * dz;
            let (value, grad, hv) = m.loss_hvp(&d, &v);
            assert_close("loss", value, e * e, 1e-12);
            for k in 0..2 {
                assert_close("d loss / d w", grad.w[k], g * d.x[k], 1e-12);
                assert_close("(H v)_w", hv.w[k], d.x[k] * dg, 1e-12);
            }

            // E = (x sin(a x))²: E' = 2 u u', u = x sin(a x), u' = sin(a x) + a x cos(a x),
            // u'' = 2 a cos(a x) - a² x sin(a x), E'' = 2 (u'² + u u'').
            let (a, x, t) = (m.w[0], p[2], p[5]);
            let u = x * (a * x).sin();
            let du = (a * x).sin() + a * x * (a * x).cos();
            let ddu = 2.0 * a * (a * x).cos() - a * a * x * (a * x).sin();
            let (value, grad, hv) = m.energy_hvp(x, t);
            assert_close("energy", value, u * u, 1e-12);
            assert_close("d energy / d x", grad, 2.0 * u * du, 1e-12);
            assert_close("(H v)_x", hv, 2.0 * (du * du + u * ddu) * t, 1e-12);
        }
    }
}

/// `hvp` on an `impl` block where a method only passes on a fieldless enum by reference (taken
/// for a struct, so it has a zero struct for it) to a method that matches on it (which takes
/// none): each caller passes the zero structs its callee takes, no more (E0061 with the first
/// version of the fix above; from a review).
mod second_order_enum_passed_on {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub enum Mode {
        #[default]
        Fast,
        Slow,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct M {
        pub w: f64,
    }

    #[differentiable(hvp)]
    impl M {
        #[wrt(self, x)]
        pub fn leaf(&self, mode: &Mode, x: f64) -> f64 {
            match mode {
                Mode::Fast => (self.w * x).sin(),
                Mode::Slow => self.w * x * x,
            }
        }

        #[wrt(self, x)]
        pub fn top(&self, mode: &Mode, x: f64) -> f64 {
            self.leaf(mode, x) * x
        }
    }

    #[test]
    fn hessian_vector_products_against_the_closed_forms() {
        for p in cube::<4>(78, 12, -1.0, 1.0) {
            let (w, x, vw, vx) = (p[0], p[1], p[2], p[3]);
            let m = M { w };
            // Fast: T = x sin(w x). T_w = x² cos, T_x = sin + w x cos,
            // T_ww = -x³ sin, T_wx = 2 x cos - w x² sin, T_xx = 2 w cos - w² x sin.
            let (s, c) = (w * x).sin_cos();
            let (value, (gw, gx), (hw, hx)) = m.top_hvp(&Mode::Fast, x, &M { w: vw }, vx);
            assert_close("fast", value, x * s, 1e-12);
            assert_close("fast T_w", gw.w, x * x * c, 1e-12);
            assert_close("fast T_x", gx, s + w * x * c, 1e-12);
            let (tww, twx, txx) = (
                -x * x * x * s,
                2.0 * x * c - w * x * x * s,
                2.0 * w * c - w * w * x * s,
            );
            assert_close("fast (H v)_w", hw.w, tww * vw + twx * vx, 1e-12);
            assert_close("fast (H v)_x", hx, twx * vw + txx * vx, 1e-12);
            // Slow: T = w x³. T_w = x³, T_x = 3 w x², T_ww = 0, T_wx = 3 x², T_xx = 6 w x.
            let (value, (gw, gx), (hw, hx)) = m.top_hvp(&Mode::Slow, x, &M { w: vw }, vx);
            assert_close("slow", value, w * x * x * x, 1e-12);
            assert_close("slow T_w", gw.w, x * x * x, 1e-12);
            assert_close("slow T_x", gx, 3.0 * w * x * x, 1e-12);
            assert_close("slow (H v)_w", hw.w, 3.0 * x * x * vx, 1e-12);
            assert_close(
                "slow (H v)_x",
                hx,
                3.0 * x * x * vw + 6.0 * w * x * vx,
                1e-12,
            );
        }
    }
}

/// A generic `impl` block whose methods call each other: the call goes to the hidden function
/// with a turbofish (`__g_inner::<N>`), which the caller now knows for a method of its block
/// (before, it was taken for an unknown callee and got an extra adjoint argument: E0061).
mod generic_block_calls {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Debug, PartialEq)]
    pub struct G<const N: usize> {
        pub w: [f64; N],
    }

    impl<const N: usize> Default for G<N> {
        fn default() -> Self {
            G { w: [0.0; N] }
        }
    }

    #[differentiable(hvp)]
    impl<const N: usize> G<N> {
        pub fn inner(&self, x: f64) -> f64 {
            let mut s = 0.0;
            for i in 0..N {
                s += self.w[i] * x;
            }
            s
        }

        pub fn outer(&self, x: f64) -> f64 {
            let s = self.inner(x);
            s * s
        }
    }

    #[test]
    fn gradients_and_hessian_vector_products_against_closed_forms() {
        for p in cube::<5>(79, 12, -1.0, 1.0) {
            let g = G { w: [p[0], p[1]] };
            let (x, v) = (p[2], G { w: [p[3], p[4]] });
            // O = (x Σw)²: ∇_w O = 2 x² Σw (each), H v = 2 x² Σv (each).
            let sum = g.w[0] + g.w[1];
            let (value, grad) = g.outer_grad(x);
            assert_close("outer", value, (x * sum).powi(2), 1e-12);
            let (_, _, hv) = g.outer_hvp(x, &v);
            for k in 0..2 {
                assert_close("d outer / d w", grad.w[k], 2.0 * x * x * sum, 1e-12);
                assert_close("(H v)_w", hv.w[k], 2.0 * x * x * (v.w[0] + v.w[1]), 1e-12);
            }
        }
    }
}
