//! Gradients of scalar `#[differentiable]` functions, checked against references the macro does not
//! compute: central finite differences of the user's own function (which the macro keeps unchanged),
//! closed forms at known points, and hand-derived values at the documented non-smooth conventions.
//!
//! One `#[differentiable]` function per construct and one `#[test]` per function, grouped by topic,
//! so a failure names the construct. Every random point comes from a fixed seed.

mod common;

/// The checker itself: it must reject what a broken macro would produce.
mod checker {
    use crate::common::{GradCheck, uniform};

    #[test]
    #[should_panic(expected = "sin with a wrong rule: 24 of 24 points fail")]
    fn rejects_a_wrong_derivative() {
        GradCheck::new("sin with a wrong rule").unary(
            &uniform(1, 24, [(0.1, 1.4)]),
            f64::sin,
            |x| (x.sin(), -x.cos()),
        );
    }

    #[test]
    #[should_panic(expected = "largest difference: NaN")]
    fn rejects_nan() {
        GradCheck::new("nan").unary(&uniform(2, 24, [(-1.0, 1.0)]), f64::exp, |x| {
            (x.exp(), if x > 0.5 { f64::NAN } else { x.exp() })
        });
    }

    #[test]
    #[should_panic(expected = "value 1.0000000000000002, reference 1.0")]
    fn rejects_a_value_one_ulp_off() {
        let mut points = uniform(3, 24, [(-1.0, 1.0)]);
        points[0] = [0.0];
        GradCheck::new("value").unary(&points, f64::exp, |x| {
            let value = if x == 0.0 {
                1.0 + f64::EPSILON
            } else {
                x.exp()
            };
            (value, x.exp())
        });
    }

    /// A derivative off by one part in 1e5 fails even near a singularity.
    #[test]
    #[should_panic(expected = "points fail")]
    fn rejects_a_small_relative_error_near_a_pole() {
        GradCheck::new("ln, 1e-5 off").scale(|&[x]| [x]).unary(
            &uniform(4, 24, [(1e-6, 1e-3)]),
            f64::ln,
            |x| (x.ln(), (1.0 + 1e-5) / x),
        );
    }
}

/// `+ - * /`, unary `-`, parentheses, blocks, `let`, `let mut`, assignment operators, shadowing.
mod operators {
    use crate::common::{GradCheck, assert_close, concat, near_zero, sample, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn add(x: f64, y: f64) -> f64 {
        x + y + 1.5
    }

    #[differentiable]
    pub fn sub(x: f64, y: f64) -> f64 {
        x - y - 0.5
    }

    #[differentiable]
    pub fn mul(x: f64, y: f64) -> f64 {
        x * y * 3.0
    }

    #[differentiable]
    pub fn square(x: f64) -> f64 {
        x * x
    }

    #[differentiable]
    pub fn div(x: f64, y: f64) -> f64 {
        x / y
    }

    #[differentiable]
    pub fn neg(x: f64, y: f64) -> f64 {
        -(x * y) + -y
    }

    #[differentiable]
    pub fn parens(x: f64, y: f64) -> f64 {
        (x + y) * (x - (y - 1.0)) / (1.0 + (x * y) * (x * y))
    }

    #[differentiable]
    pub fn blocks(x: f64, y: f64) -> f64 {
        let z = {
            let t = x * y;
            t + x
        };
        let w = {
            let s = {
                let q = z * z;
                q + 1.0
            };
            s.sqrt()
        };
        w * y
    }

    #[differentiable]
    pub fn assign(x: f64, y: f64) -> f64 {
        let mut z = x * x;
        let w = z * y;
        // Overwrites z: the old value reaches the result only through w.
        z = y.sin();
        z * w
    }

    #[differentiable]
    pub fn add_assign(x: f64, y: f64) -> f64 {
        let mut z = x * y;
        z += x;
        z += z;
        z
    }

    #[differentiable]
    pub fn sub_assign(x: f64, y: f64) -> f64 {
        let mut z = x * x;
        z -= y * x;
        z -= y;
        z
    }

    #[differentiable]
    pub fn mul_assign(x: f64, y: f64) -> f64 {
        let mut z = x + y;
        z *= z;
        z *= x;
        z
    }

    #[differentiable]
    pub fn div_assign(x: f64, y: f64) -> f64 {
        let mut z = x * y;
        z /= y + 2.0;
        z /= x + 3.0;
        z
    }

    #[differentiable]
    pub fn shadowing(x: f64, y: f64) -> f64 {
        let x = x * y;
        let t = {
            let x = x + 1.0;
            x * x
        };
        let y = x.sin();
        let x = x + t;
        x * y
    }

    #[differentiable]
    pub fn mut_param(mut x: f64, y: f64) -> f64 {
        x = 2.0 * y - x;
        x += y;
        x *= x;
        x /= y;
        x
    }

    #[differentiable]
    pub fn typed_lets(x: f64, y: f64) -> f64 {
        let a: f64 = x * 2.0;
        let mut b: f64 = a - y;
        b *= a;
        b + y
    }

    #[test]
    fn add_gradient() {
        GradCheck::new("add").binary(&uniform(101, 24, [(-5.0, 5.0); 2]), add, add_grad);
    }

    #[test]
    fn sub_gradient() {
        GradCheck::new("sub").binary(&uniform(102, 24, [(-5.0, 5.0); 2]), sub, sub_grad);
    }

    #[test]
    fn mul_gradient() {
        GradCheck::new("mul").binary(&uniform(103, 24, [(-5.0, 5.0); 2]), mul, mul_grad);
    }

    #[test]
    fn mul_of_a_value_by_itself_gradient() {
        GradCheck::new("square").unary(&uniform(104, 24, [(-5.0, 5.0)]), square, square_grad);
    }

    #[test]
    fn div_gradient() {
        let points = concat(&[
            sample(105, 20, |rng| {
                let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                [rng.gen_range(-5.0..5.0), sign * rng.gen_range(0.2..5.0)]
            }),
            // Denominators near the pole at y = 0.
            sample(106, 8, |rng| [rng.gen_range(-5.0..5.0), near_zero(rng)]),
        ]);
        GradCheck::new("div")
            .scale(|&[_, y]| [f64::INFINITY, y.abs()])
            .binary(&points, div, div_grad);
    }

    #[test]
    fn neg_gradient() {
        GradCheck::new("neg").binary(&uniform(107, 24, [(-5.0, 5.0); 2]), neg, neg_grad);
    }

    #[test]
    fn parens_gradient() {
        GradCheck::new("parens").binary(&uniform(108, 24, [(-3.0, 3.0); 2]), parens, parens_grad);
    }

    #[test]
    fn blocks_gradient() {
        GradCheck::new("blocks").binary(&uniform(109, 24, [(-3.0, 3.0); 2]), blocks, blocks_grad);
    }

    #[test]
    fn assign_gradient() {
        GradCheck::new("assign").binary(&uniform(110, 24, [(-3.0, 3.0); 2]), assign, assign_grad);
        // z * w = sin(y) * x^2 * y: the overwritten x^2 must not contribute on its own.
        let (x, y) = (1.5, -0.75);
        let (_, (d_x, d_y)) = assign_grad(x, y);
        let expected_d_x = y.sin() * 2.0 * x * y;
        let expected_d_y = y.cos() * x * x * y + y.sin() * x * x;
        assert_close("assign d_x", d_x, expected_d_x, 1e-14);
        assert_close("assign d_y", d_y, expected_d_y, 1e-14);
    }

    #[test]
    fn add_assign_gradient() {
        GradCheck::new("add_assign").binary(
            &uniform(111, 24, [(-5.0, 5.0); 2]),
            add_assign,
            add_assign_grad,
        );
    }

    #[test]
    fn sub_assign_gradient() {
        GradCheck::new("sub_assign").binary(
            &uniform(112, 24, [(-5.0, 5.0); 2]),
            sub_assign,
            sub_assign_grad,
        );
    }

    #[test]
    fn mul_assign_gradient() {
        GradCheck::new("mul_assign").binary(
            &uniform(113, 24, [(-3.0, 3.0); 2]),
            mul_assign,
            mul_assign_grad,
        );
    }

    #[test]
    fn div_assign_gradient() {
        GradCheck::new("div_assign").binary(
            &uniform(114, 24, [(0.0, 3.0); 2]),
            div_assign,
            div_assign_grad,
        );
    }

    #[test]
    fn shadowing_gradient() {
        GradCheck::new("shadowing").binary(
            &uniform(115, 24, [(-2.0, 2.0); 2]),
            shadowing,
            shadowing_grad,
        );
        // u = x y, result (u + (u + 1)^2) sin(u).
        let (x, y): (f64, f64) = (0.5, 1.25);
        let u = x * y;
        let d_u = (1.0 + 2.0 * (u + 1.0)) * u.sin() + (u + (u + 1.0) * (u + 1.0)) * u.cos();
        let (_, (d_x, d_y)) = shadowing_grad(x, y);
        assert_close("shadowing d_x", d_x, d_u * y, 1e-14);
        assert_close("shadowing d_y", d_y, d_u * x, 1e-14);
    }

    #[test]
    fn mut_param_gradient() {
        let points = uniform(116, 24, [(-3.0, 3.0), (0.5, 3.0)]);
        GradCheck::new("mut_param").binary(&points, mut_param, mut_param_grad);
        // (3y - x)^2 / y.
        let (x, y) = (0.5, 2.0);
        let (_, (d_x, d_y)) = mut_param_grad(x, y);
        let s = 3.0 * y - x;
        assert_close("mut_param d_x", d_x, -2.0 * s / y, 1e-14);
        assert_close("mut_param d_y", d_y, 6.0 * s / y - s * s / (y * y), 1e-14);
    }

    #[test]
    fn typed_lets_gradient() {
        GradCheck::new("typed_lets").binary(
            &uniform(117, 24, [(-3.0, 3.0); 2]),
            typed_lets,
            typed_lets_grad,
        );
    }
}

/// `sin` and `cos` (`sinh` and `cosh`) of one value: the reverse sweep reads the other's
/// recorded value instead of calling it again, where the other surely ran.
mod siblings {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    /// A rotation's `(c, s)`, both read as each other's derivative.
    #[differentiable]
    fn rotation(x: f64, a: f64) -> f64 {
        let (c, s) = (a.cos(), a.sin());
        x * c - s * s * x + c
    }

    /// The same, each bound by its own `let`.
    #[differentiable]
    fn rotation_lets(x: f64, a: f64) -> f64 {
        let t = a * x;
        let c = t.cos();
        let s = t.sin();
        c * s + c * x
    }

    #[test]
    fn rotation_against_central_differences() {
        GradCheck::new("sin and cos of one value").binary(
            &uniform(301, 24, [(-3.0, 3.0); 2]),
            rotation,
            rotation_grad,
        );
        GradCheck::new("sin and cos of one value, let-bound").binary(
            &uniform(303, 24, [(-3.0, 3.0); 2]),
            rotation_lets,
            rotation_lets_grad,
        );
    }

