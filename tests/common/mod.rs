//! Shared numerical checks for the integration tests: seeded sample points, and a gradient checker
//! that compares a generated gradient with central finite differences of the user's own function.
//!
//! On failure the checker panics with the failing points (both gradients side by side) and the
//! largest difference it saw, so a failing run says where to look.

// Every integration test binary includes this module and uses a subset of it.
#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The fewest points any gradient check runs.
pub const MIN_POINTS: usize = 20;

/// Relative tolerance for f64 gradients.
///
/// With the step `h = cbrt(eps) * L` used below, where `L` is the length over which the function
/// changes character, a central difference is off by about `h^2 |f'''| / 6 + eps |f| / h`, which is
/// about `eps^(2/3) |f| / L ~ 4e-11 |f| / L`, while the gradient itself is of order `|f| / L`.
/// `1e-6` leaves four orders of magnitude for the constants; a wrong derivative rule is off by O(1).
pub const F64_RTOL: f64 = 1e-6;

/// Relative tolerance for f32 code: 100 f32 ulps. The f32 formulas under test are short chains of
/// well-conditioned operations on moderate inputs (a few ulps each); the reference is an f64
/// finite difference, accurate to about 1e-10, so the f32 rounding dominates.
pub const F32_RTOL: f64 = 100.0 * f32::EPSILON as f64;

/// The rounding noise of a central difference, in ulps of `|f|` per step: each evaluation of `f`
/// is a chain of rounded operations, good to a few dozen ulps, and the difference of two of them is
/// divided by `2h`. This matters only where a gradient entry is small next to `|f| / h` (a
/// cancelling derivative of a large function); elsewhere it is far below `rtol`.
const ROUNDING_ULPS: f64 = 64.0;

/// How many failing points a report lists before it summarises.
const REPORTED_FAILURES: usize = 5;

/// `n` seeded values in `[lo, hi)`.
pub fn data(seed: u64, n: usize, lo: f64, hi: f64) -> Vec<f64> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(lo..hi)).collect()
}

/// `count` points drawn by `draw` from a generator seeded with `seed`.
pub fn sample<const N: usize>(
    seed: u64,
    count: usize,
    mut draw: impl FnMut(&mut SmallRng) -> [f64; N],
) -> Vec<[f64; N]> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count).map(|_| draw(&mut rng)).collect()
}

/// `count` points, coordinate `i` uniform in `ranges[i]` (half-open).
pub fn uniform<const N: usize>(seed: u64, count: usize, ranges: [(f64, f64); N]) -> Vec<[f64; N]> {
    sample(seed, count, |rng| {
        ranges.map(|(lo, hi)| rng.gen_range(lo..hi))
    })
}

/// A positive distance, log-uniform in `[1e-6, 1e-2]`: how far a "near" point sits from a branch
/// point, a kink or a singularity.
pub fn tiny(rng: &mut SmallRng) -> f64 {
    10f64.powf(rng.gen_range(-6.0..-2.0))
}

/// [`tiny`] with a random sign.
pub fn near_zero(rng: &mut SmallRng) -> f64 {
    let magnitude = tiny(rng);
    if rng.gen_bool(0.5) {
        magnitude
    } else {
        -magnitude
    }
}

/// The points rounded to f32 (so f32 code and its f64 reference see the same inputs exactly).
pub fn round_to_f32<const N: usize>(points: Vec<[f64; N]>) -> Vec<[f64; N]> {
    points
        .into_iter()
        .map(|point| point.map(|x| f64::from(x as f32)))
        .collect()
}

/// Concatenation of point sets.
pub fn concat<const N: usize>(sets: &[Vec<[f64; N]>]) -> Vec<[f64; N]> {
    sets.concat()
}

/// `cbrt(eps)`: the relative step that balances a central difference's truncation error against
/// its rounding error.
fn relative_step() -> f64 {
    f64::EPSILON.cbrt()
}

