//! Vector forward mode: `f_jvp_vec::<W>` carries `W` directions through one sweep. Each of its
//! lanes is checked against `f_jvp` along that direction alone (to rounding) and against central
//! differences of the user's own function along it, for W = 1, 4 and 8, on scalar methods with
//! branches, loops over arrays updated in place, an RNN, and ADBench's GMM objective (array
//! parameters, a `wrt` subset, const generics).

#![allow(clippy::needless_range_loop)]

mod common;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stackgrad::differentiable;

#[path = "models/gmm.rs"]
mod gmm;

/// Scalar methods, a branch on a value, a kink.
#[differentiable(jvp)]
fn scalars(x: f64, y: f64) -> f64 {
    let a = (x * y).exp() / (1.0 + y * y) + x.sin() * y.cos();
    let b = if a > 1.0 {
        a.ln()
    } else {
        a.abs() + x.atan2(y)
    };
    (b * b + 1.0).sqrt() - x.powi(3) * y.max(0.2 * x)
}

/// Loops over an array, an array updated in place, an array output.
#[differentiable(jvp)]
fn arrays(x: &[f64; 6], w: f64) -> [f64; 2] {
    let mut v = [0.0; 6];
    for i in 0..6 {
        for j in 0..=i {
            v[i] += x[j] * (w * j as f64).cos();
        }
    }
    for i in (1..6).rev() {
        v[i - 1] = v[i - 1] * v[i].tanh() + w;
    }
    [v[0] * v[1], v[2] - v[5] / (1.0 + w * w)]
}

/// An RNN over 30 steps.
#[differentiable(jvp)]
fn rnn(x: &[f64; 30], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..30 {
        h = (w * h + u * x[t]).tanh();
    }
    h * h
}

