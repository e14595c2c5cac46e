//! The constructs of the issue "The language people write", each checked against central finite
//! differences of the user's own function (which the macro keeps unchanged) at seeded random
//! points.

// Index loops are the constructs under test.
#![allow(clippy::needless_range_loop)]

mod common;

/// Loop bounds that are constant expressions: `/`, `%`, `*`, `+` of `const` items, const
/// generic parameters and literals.
mod const_bounds {
    use crate::common::{GradCheck, assert_close, check_hvp_flat, check_jvp_flat, cube};
    use stackgrad::differentiable;

    const N: usize = 8;
    const M: usize = 3;

    #[differentiable]
    pub fn consts(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N / 2 {
            s += x[i] * x[i + N / 2];
        }
        for i in 0..N % M {
            s += x[i] * s;
        }
        for i in 0..2 * M + 1 {
            s += x[i] * 0.5;
        }
        for i in 0..N / M {
            s *= x[i];
        }
        for i in 0..=N / 4 {
            s = (s + x[i]).sin();
        }
        s
    }

    #[differentiable]
    pub fn generic<const K: usize>(x: &[f64; K]) -> f64 {
        let mut s = 0.0;
        for i in 0..K / 2 {
            s += x[i] * x[i + K / 2];
        }
        for i in 0..K % 3 {
            s = s * x[i] + x[K - 1 - i];
        }
        s
    }

    #[test]
    fn gradients() {
        GradCheck::new("N / 2, N % M, 2 * M + 1, N / M, ..=N / 4").flat(
            &cube::<8>(1301, 24, -1.0, 1.0),
            |x: &[f64; 8]| consts(x),
            |x: &[f64; 8]| consts_grad(x),
        );
        GradCheck::new("K / 2, K % 3 for K = 7").flat(
            &cube::<7>(1302, 24, -1.0, 1.0),
            |x: &[f64; 7]| generic::<7>(x),
            |x: &[f64; 7]| generic_grad::<7>(x),
        );
        GradCheck::new("K / 2, K % 3 for K = 8").flat(
            &cube::<8>(1303, 24, -1.0, 1.0),
            |x: &[f64; 8]| generic::<8>(x),
            |x: &[f64; 8]| generic_grad::<8>(x),
        );
    }

    const SIGNED: i32 = 5;
    const SMALL: u8 = 3;
    const HALF: u32 = 6;
    const FEW: usize = 2;

    /// Bounds that are `const` items of integer types other than `usize`: the counters take
    /// their type, the tape its `usize` lengths.
    #[differentiable(hvp)]
    pub fn typed_consts(x: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for i in 0..SIGNED {
            s = (s * x[0] + (i as f64) * x[1]).tanh();
        }
        for i in (1..=SMALL).rev() {
            s = (s * x[2]).sin() + (i as f64) * 0.1;
        }
        for i in 0..HALF / 2 {
            for _ in 0..i {
                s = s * x[3] + 0.25;
            }
        }
        s
    }

    /// `#[max_iters]` bounds of type `i32` and `usize`, also in `hvp`'s tangent program (which
    /// the macro reads back with the bound cast).
    #[differentiable(hvp)]
    pub fn squares_past_ten(x: f64) -> f64 {
        let mut s = x;
        #[max_iters(SIGNED)]
        while s < 10.0 {
            s = s * s + 1.0;
        }
        s
    }

    #[differentiable(hvp)]
    pub fn few_squares_past_ten(x: f64) -> f64 {
        let mut s = x;
        #[max_iters(FEW)]
        while s < 10.0 {
            s = s * s + 1.0;
        }
        s
    }

    #[test]
    fn bounds_of_other_integer_types() {
        let points = cube::<4>(1304, 24, -1.0, 1.0);
        GradCheck::new("0..SIGNED (i32), (1..=SMALL).rev() (u8), 0..HALF / 2 (u32)").flat(
            &points,
            |x: &[f64; 4]| typed_consts(x),
            |x: &[f64; 4]| typed_consts_grad(x),
        );
        check_jvp_flat::<[f64; 4], [f64; 4], 4>(
            "typed_consts_jvp",
            &points,
            |_| f64::INFINITY,
            typed_consts,
            typed_consts_grad,
            typed_consts_jvp,
        );
        check_hvp_flat::<[f64; 4], [f64; 4], 4>(
            "typed_consts_hvp",
            &points,
            |_| f64::INFINITY,
            typed_consts_grad,
            typed_consts_hvp,
        );
        // The tape report writes the lengths as the bounds were written.
        let types: Vec<&str> = TypedConstsTape::FIELDS.iter().map(|f| f.2).collect();
        assert!(types.contains(&"[f64; SIGNED]"), "{types:?}");
        // From x in [1.1, 1.3] the loop runs three times: s = ((x² + 1)² + 1)² + 1, whose
        // derivative is 8 x (x² + 1) ((x² + 1)² + 1).
        for x in [1.1, 1.2, 1.3] {
            let (value, d_x) = squares_past_ten_grad(x);
            let a = x * x + 1.0;
            assert_eq!(value, (a * a + 1.0) * (a * a + 1.0) + 1.0);
            assert_close("d/dx", d_x, 8.0 * x * a * (a * a + 1.0), 1e-14);
            // The second derivative: 8 (a (a² + 1) + 2 x² (a² + 1) + 4 x² a²), times v = 0.5.
            let (_, g, hv) = squares_past_ten_hvp(x, 0.5);
            assert_close("hvp gradient", g, d_x, 1e-14);
            let second =
                8.0 * (a * (a * a + 1.0) + 2.0 * x * x * (a * a + 1.0) + 4.0 * x * x * a * a);
            assert_close("H v", hv, 0.5 * second, 1e-13);
        }
        // From 0 it needs four iterations: `FEW` (2) is too few, `SIGNED` (5) enough.
        assert_eq!(squares_past_ten(0.0), 26.0);
        let mut tape = FewSquaresPastTenTape::new();
        assert!(few_squares_past_ten_try_forward(0.0, &mut tape).is_err());
        assert_eq!(few_squares_past_ten_try_forward(3.0, &mut tape), Ok(10.0));
    }
}

/// Float methods called by their path (`f64::max(x, 0.0)`, `f32::sqrt(x)`), and a method whose
/// argument carries a type suffix (`x.max(0.0_f64)`).
mod float_functions {
    use crate::common::{GradCheck, round_to_f32, uniform};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn paths(x: f64, y: f64) -> f64 {
        f64::max(x, 0.0) * y + f64::sqrt(x * x + 1.0) + f64::powi(y, 3) + x.max(0.0_f64) * x
            - f64::atan2(y, 2.0 + x * x)
            + f64::mul_add(x, y, f64::exp(y))
    }

    #[differentiable]
    pub fn single(x: f32) -> f32 {
        f32::sqrt(x * x + 1.0) + f32::sin(2.0) * x + f32::min(x, 0.5_f32)
    }

    #[test]
    fn gradients() {
        GradCheck::new("f64::max, f64::sqrt, f64::powi, .max(0.0_f64), f64::atan2, f64::mul_add")
            .kink(|[x, _]| x.abs())
            .run(
                &uniform(1311, 24, [(-1.5, 1.5), (-1.5, 1.5)]),
                |[x, y]| paths(x, y),
                |[x, y]| {
                    let (value, (d_x, d_y)) = paths_grad(x, y);
                    (value, [d_x, d_y])
                },
            );
        GradCheck::new("f32::sqrt, f32::sin of a literal, f32::min")
            .f32()
            .kink(|[x]| (x - 0.5).abs())
            .run(
                &round_to_f32(uniform(1312, 24, [(-1.5, 1.5)])),
                |[x]| (x * x + 1.0).sqrt() + 2f64.sin() * x + x.min(0.5),
                |[x]| {
                    let (value, d_x) = single_grad(x as f32);
                    (f64::from(value), [f64::from(d_x)])
                },
            );
    }
}

/// `const` array items indexed like parameter arrays (`A[i][j]`, `IDX[j]`), and passed to a
/// call (`&W`): constants, with no derivative.
mod const_arrays {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    const A: [[f64; 3]; 3] = [[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [0.25, 0.0, 1.0]];
    const IDX: [usize; 3] = [2, 0, 1];
    const W: [f64; 3] = [0.5, -1.5, 2.0];

    #[differentiable]
    pub fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    #[differentiable]
    pub fn quadratic(x: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            for j in 0..3 {
                s += x[i] * A[i][j] * x[IDX[j]];
            }
        }
        s * dot(&W, x) + A[IDX[0]][1] * x[0]
    }

    #[test]
    fn gradients() {
        GradCheck::new("A[i][j], IDX[j], &W").flat(
            &cube::<3>(1321, 24, -1.5, 1.5),
            |x: &[f64; 3]| {
                let mut s = 0.0;
                for i in 0..3 {
                    for j in 0..3 {
                        s += x[i] * A[i][j] * x[IDX[j]];
                    }
                }
                s * (W[0] * x[0] + W[1] * x[1] + W[2] * x[2]) + A[2][1] * x[0]
            },
            |x: &[f64; 3]| quadratic_grad(x),
        );
    }
}

/// An integer `const` or struct field passed to a callee's integer parameter: bound with its
/// type first, it compiles in every mode and carries no derivative (passed whole, the macro
/// takes it for a float or an array: `tests/ui-tests/ui/calls/integer-const-passed-whole.rs`).
mod integers_passed_on {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    const STEPS: usize = 3;

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Model {
        pub w: f64,
        pub n: usize,
    }

    #[differentiable(hvp)]
    pub fn repeat(x: f64, n: usize) -> f64 {
        let k = n as f64;
        (k * x).sin() * x
    }

    #[differentiable(hvp)]
    pub fn by_const(x: f64) -> f64 {
        let n: usize = STEPS;
        repeat(x, n)
    }

    #[differentiable(hvp)]
    pub fn by_field(p: &Model) -> f64 {
        let n: usize = p.n;
        repeat(p.w, n)
    }

    /// `repeat` and its first two derivatives in `x`, by hand.
    fn by_hand(x: f64, n: usize) -> [f64; 3] {
        let k = n as f64;
        let (s, c) = (k * x).sin_cos();
        [s * x, k * c * x + s, 2.0 * k * c - k * k * s * x]
    }

    #[test]
    fn derivatives_against_a_hand_computation() {
        for p in cube::<2>(1341, 16, -1.0, 1.0) {
            let (x, t) = (p[0], p[1]);
            let [v, d, dd] = by_hand(x, STEPS);
            assert_close("by_const", by_const(x), v, 1e-12);
            assert_close("by_const grad", by_const_grad(x).1, d, 1e-12);
            assert_close("by_const jvp", by_const_jvp(x, t).1, d * t, 1e-12);
            assert_close("by_const hvp", by_const_hvp(x, t).2, dd * t, 1e-12);
            let [v, d, dd] = by_hand(x, 5);
            let m = Model { w: x, n: 5 };
            let dir = Model { w: t, n: 7 };
            assert_close("by_field", by_field(&m), v, 1e-12);
            let (_, g) = by_field_grad(&m);
            assert_close("by_field grad", g.w, d, 1e-12);
            assert_eq!(g.n, 0);
            assert_close("by_field jvp", by_field_jvp(&m, &dir).1, d * t, 1e-12);
            let (_, _, hv) = by_field_hvp(&m, &dir);
            assert_close("by_field hvp", hv.w, dd * t, 1e-12);
        }
    }
}

/// An integer a helper computes from data alone, bound without its type: rustc types it from
/// the helper (the slice's float type had typed it `f64`: a rustc error on the attribute,
/// "expected `f64`, found `usize`"). In a `match` it still needs its type written
/// (docs/guide.md).
mod integers_from_calls_on_data {
    use crate::common::{assert_close, cube};
    use stackgrad::differentiable;

    fn positives(v: &[f64]) -> usize {
        v.iter().filter(|x| **x > 0.0).count()
    }

    fn positives32(v: &[f32]) -> u32 {
        v.iter().filter(|x| **x > 0.0).count() as u32
    }

    #[differentiable(hvp)]
    pub fn waves(x: f64, v: &[f64]) -> f64 {
        let n = positives(v);
        let k = n as f64;
        (k * x).sin() + n as f64 * x
    }

    #[differentiable]
    pub fn square32(x: f32, v: &[f32]) -> f32 {
        let n = positives32(v);
        x * x * n as f32
    }

    /// Read in a loop: the cast's value is recorded, not the integer's.
    #[differentiable]
    pub fn summed(x: f64, v: &[f64]) -> f64 {
        let n = positives(v);
        let mut s = 0.0;
        for i in 0..3 {
            s += x * n as f64 + (x * i as f64).sin();
        }
        s
    }

    #[test]
    fn derivatives_against_a_hand_computation() {
        let v = [0.5, -1.0, 2.0, 0.25, -3.0];
        let k = 3.0;
        for p in cube::<2>(1342, 12, -1.0, 1.0) {
            let (x, t) = (p[0], p[1]);
            let d = k * (k * x).cos() + k;
            let dd = -k * k * (k * x).sin();
            assert_close("waves", waves(x, &v), (k * x).sin() + k * x, 1e-12);
            assert_close("waves grad", waves_grad(x, &v).1, d, 1e-12);
            let (_, _, hv) = waves_hvp(x, &v, t);
            assert_close("waves hvp", hv, dd * t, 1e-12);
            let v32 = v.map(|e| e as f32);
            let (value, g) = square32_grad(x as f32, &v32);
            assert_close(
                "square32",
                value as f64,
                3.0 * (x as f32 * x as f32) as f64,
                1e-6,
            );
            assert_close("square32 grad", g as f64, 6.0 * (x as f32) as f64, 1e-6);
            let (value, g) = summed_grad(x, &v);
            let by_hand: f64 = (0..3).map(|i| (x * i as f64).sin()).sum();
            assert_close("summed", value, 3.0 * k * x + by_hand, 1e-12);
            let d: f64 = (0..3).map(|i| i as f64 * (x * i as f64).cos()).sum();
            assert_close("summed grad", g, 3.0 * k + d, 1e-12);
        }
    }
}

/// An array result of a call bound to an annotated `let` (without the annotation: one error on
/// the `let`, `tests/ui-tests/ui/calls/untyped-array-result.rs`).
mod array_results {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn matvec<const N: usize>(m: &[[f64; N]; N], v: &[f64; N]) -> [f64; N] {
        let mut y = [0.0; N];
        for i in 0..N {
            for j in 0..N {
                y[i] += m[i][j] * v[j];
            }
        }
        y
    }

    #[differentiable]
    pub fn energy(m: &[[f64; 2]; 2], v: &[f64; 2]) -> f64 {
        let y: [f64; 2] = matvec::<2>(m, v);
        let z: [f64; 2] = matvec::<2>(m, &y);
        y[0] * z[1] - (y[1] * y[1]).sin()
    }

    #[test]
    fn gradients() {
        GradCheck::new("let y: [f64; 2] = matvec::<2>(..)").flat(
            &cube::<6>(1331, 24, -1.0, 1.0),
            |(m, v): &([[f64; 2]; 2], [f64; 2])| energy(m, v),
            |(m, v): &([[f64; 2]; 2], [f64; 2])| energy_grad(m, v),
        );
    }
}

/// Iterator reductions over arrays and ranges, lowered to loops: `sum`, `product`, `fold` with a
/// closure or a function path, after `map`, `zip`, `enumerate`, `copied`.
mod reductions {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn reduce(a: &[f64; 4], b: &[f64; 4]) -> f64 {
        let s = a.iter().sum::<f64>();
        let d: f64 = a.iter().zip(b.iter()).map(|(p, q)| p * q).sum();
        let m = a.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
        let m2 = b.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let pr: f64 = (0..4).map(|i| 1.0 + 0.1 * a[i] * b[3 - i]).product();
        let sq = a.iter().map(|v| v * v).fold(0.0, |acc, t| acc + t.sin());
        let w: f64 = b
            .iter()
            .enumerate()
            .map(|(i, v)| (i as f64 + 1.0) * v)
            .sum();
        s * d + m * m2 + pr + sq + 2.0 * a.iter().product::<f64>() - w
    }

    fn reference(a: &[f64; 4], b: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        let mut d = 0.0;
        let mut m = f64::NEG_INFINITY;
        let mut m2 = f64::NEG_INFINITY;
        let mut pr = 1.0;
        let mut sq = 0.0;
        let mut prod = 1.0;
        let mut w = 0.0;
        for i in 0..4 {
            s += a[i];
            d += a[i] * b[i];
            m = if a[i] > m { a[i] } else { m };
            m2 = if b[i] > m2 { b[i] } else { m2 };
            pr *= 1.0 + 0.1 * a[i] * b[3 - i];
            sq += (a[i] * a[i]).sin();
            prod *= a[i];
            w += (i as f64 + 1.0) * b[i];
        }
        s * d + m * m2 + pr + sq + 2.0 * prod - w
    }

    #[test]
    fn gradients() {
        GradCheck::new("sum, zip-map-sum, fold max, fold f64::max, range product, map-fold").flat(
            &cube::<8>(1341, 24, -1.5, 1.5),
            |(a, b): &([f64; 4], [f64; 4])| {
                let value = reduce(a, b);
                assert!((value - reference(a, b)).abs() <= 1e-12 * value.abs().max(1.0));
                value
            },
            |(a, b): &([f64; 4], [f64; 4])| reduce_grad(a, b),
        );
    }
}

