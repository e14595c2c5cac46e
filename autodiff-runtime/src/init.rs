//! Parameter initializers: fill a tensor's flat slice from a caller-seeded random generator.
//!
//! The same generator state gives the same values bit for bit: every initializer draws a fixed
//! number of `f64`s per element in order and uses no global state. Combine with
//! [`Parameters::for_each_tensor_mut`](crate::Parameters::for_each_tensor_mut) to initialize a model
//! by shape or name.
//!
//! Fans follow PyTorch: a weight of shape `[out, in, k...]` has `fan_in = in * k...` and
//! `fan_out = out * k...` (see [`fans`]).
//!
//! The generators are `rand` 0.8's: seed them through the re-export, [`crate::rand`]
//! (`stackgrad::rand` from the `stackgrad` crate), as below. A `rand` added to your own
//! `Cargo.toml` may be another major version, whose generators do not implement these traits.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::init;
//! use autodiff_runtime::rand::{SeedableRng, rngs::SmallRng};
//!
//! let mut w = [[0.0f32; 4]; 3]; // shape [3, 4]: 3 outputs, 4 inputs
//! let mut rng = SmallRng::seed_from_u64(7);
//! init::xavier_uniform(w.as_flattened_mut(), init::fans(&[3, 4]), 1.0, &mut rng);
//! let bound = (6.0f32 / 7.0).sqrt();
//! assert!(w.as_flattened().iter().all(|x| x.abs() <= bound));
//! ```

use rand::Rng;

use crate::math::{self, Float};

/// Number of inputs and outputs feeding one weight, for the variance-scaling initializers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fans {
    /// Inputs per output unit.
    pub fan_in: usize,
    /// Outputs per input unit.
    pub fan_out: usize,
}

/// Fans of a tensor of shape `[out, in, k...]`, as PyTorch computes them: a vector `[n]` has
/// `fan_in = fan_out = n`, a scalar has both `1`. A fan larger than `usize::MAX` (only a shape no
/// tensor can have) is `usize::MAX`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::init::{Fans, fans};
///
/// assert_eq!(fans(&[8, 3]), Fans { fan_in: 3, fan_out: 8 });
/// assert_eq!(fans(&[16, 3, 5, 5]), Fans { fan_in: 75, fan_out: 400 });
/// assert_eq!(fans(&[2, usize::MAX, 3]).fan_in, usize::MAX);
/// ```
#[must_use]
pub fn fans(shape: &[usize]) -> Fans {
    match shape {
        [] => Fans {
            fan_in: 1,
            fan_out: 1,
        },
        [n] => Fans {
            fan_in: *n,
            fan_out: *n,
        },
        [out, inp, rest @ ..] => {
            let receptive = rest.iter().fold(1, |p: usize, k| p.saturating_mul(*k));
            Fans {
                fan_in: inp.saturating_mul(receptive),
                fan_out: out.saturating_mul(receptive),
            }
        }
    }
}

/// Sets every value to `0`.
pub fn zeros<F: Float>(values: &mut [F]) {
    values.fill(F::ZERO);
}

/// Sets every value to `1`.
pub fn ones<F: Float>(values: &mut [F]) {
    values.fill(F::ONE);
}

