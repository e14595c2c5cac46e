//! Differentiable functions in a `#![no_std]` crate with no dependency but the macro.
//!
//! `core` has no `sqrt` or `exp` for floats; a `no_std` user brings them with a trait (here a
//! small Newton-iteration square root), and the adjoint resolves the same methods.
#![no_std]

#[cfg(test)]
extern crate std;

use autodiff_macros::differentiable;

/// A float square root for `no_std`, as a libm binding would provide it.
pub trait Sqrt {
    fn sqrt(self) -> Self;
}

impl Sqrt for f64 {
    fn sqrt(self) -> f64 {
        if self <= 0.0 {
            return 0.0;
        }
        let mut r = if self > 1.0 { self } else { 1.0 };
        for _ in 0..60 {
            r = 0.5 * (r + self / r);
        }
        r
    }
}

/// Huber loss: quadratic near 0, linear beyond `delta`; methods from `core` only.
#[differentiable(hvp)]
pub fn huber(r: f64, delta: f64) -> f64 {
    let a = r.abs();
    if a <= delta {
        return 0.5 * r * r;
    }
    delta * (a - 0.5 * delta)
}

/// Calls, `max`/`min`/`clamp`/`recip`, and a trait-provided `sqrt`.
#[differentiable(hvp)]
pub fn norm_clamped(x: f64, y: f64) -> f64 {
    let n = (x * x + y * y).sqrt();
    let h = huber(n, 1.0);
    h.max(0.1) + x.clamp(-1.0, 1.0) * (2.0 + y * y).recip() - y.min(0.2)
}

/// A tuple output in `f32`, differentiated with respect to the point only.
#[differentiable(wrt(x, y), jvp)]
pub fn rotate(x: f32, y: f32, c: f32, s: f32) -> (f32, f32) {
    (c * x - s * y, s * x + c * y)
}

/// Affine layer parameters: a struct parameter, nested in [`Net`] as an array of structs.
#[derive(Clone, Debug, Default)]
pub struct Layer {
    pub w: [[f64; 2]; 2],
    pub b: [f64; 2],
}

/// Two layers and an output scale.
#[derive(Clone, Debug, Default)]
pub struct Net {
    pub layers: [Layer; 2],
    pub scale: f64,
}

/// A const-generic callee.
#[differentiable(hvp)]
pub fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b.iter()) {
        s += x * y;
    }
    s
}

/// Arrays, struct fields, an array of structs and calls in a loop, without `std` or `alloc`.
#[differentiable(hvp)]
pub fn net(p: &Net, x: &[f64; 2]) -> f64 {
    let mut h = [x[0], x[1]];
    let mut out = 0.0;
    for k in 0..2 {
        let z = [
            p.layers[k].b[0] + dot::<2>(&p.layers[k].w[0], &h),
            p.layers[k].b[1] + dot::<2>(&p.layers[k].w[1], &h),
        ];
        h[0] = huber(z[0], 1.0);
        h[1] = huber(z[1], 1.0);
        out += h[0] * h[1];
    }
    p.scale * out
}

/// Methods: `#[differentiable] impl`, one method calling another.
#[differentiable(jvp)]
impl Layer {
    /// One output of the layer, in the parameters and the input.
    #[wrt(self, x)]
    pub fn unit(&self, k: usize, x: &[f64; 2]) -> f64 {
        self.w[k][0] * x[0] + self.w[k][1] * x[1] + self.b[k]
    }

    /// The squared outputs, in the parameters alone.
    pub fn energy(&self, x: &[f64; 2]) -> f64 {
        let a = self.unit(0, x);
        let b = self.unit(1, x);
        a * a + b * b
    }
}

/// Nested loops, a triangular bound, `rev` and a running maximum (a branch in a loop).
#[differentiable(hvp)]
pub fn triangle_max(x: &[f64; 4]) -> f64 {
    let mut best = x[3];
    let mut s = 0.0;
    for i in (0..4).rev() {
        if x[i] > best {
            best = x[i];
        }
        for j in 0..i {
            s += x[i] * x[j] * best;
        }
    }
    s
}

