//! `gradcheck` on hand-written adjoints with the four-item contract: correct ones pass, each kind
//! of mistake (a wrong derivative, an overwritten buffer, an ignored `d_out`) is caught.

use core::f64::consts::{PI, SQRT_2};

use autodiff_runtime::gradcheck::{self, Evaluated, GradCheck, GradCheckError};

/// The README's custom adjoint: `erf` (here `libm`'s, accurate to rounding) and its four items.
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

#[derive(Clone, Debug, Default)]
pub struct ErfTape {}

impl ErfTape {
    pub const fn new() -> Self {
        ErfTape {}
    }
}

pub fn erf_forward(x: f64, _tape: &mut ErfTape) -> f64 {
    erf(x)
}

pub fn erf_adjoint(x: f64, _tape: &ErfTape, d_out: f64, d_x: &mut f64) {
    *d_x += d_out * 2.0 / PI.sqrt() * (-x * x).exp();
}

/// What `#[differentiable]` would generate for
/// `fn normal_cdf(x, mu, sigma) -> f64 { 0.5 * (1.0 + erf((x - mu) / (sigma * SQRT_2))) }`,
/// written out: a tape holding the callee's tape and the scaled argument.
#[derive(Clone, Debug, Default)]
pub struct NormalCdfTape {
    erf: ErfTape,
    z: f64,
}

impl NormalCdfTape {
    pub const fn new() -> Self {
        NormalCdfTape {
            erf: ErfTape::new(),
            z: 0.0,
        }
    }
}

pub fn normal_cdf_forward(x: f64, mu: f64, sigma: f64, tape: &mut NormalCdfTape) -> f64 {
    tape.z = (x - mu) / (sigma * SQRT_2);
    0.5 * (1.0 + erf_forward(tape.z, &mut tape.erf))
}

#[allow(clippy::too_many_arguments)]
pub fn normal_cdf_adjoint(
    x: f64,
    mu: f64,
    sigma: f64,
    tape: &NormalCdfTape,
    d_out: f64,
    d_x: &mut f64,
    d_mu: &mut f64,
    d_sigma: &mut f64,
) {
    let mut d_z = 0.0;
    erf_adjoint(tape.z, &tape.erf, 0.5 * d_out, &mut d_z);
    let s = sigma * SQRT_2;
    *d_x += d_z / s;
    *d_mu -= d_z / s;
    *d_sigma -= d_z * (x - mu) / (s * sigma);
}

fn erf_adjoint_on_slices(x: &[f64], d_out: f64, d_x: &mut [f64]) {
    let mut tape = ErfTape::new();
    erf_forward(x[0], &mut tape);
    erf_adjoint(x[0], &tape, d_out, &mut d_x[0]);
}

#[test]
fn a_correct_custom_adjoint_passes() {
    for x in [-2.5, -0.7, 0.0, 0.3, 1.9] {
        let report = gradcheck::check(|v: &[f64]| erf(v[0]), erf_adjoint_on_slices, &[x])
            .unwrap_or_else(|e| panic!("erf at {x}: {e}"));
        let worst = report.worst.unwrap();
        assert_eq!((report.checked, worst.index), (1, 0));
        // Richardson differences in f64 are good to far better than the 1e-6 allowed.
        assert!(worst.error <= 1e-9, "{report}");
    }
    let cdf = |v: &[f64]| {
        let mut tape = NormalCdfTape::new();
        normal_cdf_forward(v[0], v[1], v[2], &mut tape)
    };
    let cdf_adjoint = |v: &[f64], d_out: f64, d: &mut [f64]| {
        let mut tape = NormalCdfTape::new();
        normal_cdf_forward(v[0], v[1], v[2], &mut tape);
        let [d_x, d_mu, d_sigma] = d else {
            panic!("three inputs")
        };
        normal_cdf_adjoint(v[0], v[1], v[2], &tape, d_out, d_x, d_mu, d_sigma);
    };
    for point in [[0.3, 0.0, 1.0], [-1.2, 0.5, 2.0], [2.5, 1.0, 0.7]] {
        let report =
            gradcheck::check(cdf, cdf_adjoint, &point).unwrap_or_else(|e| panic!("{point:?}: {e}"));
        assert_eq!(report.checked, 3);
    }
}

