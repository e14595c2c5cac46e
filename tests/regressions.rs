//! Regression tests for the thirteen bugs a random-program search found in the documented language
//! (issue "Correctness first"). Each module holds one reproducer, written as the report gave it, and
//! checks its gradient against central finite differences of the user's own function (or against a
//! hand-derived value at a point where finite differences cannot see the convention).

// Index loops are the constructs under test.
#![allow(clippy::needless_range_loop)]

mod common;

/// Bug 1: A `const` in a condition made the gradient silently zero: the analysis took `m` for an
/// integer.
mod const_in_condition {
    use crate::common::{GradCheck, assert_close, uniform};
    use stackgrad::differentiable;

    const K: f64 = 0.5;

    #[differentiable]
    pub fn g(x: f64) -> f64 {
        let mut m = 1.0;
        for _ in 0..2 {
            if m > K {
                m += x * x;
            }
        }
        m
    }

    #[differentiable]
    pub fn literal_local(x: f64) -> f64 {
        let t = 1.0;
        if t < K { x } else { x * x * t }
    }

    #[differentiable]
    pub fn call_result(x: f64) -> f64 {
        let c = g(x);
        if c < K { c } else { c * x }
    }

    /// A mutable variable that starts as the constant and becomes a float.
    #[differentiable]
    pub fn accumulator(x: f64) -> f64 {
        let mut v = K;
        for _ in 0..3 {
            v += x * v;
        }
        v
    }

    #[differentiable]
    pub fn method_of_const(x: f64) -> f64 {
        if K.sin() < x { x * x } else { -x }
    }

    #[test]
    fn reported_point() {
        let (value, d_x) = g_grad(0.3);
        assert_close("g(0.3)", value, 1.18, 1e-15);
        // m = 1 + 2 x^2 after two passes: dm/dx = 4 x.
        assert_close("dg/dx(0.3)", d_x, 1.2, 1e-15);
    }

    #[test]
    fn gradients() {
        let points = uniform(11, 24, [(-1.5, 1.5)]);
        GradCheck::new("const in a condition").unary(&points, g, g_grad);
        GradCheck::new("literal local against a const").unary(
            &points,
            literal_local,
            literal_local_grad,
        );
        GradCheck::new("call result against a const").unary(&points, call_result, call_result_grad);
        GradCheck::new("const accumulator").unary(&points, accumulator, accumulator_grad);
        GradCheck::new("method of a const in a condition")
            .kink(|&[x]| (x - K.sin()).abs())
            .unary(&points, method_of_const, method_of_const_grad);
    }
}

/// Bug 2: An `if` expression inside a condition.
mod if_in_condition {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f(x: f64, y: f64) -> f64 {
        if (if y > 0.5 { 1.0 } else { x }) < y {
            x * y
        } else {
            x
        }
    }

    #[test]
    fn gradient() {
        GradCheck::new("if inside a condition")
            .kink(|&[x, y]| (y - 0.5).abs().min((x - y).abs()).min((1.0 - y).abs()))
            .binary(&uniform(21, 32, [(-1.5, 1.5), (-1.5, 1.5)]), f, f_grad);
    }
}

/// Bug 3: A call with a `&` argument inside a condition.
mod borrowed_call_in_condition {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn g(t: &[f64; 2], x: f64) -> f64 {
        t[0] * x + t[1]
    }

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        let t = [x, 1.0];
        if g(&t, x) < 0.5 { x * 3.0 } else { x * x }
    }

    #[test]
    fn gradient() {
        GradCheck::new("call with a reference in a condition")
            .kink(|&[x]| (x * x + 1.0 - 0.5).abs())
            .unary(&uniform(31, 24, [(-1.5, 1.5)]), f, f_grad);
    }
}

/// Bug 4: Overlapping parts of one struct parameter passed to one call.
mod overlapping_struct_parts {
    use crate::common::{Flat, GradCheck, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Copy, Debug, Default)]
    pub struct P {
        pub w: [f64; 2],
        pub m: [[f64; 2]; 3],
        pub b: f64,
    }

    impl Flat for P {
        fn read(coordinates: &mut &[f64]) -> Self {
            P {
                w: Flat::read(coordinates),
                m: Flat::read(coordinates),
                b: Flat::read(coordinates),
            }
        }

        fn write(&self, out: &mut Vec<f64>) {
            self.w.write(out);
            self.m.write(out);
            self.b.write(out);
        }
    }

    #[differentiable]
    pub fn h(a: f64, v: &[f64; 2]) -> f64 {
        a * v[0] + v[1] * v[1]
    }

    #[differentiable]
    pub fn h2(u: &[f64; 2], v: &[f64; 2]) -> f64 {
        u[0] * v[1] + u[1].sin() * v[0]
    }

    #[differentiable]
    pub fn hs(a: f64, q: &P) -> f64 {
        a * q.b + q.w[0] * q.m[1][1]
    }

    #[differentiable]
    pub fn element_and_array(p: &P) -> f64 {
        h(p.w[0], &p.w)
    }

    #[differentiable]
    pub fn same_row_twice(p: &P) -> f64 {
        h2(&p.m[2], &p.m[2])
    }

    #[differentiable]
    pub fn field_and_struct(p: &P) -> f64 {
        hs(p.b, p)
    }

    #[test]
    fn gradients() {
        let points = cube::<9>(41, 24, -1.5, 1.5);
        GradCheck::new("element and its array").flat(
            &points,
            element_and_array,
            element_and_array_grad,
        );
        GradCheck::new("one row twice").flat(&points, same_row_twice, same_row_twice_grad);
        GradCheck::new("field and its struct").flat(
            &points,
            field_and_struct,
            field_and_struct_grad,
        );
    }
}

/// Bug 5: `powi(0)` gave a NaN gradient at 0.
mod powi_zero {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        let z = x - 1.0;
        z.powi(0) * x
    }

    #[test]
    fn at_zero() {
        assert_eq!(f_grad(1.0), (1.0, 1.0));
    }

    #[test]
    fn gradient() {
        GradCheck::new("powi(0)").unary(&uniform(51, 24, [(-1.5, 1.5)]), f, f_grad);
    }
}

/// Bug 6: `#[recompute]` on a method of a cast.
mod recompute_cast_receiver {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f(x: f64, n: i32) -> f64 {
        #[recompute]
        let v = (n as f64).cos();
        x * v
    }

    #[test]
    fn gradient() {
        GradCheck::new("recomputed cos of a cast").run(
            &uniform(61, 24, [(-1.5, 1.5)]),
            |[x]| f(x, 3),
            |[x]| {
                let (value, d_x) = f_grad(x, 3);
                (value, [d_x])
            },
        );
        for n in [0, 1, 4] {
            assert_eq!(f_grad(0.5, n).1, (n as f64).cos());
        }
    }
}

/// Bug 7: A local array returned after an early return.
mod array_after_early_return {
    use crate::common::{GradCheck, uniform, weighted};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f(x: f64) -> [f64; 2] {
        let y = [x, x * x];
        let v = y[0] * x;
        if v > 0.5 {
            return [x, x];
        }
        y
    }

    #[test]
    fn gradient() {
        let w = [0.7, -1.3];
        GradCheck::new("array returned after an early return")
            .kink(|&[x]| (x * x - 0.5).abs())
            .run(
                &uniform(71, 24, [(-1.5, 1.5)]),
                |[x]| weighted(&w, &f(x)),
                |[x]| {
                    let mut tape = FTape::new();
                    let value = f_forward(x, &mut tape);
                    let mut d_x = 0.0;
                    f_adjoint(x, &tape, &w, &mut d_x);
                    (weighted(&w, &value), [d_x])
                },
            );
    }
}

/// Bug 8: A triangular loop over an `.enumerate()` index.
mod triangular_over_enumerate {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f(a: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for (i, e) in a.iter().enumerate() {
            for j in 0..i {
                s += e * a[j];
            }
        }
        s
    }

    #[test]
    fn gradient() {
        GradCheck::new("triangular loop over an enumerate index").flat(
            &cube::<4>(81, 24, -1.5, 1.5),
            f,
            f_grad,
        );
    }
}

/// Bug 9: `#[checkpoint(snapshots = S)]` and `binomial` on a loop bounded by a const generic.
mod checkpoint_const_generic {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f<const N: usize>(x: f64, b: &[f64; N]) -> f64 {
        let mut s = x;
        #[checkpoint(snapshots = 2)]
        for i in 0..N {
            s = (s * b[i]).sin();
        }
        s
    }

    #[differentiable]
    pub fn g<const N: usize>(x: f64, b: &[f64; N]) -> f64 {
        let mut s = x;
        #[checkpoint(snapshots = 2, binomial)]
        for i in 0..N {
            s = (s * b[i]).sin();
        }
        s
    }

    #[test]
    fn gradients() {
        let points = cube::<6>(91, 24, -1.5, 1.5);
        GradCheck::new("snapshots with a const generic bound").flat(
            &points,
            |(x, b): &(f64, [f64; 5])| f::<5>(*x, b),
            |(x, b): &(f64, [f64; 5])| f_grad::<5>(*x, b),
        );
        GradCheck::new("binomial with a const generic bound").flat(
            &points,
            |(x, b): &(f64, [f64; 5])| g::<5>(*x, b),
            |(x, b): &(f64, [f64; 5])| g_grad::<5>(*x, b),
        );
    }
}

/// Bug 10: A float cast assigned to an array element.
mod cast_into_element {
    use crate::common::{GradCheck, round_to_f32, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        let mut a = [x, x * x];
        a[0] = (x as f32).sin() as f64;
        a[0] * a[1]
    }

    #[test]
    fn gradient() {
        // A finite difference of an f32 sine is rounding noise; the reference is the f64 twin,
        // to f32 accuracy.
        GradCheck::new("cast into an element").f32().run(
            &round_to_f32(uniform(101, 24, [(-1.5, 1.5)])),
            |[x]| x.sin() * x * x,
            |[x]| {
                let (value, d_x) = f_grad(x);
                assert_eq!(value, f(x));
                (value, [d_x])
            },
        );
    }
}