/// Central difference of `f` along coordinate `i` at `x` with step `h`.
fn central_difference<const N: usize>(
    f: &impl Fn([f64; N]) -> f64,
    x: [f64; N],
    i: usize,
    h: f64,
) -> f64 {
    let mut plus = x;
    plus[i] = x[i] + h;
    let mut minus = x;
    minus[i] = x[i] - h;
    // Divide by the step actually taken: `x +- h` is rounded, their difference is exact.
    (f(plus) - f(minus)) / (plus[i] - minus[i])
}

/// One point where the generated gradient (or value) disagrees with the reference.
struct Failure<const N: usize> {
    point: [f64; N],
    value: f64,
    reference_value: f64,
    gradient: [f64; N],
    finite_difference: [f64; N],
}

/// A gradient check: a name for the report, tolerances, and where the function stops being smooth.
///
/// The finite-difference step along coordinate `i` is
/// `min(cbrt(eps) * min(max(1, |x_i|), scale_i), kink / 2)`:
/// - `scale_i` is the distance to a singularity along `i` (a pole, the end of a domain). Near one,
///   the derivatives grow like powers of `1 / scale_i`, so the step must shrink in proportion for
///   the truncation error to stay relative.
/// - `kink` is the distance to the nearest kink or jump (abs, max, a branch switch). The function is
///   smooth on either side, so the step only has to stay short of it.
pub struct GradCheck<const N: usize> {
    name: &'static str,
    rtol: f64,
    value_rtol: f64,
    kink: fn(&[f64; N]) -> f64,
    scale: fn(&[f64; N]) -> [f64; N],
}

impl<const N: usize> GradCheck<N> {
    /// An f64 check: gradients to [`F64_RTOL`], values exactly equal to the user's function.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            rtol: F64_RTOL,
            value_rtol: 0.0,
            kink: |_| f64::INFINITY,
            scale: |_| [f64::INFINITY; N],
        }
    }

    /// The distance from a point to the nearest kink or jump of the function.
    pub fn kink(mut self, kink: fn(&[f64; N]) -> f64) -> Self {
        self.kink = kink;
        self
    }

    /// Per coordinate, the distance from a point to the nearest singularity along that coordinate.
    pub fn scale(mut self, scale: fn(&[f64; N]) -> [f64; N]) -> Self {
        self.scale = scale;
        self
    }

    /// Looser gradient tolerance, for a function whose curvature demands it (say why at the call).
    pub fn rtol(mut self, rtol: f64) -> Self {
        self.rtol = rtol;
        self
    }

    /// f32 code checked against an f64 twin: gradient and value to [`F32_RTOL`].
    pub fn f32(mut self) -> Self {
        self.rtol = F32_RTOL;
        self.value_rtol = F32_RTOL;
        self
    }

    /// Checks `grad` (value, gradient) against `f` and its central differences at every point.
    ///
    /// A gradient entry passes when `|g - fd| <= rtol * max(1, |fd|) + 64 eps |f| / h`: the
    /// tolerance scales with the reference (so a wildly wrong `g` cannot loosen its own bound),
    /// plus the finite difference's own rounding noise. NaN never passes.
    pub fn run(
        &self,
        points: &[[f64; N]],
        f: impl Fn([f64; N]) -> f64,
        grad: impl Fn([f64; N]) -> (f64, [f64; N]),
    ) {
        assert!(
            points.len() >= MIN_POINTS,
            "{}: {} points, a check needs at least {MIN_POINTS}",
            self.name,
            points.len()
        );
        let mut failures = Vec::new();
        // (difference / tolerance, difference, point, coordinate)
        let mut largest: (f64, f64, [f64; N], usize) = (0.0, 0.0, points[0], 0);
        for &point in points {
            let kink = (self.kink)(&point);
            let scale = (self.scale)(&point);
            assert!(
                kink > 0.0 && scale.iter().all(|&s| s > 0.0),
                "{}: point {point:?} sits on a kink or singularity; finite differences are meaningless there",
                self.name
            );
            let reference_value = f(point);
            let (value, gradient) = grad(point);
            let steps: [f64; N] = core::array::from_fn(|i| {
                (relative_step() * point[i].abs().max(1.0).min(scale[i])).min(kink / 2.0)
            });
            let finite_difference: [f64; N] =
                core::array::from_fn(|i| central_difference(&f, point, i, steps[i]));
            let value_tolerance = self.value_rtol * reference_value.abs().max(1.0);
            let mut ok = (value - reference_value).abs() <= value_tolerance;
            for i in 0..N {
                let difference = (gradient[i] - finite_difference[i]).abs();
                let rounding = ROUNDING_ULPS * f64::EPSILON * reference_value.abs() / steps[i];
                let tolerance = self.rtol * finite_difference[i].abs().max(1.0) + rounding;
                let ratio = difference / tolerance;
                // A NaN difference compares false, so it fails.
                ok &= difference <= tolerance;
                if ratio.is_nan() || ratio > largest.0 {
                    largest = (ratio, difference, point, i);
                }
            }
            if !ok {
                failures.push(Failure {
                    point,
                    value,
                    reference_value,
                    gradient,
                    finite_difference,
                });
            }
        }
        if failures.is_empty() {
            return;
        }
        let mut report = format!(
            "{}: {} of {} points fail (|g - fd| <= {:e} * max(1, |fd|) + {ROUNDING_ULPS} eps |f| / h, value within {:e} relative)\n",
            self.name,
            failures.len(),
            points.len(),
            self.rtol,
            self.value_rtol
        );
        for failure in failures.iter().take(REPORTED_FAILURES) {
            report += &format!(
                "  at {:?}: generated gradient {:?}, finite difference {:?}; value {:?}, reference {:?}\n",
                failure.point,
                failure.gradient,
                failure.finite_difference,
                failure.value,
                failure.reference_value
            );
        }
        if failures.len() > REPORTED_FAILURES {
            report += &format!("  ... and {} more\n", failures.len() - REPORTED_FAILURES);
        }
        let (ratio, difference, point, i) = largest;
        report += &format!(
            "  largest difference: {difference:e} in d/dx{i} at {point:?} ({ratio:.3e} x the tolerance)"
        );
        panic!("{report}");
    }
}