    /// In a loop: the `sin` after a `break` may not run when `cos` does (its value is
    /// computed again there), the `cos` before it always runs when `sin` does; `cosh` and
    /// `sinh` in different branches are not each other's.
    #[differentiable]
    fn broken(x: f64, a: f64) -> f64 {
        let mut acc = 0.0;
        for i in 0..4 {
            let t = a * x + i as f64;
            let c = t.cos();
            if acc > 1.5 {
                break;
            }
            let s = t.sin();
            acc += c * s + c;
            if s > 0.0 {
                acc += 0.1 * t.sinh();
            } else {
                acc -= 0.1 * t.cosh();
            }
            let (h, k) = (t.sinh(), t.cosh());
            acc += 0.01 * h * k;
        }
        acc
    }

    #[test]
    fn broken_against_central_differences() {
        GradCheck::new("sin, cos, sinh and cosh with a break").binary(
            &uniform(302, 48, [(-1.5, 1.5); 2]),
            broken,
            broken_grad,
        );
    }
}

/// `exp exp2 exp_m1 ln ln_1p log log2 log10`.
mod exp_log {
    use crate::common::{GradCheck, concat, near_zero, sample, tiny, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn exp(x: f64) -> f64 {
        x.exp()
    }

    #[differentiable]
    pub fn exp2(x: f64) -> f64 {
        x.exp2()
    }

    #[differentiable]
    pub fn exp_m1(x: f64) -> f64 {
        x.exp_m1()
    }

    #[differentiable]
    pub fn ln(x: f64) -> f64 {
        x.ln()
    }

    #[differentiable]
    pub fn ln_1p(x: f64) -> f64 {
        x.ln_1p()
    }

    #[differentiable]
    pub fn log(x: f64, base: f64) -> f64 {
        x.log(base)
    }

    /// A typed literal base.
    #[differentiable]
    pub fn log_const_base(x: f64) -> f64 {
        x.log(3.0_f64)
    }

    /// An untyped literal base: the adjoint must give the literal its type to call `ln` on it.
    #[differentiable]
    pub fn log_literal_base(x: f64) -> f64 {
        x.log(3.0)
    }

    #[differentiable]
    pub fn log_literal_base_32(x: f32) -> f32 {
        x.log(3.0)
    }

    #[test]
    fn log_with_an_untyped_literal_base() {
        let (value, d_x) = log_literal_base_grad(2.0);
        assert_eq!(value, log_literal_base(2.0));
        assert!(
            (d_x - 1.0 / (2.0 * 3f64.ln())).abs() <= 1e-15,
            "d/dx log_3(x) at 2: {d_x}"
        );
        let (_, d_x) = log_literal_base_32_grad(2.0);
        assert!(
            (d_x - 1.0 / (2.0 * 3f32.ln())).abs() <= 1e-6,
            "f32 d/dx log_3(x) at 2: {d_x}"
        );
    }

    #[differentiable]
    pub fn log2(x: f64) -> f64 {
        x.log2()
    }

    #[differentiable]
    pub fn log10(x: f64) -> f64 {
        x.log10()
    }

    /// Positive points, with some near the pole at 0.
    fn positive(seed: u64) -> Vec<[f64; 1]> {
        concat(&[
            uniform(seed, 20, [(0.05, 20.0)]),
            sample(seed + 1, 8, |rng| [tiny(rng)]),
        ])
    }

    #[test]
    fn exp_gradient() {
        GradCheck::new("exp").unary(&uniform(201, 24, [(-5.0, 5.0)]), exp, exp_grad);
    }

    #[test]
    fn exp2_gradient() {
        GradCheck::new("exp2").unary(&uniform(202, 24, [(-5.0, 5.0)]), exp2, exp2_grad);
    }

    #[test]
    fn exp_m1_gradient() {
        let points = concat(&[
            uniform(203, 20, [(-5.0, 5.0)]),
            sample(204, 8, |rng| [near_zero(rng)]),
        ]);
        GradCheck::new("exp_m1").unary(&points, exp_m1, exp_m1_grad);
    }

    #[test]
    fn ln_gradient() {
        GradCheck::new("ln")
            .scale(|&[x]| [x])
            .unary(&positive(205), ln, ln_grad);
    }

    #[test]
    fn ln_1p_gradient() {
        let points = concat(&[
            uniform(207, 20, [(-0.95, 10.0)]),
            // Near the pole at x = -1 and near 0, where ln_1p differs from ln(1 + x) most.
            sample(208, 8, |rng| [-1.0 + tiny(rng)]),
            sample(209, 4, |rng| [near_zero(rng)]),
        ]);
        GradCheck::new("ln_1p")
            .scale(|&[x]| [x + 1.0])
            .unary(&points, ln_1p, ln_1p_grad);
    }

    #[test]
    fn log_gradient() {
        let points = concat(&[
            uniform(210, 16, [(0.05, 20.0), (1.5, 10.0)]),
            uniform(211, 8, [(0.05, 20.0), (0.05, 0.8)]),
            // Bases near 1, where ln(base) vanishes.
            sample(212, 6, |rng| {
                [rng.gen_range(0.05..20.0), 1.0 + near_zero(rng)]
            }),
            sample(213, 4, |rng| [tiny(rng), rng.gen_range(1.5..10.0)]),
        ]);
        GradCheck::new("log")
            .scale(|&[x, base]| [x, base.min((base - 1.0).abs())])
            .binary(&points, log, log_grad);
    }

    #[test]
    fn log_const_base_gradient() {
        GradCheck::new("log_const_base").scale(|&[x]| [x]).unary(
            &positive(214),
            log_const_base,
            log_const_base_grad,
        );
    }

    #[test]
    fn log2_gradient() {
        GradCheck::new("log2")
            .scale(|&[x]| [x])
            .unary(&positive(216), log2, log2_grad);
    }

    #[test]
    fn log10_gradient() {
        GradCheck::new("log10")
            .scale(|&[x]| [x])
            .unary(&positive(218), log10, log10_grad);
    }
}

/// `sqrt cbrt powi powf recip hypot mul_add`.
mod powers {
    use crate::common::{GradCheck, assert_close, concat, near_zero, sample, tiny, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn sqrt(x: f64) -> f64 {
        x.sqrt()
    }

    #[differentiable]
    pub fn cbrt(x: f64) -> f64 {
        x.cbrt()
    }

    #[differentiable]
    pub fn powi_3(x: f64) -> f64 {
        x.powi(3)
    }

    #[differentiable]
    pub fn powi_minus_2(x: f64) -> f64 {
        x.powi(-2)
    }

    #[differentiable]
    pub fn powi_1(x: f64) -> f64 {
        x.powi(1)
    }

    #[differentiable]
    pub fn powi_2(x: f64) -> f64 {
        x.powi(2)
    }

    #[differentiable]
    pub fn powf(x: f64, y: f64) -> f64 {
        x.powf(y)
    }

    #[differentiable]
    pub fn powf_const_exponent(x: f64) -> f64 {
        x.powf(2.5)
    }

    #[differentiable]
    pub fn powf_const_base(x: f64) -> f64 {
        let base: f64 = 2.0;
        base.powf(x)
    }

    #[differentiable]
    pub fn recip(x: f64) -> f64 {
        x.recip()
    }

    #[differentiable]
    pub fn hypot(x: f64, y: f64) -> f64 {
        x.hypot(y)
    }

    #[differentiable]
    pub fn mul_add(x: f64, a: f64, b: f64) -> f64 {
        x.mul_add(a, b)
    }

    #[test]
    fn sqrt_gradient() {
        let points = concat(&[
            uniform(301, 20, [(0.01, 20.0)]),
            sample(302, 8, |rng| [tiny(rng)]),
        ]);
        GradCheck::new("sqrt")
            .scale(|&[x]| [x])
            .unary(&points, sqrt, sqrt_grad);
    }

    #[test]
    fn cbrt_gradient() {
        let points = concat(&[
            uniform(303, 20, [(-10.0, 10.0)]),
            sample(304, 8, |rng| [near_zero(rng)]),
        ]);
        GradCheck::new("cbrt")
            .scale(|&[x]| [x.abs()])
            .unary(&points, cbrt, cbrt_grad);
    }

    #[test]
    fn powi_3_gradient() {
        GradCheck::new("powi_3").unary(&uniform(305, 24, [(-4.0, 4.0)]), powi_3, powi_3_grad);
    }

    #[test]
    fn powi_minus_2_gradient() {
        let points = concat(&[
            sample(306, 20, |rng| {
                let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                [sign * rng.gen_range(0.2..4.0)]
            }),
            sample(307, 8, |rng| [near_zero(rng)]),
        ]);
        GradCheck::new("powi_minus_2")
            .scale(|&[x]| [x.abs()])
            .unary(&points, powi_minus_2, powi_minus_2_grad);
    }

    /// Smooth points where a careless `n * x^(n - 1)` still has to give the right number.
    #[test]
    fn powi_at_zero() {
        GradCheck::new("powi_1").unary(&uniform(308, 24, [(-4.0, 4.0)]), powi_1, powi_1_grad);
        GradCheck::new("powi_2").unary(&uniform(309, 24, [(-4.0, 4.0)]), powi_2, powi_2_grad);
        assert_eq!(powi_1_grad(0.0), (0.0, 1.0), "d/dx x^1 at 0");
        assert_eq!(powi_2_grad(0.0), (0.0, 0.0), "d/dx x^2 at 0");
        assert_eq!(powi_3_grad(0.0), (0.0, 0.0), "d/dx x^3 at 0");
    }

    #[test]
    fn powf_gradient() {
        let points = concat(&[
            uniform(310, 20, [(0.05, 5.0), (-3.0, 3.0)]),
            sample(311, 8, |rng| [tiny(rng), rng.gen_range(-3.0..3.0)]),
        ]);
        GradCheck::new("powf")
            .scale(|&[x, _]| [x, f64::INFINITY])
            .binary(&points, powf, powf_grad);
    }

    #[test]
    fn powf_const_exponent_gradient() {
        let points = concat(&[
            uniform(312, 20, [(0.01, 5.0)]),
            sample(313, 8, |rng| [tiny(rng)]),
        ]);
        GradCheck::new("powf_const_exponent")
            .scale(|&[x]| [x])
            .unary(&points, powf_const_exponent, powf_const_exponent_grad);
    }

    #[test]
    fn powf_const_base_gradient() {
        GradCheck::new("powf_const_base").unary(
            &uniform(314, 24, [(-5.0, 5.0)]),
            powf_const_base,
            powf_const_base_grad,
        );
        let (_, d_x) = powf_const_base_grad(3.0);
        assert_close("d/dx 2^x at 3", d_x, 8.0 * 2f64.ln(), 1e-15);
    }

    #[test]
    fn recip_gradient() {
        let points = concat(&[
            sample(315, 20, |rng| {
                let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                [sign * rng.gen_range(0.1..10.0)]
            }),
            sample(316, 8, |rng| [near_zero(rng)]),
        ]);
        GradCheck::new("recip")
            .scale(|&[x]| [x.abs()])
            .unary(&points, recip, recip_grad);
    }

    #[test]
    fn hypot_gradient() {
        let points = concat(&[
            uniform(317, 20, [(-5.0, 5.0); 2]),
            // Near the cone's tip at the origin.
            sample(318, 8, |rng| [near_zero(rng), near_zero(rng)]),
        ]);
        GradCheck::new("hypot")
            .scale(|&[x, y]| [x.hypot(y); 2])
            .binary(&points, hypot, hypot_grad);
    }

    #[test]
    fn mul_add_gradient() {
        GradCheck::new("mul_add").ternary(
            &uniform(319, 24, [(-5.0, 5.0); 3]),
            mul_add,
            mul_add_grad,
        );
        assert_eq!(mul_add_grad(2.0, 3.0, 5.0), (11.0, (3.0, 2.0, 1.0)));
    }
}

/// `sin cos tan asin acos atan atan2 to_degrees to_radians`.
mod trig {
    use crate::common::{GradCheck, concat, near_zero, sample, tiny, uniform};
    use core::f64::consts::{FRAC_PI_2, PI};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn sin(x: f64) -> f64 {
        x.sin()
    }