/// Bug 11: In f32 code, arguments of calls got f64 adjoints.
mod f32_call_arguments {
    use crate::common::{GradCheck, round_to_f32, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn h(a: f32, x: f32) -> f32 {
        a * x
    }

    #[differentiable]
    pub fn g2(c: &[f32; 2], x: f32) -> f32 {
        c[0] * x + c[1] * x * x
    }

    #[differentiable]
    pub fn g(x: f32) -> f32 {
        x.sin()
    }

    #[differentiable]
    pub fn literal_argument(x: f32) -> f32 {
        h(1.5, x)
    }

    #[differentiable]
    pub fn nested(x: f32) -> f32 {
        h(h(x, x), x)
    }

    #[differentiable]
    pub fn through_f64(x: f32) -> f32 {
        (h(x, x) as f64).exp() as f32
    }

    #[differentiable]
    pub fn literal_local(x: f32) -> f32 {
        let c = 1.5;
        h(c, x)
    }

    #[differentiable]
    pub fn literal_array(x: f32) -> f32 {
        let c = [1.0, 2.0];
        g2(&c, x)
    }

    #[differentiable]
    pub fn from_f64(x: f64) -> f64 {
        g(x as f32) as f64
    }

    const K: f32 = 0.7;

    // Seed 48's p190: a call whose arguments are all constants of a type the macro does not
    // see, read through casts; its tape field was taken for `f64`.
    #[differentiable]
    pub fn constant_argument(x: f32) -> f32 {
        x * ((g(K) * 0.33) as f64 as f32)
    }

    #[differentiable]
    pub fn h64(a: f64) -> f64 {
        a * a + 1.0
    }

    // A call a `let` binds is typed by rustc from the callee (an f64 callee in f32 code).
    #[differentiable]
    pub fn let_of_another_float_type(x: f32) -> f32 {
        let c = h64(2.0);
        x * c as f32
    }

    #[differentiable]
    pub fn constant_arguments(x: f32) -> f32 {
        let c = h(K, K);
        x * c + (h(K, 2.0) as f64 * 0.5) as f32
    }

    type F32Fn = fn(f32) -> f32;
    type F32Grad = fn(f32) -> (f32, f32);

    fn check(name: &'static str, f: F32Fn, grad: F32Grad, f64_twin: fn(f64) -> f64) {
        let points = round_to_f32(uniform(111, 24, [(-1.0, 1.0)]));
        GradCheck::new(name).f32().run(
            &points,
            |[x]| f64_twin(x),
            |[x]| {
                let (value, d_x) = grad(x as f32);
                assert_eq!(value, f(x as f32), "{name}: value of _grad");
                (value as f64, [d_x as f64])
            },
        );
    }

    #[test]
    fn gradients() {
        check(
            "literal argument",
            literal_argument,
            literal_argument_grad,
            |x| 1.5 * x,
        );
        check("nested", nested, nested_grad, |x| x * x * x);
        check("through f64", through_f64, through_f64_grad, |x| {
            (x * x).exp()
        });
        check("literal local", literal_local, literal_local_grad, |x| {
            1.5 * x
        });
        check("literal array", literal_array, literal_array_grad, |x| {
            x + 2.0 * x * x
        });
        check(
            "constant argument",
            constant_argument,
            constant_argument_grad,
            |x| x * ((K as f64).sin() * 0.33),
        );
        check(
            "let of another float type",
            let_of_another_float_type,
            let_of_another_float_type_grad,
            |x| x * 5.0,
        );
        check(
            "constant arguments",
            constant_arguments,
            constant_arguments_grad,
            |x| {
                let k = K as f64;
                x * k * k + k * 2.0 * 0.5
            },
        );
        let points = round_to_f32(uniform(112, 24, [(-1.0, 1.0)]));
        GradCheck::new("f32 callee from f64").f32().run(
            &points,
            |[x]| x.sin(),
            |[x]| {
                let (value, d_x) = from_f64_grad(x);
                (value, [d_x])
            },
        );
    }
}

/// Bug 12: In f32 code, a local typed only by an f32 `const` was taken for f64.
mod f32_const_local {
    use crate::common::{GradCheck, round_to_f32, uniform};
    use stackgrad::differentiable;

    const K: f32 = 0.5;

    #[differentiable]
    #[allow(unused_variables)] // the reproducer: a binding nothing reads
    pub fn unused(x: f32) -> f32 {
        let v = K;
        x
    }

    #[differentiable]
    pub fn in_array(x: f32) -> f32 {
        let a = [K, 0.5];
        a[0] * x + a[1]
    }

    #[differentiable]
    pub fn assigned(x: f32) -> f32 {
        let mut a = [x, x];
        a[0] = K;
        a[0] * a[1]
    }

    #[differentiable]
    pub fn method_of_local(x: f32) -> f32 {
        let v = K;
        let w = v.cos();
        w * x
    }

    #[test]
    fn gradients() {
        let points = round_to_f32(uniform(121, 24, [(-1.0, 1.0)]));
        let k = K as f64;
        type Case = (&'static str, fn(f32) -> (f32, f32), fn(f64) -> f64);
        let cases: [Case; 4] = [
            ("unused", unused_grad, |x| x),
            ("in an array", in_array_grad, |x| 0.5 * x + 0.5),
            ("assigned", assigned_grad, |x| 0.5 * x),
            ("method of a local", method_of_local_grad, |x| {
                (0.5f32.cos() as f64) * x
            }),
        ];
        let _ = k;
        for (name, grad, twin) in cases {
            GradCheck::new(name).f32().run(
                &points,
                |[x]| twin(x),
                |[x]| {
                    let (value, d_x) = grad(x as f32);
                    (value as f64, [d_x as f64])
                },
            );
        }
    }
}

/// Bug 13: A value that does not reach the output poisoned the gradient with NaN; `atan2` at the
/// origin has gradient 0 by convention.
mod unused_value {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    #[allow(unused_variables)] // the reproducer: a value that does not reach the output
    pub fn f(x: f64, y: f64) -> f64 {
        let w = y.atan2(x);
        x * 2.0
    }

    #[differentiable]
    pub fn angle(x: f64, y: f64) -> f64 {
        y.atan2(x)
    }

    #[test]
    fn at_the_origin() {
        assert_eq!(f_grad(0.0, 0.0), (0.0, (2.0, 0.0)));
        assert_eq!(angle_grad(0.0, 0.0).1, (0.0, 0.0));
    }

    #[test]
    fn gradients() {
        let points = uniform(131, 24, [(-1.5, 1.5), (-1.5, 1.5)]);
        GradCheck::new("unused atan2").binary(&points, f, f_grad);
        GradCheck::new("atan2")
            .kink(|&[x, y]| if x < 0.0 { y.abs() } else { f64::INFINITY })
            .binary(&points, angle, angle_grad);
    }
}

/// Triangular `for j in 0..=i` inside `for i in 0..N` with `N` a const generic: the tape is sized
/// `N` per level.
mod triangular_const_generic {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn f<const N: usize>(a: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            for j in 0..=i {
                s += (a[i] * a[j]).sin();
            }
        }
        s
    }

    #[test]
    fn gradient() {
        GradCheck::new("triangular inclusive, const generic").flat(
            &cube::<4>(141, 24, -1.5, 1.5),
            |a: &[f64; 4]| f::<4>(a),
            |a: &[f64; 4]| f_grad::<4>(a),
        );
    }
}

/// Found by the generated-program test: a struct field cast in f32 code, a struct passed with
/// one of its fields to a call whose argument's cotangent is defined before the call, and (seed
/// 4) an f32 struct field passed to a call whose result is cast through f64: the call's result
/// was typed before the field, so its tape field was declared `f64`.
mod generated_findings {
    use crate::common::{Flat, GradCheck, cube, round_to_f32};
    use stackgrad::differentiable;

    #[derive(Clone, Copy, Debug, Default)]
    pub struct S32 {
        pub b: f32,
    }

    #[differentiable]
    pub fn field_cast(x: f32, p: &S32) -> f32 {
        let v = (p.b as f64).exp() as f32;
        v * x
    }

    #[derive(Clone, Copy, Debug, Default)]
    pub struct W32 {
        pub w: [f32; 2],
    }

    #[differentiable]
    pub fn product(a: &[f32; 2]) -> f32 {
        a[0] * a[1]
    }

    #[differentiable]
    pub fn field_call_cast(x: f32, p: &W32) -> f32 {
        let v = ((product(&p.w) * 0.5).exp() as f64 as f32) * 0.25;
        v * x
    }

    #[derive(Clone, Copy, Debug, Default)]
    pub struct S {
        pub a: f64,
        pub w: [f64; 2],
    }

    impl Flat for S {
        fn read(coordinates: &mut &[f64]) -> Self {
            S {
                a: Flat::read(coordinates),
                w: Flat::read(coordinates),
            }
        }

        fn write(&self, out: &mut Vec<f64>) {
            self.a.write(out);
            self.w.write(out);
        }
    }

    #[differentiable]
    pub fn g(x: f64, w: &[f64; 2], p: &S) -> f64 {
        (x * w[0] + p.a * w[1]).sin()
    }

    #[differentiable]
    pub fn twice(x: f64, p: &S) -> f64 {
        let v = g(x * x, &p.w, p);
        g((1.0 - v) * 0.5, &p.w, p) * 0.3 + v
    }

    /// A struct field passed to a call where the struct is not differentiated.
    #[differentiable(wrt(x))]
    pub fn field_not_differentiated(x: f64, p: &S) -> f64 {
        g(x, &p.w, p) * x
    }