impl GradCheck<1> {
    /// [`GradCheck::run`] for `f(x)` and its generated `f_grad(x) -> (value, d_x)`.
    pub fn unary(&self, points: &[[f64; 1]], f: fn(f64) -> f64, grad: fn(f64) -> (f64, f64)) {
        self.run(
            points,
            |[x]| f(x),
            |[x]| {
                let (value, d_x) = grad(x);
                (value, [d_x])
            },
        );
    }
}

impl GradCheck<2> {
    /// [`GradCheck::run`] for `f(x, y)` and its generated `f_grad`.
    pub fn binary(
        &self,
        points: &[[f64; 2]],
        f: fn(f64, f64) -> f64,
        grad: fn(f64, f64) -> (f64, (f64, f64)),
    ) {
        self.run(
            points,
            |[x, y]| f(x, y),
            |[x, y]| {
                let (value, (d_x, d_y)) = grad(x, y);
                (value, [d_x, d_y])
            },
        );
    }
}

/// The generated `f_grad` of a function of three floats.
pub type Grad3 = fn(f64, f64, f64) -> (f64, (f64, f64, f64));

impl GradCheck<3> {
    /// [`GradCheck::run`] for `f(x, y, z)` and its generated `f_grad`.
    pub fn ternary(&self, points: &[[f64; 3]], f: fn(f64, f64, f64) -> f64, grad: Grad3) {
        self.run(
            points,
            |[x, y, z]| f(x, y, z),
            |[x, y, z]| {
                let (value, (d_x, d_y, d_z)) = grad(x, y, z);
                (value, [d_x, d_y, d_z])
            },
        );
    }
}

