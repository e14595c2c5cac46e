//! The checker every generated crate runs its programs under (written into the crate by
//! `genprog`; not compiled as part of `genprog` itself).
//!
//! Each generated function's inputs and gradients are flattened into `f64` coordinates. The
//! gradient is compared with central finite differences of the f64 reference twin at two step
//! sizes: when the two disagree the coordinate is near a kink or a jump and is skipped, not
//! failed. Each line on stdout is one record for the driver:
//! `FAIL <program> <function> <kind> <count> <detail>` and a final
//! `SUMMARY <points> <compared> <mismatches> <skipped>`.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

/// A value made of float coordinates, read and written in a fixed order.
pub trait Flat: Sized {
    fn read(c: &mut &[f64]) -> Self;
    fn write(&self, out: &mut Vec<f64>);
}

impl Flat for f64 {
    fn read(c: &mut &[f64]) -> f64 {
        let (first, rest) = c.split_first().expect("too few coordinates");
        *c = rest;
        *first
    }

    fn write(&self, out: &mut Vec<f64>) {
        out.push(*self);
    }
}

impl Flat for f32 {
    fn read(c: &mut &[f64]) -> f32 {
        f64::read(c) as f32
    }

    fn write(&self, out: &mut Vec<f64>) {
        out.push(f64::from(*self));
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    fn read(c: &mut &[f64]) -> Self {
        std::array::from_fn(|_| T::read(c))
    }

    fn write(&self, out: &mut Vec<f64>) {
        for item in self {
            item.write(out);
        }
    }
}

macro_rules! flat_tuple {
    ($($name:ident $index:tt)*) => {
        impl<$($name: Flat),*> Flat for ($($name,)*) {
            #[allow(clippy::unused_unit)]
            fn read(c: &mut &[f64]) -> Self {
                ($($name::read(c),)*)
            }

            #[allow(unused_variables)]
            fn write(&self, out: &mut Vec<f64>) {
                $(self.$index.write(out);)*
            }
        }
    };
}

flat_tuple!();
flat_tuple!(A 0);
flat_tuple!(A 0 B 1);
flat_tuple!(A 0 B 1 C 2);
flat_tuple!(A 0 B 1 C 2 D 3);
flat_tuple!(A 0 B 1 C 2 D 3 E 4);
flat_tuple!(A 0 B 1 C 2 D 3 E 4 G 5);
flat_tuple!(A 0 B 1 C 2 D 3 E 4 G 5 H 6);

/// The value whose coordinates are exactly `point`.
pub fn unflat<T: Flat>(point: &[f64]) -> T {
    let mut rest = point;
    let value = T::read(&mut rest);
    assert!(rest.is_empty(), "{} coordinates too many", rest.len());
    value
}

pub fn flat<T: Flat>(value: &T) -> Vec<f64> {
    let mut out = Vec::new();
    value.write(&mut out);
    out
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// splitmix64: a tiny seeded generator, so the generated crate needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// The relative finite-difference step, `cbrt(eps)`.
const STEP: f64 = 6.055e-6;
/// Gradient tolerance relative to `max(1, |fd|)`: f64 code, and code that rounds to f32.
const RTOL_F64: f64 = 1e-5;
const RTOL_F32: f64 = 2e-3;
/// Two step sizes disagreeing by more than this (relative) mean a kink or a jump nearby.
const KINK: f64 = 1e-4;

struct Failure {
    kind: &'static str,
    count: usize,
    /// How far past its tolerance the worst case was.
    badness: f64,
    detail: String,
}

pub struct Ctx {
    seed: u64,
    rng: Rng,
    pub points: usize,
    point_index: usize,
    n_points: u64,
    compared: u64,
    mismatches: u64,
    skipped: u64,
    failures: Vec<Failure>,
}

impl Ctx {
    /// A uniform point in [-1.5, 1.5]^n (rounded to f32 for f32 code, so both twins see it).
    pub fn point(&mut self, n: usize, single: bool) -> Vec<f64> {
        self.n_points += 1;
        self.point_index += 1;
        (0..n)
            .map(|_| {
                let x = self.rng.uniform(-1.5, 1.5);
                if single { f64::from(x as f32) } else { x }
            })
            .collect()
    }

    /// A cotangent seed for an output with `n` coordinates (exact in f32).
    pub fn seed(&mut self, n: usize) -> Vec<f64> {
        (0..n)
            .map(|_| f64::from(self.rng.uniform(-1.5, 1.5) as f32))
            .collect()
    }

    /// Known nonzero values for gradient buffers, exact in f32.
    pub fn prefill(&self, n: usize) -> Vec<f64> {
        (0..n)
            .map(|k| if k % 2 == 0 { 0.25 } else { -0.5 } * (1.0 + (k % 5) as f64 * 0.125))
            .collect()
    }

    pub fn fail(&mut self, kind: &'static str, badness: f64, detail: String) {
        self.mismatches += 1;
        let badness = if badness.is_nan() {
            f64::INFINITY
        } else {
            badness
        };
        let at = format!("{detail} (point {})", self.point_index);
        match self.failures.iter_mut().find(|f| f.kind == kind) {
            Some(f) => {
                f.count += 1;
                if badness > f.badness {
                    f.badness = badness;
                    f.detail = at;
                }
            }
            None => self.failures.push(Failure {
                kind,
                count: 1,
                badness,
                detail: at,
            }),
        }
    }

    /// Bit-for-bit equality of two flattened values.
    pub fn same(&mut self, kind: &'static str, got: &[f64], want: &[f64]) {
        self.compared += 1;
        let equal = got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(a, b)| a.to_bits() == b.to_bits());
        if !equal {
            self.fail(kind, 1.0, format!("{got:?} != {want:?}"));
        }
    }

    /// Forward against reverse mode: `w · jt` (the jvp's tangent weighted by the output seed)
    /// equals `once · dir` (the adjoint's gradient along the tangent direction), to rounding of
    /// the terms `once_i dir_i` and `w_j jt_j` (relative `2^-30` in f64, `2^-12` in f32).
    pub fn tangent(&mut self, jt: &[f64], w: &[f64], once: &[f64], dir: &[f64], single: bool) {
        self.compared += 1;
        let forward: f64 = jt.iter().zip(w).map(|(a, b)| a * b).sum();
        let reverse: f64 = once.iter().zip(dir).map(|(a, b)| a * b).sum();
        let scale: f64 = jt.iter().zip(w).map(|(a, b)| (a * b).abs()).sum::<f64>()
            + once.iter().zip(dir).map(|(a, b)| (a * b).abs()).sum::<f64>();
        // Relative to the terms, with a floor for a derivative that cancels to (nearly) zero
        // inside the function, where the sweeps round the cancelling terms differently
        // (`v - (v as f32 as f64)`: the tangent goes through the cast rounded, the cotangent
        // 1.0 exactly).
        let (rel, floor) = if single {
            (2f64.powi(-12), 1e-7)
        } else {
            (2f64.powi(-30), 1e-14)
        };
        let diff = (forward - reverse).abs();
        let tol = rel * scale + floor;
        if !(diff <= tol) {
            self.fail(
                "jvp",
                diff / tol,
                format!("w · jvp = {forward:e}, gradient · t = {reverse:e}"),
            );
        }
    }

    /// Two gradients of one function computed by different sweeps (`f_hvp`'s and `f_grad`'s):
    /// equal to rounding, relative to the size of the whole vector, with the floor of
    /// [`Ctx::tangent`] for a gradient that cancels to (nearly) zero (seed 122, p087: `g(a, p)
    /// - g(b, p)`, whose derivative in `p` is two equal terms, 5.4e-19 against 3.0e-19).
    pub fn close(&mut self, kind: &'static str, got: &[f64], want: &[f64], single: bool) {
        self.compared += 1;
        let scale: f64 = want.iter().chain(got).map(|v| v.abs()).sum::<f64>();
        let (rel, floor) = if single {
            (2f64.powi(-12), 1e-7)
        } else {
            (2f64.powi(-30), 1e-14)
        };
        let tol = rel * scale + floor;
        let worst = (got.len() == want.len())
            .then(|| got.iter().zip(want).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max))
            .unwrap_or(f64::INFINITY);
        if !(worst <= tol) {
            self.fail(
                kind,
                worst / tol,
                format!("{got:?} != {want:?}"),
            );
        }
    }