/// `match` on integers, bools and fieldless enums (parameters by value and by reference, never
/// differentiated), as a value and as a statement, with or-patterns, ranges, bindings, guards
/// and arms that `return`.
mod matching {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Copy, Debug)]
    pub enum Mode {
        Square,
        Sine,
        Both,
    }

    #[differentiable]
    pub fn by_mode(x: f64, y: f64, mode: Mode, scale: &Mode) -> f64 {
        let base = match mode {
            Mode::Square => x * x,
            Mode::Sine => x.sin(),
            Mode::Both => x * x + x.sin(),
        };
        let s = match *scale {
            Mode::Square | Mode::Sine => 2.0 * y,
            Mode::Both => y * y,
        };
        base * s
    }

    #[differentiable]
    pub fn by_index(x: &[f64; 6], flip: bool) -> f64 {
        let mut s = 0.0;
        for i in 0..6 {
            match i % 3 {
                0 => s += x[i],
                1 => s *= x[i],
                k @ 2..=5 if x[i] > 0.0 => s += (k as f64) * x[i] * x[i],
                _ => s -= x[i].cos(),
            }
        }
        let t = match flip {
            true => -s,
            false => s,
        };
        match i32::from(flip) {
            0 => return t * x[0],
            n => s = t + (n as f64) * x[1],
        }
        s
    }

    /// `match` on tuples written out: each element tested as a `match` tests a value, `_` and
    /// `..`, or-patterns, names bound to elements (read by guards and bodies, one `mut`), enum variants,
    /// bools from comparisons, a tuple within a tuple, as a value and as a statement, and in
    /// `matches!` (`kind`, an enum only that `matches!` tests), a float element bound by name,
    /// names that swap the elements' own.
    #[differentiable]
    pub fn by_cell(x: &[f64; 4], i: usize, j: usize, mode: Mode, kind: &Mode) -> f64 {
        let a = match (i, j) {
            (0, 0) => x[0] * x[1],
            (0, _) | (_, 0) => x[1].sin(),
            (k, 1..=2) if k > 2 => (k as f64) * x[2] * x[2],
            (k, mut m) => {
                m += k;
                m as f64 * x[3]
            }
        };
        let b = match (x[0] > 0.0, x[1] > x[2], i % 2) {
            (true, true, ..) => x[0] * x[2],
            (true, false, 0) => x[1].exp(),
            (false, .., 1) => -x[3],
            _ => x[0] + x[1],
        };
        let mut s = a * b;
        match (mode, (i + j, j)) {
            (Mode::Square, (n @ 2..=4, _)) => s += (n as f64) * x[0] * x[0],
            (Mode::Sine | Mode::Both, (_, 3)) => s -= x[2].cos(),
            _ => {}
        }
        if matches!((*kind, j % 3), (.., 0) | (Mode::Both, _)) {
            s *= x[1];
        }
        match (x[2] * 2.0, i) {
            (v, 0) => s += v * v,
            (v, _) if v > 1.0 => s -= v.sin(),
            _ => {}
        }
        // Names bound to the values of before: `q` is `p`'s.
        let (p, q) = (x[0], x[1]);
        match (p, q) {
            (q, p) if q > p => s += q * 2.0 - p,
            (q, _) => s += q * 0.5,
        }
        s
    }

    pub struct Scale {
        pub s: f64,
    }

    const FLOOR: f64 = 0.0;

    /// A computed scrutinee an arm binds a name to: an integer (`mut k @ 1..=2` with a guard
    /// reading `k`, and a name in the last arm), a float (the name keeps its derivative), a
    /// place bound by name in a statement `match`, an enum parameter bound by name in a tuple,
    /// a field (whose kind the syntax does not tell: a float) bound by name in a tuple, a
    /// call's integer bound by name only (read as an integer: `n > 0`), a float tested against
    /// a float constant and bound by name, and a `match` on a place within a guard that reads
    /// the outer arm's name.
    #[differentiable(wrt(x))]
    pub fn by_value(x: &[f64; 3], i: usize, mode: Mode, sc: &Scale) -> f64 {
        let mut s = match (i * 7) % 4 {
            0 => x[0],
            mut k @ 1..=2 if k != i => {
                k += 1;
                (k as f64) * x[1]
            }
            k => (k as f64) * x[2] * x[0],
        };
        s += match x[1] * 2.0 {
            v if v > 1.0 => v.sin(),
            v => v * v,
        };
        match i {
            n if n > 2 => s *= (n as f64) * x[2],
            _ => {}
        }
        // An enum parameter bound by name in a tuple, then matched by variant.
        match (mode, i % 2) {
            (m, 0) => {
                if matches!(m, Mode::Sine) {
                    s += x[0].sin();
                }
            }
            _ => s -= x[1],
        }
        match (sc.s, i % 2) {
            (v, 0) => s += v * x[0],
            (v, _) if v > 3.0 => s -= v * x[2],
            _ => {}
        }
        match i32::from(i > 3) {
            n if n > 0 => s += (n as f64) * x[1],
            _ => {}
        }
        // A float tested against a float constant, then bound by name: it keeps its derivative.
        s += match x[2] * 3.0 {
            ..=FLOOR => 0.5,
            v => v * x[0],
        };
        let odd = (i + 1) % 2;
        s += match i % 3 {
            0 => x[0],
            k if match odd {
                0 => k > 0,
                _ => false,
            } =>
            {
                x[1] * k as f64
            }
            _ => x[2],
        };
        s
    }

    /// [`by_value`] in plain Rust.
    fn by_value_reference(x: &[f64; 3], i: usize, mode: Mode, sc: &Scale) -> f64 {
        let c = (i * 7) % 4;
        let mut s = if c == 0 {
            x[0]
        } else if (1..=2).contains(&c) && c != i {
            ((c + 1) as f64) * x[1]
        } else {
            (c as f64) * x[2] * x[0]
        };
        let v = x[1] * 2.0;
        s += if v > 1.0 { v.sin() } else { v * v };
        if i > 2 {
            s *= (i as f64) * x[2];
        }
        let even = i.is_multiple_of(2);
        if !even {
            s -= x[1];
        } else if let Mode::Sine = mode {
            s += x[0].sin();
        }
        if even {
            s += sc.s * x[0];
        } else if sc.s > 3.0 {
            s -= sc.s * x[2];
        }
        if i > 3 {
            s += x[1];
        }
        let w = x[2] * 3.0;
        s += if w <= FLOOR { 0.5 } else { w * x[0] };
        let c = i % 3;
        s += if c == 0 {
            x[0]
        } else if (i + 1).is_multiple_of(2) {
            x[1] * c as f64
        } else {
            x[2]
        };
        s
    }

    /// [`by_cell`] in plain Rust, each `match` written as the conditions it stands for.
    fn by_cell_reference(x: &[f64; 4], i: usize, j: usize, mode: Mode, kind: &Mode) -> f64 {
        let a = if i == 0 && j == 0 {
            x[0] * x[1]
        } else if i == 0 || j == 0 {
            x[1].sin()
        } else if (1..=2).contains(&j) && i > 2 {
            (i as f64) * x[2] * x[2]
        } else {
            (i + j) as f64 * x[3]
        };
        let (c0, c1) = (x[0] > 0.0, x[1] > x[2]);
        let b = if c0 && c1 {
            x[0] * x[2]
        } else if c0 && i.is_multiple_of(2) {
            x[1].exp()
        } else if !c0 && i % 2 == 1 {
            -x[3]
        } else {
            x[0] + x[1]
        };
        let mut s = a * b;
        let square = matches!(mode, Mode::Square);
        if square && (2..=4).contains(&(i + j)) {
            s += ((i + j) as f64) * x[0] * x[0];
        } else if !square && j == 3 {
            s -= x[2].cos();
        }
        if j.is_multiple_of(3) || matches!(kind, Mode::Both) {
            s *= x[1];
        }
        let v = x[2] * 2.0;
        if i == 0 {
            s += v * v;
        } else if v > 1.0 {
            s -= v.sin();
        }
        if x[0] > x[1] {
            s += x[0] * 2.0 - x[1];
        } else {
            s += x[0] * 0.5;
        }
        s
    }

    fn by_mode_reference(x: f64, y: f64, mode: Mode, scale: Mode) -> f64 {
        let base = if let Mode::Square = mode {
            x * x
        } else if let Mode::Sine = mode {
            x.sin()
        } else {
            x * x + x.sin()
        };
        let s = if let Mode::Both = scale {
            y * y
        } else {
            2.0 * y
        };
        base * s
    }

    #[test]
    fn gradients() {
        for mode in [Mode::Square, Mode::Sine, Mode::Both] {
            for scale in [Mode::Square, Mode::Both] {
                GradCheck::new("match on enum parameters").run(
                    &cube::<2>(1351, 20, -1.5, 1.5),
                    |[x, y]| {
                        let value = by_mode(x, y, mode, &scale);
                        assert_eq!(value, by_mode_reference(x, y, mode, scale));
                        value
                    },
                    |[x, y]| {
                        let (value, (d_x, d_y)) = by_mode_grad(x, y, mode, &scale);
                        (value, [d_x, d_y])
                    },
                );
            }
        }
        let modes = [Mode::Square, Mode::Sine, Mode::Both];
        for (i, j) in (0..5).flat_map(|i| (0..5).map(move |j| (i, j))) {
            let (mode, kind) = (modes[(i + j) % 3], modes[(i * j) % 3]);
            GradCheck::new("match on tuples")
                .kink(|x| {
                    let gaps = [x[0], x[1] - x[2], x[2] - 0.5, x[0] - x[1]];
                    gaps.iter().fold(f64::INFINITY, |m, g| m.min(g.abs()))
                })
                .flat(
                    &cube::<4>(1353 + 5 * i as u64 + j as u64, 20, -1.5, 1.5),
                    |x: &[f64; 4]| by_cell(x, i, j, mode, &kind),
                    |x: &[f64; 4]| {
                        let (value, d_x) = by_cell_grad(x, i, j, mode, &kind);
                        assert_eq!(value, by_cell_reference(x, i, j, mode, &kind));
                        (value, d_x)
                    },
                );
        }
        for i in 0..6 {
            let (mode, sc) = (modes[i % 3], Scale { s: 0.5 + i as f64 });
            GradCheck::new("match on a computed value bound by name")
                .kink(|x| (x[1] - 0.5).abs().min(x[2].abs()))
                .flat(
                    &cube::<3>(1354 + i as u64, 20, -1.5, 1.5),
                    |x: &[f64; 3]| by_value(x, i, mode, &sc),
                    |x: &[f64; 3]| {
                        let (value, d_x) = by_value_grad(x, i, mode, &sc);
                        assert_eq!(value, by_value_reference(x, i, mode, &sc));
                        (value, d_x)
                    },
                );
        }
        for flip in [false, true] {
            GradCheck::new("match on integers and bools")
                .kink(|x| x.iter().fold(f64::INFINITY, |m, v| m.min(v.abs())))
                .flat(
                    &cube::<6>(1352, 24, -1.5, 1.5),
                    |x: &[f64; 6]| by_index(x, flip),
                    |x: &[f64; 6]| by_index_grad(x, flip),
                );
        }
    }
}

/// A struct field cast to a float, whose type the macro cannot see: an integer field (no
/// derivative, whatever the tangent struct holds there) and an `f32` field in `f64` code (the
/// derivative passes through the cast), as in Rust.
mod casts_of_fields {
    use crate::common::{GradCheck, assert_close, cube};
    use stackgrad::differentiable;

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Scaled {
        pub w: [f64; 2],
        pub s: f32,
        pub k: usize,
        pub v: [f32; 2],
    }

    #[differentiable(jvp)]
    pub fn energy(p: &Scaled, x: f64) -> f64 {
        let n = p.k as f64;
        (p.w[0] * x + p.w[1]) * n + (p.s as f64) * x * x + (p.v[1] as f64).sin() * n
    }

    /// Under `hvp`, a field of the cast's own type (a no-op cast), and an integer field bound
    /// with its type first.
    #[allow(clippy::unnecessary_cast)] // the no-op cast is what is tested
    #[differentiable(hvp)]
    pub fn energy_hvp_form(p: &Scaled, x: f64) -> f64 {
        let k: usize = p.k;
        (p.w[0] as f64) * x * x * (k as f64) + (p.w[1] as f64) * x
    }

    #[test]
    fn hessian_vector_product_of_a_no_op_cast() {
        let p = Scaled {
            w: [1.5, 0.5],
            s: 0.0,
            k: 3,
            v: [0.0; 2],
        };
        let v = Scaled {
            w: [1.0, -2.0],
            s: 0.0,
            k: 7,
            v: [0.0; 2],
        };
        let (x, v_x) = (2.0, 0.5);
        // f = 3 w0 x² + w1 x: ∇ = (3 x², x, 6 w0 x + w1); H v = (6 x v_x, v_x, 6 x v_w0 + v_w1 + 6 w0 v_x).
        let (value, (g_p, g_x), (h_p, h_x)) = energy_hvp_form_hvp(&p, x, &v, v_x);
        assert_eq!(value, 3.0 * 1.5 * 4.0 + 0.5 * 2.0);
        assert_eq!((g_p.w, g_x), ([12.0, 2.0], 6.0 * 1.5 * 2.0 + 0.5));
        assert_eq!(h_p.w, [6.0 * 2.0 * 0.5, 0.5]);
        assert_eq!(h_x, 6.0 * 2.0 * 1.0 - 2.0 + 6.0 * 1.5 * 0.5);
    }

    fn energy_f64(w: [f64; 2], s: f64, v1: f64, k: usize, x: f64) -> f64 {
        let n = k as f64;
        (w[0] * x + w[1]) * n + s * x * x + v1.sin() * n
    }

    #[test]
    fn gradient_and_tangent() {
        for k in [0, 3] {
            // The f32 fields hold values exact in f32, so the f64 reference sees the same ones.
            let points: Vec<[f64; 5]> = cube::<5>(1380 + k as u64, 24, -1.5, 1.5)
                .into_iter()
                .map(|p| p.map(|c| c as f32 as f64))
                .collect();
            GradCheck::new("p.k as f64, p.s as f64").flat(
                &points,
                |&(w, s, v1, x): &([f64; 2], f64, f64, f64)| energy_f64(w, s, v1, k, x),
                |&(w, s, v1, x): &([f64; 2], f64, f64, f64)| {
                    let p = Scaled {
                        w,
                        s: s as f32,
                        k,
                        v: [0.25, v1 as f32],
                    };
                    let (value, (d_p, d_x)) = energy_grad(&p, x);
                    assert_eq!(d_p.k, 0);
                    assert_eq!(d_p.v[0], 0.0);
                    (value, (d_p.w, d_p.s as f64, d_p.v[1] as f64, d_x))
                },
            );
        }
        // The tangent along every float field and x, with 7 in the integer field's slot of the
        // tangent struct: an integer has no tangent, so it must not count.
        let p = Scaled {
            w: [0.5, -1.0],
            s: 0.75,
            k: 3,
            v: [0.0, 0.5],
        };
        let t = Scaled {
            w: [1.0, 2.0],
            s: -0.5,
            k: 7,
            v: [0.0, 0.25],
        };
        let (x, t_x) = (1.25, 0.5);
        let (value, tangent) = energy_jvp(&p, x, &t, t_x);
        assert_eq!(value, energy(&p, x));
        let n = 3.0;
        let along = (t.w[0] * x + t.w[1]) * n
            + (p.w[0] * t_x) * n
            + (t.s as f64) * x * x
            + (p.s as f64) * 2.0 * x * t_x
            + (0.5f64).cos() * 0.25 * n;
        assert_close("tangent", tangent, along, 1e-14);
    }
}

/// Integer literals with a float suffix are floats, as in Rust: `2_f64`, `3f64`.
mod float_suffixed_integer_literals {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable(jvp)]
    pub fn poly(x: f64) -> f64 {
        2_f64 * x * x + 3f64 * x - 1_f64
    }

    #[test]
    fn gradient_and_tangent() {
        GradCheck::new("2_f64 * x * x + 3f64 * x - 1_f64").flat(
            &cube::<1>(1370, 20, -2.0, 2.0),
            |x: &f64| 2.0 * x * x + 3.0 * x - 1.0,
            |x: &f64| poly_grad(*x),
        );
        let (v, t) = poly_jvp(0.5, 2.0);
        assert_eq!((v, t), (1.0, 2.0 * (4.0 * 0.5 + 3.0)));
    }
}

/// `panic!` where Rust takes any type: a branch of an `if` used as a value, a `match` arm (as a
/// value or a statement), an `else` block's tail. The forward sweep panics where the function
/// does, `_try_forward` returns the message, and the gradient is that of the branch taken.
mod panic_as_a_value {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn guarded(x: f64, y: &[f64; 2], n: usize) -> f64 {
        let w = if y[0] < -10.0 {
            panic!("y[0] too small")
        } else {
            (x * y[1]).sin()
        };
        let k = match n {
            0 => w * x,
            1 | 2 => w + y[0] * y[0],
            _ => panic!("n must be at most 2"),
        };
        let mut s = k;
        match n {
            0 => s *= y[1],
            1 | 2 => s += x,
            _ => panic!("not reached: n > 2 panicked above"),
        }
        let r = if s < 100.0 {
            s * s
        } else {
            panic!("s too large")
        };
        r + w
    }

    fn guarded_f64(x: f64, y: &[f64; 2], n: usize) -> f64 {
        let w = (x * y[1]).sin();
        let k = if n == 0 { w * x } else { w + y[0] * y[0] };
        let s = if n == 0 { k * y[1] } else { k + x };
        s * s + w
    }

    #[test]
    fn gradients_of_the_branch_taken() {
        for n in 0..3 {
            GradCheck::new("panic! as a value").flat(
                &cube::<3>(1360 + n as u64, 24, -1.5, 1.5),
                |(x, y): &(f64, [f64; 2])| guarded_f64(*x, y, n),
                |(x, y): &(f64, [f64; 2])| guarded_grad(*x, y, n),
            );
        }
    }

    #[test]
    fn each_panic_is_the_functions() {
        let mut tape = GuardedTape::new();
        type Case = (f64, [f64; 2], usize, Result<f64, &'static str>);
        let cases: [Case; 4] = [
            (0.5, [0.25, 1.0], 1, Ok(guarded(0.5, &[0.25, 1.0], 1))),
            (0.5, [-20.0, 1.0], 0, Err("y[0] too small")),
            (0.5, [0.25, 1.0], 3, Err("n must be at most 2")),
            (0.5, [10.5, 1.0], 1, Err("s too large")),
        ];
        for (x, y, n, expected) in cases {
            assert_eq!(guarded_try_forward(x, &y, n, &mut tape), expected);
            let caught = std::panic::catch_unwind(|| guarded(x, &y, n));
            assert_eq!(caught.is_err(), expected.is_err());
        }
        let (value, _, _) = guarded_hvp(0.5, &[0.25, 1.0], 1, 1.0, &[0.0, 0.0]);
        assert_eq!(value, guarded(0.5, &[0.25, 1.0], 1));
    }
}

/// `.rev()` last on an `iter()` loop: Horner's rule over the coefficients, highest first, over
/// an array and over a slice; `enumerate().rev()` pairs each element with its own index; a
/// `zip(..).rev()` of two lengths pairs the elements the shorter has, last first, as `zip`
/// does. Against closed forms and central differences.
mod reversed_iterators {
    use crate::common::{GradCheck, assert_close, check_jvp, cube};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn horner(c: &[f64; 4], x: f64) -> f64 {
        let mut acc = 0.0;
        for ci in c.iter().rev() {
            acc = acc * x + ci;
        }
        acc
    }

    #[differentiable(wrt(c, x))]
    pub fn horner_slice(c: &[f64], x: f64) -> f64 {
        let mut acc = 0.0;
        for ci in c.iter().rev() {
            acc = acc * x + ci;
        }
        acc
    }

    #[differentiable(jvp)]
    pub fn weighted(a: &[f64; 4], b: &[f64; 3]) -> f64 {
        let (mut s, mut last) = (0.0, 0.0);
        for (i, e) in a.iter().enumerate().rev() {
            s += (i as f64 + 1.0) * e.sin() + last * 0.5;
            last = *e;
        }
        for (u, v) in a.iter().zip(b.iter()).rev() {
            s = s * 0.9 + u * v;
        }
        s
    }

    /// Over slices: `zip(..).rev()` of two run-time lengths (the shorter's pairs, last first),
    /// a loop of independent iterations reversed (which `f_grad` fuses into its forward sweep),
    /// `iter_mut().rev()` on a local array, and a reversed loop under binomial checkpoints.
    #[differentiable(wrt(x, y, w))]
    pub fn backwards(x: &[f64], y: &[f64], w: f64) -> f64 {
        let mut s = 0.0;
        for (u, v) in x.iter().zip(y.iter()).rev() {
            s = s * w + u * v;
        }
        let mut acc = 0.0;
        for u in x.iter().rev() {
            acc += (u * w).sin();
        }
        let mut h = [w, 2.0 * w, 3.0 * w];
        let mut carry = acc;
        for e in h.iter_mut().rev() {
            carry = carry * 0.5 + e.sin();
            *e = carry;
        }
        let mut r = 0.5;
        #[checkpoint(binomial(2))]
        for u in y.iter().rev() {
            r = (r * u + w).tanh();
        }
        s + acc * 0.5 + h[0] * h[2] + r
    }

