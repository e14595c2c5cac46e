//! `while` and `loop` with a `#[max_iters(K)]` bound: differentiated like counted loops that
//! record their trip count, and a panic naming the function and the loop past `K`.

// A label that only names a loop for `max_iters(label = K)` leaves no unused label behind.
#![deny(unused_labels)]

use stackgrad::differentiable;

/// Square root by Newton's method: its derivative converges to `1 / (2 sqrt(a))`.
#[differentiable]
fn newton_sqrt(a: f64) -> f64 {
    let mut y = a.max(1.0);
    #[max_iters(60)]
    while (y * y - a).abs() > 1e-12 * a {
        y = 0.5 * (y + a / y);
    }
    y
}

/// Bisection for the root of `x^3 + c x - 1` on `[0, 1]`, then `(lo + hi) * c`. Reverse mode
/// differentiates the program: the branch decisions are fixed, so the derivative with respect
/// to `c` is `lo + hi`, twice the root.
#[differentiable]
fn bisect(c: f64) -> f64 {
    let mut lo = 0.0;
    let mut hi = 1.0;
    #[max_iters(100)]
    loop {
        let mid = 0.5 * (lo + hi);
        if hi - lo < 1e-9 {
            break;
        }
        if mid * mid * mid + c * mid - 1.0 > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (lo + hi) * c
}

/// Doubles until past 100: an early exit whose trip count depends on the input.
#[differentiable]
fn grow(x: f64, k: f64) -> f64 {
    let mut y = x;
    #[max_iters(8)]
    while y < 100.0 {
        y *= k;
    }
    y.sqrt()
}

/// A bound on a labelled loop, given in the attribute.
#[differentiable(max_iters(halve = 40))]
fn halve(x: f64) -> f64 {
    let mut y = x;
    let mut steps = 0.0;
    'halve: while y > 1.0 {
        y *= 0.5;
        steps += 1.0;
        if steps > 100.0 {
            break 'halve;
        }
    }
    y * y + steps
}

/// A label that only gives the bound: the body never jumps to it.
#[differentiable(max_iters(shrink = 40))]
fn shrink(x: f64) -> f64 {
    let mut y = x;
    'shrink: while y > 2.0 {
        y *= 0.5;
    }
    y * y
}

#[test]
fn a_label_for_the_bound_only() {
    // x = 5: two halvings, y = x / 4, y² = x² / 16.
    let (v, d) = shrink_grad(5.0);
    assert_eq!(v, 25.0 / 16.0);
    assert_eq!(d, 10.0 / 16.0);
}

#[test]
fn newton_iteration_gradient_is_the_derivative_of_sqrt() {
    for a in [0.01, 0.25, 2.0, 9.0, 1234.5] {
        let (y, d) = newton_sqrt_grad(a);
        let want = 0.5 / a.sqrt();
        assert!(
            (y - a.sqrt()).abs() <= 1e-12 * a.sqrt().max(1.0),
            "sqrt({a}) = {y}"
        );
        assert!(
            (d - want).abs() <= 1e-9 * want,
            "d sqrt({a}) = {d}, want {want}"
        );
    }
}

#[test]
fn bisection_gradient_holds_the_branches_fixed() {
    for c in [0.0, 0.5, 2.0] {
        // The root of x^3 + c x - 1, by Newton from 1.0, independent of the code under test.
        let mut r: f64 = 1.0;
        for _ in 0..100 {
            r -= (r * r * r + c * r - 1.0) / (3.0 * r * r + c);
        }
        let (v, d) = bisect_grad(c);
        assert!((v - 2.0 * r * c).abs() <= 1e-8, "value at {c}: {v}");
        assert!(
            (d - 2.0 * r).abs() <= 1e-8,
            "gradient at {c}: {d}, want {}",
            2.0 * r
        );
    }
}

#[test]
fn early_exit_matches_finite_differences_between_trip_count_changes() {
    // For x in (100 / k^(n+1), 100 / k^n] the loop runs n + 1 times and y = x k^(n+1).
    for (x, k) in [(3.0, 2.0), (7.0, 1.7), (0.9, 3.0), (60.0, 1.2)] {
        let (_, (dx, dk)) = grow_grad(x, k);
        let h = 1e-7;
        let fx = (grow(x + h, k) - grow(x - h, k)) / (2.0 * h);
        let fk = (grow(x, k + h) - grow(x, k - h)) / (2.0 * h);
        assert!(
            (dx - fx).abs() <= 1e-6 * fx.abs().max(1.0),
            "d/dx at ({x}, {k}): {dx} vs {fx}"
        );
        assert!(
            (dk - fk).abs() <= 1e-6 * fk.abs().max(1.0),
            "d/dk at ({x}, {k}): {dk} vs {fk}"
        );
    }
}

#[test]
fn labelled_loop_with_a_break() {
    let (v, d) = halve_grad(40.0);
    // 40 -> 0.625 after 6 halvings: y = x / 64, value y^2 + 6, derivative 2 y / 64.
    assert_eq!(v, 0.625 * 0.625 + 6.0);
    assert!((d - 2.0 * 0.625 / 64.0).abs() <= 1e-15, "{d}");
}

#[test]
#[should_panic(expected = "in `grow` did not finish within 8 iterations")]
fn exceeding_the_bound_panics_with_the_function_and_the_loop() {
    // 1.0 * 1.5^n passes 100 only after 12 steps.
    let _ = grow_grad(1.0, 1.5);
}

#[test]
fn the_tape_holds_the_bound_plus_one_iterations() {
    // `y` is recorded once per iteration: K + 1 = 9 slots, as the tape report says.
    let fields: Vec<_> = GrowTape::FIELDS.iter().map(|f| (f.0, f.2)).collect();
    assert!(fields.iter().any(|&(_, ty)| ty == "[f64; 9]"), "{fields:?}");
    let total: usize = GrowTape::FIELDS.iter().map(|f| f.3).sum();
    assert!(total <= GrowTape::BYTES, "{total} > {}", GrowTape::BYTES);
}

#[test]
fn the_try_form_returns_the_error_instead() {
    let mut tape = GrowTape::new();
    let err = grow_try_forward(1.0, 1.5, &mut tape).unwrap_err();
    assert!(
        err.contains("in `grow` did not finish within 8 iterations"),
        "{err}"
    );
    let ok = grow_try_forward(3.0, 2.0, &mut tape).unwrap();
    assert_eq!(ok, grow(3.0, 2.0));
}