/// `count` points with every coordinate uniform in `lo..hi`.
pub fn cube<const N: usize>(seed: u64, count: usize, lo: f64, hi: f64) -> Vec<[f64; N]> {
    sample(seed, count, |rng| {
        core::array::from_fn(|_| rng.gen_range(lo..hi))
    })
}

/// A value made of a fixed run of float coordinates: `f64`, `f32`, arrays of any depth, tuples,
/// and user structs (each test implements it for its own). Functions of arrays and structs are
/// checked on flat points: the inputs are read from a point in order, and the gradient is written
/// in the same order, so coordinate `i` of the gradient is the derivative along coordinate `i`.
pub trait Flat: Sized {
    /// Reads a value from the front of `coordinates` and advances past it.
    fn read(coordinates: &mut &[f64]) -> Self;
    /// Appends the coordinates of `self`.
    fn write(&self, out: &mut Vec<f64>);
}

impl Flat for f64 {
    fn read(coordinates: &mut &[f64]) -> f64 {
        let (&first, rest) = coordinates
            .split_first()
            .expect("the point has fewer coordinates than the inputs");
        *coordinates = rest;
        first
    }

    fn write(&self, out: &mut Vec<f64>) {
        out.push(*self);
    }
}

/// f32 inputs come from points rounded with [`round_to_f32`], so the conversion is exact.
impl Flat for f32 {
    fn read(coordinates: &mut &[f64]) -> f32 {
        f64::read(coordinates) as f32
    }

    fn write(&self, out: &mut Vec<f64>) {
        out.push(f64::from(*self));
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    fn read(coordinates: &mut &[f64]) -> Self {
        core::array::from_fn(|_| T::read(coordinates))
    }

    fn write(&self, out: &mut Vec<f64>) {
        for item in self {
            item.write(out);
        }
    }
}

macro_rules! flat_tuple {
    ($($name:ident)+) => {
        impl<$($name: Flat),+> Flat for ($($name,)+) {
            fn read(coordinates: &mut &[f64]) -> Self {
                ($($name::read(coordinates),)+)
            }

            #[allow(non_snake_case)]
            fn write(&self, out: &mut Vec<f64>) {
                let ($($name,)+) = self;
                $($name.write(out);)+
            }
        }
    };
}

flat_tuple!(A);
flat_tuple!(A B);
flat_tuple!(A B C);
flat_tuple!(A B C D);

/// The value whose coordinates are exactly `point`.
pub fn unflatten<T: Flat>(point: &[f64]) -> T {
    let mut rest = point;
    let value = T::read(&mut rest);
    assert!(
        rest.is_empty(),
        "the point has {} more coordinates than the inputs",
        rest.len()
    );
    value
}

/// The `N` coordinates of `value`.
pub fn flatten<T: Flat, const N: usize>(value: &T) -> [f64; N] {
    let mut out = Vec::with_capacity(N);
    value.write(&mut out);
    out.try_into()
        .unwrap_or_else(|out: Vec<f64>| panic!("{} coordinates, expected {N}", out.len()))
}

/// `sum_k weights_k * value_k` over the coordinates: the scalar whose gradient is the
/// vector-Jacobian product with `weights`, for checking the adjoint of an array-valued function.
pub fn weighted<T: Flat>(weights: &T, value: &T) -> f64 {
    let (mut w, mut v) = (Vec::new(), Vec::new());
    weights.write(&mut w);
    value.write(&mut v);
    w.iter().zip(&v).map(|(w, v)| w * v).sum()
}

impl<const N: usize> GradCheck<N> {
    /// [`GradCheck::run`] for a function of arrays and structs: `f` and `grad` see the inputs `I`
    /// read from each point, and `grad` returns the value and the gradient `G`, whose coordinates
    /// line up with `I`'s (the generated `f_grad`'s tuple, or one array for one parameter).
    pub fn flat<I: Flat, G: Flat>(
        &self,
        points: &[[f64; N]],
        f: impl Fn(&I) -> f64,
        grad: impl Fn(&I) -> (f64, G),
    ) {
        self.run(
            points,
            |point| f(&unflatten(&point)),
            |point| {
                let (value, gradient) = grad(&unflatten(&point));
                (value, flatten(&gradient))
            },
        );
    }
}

/// Asserts `|actual - expected| <= rtol * max(1, |expected|)`, naming what was compared.
#[track_caller]
pub fn assert_close(what: &str, actual: f64, expected: f64, rtol: f64) {
    let tolerance = rtol * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: got {actual:?}, expected {expected:?} (difference {:e}, tolerance {tolerance:e})",
        (actual - expected).abs()
    );
}