    #[differentiable]
    pub fn cos(x: f64) -> f64 {
        x.cos()
    }

    #[differentiable]
    pub fn tan(x: f64) -> f64 {
        x.tan()
    }

    #[differentiable]
    pub fn asin(x: f64) -> f64 {
        x.asin()
    }

    #[differentiable]
    pub fn acos(x: f64) -> f64 {
        x.acos()
    }

    #[differentiable]
    pub fn atan(x: f64) -> f64 {
        x.atan()
    }

    #[differentiable]
    pub fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }

    #[differentiable]
    pub fn to_degrees(x: f64) -> f64 {
        x.to_degrees()
    }

    #[differentiable]
    pub fn to_radians(x: f64) -> f64 {
        x.to_radians()
    }

    /// Points in (-1, 1), with some within `tiny` of +-1.
    pub fn unit_interval(seed: u64) -> Vec<[f64; 1]> {
        concat(&[
            uniform(seed, 20, [(-0.99, 0.99)]),
            sample(seed + 1, 8, |rng| {
                let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                [sign * (1.0 - tiny(rng))]
            }),
        ])
    }

    #[test]
    fn sin_gradient() {
        GradCheck::new("sin").unary(&uniform(401, 24, [(-10.0, 10.0)]), sin, sin_grad);
    }

    #[test]
    fn cos_gradient() {
        GradCheck::new("cos").unary(&uniform(402, 24, [(-10.0, 10.0)]), cos, cos_grad);
    }

    #[test]
    fn tan_gradient() {
        let points = concat(&[
            uniform(403, 20, [(-1.5, 1.5)]),
            // Near the poles at +-pi/2.
            sample(404, 8, |rng| {
                let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                [sign * (FRAC_PI_2 - tiny(rng))]
            }),
        ]);
        GradCheck::new("tan")
            .scale(|&[x]| [FRAC_PI_2 - x.abs()])
            .unary(&points, tan, tan_grad);
    }

    #[test]
    fn asin_gradient() {
        GradCheck::new("asin").scale(|&[x]| [1.0 - x.abs()]).unary(
            &unit_interval(405),
            asin,
            asin_grad,
        );
    }

    #[test]
    fn acos_gradient() {
        GradCheck::new("acos").scale(|&[x]| [1.0 - x.abs()]).unary(
            &unit_interval(407),
            acos,
            acos_grad,
        );
    }

    #[test]
    fn atan_gradient() {
        GradCheck::new("atan").unary(&uniform(409, 24, [(-10.0, 10.0)]), atan, atan_grad);
    }

    #[test]
    fn atan2_gradient() {
        let polar = |radius: f64, angle: f64| [radius * angle.sin(), radius * angle.cos()];
        let points = concat(&[
            sample(410, 20, |rng| {
                polar(
                    rng.gen_range(0.1..5.0),
                    rng.gen_range(-PI + 0.01..PI - 0.01),
                )
            }),
            // Just above and below the branch cut along the negative x axis.
            sample(411, 6, |rng| {
                polar(
                    rng.gen_range(0.1..5.0),
                    (PI - tiny(rng)) * near_zero(rng).signum(),
                )
            }),
            // Near the origin.
            sample(412, 4, |rng| {
                polar(tiny(rng), rng.gen_range(-PI + 0.01..PI - 0.01))
            }),
        ]);
        GradCheck::new("atan2")
            // The branch cut along the negative x axis is a jump; the origin is a singularity.
            .kink(|&[y, x]| if x < 0.0 { y.abs() } else { f64::INFINITY })
            .scale(|&[y, x]| [x.hypot(y); 2])
            .binary(&points, atan2, atan2_grad);
    }

    #[test]
    fn to_degrees_gradient() {
        GradCheck::new("to_degrees").unary(
            &uniform(413, 24, [(-10.0, 10.0)]),
            to_degrees,
            to_degrees_grad,
        );
    }

    #[test]
    fn to_radians_gradient() {
        GradCheck::new("to_radians").unary(
            &uniform(414, 24, [(-500.0, 500.0)]),
            to_radians,
            to_radians_grad,
        );
    }
}

/// `sinh cosh tanh asinh acosh atanh`.
mod hyperbolic {
    use crate::common::{GradCheck, concat, sample, tiny, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn sinh(x: f64) -> f64 {
        x.sinh()
    }

    #[differentiable]
    pub fn cosh(x: f64) -> f64 {
        x.cosh()
    }

    #[differentiable]
    pub fn tanh(x: f64) -> f64 {
        x.tanh()
    }

    #[differentiable]
    pub fn asinh(x: f64) -> f64 {
        x.asinh()
    }

    #[differentiable]
    pub fn acosh(x: f64) -> f64 {
        x.acosh()
    }

    #[differentiable]
    pub fn atanh(x: f64) -> f64 {
        x.atanh()
    }

    #[test]
    fn sinh_gradient() {
        GradCheck::new("sinh").unary(&uniform(501, 24, [(-5.0, 5.0)]), sinh, sinh_grad);
    }

    #[test]
    fn cosh_gradient() {
        GradCheck::new("cosh").unary(&uniform(502, 24, [(-5.0, 5.0)]), cosh, cosh_grad);
    }

    #[test]
    fn tanh_gradient() {
        GradCheck::new("tanh").unary(&uniform(503, 24, [(-5.0, 5.0)]), tanh, tanh_grad);
    }

    #[test]
    fn asinh_gradient() {
        GradCheck::new("asinh").unary(&uniform(504, 24, [(-10.0, 10.0)]), asinh, asinh_grad);
    }

    #[test]
    fn acosh_gradient() {
        let points = concat(&[
            uniform(505, 20, [(1.01, 10.0)]),
            // Near the branch point at 1.
            sample(506, 8, |rng| [1.0 + tiny(rng)]),
        ]);
        GradCheck::new("acosh")
            .scale(|&[x]| [x - 1.0])
            .unary(&points, acosh, acosh_grad);
    }

    #[test]
    fn atanh_gradient() {
        GradCheck::new("atanh").scale(|&[x]| [1.0 - x.abs()]).unary(
            &crate::trig::unit_interval(507),
            atanh,
            atanh_grad,
        );
    }
}

/// `abs signum max min clamp`: finite differences on either side of (and close to) each kink, and
/// the documented conventions exactly at it: `abs` has derivative 0 at 0, `max`/`min` on a tie
/// send the whole gradient to the receiver, `clamp` at a bound sends it to `x`, `signum` has
/// derivative 0.
mod non_smooth {
    use crate::common::{GradCheck, concat, near_zero, sample, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn abs(x: f64) -> f64 {
        x.abs()
    }

    #[differentiable]
    pub fn abs_scaled(x: f64, y: f64) -> f64 {
        (x * 3.0 - y).abs() * 2.0
    }

    #[differentiable]
    pub fn signum(x: f64, y: f64) -> f64 {
        x.signum() * y
    }

    #[differentiable]
    pub fn max(a: f64, b: f64) -> f64 {
        a.max(b)
    }

    /// Same as `max` with the receiver swapped: a tie must now favour `b`.
    #[differentiable]
    pub fn max_swapped(a: f64, b: f64) -> f64 {
        b.max(a)
    }

    #[differentiable]
    pub fn min(a: f64, b: f64) -> f64 {
        a.min(b)
    }

    #[differentiable]
    pub fn min_swapped(a: f64, b: f64) -> f64 {
        b.min(a)
    }

    #[differentiable]
    pub fn relu(x: f64) -> f64 {
        x.max(0.0)
    }

    #[differentiable]
    pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
        x.clamp(lo, hi)
    }

    #[differentiable]
    pub fn clamp_const(x: f64) -> f64 {
        x.clamp(-1.0, 2.0)
    }

    /// Points on both sides of the kink at 0, some within `tiny` of it.
    fn around_zero(seed: u64) -> Vec<[f64; 1]> {
        concat(&[
            uniform(seed, 20, [(-5.0, 5.0)]),
            sample(seed + 1, 8, |rng| [near_zero(rng)]),
        ])
    }

    /// Pairs with `a > b`, `a < b`, and nearly equal.
    fn pairs(seed: u64) -> Vec<[f64; 2]> {
        concat(&[
            uniform(seed, 16, [(-5.0, 5.0); 2]),
            sample(seed + 1, 8, |rng| {
                let a = rng.gen_range(-5.0..5.0);
                [a, a + near_zero(rng)]
            }),
        ])
    }

    #[test]
    fn abs_gradient() {
        GradCheck::new("abs")
            .kink(|&[x]| x.abs())
            .unary(&around_zero(601), abs, abs_grad);
    }

    #[test]
    fn abs_scaled_gradient() {
        let points = concat(&[
            uniform(603, 16, [(-3.0, 3.0); 2]),
            sample(604, 8, |rng| {
                let y = rng.gen_range(-3.0..3.0);
                [y / 3.0 + near_zero(rng), y]
            }),
        ]);
        GradCheck::new("abs_scaled")
            .kink(|&[x, y]| (x * 3.0 - y).abs() / 3.0)
            .binary(&points, abs_scaled, abs_scaled_grad);
    }

    #[test]
    fn abs_at_zero_has_derivative_zero() {
        assert_eq!(abs_grad(0.0), (0.0, 0.0), "abs at +0");
        assert_eq!(abs_grad(-0.0), (0.0, 0.0), "abs at -0");
        assert_eq!(
            abs_scaled_grad(1.0, 3.0),
            (0.0, (0.0, 0.0)),
            "2|3x - y| at x = 1, y = 3"
        );
    }