    /// `backwards` by index, forwards where the order does not matter.
    fn backwards_plain(x: &[f64], y: &[f64], w: f64) -> f64 {
        let n = x.len().min(y.len());
        let mut s = 0.0;
        for i in (0..n).rev() {
            s = s * w + x[i] * y[i];
        }
        let acc: f64 = x.iter().map(|u| (u * w).sin()).sum();
        // Last first: h[2] carries acc, h[1] carries h[2], h[0] carries h[1].
        let h2 = acc * 0.5 + (3.0 * w).sin();
        let h1 = h2 * 0.5 + (2.0 * w).sin();
        let h = [h1 * 0.5 + w.sin(), h1, h2];
        let mut r = 0.5;
        for i in (0..y.len()).rev() {
            r = (r * y[i] + w).tanh();
        }
        s + acc * 0.5 + h[0] * h[2] + r
    }

    #[test]
    fn over_slices_against_central_differences() {
        // x of 5 elements, y of 4: the zip stops at 4.
        let split = |q: [f64; 10]| (q[..5].to_vec(), q[5..9].to_vec(), q[9]);
        GradCheck::new("zip(..).rev() of slices, a fused rev loop, iter_mut().rev(), binomial")
            .run(
                &cube::<10>(1363, 30, -1.2, 1.2),
                |q| {
                    let (x, y, w) = split(q);
                    assert_close(
                        "backwards",
                        backwards(&x, &y, w),
                        backwards_plain(&x, &y, w),
                        1e-13,
                    );
                    backwards(&x, &y, w)
                },
                |q| {
                    let (x, y, w) = split(q);
                    let (mut d_x, mut d_y) = (vec![0.0; 5], vec![0.0; 4]);
                    let (value, d_w) = backwards_grad(&x, &y, w, &mut d_x, &mut d_y);
                    let mut g = [0.0; 10];
                    g[..5].copy_from_slice(&d_x);
                    g[5..9].copy_from_slice(&d_y);
                    g[9] = d_w;
                    (value, g)
                },
            );
    }

    #[test]
    fn horner_against_the_polynomial() {
        for q in cube::<7>(1361, 20, -1.5, 1.5) {
            let (c, x) = ([q[0], q[1], q[2], q[3]], q[4]);
            let (value, (d_c, d_x)) = horner_grad(&c, x);
            let p = c[0] + c[1] * x + c[2] * x * x + c[3] * x * x * x;
            assert_close("horner", value, p, 1e-14);
            for k in 0..4 {
                assert_close("d/dc_k = x^k", d_c[k], x.powi(k as i32), 1e-14);
            }
            let dp = c[1] + 2.0 * c[2] * x + 3.0 * c[3] * x * x;
            assert_close("d/dx", d_x, dp, 1e-13);
            // H v along (0, 0, 0, 0, v_x) and (v_c, 0): d2/dx2 = 2 c2 + 6 c3 x, d2/dc_k dx =
            // k x^(k-1).
            let (v_c, v_x) = ([q[5], 0.0, -q[6], q[5]], q[6]);
            let (_, _, (h_c, h_x)) = horner_hvp(&c, x, &v_c, v_x);
            let mut want_x = (2.0 * c[2] + 6.0 * c[3] * x) * v_x;
            for k in 1..4 {
                let mixed = k as f64 * x.powi(k as i32 - 1);
                want_x += mixed * v_c[k];
                assert_close("d2/dc_k dx", h_c[k], mixed * v_x, 1e-13);
            }
            assert_close("h_c[0]", h_c[0], 0.0, 1e-15);
            assert_close("d2/dx2", h_x, want_x, 1e-13);
            // Over a slice of six coefficients.
            let cs = [q[0], q[1], q[2], q[3], q[5], q[6]];
            let mut d_cs = [0.0; 6];
            let (value, d_x) = horner_slice_grad(&cs, x, &mut d_cs);
            let p: f64 = (0..6).map(|k| cs[k] * x.powi(k as i32)).sum();
            let dp: f64 = (1..6)
                .map(|k| k as f64 * cs[k] * x.powi(k as i32 - 1))
                .sum();
            assert_close("horner over a slice", value, p, 1e-13);
            assert_close("d/dx over a slice", d_x, dp, 1e-12);
            for k in 0..6 {
                assert_close("d/dc_k over a slice", d_cs[k], x.powi(k as i32), 1e-14);
            }
        }
    }

    #[test]
    fn enumerate_and_zip_reversed() {
        let split = |q: [f64; 7]| ([q[0], q[1], q[2], q[3]], [q[4], q[5], q[6]]);
        let grad = |q: [f64; 7]| {
            let (a, b) = split(q);
            let (value, (d_a, d_b)) = weighted_grad(&a, &b);
            let mut g = [0.0; 7];
            g[..4].copy_from_slice(&d_a);
            g[4..].copy_from_slice(&d_b);
            (value, g)
        };
        let points = cube::<7>(1362, 30, -1.5, 1.5);
        GradCheck::new("enumerate().rev(), zip(..).rev()").run(
            &points,
            |q| {
                let (a, b) = split(q);
                weighted(&a, &b)
            },
            grad,
        );
        check_jvp(
            "enumerate().rev(), zip(..).rev()",
            &points,
            |_| f64::INFINITY,
            |q| {
                let (a, b) = split(q);
                weighted(&a, &b)
            },
            grad,
            |q, t| {
                let ((a, b), (t_a, t_b)) = (split(q), split(t));
                weighted_jvp(&a, &b, &t_a, &t_b)
            },
        );
    }
}

/// Two `let` forms of plain Rust the macro rewrites before lowering: `let (s, c) =
/// x.sin_cos();` (also `f64::sin_cos(x)`, of an expression, with a type, bound to one name
/// and read as `t.0`, or `x.sin_cos().1` in an expression) as `(x.sin(), x.cos())`, and array
/// patterns, `let [a, b, c] = *v;`, nested, with `_` and `mut`, of a
/// call's result and of an array literal with its type. Checked against central differences
/// of the function itself (compiled as written), and `f_hvp` against differences of the
/// gradient.
mod sin_cos_and_array_patterns {
    use crate::common::{GradCheck, assert_close, cube};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn turn(theta: f64, w: f64, p: &[f64; 2]) -> f64 {
        let (s, c) = theta.sin_cos();
        let (s2, c2): (f64, f64) = (theta * w).sin_cos();
        let (sw, cw) = f64::sin_cos(w);
        let x = c * p[0] - s * p[1];
        let y = s * p[0] + c * p[1];
        let mut t = (w - theta).sin_cos();
        t.1 *= 2.0;
        let bent = if (theta * p[1]).sin_cos().0 > 0.25 {
            t.0
        } else {
            t.1
        };
        x * s2 + y * c2 + sw * cw * theta + t.0 * t.1 * p[0] + (p[1] * w).sin_cos().1 + bent
            - (p[0] * theta).sin_cos().0
    }

    /// Also `sc` bound again after its last read by field: the new `sc` is another value.
    #[differentiable]
    pub fn turn32(theta: f32, p: &[f32; 2]) -> f32 {
        let (s, c) = theta.sin_cos();
        let [a, b] = *p;
        let sc = (a * b).sin_cos();
        let cos_ab = sc.1;
        let sc = cos_ab * 2.0;
        c * a - s * b + sc * 0.5
    }

    #[differentiable(hvp)]
    pub fn scaled(v: &[f64; 2]) -> [f64; 2] {
        [v[0] * 2.0, v[1].sin()]
    }

    /// Also a swap (`let [b, a] = [a, b];`), names a pattern binds read by its own value (`let
    /// [e2, f2] = m[e2];`, `let [m, n] = *m;`), which Rust reads before it binds them, and a
    /// borrowed array (`&ac`).
    #[differentiable(hvp)]
    pub fn unpacked(v: &[f64; 3], m: &[[f64; 2]; 2]) -> f64 {
        let [a, b, c] = *v;
        let [[m00, _], [m10, mut m11]] = *m;
        m11 *= 2.0;
        let [d, e]: [f64; 2] = [a * b, c];
        let ac = [a, c];
        let [g0, g1] = scaled(&ac);
        let [b, a] = [a, b];
        let [r0, r1] = &ac;
        let e2 = 1;
        let [e2, f2] = m[e2];
        let [m, n] = *m;
        a * b + c + m00 * m10 * m11 + d * e + g0 * g1 + r0 * a - r1 + e2 * f2 + m[1] * n[0]
    }

    /// Borrowed array patterns: each name refers to its element (`&v`, a reference parameter
    /// `q` itself, `&mut h` written through), and `let c = q;` of a reference parameter, a
    /// copy of its array.
    #[differentiable(hvp)]
    pub fn borrowed(v: &[f64; 2], q: &[[f64; 2]; 3], w: f64) -> f64 {
        let [a, b] = &v;
        let mut h = [w, 2.0 * w];
        let [c, d] = &mut h;
        *c += *a * w;
        *d = d.sin() + b;
        let i = 2;
        let [i, j] = &q[i];
        let [e, f] = &h;
        let [_, r, _] = q;
        let all = q;
        // Taken at `k = 0`, read after `k` moved on: still `q[0][0]`.
        let mut k = 0;
        let [g, _] = &q[k];
        k += 1;
        // Aliases read inside a loop.
        let mut z = 0.0;
        for t in 0..2 {
            z += *a * q[t][1] + e;
        }
        // A `const` item borrowed (genprog, seed 1: `*t0` was an error).
        let [[t0, _], [_, t1]] = &TABLE;
        a * *b + e * f + i * j + h[0] + r[0] * all[0][1] + g * q[k][1] + z + *t0 * w + t1 * a
    }

    const TABLE: [[f64; 2]; 2] = [[0.5, -1.25], [2.0, 0.75]];

    fn borrowed_plain(v: &[f64; 2], q: &[[f64; 2]; 3], w: f64) -> f64 {
        let (a, b) = (v[0], v[1]);
        let h = [w + a * w, (2.0 * w).sin() + b];
        let z = a * q[0][1] + h[0] + a * q[1][1] + h[0];
        a * b
            + h[0] * h[1]
            + q[2][0] * q[2][1]
            + h[0]
            + q[1][0] * q[0][1]
            + q[0][0] * q[1][1]
            + z
            + 0.5 * w
            + 0.75 * a
    }

    /// `unpacked` without the forms the macro rewrites.
    fn unpacked_plain(v: &[f64; 3], m: &[[f64; 2]; 2]) -> f64 {
        let (a, b, c) = (v[0], v[1], v[2]);
        let (m00, m10, m11) = (m[0][0], m[1][0], 2.0 * m[1][1]);
        let (d, e) = (a * b, c);
        let (g0, g1) = (a * 2.0, c.sin());
        let (r0, r1) = (a, c);
        let (a, b) = (b, a);
        a * b + c + m00 * m10 * m11 + d * e + g0 * g1 + r0 * a - r1
            + m[1][0] * m[1][1]
            + m[0][1] * m[1][0]
    }

    #[test]
    fn gradients_against_central_differences() {
        GradCheck::new("let (s, c) = x.sin_cos(), f64::sin_cos(w), (x * w).sin_cos()").run(
            &cube::<4>(1351, 30, -1.5, 1.5),
            |q| turn(q[0], q[1], &[q[2], q[3]]),
            |q| {
                let (value, (d_theta, d_w, d_p)) = turn_grad(q[0], q[1], &[q[2], q[3]]);
                (value, [d_theta, d_w, d_p[0], d_p[1]])
            },
        );
        GradCheck::new("let [a, b, c] = *v, nested, `_`, `mut`, a call's result").run(
            &cube::<7>(1352, 30, -1.5, 1.5),
            |q| unpacked(&[q[0], q[1], q[2]], &[[q[3], q[4]], [q[5], q[6]]]),
            |q| {
                let (value, (d_v, d_m)) =
                    unpacked_grad(&[q[0], q[1], q[2]], &[[q[3], q[4]], [q[5], q[6]]]);
                (
                    value,
                    [
                        d_v[0], d_v[1], d_v[2], d_m[0][0], d_m[0][1], d_m[1][0], d_m[1][1],
                    ],
                )
            },
        );
    }

    #[test]
    fn the_forms_read_as_plain_rust_reads_them() {
        for q in cube::<7>(1354, 20, -1.5, 1.5) {
            let (v, m) = ([q[0], q[1], q[2]], [[q[3], q[4]], [q[5], q[6]]]);
            assert_close("unpacked", unpacked(&v, &m), unpacked_plain(&v, &m), 1e-14);
            assert_close(
                "its f_grad",
                unpacked_grad(&v, &m).0,
                unpacked(&v, &m),
                1e-15,
            );
        }
        let split = |x: [f64; 9]| {
            (
                [x[0], x[1]],
                [[x[2], x[3]], [x[4], x[5]], [x[6], x[7]]],
                x[8],
            )
        };
        GradCheck::new("let [a, b] = &v, &mut h, of a reference parameter; let c = q").run(
            &cube::<9>(1357, 20, -1.5, 1.5),
            |x| {
                let (v, q, w) = split(x);
                assert_close(
                    "borrowed",
                    borrowed(&v, &q, w),
                    borrowed_plain(&v, &q, w),
                    1e-14,
                );
                borrowed(&v, &q, w)
            },
            |x| {
                let (v, q, w) = split(x);
                let (value, (d_v, d_q, d_w)) = borrowed_grad(&v, &q, w);
                let mut g = [0.0; 9];
                g[..2].copy_from_slice(&d_v);
                g[2..8].copy_from_slice(d_q.as_flattened());
                g[8] = d_w;
                (value, g)
            },
        );
        for x in cube::<18>(1358, 10, -1.5, 1.5) {
            let (v, q, w) = split(x[..9].try_into().unwrap());
            let (t_v, t_q, t_w) = split(x[9..].try_into().unwrap());
            let (_, _, (h_v, h_q, h_w)) = borrowed_hvp(&v, &q, w, &t_v, &t_q, t_w);
            let h = 1e-5;
            let at = |s: f64| {
                let v = [v[0] + s * t_v[0], v[1] + s * t_v[1]];
                let q: [[f64; 2]; 3] =
                    core::array::from_fn(|i| core::array::from_fn(|j| q[i][j] + s * t_q[i][j]));
                let (_, (d_v, d_q, d_w)) = borrowed_grad(&v, &q, w + s * t_w);
                let mut g = [0.0; 9];
                g[..2].copy_from_slice(&d_v);
                g[2..8].copy_from_slice(d_q.as_flattened());
                g[8] = d_w;
                g
            };
            let (plus, minus) = (at(h), at(-h));
            let mut got = [0.0; 9];
            got[..2].copy_from_slice(&h_v);
            got[2..8].copy_from_slice(h_q.as_flattened());
            got[8] = h_w;
            for k in 0..9 {
                let fd = (plus[k] - minus[k]) / (2.0 * h);
                assert_close("borrowed patterns: H v", got[k], fd, 1e-6);
            }
        }
        GradCheck::new("f32: let (s, c) = theta.sin_cos(), let [a, b] = *p")
            .f32()
            .run(
                &cube::<3>(1355, 20, -1.5, 1.5),
                // The same function in f64: its central differences are the reference.
                |q| q[0].cos() * q[1] - q[0].sin() * q[2] + (q[1] * q[2]).cos(),
                |q| {
                    let (value, (d_theta, d_p)) =
                        turn32_grad(q[0] as f32, &[q[1] as f32, q[2] as f32]);
                    (f64::from(value), [d_theta, d_p[0], d_p[1]].map(f64::from))
                },
            );
    }

    /// Tuples bound to one name and read by field: `let t = (a, b);`, typed, `mut` and
    /// assigned by field (`u.0 += ..`, `u.1[1] *= ..`), with an array element, bound again from
    /// its own fields (`let t = (t.1, t.0);`), in a loop and read in a condition; its name
    /// bound again by a `for`, a closure's parameter and an inner `let`, where it is another
    /// variable.
    #[differentiable(jvp, hvp)]
    pub fn tupled(x: &[f64; 2], y: &[f64; 2]) -> f64 {
        let t = (x[0], x[1] * y[0]);
        let mut u: (f64, [f64; 2]) = (t.1, [y[1], t.0]);
        u.0 += t.0 * u.1[0];
        u.1[1] *= 3.0;
        let t = (t.1, t.0);
        let mut s = 0.0;
        for k in 0..2 {
            let p = (u.1[k], x[k].sin());
            s += if p.1 > 0.0 { p.0 * p.1 } else { p.0 - p.1 };
        }
        // `t` bound again by a loop, a closure and an inner block: the tuple is not read there.
        for t in x.iter() {
            s += 0.5 * t * t;
        }
        let sq = |t: f64| t * t;
        s += sq(t.1);
        {
            let t = y[1] * 2.0;
            s += t;
        }
        t.0 * t.1 + t.0 + u.0 * u.1[1] + s
    }

    /// Traced by hand: `t = (x0, x1 y0)`, `u = (x1 y0 + x0 y1, [y1, 3 x0])`, then `t = (x1 y0,
    /// x0)` and `p = (u.1[k], sin xk)`.
    fn tupled_plain(x: &[f64; 2], y: &[f64; 2]) -> f64 {
        let a = x[1] * y[0];
        let u0 = a + x[0] * y[1];
        let w = [y[1], x[0] * 3.0];
        let mut s = 0.0;
        for k in 0..2 {
            let q = x[k].sin();
            s += if q > 0.0 { w[k] * q } else { w[k] - q };
        }
        s += 0.5 * (x[0] * x[0] + x[1] * x[1]) + x[0] * x[0] + y[1] * 2.0;
        a * x[0] + a + u0 * w[1] + s
    }

    #[test]
    fn tuples_read_by_field_against_central_differences() {
        let pair = crate::common::Pair {
            f: tupled,
            plain: tupled_plain,
            grad: tupled_grad,
            jvp: tupled_jvp,
            hvp: tupled_hvp,
        };
        pair.check::<4>("let t = (a, b); t.0", 1357);
    }