#[test]
fn a_wrong_derivative_is_caught_with_the_worst_element() {
    // The derivative without its factor 2: off by a factor of 2.
    let wrong = |x: &[f64], d_out: f64, d_x: &mut [f64]| {
        d_x[0] += d_out / PI.sqrt() * (-x[0] * x[0]).exp();
    };
    let err = gradcheck::check(|v: &[f64]| erf(v[0]), wrong, &[0.7]).unwrap_err();
    let GradCheckError::Mismatch(report) = err else {
        panic!("{err}")
    };
    let worst = report.worst.unwrap();
    let exact = 2.0 / PI.sqrt() * (-0.49f64).exp();
    assert_eq!(worst.index, 0);
    assert!((worst.finite_difference - exact).abs() < 1e-9, "{worst}");
    assert!((worst.adjoint - exact / 2.0).abs() < 1e-15, "{worst}");
    assert!(worst.error > worst.allowed);
    let message = err.to_string();
    assert!(
        message.starts_with(
            "the adjoint disagrees with finite differences: 1 elements checked, worst element 0"
        ),
        "{message}"
    );

    // A subtle mistake in one of three inputs: the sign of d_sigma's (x - mu), relative error 2 at
    // sigma only. The report points at element 2.
    let cdf = |v: &[f64]| {
        let mut tape = NormalCdfTape::new();
        normal_cdf_forward(v[0], v[1], v[2], &mut tape)
    };
    let wrong_sigma = |v: &[f64], d_out: f64, d: &mut [f64]| {
        let mut tape = NormalCdfTape::new();
        normal_cdf_forward(v[0], v[1], v[2], &mut tape);
        let (mut d_x, mut d_mu, mut d_sigma) = (0.0, 0.0, 0.0);
        normal_cdf_adjoint(
            v[0],
            v[1],
            v[2],
            &tape,
            d_out,
            &mut d_x,
            &mut d_mu,
            &mut d_sigma,
        );
        d[0] += d_x;
        d[1] += d_mu;
        d[2] -= d_sigma;
    };
    match gradcheck::check(cdf, wrong_sigma, &[0.3, 0.0, 1.0]) {
        Err(GradCheckError::Mismatch(report)) => assert_eq!(report.worst.unwrap().index, 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_adjoint_that_overwrites_or_ignores_d_out_breaks_the_contract() {
    let assigns = |x: &[f64], d_out: f64, d_x: &mut [f64]| {
        d_x[0] = d_out * 2.0 / PI.sqrt() * (-x[0] * x[0]).exp();
    };
    let err = gradcheck::check(|v: &[f64]| erf(v[0]), assigns, &[0.7]).unwrap_err();
    assert!(
        matches!(err, GradCheckError::Contract { index: 0, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("the adjoint must add `d_out * gradient` into its buffer: element 0"),
        "{err}"
    );
    let ignores_d_out = |x: &[f64], _d_out: f64, d_x: &mut [f64]| {
        d_x[0] += 2.0 / PI.sqrt() * (-x[0] * x[0]).exp();
    };
    let err = gradcheck::check(|v: &[f64]| erf(v[0]), ignores_d_out, &[0.7]).unwrap_err();
    assert!(
        matches!(err, GradCheckError::Contract { index: 0, .. }),
        "{err}"
    );
}

#[test]
fn f32_functions_with_f32_tolerances() {
    let f = |v: &[f32]| libm::erff(v[0]) * v[1].exp();
    let good = |v: &[f32], d_out: f32, d: &mut [f32]| {
        let e = v[1].exp();
        d[0] += d_out * 2.0 / core::f32::consts::PI.sqrt() * (-v[0] * v[0]).exp() * e;
        d[1] += d_out * libm::erff(v[0]) * e;
    };
    for point in [[0.7f32, 0.2], [-1.3, -0.5], [0.05, 1.1]] {
        let report = gradcheck::check(f, good, &point).unwrap_or_else(|e| panic!("{e}"));
        let worst = report.worst.unwrap();
        // f32 differences are good to about 1e-5 relative here.
        assert!(
            worst.error <= 1e-4 * worst.finite_difference.abs().max(1.0),
            "{report}"
        );
    }
    // 1 % off in one element is past f32's default 1e-3.
    let off = |v: &[f32], d_out: f32, d: &mut [f32]| {
        let mut exact = [0.0; 2];
        good(v, d_out, &mut exact);
        d[0] += exact[0];
        d[1] += 1.01 * exact[1];
    };
    match gradcheck::check(f, off, &[0.7, 0.2]) {
        Err(GradCheckError::Mismatch(report)) => assert_eq!(report.worst.unwrap().index, 1),
        other => panic!("{other:?}"),
    }
    // A looser tolerance lets it through; tolerances are the caller's to choose.
    assert!(
        GradCheck::<f32>::new()
            .rtol(0.05)
            .check(f, off, &[0.7, 0.2])
            .is_ok()
    );
}

#[test]
fn non_finite_values_are_reported() {
    let err = gradcheck::check(
        |v: &[f64]| v[0].ln(),
        |v: &[f64], d_out: f64, d: &mut [f64]| d[0] += d_out / v[0],
        &[1e-5],
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            GradCheckError::NotFinite {
                what: Evaluated::Function,
                index: Some(0),
                ..
            }
        ),
        "{err}"
    );
    let err = gradcheck::check(
        |v: &[f64]| v[0],
        |_: &[f64], _: f64, d: &mut [f64]| d[0] = f64::NAN,
        &[1.0],
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            GradCheckError::NotFinite {
                what: Evaluated::Adjoint,
                ..
            }
        ),
        "{err}"
    );
    let empty = gradcheck::check(|_: &[f64]| 1.0, |_: &[f64], _: f64, _: &mut [f64]| {}, &[]);
    assert_eq!(empty.unwrap().to_string(), "no elements to check");
}