/// Draws each value uniformly from `[low, high)`, one `f64` per element.
pub fn uniform<F: Float, R: Rng + ?Sized>(values: &mut [F], low: f64, high: f64, rng: &mut R) {
    for v in values {
        *v = F::from_f64(low + (high - low) * rng.r#gen::<f64>());
    }
}

/// Draws each value from the normal distribution with mean `mean` and standard deviation `std`
/// (Box-Muller: two `f64`s per pair of elements).
pub fn normal<F: Float, R: Rng + ?Sized>(values: &mut [F], mean: f64, std: f64, rng: &mut R) {
    for pair in values.chunks_mut(2) {
        let (z0, z1) = standard_normal_pair(rng);
        pair[0] = F::from_f64(mean + std * z0);
        if let Some(second) = pair.get_mut(1) {
            *second = F::from_f64(mean + std * z1);
        }
    }
}

/// Two independent standard normal numbers from two uniform ones.
fn standard_normal_pair<R: Rng + ?Sized>(rng: &mut R) -> (f64, f64) {
    let u1 = 1.0 - rng.r#gen::<f64>(); // in (0, 1], so ln is finite
    let u2 = rng.r#gen::<f64>();
    let r = math::sqrt(-2.0 * math::ln(u1));
    let theta = 2.0 * core::f64::consts::PI * u2;
    (r * math::cos(theta), r * math::sin(theta))
}

/// Draws each value from the normal distribution `N(mean, std^2)` restricted to `[low, high]`
/// (absolute bounds, like `torch.nn.init.trunc_normal_`), by inverting the normal CDF: one `f64` per
/// element, no rejection loop.
///
/// # Panics
///
/// If the bounds are not finite with `low < high`, `mean` is not finite, or `std` is not
/// positive and finite (a NaN would fill `values` with NaN).
#[track_caller]
pub fn truncated_normal<F: Float, R: Rng + ?Sized>(
    values: &mut [F],
    mean: f64,
    std: f64,
    low: f64,
    high: f64,
    rng: &mut R,
) {
    assert!(
        low.is_finite() && high.is_finite() && low < high,
        "need finite bounds with low < high"
    );
    assert!(mean.is_finite(), "mean must be finite, got {mean}");
    assert!(
        std > 0.0 && std.is_finite(),
        "std must be positive and finite, got {std}"
    );
    let p_low = normal_cdf((low - mean) / std);
    let p_high = normal_cdf((high - mean) / std);
    for v in values {
        let p = p_low + (p_high - p_low) * rng.r#gen::<f64>();
        let x = mean + std * normal_quantile(p);
        *v = F::from_f64(x.clamp(low, high));
    }
}

/// Xavier/Glorot uniform: `U(-a, a)` with `a = gain * sqrt(6 / (fan_in + fan_out))`.
pub fn xavier_uniform<F: Float, R: Rng + ?Sized>(
    values: &mut [F],
    fans: Fans,
    gain: f64,
    rng: &mut R,
) {
    let a = gain * math::sqrt(6.0 / fan_sum(fans));
    uniform(values, -a, a, rng);
}

/// Xavier/Glorot normal: `N(0, s^2)` with `s = gain * sqrt(2 / (fan_in + fan_out))`.
pub fn xavier_normal<F: Float, R: Rng + ?Sized>(
    values: &mut [F],
    fans: Fans,
    gain: f64,
    rng: &mut R,
) {
    normal(values, 0.0, gain * math::sqrt(2.0 / fan_sum(fans)), rng);
}

/// He/Kaiming uniform for ReLU layers: `U(-a, a)` with `a = sqrt(6 / fan)`; pass `fan_in` to keep
/// the forward variance, `fan_out` for the backward one.
pub fn he_uniform<F: Float, R: Rng + ?Sized>(values: &mut [F], fan: usize, rng: &mut R) {
    let a = math::sqrt(6.0 / usize_to_f64(fan.max(1)));
    uniform(values, -a, a, rng);
}

/// He/Kaiming normal for ReLU layers: `N(0, 2 / fan)`.
pub fn he_normal<F: Float, R: Rng + ?Sized>(values: &mut [F], fan: usize, rng: &mut R) {
    normal(values, 0.0, math::sqrt(2.0 / usize_to_f64(fan.max(1))), rng);
}

/// `fan_in + fan_out` (at least 1), in `f64` so that it cannot overflow.
fn fan_sum(fans: Fans) -> f64 {
    (usize_to_f64(fans.fan_in) + usize_to_f64(fans.fan_out)).max(1.0)
}

#[allow(clippy::cast_precision_loss)]
fn usize_to_f64(n: usize) -> f64 {
    n as f64
}

/// The standard normal CDF `P(Z <= x)`.
fn normal_cdf(x: f64) -> f64 {
    0.5 * math::erfc(-x / core::f64::consts::SQRT_2)
}

/// The standard normal quantile (inverse CDF) for `p` in `(0, 1)`: P. J. Acklam's rational
/// approximation (relative error below 1.2e-9), refined by one Halley step on [`normal_cdf`].
/// Returns `-inf` at `p = 0` and `inf` at `p = 1`.
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.02425;

    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let poly = |coeffs: &[f64], x: f64| coeffs.iter().fold(0.0, |acc, c| acc * x + c);
    let tail = |q: f64| poly(&C, q) / (poly(&D, q) * q + 1.0);
    let x = if p < P_LOW {
        tail(math::sqrt(-2.0 * math::ln(p)))
    } else if p > 1.0 - P_LOW {
        -tail(math::sqrt(-2.0 * math::ln(1.0 - p)))
    } else {
        let q = p - 0.5;
        let r = q * q;
        poly(&A, r) * q / (poly(&B, r) * r + 1.0)
    };
    let e = normal_cdf(x) - p;
    let u = e * math::sqrt(2.0 * core::f64::consts::PI) * math::exp(x * x / 2.0);
    x - u / (1.0 + x * u / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn quantile_matches_tabulated_values() {
        // Standard normal quantiles from statistical tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.1).
        let table = [
            (0.5, 0.0),
            (0.975, 1.959_963_984_540_054),
            (0.001, -3.090_232_306_167_813_5),
            (0.841_344_746_068_542_9, 1.0),
            (1e-10, -6.361_340_902_404_056),
        ];
        for (p, z) in table {
            let got = normal_quantile(p);
            assert!(
                (got - z).abs() <= 1e-12 * z.abs().max(1.0),
                "quantile({p}) = {got}, want {z}"
            );
        }
    }

    #[test]
    fn quantile_inverts_the_cdf() {
        for i in 1..1000 {
            let p = f64::from(i) / 1000.0;
            let back = normal_cdf(normal_quantile(p));
            assert!((back - p).abs() < 1e-14, "cdf(quantile({p})) = {back}");
        }
    }

    /// Mean and variance of a slice.
    fn moments(xs: &[f64]) -> (f64, f64) {
        let n = usize_to_f64(xs.len());
        let mean = xs.iter().sum::<f64>() / n;
        (
            mean,
            xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n,
        )
    }

    #[test]
    fn distributions_have_their_moments() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut xs = [0.0f64; 20_001];
        // With n = 20001 the standard error of the mean is std / 141; tolerances are about 4 of them.
        normal(&mut xs, 2.0, 3.0, &mut rng);
        let (m, v) = moments(&xs);
        assert!(
            (m - 2.0).abs() < 0.09 && (v - 9.0).abs() < 0.4,
            "normal: mean {m}, var {v}"
        );

        uniform(&mut xs, -1.0, 3.0, &mut rng);
        let (m, v) = moments(&xs);
        assert!(xs.iter().all(|x| (-1.0..3.0).contains(x)));
        assert!(
            (m - 1.0).abs() < 0.04 && (v - 16.0 / 12.0).abs() < 0.05,
            "uniform: mean {m}, var {v}"
        );

        // N(0, 1) truncated to [-1, 2]: mean (phi(-1) - phi(2)) / Z, with Z = Phi(2) - Phi(-1).
        truncated_normal(&mut xs, 0.0, 1.0, -1.0, 2.0, &mut rng);
        let z = 0.977_249_868_051_820_8 - 0.158_655_253_931_457_05;
        let want_mean = (0.241_970_724_519_143_37 - 0.053_990_966_513_188_06) / z;
        let (m, _) = moments(&xs);
        assert!(xs.iter().all(|x| (-1.0..=2.0).contains(x)));
        assert!(
            (m - want_mean).abs() < 0.03,
            "truncated normal: mean {m}, want {want_mean}"
        );
    }

    #[test]
    #[should_panic(expected = "mean must be finite, got NaN")]
    fn a_truncated_normal_of_nan_mean_is_refused() {
        let mut xs = [0.0f32; 4];
        truncated_normal(
            &mut xs,
            f64::NAN,
            1.0,
            -1.0,
            2.0,
            &mut SmallRng::seed_from_u64(3),
        );
    }

    #[test]
    fn scaled_initializers_respect_their_bounds_and_scale() {
        let mut rng = SmallRng::seed_from_u64(2);
        let mut w = [0.0f32; 10_000];
        let f = Fans {
            fan_in: 30,
            fan_out: 20,
        };
        xavier_uniform(&mut w, f, 2.0, &mut rng);
        let a = 2.0 * (6.0f32 / 50.0).sqrt();
        assert!(w.iter().all(|x| x.abs() <= a));
        assert!(
            w.iter().any(|x| x.abs() > 0.95 * a),
            "xavier_uniform should reach near its bound"
        );

        he_normal(&mut w, 50, &mut rng);
        let var = w.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>() / 10_000.0;
        assert!((var - 2.0 / 50.0).abs() < 0.004, "he_normal variance {var}");

        xavier_normal(&mut w, f, 1.0, &mut rng);
        let var = w.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>() / 10_000.0;
        assert!(
            (var - 2.0 / 50.0).abs() < 0.004,
            "xavier_normal variance {var}"
        );

        he_uniform(&mut w, 24, &mut rng);
        assert!(w.iter().all(|x| x.abs() <= 0.5));
        zeros(&mut w);
        assert!(w.iter().all(|x| *x == 0.0));
        ones(&mut w);
        assert!(w.iter().all(|x| *x == 1.0));
    }

    #[test]
    fn huge_fans_saturate_instead_of_overflowing() {
        // `in * k` and `fan_in + fan_out` overflowed: a panic in debug builds, a wrapped (tiny)
        // fan and so a far too wide initialization in release builds.
        let huge = usize::MAX / 2 + 1;
        assert_eq!(
            fans(&[3, huge, 2]),
            Fans {
                fan_in: usize::MAX,
                fan_out: 6
            }
        );
        assert_eq!(fans(&[huge, 3, 2, huge]).fan_out, usize::MAX);
        let mut rng = SmallRng::seed_from_u64(3);
        let mut w = [0.0f64; 64];
        let f = Fans {
            fan_in: usize::MAX,
            fan_out: usize::MAX,
        };
        let bound = (6.0 / (2.0 * usize_to_f64(usize::MAX))).sqrt();
        xavier_uniform(&mut w, f, 1.0, &mut rng);
        assert!(w.iter().all(|x| x.abs() <= bound), "{w:?}");
        xavier_normal(&mut w, f, 1.0, &mut rng);
        assert!(w.iter().all(|x| x.abs() <= 10.0 * bound), "{w:?}");
    }

    #[test]
    fn same_seed_same_bits_and_odd_lengths_are_filled() {
        let draw = |seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut w = [f32::NAN; 7];
            normal(&mut w, 0.0, 1.0, &mut rng);
            let mut t = [f64::NAN; 3];
            truncated_normal(&mut t, 0.0, 0.02, -0.04, 0.04, &mut rng);
            (w.map(f32::to_bits), t.map(f64::to_bits))
        };
        assert_eq!(draw(9), draw(9));
        assert_ne!(draw(9), draw(10));
        assert!(draw(9).0.iter().all(|b| !f32::from_bits(*b).is_nan()));
    }
}