    #[test]
    fn hessian_vector_products_against_differences_of_the_gradient() {
        for q in cube::<8>(1353, 20, -1.5, 1.5) {
            let (theta, w, p) = (q[0], q[1], [q[2], q[3]]);
            let (t, t_p) = ([q[4], q[5]], [q[6], q[7]]);
            let (value, (g_theta, g_w, g_p), hv) = turn_hvp(theta, w, &p, t[0], t[1], &t_p);
            assert_eq!(value, turn(theta, w, &p));
            let h = 1e-5;
            let at = |s: f64| {
                let p = [p[0] + s * t_p[0], p[1] + s * t_p[1]];
                let (_, (a, b, c)) = turn_grad(theta + s * t[0], w + s * t[1], &p);
                [a, b, c[0], c[1]]
            };
            let (plus, minus) = (at(h), at(-h));
            let (_, (d_theta, d_w, d_p)) = turn_grad(theta, w, &p);
            let got = [g_theta, g_w, g_p[0], g_p[1]];
            for (got, want) in got.into_iter().zip([d_theta, d_w, d_p[0], d_p[1]]) {
                assert_close("f_hvp's gradient", got, want, 1e-12);
            }
            for (k, got) in [hv.0, hv.1, hv.2[0], hv.2[1]].into_iter().enumerate() {
                assert_close("H v", got, (plus[k] - minus[k]) / (2.0 * h), 1e-6);
            }
        }
        for q in cube::<14>(1356, 20, -1.5, 1.5) {
            let (v, m) = ([q[0], q[1], q[2]], [[q[3], q[4]], [q[5], q[6]]]);
            let (t_v, t_m) = ([q[7], q[8], q[9]], [[q[10], q[11]], [q[12], q[13]]]);
            let (_, _, (h_v, h_m)) = unpacked_hvp(&v, &m, &t_v, &t_m);
            let h = 1e-5;
            let at = |s: f64| {
                let v: [f64; 3] = core::array::from_fn(|i| v[i] + s * t_v[i]);
                let m: [[f64; 2]; 2] =
                    core::array::from_fn(|i| core::array::from_fn(|j| m[i][j] + s * t_m[i][j]));
                let (_, (g_v, g_m)) = unpacked_grad(&v, &m);
                [
                    g_v[0], g_v[1], g_v[2], g_m[0][0], g_m[0][1], g_m[1][0], g_m[1][1],
                ]
            };
            let (plus, minus) = (at(h), at(-h));
            let got = [
                h_v[0], h_v[1], h_v[2], h_m[0][0], h_m[0][1], h_m[1][0], h_m[1][1],
            ];
            for k in 0..7 {
                let fd = (plus[k] - minus[k]) / (2.0 * h);
                assert_close("array patterns: H v", got[k], fd, 1e-6);
            }
        }
    }
}

/// Destructuring `let` and assignment of tuples written out and of `if`s ending in tuples, and
/// `panic!` with a message (the forward sweep panics as the function does).
mod destructuring {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn ordered(x: f64, y: &[f64; 2]) -> f64 {
        let (mut lo, hi) = if y[0] < y[1] {
            (y[0], y[1])
        } else {
            (y[1], y[0])
        };
        let (a, mut b) = (x * lo, hi.sin());
        (lo, b) = (b + a, lo);
        if x > 100.0 {
            panic!("x out of range");
        }
        lo * hi + a * b
    }

    fn ordered_f64(x: f64, y: &[f64; 2]) -> f64 {
        let (lo, hi) = if y[0] < y[1] {
            (y[0], y[1])
        } else {
            (y[1], y[0])
        };
        let (a, b) = (x * lo, hi.sin());
        (b + a) * hi + a * lo
    }

    #[test]
    fn gradients() {
        let points: Vec<[f64; 3]> = cube::<3>(1341, 30, -1.5, 1.5)
            .into_iter()
            .filter(|p| (p[1] - p[2]).abs() > 1e-3)
            .collect();
        GradCheck::new("let (a, b) = if .., (a, b) = (b, a)").flat(
            &points,
            |(x, y): &(f64, [f64; 2])| ordered_f64(*x, y),
            |(x, y): &(f64, [f64; 2])| ordered_grad(*x, y),
        );
    }

    #[test]
    #[should_panic(expected = "x out of range")]
    fn panics_like_the_function() {
        let mut tape = OrderedTape::new();
        ordered_forward(200.0, &[0.0, 1.0], &mut tape);
    }

    #[test]
    fn try_forward_returns_the_message() {
        let mut tape = OrderedTape::new();
        assert_eq!(
            ordered_try_forward(200.0, &[0.0, 1.0], &mut tape),
            Err("x out of range")
        );
        assert_eq!(
            ordered_try_forward(0.5, &[0.0, 1.0], &mut tape),
            Ok(ordered(0.5, &[0.0, 1.0]))
        );
    }

    /// A callee's panic (`ordered`'s, from `caller`) is not the caller's to return: the README
    /// says `caller_try_forward` lets it through as a panic.
    #[differentiable]
    pub fn caller(x: f64, y: &[f64; 2]) -> f64 {
        if x < -100.0 {
            panic!("x too small");
        }
        ordered(x, y) * 2.0
    }

    #[test]
    fn try_forward_returns_its_own_panics_only() {
        let mut tape = CallerTape::new();
        assert_eq!(
            caller_try_forward(-200.0, &[0.0, 1.0], &mut tape),
            Err("x too small")
        );
        let through = std::panic::catch_unwind(|| {
            caller_try_forward(200.0, &[0.0, 1.0], &mut CallerTape::new())
        });
        assert!(through.is_err());
    }
}

/// `.skip(k)` and `.take(n)` right after `.iter()` (also on a `zip`'s operand and on
/// `iter_mut()`), with `enumerate`, `zip` and `rev` after them, on arrays, slices and const
/// generic lengths; `k` and `n` integer literals or `const`s, past the end as Rust's iterators
/// stop there. Each against the same function by index.
mod skipped_and_taken {
    use crate::common::{GradCheck, Pair, assert_close, check_hvp, check_jvp, cube};
    use stackgrad::differentiable;

    /// `.skip(k)`, `.step_by(s)` and `.take(n)` after `.enumerate()`, of one array and of a
    /// zip, nested, checkpointed, of `iter_mut()` and with `&v`: the index is the element's, as
    /// Rust counts it; and `(_, ..)`, the index not read.
    #[differentiable(jvp, hvp)]
    pub fn after_enumerate(x: &[f64; 5], y: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        for (i, v) in x.iter().enumerate().skip(1) {
            s += (i as f64) * v;
        }
        for (i, (a, b)) in x.iter().zip(y.iter()).enumerate().skip(LAG) {
            s += (i as f64) * a * b;
        }
        for (i, v) in y.iter().enumerate().take(3) {
            for (j, w) in x.iter().enumerate().skip(3) {
                s += (i as f64 + 2.0 * j as f64) * v * w * 0.1;
            }
        }
        // Checkpointed, with a triangular loop up to the index inside (genprog seed 1).
        #[checkpoint]
        for (i, v) in x.iter().enumerate().skip(1) {
            for j in 0..=i {
                s += 0.01 * v * y[j];
            }
        }
        let mut h = [0.0; 5];
        for (i, e) in h.iter_mut().enumerate().skip(2) {
            *e = x[i] * 2.0;
        }
        for (i, &v) in y.iter().enumerate().skip(3) {
            s += v * h[i];
        }
        for (_, v) in x.iter().enumerate().skip(4) {
            s += v * v;
        }
        // `.step_by(s)`: every other element, its index counted as Rust counts it.
        for (i, (a, b)) in x.iter().zip(y.iter()).enumerate().step_by(LAG) {
            s += (i as f64 + 1.0) * a * b.sin();
        }
        for (k, v) in y.iter().enumerate().step_by(3) {
            s += (k as f64) * v * v;
        }
        // The index not read: the loop over the elements (backwards: the order matters).
        for (_, (a, b)) in x.iter().zip(y.iter()).enumerate().rev() {
            s = 0.5 * s + a * b;
        }
        s
    }

    fn after_enumerate_plain(x: &[f64; 5], y: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        for i in 1..5 {
            s += (i as f64) * x[i];
        }
        for i in LAG..5 {
            s += (i as f64) * x[i] * y[i];
        }
        for i in 0..3 {
            for j in 3..5 {
                s += (i as f64 + 2.0 * j as f64) * y[i] * x[j] * 0.1;
            }
        }
        for i in 1..5 {
            for j in 0..=i {
                s += 0.01 * x[i] * y[j];
            }
        }
        for i in 3..5 {
            s += y[i] * x[i] * 2.0;
        }
        s += x[4] * x[4];
        for i in [0, 2, 4] {
            s += (i as f64 + 1.0) * x[i] * y[i].sin();
        }
        for k in [0, 3] {
            s += (k as f64) * y[k] * y[k];
        }
        for i in (0..5).rev() {
            s = 0.5 * s + x[i] * y[i];
        }
        s
    }

    #[test]
    fn skip_and_take_after_enumerate_against_central_differences() {
        let pair = Pair {
            f: after_enumerate,
            plain: after_enumerate_plain,
            grad: after_enumerate_grad,
            jvp: after_enumerate_jvp,
            hvp: after_enumerate_hvp,
        };
        pair.check::<10>("after enumerate", 2001);
    }

    const LAG: usize = 2;
    const FAR: usize = 9;

    /// Differences of neighbours and of elements `LAG` apart, a window in the middle
    /// enumerated backwards, and skips past the end (nothing to run).
    #[differentiable(jvp, hvp)]
    pub fn smooth(x: &[f64; 6], w: f64) -> f64 {
        let mut s = 0.0;
        for (a, b) in x.iter().zip(x.iter().skip(1)) {
            s += (b - a) * (b - a) * w;
        }
        for (a, b) in x.iter().take(3).zip(x.iter().skip(LAG)) {
            s += (a * b).sin();
        }
        for (i, v) in x.iter().skip(1).take(LAG + 1).enumerate().rev() {
            s = s * 0.5 + (i as f64 + 1.0) * v * w;
        }
        for v in x.iter().skip(FAR) {
            s += v * 100.0;
        }
        for v in x.iter().take(0) {
            s += v * 100.0;
        }
        s
    }

    fn smooth_plain(x: &[f64; 6], w: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..5 {
            s += (x[i + 1] - x[i]) * (x[i + 1] - x[i]) * w;
        }
        for i in 0..3 {
            s += (x[i] * x[i + 2]).sin();
        }
        for i in (0..3).rev() {
            s = s * 0.5 + (i as f64 + 1.0) * x[i + 1] * w;
        }
        s
    }

    /// A local array written through `iter_mut().skip(1)` from a `take` of a const generic
    /// length, then read with `skip` (a count `N - LAG` that `hvp`'s tangent program reads
    /// again as a bound).
    #[differentiable(hvp)]
    pub fn shifted<const N: usize>(x: &[f64; N]) -> f64 {
        let mut h = [0.0; N];
        for (hi, v) in h.iter_mut().skip(1).zip(x.iter().take(N)) {
            *hi = v * v;
        }
        let mut s = 0.0;
        for v in h.iter().skip(LAG) {
            s = s * 0.5 + v * v;
        }
        s + h[0]
    }

    fn shifted_plain<const N: usize>(x: &[f64; N]) -> f64 {
        let mut h = [0.0; N];
        for i in 1..N {
            h[i] = x[i - 1] * x[i - 1];
        }
        let mut s = 0.0;
        for i in LAG..N {
            s = s * 0.5 + h[i] * h[i];
        }
        s + h[0]
    }

    const N: usize = 5;

    /// Checkpointed loops over windows of an array of `const` length (their trip counts then
    /// a `saturating_sub` of it, which `hvp`'s tangent program reads again as a constant
    /// bound; genprog seed 82, p117), one of them past the end.
    #[differentiable(hvp)]
    pub fn checkpointed(y: f64, a: &[f64; N]) -> f64 {
        let mut s = 0.0;
        #[checkpoint(snapshots = 2)]
        for (i, e) in a.iter().skip(LAG).enumerate().rev() {
            s = s * 0.5 + (i as f64 + 1.0) * (e * y).sin();
        }
        #[checkpoint]
        for (e, b) in a.iter().skip(N + 1).zip(a.iter().take(N + 2)) {
            s = s * 0.5 + b * e * y;
        }
        s
    }

    fn checkpointed_plain(y: f64, a: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in (0..N - LAG).rev() {
            s = s * 0.5 + (i as f64 + 1.0) * (a[i + LAG] * y).sin();
        }
        s
    }

    /// Over slices of run-time lengths: neighbours of one, the other from its third element.
    #[differentiable(wrt(x, y, w))]
    pub fn lagged(x: &[f64], y: &[f64], w: f64) -> f64 {
        let mut s = 0.0;
        for (a, b) in x.iter().zip(x.iter().skip(1)) {
            s = s * w + (a - b).tanh();
        }
        for (a, b) in x.iter().skip(1).zip(y.iter().skip(LAG).take(3)).rev() {
            s += a * b;
        }
        s
    }

    fn lagged_plain(x: &[f64], y: &[f64], w: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() - 1 {
            s = s * w + (x[i] - x[i + 1]).tanh();
        }
        let n = (x.len() - 1).min(y.len().saturating_sub(LAG).min(3));
        for i in (0..n).rev() {
            s += x[i + 1] * y[i + LAG];
        }
        s
    }

    #[test]
    fn arrays_against_central_differences() {
        let points = cube::<7>(1371, 30, -1.2, 1.2);
        let split = |q: [f64; 7]| ([q[0], q[1], q[2], q[3], q[4], q[5]], q[6]);
        let grad = |q: [f64; 7]| {
            let (x, w) = split(q);
            let (value, (d_x, d_w)) = smooth_grad(&x, w);
            let mut g = [0.0; 7];
            g[..6].copy_from_slice(&d_x);
            g[6] = d_w;
            (value, g)
        };
        GradCheck::new("skip, take, zip, enumerate, rev on arrays").run(
            &points,
            |q| {
                let (x, w) = split(q);
                assert_close("smooth", smooth(&x, w), smooth_plain(&x, w), 1e-13);
                smooth(&x, w)
            },
            grad,
        );
        check_jvp(
            "smooth_jvp",
            &points,
            |_| 1.0,
            |q| smooth(&split(q).0, split(q).1),
            grad,
            |q, t| {
                let ((x, w), (t_x, t_w)) = (split(q), split(t));
                smooth_jvp(&x, w, &t_x, t_w)
            },
        );
        check_hvp(
            "smooth_hvp",
            &points,
            |_| 1.0,
            1e-6,
            grad,
            |q, v| {
                let ((x, w), (v_x, v_w)) = (split(q), split(v));
                let (value, (g_x, g_w), (h_x, h_w)) = smooth_hvp(&x, w, &v_x, v_w);
                let (mut g, mut h) = ([0.0; 7], [0.0; 7]);
                g[..6].copy_from_slice(&g_x);
                h[..6].copy_from_slice(&h_x);
                (g[6], h[6]) = (g_w, h_w);
                (value, g, h)
            },
        );
        let points = cube::<5>(1372, 30, -1.2, 1.2);
        GradCheck::new("iter_mut().skip(1), take(N), skip(LAG) with N = 5").run(
            &points,
            |x| {
                assert_close("shifted", shifted(&x), shifted_plain(&x), 1e-13);
                shifted(&x)
            },
            |x| shifted_grad(&x),
        );
        check_hvp(
            "shifted_hvp",
            &points,
            |_| 1.0,
            1e-6,
            |x| shifted_grad(&x),
            |x, v| shifted_hvp(&x, &v),
        );
        // N = 1, shorter than LAG: nothing read past `h[0]`, which stays 0.
        assert_eq!(shifted_grad(&[0.7]), (0.0, [0.0]));
    }

    /// `.step_by(s)` after `.iter()` (and its `.skip(k)`, `.take(n)`): every `s`-th element,
    /// enumerated, zipped, reversed last, past the end, and in a group.
    #[differentiable(jvp, hvp)]
    pub fn stepped(x: &[f64; 7], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for v in x.iter().step_by(2) {
            s = s * 0.5 + v.sin();
        }
        for (i, v) in x.iter().skip(1).take(5).step_by(2).enumerate() {
            s += (i as f64 + 1.0) * v * v;
        }
        for (a, b) in x.iter().step_by(3).zip(y.iter()) {
            s = s * 0.75 + a * b;
        }
        for (i, v) in y.iter().step_by(LAG).enumerate().rev() {
            s = s * 0.5 + (i as f64 + 1.0) * v;
        }
        for v in x.iter().skip(FAR).step_by(2) {
            s += 100.0 * v;
        }
        for w in x.windows(3) {
            s += w.iter().step_by(2).map(|v| v * 0.5).sum::<f64>();
        }
        s
    }

    fn stepped_plain(x: &[f64; 7], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in [0, 2, 4, 6] {
            s = s * 0.5 + x[i].sin();
        }
        for (i, j) in [1, 3, 5].into_iter().enumerate() {
            s += (i as f64 + 1.0) * x[j] * x[j];
        }
        for (i, j) in [(0, 0), (3, 1), (6, 2)] {
            s = s * 0.75 + x[i] * y[j];
        }
        for (i, j) in [(1, 2), (0, 0)] {
            s = s * 0.5 + (i as f64 + 1.0) * y[j];
        }
        for i in 0..5 {
            s += x[i] * 0.5 + x[i + 2] * 0.5;
        }
        s
    }

    /// The same over a slice of a run-time length.
    #[differentiable(wrt(x))]
    pub fn stepped_slice(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for (i, v) in x.iter().skip(1).step_by(2).enumerate() {
            s = s * 0.5 + (i as f64 + 1.0) * (v * v).sin();
        }
        s
    }

    fn stepped_slice_plain(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for (i, j) in (1..x.len()).step_by(2).enumerate() {
            s = s * 0.5 + (i as f64 + 1.0) * (x[j] * x[j]).sin();
        }
        s
    }

    #[test]
    fn step_by_against_central_differences() {
        let pair = Pair {
            f: stepped,
            plain: stepped_plain,
            grad: stepped_grad,
            jvp: stepped_jvp,
            hvp: stepped_hvp,
        };
        pair.check::<10>("step_by", 1394);
        for n in [0, 1, 2, 5] {
            GradCheck::new("step_by of a slice").run(
                &cube::<5>(1395 + n as u64, 30, -1.2, 1.2),
                |q| {
                    let x = &q[..n];
                    assert_close(
                        "stepped_slice",
                        stepped_slice(x),
                        stepped_slice_plain(x),
                        1e-13,
                    );
                    stepped_slice(x)
                },
                |q| {
                    let mut g = [0.0; 5];
                    let (value, ()) = stepped_slice_grad(&q[..n], &mut g[..n]);
                    (value, g)
                },
            );
        }
    }

    /// `.skip(k)` and `.take(n)` after `.rev()`: the last `k` elements left out, then `n` of
    /// the rest, last first; before `.enumerate()`, on a `zip`'s operand, after a window in
    /// front, past the end, and with the counter reversed too.
    #[differentiable(jvp, hvp)]
    pub fn back(x: &[f64; 5], y: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for (k, v) in x.iter().rev().skip(1).enumerate() {
            s = s * 0.5 + (k as f64 + 1.0) * v.sin();
        }
        for (a, b) in x.iter().zip(y.iter().rev().take(2)) {
            s += a * b;
        }
        for v in x.iter().skip(1).take(3).rev().skip(1).take(LAG) {
            s = s * 0.75 + v * v;
        }
        for (a, b) in x.iter().rev().take(7).zip(y.iter().rev().skip(1)) {
            s = s * 0.5 + (a * b).tanh();
        }
        for v in y.iter().rev().skip(FAR) {
            s += 100.0 * v;
        }
        for v in y.iter().rev().skip(1).take(2).rev() {
            s = s * 0.5 + v;
        }
        s
    }

    fn back_plain(x: &[f64; 5], y: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for k in 0..4 {
            s = s * 0.5 + (k as f64 + 1.0) * x[3 - k].sin();
        }
        s += x[0] * y[3] + x[1] * y[2];
        for i in [2, 1] {
            s = s * 0.75 + x[i] * x[i];
        }
        for (i, j) in [(4, 2), (3, 1), (2, 0)] {
            s = s * 0.5 + (x[i] * y[j]).tanh();
        }
        for j in [1, 2] {
            s = s * 0.5 + y[j];
        }
        s
    }

