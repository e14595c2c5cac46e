//! Generated code names only `::core` and the paths the user wrote, and its own locals cannot
//! collide with the user's names.

#![allow(non_camel_case_types, dead_code)]

// Shadow everything generated code could name by a relative path.
mod core {}
mod std {}
struct Clone;
struct Debug;
struct Default;
struct f_forward;

use stackgrad::differentiable;

/// Parameters and locals named like the generated code's own locals.
#[differentiable]
fn clash(tape: f64, d_out: f64, value: f64) -> f64 {
    let t0 = tape * d_out;
    let d_tape = t0.sin() + value;
    let d_unused = d_tape * d_tape;
    let mut t1 = d_unused / tape;
    t1 += t0.exp();
    t1
}

#[test]
fn user_names_do_not_collide_with_generated_locals() {
    let (tape, d_out, value) = (0.7_f64, -1.3_f64, 0.4_f64);
    let (v, (g_tape, g_d_out, g_value)) = clash_grad(tape, d_out, value);
    assert_eq!(v, clash(tape, d_out, value));
    // Closed form: t0 = a b, s = sin t0 + c, f = s^2 / a + exp(t0).
    let (a, b, c) = (tape, d_out, value);
    let t0 = a * b;
    let s = t0.sin() + c;
    let df_dt0 = 2.0 * s * t0.cos() / a + t0.exp();
    let want = (df_dt0 * b - s * s / (a * a), df_dt0 * a, 2.0 * s / a);
    for (got, want) in [(g_tape, want.0), (g_d_out, want.1), (g_value, want.2)] {
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{got} vs {want}"
        );
    }
}

/// User names equal to the locals of generated checkpointing and bounded-loop code.
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn clash_loops(x: &[f64; 12], iteration: f64) -> f64 {
    let mut trips = iteration;
    let segment = 0.5;
    #[checkpoint(snapshots = 3, binomial)]
    for t in 0..12 {
        let frames = x[t] * segment;
        trips = (trips * 0.9 + frames).sin();
    }
    let mut slot = trips;
    #[max_iters(50)]
    while slot.abs() > 1e-3 {
        slot *= 0.5;
    }
    slot + trips
}