    #[test]
    fn signum_gradient() {
        let points = concat(&[
            uniform(605, 20, [(-5.0, 5.0); 2]),
            sample(606, 8, |rng| [near_zero(rng), rng.gen_range(-5.0..5.0)]),
        ]);
        GradCheck::new("signum")
            .kink(|&[x, _]| x.abs())
            .binary(&points, signum, signum_grad);
    }

    #[test]
    fn signum_has_derivative_zero() {
        // f64::signum(+0.0) is 1, signum(-0.0) is -1; the derivative in x is 0 everywhere.
        assert_eq!(signum_grad(0.0, 2.0), (2.0, (0.0, 1.0)));
        assert_eq!(signum_grad(-0.0, 2.0), (-2.0, (0.0, -1.0)));
        assert_eq!(signum_grad(-3.0, 2.0), (-2.0, (0.0, -1.0)));
    }

    #[test]
    fn max_gradient() {
        GradCheck::new("max")
            .kink(|&[a, b]| (a - b).abs())
            .binary(&pairs(607), max, max_grad);
    }

    #[test]
    fn max_swapped_gradient() {
        GradCheck::new("max_swapped")
            .kink(|&[a, b]| (a - b).abs())
            .binary(&pairs(609), max_swapped, max_swapped_grad);
    }

    #[test]
    fn min_gradient() {
        GradCheck::new("min")
            .kink(|&[a, b]| (a - b).abs())
            .binary(&pairs(611), min, min_grad);
    }

    #[test]
    fn min_swapped_gradient() {
        GradCheck::new("min_swapped")
            .kink(|&[a, b]| (a - b).abs())
            .binary(&pairs(613), min_swapped, min_swapped_grad);
    }

    #[test]
    fn max_min_tie_goes_to_the_receiver() {
        assert_eq!(max_grad(1.5, 1.5), (1.5, (1.0, 0.0)), "a.max(b) at a == b");
        assert_eq!(
            max_swapped_grad(1.5, 1.5),
            (1.5, (0.0, 1.0)),
            "b.max(a) at a == b"
        );
        assert_eq!(
            min_grad(-2.0, -2.0),
            (-2.0, (1.0, 0.0)),
            "a.min(b) at a == b"
        );
        assert_eq!(
            min_swapped_grad(-2.0, -2.0),
            (-2.0, (0.0, 1.0)),
            "b.min(a) at a == b"
        );
        // Away from the tie: all to the larger (max) or smaller (min) argument.
        assert_eq!(max_grad(1.0, 2.0), (2.0, (0.0, 1.0)));
        assert_eq!(min_grad(1.0, 2.0), (1.0, (1.0, 0.0)));
    }

    #[test]
    fn relu_gradient() {
        GradCheck::new("relu")
            .kink(|&[x]| x.abs())
            .unary(&around_zero(615), relu, relu_grad);
    }

    #[test]
    fn relu_at_zero_goes_to_the_receiver() {
        assert_eq!(relu_grad(0.0), (0.0, 1.0), "x.max(0.0) at x == 0");
        assert_eq!(relu_grad(-1.0), (0.0, 0.0));
        assert_eq!(relu_grad(1.0), (1.0, 1.0));
    }

    #[test]
    fn clamp_gradient() {
        let points = concat(&[
            uniform(617, 14, [(-5.0, 5.0), (-3.0, -0.5), (0.5, 3.0)]),
            sample(618, 5, |rng| {
                let lo = rng.gen_range(-3.0..-0.5);
                [lo + near_zero(rng), lo, rng.gen_range(0.5..3.0)]
            }),
            sample(619, 5, |rng| {
                let hi = rng.gen_range(0.5..3.0);
                [hi + near_zero(rng), rng.gen_range(-3.0..-0.5), hi]
            }),
        ]);
        GradCheck::new("clamp")
            .kink(|&[x, lo, hi]| (x - lo).abs().min((x - hi).abs()))
            .ternary(&points, clamp, clamp_grad);
    }

    #[test]
    fn clamp_const_gradient() {
        let points = concat(&[
            uniform(620, 14, [(-4.0, 4.0)]),
            sample(621, 5, |rng| [-1.0 + near_zero(rng)]),
            sample(622, 5, |rng| [2.0 + near_zero(rng)]),
        ]);
        GradCheck::new("clamp_const")
            .kink(|&[x]| (x + 1.0).abs().min((x - 2.0).abs()))
            .unary(&points, clamp_const, clamp_const_grad);
    }

    #[test]
    fn clamp_at_a_bound_goes_to_x() {
        assert_eq!(
            clamp_grad(-1.0, -1.0, 2.0),
            (-1.0, (1.0, 0.0, 0.0)),
            "x == lo"
        );
        assert_eq!(
            clamp_grad(2.0, -1.0, 2.0),
            (2.0, (1.0, 0.0, 0.0)),
            "x == hi"
        );
        assert_eq!(
            clamp_grad(0.5, -1.0, 2.0),
            (0.5, (1.0, 0.0, 0.0)),
            "lo < x < hi"
        );
        assert_eq!(
            clamp_grad(-3.0, -1.0, 2.0),
            (-1.0, (0.0, 1.0, 0.0)),
            "x < lo"
        );
        assert_eq!(clamp_grad(5.0, -1.0, 2.0), (2.0, (0.0, 0.0, 1.0)), "x > hi");
        assert_eq!(clamp_const_grad(-1.0), (-1.0, 1.0), "x == -1.0 (lo)");
        assert_eq!(clamp_const_grad(2.0), (2.0, 1.0), "x == 2.0 (hi)");
        assert_eq!(clamp_const_grad(-1.5), (-1.0, 0.0));
        assert_eq!(clamp_const_grad(3.0), (2.0, 0.0));
    }
}

/// Integer and bool locals, `as` casts from integers, `const` items and `core` float constants.
mod locals_and_consts {
    use crate::common::{GradCheck, assert_close, uniform};
    use stackgrad::differentiable;

    const SCALE: f64 = 2.5;
    const POWER: i32 = 3;

    #[differentiable]
    pub fn int_locals(x: f64, y: f64) -> f64 {
        let n = 3;
        let mut k: i32 = n * 2 - 1;
        k += 1;
        let w = (n as f64) * x + (k as f64) * y;
        w * x.powi(k - 4)
    }

    #[differentiable]
    pub fn int_param(x: f64, n: i32) -> f64 {
        let k = n * 2;
        (k as f64) * x.sin() + (n as f64)
    }

    #[differentiable]
    pub fn bool_locals(x: f64, y: f64) -> f64 {
        let positive = x > 0.0;
        let close = (x - y).abs() < 0.5;
        let flag = positive && !close;
        if flag || y >= 2.0 {
            x * y
        } else if !positive {
            x.sin() + y
        } else {
            y * y - x
        }
    }

    #[differentiable]
    pub fn constants(x: f64) -> f64 {
        SCALE * x.powi(POWER) + core::f64::consts::PI * x.sin() + core::f64::consts::E
    }

    #[test]
    fn int_locals_gradient() {
        GradCheck::new("int_locals").binary(
            &uniform(701, 24, [(-3.0, 3.0); 2]),
            int_locals,
            int_locals_grad,
        );
        // (3x + 6y) x^2.
        let (x, y) = (1.5, -0.5);
        let (value, (d_x, d_y)) = int_locals_grad(x, y);
        assert_close(
            "int_locals value",
            value,
            (3.0 * x + 6.0 * y) * x * x,
            1e-15,
        );
        assert_close("int_locals d_x", d_x, 9.0 * x * x + 12.0 * x * y, 1e-15);
        assert_close("int_locals d_y", d_y, 6.0 * x * x, 1e-15);
    }

    #[test]
    fn int_param_gradient() {
        for n in -2..=3 {
            let points = uniform((702 + n) as u64, 20, [(-3.0, 3.0)]);
            GradCheck::new("int_param").run(
                &points,
                |[x]| int_param(x, n),
                |[x]| {
                    let (value, d_x) = int_param_grad(x, n);
                    (value, [d_x])
                },
            );
        }
    }

    #[test]
    fn bool_locals_gradient() {
        let points = uniform(710, 40, [(-3.0, 3.0), (-1.0, 3.0)]);
        GradCheck::new("bool_locals")
            .kink(|&[x, y]| {
                x.abs()
                    .min(((x - y).abs() - 0.5).abs())
                    .min((y - 2.0).abs())
            })
            .binary(&points, bool_locals, bool_locals_grad);
        // One point in each branch, closed forms.
        assert_eq!(bool_locals_grad(2.0, 0.5), (1.0, (0.5, 2.0)), "flag");
        assert_eq!(
            bool_locals_grad(1.75, 2.0),
            (3.5, (2.0, 1.75)),
            "y >= 2, flag false"
        );
        let (_, (d_x, d_y)) = bool_locals_grad(-1.0, 1.0);
        assert_close("!positive d_x", d_x, (-1f64).cos(), 1e-15);
        assert_eq!(d_y, 1.0, "!positive d_y");
        assert_eq!(bool_locals_grad(1.0, 1.25), (0.5625, (-1.0, 2.5)), "else");
    }