    /// The same after `.rev()` of a slice of a run-time length.
    #[differentiable(wrt(x))]
    pub fn back_slice(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for (k, v) in x.iter().rev().skip(1).take(3).enumerate() {
            s = s * 0.5 + (k as f64 + 1.0) * (v * v).sin();
        }
        s
    }

    fn back_slice_plain(x: &[f64]) -> f64 {
        let n = x.len().saturating_sub(1).min(3);
        let mut s = 0.0;
        for k in 0..n {
            s = s * 0.5 + (k as f64 + 1.0) * (x[x.len() - 2 - k] * x[x.len() - 2 - k]).sin();
        }
        s
    }

    #[test]
    fn skip_and_take_after_rev_against_central_differences() {
        let pair = Pair {
            f: back,
            plain: back_plain,
            grad: back_grad,
            jvp: back_jvp,
            hvp: back_hvp,
        };
        pair.check::<9>("skip and take after rev", 1392);
        for n in [1, 2, 5] {
            GradCheck::new("skip and take after rev of a slice").run(
                &cube::<5>(1393 + n as u64, 30, -1.2, 1.2),
                |q| {
                    let x = &q[..n];
                    assert_close("back_slice", back_slice(x), back_slice_plain(x), 1e-13);
                    back_slice(x)
                },
                |q| {
                    let mut g = [0.0; 5];
                    let (value, ()) = back_slice_grad(&q[..n], &mut g[..n]);
                    (value, g)
                },
            );
        }
    }

    /// `.rev()` before `.enumerate()` and on a `zip`'s operand, after `skip` and `take`: each
    /// array's elements last first, the pairs in the counter's order.
    #[differentiable(jvp, hvp)]
    pub fn reversed(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for (k, v) in x.iter().rev().enumerate() {
            s = s * 0.5 + (k as f64 + 1.0) * v.sin();
        }
        for (a, b) in x.iter().zip(y.iter().skip(1).take(LAG).rev()) {
            s += a * b;
        }
        for (a, b) in x.iter().rev().zip(y.iter()) {
            s = s * 0.5 + a * b;
        }
        // Past the end (1 + 5 > 3), and reversed twice: the pairs last first.
        for (a, b) in x.iter().zip(y.iter().skip(1).take(5).rev()) {
            s = s * 0.75 + (a * b).sin();
        }
        for (a, b) in x.iter().rev().zip(y.iter()).rev() {
            s = s * 0.5 + a * b * b;
        }
        for (k, v) in x.iter().skip(1).rev().enumerate() {
            s += (k as f64 + 0.5) * v * v;
        }
        s
    }

    fn reversed_plain(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for k in 0..4 {
            s = s * 0.5 + (k as f64 + 1.0) * x[3 - k].sin();
        }
        // y[1..3] reversed: y[2], y[1].
        s += x[0] * y[2] + x[1] * y[1];
        for k in 0..3 {
            s = s * 0.5 + x[3 - k] * y[k];
        }
        for (a, b) in [(x[0], y[2]), (x[1], y[1])] {
            s = s * 0.75 + (a * b).sin();
        }
        for k in (0..3).rev() {
            s = s * 0.5 + x[3 - k] * y[k] * y[k];
        }
        for k in 0..3 {
            s += (k as f64 + 0.5) * x[3 - k] * x[3 - k];
        }
        s
    }

    /// Over slices: `x` last first, zipped with the first two of `y` last first.
    #[differentiable(wrt(x, y))]
    pub fn reversed_slices(x: &[f64], y: &[f64]) -> f64 {
        let mut s = 0.0;
        for (a, b) in x.iter().rev().zip(y.iter().take(2).rev()) {
            s = s * 0.5 + (a * b).tanh();
        }
        s
    }

    fn reversed_slices_plain(x: &[f64], y: &[f64]) -> f64 {
        let (n, m) = (x.len(), y.len().min(2));
        let mut s = 0.0;
        for k in 0..n.min(m) {
            s = s * 0.5 + (x[n - 1 - k] * y[m - 1 - k]).tanh();
        }
        s
    }

    #[test]
    fn reversed_operands_against_central_differences() {
        let pair = Pair {
            f: reversed,
            plain: reversed_plain,
            grad: reversed_grad,
            jvp: reversed_jvp,
            hvp: reversed_hvp,
        };
        pair.check::<7>("rev before enumerate and on a zip's operand", 1375);
        // Slices of 5 and 3: two pairs, (x[4], y[1]) and (x[3], y[0]).
        let split = |q: [f64; 8]| (q[..5].to_vec(), q[5..].to_vec());
        GradCheck::new("rev on both operands of a zip of slices").run(
            &cube::<8>(1376, 30, -1.2, 1.2),
            |q| {
                let (x, y) = split(q);
                let plain = reversed_slices_plain(&x, &y);
                assert_close("reversed_slices", reversed_slices(&x, &y), plain, 1e-14);
                reversed_slices(&x, &y)
            },
            |q| {
                let (x, y) = split(q);
                let (mut d_x, mut d_y) = (vec![0.0; 5], vec![0.0; 3]);
                let (value, ()) = reversed_slices_grad(&x, &y, &mut d_x, &mut d_y);
                let mut g = [0.0; 8];
                g[..5].copy_from_slice(&d_x);
                g[5..].copy_from_slice(&d_y);
                (value, g)
            },
        );
    }

    /// `.enumerate()` after a `zip` (`(i, (a, b))`), with a window and `&b` (a copy), and
    /// with `.rev()` last.
    #[differentiable]
    pub fn enumerated_pairs(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for (i, (a, b)) in x.iter().zip(y.iter().rev()).enumerate() {
            s = s * 0.5 + (i as f64 + 1.0) * a * b;
        }
        for (i, (a, &b)) in x.iter().skip(1).zip(y.iter()).enumerate().rev() {
            s += (i as f64) * a * b.powi(i as i32);
        }
        s
    }

    fn enumerated_pairs_plain(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            s = s * 0.5 + (i as f64 + 1.0) * x[i] * y[2 - i];
        }
        for i in (0..3).rev() {
            s += (i as f64) * x[i + 1] * y[i].powi(i as i32);
        }
        s
    }

    #[test]
    fn enumerated_zips_against_central_differences() {
        let split = |q: [f64; 7]| ([q[0], q[1], q[2], q[3]], [q[4], q[5], q[6]]);
        GradCheck::new("zip(..).enumerate()").run(
            &cube::<7>(1377, 30, -1.2, 1.2),
            |q| {
                let (x, y) = split(q);
                let plain = enumerated_pairs_plain(&x, &y);
                assert_close("enumerated_pairs", enumerated_pairs(&x, &y), plain, 1e-13);
                enumerated_pairs(&x, &y)
            },
            |q| {
                let (x, y) = split(q);
                let (value, (d_x, d_y)) = enumerated_pairs_grad(&x, &y);
                let mut g = [0.0; 7];
                g[..4].copy_from_slice(&d_x);
                g[4..].copy_from_slice(&d_y);
                (value, g)
            },
        );
    }

    #[test]
    fn checkpointed_windows_against_central_differences() {
        let points = cube::<6>(1374, 30, -1.2, 1.2);
        let split = |q: [f64; 6]| (q[0], [q[1], q[2], q[3], q[4], q[5]]);
        let grad = |q: [f64; 6]| {
            let (y, a) = split(q);
            let (value, (d_y, d_a)) = checkpointed_grad(y, &a);
            let mut g = [d_y; 6];
            g[1..].copy_from_slice(&d_a);
            (value, g)
        };
        GradCheck::new("checkpointed skip loops of a const length").run(
            &points,
            |q| {
                let (y, a) = split(q);
                let plain = checkpointed_plain(y, &a);
                assert_close("checkpointed", checkpointed(y, &a), plain, 1e-13);
                checkpointed(y, &a)
            },
            grad,
        );
        check_hvp(
            "checkpointed_hvp",
            &points,
            |_| 1.0,
            1e-6,
            grad,
            |q, v| {
                let ((y, a), (v_y, v_a)) = (split(q), split(v));
                let (value, (g_y, g_a), (h_y, h_a)) = checkpointed_hvp(y, &a, v_y, &v_a);
                let (mut g, mut h) = ([g_y; 6], [h_y; 6]);
                g[1..].copy_from_slice(&g_a);
                h[1..].copy_from_slice(&h_a);
                (value, g, h)
            },
        );
    }

    #[test]
    fn slices_against_central_differences() {
        // x of 5 elements, y of 4: the second loop's pairs stop at y's end (2 of them).
        let split = |q: [f64; 10]| (q[..5].to_vec(), q[5..9].to_vec(), q[9]);
        GradCheck::new("skip and take on slices, zip(..).rev()").run(
            &cube::<10>(1373, 30, -1.2, 1.2),
            |q| {
                let (x, y, w) = split(q);
                assert_close("lagged", lagged(&x, &y, w), lagged_plain(&x, &y, w), 1e-13);
                lagged(&x, &y, w)
            },
            |q| {
                let (x, y, w) = split(q);
                let (mut d_x, mut d_y) = (vec![0.0; 5], vec![0.0; 4]);
                let (value, d_w) = lagged_grad(&x, &y, w, &mut d_x, &mut d_y);
                let mut g = [0.0; 10];
                g[..5].copy_from_slice(&d_x);
                g[5..9].copy_from_slice(&d_y);
                g[9] = d_w;
                (value, g)
            },
        );
        // Shorter slices than the windows: one element of x, none of y past LAG (y as long
        // as LAG, then shorter).
        let (mut d_x, mut d_y) = ([0.0; 1], [0.0; 2]);
        let (value, d_w) = lagged_grad(&[0.3], &[1.0, 2.0], 0.7, &mut d_x, &mut d_y);
        assert_eq!((value, d_w, d_x, d_y), (0.0, 0.0, [0.0], [0.0; 2]));
        let (mut d_x, mut d_y) = ([0.0; 3], [0.0; 1]);
        let (value, d_w) = lagged_grad(&[0.3, 0.1, -0.4], &[1.0], 0.7, &mut d_x, &mut d_y);
        assert_close(
            "y shorter than LAG",
            value,
            lagged_plain(&[0.3, 0.1, -0.4], &[1.0], 0.7),
            1e-15,
        );
        let s0 = (0.3f64 - 0.1).tanh();
        let sech2 = |u: f64| 1.0 - u.tanh() * u.tanh();
        assert_close("d_w", d_w, s0, 1e-15);
        assert_close("d_x[0]", d_x[0], 0.7 * sech2(0.2), 1e-15);
        assert_eq!(d_y, [0.0]);
    }
}

/// References to places bound by `let` (`let row = &m[i];`, `let p = &ps[i];`, `let w = &mut
/// h;`, `let z = &s;`) and the elements of `iter()` loops, read by index, by field, through
/// `*`, iterated, measured, written through `&mut`, and passed on to callees that take
/// references (`dot(row, ..)`, which failed to compile in the generated code, E0308).
mod borrowed_places {
    use crate::common::{GradCheck, check_hvp};
    use stackgrad::differentiable;

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Point {
        pub x: f64,
        pub y: f64,
    }

    #[differentiable(hvp)]
    pub fn dot(a: &[f64; 2], b: &[f64; 2]) -> f64 {
        a[0] * b[0] + a[1] * b[1]
    }

    #[differentiable(hvp)]
    pub fn norm2(p: &Point) -> f64 {
        p.x * p.x + p.y * p.y
    }

    #[differentiable(hvp)]
    pub fn rows(theta: f64, m: &[[f64; 2]; 2], ps: &[Point; 2]) -> f64 {
        let mut s = 0.0;
        for i in 0..2 {
            let row = &m[i];
            s += dot(row, &m[0]) * theta;
            for e in row.iter() {
                s += (e * theta).sin();
            }
            s += row.len() as f64;
            let p = &ps[i];
            s += norm2(p) * p.x;
        }
        for p in ps.iter() {
            s += norm2(p) * theta;
        }
        for row in m.iter() {
            s += dot(row, row) * 0.5;
        }
        let mut h = [theta, 2.0 * theta];
        let w = &mut h;
        w[1] = w[0] * w[1] + 0.5;
        let z = &s;
        s * h[1] + *z
    }

    #[differentiable]
    pub fn weigh(v: [f64; 2]) -> f64 {
        v[0] * 3.0 + v[1] * v[1]
    }

    /// Elements Rust binds by value, passed on as values: an integer of `for &k in
    /// ks.iter()` (to `powi`), and the rows of `for row in m` over a local array, to a callee
    /// that takes `[f64; 2]` by value (both were passed as references for a while).
    #[differentiable]
    pub fn by_value(x: f64, ks: &[i32; 3]) -> f64 {
        let mut s = 0.0;
        for &k in ks.iter() {
            s += x.powi(k);
        }
        let m = [[x, 2.0 * x], [x * x, 1.0]];
        for row in m {
            s += weigh(row);
        }
        s
    }

    /// A reference to an element of a slice parameter, read as `q` and `*q`.
    #[differentiable(wrt(xs, w))]
    pub fn slice_elements(xs: &[f64], w: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..xs.len() {
            let q = &xs[i];
            s += q * w + (*q) * (*q) * w;
        }
        s
    }

    #[test]
    fn a_slice_element_by_reference_against_its_closed_form() {
        let xs = [1.0, -2.0, 0.5];
        let mut d_xs = [0.0; 3];
        let (value, d_w) = slice_elements_grad(&xs, 0.75, &mut d_xs);
        let want: f64 = xs.iter().map(|x| x * 0.75 + x * x * 0.75).sum();
        crate::common::assert_close("value", value, want, 1e-15);
        crate::common::assert_close("d_w", d_w, want / 0.75, 1e-15);
        for i in 0..3 {
            crate::common::assert_close("d_xs", d_xs[i], 0.75 + 1.5 * xs[i], 1e-15);
        }
    }

    #[test]
    fn elements_bound_by_value_are_passed_by_value() {
        let ks = [1, 2, 3];
        for x in [0.5, -1.25, 2.0] {
            let want = x + x * x + x * x * x + (3.0 * x + 4.0 * x * x) + (3.0 * x * x + 1.0);
            let d_want = 1.0 + 2.0 * x + 3.0 * x * x + (3.0 + 8.0 * x) + 6.0 * x;
            let (value, d_x) = by_value_grad(x, &ks);
            crate::common::assert_close("by_value", value, want, 1e-13);
            crate::common::assert_close("d by_value / dx", d_x, d_want, 1e-13);
        }
    }

    /// `rows` with every reference read at its place.
    fn rows_plain(theta: f64, m: &[[f64; 2]; 2], ps: &[Point; 2]) -> f64 {
        let dot = |a: &[f64; 2], b: &[f64; 2]| a[0] * b[0] + a[1] * b[1];
        let norm2 = |p: &Point| p.x * p.x + p.y * p.y;
        let mut s = 0.0;
        for i in 0..2 {
            s += dot(&m[i], &m[0]) * theta;
            s += (m[i][0] * theta).sin() + (m[i][1] * theta).sin() + 2.0;
            s += norm2(&ps[i]) * ps[i].x;
        }
        s += (norm2(&ps[0]) + norm2(&ps[1])) * theta;
        s += (dot(&m[0], &m[0]) + dot(&m[1], &m[1])) * 0.5;
        s * (2.0 * theta * theta + 0.5) + s
    }

    fn split(q: [f64; 9]) -> (f64, [[f64; 2]; 2], [Point; 2]) {
        let point = |x, y| Point { x, y };
        let ps = [point(q[5], q[6]), point(q[7], q[8])];
        (q[0], [[q[1], q[2]], [q[3], q[4]]], ps)
    }

    fn flat(theta: f64, m: &[[f64; 2]; 2], ps: &[Point; 2]) -> [f64; 9] {
        let [[a, b], [c, d]] = *m;
        let [p, r] = *ps;
        [theta, a, b, c, d, p.x, p.y, r.x, r.y]
    }

    #[test]
    fn against_central_differences() {
        let points = crate::common::cube::<9>(1381, 30, -1.2, 1.2);
        let grad = |q: [f64; 9]| {
            let (theta, m, ps) = split(q);
            let (value, (d_theta, d_m, d_ps)) = rows_grad(theta, &m, &ps);
            (value, flat(d_theta, &d_m, &d_ps))
        };
        GradCheck::new("references to places, passed on and iterated").run(
            &points,
            |q| {
                let (theta, m, ps) = split(q);
                let plain = rows_plain(theta, &m, &ps);
                crate::common::assert_close("rows", rows(theta, &m, &ps), plain, 1e-12);
                rows(theta, &m, &ps)
            },
            grad,
        );
        check_hvp(
            "rows_hvp",
            &points,
            |_| 1.0,
            1e-6,
            grad,
            |q, v| {
                let ((theta, m, ps), (v_theta, v_m, v_ps)) = (split(q), split(v));
                let (value, g, h) = rows_hvp(theta, &m, &ps, v_theta, &v_m, &v_ps);
                (value, flat(g.0, &g.1, &g.2), flat(h.0, &h.1, &h.2))
            },
        );
    }

    const EDGES: [[usize; 2]; 3] = [[0, 1], [1, 2], [2, 0]];

    /// References at indices held by locals that are not `mut` (read from a table, or
    /// computed): each use reads the place again, at the same index.
    #[differentiable(jvp, hvp)]
    pub fn springs(pts: &[[f64; 2]; 3], rest: f64) -> f64 {
        let mut s = 0.0;
        for e in 0..3 {
            let a = EDGES[e][0];
            let b = EDGES[e][1];
            let p = &pts[a];
            let q = &pts[b];
            let dx = q[0] - p[0];
            let dy = q[1] - p[1];
            let len = (dx * dx + dy * dy + 0.1).sqrt();
            s += (len - rest) * (len - rest) + p[0] * q[1];
        }
        let k = 2 * 2 % 3;
        let mid = &pts[k];
        for i in 0..2 {
            s = s * 0.5 + (mid[i] * rest).sin();
        }
        s + mid[0] * mid[1] * rest
    }

    fn springs_plain(pts: &[[f64; 2]; 3], rest: f64) -> f64 {
        let mut s = 0.0;
        for e in 0..3 {
            let (a, b) = (EDGES[e][0], EDGES[e][1]);
            let dx = pts[b][0] - pts[a][0];
            let dy = pts[b][1] - pts[a][1];
            let len = (dx * dx + dy * dy + 0.1).sqrt();
            s += (len - rest) * (len - rest) + pts[a][0] * pts[b][1];
        }
        for i in 0..2 {
            s = s * 0.5 + (pts[1][i] * rest).sin();
        }
        s + pts[1][0] * pts[1][1] * rest
    }