    /// `w · (H v) == v · (H w)`: the Hessian is symmetric, to rounding of the terms.
    pub fn symmetric(&mut self, hv: &[f64], hw: &[f64], v: &[f64], w: &[f64], single: bool) {
        self.compared += 1;
        let a: f64 = w.iter().zip(hv).map(|(x, y)| x * y).sum();
        let b: f64 = v.iter().zip(hw).map(|(x, y)| x * y).sum();
        let scale = w.iter().zip(hv).map(|(x, y)| (x * y).abs()).sum::<f64>()
            + v.iter().zip(hw).map(|(x, y)| (x * y).abs()).sum::<f64>();
        if !scale.is_finite() {
            self.skipped += 1;
            return;
        }
        // Relative to the terms, with a floor for products that cancel to (nearly) zero.
        let (rel, floor) = if single {
            (2f64.powi(-10), 1e-5)
        } else {
            (2f64.powi(-28), 1e-12)
        };
        let tol = rel * scale + floor;
        if !((a - b).abs() <= tol) {
            self.fail(
                "hvp symmetry",
                (a - b).abs() / tol,
                format!("w · Hv = {a:e}, v · Hw = {b:e}"),
            );
        }
    }

    /// `w · (H v)` against central differences of the gradient along `v` (steps h and h/2,
    /// Richardson-extrapolated; skipped across a kink, where the two steps disagree).
    pub fn hessian(
        &mut self,
        point: &[f64],
        wrt: &[bool],
        v: &[f64],
        w: &[f64],
        hv: &[f64],
        grad_at: &dyn Fn(&[f64]) -> Vec<f64>,
    ) {
        let at = |h: f64| -> Vec<f64> {
            let mut q = point.to_vec();
            let mut j = 0;
            for (i, &on) in wrt.iter().enumerate() {
                if on {
                    q[i] += h * v[j];
                    j += 1;
                }
            }
            q
        };
        let wdot = |g: &[f64]| -> f64 { g.iter().zip(w).map(|(a, b)| a * b).sum() };
        let g0 = wdot(&grad_at(point));
        let scale_x = point.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let h = 1e-4 * scale_x;
        let central = |h: f64| (wdot(&grad_at(&at(h))) - wdot(&grad_at(&at(-h)))) / (2.0 * h);
        let (d1, d2) = (central(h), central(h / 2.0));
        if !d1.is_finite() || !d2.is_finite() || !g0.is_finite() {
            self.skipped += 1;
            return;
        }
        let noise = 1e3 * f64::EPSILON * (g0.abs() + 1.0) / (h / 2.0);
        let scale = d2.abs().max(1.0);
        if (d1 - d2).abs() > 1e-3 * scale + noise {
            self.skipped += 1;
            return;
        }
        let fd = d2 + (d2 - d1) / 3.0;
        let got = wdot(hv);
        let tol = 1e-5 * scale + 2.0 * (d1 - d2).abs() + 4.0 * noise;
        self.compared += 1;
        if !((got - fd).abs() <= tol) {
            self.fail(
                "hvp",
                (got - fd).abs() / tol,
                format!("w · Hv = {got:e}, central differences of the gradient {fd:e} (h: {d1:e}, h/2: {d2:e}), tolerance {tol:.1e}, at {point:?}"),
            );
        }
    }