/// A forward-mode check: at every point, along a seeded random direction `t` (coordinates
/// uniform in `[-1, 1]`), `jvp(x, t)` must return `f(x)` exactly, a tangent equal to the
/// reverse gradient's `∇f · t` up to rounding (`1e-10` relative to `Σ |∂_i f| |t_i|`), and
/// a tangent equal to the central difference of `f` along `t` to `rtol` (as in
/// [`GradCheck::run`]: relative to `max(1, |fd|)`, plus the difference's rounding noise).
/// `kink` is the distance to the nearest kink along any coordinate: the step stays short of it.
pub fn check_jvp<const N: usize>(
    name: &str,
    points: &[[f64; N]],
    kink: fn(&[f64; N]) -> f64,
    f: impl Fn([f64; N]) -> f64,
    grad: impl Fn([f64; N]) -> (f64, [f64; N]),
    jvp: impl Fn([f64; N], [f64; N]) -> (f64, f64),
) {
    check_jvp_rtol(name, points, kink, F64_RTOL, f, grad, jvp);
}

/// [`check_jvp`] with the finite-difference tolerance given (f32 code: [`F32_RTOL`]; the
/// comparison with the gradient then allows f32 rounding too).
pub fn check_jvp_rtol<const N: usize>(
    name: &str,
    points: &[[f64; N]],
    kink: fn(&[f64; N]) -> f64,
    rtol: f64,
    f: impl Fn([f64; N]) -> f64,
    grad: impl Fn([f64; N]) -> (f64, [f64; N]),
    jvp: impl Fn([f64; N], [f64; N]) -> (f64, f64),
) {
    assert!(
        points.len() >= MIN_POINTS,
        "{name}: {} points, a check needs at least {MIN_POINTS}",
        points.len()
    );
    let directions = cube::<N>(0x7a9, points.len(), -1.0, 1.0);
    let exact = if rtol > F64_RTOL { rtol } else { 1e-10 };
    for (&x, &t) in points.iter().zip(&directions) {
        let reference = f(x);
        let (value, tangent) = jvp(x, t);
        let (_, g) = grad(x);
        assert!(
            value == reference || (value.is_nan() && reference.is_nan()),
            "{name}: at {x:?} the jvp's value {value:?} differs from f's {reference:?}"
        );
        let dot: f64 = g.iter().zip(&t).map(|(g, t)| g * t).sum();
        let scale: f64 = g.iter().zip(&t).map(|(g, t)| (g * t).abs()).sum();
        assert!(
            (tangent - dot).abs() <= exact * scale.max(1.0),
            "{name}: at {x:?} along {t:?} the jvp {tangent:?} differs from the gradient's ∇f·t {dot:?}"
        );
        // A step along t: cbrt(eps) in units of the point's size, short of the nearest kink.
        let norm = t.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let size = x.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        let h = (relative_step() * size / norm).min(kink(&x) / (2.0 * norm));
        let at = |s: f64| f(core::array::from_fn(|i| x[i] + s * t[i]));
        let fd = (at(h) - at(-h)) / (2.0 * h);
        let rounding = ROUNDING_ULPS * f64::EPSILON * reference.abs() / h;
        let tolerance = rtol * fd.abs().max(1.0) + rounding;
        assert!(
            (tangent - fd).abs() <= tolerance,
            "{name}: at {x:?} along {t:?} the jvp {tangent:?} differs from the central difference {fd:?} (tolerance {tolerance:e})"
        );
    }
}