    #[test]
    fn gradients() {
        GradCheck::new("struct field without derivative").run(
            &crate::common::uniform(153, 24, [(-1.5, 1.5)]),
            |[x]| {
                field_not_differentiated(
                    x,
                    &S {
                        a: 0.3,
                        w: [0.7, -0.4],
                    },
                )
            },
            |[x]| {
                let p = S {
                    a: 0.3,
                    w: [0.7, -0.4],
                };
                let (value, d_x) = field_not_differentiated_grad(x, &p);
                (value, [d_x])
            },
        );
        GradCheck::new("struct field cast in f32 code").f32().run(
            &round_to_f32(cube::<2>(151, 24, -1.0, 1.0)),
            |[x, b]| b.exp() * x,
            |[x, b]| {
                let (value, (d_x, d_p)) = field_cast_grad(x as f32, &S32 { b: b as f32 });
                (f64::from(value), [f64::from(d_x), f64::from(d_p.b)])
            },
        );
        GradCheck::new("f32 field through a call cast via f64")
            .f32()
            .run(
                &round_to_f32(cube::<3>(154, 24, -1.0, 1.0)),
                |[x, a, b]| (a * b * 0.5).exp() * 0.25 * x,
                |[x, a, b]| {
                    let p = W32 {
                        w: [a as f32, b as f32],
                    };
                    let (value, (d_x, d_p)) = field_call_cast_grad(x as f32, &p);
                    let d_w = d_p.w.map(f64::from);
                    (f64::from(value), [f64::from(d_x), d_w[0], d_w[1]])
                },
            );
        GradCheck::new("struct and its field through two calls").flat(
            &cube::<4>(152, 24, -1.5, 1.5),
            |(x, p): &(f64, S)| twice(*x, p),
            |(x, p): &(f64, S)| twice_grad(*x, p),
        );
    }
}

/// A float `let` typed by its annotation alone, bound from a branch of literals, in a function
/// with `hvp` (genprog seed 31, program p053): the tangent program bound it through an untyped
/// tuple, `let (t,) = if .. { (0.6,) } else { (-0.9,) };`, and rustc could not call `cbrt` on
/// the `{float}`. The tuple now carries the types, and the language takes `let (a, b): (T, U)`.
mod typed_branch_of_literals {
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn g(x: f32, y: f32) -> f32 {
        let t: f32 = if y > 1.0 { 0.6 } else { -0.9 };
        t * f32::cbrt(t * t + 0.5) * x * x
    }

    #[differentiable(hvp)]
    pub fn pair(x: f64) -> f64 {
        let (a, b): (f64, _) = if x > 0.0 { (x * x, 2.0) } else { (x, 3.0) };
        a * b
    }

    /// `g` at `y > 1` is `c x^2` with `c = 0.6 (0.86)^(1/3)`: its derivatives in `x` in closed
    /// form (f64), against `g_jvp` and `g_hvp` along `(1, 0)`.
    #[test]
    fn tangents_and_hessian_products_against_closed_forms() {
        let c = 0.6 * 0.86f64.cbrt();
        for x in [-1.3f64, 0.4, 0.7, 2.1] {
            let (value, tangent) = g_jvp(x as f32, 2.0, 1.0, 0.0);
            assert!((f64::from(value) - c * x * x).abs() < 1e-5, "{x}");
            assert!((f64::from(tangent) - 2.0 * c * x).abs() < 1e-5, "{x}");
            let (_, (gx, gy), (hx, hy)) = g_hvp(x as f32, 2.0, 1.0, 0.0);
            assert!((f64::from(gx) - 2.0 * c * x).abs() < 1e-5, "{x}");
            assert_eq!((gy, hy), (0.0, 0.0));
            assert!((f64::from(hx) - 2.0 * c).abs() < 1e-5, "{x} {hx}");
        }
        for x in [0.8, -0.5] {
            let (value, g, hv) = pair_hvp(x, 1.0);
            let expected = if x > 0.0 {
                (2.0 * x * x, 4.0 * x, 4.0)
            } else {
                (3.0 * x, 3.0, 0.0)
            };
            assert_eq!((value, g, hv), expected, "{x}");
            assert_eq!(pair_jvp(x, 1.0), (expected.0, expected.1), "{x}");
        }
    }
}

/// Bug 15 (found by review, 2026-11-27): a shadowed local took the name the macro gave a tangent
/// or a cotangent. A second binding `t_x` is emitted as `t_x_1`, the name `f_jvp` also chose for
/// `x`'s tangent parameter (`t_x` being a user's name), so the body read the local where it meant
/// the parameter: a silently wrong tangent (`36` for `6 t_x`). Likewise in the reverse sweep, a
/// second loop counter `d_x` and the cotangent of a shadowed `x`. And `f_jvp` of `r = r / w` went
/// through a block's locals `r` and `t_r`, the second also the name of the user's `r`'s tangent
/// (`t_r = t_r;` did not compile; genprog seed 1, p122, once it named locals like the macro's).
mod generated_names_against_shadowed_locals {
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn divided_in_place(x: f64, w: f64) -> f64 {
        let mut r = x * 2.0;
        r /= w;
        r * r
    }

    #[differentiable(hvp)]
    pub fn tangent_named(x: f64) -> f64 {
        let t_x = 2.0;
        let t_x = t_x * 3.0;
        x * t_x
    }

    #[differentiable]
    pub fn cotangent_named(x: f64, w: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for d_x in 0..3 {
            s += w[d_x] * x * (d_x as f64);
        }
        let x = x * 1.5;
        for d_x in 0..2 {
            s += x * x * (d_x as f64 + 1.0);
        }
        s
    }

    #[test]
    fn derivatives_against_closed_forms() {
        for x in [1.5, -0.25] {
            assert_eq!(tangent_named_jvp(x, 1.0), (6.0 * x, 6.0));
            assert_eq!(tangent_named_jvp(x, 0.5), (6.0 * x, 3.0));
            assert_eq!(tangent_named_hvp(x, 1.0), (6.0 * x, 6.0, 0.0));
        }
        // f = 4 x^2 / w^2.
        let (x, w) = (0.7, 1.3);
        let f = 4.0 * x * x / (w * w);
        let (fx, fw) = (8.0 * x / (w * w), -8.0 * x * x / (w * w * w));
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        let (value, t) = divided_in_place_jvp(x, w, 0.5, -2.0);
        assert!(
            close(value, f) && close(t, 0.5 * fx - 2.0 * fw),
            "{value} {t}"
        );
        let (_, (gx, gw), (hx, hw)) = divided_in_place_hvp(x, w, 1.0, 0.0);
        assert!(close(gx, fx) && close(gw, fw), "{gx} {gw}");
        let (fxx, fxw) = (8.0 / (w * w), -16.0 * x / (w * w * w));
        assert!(close(hx, fxx) && close(hw, fxw), "{hx} {hw}");
        // f = x (w1 + 2 w2) + 3 (1.5 x)^2.
        let (x, w) = (0.7, [0.3, -1.1, 2.0]);
        let (value, (d_x, d_w)) = cotangent_named_grad(x, &w);
        let want = x * (w[1] + 2.0 * w[2]) + 3.0 * 2.25 * x * x;
        assert!((value - want).abs() <= 1e-12, "{value} {want}");
        let want_x = w[1] + 2.0 * w[2] + 13.5 * x;
        assert!((d_x - want_x).abs() <= 1e-12, "{d_x} {want_x}");
        assert_eq!(d_w, [0.0, x, 2.0 * x]);
    }
}

/// Bug 16 (found by review, 2026-11-27): more names the macro bound where the user's could meet
/// them. The hidden counter of `for v in a.iter()` (and of `for _ in ..`, and of a reduction's
/// loop) was bound under the name `i` (`_i`), so the user's `i` in the body read it: a silently
/// wrong gradient. `f_hvp`'s tangent program is lowered again from its text, where the user's
/// `x_1` and a second `x` (emitted `x_1`) became one variable: a wrong value and `H v`; and a
/// loop nest split in two there bound its `let`s twice, the second copy taking the name of a
/// tangent parameter. A checkpointed loop's buffer `d_segment` (for a carried `d`) was also the
/// cotangent of a user's `segment`. A raw-identifier parameter made the macro panic, and a raw
/// local on the tape got a field named by the keyword.
mod more_generated_names {
    use stackgrad::differentiable;

    #[allow(clippy::needless_range_loop)]
    #[differentiable(hvp)]
    pub fn user_i_in_hidden_loops(x: &[f64; 4], w: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for i in 0..4 {
            for v in x.iter() {
                s += v * w[i];
            }
            s += x.iter().map(|v| v * w[i]).sum::<f64>();
        }
        let _i = x[0] * 2.0;
        for _ in 0..2 {
            s += _i * w[1];
        }
        s
    }

    #[differentiable(hvp)]
    pub fn written_x_1(x: f64) -> f64 {
        let x_1 = x * 2.0;
        let x = x * 3.0;
        x_1 * x
    }

    #[differentiable(hvp)]
    pub fn nest_named_like_tangent(x: &[f64; 4]) -> f64 {
        let mut q = [0.0; 4];
        for a in 0..4 {
            for b in 0..4 {
                let t_x = (b as f64) * 0.5;
                q[b] += x[a] * t_x;
            }
        }
        q[1] * q[2]
    }

    #[differentiable]
    pub fn carried_d_and_segment(x: f64) -> f64 {
        let mut d = x;
        let mut segment = 0.0;
        #[checkpoint(snapshots = 2)]
        for _k in 0..8 {
            d = (d * 0.9).sin();
            segment += d * d;
        }
        segment + d
    }

    #[differentiable]
    pub fn carried_d_and_states(x: f64) -> f64 {
        let mut d = x;
        let mut states = 0.0;
        #[checkpoint(snapshots = 2, binomial)]
        for _k in 0..8 {
            d = (d * 0.9).sin();
            states += d * d;
        }
        states + d
    }

    #[differentiable(hvp)]
    pub fn raw_parameter(r#type: f64, x: f64) -> f64 {
        r#type * x * x
    }

    /// A raw local the tape keeps: its field was named `type`, the keyword.
    #[differentiable(hvp)]
    pub fn raw_local(x: f64) -> f64 {
        let r#type = x.exp();
        let r#type = r#type * x;
        r#type.sin()
    }