    #[test]
    fn constants_gradient() {
        GradCheck::new("constants").unary(
            &uniform(711, 24, [(-3.0, 3.0)]),
            constants,
            constants_grad,
        );
        let x = 0.75;
        let (_, d_x) = constants_grad(x);
        let expected = 7.5 * x * x + core::f64::consts::PI * x.cos();
        assert_close("constants d_x", d_x, expected, 1e-15);
    }
}

/// `if` / `else if` / `else` as statements and expressions, comparisons, early `return`.
mod control_flow {
    use crate::common::{GradCheck, assert_close, concat, near_zero, sample, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn if_statement(x: f64, y: f64) -> f64 {
        let mut z = x * y;
        if x > 0.5 {
            z *= x;
        }
        if y < 0.0 {
            z -= y.exp();
        } else {
            z += y * y;
        }
        z
    }

    #[differentiable]
    pub fn if_expression(x: f64, y: f64) -> f64 {
        let z = if x > y { x * y } else { x - y.sin() };
        let w = 3.0 * if z > 0.0 { z + 1.0 } else { z * z };
        (if w < 2.0 { w + x } else { w * y }) * 0.5
    }

    #[differentiable]
    pub fn else_if_chain(x: f64) -> f64 {
        if x < -1.0 {
            x * x
        } else if x < 0.0 {
            x.sin() + 1.0
        } else if x <= 1.0 {
            x.exp()
        } else {
            x.ln() * 3.0
        }
    }

    #[differentiable]
    pub fn comparisons(x: f64, y: f64) -> f64 {
        let mut z = x * y;
        if x < y {
            z += x;
        }
        if x <= 0.5 {
            z *= 2.0;
        }
        if y > 1.0 {
            z -= y * y;
        }
        if y >= -1.0 && x > -2.0 {
            z += y.sin();
        }
        let big = x * y > 4.0;
        if !big || y > 2.5 {
            z *= y;
        }
        z
    }

    #[differentiable]
    pub fn equality(x: f64, y: f64) -> f64 {
        if x == y {
            x * 3.0
        } else if x != 1.0 {
            x * y
        } else {
            y
        }
    }

    #[differentiable]
    pub fn early_return(x: f64, y: f64) -> f64 {
        let s = x * y;
        if x < -1.0 {
            return s + x;
        } else if x < 0.0 {
            let t = s.sin();
            if y > 0.0 {
                return t * y;
            }
            return t - y;
        } else if x < 1.0 {
            let u = s * s;
            return u + y;
        }
        let v = s.exp();
        v / x
    }

    #[differentiable]
    pub fn early_return_else(x: f64) -> f64 {
        let mut z = x * 2.0;
        if x > 2.0 {
            return z.ln();
        } else if x > 0.0 {
            z *= x;
        } else {
            return -z * x;
        }
        z + x.sin()
    }

    #[differentiable]
    #[allow(clippy::needless_return)]
    pub fn final_return(x: f64) -> f64 {
        let y = x * x;
        return y.sin() + x;
    }

    /// Points in `[lo, hi)` plus points within `tiny` of each of `boundaries`.
    fn around(seed: u64, lo: f64, hi: f64, boundaries: &[f64]) -> Vec<[f64; 1]> {
        let mut points = uniform(seed, 24, [(lo, hi)]);
        for (i, &boundary) in boundaries.iter().enumerate() {
            points.extend(sample(seed + 1 + i as u64, 4, |rng| {
                [boundary + near_zero(rng)]
            }));
        }
        points
    }

    #[test]
    fn if_statement_gradient() {
        let points = concat(&[
            uniform(801, 24, [(-3.0, 3.0); 2]),
            sample(802, 4, |rng| {
                [0.5 + near_zero(rng), rng.gen_range(-3.0..3.0)]
            }),
            sample(803, 4, |rng| [rng.gen_range(-3.0..3.0), near_zero(rng)]),
        ]);
        GradCheck::new("if_statement")
            .kink(|&[x, y]| (x - 0.5).abs().min(y.abs()))
            .binary(&points, if_statement, if_statement_grad);
    }

    #[test]
    fn if_expression_gradient() {
        let points = uniform(804, 40, [(-2.0, 2.0); 2]);
        GradCheck::new("if_expression")
            // A switch is |switching quantity| / |its gradient| away; on [-2, 2]^2 the gradients
            // of x - y, z and w are below 2, 5 and 16.
            .kink(|&[x, y]| {
                let z = if x > y { x * y } else { x - y.sin() };
                let w = 3.0 * if z > 0.0 { z + 1.0 } else { z * z };
                ((x - y).abs() / 2.0)
                    .min(z.abs() / 5.0)
                    .min((w - 2.0).abs() / 16.0)
            })
            .binary(&points, if_expression, if_expression_grad);
    }

    #[test]
    fn else_if_chain_gradient() {
        let points = around(805, -3.0, 3.0, &[-1.0, 0.0, 1.0]);
        GradCheck::new("else_if_chain")
            .kink(|&[x]| (x + 1.0).abs().min(x.abs()).min((x - 1.0).abs()))
            .unary(&points, else_if_chain, else_if_chain_grad);
        // One point per branch, closed forms.
        assert_close("x^2", else_if_chain_grad(-2.0).1, -4.0, 1e-15);
        assert_close(
            "sin x + 1",
            else_if_chain_grad(-0.5).1,
            (-0.5f64).cos(),
            1e-15,
        );
        assert_close(
            "e^x at x = 1 (x <= 1.0)",
            else_if_chain_grad(1.0).1,
            1f64.exp(),
            1e-15,
        );
        assert_close("3 ln x", else_if_chain_grad(2.0).1, 1.5, 1e-15);
    }

    #[test]
    fn comparisons_gradient() {
        let points = uniform(809, 48, [(-3.0, 3.0); 2]);
        GradCheck::new("comparisons")
            .kink(|&[x, y]| {
                [
                    x - y,
                    x - 0.5,
                    y - 1.0,
                    y + 1.0,
                    x + 2.0,
                    (x * y - 4.0) / 3.0,
                    y - 2.5,
                ]
                .iter()
                .fold(f64::INFINITY, |nearest, d| nearest.min(d.abs()))
            })
            .binary(&points, comparisons, comparisons_grad);
    }

    #[test]
    fn equality_gradient() {
        GradCheck::new("equality").binary(
            &uniform(810, 24, [(-3.0, 3.0); 2]),
            equality,
            equality_grad,
        );
        assert_eq!(equality_grad(2.0, 2.0), (6.0, (3.0, 0.0)), "x == y");
        assert_eq!(equality_grad(1.0, 5.0), (5.0, (0.0, 1.0)), "x == 1");
        assert_eq!(equality_grad(1.5, 2.0), (3.0, (2.0, 1.5)), "otherwise");
    }

    #[test]
    fn early_return_gradient() {
        // Six points in each of the five exits: x < -1, -1 <= x < 0 (y > 0 and y <= 0),
        // 0 <= x < 1, x >= 1.
        let points = concat(&[
            uniform(811, 6, [(-3.0, -1.0), (-2.0, 2.0)]),
            uniform(812, 6, [(-1.0, 0.0), (0.0, 2.0)]),
            uniform(813, 6, [(-1.0, 0.0), (-2.0, 0.0)]),
            uniform(814, 6, [(0.0, 1.0), (-2.0, 2.0)]),
            uniform(815, 6, [(1.0, 2.0), (-1.0, 1.0)]),
        ]);
        GradCheck::new("early_return")
            .kink(|&[x, y]| {
                let to_switch = (x + 1.0).abs().min(x.abs()).min((x - 1.0).abs());
                if (-1.0..0.0).contains(&x) {
                    to_switch.min(y.abs())
                } else {
                    to_switch
                }
            })
            .binary(&points, early_return, early_return_grad);
        // One point per exit, closed forms (s = x y).
        assert_eq!(early_return_grad(-2.0, 0.5), (-3.0, (1.5, -2.0)), "s + x");
        let (_, (d_x, d_y)) = early_return_grad(-0.5, 2.0);
        assert_close("sin(s) y, d_x", d_x, 4.0 * (-1f64).cos(), 1e-15);
        assert_close("sin(s) y, d_y", d_y, (-1f64).sin() - (-1f64).cos(), 1e-15);
        let (_, (d_x, d_y)) = early_return_grad(-0.5, -2.0);
        assert_close("sin(s) - y, d_x", d_x, -2.0 * 1f64.cos(), 1e-15);
        assert_close("sin(s) - y, d_y", d_y, -0.5 * 1f64.cos() - 1.0, 1e-15);
        assert_eq!(early_return_grad(0.5, 2.0), (3.0, (4.0, 2.0)), "s^2 + y");
        // e^s / x: d/dx = e^s (y / x - 1 / x^2), d/dy = e^s.
        let (_, (d_x, d_y)) = early_return_grad(2.0, 1.0);
        assert_close("e^s / x, d_x", d_x, 2f64.exp() / 4.0, 1e-15);
        assert_close("e^s / x, d_y", d_y, 2f64.exp(), 1e-15);
    }

    #[test]
    fn early_return_else_gradient() {
        let points = around(816, -3.0, 4.0, &[0.0, 2.0]);
        GradCheck::new("early_return_else")
            .kink(|&[x]| x.abs().min((x - 2.0).abs()))
            .unary(&points, early_return_else, early_return_else_grad);
        assert_close("ln(2x)", early_return_else_grad(3.0).1, 1.0 / 3.0, 1e-15);
        assert_close(
            "2x^2 + sin x",
            early_return_else_grad(1.0).1,
            4.0 + 1f64.cos(),
            1e-15,
        );
        assert_close("-2x^2", early_return_else_grad(-1.0).1, 4.0, 1e-15);
    }

    #[test]
    fn final_return_gradient() {
        GradCheck::new("final_return").unary(
            &uniform(819, 24, [(-3.0, 3.0)]),
            final_return,
            final_return_grad,
        );
    }
}

/// Calls to other `#[differentiable]` functions: by name, by module path, nested, in branches.
mod composition {
    use crate::common::{GradCheck, assert_close, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn square(x: f64) -> f64 {
        x * x
    }

    #[differentiable]
    pub fn mix(x: f64, y: f64) -> f64 {
        x.sin() * y + x
    }

    #[differentiable]
    pub fn power(x: f64, n: i32) -> f64 {
        x.powi(n)
    }

    pub mod inner {
        use stackgrad::differentiable;

        /// softplus
        #[differentiable]
        pub fn soft(x: f64) -> f64 {
            (x.exp() + 1.0).ln()
        }
    }

    #[differentiable]
    pub fn calls(x: f64, y: f64) -> f64 {
        square(x) + mix(x, y) * 2.0
    }

    #[differentiable]
    pub fn path_call(x: f64) -> f64 {
        inner::soft(x) * x
    }

    #[differentiable]
    pub fn crate_path_call(x: f64) -> f64 {
        crate::composition::inner::soft(x * 2.0) - x
    }

    #[differentiable]
    pub fn nested(x: f64, y: f64) -> f64 {
        square(mix(x, y))
    }

    #[differentiable]
    pub fn nested_deep(x: f64) -> f64 {
        inner::soft(square(inner::soft(x)))
    }

    #[differentiable]
    pub fn same_callee_twice(x: f64, y: f64) -> f64 {
        square(x) - square(y) * 0.5 + square(x * y)
    }

    #[differentiable]
    pub fn call_as_receiver(x: f64) -> f64 {
        square(x).sin()
    }

    #[differentiable]
    pub fn call_in_branches(x: f64, y: f64) -> f64 {
        if x > 0.0 {
            square(x) * y
        } else if y > 0.0 {
            inner::soft(x) + mix(y, x)
        } else {
            mix(x, y)
        }
    }

    #[differentiable]
    pub fn call_with_int(x: f64, y: f64) -> f64 {
        power(x, 3) + power(y, -1)
    }

    #[differentiable]
    pub fn two_levels(x: f64, y: f64) -> f64 {
        calls(x * 2.0, y) + path_call(y)
    }

    #[test]
    fn calls_gradient() {
        GradCheck::new("calls").binary(&uniform(901, 24, [(-3.0, 3.0); 2]), calls, calls_grad);
        // x^2 + 2 (y sin x + x).
        let (x, y) = (0.5, -1.5);
        let (_, (d_x, d_y)) = calls_grad(x, y);
        assert_close("calls d_x", d_x, 2.0 * x + 2.0 * (y * x.cos() + 1.0), 1e-15);
        assert_close("calls d_y", d_y, 2.0 * x.sin(), 1e-15);
    }

    #[test]
    fn path_call_gradient() {
        GradCheck::new("path_call").unary(
            &uniform(902, 24, [(-4.0, 4.0)]),
            path_call,
            path_call_grad,
        );
        // softplus(x) x: softplus'(x) = logistic(x).
        let x: f64 = 0.25;
        let logistic = 1.0 / (1.0 + (-x).exp());
        let expected = logistic * x + (x.exp() + 1.0).ln();
        assert_close("path_call d_x", path_call_grad(x).1, expected, 1e-14);
    }

    #[test]
    fn crate_path_call_gradient() {
        GradCheck::new("crate_path_call").unary(
            &uniform(903, 24, [(-4.0, 4.0)]),
            crate_path_call,
            crate_path_call_grad,
        );
    }

    #[test]
    fn nested_gradient() {
        GradCheck::new("nested").binary(&uniform(904, 24, [(-3.0, 3.0); 2]), nested, nested_grad);
    }

    #[test]
    fn nested_deep_gradient() {
        GradCheck::new("nested_deep").unary(
            &uniform(905, 24, [(-3.0, 3.0)]),
            nested_deep,
            nested_deep_grad,
        );
    }

    #[test]
    fn same_callee_twice_gradient() {
        GradCheck::new("same_callee_twice").binary(
            &uniform(906, 24, [(-3.0, 3.0); 2]),
            same_callee_twice,
            same_callee_twice_grad,
        );
    }

    #[test]
    fn call_as_receiver_gradient() {
        GradCheck::new("call_as_receiver").unary(
            &uniform(907, 24, [(-3.0, 3.0)]),
            call_as_receiver,
            call_as_receiver_grad,
        );
    }

    #[test]
    fn call_in_branches_gradient() {
        GradCheck::new("call_in_branches")
            .kink(|&[x, y]| x.abs().min(y.abs()))
            .binary(
                &uniform(908, 36, [(-3.0, 3.0); 2]),
                call_in_branches,
                call_in_branches_grad,
            );
    }

    #[test]
    fn call_with_int_gradient() {
        GradCheck::new("call_with_int").binary(
            &uniform(909, 24, [(-3.0, 3.0), (0.3, 3.0)]),
            call_with_int,
            call_with_int_grad,
        );
    }

    #[test]
    fn two_levels_gradient() {
        GradCheck::new("two_levels").binary(
            &uniform(910, 24, [(-2.0, 2.0); 2]),
            two_levels,
            two_levels_grad,
        );
    }
}

/// `#[differentiable(wrt(..))]`: the shape of `_grad` and `_adjoint`, and integer parameters.
mod wrt {
    use crate::common::{assert_close, uniform};
    use stackgrad::differentiable;