/// A callee with an array result.
#[differentiable(jvp)]
fn rotate(v: &[f64; 2], a: f64) -> [f64; 2] {
    let (s, c) = (a.sin(), a.cos());
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

/// A callee differentiated in `x` only, with an integer parameter.
#[differentiable(jvp, wrt(x))]
fn damped(x: f64, k: f64, n: usize) -> f64 {
    let mut y = x;
    for _ in 0..n {
        y = (k * y).tanh() + 0.5 * y;
    }
    y
}

/// Calls in vector mode: an array result bound with its type, a float result inside a loop, a
/// `wrt(..)` callee passed a constant and an integer, a call written into an array element, a
/// call that overwrites its own argument (`acc = damped(acc, ..)`) and one that shadows it;
/// each call takes its tangent lane by lane through `g_jvp_call`.
#[differentiable(jvp)]
fn with_calls(x: &[f64; 4], a: f64) -> [f64; 2] {
    let v = [x[0], x[1]];
    let r: [f64; 2] = rotate(&v, a);
    let mut acc = 0.0;
    for i in 0..4 {
        acc += damped(x[i] * r[i % 2], 0.7, 3);
        acc = damped(acc, 0.9, 1);
    }
    let r: [f64; 2] = rotate(&r, acc);
    let mut out = [0.0; 2];
    out[0] = damped(acc, 1.3, 2);
    out[0] *= r[1];
    let u = [acc, x[3]];
    let q: [f64; 2] = rotate(&u, a * x[2]);
    out[1] = q[0] - q[1];
    out
}

/// A const-generic callee, called with its constants named.
#[differentiable(jvp)]
fn weigh<const N: usize>(v: &[f64; N], w: &[f64; N], s: f64) -> [f64; 2] {
    let mut d = 0.0;
    for i in 0..N {
        d += v[i] * w[i];
    }
    [d * s, (d + s).sin()]
}

const WEIGHTS: [f64; 3] = [0.5, -1.25, 2.0];
const SCALE: f64 = 0.75;

/// Calls that name their callee's constants (`weigh::<3>(..)`) in vector mode: each lane one
/// `weigh_jvp::<3>` call, as `f_jvp` calls it, with a `const` item (no tangent) in either
/// array's place or the float's, and a literal.
#[differentiable(jvp)]
fn named_calls(x: &[f64; 3], a: f64) -> [f64; 2] {
    let r: [f64; 2] = weigh::<3>(x, &WEIGHTS, a);
    let m = [a, 1.0];
    let q: [f64; 2] = weigh::<2>(&r, &m, 0.5);
    let z: [f64; 2] = weigh::<3>(&WEIGHTS, x, q[1]);
    let y: [f64; 2] = weigh::<2>(&m, &z, SCALE);
    [q[0] + z[1] * y[0], q[1] * r[0] + z[0] - y[1]]
}

/// Innermost loops of a split nest's tangents as flat rows of lanes (a triangle reading rows of
/// `l` at `a * (7 - a) / 2 + b - a - 1`, a backward inclusive range with rows at offsets and a
/// row of `m`'s row), beside inner loops that stay lane by lane (an index of stride 2, a tangent
/// the same in every iteration, two indices of one array, a rule with a branch); `x` is data.
#[differentiable(jvp, wrt(l, m))]
fn lane_rows(l: &[f64; 10], m: &[[f64; 3]; 2], x: &[f64; 4]) -> [f64; 2] {
    // A triangle: the lanes of `l` from `a * (7 - a) / 2` and of `q` from `a + 1`, one flat
    // loop per `a`.
    let mut q = [0.0; 4];
    for a in 0..4 {
        for b in a + 1..4 {
            // Values the tangent half computes again, the same for every `b`: computed once
            // before the flat loop.
            let c = (0.5 * x[a]).exp();
            let e = c * x[a];
            q[b] += l[a * (7 - a) / 2 + b - a - 1] * e;
        }
    }
    // An inclusive range run backwards; rows at offsets, and of a row of `m`.
    let mut r = [0.0; 5];
    for k in 0..2 {
        for j in (0..=2).rev() {
            r[j + 1] += m[k][j] * x[k] - 0.5 * l[j + 4];
        }
    }
    // Lane by lane: an index of stride 2, a tangent the same in every iteration, two indices
    // of one array, a rule with a branch.
    for k in 0..2 {
        for j in 0..2 {
            r[j] += l[2 * j] * x[k];
        }
        for j in 0..3 {
            r[j + 2] -= q[k] * x[j];
        }
        for j in 0..3 {
            q[j] = q[j] * x[k] + l[j + 1] * l[j];
        }
        for j in 0..3 {
            q[j + 1] += m[k][j].max(x[k]);
        }
    }
    let mut s = 0.0;
    for d in 0..4 {
        s += q[d] * q[d];
    }
    [s + r[0], r[1] * r[2] + r[3] - r[4].sin()]
}

/// Values carried from one iteration of a split nest's inner loop to the next (a factor halved
/// and an index counted in the loop), which the tangent half computes again: its inner loop
/// stays lane by lane, each lane reading them as its iteration does.
#[differentiable(jvp, wrt(l))]
#[allow(clippy::explicit_counter_loop)]
fn counters(l: &[f64; 3], x: &[f64; 6]) -> f64 {
    let mut q = [0.0; 3];
    for a in 0..2 {
        let mut c = 1.0;
        let mut j = 3 * a;
        for b in 0..3 {
            q[b] += l[b] * c * x[j];
            c *= 0.5;
            j += 1;
        }
    }
    q[0] * q[1] + q[2]
}

/// Calls in vector mode over `f32`: each lane through the callee's `f32` tangent.
#[differentiable(jvp)]
fn square32(x: f32) -> f32 {
    x * x
}

/// A const-generic `f32` callee, called with its constants named and an array that carries no
/// tangent (its zero tangent an `f32` array, as the callee takes it).
#[differentiable(jvp)]
fn dot32<const N: usize>(v: &[f32; N], w: &[f32; N]) -> f32 {
    let mut s = 0.0;
    for i in 0..N {
        s += v[i] * w[i];
    }
    s
}

#[differentiable(jvp)]
fn named32(v: &[f32; 3], a: f32) -> f32 {
    let c: [f32; 3] = [1.0, -2.0, 0.5];
    dot32::<3>(v, &c) * a + dot32::<3>(&c, &c)
}

#[differentiable(jvp)]
fn scaled32(v: &[f32; 3], a: f32) -> f32 {
    let mut s = 0.0;
    for i in 0..3 {
        s += square32(v[i] * a);
    }
    s
}

/// The value and each lane's derivative: `f_jvp_vec` against `f_jvp` per direction, and
/// central differences of `f` along it (`h` = 1e-6, relative tolerance 1e-6).
fn check<const N: usize, const M: usize, const W: usize>(
    name: &str,
    points: &[[f64; N]],
    seed: u64,
    f: impl Fn(&[f64; N]) -> [f64; M],
    jvp: impl Fn(&[f64; N], &[f64; N]) -> ([f64; M], [f64; M]),
    jvp_vec: impl Fn(&[f64; N], &[[f64; W]; N]) -> ([f64; M], [[f64; W]; M]),
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for p in points {
        let t: [[f64; W]; N] =
            core::array::from_fn(|_| core::array::from_fn(|_| rng.gen_range(-1.0..1.0)));
        let (value, lanes) = jvp_vec(p, &t);
        assert_eq!(value, f(p), "{name}: the value");
        for l in 0..W {
            let dir: [f64; N] = core::array::from_fn(|i| t[i][l]);
            let (v1, one) = jvp(p, &dir);
            assert_eq!(v1, value, "{name}");
            let h = 1e-6;
            let plus = f(&core::array::from_fn(|i| p[i] + h * dir[i]));
            let minus = f(&core::array::from_fn(|i| p[i] - h * dir[i]));
            for k in 0..M {
                let got = lanes[k][l];
                let scale = one[k].abs().max(1.0);
                assert!(
                    (got - one[k]).abs() <= 1e-12 * scale,
                    "{name} lane {l} out {k}: {got} vs f_jvp {}",
                    one[k]
                );
                let fd = (plus[k] - minus[k]) / (2.0 * h);
                assert!(
                    (got - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                    "{name} lane {l} out {k}: {got} vs differences {fd}"
                );
            }
        }
    }
}

fn points<const N: usize>(seed: u64, count: usize, lo: f64, hi: f64) -> Vec<[f64; N]> {
    common::cube::<N>(seed, count, lo, hi)
}

fn scalars_all<const W: usize>(seed: u64) {
    check::<2, 1, W>(
        "scalars",
        &points(seed, 20, 0.2, 1.5),
        seed,
        |p| [scalars(p[0], p[1])],
        |p, t| {
            let (v, d) = scalars_jvp(p[0], p[1], t[0], t[1]);
            ([v], [d])
        },
        |p, t| {
            let (v, d) = scalars_jvp_vec::<W>(p[0], p[1], t[0], t[1]);
            ([v], [d])
        },
    );
}

fn arrays_all<const W: usize>(seed: u64) {
    let split = |p: &[f64; 7]| -> ([f64; 6], f64) { (core::array::from_fn(|i| p[i]), p[6]) };
    check::<7, 2, W>(
        "arrays",
        &points(seed, 20, -1.0, 1.0),
        seed,
        |p| {
            let (x, w) = split(p);
            arrays(&x, w)
        },
        |p, t| {
            let ((x, w), (tx, tw)) = (split(p), split(t));
            arrays_jvp(&x, w, &tx, tw)
        },
        |p, t| {
            let (x, w) = split(p);
            let tx: [[f64; W]; 6] = core::array::from_fn(|i| t[i]);
            arrays_jvp_vec::<W>(&x, w, &tx, t[6])
        },
    );
}

fn rnn_all<const W: usize>(seed: u64) {
    let split =
        |p: &[f64; 32]| -> ([f64; 30], f64, f64) { (core::array::from_fn(|i| p[i]), p[30], p[31]) };
    check::<32, 1, W>(
        "rnn",
        &points(seed, 10, -0.9, 0.9),
        seed,
        |p| {
            let (x, w, u) = split(p);
            [rnn(&x, w, u)]
        },
        |p, t| {
            let ((x, w, u), (tx, tw, tu)) = (split(p), split(t));
            let (v, d) = rnn_jvp(&x, w, u, &tx, tw, tu);
            ([v], [d])
        },
        |p, t| {
            let (x, w, u) = split(p);
            let tx: [[f64; W]; 30] = core::array::from_fn(|i| t[i]);
            let (v, d) = rnn_jvp_vec::<W>(&x, w, u, &tx, t[30], t[31]);
            ([v], [d])
        },
    );
}

fn with_calls_all<const W: usize>(seed: u64) {
    let split = |p: &[f64; 5]| -> ([f64; 4], f64) { (core::array::from_fn(|i| p[i]), p[4]) };
    check::<5, 2, W>(
        "with_calls",
        &points(seed, 20, -1.0, 1.0),
        seed,
        |p| {
            let (x, a) = split(p);
            with_calls(&x, a)
        },
        |p, t| {
            let ((x, a), (tx, ta)) = (split(p), split(t));
            with_calls_jvp(&x, a, &tx, ta)
        },
        |p, t| {
            let (x, a) = split(p);
            let tx: [[f64; W]; 4] = core::array::from_fn(|i| t[i]);
            with_calls_jvp_vec::<W>(&x, a, &tx, t[4])
        },
    );
}

fn named_calls_all<const W: usize>(seed: u64) {
    let split = |p: &[f64; 4]| -> ([f64; 3], f64) { (core::array::from_fn(|i| p[i]), p[3]) };
    check::<4, 2, W>(
        "named_calls",
        &points(seed, 20, -1.0, 1.0),
        seed,
        |p| {
            let (x, a) = split(p);
            named_calls(&x, a)
        },
        |p, t| {
            let ((x, a), (tx, ta)) = (split(p), split(t));
            named_calls_jvp(&x, a, &tx, ta)
        },
        |p, t| {
            let (x, a) = split(p);
            let tx: [[f64; W]; 3] = core::array::from_fn(|i| t[i]);
            named_calls_jvp_vec::<W>(&x, a, &tx, t[3])
        },
    );
}

fn lane_rows_all<const W: usize>(seed: u64) {
    let x = [0.3, -0.6, 0.9, 0.45];
    let split = |p: &[f64; 16]| -> ([f64; 10], [[f64; 3]; 2]) {
        (
            core::array::from_fn(|i| p[i]),
            core::array::from_fn(|k| core::array::from_fn(|j| p[10 + 3 * k + j])),
        )
    };
    check::<16, 2, W>(
        "lane_rows",
        &points(seed, 20, -1.0, 1.0),
        seed,
        |p| {
            let (l, m) = split(p);
            lane_rows(&l, &m, &x)
        },
        |p, t| {
            let ((l, m), (tl, tm)) = (split(p), split(t));
            lane_rows_jvp(&l, &m, &x, &tl, &tm)
        },
        |p, t| {
            let (l, m) = split(p);
            let tl: [[f64; W]; 10] = core::array::from_fn(|i| t[i]);
            let tm: [[[f64; W]; 3]; 2] =
                core::array::from_fn(|k| core::array::from_fn(|j| t[10 + 3 * k + j]));
            lane_rows_jvp_vec::<W>(&l, &m, &x, &tl, &tm)
        },
    );
}

fn counters_all<const W: usize>(seed: u64) {
    let x = [0.7, -1.1, 0.4, 1.3, -0.2, 0.9];
    check::<3, 1, W>(
        "counters",
        &points(seed, 20, -1.0, 1.0),
        seed,
        |l| [counters(l, &x)],
        |l, t| {
            let (v, d) = counters_jvp(l, &x, t);
            ([v], [d])
        },
        |l, t| {
            let (v, d) = counters_jvp_vec::<W>(l, &x, t);
            ([v], [d])
        },
    );
}

#[test]
fn innermost_loops_over_flat_rows_of_lanes() {
    lane_rows_all::<1>(13);
    lane_rows_all::<3>(14);
    lane_rows_all::<4>(15);
    lane_rows_all::<8>(16);
    counters_all::<1>(17);
    counters_all::<3>(18);
    counters_all::<4>(19);
    counters_all::<8>(20);
}

/// `f32` lanes through a call: each lane against `f_jvp` and the closed form
/// `d/dt sum (v_i a)^2 = sum 2 (v_i a) (t_v_i a + v_i t_a)`.
#[test]
fn f32_lanes_through_a_call() {
    let (v, a) = ([0.5f32, -1.25, 2.0], 0.75f32);
    let tv: [[f32; 4]; 3] = [
        [1.0, 0.0, 0.5, -1.0],
        [0.0, 1.0, 0.25, 2.0],
        [0.0, 0.0, -1.5, 0.5],
    ];
    let ta = [0.0f32, 0.0, 1.0, -0.5];
    let (value, lanes) = scaled32_jvp_vec::<4>(&v, a, &tv, ta);
    assert_eq!(value, scaled32(&v, a));
    for l in 0..4 {
        let dir: [f32; 3] = core::array::from_fn(|i| tv[i][l]);
        let (_, one) = scaled32_jvp(&v, a, &dir, ta[l]);
        let closed: f32 = (0..3)
            .map(|i| 2.0 * v[i] * a * (dir[i] * a + v[i] * ta[l]))
            .sum();
        assert!(
            (lanes[l] - one).abs() <= 1e-6 * one.abs().max(1.0),
            "lane {l}"
        );
        assert!(
            (lanes[l] - closed).abs() <= 1e-5 * closed.abs().max(1.0),
            "lane {l}: {closed}"
        );
    }
}

#[test]
fn f32_lanes_through_a_call_naming_its_constants() {
    let (v, a) = ([0.5f32, -1.25, 2.0], 0.75f32);
    let tv: [[f32; 2]; 3] = [[1.0, 0.5], [0.0, 0.25], [-1.0, -1.5]];
    let ta = [0.5f32, -2.0];
    let (value, lanes) = named32_jvp_vec::<2>(&v, a, &tv, ta);
    assert_eq!(value, named32(&v, a));
    let c = [1.0f32, -2.0, 0.5];
    for l in 0..2 {
        // Closed form: d/dv = a c, d/da = v . c.
        let closed: f32 = (0..3)
            .map(|i| a * c[i] * tv[i][l] + v[i] * c[i] * ta[l])
            .sum();
        assert!(
            (lanes[l] - closed).abs() <= 1e-5 * closed.abs().max(1.0),
            "lane {l}: {} against {closed}",
            lanes[l]
        );
    }
}

#[test]
fn calls_each_lane_through_the_callee() {
    with_calls_all::<1>(10);
    with_calls_all::<4>(11);
    with_calls_all::<8>(12);
}

#[test]
fn calls_naming_their_constants_each_lane_through_g_jvp() {
    named_calls_all::<1>(13);
    named_calls_all::<4>(14);
    named_calls_all::<8>(15);
}

#[test]
fn scalar_methods_and_branches() {
    scalars_all::<1>(1);
    scalars_all::<4>(2);
    scalars_all::<8>(3);
}

#[test]
fn loops_over_arrays_and_an_array_output() {
    arrays_all::<1>(4);
    arrays_all::<4>(5);
    arrays_all::<8>(6);
}

#[test]
fn a_recurrent_network() {
    rnn_all::<1>(7);
    rnn_all::<4>(8);
    rnn_all::<8>(9);
}

/// ADBench's GMM (2 dimensions, 3 components, 1 point), differentiated with respect to its
/// three array parameters: 18 coordinates, 8 directions a sweep.
#[test]
fn the_gmm_objective() {
    type G = gmm::Gmm<2, 3, 1, 3>;
    let data: G = gmm::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/adbench/gmm/gmm_test_d2_K3_n1.txt"
    ));
    let base: [f64; 18] = common::flatten(&(data.alphas, data.means, data.icf));
    type P = ([f64; 3], [[f64; 2]; 3], [[f64; 3]; 3]);
    fn split<T: Copy + Default>(p: &[T; 18]) -> ([T; 3], [[T; 2]; 3], [[T; 3]; 3]) {
        (
            core::array::from_fn(|i| p[i]),
            core::array::from_fn(|k| core::array::from_fn(|d| p[3 + 2 * k + d])),
            core::array::from_fn(|k| core::array::from_fn(|q| p[9 + 3 * k + q])),
        )
    }
    let x = &*data.x;
    let moved: Vec<[f64; 18]> = points::<18>(10, 10, -0.5, 0.5)
        .into_iter()
        .map(|p| core::array::from_fn(|i| base[i] + p[i]))
        .collect();
    check::<18, 1, 8>(
        "gmm",
        &moved,
        11,
        |p| {
            let (a, m, q): P = split(p);
            [gmm::gmm_objective::<2, 3, 1, 3>(&a, &m, &q, x)]
        },
        |p, t| {
            let ((a, m, q), (ta, tm, tq)): (P, P) = (split(p), split(t));
            let (v, d) = gmm::gmm_objective_jvp::<2, 3, 1, 3>(&a, &m, &q, x, &ta, &tm, &tq);
            ([v], [d])
        },
        |p, t| {
            let (a, m, q): P = split(p);
            let (ta, tm, tq) = split(t);
            let (v, d) = gmm::gmm_objective_jvp_vec::<2, 3, 1, 3, 8>(&a, &m, &q, x, &ta, &tm, &tq);
            ([v], [d])
        },
    );
}