/// `#[record(..)]`: the tape keeps an `f32` array in bfloat16 and an `f64` value in `f32`,
/// narrowed and widened with `core` alone.
#[differentiable]
#[allow(clippy::needless_range_loop)] // index loops are what the macro differentiates
pub fn narrowed(x: &[f32; 4], y: f64) -> f64 {
    #[record(bf16)]
    let h: [f32; 4] = [x[0] * x[1], x[1] * x[2], x[2] * x[3], x[3] * x[0]];
    #[record(f32)]
    let g = y * y;
    let mut s = 0.0;
    for i in 0..4 {
        s += (h[i] * h[i]) as f64 * g;
    }
    s
}

/// A loop that carries state over a sub-slice of an array whose start is known at run time
/// only: it runs at most the array's length, so its tape has fixed-size fields (a `Vec` would
/// not compile here, without `alloc`).
#[differentiable(hvp)]
pub fn tail_recurrence(x: &[f64; 5], k: usize) -> f64 {
    let mut r = 1.0;
    for v in x[k..].iter() {
        r = r * v + v * v;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tail_recurrence` from element 2: r = ((x2 + x2²) x3 + x3²) x4 + x4², differentiated by
    /// hand.
    #[test]
    fn a_sub_slice_of_an_array_with_a_run_time_start() {
        let x = [9.0, 9.0, 0.5, -1.5, 2.0];
        let (r2, r3) = (
            x[2] + x[2] * x[2],
            (x[2] + x[2] * x[2]) * x[3] + x[3] * x[3],
        );
        let (value, d_x) = tail_recurrence_grad(&x, 2);
        assert_eq!(value, r3 * x[4] + x[4] * x[4]);
        let d_r3 = x[4];
        let d_r2 = d_r3 * x[3];
        let want = [
            0.0,
            0.0,
            d_r2 * (1.0 + 2.0 * x[2]),
            d_r3 * (r2 + 2.0 * x[3]),
            r3 + 2.0 * x[4],
        ];
        for i in 0..5 {
            assert!(
                (d_x[i] - want[i]).abs() < 1e-12,
                "d_x[{i}]: {} against {}",
                d_x[i],
                want[i]
            );
        }
    }

    /// Values exact in bfloat16 and `f32`: the narrowed tape loses nothing.
    #[test]
    fn narrowed_records_of_exact_values() {
        let (x, y) = ([1.0f32, 2.0, 0.5, -4.0], 1.5);
        let (_, (d_x, d_y)) = narrowed_grad(&x, y);
        let h = [2.0f32, 1.0, -2.0, -4.0];
        let g = y * y;
        // s = g Σ h_i², h_i = x_i x_{i+1}: ∂s/∂x_i = 2 g (h_i x_{i+1} + h_{i-1} x_{i-1}).
        for i in 0..4 {
            let (next, prev) = ((i + 1) % 4, (i + 3) % 4);
            let want = 2.0 * g * f64::from(h[i] * x[next] + h[prev] * x[prev]);
            assert_eq!(f64::from(d_x[i]), want, "d_x[{i}]");
        }
        let sum: f64 = h.iter().map(|&h| f64::from(h * h)).sum();
        assert_eq!(d_y, 2.0 * y * sum);
    }

    /// Second order: `f_hvp`'s gradient is `f_grad`'s, and its products along the axes are
    /// symmetric and match central differences of the gradient.
    #[test]
    fn hvp_matches_the_gradient() {
        for &(x, y) in &[(0.3, 0.4), (1.5, -2.0), (-0.2, 0.9)] {
            let (v, g) = norm_clamped_grad(x, y);
            let (vh, gh, (hxx, hyx)) = norm_clamped_hvp(x, y, 1.0, 0.0);
            let (_, _, (hxy, hyy)) = norm_clamped_hvp(x, y, 0.0, 1.0);
            assert_eq!((v, g), (vh, gh));
            assert!((hxy - hyx).abs() < 1e-12, "{hxy} vs {hyx}");
            let e = 1e-6;
            let fd_x =
                (norm_clamped_grad(x + e, y).1.0 - norm_clamped_grad(x - e, y).1.0) / (2.0 * e);
            let fd_y =
                (norm_clamped_grad(x, y + e).1.1 - norm_clamped_grad(x, y - e).1.1) / (2.0 * e);
            assert!(
                (hxx - fd_x).abs() < 1e-6 * fd_x.abs().max(1.0),
                "{hxx} vs {fd_x}"
            );
            assert!(
                (hyy - fd_y).abs() < 1e-6 * fd_y.abs().max(1.0),
                "{hyy} vs {fd_y}"
            );
        }
    }

    /// Forward mode: the jvp along each axis is the gradient's entry.
    #[test]
    fn jvp_matches_the_gradient() {
        for &(x, y) in &[(0.3, 0.4), (1.5, -2.0), (-0.2, 0.9)] {
            let (v, (gx, gy)) = norm_clamped_grad(x, y);
            let (vx, tx) = norm_clamped_jvp(x, y, 1.0, 0.0);
            let (_, ty) = norm_clamped_jvp(x, y, 0.0, 1.0);
            assert_eq!(v, vx);
            assert!((tx - gx).abs() < 1e-14 && (ty - gy).abs() < 1e-14);
        }
        let x = [0.9, -0.3, 0.4, 0.2];
        let (_, g) = triangle_max_grad(&x);
        let (_, t) = triangle_max_jvp(&x, &[1.0, 2.0, 3.0, 4.0]);
        let want = g[0] + 2.0 * g[1] + 3.0 * g[2] + 4.0 * g[3];
        assert!((t - want).abs() < 1e-12, "{t} vs {want}");
        let ((a, b), (ta, tb)) = rotate_jvp(1.0, 2.0, 0.6, 0.8, 1.0, 0.0);
        assert_eq!((a, b), rotate(1.0, 2.0, 0.6, 0.8));
        assert_eq!((ta, tb), (0.6, 0.8));
    }

    #[test]
    fn huber_gradient_matches_closed_form() {
        for (r, want) in [(0.5, 0.5), (-0.25, -0.25), (3.0, 1.0), (-2.0, -1.0)] {
            let (_, (g, _)) = huber_grad(r, 1.0);
            assert!((g - want).abs() < 1e-12, "huber'({r}) = {g}, want {want}");
        }
    }

    #[test]
    fn norm_clamped_matches_finite_differences() {
        for &(x, y) in &[(0.3, 0.4), (1.5, -2.0), (-0.2, 0.9), (4.0, 5.0)] {
            let (_, (gx, gy)) = norm_clamped_grad(x, y);
            let h = 1e-6;
            let fx = (norm_clamped(x + h, y) - norm_clamped(x - h, y)) / (2.0 * h);
            let fy = (norm_clamped(x, y + h) - norm_clamped(x, y - h)) / (2.0 * h);
            assert!(
                (gx - fx).abs() < 1e-6 && (gy - fy).abs() < 1e-6,
                "({x}, {y}): ({gx}, {gy}) vs ({fx}, {fy})"
            );
        }
    }

    /// Central differences of `f` at `x`, one coordinate at a time.
    fn central<const N: usize>(f: impl Fn(&[f64; N]) -> f64, x: &[f64; N]) -> [f64; N] {
        core::array::from_fn(|i| {
            let h = 1e-6;
            let (mut plus, mut minus) = (*x, *x);
            plus[i] += h;
            minus[i] -= h;
            (f(&plus) - f(&minus)) / (2.0 * h)
        })
    }

    #[test]
    fn net_matches_finite_differences() {
        let p = Net {
            layers: [
                Layer {
                    w: [[0.5, -1.2], [0.8, 0.3]],
                    b: [0.1, -0.4],
                },
                Layer {
                    w: [[-0.7, 0.9], [1.5, -0.2]],
                    b: [0.6, 0.05],
                },
            ],
            scale: 1.3,
        };
        let x = [0.9, -0.6];
        let (value, (d_p, d_x)) = net_grad(&p, &x);
        assert_eq!(value, net(&p, &x));
        // Every parameter, in the order w, b per layer, then scale.
        let flat = |p: &Net| {
            let mut v = [0.0; 13];
            for (k, layer) in p.layers.iter().enumerate() {
                v[6 * k..6 * k + 4].copy_from_slice(&[
                    layer.w[0][0],
                    layer.w[0][1],
                    layer.w[1][0],
                    layer.w[1][1],
                ]);
                v[6 * k + 4..6 * k + 6].copy_from_slice(&layer.b);
            }
            v[12] = p.scale;
            v
        };
        let unflat = |v: &[f64; 13]| Net {
            layers: core::array::from_fn(|k| Layer {
                w: [[v[6 * k], v[6 * k + 1]], [v[6 * k + 2], v[6 * k + 3]]],
                b: [v[6 * k + 4], v[6 * k + 5]],
            }),
            scale: v[12],
        };
        let fd = central(|v| net(&unflat(v), &x), &flat(&p));
        for (i, (g, want)) in flat(&d_p).iter().zip(fd).enumerate() {
            assert!((g - want).abs() < 1e-6, "d_p[{i}]: {g} vs {want}");
        }
        let fd = central(|x| net(&p, x), &x);
        for i in 0..2 {
            assert!(
                (d_x[i] - fd[i]).abs() < 1e-6,
                "d_x[{i}]: {} vs {}",
                d_x[i],
                fd[i]
            );
        }
    }

    #[test]
    fn layer_methods_match_the_closed_form() {
        let layer = Layer {
            w: [[0.5, -1.2], [0.8, 0.3]],
            b: [0.1, -0.4],
        };
        let x = [0.9, -0.6];
        let (a, b) = (layer.unit(0, &x), layer.unit(1, &x));
        let (value, d) = layer.energy_grad(&x);
        assert_eq!(value, a * a + b * b);
        // d/dw[k][j] = 2 unit_k x_j, d/db[k] = 2 unit_k.
        for (k, unit) in [a, b].into_iter().enumerate() {
            assert!((d.b[k] - 2.0 * unit).abs() < 1e-12);
            for (j, x_j) in x.iter().enumerate() {
                assert!((d.w[k][j] - 2.0 * unit * x_j).abs() < 1e-12);
            }
        }
        let (_, (_, d_x)) = layer.unit_grad(1, &x);
        assert_eq!(d_x, layer.w[1]);
        let t = Layer {
            w: [[1.0, 0.0], [0.0, 0.0]],
            b: [0.0, 0.0],
        };
        let (_, tangent) = layer.energy_jvp(&x, &t);
        assert!((tangent - 2.0 * a * x[0]).abs() < 1e-12);
    }

    #[test]
    fn triangle_max_matches_finite_differences() {
        for x in [
            [0.3, -1.2, 0.8, 0.1],
            [2.0, 1.5, -0.5, 0.25],
            [-0.4, 0.9, 1.7, -2.0],
        ] {
            let (value, d_x) = triangle_max_grad(&x);
            assert_eq!(value, triangle_max(&x));
            let fd = central(triangle_max, &x);
            for i in 0..4 {
                assert!(
                    (d_x[i] - fd[i]).abs() < 1e-6,
                    "{x:?}: d_x[{i}] = {} vs {}",
                    d_x[i],
                    fd[i]
                );
            }
        }
    }

    #[test]
    fn rotate_adjoint_is_the_transpose() {
        let (c, s) = (0.6_f32, 0.8_f32);
        let mut tape = RotateTape::new();
        rotate_forward(1.0, 2.0, c, s, &mut tape);
        let (mut dx, mut dy) = (0.0, 0.0);
        rotate_adjoint(1.0, 2.0, c, s, &tape, (1.0, 0.0), &mut dx, &mut dy);
        assert_eq!((dx, dy), (c, -s));
    }
}