    #[differentiable(wrt(y))]
    pub fn only_y(x: f64, y: f64) -> f64 {
        x.sin() * y * y
    }

    #[differentiable(wrt(x, z))]
    pub fn x_and_z(x: f64, y: f64, z: f64) -> f64 {
        x * y + y * z.exp() + x * z
    }

    #[differentiable(wrt(z, x))]
    pub fn z_and_x(x: f64, y: f64, z: f64) -> f64 {
        x * y + y * z.exp() + x * z
    }

    #[differentiable(wrt(x))]
    pub fn int_exponent(x: f64, n: i32) -> f64 {
        x.powi(n) * 2.0
    }

    #[differentiable]
    pub fn default_skips_int(x: f64, n: i32, y: f64) -> f64 {
        x.powi(n) + y * (n as f64)
    }

    #[differentiable]
    pub fn default_skips_bool(x: f64, negate: bool) -> f64 {
        if negate { -x.exp() } else { x.exp() }
    }

    #[differentiable(wrt(x))]
    pub fn float_in_condition_only(x: f64, threshold: f64) -> f64 {
        if x > threshold { x * threshold } else { x }
    }

    #[test]
    fn only_y_gradient() {
        for [x, y] in uniform(1001, 24, [(-3.0, 3.0); 2]) {
            let (value, d_y): (f64, f64) = only_y_grad(x, y);
            assert_eq!(value, only_y(x, y));
            assert_close("only_y d_y", d_y, 2.0 * x.sin() * y, 1e-15);
            let mut tape = OnlyYTape::new();
            only_y_forward(x, y, &mut tape);
            let mut d_y_adjoint = 0.0;
            only_y_adjoint(x, y, &tape, 1.0, &mut d_y_adjoint);
            assert_close("only_y_adjoint d_y", d_y_adjoint, 2.0 * x.sin() * y, 1e-15);
        }
    }

    #[test]
    fn x_and_z_gradient() {
        for [x, y, z] in uniform(1002, 24, [(-3.0, 3.0); 3]) {
            let (value, (d_x, d_z)): (f64, (f64, f64)) = x_and_z_grad(x, y, z);
            assert_eq!(value, x_and_z(x, y, z));
            assert_close("x_and_z d_x", d_x, y + z, 1e-15);
            assert_close("x_and_z d_z", d_z, y * z.exp() + x, 1e-15);
            let mut tape = XAndZTape::new();
            x_and_z_forward(x, y, z, &mut tape);
            let (mut d_x_adjoint, mut d_z_adjoint) = (0.0, 0.0);
            x_and_z_adjoint(x, y, z, &tape, 1.0, &mut d_x_adjoint, &mut d_z_adjoint);
            assert_close("x_and_z_adjoint d_x", d_x_adjoint, y + z, 1e-15);
            assert_close("x_and_z_adjoint d_z", d_z_adjoint, y * z.exp() + x, 1e-15);
        }
    }

    /// `wrt(z, x)` lists z first; the gradient tuple is still in parameter order (x, z).
    #[test]
    fn gradient_is_in_parameter_order() {
        for [x, y, z] in uniform(1003, 24, [(-3.0, 3.0); 3]) {
            let (_, (d_x, d_z)): (f64, (f64, f64)) = z_and_x_grad(x, y, z);
            assert_close("z_and_x d_x", d_x, y + z, 1e-15);
            assert_close("z_and_x d_z", d_z, y * z.exp() + x, 1e-15);
        }
    }

    #[test]
    fn int_exponent_gradient() {
        for (i, [x]) in uniform(1004, 24, [(0.2, 3.0)]).into_iter().enumerate() {
            let n = i as i32 % 7 - 3;
            let (value, d_x): (f64, f64) = int_exponent_grad(x, n);
            assert_eq!(value, int_exponent(x, n));
            let expected = 2.0 * f64::from(n) * x.powi(n - 1);
            assert_close("int_exponent d_x", d_x, expected, 1e-14);
        }
    }

    #[test]
    fn default_skips_int_gradient() {
        for (i, [x, y]) in uniform(1005, 24, [(0.2, 3.0), (-3.0, 3.0)])
            .into_iter()
            .enumerate()
        {
            let n = i as i32 % 5 - 1;
            let (_, (d_x, d_y)): (f64, (f64, f64)) = default_skips_int_grad(x, n, y);
            assert_close(
                "default_skips_int d_x",
                d_x,
                f64::from(n) * x.powi(n - 1),
                1e-14,
            );
            assert_eq!(d_y, f64::from(n), "default_skips_int d_y");
            let mut tape = DefaultSkipsIntTape::new();
            default_skips_int_forward(x, n, y, &mut tape);
            let (mut d_x_adjoint, mut d_y_adjoint) = (0.0, 0.0);
            default_skips_int_adjoint(x, n, y, &tape, 1.0, &mut d_x_adjoint, &mut d_y_adjoint);
            assert_close("default_skips_int_adjoint d_x", d_x_adjoint, d_x, 1e-15);
            assert_close("default_skips_int_adjoint d_y", d_y_adjoint, d_y, 1e-15);
        }
    }

    #[test]
    fn default_skips_bool_gradient() {
        for [x] in uniform(1006, 24, [(-3.0, 3.0)]) {
            let (_, d_x): (f64, f64) = default_skips_bool_grad(x, false);
            assert_close("d/dx e^x", d_x, x.exp(), 1e-15);
            let (_, d_x): (f64, f64) = default_skips_bool_grad(x, true);
            assert_close("d/dx -e^x", d_x, -x.exp(), 1e-15);
        }
    }

    #[test]
    fn float_in_condition_only_gradient() {
        for [x, threshold] in uniform(1007, 24, [(-3.0, 3.0); 2]) {
            let (_, d_x): (f64, f64) = float_in_condition_only_grad(x, threshold);
            let expected = if x > threshold { threshold } else { 1.0 };
            assert_eq!(d_x, expected, "at x = {x}, threshold = {threshold}");
        }
    }
}

/// Tuple outputs: `d_out` is a tuple, and no `_grad` is emitted.
mod tuple_output {
    use crate::common::{GradCheck, assert_close, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn polar(r: f64, theta: f64) -> (f64, f64) {
        (r * theta.cos(), r * theta.sin())
    }

    #[differentiable]
    pub fn shared(x: f64, y: f64) -> (f64, f64) {
        let s = (x * y).sin();
        let c = s * x;
        (c + y, s - c * y)
    }

    #[differentiable]
    pub fn split(x: f64, y: f64) -> (f64, f64) {
        if x > 0.0 {
            return (x * y, y.exp());
        }
        (y, x * x)
    }

    #[differentiable(wrt(angle))]
    pub fn rotate(x: f64, angle: f64) -> (f64, f64) {
        let c = angle.cos();
        let s = angle.sin();
        (x * c, x * s)
    }

    /// Forward and adjoint at `(x, y)` with the given `d_out`: the outputs and the gradient.
    type Adjoint = fn(f64, f64, (f64, f64)) -> ((f64, f64), [f64; 2]);

    /// Checks the adjoint with `d_out = (1, 0)`, `(0, 1)` and a random `(a, b)` against finite
    /// differences of `a u + b v`.
    fn check(
        name: &'static str,
        seed: u64,
        kink: fn(&[f64; 2]) -> f64,
        f: fn(f64, f64) -> (f64, f64),
        adjoint_at: Adjoint,
    ) {
        let points = uniform(seed, 24, [(-3.0, 3.0); 2]);
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(seed + 1);
        let random: (f64, f64) = (rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0));
        for (a, b) in [(1.0, 0.0), (0.0, 1.0), random] {
            GradCheck::new(name).kink(kink).run(
                &points,
                |[x, y]| {
                    let (u, v) = f(x, y);
                    a * u + b * v
                },
                |[x, y]| {
                    let ((u, v), gradient) = adjoint_at(x, y, (a, b));
                    (a * u + b * v, gradient)
                },
            );
        }
    }

    #[test]
    fn polar_gradient() {
        check(
            "polar",
            1101,
            |_| f64::INFINITY,
            polar,
            |r, theta, d_out| {
                let mut tape = PolarTape::new();
                let value = polar_forward(r, theta, &mut tape);
                let (mut d_r, mut d_theta) = (0.0, 0.0);
                polar_adjoint(r, theta, &tape, d_out, &mut d_r, &mut d_theta);
                (value, [d_r, d_theta])
            },
        );
    }

    #[test]
    fn shared_gradient() {
        check(
            "shared",
            1103,
            |_| f64::INFINITY,
            shared,
            |x, y, d_out| {
                let mut tape = SharedTape::new();
                let value = shared_forward(x, y, &mut tape);
                let (mut d_x, mut d_y) = (0.0, 0.0);
                shared_adjoint(x, y, &tape, d_out, &mut d_x, &mut d_y);
                (value, [d_x, d_y])
            },
        );
    }