    #[test]
    fn indices_held_by_locals_against_central_differences() {
        let split = |q: [f64; 7]| ([[q[0], q[1]], [q[2], q[3]], [q[4], q[5]]], q[6]);
        let flat = |pts: [[f64; 2]; 3], rest: f64| {
            let [[a, b], [c, d], [e, f]] = pts;
            [a, b, c, d, e, f, rest]
        };
        let points = crate::common::cube::<7>(1391, 30, -1.2, 1.2);
        let grad = |q: [f64; 7]| {
            let (pts, rest) = split(q);
            let (value, (d_pts, d_rest)) = springs_grad(&pts, rest);
            (value, flat(d_pts, d_rest))
        };
        GradCheck::new("references at indices held by locals").run(
            &points,
            |q| {
                let (pts, rest) = split(q);
                let plain = springs_plain(&pts, rest);
                crate::common::assert_close("springs", springs(&pts, rest), plain, 1e-13);
                plain
            },
            grad,
        );
        crate::common::check_jvp(
            "springs_jvp",
            &points,
            |_| 1.0,
            |q| springs_plain(&split(q).0, split(q).1),
            grad,
            |q, t| {
                let ((pts, rest), (t_pts, t_rest)) = (split(q), split(t));
                springs_jvp(&pts, rest, &t_pts, t_rest)
            },
        );
        check_hvp(
            "springs_hvp",
            &points,
            |_| 1.0,
            1e-6,
            grad,
            |q, v| {
                let ((pts, rest), (v_pts, v_rest)) = (split(q), split(v));
                let (value, g, h) = springs_hvp(&pts, rest, &v_pts, v_rest);
                (value, flat(g.0, g.1), flat(h.0, h.1))
            },
        );
    }
}

/// `.windows(K)`, `.chunks_exact(K)` and `.chunks(K)` of arrays whose length `K` divides: each
/// group read by element (`d[0]`, `p[j]`) and measured (`d.len()`), over arrays and slices,
/// enumerated, zipped and reversed.
mod grouped {
    use crate::common::{GradCheck, Pair, assert_close, check_hvp, cube};
    use stackgrad::differentiable;

    const K: usize = 3;

    /// First and second differences by windows, points of three coordinates by chunks, a
    /// window zipped with weights and weights zipped with chunks, windows enumerated
    /// backwards, a chunk's length bounding an inner loop (the rest of `chunks_exact` left
    /// out), windows longer than the array (none), and groups iterated: a convolution
    /// (`d.iter().zip(w.iter())` summed), a chunk backwards; `.chunks(2)` and `.chunks(3)`
    /// (zipped) of the array of 6.
    #[differentiable(jvp, hvp)]
    pub fn curve(x: &[f64; 6], w: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        for d in x.windows(2) {
            s += (d[1] - d[0]) * (d[1] - d[0]);
        }
        for d in x.windows(K) {
            let c = d[0] - 2.0 * d[1] + d[2];
            s += 0.5 * c * c;
        }
        for p in x.chunks_exact(K) {
            s += (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + 1.0).sqrt();
        }
        for (d, wi) in x.windows(2).zip(w.iter()) {
            s += 0.5 * (d[0] + d[1]) * wi;
        }
        for (wi, p) in w.iter().zip(x.chunks_exact(2)) {
            s += wi * p[0] * p[1];
        }
        for (i, d) in x.windows(4).enumerate().rev() {
            s = s * 0.5 + (i as f64 + 1.0) * (d[0] * d[d.len() - 1]).sin();
        }
        for p in x.chunks_exact(4) {
            for j in 0..p.len() {
                s += 0.1 * p[j] * w[j];
            }
        }
        for d in x.windows(7) {
            s += 100.0 * d[0];
        }
        for d in x.windows(K) {
            s += d.iter().zip(w.iter()).map(|(a, b)| a * b).sum::<f64>();
        }
        for p in x.chunks_exact(2) {
            for (j, v) in p.iter().rev().enumerate() {
                s = s * 0.5 + (j as f64 + 1.0) * v * v;
            }
        }
        for p in x.chunks(2) {
            s += p[0] * p[1].cos();
        }
        for (p, wi) in x.chunks(3).zip(w.iter()) {
            s += wi * p[2] * p.len() as f64;
        }
        s
    }

    fn curve_plain(x: &[f64; 6], w: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        for i in 0..5 {
            s += (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
        }
        for i in 0..4 {
            let c = x[i] - 2.0 * x[i + 1] + x[i + 2];
            s += 0.5 * c * c;
        }
        for c in 0..2 {
            let p = [x[3 * c], x[3 * c + 1], x[3 * c + 2]];
            s += (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + 1.0).sqrt();
        }
        for i in 0..5 {
            s += 0.5 * (x[i] + x[i + 1]) * w[i];
        }
        for c in 0..3 {
            s += w[c] * x[2 * c] * x[2 * c + 1];
        }
        for i in (0..3).rev() {
            s = s * 0.5 + (i as f64 + 1.0) * (x[i] * x[i + 3]).sin();
        }
        for j in 0..4 {
            s += 0.1 * x[j] * w[j];
        }
        for i in 0..4 {
            s += x[i] * w[0] + x[i + 1] * w[1] + x[i + 2] * w[2];
        }
        for c in 0..3 {
            for j in 0..2 {
                s = s * 0.5 + (j as f64 + 1.0) * x[2 * c + 1 - j] * x[2 * c + 1 - j];
            }
        }
        for c in 0..3 {
            s += x[2 * c] * x[2 * c + 1].cos();
        }
        for c in 0..2 {
            s += w[c] * x[3 * c + 2] * 3.0;
        }
        s
    }

    /// The squared norm of a slice.
    #[differentiable(jvp, wrt(p))]
    pub fn norm2(p: &[f64]) -> f64 {
        let mut s = 0.0;
        for v in p {
            s += v * v;
        }
        s
    }

    /// Over a slice of a run-time length: a path's length by windows, a recurrence over
    /// windows of three, and pairs by chunks, enumerated (the last element of an odd length
    /// left out), each group iterated, and passed to a callee that takes a slice (a sub-slice
    /// of `x`).
    #[differentiable(jvp, wrt(x, w))]
    // `&d` of a `&[f64]`, as Rust takes it (the borrow a callee's slice gets either way).
    #[allow(clippy::needless_borrow)]
    pub fn path(x: &[f64], w: f64) -> f64 {
        let mut s = 0.0;
        for p in x.chunks_exact(2) {
            s += norm2(p) * w;
        }
        for d in x.windows(3) {
            let e = d;
            let f = &d;
            s += 0.1 * norm2(&d) * e[1] + 0.01 * (*f)[2] * w;
        }
        for d in x.windows(2) {
            s += ((d[1] - d[0]) * (d[1] - d[0]) + w * w).sqrt();
        }
        let mut r = 0.0;
        for d in x.windows(K) {
            r = r * 0.5 + d[0] * d[2] - d[1];
        }
        for (i, p) in x.chunks_exact(2).enumerate() {
            s += (i as f64 + 1.0) * (p[0] * p[1] * w).tanh();
        }
        for d in x.windows(2) {
            for v in d {
                s += 0.1 * v * w;
            }
        }
        s + r * w
    }

    fn path_plain(x: &[f64], w: f64) -> f64 {
        let mut s = 0.0;
        for c in 0..x.len() / 2 {
            s += (x[2 * c] * x[2 * c] + x[2 * c + 1] * x[2 * c + 1]) * w;
        }
        for i in 0..x.len().saturating_sub(2) {
            s += 0.1 * (x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2]) * x[i + 1]
                + 0.01 * x[i + 2] * w;
        }
        for i in 0..x.len().saturating_sub(1) {
            s += ((x[i + 1] - x[i]) * (x[i + 1] - x[i]) + w * w).sqrt();
        }
        let mut r = 0.0;
        for i in 0..x.len().saturating_sub(2) {
            r = r * 0.5 + x[i] * x[i + 2] - x[i + 1];
        }
        for i in 0..x.len() / 2 {
            s += (i as f64 + 1.0) * (x[2 * i] * x[2 * i + 1] * w).tanh();
        }
        for i in 0..x.len().saturating_sub(1) {
            s += 0.1 * x[i] * w;
            s += 0.1 * x[i + 1] * w;
        }
        s + r * w
    }

    #[test]
    fn arrays_against_central_differences() {
        let curve = Pair {
            f: curve,
            plain: curve_plain,
            grad: curve_grad,
            jvp: curve_jvp,
            hvp: curve_hvp,
        };
        curve.check::<11>("windows and chunks_exact of arrays", 1381);
    }

    /// Over a const generic length, under `hvp` (whose tangent program reads the counts
    /// again as loop bounds: genprog seed 91 found `N + 1 - K` refused there), with a
    /// `.step_by(2)` too (`div_ceil(N - 1, 2)`).
    #[differentiable(hvp)]
    pub fn generic<const N: usize>(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for d in x.windows(2) {
            s = s * 0.5 + d[0] * d[1];
        }
        for d in x.windows(K) {
            s += (d[0] - d[K - 1]).sin();
        }
        for p in x.chunks_exact(2) {
            s += p[0] * p[1] * p[1];
        }
        for v in x.iter().skip(1).step_by(2) {
            s = s * 0.5 + v * v * v;
        }
        s
    }

    fn generic_plain<const N: usize>(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N.saturating_sub(1) {
            s = s * 0.5 + x[i] * x[i + 1];
        }
        for i in 0..N.saturating_sub(K - 1) {
            s += (x[i] - x[i + K - 1]).sin();
        }
        for i in 0..N / 2 {
            s += x[2 * i] * x[2 * i + 1] * x[2 * i + 1];
        }
        for i in (1..N).step_by(2) {
            s = s * 0.5 + x[i] * x[i] * x[i];
        }
        s
    }

    #[test]
    fn generic_lengths_against_central_differences() {
        let points = cube::<5>(1390, 30, -1.2, 1.2);
        GradCheck::new("windows and chunks_exact of [f64; N], N = 5").run(
            &points,
            |x| {
                assert_close("generic", generic(&x), generic_plain(&x), 1e-13);
                generic(&x)
            },
            |x| generic_grad(&x),
        );
        check_hvp(
            "generic_hvp",
            &points,
            |_| 1.0,
            1e-6,
            |x| generic_grad(&x),
            |x, v| generic_hvp(&x, &v),
        );
        // Shorter than every window of K: those loops run no iteration.
        assert_close(
            "N = 2",
            generic(&[0.3, 0.4]),
            generic_plain(&[0.3, 0.4]),
            1e-15,
        );
        assert_eq!(generic_grad(&[0.7]), (0.0, [0.0]));
    }

    #[test]
    fn slices_against_central_differences() {
        for n in [6, 7] {
            let points = cube::<8>(1382 + n as u64, 30, -1.2, 1.2);
            let split = |q: [f64; 8]| (q[..n].to_vec(), q[7]);
            GradCheck::new("windows and chunks_exact of a slice").run(
                &points,
                |q| {
                    let (x, w) = split(q);
                    assert_close("path", path(&x, w), path_plain(&x, w), 1e-13);
                    path(&x, w)
                },
                |q| {
                    let (x, w) = split(q);
                    let mut d_x = vec![0.0; n];
                    let (value, d_w) = path_grad(&x, w, &mut d_x);
                    // The coordinates past `n` are not read: their derivative is 0.
                    let mut g = [0.0; 8];
                    g[..n].copy_from_slice(&d_x);
                    g[7] = d_w;
                    (value, g)
                },
            );
        }
        // `f_jvp` (the groups passed to `norm2` as sub-slices, in forward mode) against the
        // gradient, which the central differences above checked.
        let x = [0.3, -0.7, 1.1, 0.2, -0.4, 0.9, 0.5];
        let (t_x, t_w) = ([0.5, 0.25, -1.0, 0.75, 0.125, -0.5, 1.0], -0.25);
        let mut d_x = [0.0; 7];
        let (value, d_w) = path_grad(&x, 0.8, &mut d_x);
        let want = d_x.iter().zip(&t_x).map(|(d, t)| d * t).sum::<f64>() + d_w * t_w;
        let (v, t) = path_jvp(&x, 0.8, &t_x, t_w);
        assert_eq!(v, value);
        assert_close("path_jvp", t, want, 1e-12);
        // Shorter than every group: nothing read.
        let mut d_x = [0.0; 1];
        let (value, d_w) = path_grad(&[0.4], 0.3, &mut d_x);
        assert_eq!((value, d_w, d_x), (0.0, 0.0, [0.0]));
    }
}

mod early_exits {
    use crate::common::{GradCheck, Pair, assert_close, cube};
    use stackgrad::differentiable;

    /// `return` in nested loops, `continue 'rows` and `break 'rows` from the inner loop, and
    /// the flags' checks between: a product past 1 ends the function, one below -0.8 skips the
    /// rest of its row, one below -0.4 past the third column ends the rows.
    #[differentiable(jvp, hvp)]
    pub fn search(x: &[f64; 4], y: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        'rows: for i in 0..4 {
            for j in 0..5 {
                let p = x[i] * y[j];
                if p > 1.0 {
                    return s + p.sin();
                }
                if p < -0.8 {
                    continue 'rows;
                }
                if p < -0.4 && j > 2 {
                    break 'rows;
                }
                s = s * 0.9 + p * p;
            }
            s += x[i];
        }
        s * y[0]
    }

    /// `search` with the exits written as flags and plain `break`s.
    fn search_plain(x: &[f64; 4], y: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        let (mut value, mut returned, mut ended) = (0.0, false, false);
        for i in 0..4 {
            let mut skipped = false;
            for j in 0..5 {
                let p = x[i] * y[j];
                if p > 1.0 {
                    (value, returned) = (s + p.sin(), true);
                    break;
                }
                if p < -0.8 {
                    skipped = true;
                    break;
                }
                if p < -0.4 && j > 2 {
                    ended = true;
                    break;
                }
                s = s * 0.9 + p * p;
            }
            if returned || ended {
                break;
            }
            if !skipped {
                s += x[i];
            }
        }
        if returned { value } else { s * y[0] }
    }

    /// The exits `search` takes at a point: returned, rows skipped, rows ended.
    fn search_exits(x: &[f64; 4], y: &[f64; 5]) -> [bool; 3] {
        let mut taken = [false; 3];
        for i in 0..4 {
            for j in 0..5 {
                let p = x[i] * y[j];
                if p > 1.0 {
                    taken[0] = true;
                    return taken;
                }
                if p < -0.8 {
                    taken[1] = true;
                    break;
                }
                if p < -0.4 && j > 2 {
                    taken[2] = true;
                    return taken;
                }
            }
        }
        taken
    }

    #[test]
    fn nested_exits_against_central_differences() {
        let search = Pair {
            f: search,
            plain: search_plain,
            grad: search_grad,
            jvp: search_jvp,
            hvp: search_hvp,
        };
        search.check::<9>(
            "return, continue 'rows and break 'rows in nested loops",
            1501,
        );
        // Those points take each exit, and none at some.
        let mut counts = [0; 4];
        for q in cube::<9>(1501, 30, -1.2, 1.2) {
            let (x, y) = (q[..4].try_into().unwrap(), q[4..].try_into().unwrap());
            let taken = search_exits(&x, &y);
            for k in 0..3 {
                counts[k] += usize::from(taken[k]);
            }
            counts[3] += usize::from(taken == [false; 3]);
        }
        assert!(counts.iter().all(|&c| c >= 2), "exits taken: {counts:?}");
        // Each exit taken at a point of its own (the checks above are at random points).
        let x = [0.5, -0.9, 0.7, 0.3];
        let at = |y: [f64; 5]| (search_grad(&x, &y).0, search_plain(&x, &y));
        for (y, taken) in [
            ([0.4, 0.5, 0.6, 0.4, 0.4], [false; 3]),
            ([0.4, 0.5, 2.5, 0.5, 0.4], [true, false, false]),
            ([0.4, 0.5, 0.6, 0.95, 0.4], [false, true, false]),
            ([0.4, 0.5, 0.6, 0.5, 0.75], [false, false, true]),
        ] {
            assert_eq!(search_exits(&x, &y), taken);
            let (value, plain) = at(y);
            assert_eq!(value, plain, "at y = {y:?}");
        }
    }

    /// A square root by Newton's method, the bounded `loop` left by `return` alone (its last
    /// statement): the derivative of the iterates, `1 / (2 sqrt(a))` once converged.
    #[differentiable(jvp)]
    pub fn root(a: f64) -> f64 {
        let mut x = a.max(1.0);
        #[max_iters(60)]
        loop {
            let r = x * x - a;
            if r.abs() < 1e-13 * a {
                return x;
            }
            x -= r / (2.0 * x);
        }
    }

    /// The same loop at the end of an `if` branch that ends the function (the value after
    /// the loop goes to the branch's end).
    #[differentiable]
    pub fn root_or_half(a: f64) -> f64 {
        if a > 1.0 {
            let mut x = a;
            #[max_iters(60)]
            loop {
                let r = x * x - a;
                if r.abs() < 1e-13 * a {
                    return x;
                }
                x -= r / (2.0 * x);
            }
        } else {
            0.5 * a
        }
    }

    #[test]
    fn a_loop_left_by_return_alone() {
        for (a, value, d_a) in [(0.3, 0.15, 0.5), (4.0, 2.0, 0.25), (9.0, 3.0, 1.0 / 6.0)] {
            let (v, d) = root_or_half_grad(a);
            assert_eq!(v, root_or_half(a));
            assert_close("root_or_half", v, value, 1e-14);
            assert_close("d root_or_half / d a", d, d_a, 1e-9);
        }
        for a in [0.3, 2.0, 7.5, 40.0] {
            let (value, d_a) = root_grad(a);
            assert_eq!(value, root(a));
            assert_close("root", value, a.sqrt(), 1e-14);
            assert_close("d root / d a", d_a, 0.5 / a.sqrt(), 1e-9);
            let (v, t) = root_jvp(a, 1.0);
            assert_eq!(v, value);
            assert_close("root_jvp", t, d_a, 1e-12);
        }
    }

    /// The first pair of neighbours whose sum passes `t`, as a tuple (a literal, or a callee's
    /// tuple), returned from a `while`; zeros past the end.
    #[differentiable(jvp)]
    pub fn crossing(x: &[f64; 6], t: f64) -> (f64, [f64; 2]) {
        let mut i = 0;
        #[max_iters(6)]
        while i + 1 < 6 {
            let s = x[i] + x[i + 1];
            if s > t + 1.0 {
                return scaled(x[i], x[i + 1]);
            }
            if s > t {
                return (s * s, [x[i], x[i + 1] * t]);
            }
            i += 1;
        }
        (0.0, [t, 0.0])
    }

    #[differentiable(jvp)]
    pub fn scaled(a: f64, b: f64) -> (f64, [f64; 2]) {
        (a * b, [2.0 * a, b.sin()])
    }

    /// `crossing`'s elements weighed into one float: its adjoint through the callee's.
    #[differentiable(jvp)]
    pub fn crossing_sum(x: &[f64; 6], t: &[f64; 1]) -> f64 {
        let (a, b): (f64, [f64; 2]) = crossing(x, t[0]);
        a + b[0] * 0.5 + b[1] * b[1]
    }

    fn crossing_plain(x: &[f64; 6], t: f64) -> (f64, [f64; 2]) {
        for i in 0..5 {
            let s = x[i] + x[i + 1];
            if s > t + 1.0 {
                return (x[i] * x[i + 1], [2.0 * x[i], x[i + 1].sin()]);
            }
            if s > t {
                return (s * s, [x[i], x[i + 1] * t]);
            }
        }
        (0.0, [t, 0.0])
    }

    /// Which of `crossing`'s exits a point takes: the callee's tuple, the literal, none.
    fn crossing_path(x: &[f64; 6], t: f64) -> usize {
        for i in 0..5 {
            let s = x[i] + x[i + 1];
            if s > t + 1.0 {
                return 0;
            }
            if s > t {
                return 1;
            }
        }
        2
    }

    #[test]
    fn tuples_returned_from_a_while_against_central_differences() {
        let points = cube::<7>(1502, 40, -1.2, 1.2);
        let mut paths = [0; 3];
        for q in &points {
            paths[crossing_path(q[..6].try_into().unwrap(), q[6])] += 1;
        }
        assert!(paths.iter().all(|&n| n >= 2), "paths taken: {paths:?}");
        let split = |q: [f64; 7]| -> ([f64; 6], [f64; 1]) { (q[..6].try_into().unwrap(), [q[6]]) };
        let grad = |q: [f64; 7]| {
            let (x, t) = split(q);
            let (value, (d_x, d_t)) = crossing_sum_grad(&x, &t);
            let mut g = [0.0; 7];
            g[..6].copy_from_slice(&d_x);
            g[6] = d_t[0];
            (value, g)
        };
        GradCheck::new("tuples returned from a while").run(
            &points,
            |q| {
                let (x, t) = split(q);
                let (a, b) = crossing_plain(&x, t[0]);
                assert_eq!(crossing(&x, t[0]), (a, b));
                let mut tape = CrossingTape::new();
                assert_eq!(crossing_forward(&x, t[0], &mut tape), (a, b));
                crossing_sum(&x, &t)
            },
            grad,
        );
        // Forward mode through the callee's tuple, against the gradient checked above.
        let (x, t) = ([0.3, -0.2, 0.9, 0.4, -1.0, 0.6], [0.5]);
        let (t_x, t_t) = ([0.5, -1.0, 0.25, 0.75, -0.5, 1.0], [-0.75]);
        let (value, (d_x, d_t)) = crossing_sum_grad(&x, &t);
        let want = d_x.iter().zip(&t_x).map(|(d, v)| d * v).sum::<f64>() + d_t[0] * t_t[0];
        let (v, tangent) = crossing_sum_jvp(&x, &t, &t_x, &t_t);
        assert_eq!(v, value);
        assert_close("crossing_sum_jvp", tangent, want, 1e-12);
    }

    /// Over a slice of a run-time length: the first element past `t`, squared (`t` past
    /// every element: the last one).
    #[differentiable(wrt(x, t))]
    pub fn first_above(x: &[f64], t: f64) -> f64 {
        for (i, v) in x.iter().enumerate() {
            if *v > t {
                return v * v * (i as f64 + 1.0);
            }
        }
        x[x.len() - 1] * t
    }

    /// A `return` beside a `panic!` branch inside a loop (`panics` takes the `if` apart
    /// once the `return` is a `break`): the first element past 1, squared, unless past 5.
    #[differentiable]
    pub fn first_big(x: &[f64; 4]) -> f64 {
        for i in 0..4 {
            if x[i] > 1.0 {
                if x[i] > 5.0 {
                    panic!("too big")
                } else {
                    return x[i] * x[i];
                }
            }
        }
        x[0] + x[3]
    }

    #[test]
    fn a_return_beside_a_panic_in_a_loop() {
        let mut tape = FirstBigTape::new();
        assert_eq!(
            first_big_try_forward(&[0.5, 6.0, 2.0, 0.1], &mut tape),
            Err("too big")
        );
        for (x, d) in [
            ([0.5, 2.0, 6.0, 0.1], [0.0, 4.0, 0.0, 0.0]),
            ([0.5, 0.2, -3.0, 0.1], [1.0, 0.0, 0.0, 1.0]),
        ] {
            let (value, g) = first_big_grad(&x);
            assert_eq!(value, first_big(&x));
            assert_eq!(g, d);
        }
    }

    #[test]
    fn a_return_in_a_loop_over_a_slice() {
        // Past every element: the value after the loop.
        let (x, t) = ([0.1, 0.2, 0.3, 0.4, 0.5], 0.9);
        let mut d_x = [0.0; 5];
        let (value, d_t) = first_above_grad(&x, t, &mut d_x);
        assert_eq!(
            (value, d_t, d_x),
            (0.5 * 0.9, 0.5, [0.0, 0.0, 0.0, 0.0, 0.9])
        );
        // The third element: 0.3 squared, times 3.
        let mut d_x = [0.0; 5];
        let (value, d_t) = first_above_grad(&x, 0.25, &mut d_x);
        assert_close("first_above", value, 0.27, 1e-15);
        assert_eq!(
            (d_t, d_x[..2].to_vec(), d_x[3..].to_vec()),
            (0.0, vec![0.0; 2], vec![0.0; 2])
        );
        assert_close("d first_above / d x2", d_x[2], 1.8, 1e-15);
        let points = cube::<6>(1503, 30, -1.2, 1.2);
        GradCheck::new("return in a loop over a slice").run(
            &points,
            |q| first_above(&q[..5], q[5]),
            |q| {
                let mut d_x = vec![0.0; 5];
                let (value, d_t) = first_above_grad(&q[..5], q[5], &mut d_x);
                let mut g = [0.0; 6];
                g[..5].copy_from_slice(&d_x);
                g[5] = d_t;
                (value, g)
            },
        );
    }
}