/// [`check_jvp`] for a function of arrays and structs: inputs and tangents `I` read from flat
/// points, the gradient `G` lined up with `I`'s coordinates.
pub fn check_jvp_flat<I: Flat, G: Flat, const N: usize>(
    name: &str,
    points: &[[f64; N]],
    kink: fn(&[f64; N]) -> f64,
    f: impl Fn(&I) -> f64,
    grad: impl Fn(&I) -> (f64, G),
    jvp: impl Fn(&I, &I) -> (f64, f64),
) {
    check_jvp(
        name,
        points,
        kink,
        |x| f(&unflatten(&x)),
        |x| {
            let (value, g) = grad(&unflatten(&x));
            (value, flatten(&g))
        },
        |x, t| jvp(&unflatten(&x), &unflatten(&t)),
    );
}

/// `f_hvp` at each point along a seeded direction `v`: its value must equal `f_grad`'s bit for
/// bit, its gradient `f_grad`'s to rounding, and `H v` the central difference of `f_grad`
/// along `v` (each coordinate within `rtol * max(1, |fd|)` plus rounding of the gradient over
/// the step). `kink` bounds the step as in [`check_jvp`].
pub fn check_hvp<const N: usize>(
    name: &str,
    points: &[[f64; N]],
    kink: fn(&[f64; N]) -> f64,
    rtol: f64,
    grad: impl Fn([f64; N]) -> (f64, [f64; N]),
    hvp: impl Fn([f64; N], [f64; N]) -> (f64, [f64; N], [f64; N]),
) {
    assert!(
        points.len() >= MIN_POINTS,
        "{name}: {} points, a check needs at least {MIN_POINTS}",
        points.len()
    );
    let directions = cube::<N>(0x5e7, points.len(), -1.0, 1.0);
    let exact = if rtol > F64_RTOL { rtol } else { 1e-10 };
    for (&x, &v) in points.iter().zip(&directions) {
        let (value, g, hv) = hvp(x, v);
        let (reference, g_ref) = grad(x);
        assert!(
            value == reference,
            "{name}: at {x:?} the hvp's value {value:?} differs from the gradient's {reference:?}"
        );
        let g_scale = g_ref.iter().fold(1.0_f64, |m, a| m.max(a.abs()));
        for i in 0..N {
            assert!(
                (g[i] - g_ref[i]).abs() <= exact * g_scale,
                "{name}: at {x:?} the hvp's gradient {g:?} differs from f_grad's {g_ref:?}"
            );
        }
        let norm = v.iter().fold(0.0_f64, |m, a| m.max(a.abs()));
        let size = x.iter().fold(1.0_f64, |m, a| m.max(a.abs()));
        let h = (relative_step() * size / norm).min(kink(&x) / (2.0 * norm));
        let at = |s: f64| grad(core::array::from_fn(|i| x[i] + s * v[i])).1;
        let (plus, minus) = (at(h), at(-h));
        for i in 0..N {
            let fd = (plus[i] - minus[i]) / (2.0 * h);
            let rounding = ROUNDING_ULPS * f64::EPSILON * g_scale / h;
            let tolerance = rtol * fd.abs().max(1.0) + rounding;
            assert!(
                (hv[i] - fd).abs() <= tolerance,
                "{name}: at {x:?} along {v:?}, (H v)[{i}] = {:?} differs from the central difference of the gradient {fd:?} (tolerance {tolerance:e})",
                hv[i]
            );
        }
    }
}

/// [`check_hvp`] for a function of arrays and structs: inputs, directions and gradients read
/// from and written to flat points.
pub fn check_hvp_flat<I: Flat, G: Flat, const N: usize>(
    name: &str,
    points: &[[f64; N]],
    kink: fn(&[f64; N]) -> f64,
    grad: impl Fn(&I) -> (f64, G),
    hvp: impl Fn(&I, &I) -> (f64, G, G),
) {
    check_hvp(
        name,
        points,
        kink,
        F64_RTOL,
        |x| {
            let (value, g) = grad(&unflatten(&x));
            (value, flatten(&g))
        },
        |x, v| {
            let (value, g, hv) = hvp(&unflatten(&x), &unflatten(&v));
            (value, flatten(&g), flatten(&hv))
        },
    );
}