    #[test]
    fn derivatives_against_closed_forms_and_differences() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        // f = 2 (sum x)(sum w) + 4 x0 w1.
        let (x, w) = ([0.5, -1.5, 2.0, 0.25], [1.0, 0.3, -0.7, 2.5]);
        let (sx, sw): (f64, f64) = (x.iter().sum(), w.iter().sum());
        let (value, (d_x, d_w)) = user_i_in_hidden_loops_grad(&x, &w);
        assert!(close(value, 2.0 * sx * sw + 4.0 * x[0] * w[1]), "{value}");
        for k in 0..4 {
            let want_x = 2.0 * sw + if k == 0 { 4.0 * w[1] } else { 0.0 };
            let want_w = 2.0 * sx + if k == 1 { 4.0 * x[0] } else { 0.0 };
            assert!(
                close(d_x[k], want_x) && close(d_w[k], want_w),
                "{k}: {d_x:?} {d_w:?}"
            );
        }
        // f = 6 x^2.
        for x in [0.7, -1.2] {
            assert_eq!(written_x_1_jvp(x, 1.0), (6.0 * x * x, 12.0 * x));
            assert_eq!(written_x_1_hvp(x, 1.0), (6.0 * x * x, 12.0 * x, 12.0));
        }
        // q1 = s / 2, q2 = s for s = sum x: f = s^2 / 2, each gradient s, H = all ones.
        let v = [1.0, -2.0, 0.5, 3.0];
        let (value, g, hv) = nest_named_like_tangent_hvp(&x, &v);
        assert!(close(value, sx * sx / 2.0));
        let sv: f64 = v.iter().sum();
        for k in 0..4 {
            assert!(close(g[k], sx) && close(hv[k], sv), "{k}: {g:?} {hv:?}");
        }
        // The checkpointed loops against central differences.
        for (f, grad) in [
            (
                carried_d_and_segment as fn(f64) -> f64,
                carried_d_and_segment_grad as fn(f64) -> (f64, f64),
            ),
            (carried_d_and_states, carried_d_and_states_grad),
        ] {
            let (x, h) = (0.8, 1e-6);
            let (value, d_x) = grad(x);
            assert_eq!(value, f(x));
            let fd = (f(x + h) - f(x - h)) / (2.0 * h);
            assert!((d_x - fd).abs() <= 1e-7, "{d_x} {fd}");
        }
        // f = t x^2.
        assert_eq!(
            raw_parameter_hvp(2.0, 3.0, 1.0, 0.0),
            (18.0, (9.0, 12.0), (0.0, 6.0))
        );
        // f = sin(u), u = x e^x: f' = cos(u) u', f'' = cos(u) u'' - sin(u) u'^2.
        let x: f64 = 0.3;
        let (u, du, ddu) = (x * x.exp(), (1.0 + x) * x.exp(), (2.0 + x) * x.exp());
        let (value, g, hv) = raw_local_hvp(x, 1.0);
        assert!(
            close(value, u.sin()) && close(g, u.cos() * du),
            "{value} {g}"
        );
        assert!(close(hv, u.cos() * ddu - u.sin() * du * du), "{hv}");
        assert_eq!(raw_local_grad(x), (value, g));
    }
}

/// Found by a review: `zip` of arrays of different lengths ran as many steps as the first array
/// has, where Rust's `zip` stops at the shorter (an index out of bounds in the generated code).
mod zip_of_different_lengths {
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn f(x: &[f64; 6], w: f64) -> f64 {
        let y = [w, 2.0 * w, w * w, 0.5];
        let mut s = 0.0;
        for (a, b) in x.iter().zip(y.iter()) {
            s += a * b;
        }
        s + y.iter().zip(x.iter()).map(|(p, q)| p * q).sum::<f64>()
    }

    const M: usize = 4;

    /// Lengths the macro cannot compare: a const generic against a literal and a `const`.
    #[differentiable(hvp)]
    pub fn g<const N: usize>(x: &[f64; N], w: f64) -> f64 {
        let y = [w, 2.0 * w, w * w, 0.5];
        let mut z: [f64; M] = [0.0; M];
        for i in 0..M {
            z[i] = w;
        }
        let mut s = 0.0;
        for (a, b) in x.iter().zip(y.iter()) {
            s += a * b;
        }
        for (c, a) in z.iter().zip(x.iter()) {
            s += c * a;
        }
        s
    }

    /// `g`'s value, gradient and H v by hand: `s = sum over i < min(N, 4) of x_i (y_i + w)`.
    fn g_by_hand<const N: usize>(x: &[f64; N], w: f64, t_x: &[f64; N], t_w: f64) -> [f64; 4] {
        let (y, d_y, dd_y) = (
            [w, 2.0 * w, w * w, 0.5],
            [1.0, 2.0, 2.0 * w, 0.0],
            [0.0, 0.0, 2.0, 0.0],
        );
        let n = N.min(4);
        let value: f64 = (0..n).map(|i| x[i] * (y[i] + w)).sum();
        let d_w: f64 = (0..n).map(|i| x[i] * (d_y[i] + 1.0)).sum();
        // The tangent along (t_x, t_w), and H v's w-component.
        let tangent: f64 = (0..n).map(|i| t_x[i] * (y[i] + w)).sum::<f64>() + d_w * t_w;
        let hv_w: f64 = (0..n)
            .map(|i| t_x[i] * (d_y[i] + 1.0) + x[i] * dd_y[i] * t_w)
            .sum();
        [value, d_w, tangent, hv_w]
    }

    fn check_g<const N: usize>() {
        let x: [f64; N] = core::array::from_fn(|i| 0.3 - 0.45 * i as f64);
        let t_x: [f64; N] = core::array::from_fn(|i| 0.5 + 0.25 * i as f64);
        let (w, t_w) = (0.8, -0.6);
        let [value, d_w, tangent, hv_w] = g_by_hand(&x, w, &t_x, t_w);
        let close = |a: f64, b: f64, what: &str| {
            assert!((a - b).abs() < 1e-12, "N = {N}, {what}: {a} vs {b}")
        };
        let (v, (g_x, g_w)) = g_grad(&x, w);
        close(v, value, "value");
        close(g_w, d_w, "d_w");
        for i in 0..N {
            let want = if i < 4 {
                [w, 2.0 * w, w * w, 0.5][i] + w
            } else {
                0.0
            };
            close(g_x[i], want, "d_x");
        }
        close(g_jvp(&x, w, &t_x, t_w).1, tangent, "tangent");
        let (_, _, (hv_x, hv_w_got)) = g_hvp(&x, w, &t_x, t_w);
        close(hv_w_got, hv_w, "H v (w)");
        for i in 0..N {
            let want = if i < 4 {
                [1.0, 2.0, 2.0 * w, 0.0][i] + 1.0
            } else {
                0.0
            };
            close(hv_x[i], want * t_w, "H v (x)");
        }
    }

    const W: [f64; 3] = [0.5, -1.0, 2.0];

    /// A `const` array, whose length the macro does not see, shorter than the other.
    #[differentiable(hvp)]
    pub fn h(x: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        for (c, a) in W.iter().zip(x.iter()) {
            s += c * a * a;
        }
        s + x.iter().zip(W.iter()).map(|(a, c)| a * c).sum::<f64>()
    }

    #[test]
    fn a_const_array_shorter_than_the_other() {
        let x = [0.3, -0.7, 1.1, 4.0, -5.0];
        let t_x = [0.5, -1.0, 0.25, 2.0, 3.0];
        let w = [0.5, -1.0, 2.0, 0.0, 0.0];
        // h = sum over i < 3 of w_i (x_i^2 + x_i).
        let value: f64 = (0..5).map(|i| w[i] * (x[i] * x[i] + x[i])).sum();
        let d_x: Vec<f64> = (0..5).map(|i| w[i] * (2.0 * x[i] + 1.0)).collect();
        let (v, g) = h_grad(&x);
        assert!((v - value).abs() < 1e-12, "{v} vs {value}");
        for i in 0..5 {
            assert!(
                (g[i] - d_x[i]).abs() < 1e-12,
                "d_x[{i}]: {} vs {}",
                g[i],
                d_x[i]
            );
        }
        let tangent: f64 = (0..5).map(|i| d_x[i] * t_x[i]).sum();
        assert!((h_jvp(&x, &t_x).1 - tangent).abs() < 1e-12);
        let (_, _, hv) = h_hvp(&x, &t_x);
        for i in 0..5 {
            let want = 2.0 * w[i] * t_x[i];
            assert!(
                (hv[i] - want).abs() < 1e-12,
                "H v[{i}]: {} vs {want}",
                hv[i]
            );
        }
    }

    #[test]
    fn lengths_the_macro_cannot_compare() {
        check_g::<2>();
        check_g::<4>();
        check_g::<7>();
    }

    #[test]
    fn derivatives_against_the_closed_form() {
        let x = [0.3, -0.7, 1.1, 0.4, 9.0, -8.0];
        let w = 0.8;
        // f = 2 (x0 w + 2 x1 w + x2 w^2 + 0.5 x3): x4 and x5 are never read.
        let value = 2.0 * (x[0] * w + 2.0 * x[1] * w + x[2] * w * w + 0.5 * x[3]);
        let d_x = [2.0 * w, 4.0 * w, 2.0 * w * w, 1.0, 0.0, 0.0];
        let d_w = 2.0 * (x[0] + 2.0 * x[1] + 2.0 * x[2] * w);
        let (v, (g_x, g_w)) = f_grad(&x, w);
        assert!((v - value).abs() < 1e-12, "{v} vs {value}");
        for i in 0..6 {
            assert!(
                (g_x[i] - d_x[i]).abs() < 1e-12,
                "d_x[{i}]: {} vs {}",
                g_x[i],
                d_x[i]
            );
        }
        assert!((g_w - d_w).abs() < 1e-12, "{g_w} vs {d_w}");
        let t_x = [0.5, -1.0, 0.25, 2.0, 3.0, 7.0];
        let t_w = -0.6;
        let (jv, t) = f_jvp(&x, w, &t_x, t_w);
        let dot: f64 = (0..6).map(|i| d_x[i] * t_x[i]).sum::<f64>() + d_w * t_w;
        assert_eq!(jv, v);
        assert!((t - dot).abs() < 1e-12, "{t} vs {dot}");
        // H v: d/dw of d_x is (2, 4, 4 w, 0, 0, 0); d/dx of d_w the same, d2/dw2 = 4 x2.
        let (_, _, (hv_x, hv_w)) = f_hvp(&x, w, &t_x, t_w);
        let want_x = [2.0 * t_w, 4.0 * t_w, 4.0 * w * t_w, 0.0, 0.0, 0.0];
        let want_w = 2.0 * t_x[0] + 4.0 * t_x[1] + 4.0 * w * t_x[2] + 4.0 * x[2] * t_w;
        for i in 0..6 {
            assert!((hv_x[i] - want_x[i]).abs() < 1e-12, "Hv_x[{i}]");
        }
        assert!((hv_w - want_w).abs() < 1e-12, "{hv_w} vs {want_w}");
    }
}