#[test]
fn generated_loop_locals_do_not_collide() {
    let x: [f64; 12] = ::core::array::from_fn(|i| (i as f64 * 0.3).cos());
    let (v, (gx, gi)) = clash_loops_grad(&x, 0.4);
    assert_eq!(v, clash_loops(&x, 0.4));
    let h = 1e-6;
    let fd = (clash_loops(&x, 0.4 + h) - clash_loops(&x, 0.4 - h)) / (2.0 * h);
    assert!((gi - fd).abs() <= 1e-6 * fd.abs().max(1.0), "{gi} vs {fd}");
    let (mut a, mut b) = (x, x);
    a[5] += h;
    b[5] -= h;
    let fd = (clash_loops(&a, 0.4) - clash_loops(&b, 0.4)) / (2.0 * h);
    assert!(
        (gx[5] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
        "{} vs {fd}",
        gx[5]
    );
}

/// Names equal to the tangent sweep's own: a parameter `t_x` beside `x`, locals `t_t0`, `r`,
/// `t_r` (an update that reads itself goes through locals of those names).
#[differentiable(jvp)]
fn clash_tangents(x: f64, t_x: f64) -> f64 {
    let t_t0 = x * t_x;
    let mut r = t_t0.sin();
    let t_r = r * x;
    r = r.exp() * t_r;
    r + t_t0
}

#[test]
fn tangent_names_do_not_collide() {
    let (x, tx) = (0.6_f64, -0.8_f64);
    let (_, (gx, gt)) = clash_tangents_grad(x, tx);
    for (dx, dt) in [(1.0, 0.0), (0.0, 1.0), (0.3, -2.0)] {
        let (v, t) = clash_tangents_jvp(x, tx, dx, dt);
        assert_eq!(v, clash_tangents(x, tx));
        let want = gx * dx + gt * dt;
        assert!(
            (t - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{t} vs {want}"
        );
    }
}

/// A user's `t1` beside the temporary `t1` (`(x * 3.0).exp()`): their product is not a square
/// (genprog seed 2, p005: the tangent once took `t1 * t1` for `a * a`).
#[differentiable(jvp)]
fn user_and_temporary_alike(x: f64) -> f64 {
    let t1 = x.sin();
    (x * 3.0).exp() * t1
}

#[test]
fn a_user_name_equal_to_a_temporary_is_another_value() {
    for x in [-0.7, 0.2, 1.3] {
        let (_, t) = user_and_temporary_alike_jvp(x, 1.0);
        let want = (3.0 * x).exp() * (3.0 * x.sin() + x.cos());
        assert!(
            (t - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{t} vs {want}"
        );
    }
}

/// A user's trait with a `min` on `usize`, in scope where generated code takes the length of a
/// loop over a sub-slice zipped with a slice (the shorter one's) and where a binomial
/// checkpoint schedule splits a loop: a method call `.min(..)` there would be ambiguous with
/// `Ord::min`.
mod own_min {
    use stackgrad::differentiable;

    pub trait Smaller {
        fn min(self, other: Self) -> Self;
    }

    impl Smaller for usize {
        fn min(self, other: usize) -> usize {
            if self < other { self } else { other }
        }
    }

    #[allow(clippy::needless_range_loop)]
    #[differentiable]
    pub fn chain(x: &[f64; 12]) -> f64 {
        let mut s = 0.5;
        #[checkpoint(snapshots = 3, binomial)]
        for t in 0..12 {
            s = (s * 0.9 + x[t]).sin();
        }
        s
    }

    #[differentiable(wrt(a, b), jvp)]
    pub fn zipped(a: &[f64], b: &[f64]) -> f64 {
        let mut s = 0.0;
        for (x, y) in a[1..a.len()].iter().zip(b) {
            s += x.sin() * y;
        }
        s
    }
}

#[test]
fn a_users_min_does_not_clash() {
    let (a, b) = ([5.0, 0.3, -1.1, 0.8], [2.0, 0.5, -0.7, 9.0]);
    let (mut ga, mut gb) = ([7.0; 4], [7.0; 4]);
    let (v, ()) = own_min::zipped_grad(&a, &b, &mut ga, &mut gb);
    // Closed form over the three pairs (a[i + 1], b[i]): d/da_{i+1} = cos(a_{i+1}) b_i,
    // d/db_i = sin(a_{i+1}); a[0] and b[3] unread.
    let want_v: f64 = (0..3).map(|i| a[i + 1].sin() * b[i]).sum();
    assert!((v - want_v).abs() <= 1e-14, "{v} vs {want_v}");
    for i in 0..3 {
        assert!((ga[i + 1] - a[i + 1].cos() * b[i]).abs() <= 1e-14, "{ga:?}");
        assert!((gb[i] - a[i + 1].sin()).abs() <= 1e-14, "{gb:?}");
    }
    assert_eq!((ga[0], gb[3]), (0.0, 0.0));
    let (ta, tb) = ([3.0, 1.0, -0.5, 0.25], [0.0, 2.0, 1.0, 3.0]);
    let (_, t) = own_min::zipped_jvp(&a, &b, &ta, &tb);
    let want: f64 = (0..4).map(|i| ga[i] * ta[i] + gb[i] * tb[i]).sum();
    assert!((t - want).abs() <= 1e-14, "{t} vs {want}");
}

#[test]
fn a_users_min_does_not_clash_with_a_binomial_schedule() {
    let x: [f64; 12] = ::core::array::from_fn(|i| 0.1 * i as f64 - 0.4);
    let (v, g) = own_min::chain_grad(&x);
    assert_eq!(v, own_min::chain(&x));
    for i in 0..12 {
        let h = 1e-6;
        let (mut up, mut down) = (x, x);
        up[i] += h;
        down[i] -= h;
        let want = (own_min::chain(&up) - own_min::chain(&down)) / (2.0 * h);
        assert!((g[i] - want).abs() <= 1e-8, "{i}: {} vs {want}", g[i]);
    }
}