    /// `after == pre + 2 * once` to rounding: an adjoint seeded with twice the cotangent adds
    /// twice the gradient into buffers that already hold `pre`.
    pub fn accumulate(
        &mut self,
        pre: &[f64],
        once: &[f64],
        after: &[f64],
        single: bool,
        names: &[&str],
    ) {
        let eps = if single {
            f64::from(f32::EPSILON)
        } else {
            f64::EPSILON
        };
        for i in 0..pre.len() {
            self.compared += 1;
            let want = pre[i] + 2.0 * once[i];
            let tol = 64.0 * eps * (pre[i].abs() + 2.0 * once[i].abs() + 1e-30);
            let diff = (after[i] - want).abs();
            if !(diff <= tol) {
                self.fail(
                    "accumulate",
                    diff / tol,
                    format!(
                        "d/d{}: buffer {:e} after d_out = 2, want {:e} + 2 * {:e} = {want:e}",
                        names[i], after[i], pre[i], once[i]
                    ),
                );
            }
        }
    }

    /// The generated gradient `g` (of the differentiated coordinates, `wrt[i]`) against central
    /// differences of `f` at `point`. `value` is the code under test's own value of `f` there.
    pub fn gradient(
        &mut self,
        point: &[f64],
        wrt: &[bool],
        g: &[f64],
        f: &dyn Fn(&[f64]) -> f64,
        value: f64,
        single: bool,
        names: &[&str],
    ) {
        let n = wrt.iter().filter(|&&w| w).count();
        if g.len() != n {
            self.fail(
                "gradient",
                f64::INFINITY,
                format!("{} gradient coordinates, want {n}", g.len()),
            );
            return;
        }
        let f0 = f(point);
        if !f0.is_finite() {
            self.skipped += n as u64;
            return;
        }
        // f32 code that took another branch than its f64 twin: not comparable. Rounding to f32
        // moves the value by about 1e-6 relative; a branch taken differently can move it by less
        // than 1e-3 and still change the gradient (seed 3, p022: 2.3e-4), so the bar is 1e-4.
        if single && (value - f0).abs() > 1e-4 * (1.0 + f0.abs()) {
            self.skipped += n as u64;
            return;
        }
        let mut j = 0;
        for (i, &w) in wrt.iter().enumerate() {
            if !w {
                continue;
            }
            let gi = g[j];
            j += 1;
            let central = |h: f64| {
                let mut q = point.to_vec();
                q[i] = point[i] + h;
                let plus = f(&q);
                q[i] = point[i] - h;
                let minus = f(&q);
                (plus - minus) / ((point[i] + h) - (point[i] - h))
            };
            let h = STEP * point[i].abs().max(1.0);
            let (d1, d2) = (central(h), central(h / 2.0));
            if !d1.is_finite() || !d2.is_finite() {
                self.skipped += 1;
                continue;
            }
            let noise = 1e3 * f64::EPSILON * (f0.abs() + 1.0) / (h / 2.0);
            let scale = d2.abs().max(1.0);
            if (d1 - d2).abs() > KINK * scale + noise {
                self.skipped += 1;
                continue;
            }
            let fd = d2 + (d2 - d1) / 3.0;
            let rtol = if single { RTOL_F32 } else { RTOL_F64 };
            let tol = rtol * scale + 2.0 * (d1 - d2).abs() + 4.0 * noise;
            let diff = (gi - fd).abs();
            self.compared += 1;
            if !(diff <= tol) {
                self.fail(
                    "gradient",
                    diff / tol,
                    format!(
                        "d/d{} = {gi:e}, finite difference {fd:e} (steps h: {d1:e}, h/2: {d2:e}), tolerance {tol:.1e}, at {point:?}",
                        names[i]
                    ),
                );
            }
        }
    }
}