/// Found by a review: `fold`'s accumulator was the loop's own variable, in scope over the
/// source and `map`'s closure, and `map`'s element was in scope in `fold`'s body: a closure's
/// names leaked into the other (`map(|v| v * s).fold(0.0, |s, t| s + t)` read the accumulator for
/// the parameter `s`: a value of 0 and a zero gradient).
mod fold_and_map_names {
    use crate::common::{GradCheck, uniform};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn acc_named_like_a_parameter(a: &[f64; 3], s: f64) -> f64 {
        a.iter().map(|v| v * s).fold(0.0, |s, t| s + t)
    }

    #[differentiable(hvp)]
    pub fn element_named_like_a_parameter(a: &[f64; 3], v: f64) -> f64 {
        a.iter().map(|v| v * 2.0).fold(0.0, |acc, w| acc + w * v)
    }

    #[differentiable(hvp)]
    pub fn zip_pattern_against_an_outer_name(a: &[f64; 3], b: &[f64; 3], p: f64) -> f64 {
        a.iter()
            .zip(b.iter())
            .map(|(p, q)| p * q)
            .fold(1.0, |s, t| s + t * p)
    }

    #[differentiable(hvp)]
    pub fn max_of_a_map(a: &[f64; 3], s: f64) -> f64 {
        a.iter()
            .map(|v| v - s)
            .fold(f64::NEG_INFINITY, |s, t| s.max(t))
    }

    #[differentiable(hvp)]
    pub fn acc_named_like_the_source(s: &[f64; 3]) -> f64 {
        s.iter().fold(0.5, |s, v| s * v)
    }

    #[differentiable(hvp)]
    pub fn mutable_acc(a: &[f64; 3]) -> f64 {
        a.iter().fold(0.0, |mut m, v| {
            m += v * v;
            m
        })
    }

    #[test]
    fn gradients_against_central_differences() {
        let points = uniform(131, 24, [(-1.5, 1.5); 4]);
        GradCheck::new("acc named like a parameter").run(
            &points,
            |[a0, a1, a2, s]| acc_named_like_a_parameter(&[a0, a1, a2], s),
            |[a0, a1, a2, s]| {
                let (v, (d_a, d_s)) = acc_named_like_a_parameter_grad(&[a0, a1, a2], s);
                (v, [d_a[0], d_a[1], d_a[2], d_s])
            },
        );
        GradCheck::new("element named like a parameter").run(
            &points,
            |[a0, a1, a2, v]| element_named_like_a_parameter(&[a0, a1, a2], v),
            |[a0, a1, a2, v]| {
                let (value, (d_a, d_v)) = element_named_like_a_parameter_grad(&[a0, a1, a2], v);
                (value, [d_a[0], d_a[1], d_a[2], d_v])
            },
        );
        GradCheck::new("max of a map")
            .kink(|[a0, a1, a2, _]| (a0 - a1).abs().min((a1 - a2).abs()).min((a0 - a2).abs()))
            .run(
                &points,
                |[a0, a1, a2, s]| max_of_a_map(&[a0, a1, a2], s),
                |[a0, a1, a2, s]| {
                    let (v, (d_a, d_s)) = max_of_a_map_grad(&[a0, a1, a2], s);
                    (v, [d_a[0], d_a[1], d_a[2], d_s])
                },
            );
        let points7 = uniform(132, 24, [(-1.5, 1.5); 7]);
        GradCheck::new("zip pattern against an outer name").run(
            &points7,
            |[a0, a1, a2, b0, b1, b2, p]| {
                zip_pattern_against_an_outer_name(&[a0, a1, a2], &[b0, b1, b2], p)
            },
            |[a0, a1, a2, b0, b1, b2, p]| {
                let (v, (d_a, d_b, d_p)) =
                    zip_pattern_against_an_outer_name_grad(&[a0, a1, a2], &[b0, b1, b2], p);
                (v, [d_a[0], d_a[1], d_a[2], d_b[0], d_b[1], d_b[2], d_p])
            },
        );
        let points3 = uniform(133, 24, [(-1.5, 1.5); 3]);
        GradCheck::new("acc named like the source").run(
            &points3,
            |[s0, s1, s2]| acc_named_like_the_source(&[s0, s1, s2]),
            |[s0, s1, s2]| {
                let (v, d) = acc_named_like_the_source_grad(&[s0, s1, s2]);
                (v, d)
            },
        );
        GradCheck::new("mutable acc").run(
            &points3,
            |[a0, a1, a2]| mutable_acc(&[a0, a1, a2]),
            |[a0, a1, a2]| {
                let (v, d) = mutable_acc_grad(&[a0, a1, a2]);
                (v, d)
            },
        );
    }

    #[test]
    fn tangents_and_hessian_products_against_closed_forms() {
        let (a, s) = ([0.4, -0.13, 0.34], -1.22);
        let (t_a, t_s) = ([0.5, 1.0, -0.25], 0.75);
        let sum_a: f64 = a.iter().sum();
        let sum_t: f64 = t_a.iter().sum();
        let (v, t) = acc_named_like_a_parameter_jvp(&a, s, &t_a, t_s);
        assert!((v - sum_a * s).abs() < 1e-12, "{v}");
        assert!((t - (sum_t * s + sum_a * t_s)).abs() < 1e-12, "{t}");
        // f = s sum(a): H v = (t_s, t_s, t_s, sum(t_a)).
        let (_, _, (hv_a, hv_s)) = acc_named_like_a_parameter_hvp(&a, s, &t_a, t_s);
        for h in hv_a {
            assert!((h - t_s).abs() < 1e-12, "{h}");
        }
        assert!((hv_s - sum_t).abs() < 1e-12, "{hv_s}");
        let (v, t) = element_named_like_a_parameter_jvp(&a, s, &t_a, t_s);
        assert!((v - 2.0 * sum_a * s).abs() < 1e-12, "{v}");
        assert!((t - 2.0 * (sum_t * s + sum_a * t_s)).abs() < 1e-12, "{t}");
    }
}

/// Found by a review: loops whose tape was sized too small, so the generated code indexed out
/// of bounds where the function runs fine. A step that reads an outer loop variable was bounded
/// by its largest value (the most trips come with the smallest), and a bound that reads an outer
/// loop variable was computed where a shadowing loop had rebound its name.
mod loop_bounds_from_outer_variables {
    use crate::common::{F64_RTOL, GradCheck, check_hvp, uniform};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn step_from_an_outer_variable(x: &[f64; 6]) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            for j in (0..6).step_by(i + 1) {
                s = (s + x[j]).sin();
            }
        }
        s
    }

    const K: usize = 4;
    const S: usize = 1;

    /// Steps and divisors the macro bounds but does not know exactly (found by the review of
    /// the day's changes: `min` gave an upper bound where a step needs the smallest value, and
    /// `K - S` did so before).
    #[differentiable(hvp)]
    pub fn steps_known_only_by_bounds(x: &[f64; 8]) -> f64 {
        let mut s = 0.0;
        for j in (0..8).step_by(K.min(2)) {
            s += x[j] * x[j].sin();
        }
        for j in 0..8 / ::core::cmp::min(K, 2) {
            s += x[j] * 0.5;
        }
        for j in (0..8).step_by(K - S) {
            s = (s + x[j]).sin();
        }
        s
    }

    /// A const generic step: the tape holds as many trips as a step of 1 runs.
    #[differentiable(hvp)]
    pub fn generic_step<const N: usize>(x: &[f64; 8]) -> f64 {
        let mut s = 0.0;
        for j in (0..8).step_by(N) {
            s = (s + x[j]).sin();
        }
        s
    }

    #[differentiable(hvp)]
    pub fn bound_under_a_shadowing_loop(x: &[f64; 6]) -> f64 {
        let mut s = 0.0;
        for i in 0..6 {
            for j in 0..i {
                for i in 0..2 {
                    for k in 0..j {
                        s = (s + x[k] * x[i]).sin();
                    }
                }
            }
        }
        s
    }

    #[test]
    fn gradients_against_central_differences() {
        let points = uniform(141, 24, [(-1.5, 1.5); 6]);
        for (name, f, grad) in [
            (
                "step from an outer variable",
                step_from_an_outer_variable as fn(&[f64; 6]) -> f64,
                step_from_an_outer_variable_grad as fn(&[f64; 6]) -> (f64, [f64; 6]),
            ),
            (
                "bound under a shadowing loop",
                bound_under_a_shadowing_loop,
                bound_under_a_shadowing_loop_grad,
            ),
        ] {
            GradCheck::new(name).run(&points, |x| f(&x), |x| grad(&x));
        }
    }

    #[test]
    fn steps_against_central_differences() {
        let points = uniform(142, 24, [(-1.5, 1.5); 8]);
        GradCheck::new("steps known only by bounds").run(
            &points,
            |x| steps_known_only_by_bounds(&x),
            |x| steps_known_only_by_bounds_grad(&x),
        );
        for (f, grad) in [
            (
                generic_step::<1> as fn(&[f64; 8]) -> f64,
                generic_step_grad::<1> as fn(&[f64; 8]) -> (f64, [f64; 8]),
            ),
            (generic_step::<3>, generic_step_grad::<3>),
        ] {
            GradCheck::new("generic step").run(&points, |x| f(&x), |x| grad(&x));
        }
        check_hvp(
            "steps known only by bounds",
            &points,
            |_| f64::INFINITY,
            F64_RTOL,
            |x| steps_known_only_by_bounds_grad(&x),
            |x, v| steps_known_only_by_bounds_hvp(&x, &v),
        );
    }

    #[test]
    fn hessian_products_against_differences_of_the_gradient() {
        let points = uniform(143, 24, [(-1.5, 1.5); 6]);
        check_hvp(
            "step from an outer variable",
            &points,
            |_| f64::INFINITY,
            F64_RTOL,
            |x| step_from_an_outer_variable_grad(&x),
            |x, v| step_from_an_outer_variable_hvp(&x, &v),
        );
        check_hvp(
            "bound under a shadowing loop",
            &points,
            |_| f64::INFINITY,
            F64_RTOL,
            |x| bound_under_a_shadowing_loop_grad(&x),
            |x, v| bound_under_a_shadowing_loop_hvp(&x, &v),
        );
    }
}