    #[test]
    fn split_gradient() {
        check(
            "split",
            1105,
            |&[x, _]| x.abs(),
            split,
            |x, y, d_out| {
                let mut tape = SplitTape::new();
                let value = split_forward(x, y, &mut tape);
                let (mut d_x, mut d_y) = (0.0, 0.0);
                split_adjoint(x, y, &tape, d_out, &mut d_x, &mut d_y);
                (value, [d_x, d_y])
            },
        );
    }

    #[test]
    fn rotate_gradient() {
        for [x, angle] in uniform(1107, 24, [(-3.0, 3.0); 2]) {
            let mut tape = RotateTape::new();
            let value = rotate_forward(x, angle, &mut tape);
            assert_eq!(value, rotate(x, angle));
            let mut d_angle = 0.0;
            rotate_adjoint(x, angle, &tape, (0.5, -2.0), &mut d_angle);
            // d/dangle of 0.5 x cos(angle) - 2 x sin(angle).
            let expected = -0.5 * x * angle.sin() - 2.0 * x * angle.cos();
            assert_close("rotate d_angle", d_angle, expected, 1e-14);
        }
    }
}

/// The micrograd README expression and the Rosenbrock function at known points.
mod known_values {
    use crate::common::{GradCheck, assert_close, uniform};
    use stackgrad::differentiable;

    /// karpathy/micrograd's README example, `relu` as `max(0.0)` and `**3` as `powi(3)`.
    #[differentiable]
    #[allow(clippy::misrefactored_assign_op)] // `c += c + 1.0` as the README writes it
    pub fn micrograd(a: f64, b: f64) -> f64 {
        let mut c = a + b;
        let mut d = a * b + b.powi(3);
        c += c + 1.0;
        c += 1.0 + c + (-a);
        d += d * 2.0 + (b + a).max(0.0);
        d += 3.0 * d + (b - a).max(0.0);
        let e = c - d;
        let f = e.powi(2);
        let mut g = f / 2.0;
        g += 10.0 / f;
        g
    }

    #[differentiable]
    pub fn rosenbrock(x: f64, y: f64) -> f64 {
        (1.0 - x).powi(2) + 100.0 * (y - x * x).powi(2)
    }

    /// Asserts `|actual - expected| <= 1e-4`: the README prints four decimals.
    #[track_caller]
    fn assert_four_decimals(what: &str, actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() <= 1e-4,
            "{what}: got {actual}, the README says {expected}"
        );
    }

    #[test]
    fn micrograd_readme_values() {
        let (g, (d_a, d_b)) = micrograd_grad(-4.0, 2.0);
        assert_four_decimals("g", g, 24.7041);
        assert_four_decimals("dg/da", d_a, 138.8338);
        assert_four_decimals("dg/db", d_b, 645.5773);
    }

    #[test]
    fn micrograd_gradient() {
        // Away from the relu kinks (a + b = 0, b - a = 0) and from e = 0, where 10 / e^2 has a pole.
        let e = |a: f64, b: f64| {
            let c = 4.0 * (a + b) + 3.0 - a;
            let d = 12.0 * (a * b + b * b * b) + 4.0 * (a + b).max(0.0) + (b - a).max(0.0);
            c - d
        };
        let points: Vec<[f64; 2]> = uniform(1201, 60, [(-3.0, 3.0); 2])
            .into_iter()
            .filter(|&[a, b]| e(a, b).abs() > 1.0)
            .collect();
        GradCheck::new("micrograd")
            .kink(|&[a, b]| (a + b).abs().min((b - a).abs()))
            // e(a, b) moves up to 12 (|a| + |b| + 3 b^2) + 10 per unit of a or b, so g(e(a, b))
            // changes character over the reciprocal of that, not over 1.
            .scale(|&[a, b]| [1.0 / (12.0 * (a.abs() + b.abs() + 3.0 * b * b) + 10.0); 2])
            .binary(&points, micrograd, micrograd_grad);
    }

    #[test]
    fn rosenbrock_known_points() {
        // d/dx = -2 (1 - x) - 400 x (y - x^2), d/dy = 200 (y - x^2).
        assert_eq!(
            rosenbrock_grad(1.0, 1.0),
            (0.0, (0.0, 0.0)),
            "minimum at (1, 1)"
        );
        assert_eq!(rosenbrock_grad(0.0, 0.0), (1.0, (-2.0, 0.0)), "(0, 0)");
        let (value, (d_x, d_y)) = rosenbrock_grad(-1.2, 1.0);
        assert_close("value at (-1.2, 1)", value, 24.2, 1e-13);
        assert_close("d/dx at (-1.2, 1)", d_x, -215.6, 1e-13);
        assert_close("d/dy at (-1.2, 1)", d_y, -88.0, 1e-13);
    }

    #[test]
    fn rosenbrock_gradient() {
        GradCheck::new("rosenbrock").binary(
            &uniform(1202, 24, [(-2.0, 2.0), (-1.0, 3.0)]),
            rosenbrock,
            rosenbrock_grad,
        );
    }
}

/// f32 functions (and an f32 intermediate in f64 code), against f64 finite differences of the
/// same formula written in f64, to [`common::F32_RTOL`].
mod f32_functions {
    use crate::common::{GradCheck, concat, near_zero, round_to_f32, sample, uniform};
    use rand::Rng;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn exp_log_32(x: f32, y: f32) -> f32 {
        x.exp() * y.ln() + x.exp2() - y.log2() + y.log10() * x.exp_m1() + x.ln_1p() + y.log(3.0_f32)
    }

    fn exp_log_64(x: f64, y: f64) -> f64 {
        x.exp() * y.ln() + x.exp2() - y.log2() + y.log10() * x.exp_m1() + x.ln_1p() + y.log(3.0)
    }

    #[differentiable]
    pub fn trig_32(x: f32, y: f32) -> f32 {
        x.sin() * y.cos()
            + (0.5 * x).tan()
            + (0.3 * y).asin()
            + (0.3 * x).acos()
            + x.atan()
            + y.atan2(x + 3.0)
            + x.to_degrees() / 100.0
            + y.to_radians()
    }

    fn trig_64(x: f64, y: f64) -> f64 {
        x.sin() * y.cos()
            + (0.5 * x).tan()
            + (0.3 * y).asin()
            + (0.3 * x).acos()
            + x.atan()
            + y.atan2(x + 3.0)
            + x.to_degrees() / 100.0
            + y.to_radians()
    }

    #[differentiable]
    pub fn hyperbolic_32(x: f32) -> f32 {
        x.sinh() + x.cosh() * x.tanh() + x.asinh() + (x * x + 1.5).acosh() + (0.4 * x).atanh()
    }

    fn hyperbolic_64(x: f64) -> f64 {
        x.sinh() + x.cosh() * x.tanh() + x.asinh() + (x * x + 1.5).acosh() + (0.4 * x).atanh()
    }

    #[differentiable]
    pub fn powers_32(x: f32, y: f32) -> f32 {
        x.sqrt() * y.cbrt() + x.powi(3) - y.powi(-2)
            + x.powf(y)
            + x.recip()
            + x.hypot(y)
            + x.mul_add(y, 2.0)
    }

    fn powers_64(x: f64, y: f64) -> f64 {
        x.sqrt() * y.cbrt() + x.powi(3) - y.powi(-2)
            + x.powf(y)
            + x.recip()
            + x.hypot(y)
            + x.mul_add(y, 2.0)
    }

    #[differentiable]
    pub fn non_smooth_32(x: f32, y: f32) -> f32 {
        (x - y).abs() + x.max(y) * 2.0 - x.min(0.5) + (x * y).clamp(-1.0, 1.0) + x.signum() * y
    }

    fn non_smooth_64(x: f64, y: f64) -> f64 {
        (x - y).abs() + x.max(y) * 2.0 - x.min(0.5) + (x * y).clamp(-1.0, 1.0) + x.signum() * y
    }

    #[differentiable]
    pub fn branches_and_casts_32(x: f32, n: i32) -> f32 {
        let wide = x as f64;
        let s = (wide.sin() * 2.0) as f32;
        let k = n as f32;
        if x > 0.5 {
            s * k + x * core::f32::consts::PI
        } else {
            s - x * x
        }
    }

    fn branches_and_casts_64(x: f64, n: i32) -> f64 {
        let s = x.sin() * 2.0;
        if x > 0.5 {
            s * f64::from(n) + x * core::f64::consts::PI
        } else {
            s - x * x
        }
    }

    /// f64 code with an f32 intermediate.
    #[differentiable]
    pub fn narrowing(x: f64) -> f64 {
        let t = (x * 3.0) as f32;
        let u = t.exp();
        u as f64
    }

    #[differentiable]
    pub fn square_32(x: f32) -> f32 {
        x * x
    }

    #[differentiable]
    pub fn calls_32(x: f32, y: f32) -> f32 {
        square_32(x.sin()) * y
    }

    /// [`GradCheck::run`] for an f32 `_grad` of two parameters against an f64 twin.
    fn check_binary(
        name: &'static str,
        points: Vec<[f64; 2]>,
        kink: fn(&[f64; 2]) -> f64,
        twin: fn(f64, f64) -> f64,
        grad: fn(f32, f32) -> (f32, (f32, f32)),
    ) {
        GradCheck::new(name).f32().kink(kink).run(
            &round_to_f32(points),
            |[x, y]| twin(x, y),
            |[x, y]| {
                let (value, (d_x, d_y)) = grad(x as f32, y as f32);
                (f64::from(value), [f64::from(d_x), f64::from(d_y)])
            },
        );
    }

    #[test]
    fn exp_log_f32_gradient() {
        check_binary(
            "exp_log_32",
            uniform(1301, 24, [(0.0, 2.0), (0.5, 4.0)]),
            |_| f64::INFINITY,
            exp_log_64,
            exp_log_32_grad,
        );
    }

    #[test]
    fn trig_f32_gradient() {
        check_binary(
            "trig_32",
            uniform(1302, 24, [(-2.0, 2.0); 2]),
            |_| f64::INFINITY,
            trig_64,
            trig_32_grad,
        );
    }

    #[test]
    fn hyperbolic_f32_gradient() {
        GradCheck::new("hyperbolic_32").f32().run(
            &round_to_f32(uniform(1303, 24, [(-2.0, 2.0)])),
            |[x]| hyperbolic_64(x),
            |[x]| {
                let (value, d_x) = hyperbolic_32_grad(x as f32);
                (f64::from(value), [f64::from(d_x)])
            },
        );
    }

    #[test]
    fn powers_f32_gradient() {
        check_binary(
            "powers_32",
            uniform(1304, 24, [(0.5, 3.0), (0.5, 2.0)]),
            |_| f64::INFINITY,
            powers_64,
            powers_32_grad,
        );
    }