mod asserts {
    use crate::common::{GradCheck, assert_close, cube};
    use stackgrad::differentiable;

    /// A weighted distance between two slices that asserts what the loop needs: the lengths
    /// equal (`assert_eq!` with a message), the weight positive (`assert!`), and a
    /// `debug_assert!`, which the generated functions leave out as release builds do.
    #[differentiable(wrt(x, y, w))]
    pub fn weighted(x: &[f64], y: &[f64], w: f64) -> f64 {
        assert_eq!(x.len(), y.len(), "x and y differ in length");
        assert!(w > 0.0);
        let mut s = 0.0;
        for i in 0..x.len() {
            debug_assert!(x[i] < 100.0);
            let d = x[i] - y[i];
            s += w * d * d;
            assert!(s >= 0.0)
        }
        s.sqrt()
    }

    #[test]
    fn asserts_hold_against_central_differences() {
        let points = cube::<7>(1601, 30, 0.1, 1.2);
        GradCheck::new("a function with asserts").run(
            &points,
            |q| weighted(&q[..3], &q[3..6], q[6]),
            |q| {
                let (mut d_x, mut d_y) = ([0.0; 3], [0.0; 3]);
                let (value, d_w) = weighted_grad(&q[..3], &q[3..6], q[6], &mut d_x, &mut d_y);
                let mut g = [0.0; 7];
                g[..3].copy_from_slice(&d_x);
                g[3..6].copy_from_slice(&d_y);
                g[6] = d_w;
                (value, g)
            },
        );
    }

    #[test]
    fn a_failed_assert_is_the_forward_sweeps_error() {
        let mut tape = WeightedTape::new();
        let (x, y) = ([0.5, 1.0, 2.0], [1.0, 1.0, 1.0]);
        let ok = weighted_try_forward(&x, &y, 4.0, &mut tape).unwrap();
        assert_close("weighted", ok, weighted(&x, &y, 4.0), 1e-15);
        assert_eq!(
            weighted_try_forward(&x, &y[..2], 4.0, &mut tape),
            Err("assertion `left == right` failed: x and y differ in length")
        );
        assert_eq!(
            weighted_try_forward(&x, &y, -1.0, &mut tape),
            Err("assertion failed: w > 0.0")
        );
        // The `debug_assert!` is not checked in the generated functions.
        let far = [0.5, 1.0, 200.0];
        assert_eq!(
            weighted_try_forward(&far, &y, 1.0, &mut tape),
            Ok(((0.5f64 * 0.5) + 199.0 * 199.0).sqrt())
        );
    }

    #[test]
    #[should_panic(expected = "assertion failed: w > 0.0")]
    fn a_failed_assert_panics_in_the_gradient() {
        let (mut d_x, mut d_y) = ([0.0; 1], [0.0; 1]);
        weighted_grad(&[1.0], &[0.0], 0.0, &mut d_x, &mut d_y);
    }
}

mod array_functions {
    use crate::common::{Pair, assert_close};
    use stackgrad::differentiable;

    /// Squares of an array, the function's value by `map`.
    #[differentiable(jvp, hvp)]
    pub fn squares<const N: usize>(x: &[f64; N]) -> [f64; N] {
        x.map(|v| v * v + 1.0)
    }

    /// `core::array::from_fn` (typed, a row of pairs too), `map` of a parameter, of a local
    /// and of a row, in a sum (bound to a `let` first), as the value of `return` in a branch
    /// and through a callee that returns an array by `map`; `let x = x.map(..)` shadowing
    /// the array it maps, `|_|`, a `map` inside a loop and in a branch of an `if` used as a
    /// value or an `if` statement's condition, rows mapped by an array pattern (`|[a, b]| a *
    /// b`), and a function named for the closure (`y.map(f64::sin)`).
    #[differentiable(jvp, hvp)]
    pub fn mapped(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let d: [f64; 3] = core::array::from_fn(|i| x[i + 1] - x[i]);
        let pairs: [[f64; 2]; 2] = std::array::from_fn(|i| [x[2 * i], y[i] * x[2 * i + 1]]);
        let e = d.map(|v| v * v);
        let s = y.map(f64::sin);
        let x = x.map(|v| 0.5 * v);
        let ones = y.map(|_| 1.0);
        let sq: [f64; 3] = squares(&s);
        let mut total = e[0] + e[2] * s[1] + pairs[1][1] + x[3] + ones[2] + sq[0];
        for k in 0..2 {
            let row = pairs[k].map(|v| v.exp());
            total += row[0] * row[1] * 0.1;
        }
        let products = pairs.map(|[a, b]| a * b);
        total += products[1] * 0.5;
        let scaled = if x[0] > 0.0 {
            y.map(|v| v * x[1])
        } else {
            [0.5; 3]
        };
        total += scaled[1];
        total += y.map(|v| v * x[0])[2] * 2.0;
        if d.map(|v| v * v)[0] > 0.5 {
            total += 0.25 * e[0];
        }
        if total > 10.0 {
            return d.map(|v| v.tanh())[1] + total;
        }
        total
    }

    fn mapped_plain(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let d = [x[1] - x[0], x[2] - x[1], x[3] - x[2]];
        let pairs = [[x[0], y[0] * x[1]], [x[2], y[1] * x[3]]];
        let s = [y[0].sin(), y[1].sin(), y[2].sin()];
        let half = [0.5 * x[0], 0.5 * x[1], 0.5 * x[2], 0.5 * x[3]];
        let mut total =
            d[0] * d[0] + d[2] * d[2] * s[1] + pairs[1][1] + half[3] + 1.0 + (s[0] * s[0] + 1.0);
        for row in pairs {
            total += row[0].exp() * row[1].exp() * 0.1;
        }
        total += pairs[1][0] * pairs[1][1] * 0.5;
        total += if half[0] > 0.0 { y[1] * half[1] } else { 0.5 };
        if d[0] * d[0] > 0.5 {
            total += 0.25 * d[0] * d[0];
        }
        total += y[2] * half[0] * 2.0;
        if total > 10.0 {
            return d[1].tanh() + total;
        }
        total
    }

    #[test]
    fn map_and_from_fn_against_central_differences() {
        let mapped = Pair {
            f: mapped,
            plain: mapped_plain,
            grad: mapped_grad,
            jvp: mapped_jvp,
            hvp: mapped_hvp,
        };
        mapped.check::<7>("map and from_fn of arrays", 1701);
        // The branch with `return` taken.
        let (x, y) = ([3.0, -1.0, 2.5, 4.0], [1.0, 0.5, 2.0]);
        assert!(mapped_plain(&x, &y) > 10.0);
        assert_close("mapped", mapped_grad(&x, &y).0, mapped_plain(&x, &y), 1e-13);
        // There, the gradient against central differences too.
        let join = |x: [f64; 4], y: [f64; 3]| [x[0], x[1], x[2], x[3], y[0], y[1], y[2]];
        let at = |q: &[f64; 7]| mapped_plain(&[q[0], q[1], q[2], q[3]], &[q[4], q[5], q[6]]);
        let (_, (g_x, g_y)) = mapped_grad(&x, &y);
        let (g, fd) = (join(g_x, g_y), crate::common::central(at, &join(x, y)));
        for i in 0..7 {
            assert_close("mapped, the branch with return", g[i], fd[i], 1e-6);
        }
        // The array-valued function by `map`, in forward mode.
        let (value, tangent) = squares_jvp(&[1.0, -2.0], &[0.5, 1.0]);
        assert_eq!((value, tangent), ([2.0, 5.0], [1.0, -4.0]));
    }

    /// `map` to integers (`i + 1`), to `bool`s and by a cast, of an integer array gathering
    /// floats (`idx.map(|k| x[k])`), each element type read from the closure's body.
    #[differentiable]
    pub fn gathered(x: &[f64; 4], idx: &[usize; 2]) -> f64 {
        let next = idx.map(|i| i + 1);
        let w = idx.map(|k| {
            assert!(k < 4, "an index past x");
            x[k]
        });
        let pos = x.map(|v| v > 0.0);
        let whole = x.map(|v| (v * 2.0) as i64);
        let mut s = w[0] * w[1] + x[next[1]];
        if pos[3] {
            s += x[3] * (whole[0] as f64);
        }
        s
    }

    #[test]
    fn map_to_integers_and_bools_against_central_differences() {
        let idx = [1, 2];
        for x in [[0.8, -0.7, 1.1, 0.2], [1.4, 0.5, -0.2, -0.6]] {
            let (value, g) = gathered_grad(&x, &idx);
            assert_eq!(value, gathered(&x, &idx));
            let fd = crate::common::central(|x| gathered(x, &idx), &x);
            for i in 0..4 {
                assert_close("gathered", g[i], fd[i], 1e-6);
            }
        }
    }

    #[differentiable]
    pub fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// `map` in a bounded `while`'s condition, run again at each test: the scale doubles until
    /// the scaled array's product with `x` passes 10.
    #[differentiable]
    pub fn doubled(x: &[f64; 3]) -> f64 {
        let mut s = 1.0;
        #[max_iters(8)]
        while dot3(&x.map(|v| v * s), x) < 10.0 {
            s *= 2.0;
        }
        s * dot3(&x.map(|v| v * v), x)
    }

    #[test]
    fn map_in_a_while_condition() {
        // |x|^2 = 1.79: s doubles to 8 (14.32 > 10); the value 8 sum x^3.
        let x = [0.3, -0.7, 1.1];
        let (value, g) = doubled_grad(&x);
        assert_eq!(value, doubled(&x));
        assert_close("doubled", value, 8.0 * (0.027 - 0.343 + 1.331), 1e-12);
        for i in 0..3 {
            assert_close("d doubled", g[i], 24.0 * x[i] * x[i], 1e-12);
        }
    }
}

mod closures {
    use crate::common::{Pair, assert_close};
    use stackgrad::differentiable;

    #[differentiable(jvp, hvp)]
    pub fn scaled_sin(a: f64, b: f64) -> f64 {
        a * b.sin()
    }

    /// Closures bound by `let` and called: with names, elements, literals (typed, untyped,
    /// negative) and a borrowed array as arguments (taken in place), with computed arguments
    /// and bodies of statements (blocks), one calling another and a `#[differentiable]`
    /// function, one made in a loop reading its counter, an accumulating `FnMut`, arguments
    /// that swap the parameters' names (taken in place, and bound through fresh locals),
    /// integer and `bool` closures in an index, a condition and a `match`, a computed argument
    /// its parameter reads once in a condition, an array-valued closure, one passed to `map` and
    /// to a reduction's `map`, and a name bound again to a closure that calls the one it
    /// shadows.
    #[differentiable(jvp, hvp)]
    pub fn closures(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let n = 2;
        let sq = |v: f64| v * v;
        let idx = |i: usize, j: usize| i * n + j;
        let norm = |v: &[f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let rot = |a: f64| [a.cos(), a.sin()];
        let soft = |a: f64, b: f64| {
            let m = a.max(b);
            m + ((a - m).exp() + (b - m).exp()).ln()
        };
        let mut s = 0.0;
        for i in 0..2 {
            for j in 0..2 {
                s += x[idx(i, j)] * sq(y[j] + 1.0);
            }
        }
        let r = rot(x[0] * 0.5);
        let big = |v: f64| v > 1.0;
        let t = if big(s) { soft(s, x[1]) } else { sq(s) };
        let u = y.map(sq);
        let (a, b) = (x[2], y[1]);
        let diff = |a: f64, b: f64| a - 3.0 * b;
        let twice = |v: f64| diff(v, 1.0) * 2.0 + scaled_sin(v, a);
        let mut acc = 0.0;
        let mut add = |v: f64| acc += v * v;
        add(diff(b, a));
        add(-2.0);
        for k in 0..3 {
            let w = |c: f64| c * y[k] + sq(2.0);
            acc += 0.1 * twice(w(x[k]));
        }
        let pick = |k: usize| k % 3;
        let m = match pick(4) {
            1 => s,
            _ => -s,
        };
        let sq = |v: f64| 0.5 * sq(v);
        let cubes: f64 = y.iter().map(|&v| sq(v) * v).sum();
        let lin = |v: f64| 2.0 * v - 1.0;
        let side = if lin(x[0] + 0.5) > 0.0 { soft(b, a) } else { a };
        t + r[0] * r[1] + norm(y) + u[2] + soft(y[0], x[3]) + acc + m + sq(x[3]) + cubes + side
    }

    fn closures_plain(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..2 {
            for j in 0..2 {
                s += x[i * 2 + j] * (y[j] + 1.0) * (y[j] + 1.0);
            }
        }
        let soft = |a: f64, b: f64| {
            let m = a.max(b);
            m + ((a - m).exp() + (b - m).exp()).ln()
        };
        let r = [(x[0] * 0.5).cos(), (x[0] * 0.5).sin()];
        let t = if s > 1.0 { soft(s, x[1]) } else { s * s };
        let norm = (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]).sqrt();
        let (a, b) = (x[2], y[1]);
        let mut acc = (b - 3.0 * a) * (b - 3.0 * a) + 4.0;
        for k in 0..3 {
            let w = x[k] * y[k] + 4.0;
            acc += 0.1 * ((w - 3.0) * 2.0 + w * a.sin());
        }
        let cubes = 0.5 * (y[0].powi(3) + y[1].powi(3) + y[2].powi(3));
        let side = if 2.0 * (x[0] + 0.5) - 1.0 > 0.0 {
            soft(b, a)
        } else {
            a
        };
        t + r[0] * r[1]
            + norm
            + y[2] * y[2]
            + soft(y[0], x[3])
            + acc
            + s
            + 0.5 * x[3] * x[3]
            + cubes
            + side
    }

    #[test]
    fn closures_against_central_differences() {
        let pair = Pair {
            f: closures,
            plain: closures_plain,
            grad: closures_grad,
            jvp: closures_jvp,
            hvp: closures_hvp,
        };
        pair.check::<7>("closures", 1801);
        // Both sides of the condition `big(s)`.
        for x in [[0.1, 0.2, -0.1, 0.3], [1.0, 0.8, 0.5, -0.4]] {
            let y = [0.4, -0.3, 0.2];
            assert_close("closures", closures(&x, &y), closures_plain(&x, &y), 1e-13);
        }
    }