/// Found by a review of forward mode and second order: `hvp` through a callee that takes an
/// array by value (its tangent program passed the tangent by reference, which the callee's
/// `_hvp_jvp` takes by value: E0308), and a float literal without digits after the point
/// (`2.`: the macro panicked).
mod hvp_by_value_and_literals {
    use crate::common::{F64_RTOL, GradCheck, check_hvp, check_jvp, uniform};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn by_value(x: [f64; 2], s: f64) -> f64 {
        x[0] * x[1] * s + (x[0] * s).sin()
    }

    #[differentiable(hvp)]
    pub fn calls_by_value(a: &[f64; 2], s: f64) -> f64 {
        let b = [a[0] * s, a[1] + s];
        let c = [a[1], 0.5];
        // `*a` passes the whole reference parameter by value: its adjoint and tangent are `a`'s
        // own buffers (the reverse sweep once printed `&mut d_a` for them, which did not compile).
        let r = by_value(b, s) + by_value(c, 1.5) + by_value(*a, 0.5 * s);
        r * r
    }

    #[differentiable(hvp)]
    pub fn by_reference(x: &[f64; 2], s: f64) -> f64 {
        x[0] * x[1] * s
    }

    // A reference parameter passed on as it is (`b`, not `&b`) is still a reference (genprog
    // seeds 61 and 62 found the first version of this fix passing its tangent by value).
    #[differentiable(hvp)]
    pub fn passes_its_reference(a: &[f64; 2], b: &[f64; 2], s: f64) -> f64 {
        by_reference(a, s) * by_reference(b, s)
    }

    #[differentiable(hvp)]
    pub fn bare_point(x: f64, y: f64) -> f64 {
        2. * x + (3. * y).ln() * x
    }

    #[test]
    fn derivatives_against_central_differences() {
        let points = uniform(151, 24, [(-1.0, 1.0); 3]);
        let grad = |[a0, a1, s]: [f64; 3]| {
            let (v, (d_a, d_s)) = calls_by_value_grad(&[a0, a1], s);
            (v, [d_a[0], d_a[1], d_s])
        };
        GradCheck::new("calls by value").run(
            &points,
            |[a0, a1, s]| calls_by_value(&[a0, a1], s),
            grad,
        );
        check_jvp(
            "calls by value",
            &points,
            |_| f64::INFINITY,
            |[a0, a1, s]| calls_by_value(&[a0, a1], s),
            grad,
            |[a0, a1, s], [t0, t1, t_s]| calls_by_value_jvp(&[a0, a1], s, &[t0, t1], t_s),
        );
        check_hvp(
            "calls by value",
            &points,
            |_| f64::INFINITY,
            F64_RTOL,
            grad,
            |[a0, a1, s], [v0, v1, v_s]| {
                let (v, (d_a, d_s), (hv_a, hv_s)) =
                    calls_by_value_hvp(&[a0, a1], s, &[v0, v1], v_s);
                (v, [d_a[0], d_a[1], d_s], [hv_a[0], hv_a[1], hv_s])
            },
        );
        let points5 = uniform(152, 24, [(-1.0, 1.0); 5]);
        let grad5 = |[a0, a1, b0, b1, s]: [f64; 5]| {
            let (v, (d_a, d_b, d_s)) = passes_its_reference_grad(&[a0, a1], &[b0, b1], s);
            (v, [d_a[0], d_a[1], d_b[0], d_b[1], d_s])
        };
        check_hvp(
            "passes its reference",
            &points5,
            |_| f64::INFINITY,
            F64_RTOL,
            grad5,
            |[a0, a1, b0, b1, s], [v0, v1, w0, w1, v_s]| {
                let (v, (d_a, d_b, d_s), (hv_a, hv_b, hv_s)) =
                    passes_its_reference_hvp(&[a0, a1], &[b0, b1], s, &[v0, v1], &[w0, w1], v_s);
                (
                    v,
                    [d_a[0], d_a[1], d_b[0], d_b[1], d_s],
                    [hv_a[0], hv_a[1], hv_b[0], hv_b[1], hv_s],
                )
            },
        );

        let (x, y) = (0.7, 1.3);
        let (value, (d_x, d_y)) = bare_point_grad(x, y);
        assert_eq!(value, bare_point(x, y));
        assert!((d_x - (2.0 + (3.0 * y).ln())).abs() < 1e-12);
        assert!((d_y - x / y).abs() < 1e-12);
        let (_, _, (hv_x, hv_y)) = bare_point_hvp(x, y, 1.0, 0.0);
        assert!(
            hv_x.abs() < 1e-12 && (hv_y - 1.0 / y).abs() < 1e-12,
            "{hv_x} {hv_y}"
        );
    }
}

/// A struct's field or a `const` item passed whole to a callee that takes an array by value
/// (`g(x, p.w)`, `g(x, W)`): the macro cannot see whether it is a float or an array. `f_jvp`
/// passed the field's tangent by value where `g_jvp` takes an array's by reference, and a zero
/// `0.0` for an array without derivative; neither compiled (genprog seed 64, `by-value-calls`).
mod fields_by_value {
    use crate::common::{F64_RTOL, GradCheck, check_hvp, check_jvp, uniform};
    use stackgrad::differentiable;

    #[derive(Default, Clone, Copy, Debug)]
    pub struct S {
        pub a: f64,
        pub w: [f64; 3],
    }

    const W: [f64; 3] = [0.5, -1.0, 2.0];
    const K: f64 = 1.5;

    #[differentiable(hvp)]
    pub fn g(x: f64, a: [f64; 3]) -> f64 {
        x * a[0] * a[1] + (a[2] * x).sin()
    }

    #[differentiable(hvp)]
    pub fn fields(x: f64, p: &S) -> f64 {
        g(x, p.w) * g(p.a, p.w) + g(K, p.w)
    }

    #[differentiable(hvp, wrt(x))]
    pub fn fields_wrt(x: f64, p: &S) -> f64 {
        g(x, p.w) * g(p.a, p.w)
    }

    #[differentiable(jvp)]
    pub fn const_by_value(x: f64, s: f64) -> f64 {
        g(x, W) * g(s, W) + g(K, W)
    }

    fn s([a, w0, w1, w2]: [f64; 4]) -> S {
        S { a, w: [w0, w1, w2] }
    }

    #[test]
    fn derivatives_against_central_differences() {
        let points = uniform(171, 24, [(-1.0, 1.0); 5]);
        let split = |[x, a, w0, w1, w2]: [f64; 5]| (x, s([a, w0, w1, w2]));
        let grad = |q: [f64; 5]| {
            let (x, p) = split(q);
            let (v, (d_x, d_p)) = fields_grad(x, &p);
            (v, [d_x, d_p.a, d_p.w[0], d_p.w[1], d_p.w[2]])
        };
        let f = |q: [f64; 5]| {
            let (x, p) = split(q);
            fields(x, &p)
        };
        GradCheck::new("fields").run(&points, f, grad);
        check_jvp(
            "fields",
            &points,
            |_| f64::INFINITY,
            f,
            grad,
            |q, t| {
                let ((x, p), (t_x, t_p)) = (split(q), split(t));
                fields_jvp(x, &p, t_x, &t_p)
            },
        );
        check_hvp(
            "fields",
            &points,
            |_| f64::INFINITY,
            F64_RTOL,
            grad,
            |q, t| {
                let ((x, p), (v_x, v_p)) = (split(q), split(t));
                let (v, (d_x, d_p), (h_x, h_p)) = fields_hvp(x, &p, v_x, &v_p);
                (
                    v,
                    [d_x, d_p.a, d_p.w[0], d_p.w[1], d_p.w[2]],
                    [h_x, h_p.a, h_p.w[0], h_p.w[1], h_p.w[2]],
                )
            },
        );

        // Only `x` differentiated: the struct's tangent is zero.
        let points1 = uniform(172, 24, [(-1.0, 1.0)]);
        let p = s([0.3, -0.7, 1.2, 0.4]);
        let grad1 = |[x]: [f64; 1]| {
            let (v, d_x) = fields_wrt_grad(x, &p);
            (v, [d_x])
        };
        check_jvp(
            "fields, wrt(x)",
            &points1,
            |_| f64::INFINITY,
            |[x]| fields_wrt(x, &p),
            grad1,
            |[x], [t]| fields_wrt_jvp(x, &p, t),
        );
        check_hvp(
            "fields, wrt(x)",
            &points1,
            |_| f64::INFINITY,
            F64_RTOL,
            grad1,
            |[x], [v]| {
                let (value, d_x, h_x) = fields_wrt_hvp(x, &p, v);
                (value, [d_x], [h_x])
            },
        );

        let points2 = uniform(173, 24, [(-1.0, 1.0); 2]);
        let grad2 = |[x, s]: [f64; 2]| {
            let (v, (d_x, d_s)) = const_by_value_grad(x, s);
            (v, [d_x, d_s])
        };
        let f2 = |[x, s]: [f64; 2]| const_by_value(x, s);
        GradCheck::new("const by value").run(&points2, f2, grad2);
        check_jvp(
            "const by value",
            &points2,
            |_| f64::INFINITY,
            f2,
            grad2,
            |[x, s], [t_x, t_s]| const_by_value_jvp(x, s, t_x, t_s),
        );
    }
}