    #[test]
    fn non_smooth_f32_gradient() {
        let points = concat(&[
            uniform(1305, 20, [(-2.0, 2.0); 2]),
            sample(1306, 4, |rng| {
                let y = rng.gen_range(-2.0..2.0);
                [y + near_zero(rng).signum() * 1e-3, y]
            }),
        ]);
        check_binary(
            "non_smooth_32",
            points,
            |&[x, y]| {
                let kink_xy = ((x * y).abs() - 1.0).abs() / x.abs().max(y.abs()).max(1.0);
                (x - y).abs().min((x - 0.5).abs()).min(x.abs()).min(kink_xy)
            },
            non_smooth_64,
            non_smooth_32_grad,
        );
    }

    #[test]
    fn branches_and_casts_f32_gradient() {
        for n in [-2, 3] {
            GradCheck::new("branches_and_casts_32")
                .f32()
                .kink(|&[x]| (x - 0.5).abs())
                .run(
                    &round_to_f32(uniform((1307 + n) as u64, 24, [(-2.0, 3.0)])),
                    |[x]| branches_and_casts_64(x, n),
                    |[x]| {
                        let (value, d_x) = branches_and_casts_32_grad(x as f32, n);
                        (f64::from(value), [f64::from(d_x)])
                    },
                );
        }
    }

    #[test]
    fn narrowing_gradient() {
        GradCheck::new("narrowing").f32().run(
            &round_to_f32(uniform(1310, 24, [(-1.0, 1.0)])),
            |[x]| (x * 3.0).exp(),
            |[x]| {
                let (value, d_x) = narrowing_grad(x);
                (value, [d_x])
            },
        );
    }

    #[test]
    fn calls_f32_gradient() {
        check_binary(
            "calls_32",
            uniform(1311, 24, [(-3.0, 3.0); 2]),
            |_| f64::INFINITY,
            |x, y| x.sin() * x.sin() * y,
            calls_32_grad,
        );
    }
}

/// The generated API: `_forward` computes `f`, `_adjoint` accumulates and scales with `d_out`,
/// the tape type's `new`, `Default`, `Clone` and `BYTES`.
mod generated_api {
    use crate::common::{assert_close, uniform};
    use crate::composition::{CallsTape, TwoLevelsTape};
    use crate::known_values::{
        MicrogradTape, micrograd, micrograd_adjoint, micrograd_forward, micrograd_grad,
    };
    use crate::tuple_output::PolarTape;
    use stackgrad::differentiable;

    #[differentiable]
    pub fn branchy(x: f64, y: f64) -> f64 {
        let s = x * y;
        if s > 1.0 { s.sin() * x } else { s.exp() + y }
    }

    const EMPTY: BranchyTape = BranchyTape::new();

    /// Forward and adjoint on a fresh tape.
    fn adjoint(x: f64, y: f64, d_out: f64, d_x: &mut f64, d_y: &mut f64) -> f64 {
        let mut tape = EMPTY;
        let value = branchy_forward(x, y, &mut tape);
        branchy_adjoint(x, y, &tape, d_out, d_x, d_y);
        value
    }

    #[test]
    fn forward_computes_the_function() {
        for [x, y] in uniform(1401, 24, [(-3.0, 3.0); 2]) {
            let mut tape = BranchyTape::new();
            assert_eq!(
                branchy_forward(x, y, &mut tape),
                branchy(x, y),
                "branchy at ({x}, {y})"
            );
            let mut tape = MicrogradTape::new();
            assert_eq!(
                micrograd_forward(x, y, &mut tape),
                micrograd(x, y),
                "micrograd at ({x}, {y})"
            );
            let mut tape = PolarTape::new();
            let value = crate::tuple_output::polar_forward(x, y, &mut tape);
            assert_eq!(
                value,
                crate::tuple_output::polar(x, y),
                "polar at ({x}, {y})"
            );
            let mut tape = CallsTape::new();
            let value = crate::composition::calls_forward(x, y, &mut tape);
            assert_eq!(
                value,
                crate::composition::calls(x, y),
                "calls at ({x}, {y})"
            );
        }
    }

    #[test]
    fn adjoint_agrees_with_grad() {
        for [x, y] in uniform(1402, 24, [(-3.0, 3.0); 2]) {
            let (value, (g_x, g_y)) = branchy_grad(x, y);
            let (mut d_x, mut d_y) = (0.0, 0.0);
            assert_eq!(adjoint(x, y, 1.0, &mut d_x, &mut d_y), value);
            assert_close("d_x", d_x, g_x, 4.0 * f64::EPSILON);
            assert_close("d_y", d_y, g_y, 4.0 * f64::EPSILON);

            let (_, (g_a, g_b)) = micrograd_grad(x, y);
            let mut tape = MicrogradTape::new();
            micrograd_forward(x, y, &mut tape);
            let (mut d_a, mut d_b) = (0.0, 0.0);
            micrograd_adjoint(x, y, &tape, 1.0, &mut d_a, &mut d_b);
            assert_close("micrograd d_a", d_a, g_a, 4.0 * f64::EPSILON);
            assert_close("micrograd d_b", d_b, g_b, 4.0 * f64::EPSILON);
        }
    }

    #[test]
    fn adjoint_accumulates() {
        for [x, y] in uniform(1403, 24, [(-3.0, 3.0); 2]) {
            let (_, (g_x, g_y)) = branchy_grad(x, y);
            // Twice into the same buffers: doubled.
            let (mut d_x, mut d_y) = (0.0, 0.0);
            adjoint(x, y, 1.0, &mut d_x, &mut d_y);
            adjoint(x, y, 1.0, &mut d_x, &mut d_y);
            assert_close("d_x after two calls", d_x, 2.0 * g_x, 4.0 * f64::EPSILON);
            assert_close("d_y after two calls", d_y, 2.0 * g_y, 4.0 * f64::EPSILON);
            // Into non-zero buffers: added, not overwritten.
            let (mut d_x, mut d_y) = (0.75, -2.0);
            adjoint(x, y, 1.0, &mut d_x, &mut d_y);
            assert_close("d_x from 0.75", d_x, 0.75 + g_x, 4.0 * f64::EPSILON);
            assert_close("d_y from -2", d_y, -2.0 + g_y, 4.0 * f64::EPSILON);
        }
        // The same through nested tapes.
        let mut tape = TwoLevelsTape::new();
        crate::composition::two_levels_forward(0.3, -0.7, &mut tape);
        let (_, (g_x, g_y)) = crate::composition::two_levels_grad(0.3, -0.7);
        let (mut d_x, mut d_y) = (1.0, 1.0);
        crate::composition::two_levels_adjoint(0.3, -0.7, &tape, 1.0, &mut d_x, &mut d_y);
        assert_close("two_levels d_x from 1", d_x, 1.0 + g_x, 4.0 * f64::EPSILON);
        assert_close("two_levels d_y from 1", d_y, 1.0 + g_y, 4.0 * f64::EPSILON);
    }

    #[test]
    fn adjoint_scales_with_d_out() {
        for [x, y] in uniform(1404, 24, [(-3.0, 3.0); 2]) {
            let (_, (g_x, g_y)) = branchy_grad(x, y);
            for d_out in [2.5, -1.0, 0.0] {
                let (mut d_x, mut d_y) = (0.0, 0.0);
                adjoint(x, y, d_out, &mut d_x, &mut d_y);
                assert_close("d_x", d_x, d_out * g_x, 4.0 * f64::EPSILON);
                assert_close("d_y", d_y, d_out * g_y, 4.0 * f64::EPSILON);
            }
        }
    }

    /// A tape recorded at one point, then re-recorded at a point taking the other branch, gives
    /// the second point's gradient; a clone of a tape gives the same gradient as the tape.
    #[test]
    fn tape_is_reusable_and_clonable() {
        let (inside, outside) = ([2.0, 1.5], [0.5, 0.5]);
        for (first, second) in [(inside, outside), (outside, inside)] {
            let mut tape = BranchyTape::default();
            branchy_forward(first[0], first[1], &mut tape);
            branchy_forward(second[0], second[1], &mut tape);
            let copy = tape.clone();
            let (_, (g_x, g_y)) = branchy_grad(second[0], second[1]);
            for recorded in [&tape, &copy] {
                let (mut d_x, mut d_y) = (0.0, 0.0);
                branchy_adjoint(second[0], second[1], recorded, 1.0, &mut d_x, &mut d_y);
                assert_close("re-recorded d_x", d_x, g_x, 4.0 * f64::EPSILON);
                assert_close("re-recorded d_y", d_y, g_y, 4.0 * f64::EPSILON);
            }
        }
        // Closed forms: s = 3 > 1 gives sin(s) x; s = 0.25 gives e^s + y.
        let (_, (d_x, d_y)) = branchy_grad(2.0, 1.5);
        assert_close(
            "d_x at s = 3",
            d_x,
            3f64.sin() + 3f64.cos() * 1.5 * 2.0,
            1e-15,
        );
        assert_close("d_y at s = 3", d_y, 3f64.cos() * 2.0 * 2.0, 1e-15);
        let (_, (d_x, d_y)) = branchy_grad(0.5, 0.5);
        assert_close("d_x at s = 0.25", d_x, 0.25f64.exp() * 0.5, 1e-15);
        assert_close("d_y at s = 0.25", d_y, 0.25f64.exp() * 0.5 + 1.0, 1e-15);
    }

    #[test]
    fn tape_bytes_is_its_size() {
        assert_eq!(BranchyTape::BYTES, core::mem::size_of::<BranchyTape>());
        assert_eq!(MicrogradTape::BYTES, core::mem::size_of::<MicrogradTape>());
        assert_eq!(PolarTape::BYTES, core::mem::size_of::<PolarTape>());
        assert_eq!(CallsTape::BYTES, core::mem::size_of::<CallsTape>());
        assert_eq!(TwoLevelsTape::BYTES, core::mem::size_of::<TwoLevelsTape>());
        use crate::f32_functions::Calls32Tape;
        assert_eq!(Calls32Tape::BYTES, core::mem::size_of::<Calls32Tape>());
        // Usable in constant expressions.
        const BRANCHY_BYTES: usize = BranchyTape::BYTES;
        assert_eq!(BRANCHY_BYTES, BranchyTape::BYTES);
    }

    #[test]
    fn tape_new_is_const() {
        const TAPES: (BranchyTape, MicrogradTape, TwoLevelsTape) = (
            BranchyTape::new(),
            MicrogradTape::new(),
            TwoLevelsTape::new(),
        );
        let (mut branchy_tape, mut micrograd_tape, mut two_levels_tape) = TAPES;
        assert_eq!(
            branchy_forward(2.0, 1.5, &mut branchy_tape),
            branchy(2.0, 1.5)
        );
        assert_eq!(
            micrograd_forward(-4.0, 2.0, &mut micrograd_tape),
            micrograd(-4.0, 2.0)
        );
        let value = crate::composition::two_levels_forward(0.3, -0.7, &mut two_levels_tape);
        assert_eq!(value, crate::composition::two_levels(0.3, -0.7));
    }
}