    /// Arguments evaluated as Rust evaluates them: an accumulating closure's calls as the
    /// arguments of another (each once, in order), one for a parameter `_` or never read (run
    /// all the same), literals typed by the parameter (`1.`), a call in a `matches!` the function
    /// writes, a result type (`-> f32`) or a `let`'s `fn` type giving a literal its precision,
    /// a `&f64` parameter in arithmetic, a `move` closure, and a closure passed as `&sq`.
    #[differentiable(jvp)]
    pub fn evaluated(x: f64, y: &[f64; 3]) -> f64 {
        let mut acc = 1.0;
        let mut bump = |v: f64| {
            acc *= v;
            acc
        };
        let sub = |a: f64, b: f64| b - a;
        let r = sub(bump(2.0 * x), bump(3.0));
        let first = |a: f64, _b: f64| a;
        let s = first(x, bump(y[0]));
        let keep = |a: f64, b: f64| a + 0.0 * b;
        let q = keep(x, bump(0.5));
        let sq = |v: f64| v * v;
        let t = sq(1.) + sq(2.0);
        let pick = |k: usize| k % 3;
        let m = if matches!(pick(4), 1 | 2) { x } else { -x };
        let third = || -> f32 { 1.0 / 3.0 };
        let h: fn(f32) -> f32 = |v| v / 3.0;
        let z = (third() as f64) * x + (h(1.0) as f64) * x;
        let twice = |v: &f64| v * 2.0 + *v;
        let w = twice(&y[1]) + twice(&x);
        let k = 2.0;
        let mv = move |v: f64| v * k;
        r + s + q + t + m + z + w + mv(x) + acc + y.map(&sq)[2]
    }

    fn evaluated_plain(x: f64, y: &[f64; 3]) -> f64 {
        let b1 = 2.0 * x;
        let b2 = b1 * 3.0;
        let acc = b2 * y[0] * 0.5;
        let third = (1.0f32 / 3.0) as f64;
        (b2 - b1)
            + x
            + x
            + 5.0
            + x
            + 2.0 * third * x
            + 3.0 * y[1]
            + 3.0 * x
            + 2.0 * x
            + acc
            + y[2] * y[2]
    }

    #[test]
    fn arguments_evaluated_as_rust_does() {
        for (x, y) in [(0.6, [0.3, -0.7, 1.1]), (-1.2, [0.8, 0.4, -0.5])] {
            let (value, (dx, dy)) = evaluated_grad(x, &y);
            assert_close("evaluated", value, evaluated_plain(x, &y), 1e-14);
            assert_eq!(value, evaluated(x, &y));
            let fd = crate::common::central(
                |q: &[f64; 4]| evaluated_plain(q[0], &[q[1], q[2], q[3]]),
                &[x, y[0], y[1], y[2]],
            );
            assert_close("d evaluated / dx", dx, fd[0], 1e-6);
            for i in 0..3 {
                assert_close("d evaluated / dy", dy[i], fd[i + 1], 1e-6);
            }
            let (_, tangent) = evaluated_jvp(x, &y, 1.0, &[0.0; 3]);
            assert_close("evaluated, tangent along x", tangent, dx, 1e-12);
        }
        // `third()` and `h(1.0)` are computed in f32, as Rust computes them: 1/3 in f64 would
        // move the value by about 1e-8, past the tolerance above.
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Mode {
        Fast,
        Slow,
    }

    /// A closure matching on an enum parameter, and one never called that alone matches on
    /// another (so the tangent program of `hvp`, which has no closure, still takes it for an
    /// enum: genprog seed 124, p106).
    #[differentiable(hvp)]
    pub fn by_mode(x: f64, y: f64, mode: Mode, other: Mode) -> f64 {
        let scale = |v: f64| match mode {
            Mode::Fast => v * v,
            Mode::Slow => 2.0 * v,
        };
        let _unused = |v: f64| match other {
            Mode::Fast => v,
            Mode::Slow => -v,
        };
        scale(x) * y
    }

    #[test]
    fn closures_matching_on_enums_against_closed_forms() {
        let (x, y) = (0.7, -1.3);
        let (value, (dx, dy)) = by_mode_grad(x, y, Mode::Fast, Mode::Slow);
        assert_eq!((value, dx, dy), (x * x * y, 2.0 * x * y, x * x));
        let (value, (dx, dy)) = by_mode_grad(x, y, Mode::Slow, Mode::Fast);
        assert_eq!((value, dx, dy), (2.0 * x * y, 2.0 * y, 2.0 * x));
        // H v along (1, 0) of x^2 y: (2y, 2x).
        let (_, _, (hx, hy)) = by_mode_hvp(x, y, Mode::Fast, Mode::Fast, 1.0, 0.0);
        assert_eq!((hx, hy), (2.0 * y, 2.0 * x));
    }

    /// An `f32` closure with a typed literal, and one of an array row, in forward mode.
    #[differentiable(jvp)]
    pub fn rows_f32(m: &[[f32; 2]; 3]) -> f32 {
        let dot = |a: &[f32; 2], b: &[f32; 2]| a[0] * b[0] + a[1] * b[1];
        let scale = |v: f32, k: f32| v * k;
        let mut s = 0.0;
        for i in 0..3 {
            s += scale(dot(&m[i], &m[(i + 1) % 3]), 0.5);
        }
        s
    }

    #[test]
    fn closures_in_f32_against_a_closed_form() {
        let m = [[0.5f32, -1.0], [2.0, 0.25], [-0.75, 1.5]];
        let (value, g) = rows_f32_grad(&m);
        let plain: f32 = (0..3)
            .map(|i| 0.5 * (m[i][0] * m[(i + 1) % 3][0] + m[i][1] * m[(i + 1) % 3][1]))
            .sum();
        assert_eq!(value, plain);
        // d/dm[i][c] = 0.5 (m[i+1][c] + m[i-1][c]).
        for i in 0..3 {
            for c in 0..2 {
                let want = 0.5 * (m[(i + 1) % 3][c] + m[(i + 2) % 3][c]);
                assert!((g[i][c] - want).abs() < 1e-6, "d m[{i}][{c}]");
            }
        }
        let t = [[1.0f32, 0.0], [0.0, 0.0], [0.0, 0.0]];
        let (_, dt) = rows_f32_jvp(&m, &t);
        assert!((dt - g[0][0]).abs() < 1e-6, "tangent along m[0][0]");
    }
}

mod rearranged {
    use crate::common::{assert_close, central};
    use stackgrad::differentiable;

    /// Gaussian elimination with partial pivoting (`a.swap(k, p)` of the matrix's rows and of
    /// the right-hand side): `c . z` where `m z = b`.
    #[differentiable(jvp, hvp)]
    pub fn solve(m: &[[f64; 3]; 3], b: &[f64; 3], c: &[f64; 3]) -> f64 {
        let mut a = *m;
        let mut r = *b;
        for k in 0..3 {
            let mut p = k;
            for i in k + 1..3 {
                if a[i][k].abs() > a[p][k].abs() {
                    p = i;
                }
            }
            a.swap(k, p);
            r.swap(k, p);
            for i in k + 1..3 {
                let f = a[i][k] / a[k][k];
                for j in k..3 {
                    a[i][j] -= f * a[k][j];
                }
                r[i] -= f * r[k];
            }
        }
        let mut z = [0.0; 3];
        for k in (0..3).rev() {
            let mut s = r[k];
            for j in k + 1..3 {
                s -= a[k][j] * z[j];
            }
            z[k] = s / a[k][k];
        }
        c[0] * z[0] + c[1] * z[1] + c[2] * z[2]
    }

    /// `c . m^-1 b` by Cramer's rule: the same value, written without pivoting.
    fn cramer(m: &[[f64; 3]; 3], b: &[f64; 3], c: &[f64; 3]) -> f64 {
        let det = |m: &[[f64; 3]; 3]| {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        };
        let d = det(m);
        (0..3)
            .map(|k| {
                let mut mk = *m;
                for i in 0..3 {
                    mk[i][k] = b[i];
                }
                c[k] * det(&mk) / d
            })
            .sum()
    }

    #[test]
    fn pivoting_by_swap_against_cramer_and_central_differences() {
        // The rows in every order: each pivot sequence the elimination can take here.
        let rows = [[0.5, 2.0, 1.0], [3.0, 1.0, -1.0], [1.0, -2.0, 4.0]];
        let (b, c) = ([1.0, 2.0, 3.0], [0.3, -0.4, 0.5]);
        for order in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            let m = order.map(|r| rows[r]);
            let flat = |m: &[[f64; 3]; 3], b: &[f64; 3]| {
                let mut q = [0.0; 12];
                for i in 0..3 {
                    q[3 * i..3 * i + 3].copy_from_slice(&m[i]);
                    q[9 + i] = b[i];
                }
                q
            };
            let at = |q: &[f64; 12]| {
                let m = [[q[0], q[1], q[2]], [q[3], q[4], q[5]], [q[6], q[7], q[8]]];
                cramer(&m, &[q[9], q[10], q[11]], &c)
            };
            let (value, (dm, db, dc)) = solve_grad(&m, &b, &c);
            assert_close("solve", value, cramer(&m, &b, &c), 1e-12);
            let fd = central(at, &flat(&m, &b));
            let g = flat(&dm, &db);
            for i in 0..12 {
                assert_close("d solve", g[i], fd[i], 1e-6);
            }
            // The value is linear in c: its gradient there is z = m^-1 b.
            for k in 0..3 {
                let mut e = [0.0; 3];
                e[k] = 1.0;
                assert_close("d solve / dc", dc[k], cramer(&m, &b, &e), 1e-12);
            }
            let (_, tangent) = solve_jvp(&m, &b, &c, &[[0.0; 3]; 3], &[1.0, 0.0, 0.0], &[0.0; 3]);
            assert_close("solve, tangent along b[0]", tangent, db[0], 1e-12);
        }
    }

    /// `reverse`, `fill`, `mem::swap` of arrays and of an element and a local, `swap` inside a
    /// loop and a branch.
    #[differentiable(jvp, hvp)]
    pub fn shuffled(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let mut w = *y;
        w.reverse();
        let mut u = [1.0; 3];
        let mut v = [0.0; 3];
        for k in 0..2 {
            core::mem::swap(&mut u, &mut v);
            u.fill(0.5 * x[k]);
            let mut t = x[3];
            std::mem::swap(&mut t, &mut v[1]);
            u[0] += t;
            if x[0] > 0.0 {
                u.swap(0, 2)
            }
        }
        let mut h = [x[0], x[1], x[2], x[3]];
        for i in 0..3 {
            h.swap(i, i + 1);
        }
        w[0] * u[0] + w[1] * u[2] + w[2] * v[1] + v[0] * h[0] + h[3] * h[3]
    }

    fn shuffled_plain(x: &[f64; 4], y: &[f64; 3]) -> f64 {
        let w = [y[2], y[1], y[0]];
        // Round 1: u = [0.5 x0 + 1, 0.5 x0, 0.5 x0] (t = x3 swapped with v[1] = 1: t = 1), v =
        // [1, x3, 1]; round 2: v = the first u with its [1] swapped out for x3, u = [0.5 x1 +
        // u1[1], 0.5 x1, 0.5 x1]; each u's ends swapped where x0 > 0.
        let mut u1 = [0.5 * x[0] + 1.0, 0.5 * x[0], 0.5 * x[0]];
        if x[0] > 0.0 {
            u1.swap(0, 2);
        }
        let mut v = u1;
        let t = v[1];
        v[1] = x[3];
        let mut u = [0.5 * x[1] + t, 0.5 * x[1], 0.5 * x[1]];
        if x[0] > 0.0 {
            u.swap(0, 2);
        }
        let h = [x[1], x[2], x[3], x[0]];
        w[0] * u[0] + w[1] * u[2] + w[2] * v[1] + v[0] * h[0] + h[3] * h[3]
    }

    /// The same methods of a `Vec` local.
    #[differentiable(wrt(x))]
    pub fn vec_rearranged(x: &[f64], k: usize) -> f64 {
        let mut y = vec![0.0; x.len()];
        for i in 0..x.len() {
            y[i] = x[i] * (i as f64 + 1.0);
        }
        y.reverse();
        y.swap(0, k);
        let mut z = vec![0.0; x.len() - 1];
        z.fill(x[0]);
        y[0] * y[1] + z[2] * y[x.len() - 1]
    }

    #[test]
    fn a_vec_rearranged_against_a_closed_form() {
        // y = [4 x3, 3 x2, 2 x1, x0] reversed from x[i] (i + 1); swapped at 0 and 2:
        // [2 x1, 3 x2, 4 x3, x0]; the value 6 x1 x2 + x0^2.
        let x = [0.5, -1.0, 2.0, 1.5];
        let mut g = [0.0; 4];
        let (value, ()) = vec_rearranged_grad(&x, 2, &mut g);
        assert_eq!(value, 6.0 * x[1] * x[2] + x[0] * x[0]);
        assert_eq!(g, [2.0 * x[0], 6.0 * x[2], 6.0 * x[1], 0.0]);
    }

    /// Computed indices in the places rearranged: the rows `m[k + 1]` reversed and `m[2 - k]`
    /// swapped, `m[2 - k][k + 1]` swapped with `w[2 * k]` by `mem::swap`, `m[3 - 2]` filled;
    /// each index read once, before the arguments.
    #[differentiable(jvp, hvp)]
    pub fn rows_rearranged(x: &[f64; 3], y: &[f64; 3]) -> f64 {
        let mut m = [*x, *y, [x[0] * y[2], x[1], y[0] * y[0]]];
        let mut w = [y[1], x[2], y[2], x[0]];
        for k in 0..2 {
            m[k + 1].reverse();
            m[2 - k].swap(k, k + 1);
            core::mem::swap(&mut m[2 - k][k + 1], &mut w[2 * k]);
        }
        let s = m[0][0] * m[1][2] + m[1][0] * m[2][1] + m[2][2] * w[0] + w[2] * m[1][1] * m[0][2];
        m[3 - 2].fill(s * 0.5);
        s + m[1][0] * m[2][0]
    }

    /// Traced by hand: with `c = [x0 y2, x1, y0^2]`, `m` ends `[x, [y2, y0, y2], [c2, y1, c1]]`
    /// and `w` `[c0, x2, y1, x0]` before the fill.
    fn rows_rearranged_plain(x: &[f64; 3], y: &[f64; 3]) -> f64 {
        let c = [x[0] * y[2], x[1], y[0] * y[0]];
        let s = x[0] * y[2] + y[2] * y[1] + c[1] * c[0] + y[1] * y[0] * x[2];
        s + s * 0.5 * c[2]
    }

    /// The row to reverse chosen by its own elements: Rust reads the index once, before the
    /// row changes; read again after the reversal's first write, it would name the other row.
    #[differentiable(jvp, hvp)]
    pub fn row_chosen_by_itself(x: &[f64; 3], y: &[f64; 3]) -> f64 {
        let mut m = [*x, *y];
        m[if m[1][0] > m[1][2] { 1 } else { 0 }].reverse();
        m[0][0] * 2.0 + m[1][0] * m[0][2] + m[1][2]
    }

    fn row_chosen_by_itself_plain(x: &[f64; 3], y: &[f64; 3]) -> f64 {
        let (a, b) = if y[0] > y[2] {
            (*x, [y[2], y[1], y[0]])
        } else {
            ([x[2], x[1], x[0]], *y)
        };
        a[0] * 2.0 + b[0] * a[2] + b[2]
    }

    #[test]
    fn a_row_chosen_by_its_own_elements_reversed_against_central_differences() {
        let pair = crate::common::Pair {
            f: row_chosen_by_itself,
            plain: row_chosen_by_itself_plain,
            grad: row_chosen_by_itself_grad,
            jvp: row_chosen_by_itself_jvp,
            hvp: row_chosen_by_itself_hvp,
        };
        pair.check::<6>("m[if m[1][0] > m[1][2] { 1 } else { 0 }].reverse()", 1911);
    }

    /// An array sorted by compare-and-swap (what the error for `sort_by` says to write): the
    /// smallest plus twice the largest, whose gradient is 1 at the smallest and 2 at the
    /// largest (`H v` zero: piecewise linear).
    #[differentiable(jvp, hvp)]
    pub fn sorted_ends(x: &[f64; 5]) -> f64 {
        let mut a = *x;
        for i in 1..5 {
            for j in (1..=i).rev() {
                if a[j - 1] > a[j] {
                    a.swap(j - 1, j);
                }
            }
        }
        a[0] + 2.0 * a[4]
    }

    #[test]
    fn an_array_sorted_by_compare_and_swap_against_its_closed_form() {
        for q in crate::common::cube::<5>(1913, 30, -1.2, 1.2) {
            let lo = (0..5).min_by(|&i, &j| q[i].total_cmp(&q[j])).unwrap();
            let hi = (0..5).max_by(|&i, &j| q[i].total_cmp(&q[j])).unwrap();
            let mut expected = [0.0; 5];
            expected[lo] += 1.0;
            expected[hi] += 2.0;
            let (value, g) = sorted_ends_grad(&q);
            assert_eq!(value, q[lo] + 2.0 * q[hi]);
            assert_eq!(g, expected);
            let t = [0.5, -1.0, 0.25, 2.0, -0.75];
            let (v, dv) = sorted_ends_jvp(&q, &t);
            assert_eq!((v, dv), (value, t[lo] + 2.0 * t[hi]));
            let (_, g2, hv) = sorted_ends_hvp(&q, &t);
            assert_eq!((g2, hv), (expected, [0.0; 5]));
        }
    }

    /// Rows reversed and filled inside a checkpointed loop: the bound of the loop `reverse`
    /// and `fill` stand for, `m[k].len()`, is the row's length, a constant (genprog, seed 137:
    /// it was taken for a run-time length, which a checkpointed loop refuses).
    #[differentiable]
    pub fn rows_in_checkpoints(x: &[f64; 6]) -> f64 {
        let mut m = [[x[0], x[1], x[2]], [x[3], x[4], x[5]]];
        let mut s = 0.0;
        #[checkpoint]
        for k in 0..2 {
            m[k].reverse();
            s += m[k][0] * (k as f64 + 1.0) + m[1 - k][1] * s;
            m[1 - k].fill(s * 0.5);
        }
        s + m[0][2] * m[1][0]
    }

    #[test]
    fn rows_rearranged_in_a_checkpointed_loop_against_central_differences() {
        crate::common::GradCheck::new("m[k].reverse(), m[1 - k].fill(..) under #[checkpoint]").run(
            &crate::common::cube::<6>(1909, 30, -1.2, 1.2),
            |q| rows_in_checkpoints(&q),
            |q| rows_in_checkpoints_grad(&q),
        );
    }

    #[test]
    fn rows_at_computed_indices_rearranged_against_central_differences() {
        let pair = crate::common::Pair {
            f: rows_rearranged,
            plain: rows_rearranged_plain,
            grad: rows_rearranged_grad,
            jvp: rows_rearranged_jvp,
            hvp: rows_rearranged_hvp,
        };
        pair.check::<6>("rows rearranged", 1907);
    }

    #[test]
    fn reverse_fill_and_mem_swap_against_central_differences() {
        let pair = crate::common::Pair {
            f: shuffled,
            plain: shuffled_plain,
            grad: shuffled_grad,
            jvp: shuffled_jvp,
            hvp: shuffled_hvp,
        };
        pair.check::<7>("rearranged", 1901);
    }
}