/// A local array the forward sweep keeps in its tape slot is read through a reference
/// (`let h: &[f64; 3] = &tape.h;`). The statements after an early `return` became the value of
/// an `if`, printed before the statements that bind `h` there, so they passed `h` (a reference)
/// where `g` takes the array by value: `f_forward` did not compile (genprog seed 66, p178).
mod early_return_after_tape_local {
    use crate::common::{F64_RTOL, GradCheck, check_hvp, check_jvp, uniform};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn g(a: [f64; 3]) -> f64 {
        a[0] * a[1] + a[2].sin()
    }

    #[differentiable(hvp)]
    pub fn tail_after_return(x: f64, a: &[f64; 3]) -> f64 {
        let h = [x * x, a[0] * x, a[1]];
        let mut s = 0.0;
        for i in 0..3 {
            s += h[i] * h[i];
        }
        if h[2] < -0.5 {
            return s;
        }
        s * x + g(h)
    }

    #[test]
    fn derivatives_against_central_differences() {
        let points = uniform(181, 32, [(-1.0, 1.0); 4]);
        let kink = |p: &[f64; 4]| (p[2] + 0.5).abs();
        let f = |[x, a0, a1, a2]: [f64; 4]| tail_after_return(x, &[a0, a1, a2]);
        let grad = |[x, a0, a1, a2]: [f64; 4]| {
            let (v, (d_x, d_a)) = tail_after_return_grad(x, &[a0, a1, a2]);
            (v, [d_x, d_a[0], d_a[1], d_a[2]])
        };
        // Both branches are taken.
        assert!(points.iter().any(|p| p[2] < -0.5) && points.iter().any(|p| p[2] > -0.5));
        GradCheck::new("tail after return")
            .kink(kink)
            .run(&points, f, grad);
        check_jvp(
            "tail after return",
            &points,
            kink,
            f,
            grad,
            |[x, a0, a1, a2], [t_x, t0, t1, t2]| {
                tail_after_return_jvp(x, &[a0, a1, a2], t_x, &[t0, t1, t2])
            },
        );
        check_hvp(
            "tail after return",
            &points,
            kink,
            F64_RTOL,
            grad,
            |[x, a0, a1, a2], [v_x, v0, v1, v2]| {
                let (v, (d_x, d_a), (h_x, h_a)) =
                    tail_after_return_hvp(x, &[a0, a1, a2], v_x, &[v0, v1, v2]);
                (
                    v,
                    [d_x, d_a[0], d_a[1], d_a[2]],
                    [h_x, h_a[0], h_a[1], h_a[2]],
                )
            },
        );
    }
}

/// A range's counter takes the integer type rustc gives it. The macro typed every loop counter
/// `usize` and imposed that on the integers it met: `let j: i32 = 2;` became `let j: usize = 2;`
/// in the generated code, so `i - j < 0` never held in release builds (value and gradient of
/// `x` instead of `x³`, silently) and overflowed in debug builds; an `i32` parameter next to a
/// counter did not compile (found by a review).
mod integer_counters {
    use crate::common::{F64_RTOL, GradCheck, check_hvp, check_jvp, uniform};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn below(x: f64) -> f64 {
        let j: i32 = 2;
        let mut s = x;
        for i in 0..4 {
            if i - j < 0 {
                s *= x;
            }
        }
        s
    }

    #[differentiable(hvp)]
    pub fn offset(x: f64, k: i32) -> f64 {
        let off = -2;
        let mut s = x;
        for i in 0..4 {
            if (i + k) % 3 == 0 || i + off > 0 {
                s = s * x * (i as f64 + 1.0);
            }
        }
        s
    }

    // Nothing types the counter but a subtraction that goes below 0: an `i32`, as rustc makes
    // it (a `usize` wrapped: a panic in debug builds, the other branch in release).
    #[differentiable(hvp)]
    pub fn below_zero(x: f64) -> f64 {
        let mut s = x;
        for i in 0..4 {
            let d = i - 2;
            if d < 0 {
                s *= x;
            }
        }
        s
    }

    #[differentiable(hvp)]
    pub fn g(x: f64, i: usize) -> f64 {
        x * (i as f64 + 1.0)
    }

    // Counters kept in untyped locals and passed to a callee's `usize` parameter, which the macro
    // cannot see: an unconstrained counter is a `usize` (a first version of this fix typed them
    // `i32` and these failed to compile; found by a review).
    #[differentiable(hvp)]
    pub fn kept(x: f64) -> f64 {
        let mut last = 0;
        let mut k = 0;
        let mut s = 0.0;
        for i in 0..5 {
            let j = i;
            k += i;
            if x > i as f64 {
                last = j;
            }
            s += g(x, k) * x;
        }
        s + g(x, last)
    }

    // A range from a negative literal: an `i32` counter, and a tape for all 6 trips (the tape
    // was sized from 0: 3 trips, out of bounds at run time).
    #[differentiable(hvp)]
    pub fn from_negative(x: f64) -> f64 {
        let mut s = x;
        for i in -3..3 {
            s = s * x + (i as f64) * 0.1;
        }
        s
    }

    #[test]
    fn kept_counters_and_negative_starts() {
        let points = uniform(192, 24, [(0.3, 4.7)]);
        for (name, f, grad, jvp, hvp) in [
            (
                "kept",
                kept as fn(f64) -> f64,
                kept_grad as fn(f64) -> (f64, f64),
                kept_jvp as fn(f64, f64) -> (f64, f64),
                kept_hvp as fn(f64, f64) -> (f64, f64, f64),
            ),
            (
                "from negative",
                from_negative,
                from_negative_grad,
                from_negative_jvp,
                from_negative_hvp,
            ),
        ] {
            let grad = |[x]: [f64; 1]| {
                let (v, d) = grad(x);
                (v, [d])
            };
            // `kept` jumps where `x` passes an integer.
            let kink = |p: &[f64; 1]| (p[0] - p[0].round()).abs();
            GradCheck::new(name)
                .kink(kink)
                .run(&points, |[x]| f(x), grad);
            check_jvp(name, &points, kink, |[x]| f(x), grad, |[x], [t]| jvp(x, t));
            check_hvp(name, &points, kink, F64_RTOL, grad, |[x], [v]| {
                let (value, d, h) = hvp(x, v);
                (value, [d], [h])
            });
        }
    }

    #[test]
    fn against_closed_forms_and_differences() {
        // `i - 2 < 0` for i = 0, 1: x³.
        let x = 1.5;
        assert_eq!(below(x), x * x * x);
        let (v, d) = below_grad(x);
        assert_eq!(v, x * x * x);
        assert!((d - 3.0 * x * x).abs() <= 1e-12, "{d}");
        let (_, _, h) = below_hvp(x, 1.0);
        assert!((h - 6.0 * x).abs() <= 1e-12, "{h}");
        // `i - 2 < 0` for i = 0, 1, with an untyped `d`: x³.
        assert_eq!(below_zero_grad(x), (x * x * x, 3.0 * x * x));
        assert_eq!(below_zero_hvp(x, 1.0).2, 6.0 * x);
        // k = 2: `(i + 2) % 3 == 0` at i = 1, `i - 2 > 0` at i = 3: x · 2x · 4x = 8x³.
        assert_eq!(offset(x, 2), 8.0 * x * x * x);

        let points = uniform(191, 24, [(-1.5, 1.5)]);
        for k in [-1, 0, 2, 5] {
            let grad = |[x]: [f64; 1]| {
                let (v, d) = offset_grad(x, k);
                (v, [d])
            };
            GradCheck::new("offset").run(&points, |[x]| offset(x, k), grad);
            check_jvp(
                "offset",
                &points,
                |_| f64::INFINITY,
                |[x]| offset(x, k),
                grad,
                |[x], [t]| offset_jvp(x, k, t),
            );
            check_hvp(
                "offset",
                &points,
                |_| f64::INFINITY,
                F64_RTOL,
                grad,
                |[x], [v]| {
                    let (value, d, h) = offset_hvp(x, k, v);
                    (value, [d], [h])
                },
            );
        }
    }
}