static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// The checks of one program: (function, check).
pub type Checks = &'static [(&'static str, fn(&mut Ctx))];

/// Runs every check and prints the records.
pub fn run(seed: u64, points: usize, programs: &[(&str, Checks)]) {
    // On a thread of 1 GiB of stack (reserved, not touched): `f_grad` keeps a function's tape
    // on the stack, and this unoptimized build copies it more than once (seed 10's p059, a
    // tape of 1.9 MB, overflowed the main thread's 8 MiB).
    std::thread::scope(|scope| {
        let checks = std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(scope, || run_here(seed, points, programs))
            .expect("a thread for the checks");
        checks.join().expect("the checks catch their panics");
    });
}

fn run_here(seed: u64, points: usize, programs: &[(&str, Checks)]) {
    panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *PANIC.lock().unwrap() = Some(format!("{message}{location}"));
    }));
    let mut ctx = Ctx {
        seed,
        rng: Rng(seed),
        points,
        point_index: 0,
        n_points: 0,
        compared: 0,
        mismatches: 0,
        skipped: 0,
        failures: Vec::new(),
    };
    for (program, checks) in programs {
        for (function, check) in checks.iter() {
            let mut h = ctx.seed;
            for b in program.bytes().chain(function.bytes()) {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
            }
            ctx.rng = Rng(h);
            ctx.point_index = 0;
            let result = panic::catch_unwind(AssertUnwindSafe(|| check(&mut ctx)));
            if result.is_err() {
                let message = PANIC.lock().unwrap().take().unwrap_or_default();
                ctx.fail("panic", f64::INFINITY, message);
            }
            for f in ctx.failures.drain(..) {
                let detail = f.detail.replace(['\t', '\n'], " ");
                println!(
                    "FAIL\t{program}\t{function}\t{}\t{}\t{detail}",
                    f.kind, f.count
                );
            }
        }
    }
    println!(
        "SUMMARY\t{}\t{}\t{}\t{}",
        ctx.n_points, ctx.compared, ctx.mismatches, ctx.skipped
    );
}