/// Central differences of `f` at `x`, one coordinate at a time (step `1e-6` relative).
pub fn central<const N: usize>(f: impl Fn(&[f64; N]) -> f64, x: &[f64; N]) -> [f64; N] {
    let mut g = [0.0; N];
    for i in 0..N {
        let h = 1e-6 * x[i].abs().max(1.0);
        let (mut a, mut b) = (*x, *x);
        a[i] += h;
        b[i] -= h;
        g[i] = (f(&a) - f(&b)) / (2.0 * h);
    }
    g
}

/// Asserts that `a` is `b` to `1e-6` relative (of `1 + |b|`), naming `what`.
pub fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-6 * (1.0 + b.abs()),
        "{what}: {a} against central differences {b}"
    );
}

/// A function of two arrays `x: &[f64; A]` and `y: &[f64; B]` differentiated with `jvp` and
/// `hvp`, the same function written by index (`plain`), and what the macro generates for it.
#[allow(clippy::type_complexity)]
pub struct Pair<const A: usize, const B: usize> {
    pub f: fn(&[f64; A], &[f64; B]) -> f64,
    pub plain: fn(&[f64; A], &[f64; B]) -> f64,
    pub grad: fn(&[f64; A], &[f64; B]) -> (f64, ([f64; A], [f64; B])),
    pub jvp: fn(&[f64; A], &[f64; B], &[f64; A], &[f64; B]) -> (f64, f64),
    pub hvp: fn(
        &[f64; A],
        &[f64; B],
        &[f64; A],
        &[f64; B],
    ) -> (f64, ([f64; A], [f64; B]), ([f64; A], [f64; B])),
}

impl<const A: usize, const B: usize> Pair<A, B> {
    /// At 30 seeded points of `[-1.2, 1.2]^N` (`N = A + B`, `x`'s coordinates first): the
    /// value against `plain` (to 1e-13), the gradient against central differences, the
    /// tangent and `H v` by [`check_jvp`] and [`check_hvp`].
    pub fn check<const N: usize>(&self, name: &'static str, seed: u64) {
        assert_eq!(A + B, N, "{name}: N is the coordinates of x and y");
        let split = |q: [f64; N]| -> ([f64; A], [f64; B]) {
            (q[..A].try_into().unwrap(), q[A..].try_into().unwrap())
        };
        let join = |(a, b): ([f64; A], [f64; B])| {
            let mut q = [0.0; N];
            q[..A].copy_from_slice(&a);
            q[A..].copy_from_slice(&b);
            q
        };
        let points = cube::<N>(seed, 30, -1.2, 1.2);
        let grad = |q: [f64; N]| {
            let (x, y) = split(q);
            let (value, g) = (self.grad)(&x, &y);
            (value, join(g))
        };
        GradCheck::new(name).run(
            &points,
            |q| {
                let (x, y) = split(q);
                let value = (self.f)(&x, &y);
                assert_close(name, value, (self.plain)(&x, &y), 1e-13);
                value
            },
            grad,
        );
        check_jvp(
            name,
            &points,
            |_| 1.0,
            |q| (self.f)(&split(q).0, &split(q).1),
            grad,
            |q, t| {
                let ((x, y), (t_x, t_y)) = (split(q), split(t));
                (self.jvp)(&x, &y, &t_x, &t_y)
            },
        );
        check_hvp(
            name,
            &points,
            |_| 1.0,
            1e-6,
            grad,
            |q, v| {
                let ((x, y), (v_x, v_y)) = (split(q), split(v));
                let (value, g, h) = (self.hvp)(&x, &y, &v_x, &v_y);
                (value, join(g), join(h))
            },
        );
    }
}