/// A struct without derivative lent to a callee: a `const` struct (`g(&P, x)`) in `f_jvp`, a
/// nested struct of a parameter not differentiated (`g(&o.i, x)`) in every mode. The zero
/// buffers the generated code makes for them came from helper traits implemented for floats and
/// arrays only; structs now take their `Default`. Found by a review.
mod structs_without_derivative {
    use crate::common::{F64_RTOL, GradCheck, check_hvp, check_jvp, uniform};
    use stackgrad::differentiable;

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Inner {
        pub a: f64,
        pub v: [f64; 2],
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Outer {
        pub i: Inner,
        pub c: f64,
    }

    const P: Inner = Inner {
        a: 1.5,
        v: [0.5, -2.0],
    };

    #[differentiable(hvp)]
    pub fn g(p: &Inner, x: f64) -> f64 {
        p.a * x * x + p.v[0] * p.v[1] * x.sin()
    }

    #[differentiable(jvp)]
    pub fn of_const(x: f64) -> f64 {
        g(&P, x) * x
    }

    #[differentiable(hvp, wrt(x))]
    pub fn nested(o: &Outer, x: f64) -> f64 {
        g(&o.i, x) * o.c
    }

    #[test]
    fn derivatives_against_closed_forms_and_differences() {
        // of_const = (1.5 x² - sin x) x.
        let x = 0.5_f64;
        let (v, d) = of_const_grad(x);
        assert!((v - (1.5 * x * x - x.sin()) * x).abs() < 1e-15);
        assert!((d - (4.5 * x * x - x.sin() - x * x.cos())).abs() < 1e-12);

        let points = uniform(211, 24, [(-1.5, 1.5)]);
        let grad = |[x]: [f64; 1]| {
            let (v, d) = of_const_grad(x);
            (v, [d])
        };
        GradCheck::new("const struct").run(&points, |[x]| of_const(x), grad);
        check_jvp(
            "const struct",
            &points,
            |_| f64::INFINITY,
            |[x]| of_const(x),
            grad,
            |[x], [t]| of_const_jvp(x, t),
        );

        let o = Outer {
            i: Inner {
                a: -0.7,
                v: [1.25, 0.5],
            },
            c: 2.0,
        };
        let grad = |[x]: [f64; 1]| {
            let (v, d) = nested_grad(&o, x);
            (v, [d])
        };
        let value = |[x]: [f64; 1]| nested(&o, x);
        GradCheck::new("nested struct").run(&points, value, grad);
        check_jvp(
            "nested struct",
            &points,
            |_| f64::INFINITY,
            value,
            grad,
            |[x], [t]| nested_jvp(&o, x, t),
        );
        check_hvp(
            "nested struct",
            &points,
            |_| f64::INFINITY,
            F64_RTOL,
            grad,
            |[x], [v]| {
                let (value, d, h) = nested_hvp(&o, x, v);
                (value, [d], [h])
            },
        );
    }
}

/// A slice read at `b + k` in a loop whose end is a literal failed to compile: the reverse
/// sweep's row took the length `(3).saturating_sub(start)`, an integer of no type. Found
/// while writing the flat rows of vector mode (`tangent/flat.rs`), which print the same count.
mod row_of_a_literal_range {
    use stackgrad::differentiable;

    #[differentiable(wrt(x))]
    pub fn window(x: &[f64], k: usize) -> f64 {
        let mut s = 0.0;
        for b in 0..3 {
            s += x[b + k] * x[b + k];
        }
        for b in (1..=2).rev() {
            s += 0.5 * x[b + k + 1];
        }
        s
    }

    /// `window = sum_{b<3} x[b+k]^2 + 0.5 (x[k+2] + x[k+3])`: the gradient in closed form.
    #[test]
    fn gradient_in_closed_form() {
        let x = [0.5, -1.5, 2.0, 0.25, 3.0, -0.75];
        let k = 1;
        let mut d = [0.0; 6];
        let (v, ()) = window_grad(&x, k, &mut d);
        let want: f64 = (k..k + 3).map(|j| x[j] * x[j]).sum::<f64>() + 0.5 * (x[k + 2] + x[k + 3]);
        assert!((v - want).abs() < 1e-14, "{v} vs {want}");
        let mut closed = [0.0; 6];
        for j in k..k + 3 {
            closed[j] += 2.0 * x[j];
        }
        closed[k + 2] += 0.5;
        closed[k + 3] += 0.5;
        for j in 0..6 {
            assert!(
                (d[j] - closed[j]).abs() < 1e-14,
                "d[{j}] = {} vs {}",
                d[j],
                closed[j]
            );
        }
    }
}

/// Found by `genprog` (seed 21): in `f32` code, an element of the tuple a call returns, read
/// without a type and only widened (`let w = g(y, x).0; let v = w as f64;`), was typed `f64`
/// where the callee returns `f32` (the generated code did not compile). The element is now
/// named through the callee's contract (`<() as GCall<..>>::Elem0`). Each form of reading an
/// element, against the closed form of its derivative.
mod f32_tuple_elements {
    use stackgrad::differentiable;

    #[differentiable(jvp)]
    pub fn polar32(r: f32, a: f32) -> (f32, f32) {
        (r * a.cos(), r * a.sin())
    }

    /// `(r cos a)²`, the element read at once.
    #[differentiable(jvp)]
    pub fn widened(r: f32, a: f32) -> f64 {
        let w = polar32(r, a).0;
        let v = w as f64;
        v * v
    }

    /// `2 r cos a + (r sin a)² + cos²(r sin a / 2)`, both elements destructured; a value of
    /// the element's type recorded as `f32` and read back into its own type.
    #[differentiable(jvp)]
    pub fn destructured(r: f32, a: f32) -> f64 {
        let (p, q) = polar32(r, a);
        #[record(f32)]
        let c = (q * 0.5).cos();
        (p as f64) * 2.0 + (q as f64) * (q as f64) + (c * c) as f64
    }

    /// `(r sin a)³`, the tuple bound to one name; times a literal in the element's type
    /// (`0.5 * 2.0`, which the adjoint writes with its type).
    #[differentiable(jvp)]
    pub fn one_name(r: f32, a: f32) -> f64 {
        let t = polar32(r, a);
        let s = (t.1 * 0.5) as f64 * 2.0;
        s * s * s
    }

    /// `2^(r cos a)`: a derivative rule's constant (`LN_2`) in the element's type.
    #[differentiable(jvp)]
    pub fn power_of_two(r: f32, a: f32) -> f64 {
        let w = polar32(r, a).0;
        w.exp2() as f64
    }

    /// A plain helper, without derivative or contract, returning a tuple.
    fn limits() -> (f32, f32) {
        (-0.5, 0.75)
    }

    /// `0.75 r a + 0.5`: the elements of a call without derivative keep the types rustc gives
    /// them (its callee has no contract to name them by).
    #[differentiable(jvp)]
    pub fn limited(r: f32, a: f32) -> f64 {
        let (lo, hi) = limits();
        (r * a) as f64 * hi as f64 - lo as f64
    }

    #[differentiable(jvp)]
    pub fn rot(v: &[f64; 2]) -> (f64, f64) {
        (v[0] * 0.8 - v[1] * 0.6, v[0] * 0.6 + v[1] * 0.8)
    }

    /// The elements of `rot`'s tuple have the type of its argument's elements: named through
    /// the contract, they would name themselves (the macro overflowed its stack); they keep
    /// the type they had.
    #[differentiable(jvp)]
    pub fn rotated(x: f64, y: f32) -> f64 {
        let mut v = [1.0, 1.0];
        for _ in 0..3 {
            let (c, d) = rot(&v);
            v = [c * x, d];
        }
        v[0] + v[1] + y as f64
    }

    #[test]
    fn helpers_constants_and_self_named_elements() {
        let ln2 = core::f64::consts::LN_2;
        for (r, a) in [(1.3f32, 0.4f32), (-0.7, 2.1)] {
            let (rr, aa) = (f64::from(r), f64::from(a));
            let e = (rr * aa.cos()).exp2();
            let (v, (d_r, d_a)) = power_of_two_grad(r, a);
            assert!((v - e).abs() <= 1e-5 * e);
            assert!((f64::from(d_r) - e * ln2 * aa.cos()).abs() <= 1e-5 * e);
            assert!((f64::from(d_a) + e * ln2 * rr * aa.sin()).abs() <= 1e-5 * e.max(1.0));
            let (v, (d_r, d_a)) = limited_grad(r, a);
            assert!((v - (0.75 * rr * aa + 0.5)).abs() <= 1e-6);
            assert_eq!((d_r, d_a), (0.75 * a, 0.75 * r));
        }
        // `rotated` against central differences in x; its derivative in y is 1.
        let (x, h) = (0.9, 1e-6);
        let fd = (rotated(x + h, 0.5) - rotated(x - h, 0.5)) / (2.0 * h);
        let (_, (d_x, d_y)) = rotated_grad(x, 0.5);
        assert!(
            (d_x - fd).abs() <= 1e-7 * fd.abs().max(1.0),
            "{d_x} against {fd}"
        );
        assert_eq!(d_y, 1.0);
        let (_, t) = rotated_jvp(x, 0.5, 1.0, 0.0);
        assert!((t - fd).abs() <= 1e-7 * fd.abs().max(1.0));
    }

    #[test]
    fn against_closed_forms() {
        type Case = (
            &'static str,
            fn(f32, f32) -> (f64, (f32, f32)),
            fn(f32, f32, f32, f32) -> (f64, f64),
            fn(f64, f64) -> (f64, [f64; 2]),
        );
        let cases: [Case; 3] = [
            ("widened", widened_grad, widened_jvp, |r, a| {
                let c = a.cos();
                (
                    (r * c).powi(2),
                    [2.0 * r * c * c, -2.0 * r * r * c * a.sin()],
                )
            }),
            (
                "destructured",
                destructured_grad,
                destructured_jvp,
                |r, a| {
                    let (c, s) = (a.cos(), a.sin());
                    let (h, k) = ((r * s / 2.0).cos(), (r * s / 2.0).sin());
                    (
                        2.0 * r * c + (r * s).powi(2) + h * h,
                        [
                            2.0 * c + 2.0 * r * s * s - h * k * s,
                            -2.0 * r * s + 2.0 * r * r * s * c - h * k * r * c,
                        ],
                    )
                },
            ),
            ("one_name", one_name_grad, one_name_jvp, |r, a| {
                let s = a.sin();
                (
                    (r * s).powi(3),
                    [3.0 * r * r * s.powi(3), 3.0 * r.powi(3) * s * s * a.cos()],
                )
            }),
        ];
        for (name, grad, jvp, exact) in cases {
            for (r, a) in [(1.3f32, 0.4f32), (-0.7, 2.1), (2.5, -1.2)] {
                let (value, (d_r, d_a)) = grad(r, a);
                let (want, [w_r, w_a]) = exact(f64::from(r), f64::from(a));
                let close = |got: f64, want: f64, what: &str| {
                    assert!(
                        (got - want).abs() <= 1e-5 * want.abs().max(1.0),
                        "{name} at ({r}, {a}): {what} {got} against {want}"
                    );
                };
                close(value, want, "value");
                close(f64::from(d_r), w_r, "d/dr");
                close(f64::from(d_a), w_a, "d/da");
                let (v, t) = jvp(r, a, 0.25, -1.5);
                close(v, want, "jvp's value");
                close(t, 0.25 * w_r - 1.5 * w_a, "jvp");
            }
        }
    }
}
