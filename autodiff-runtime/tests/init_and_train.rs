//! Seeded initialization of a whole model, and the training helpers.

use autodiff_macros::Parameters;
use autodiff_runtime::Parameters;
use autodiff_runtime::init;
use autodiff_runtime::optim::{Optimizer, Sgd, SgdConfig};
use autodiff_runtime::train::{Accuracy, RunningMean, plot_losses};
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[derive(Parameters, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Linear<const I: usize, const O: usize> {
    w: [[f32; I]; O],
    b: [f32; O],
}

#[derive(Parameters, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Mlp {
    hidden: Linear<4, 16>,
    out: Linear<16, 3>,
    gain: [f32; 3],
}

/// He-normal weights, zero biases, unit gains, chosen by shape and name.
fn init_mlp(seed: u64) -> Mlp {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut mlp = Mlp::zeroed();
    mlp.for_each_tensor_mut(|name, shape, values| {
        if *name == "gain" {
            init::ones(values);
        } else if shape.len() == 2 {
            init::he_normal(values, init::fans(shape).fan_in, &mut rng);
        } else {
            init::zeros(values);
        }
    });
    mlp
}

fn bits(m: &Mlp) -> Vec<u32> {
    let mut out = Vec::new();
    m.for_each_tensor(|_, _, v| out.extend(v.iter().map(|x| x.to_bits())));
    out
}

#[test]
fn same_seed_gives_bit_identical_parameters() {
    let (a, b, c) = (init_mlp(42), init_mlp(42), init_mlp(43));
    assert_eq!(bits(&a), bits(&b));
    assert_ne!(bits(&a), bits(&c));
    assert_eq!(a.gain, [1.0; 3]);
    assert_eq!(a.out.b, [0.0; 3]);
    // Every weight was drawn (a zero draw is possible but not 64 + 48 of them).
    assert!(
        a.hidden
            .w
            .as_flattened()
            .iter()
            .filter(|x| **x == 0.0)
            .count()
            < 2
    );
    // Weights of the first layer have variance about 2 / fan_in = 0.5.
    let var = a.hidden.w.as_flattened().iter().map(|x| x * x).sum::<f32>() / 64.0;
    assert!((0.25..0.8).contains(&var), "variance {var}");
}

#[test]
fn running_mean_and_accuracy() {
    let mut m = RunningMean::default();
    assert_eq!(m.mean(), None);
    [1.0, 2.0, 6.0].into_iter().for_each(|x| m.push(x));
    assert_eq!((m.mean(), m.count()), (Some(3.0), 3));
    m.reset();
    assert_eq!(m.mean(), None);

    let mut acc = Accuracy::default();
    assert_eq!(acc.fraction(), None);
    acc.push(1, 1);
    acc.push(0, 2);
    acc.push_logits(&[0.0f64, f64::NAN], 1); // NaN logits count as wrong
    acc.push_logits(&[0.5f32, 0.1, 0.9], 2);
    assert_eq!(acc.fraction(), Some(0.5));
}

#[test]
fn loss_curve_is_written_as_svg() {
    // A real curve: SGD on f(w) = |w - 1|^2 / 2 from the seeded MLP's output bias.
    let mut p = init_mlp(1);
    let mut sgd = Sgd::new(SgdConfig {
        lr: 0.2,
        ..SgdConfig::default()
    })
    .unwrap();
    let mut grads = Mlp::zeroed();
    let mut losses = Vec::new();
    for _ in 0..30 {
        grads.zero();
        let mut loss = 0.0;
        for k in 0..Mlp::TENSORS {
            let (w, g) = (p.tensor(k).unwrap(), grads.tensor_mut(k).unwrap());
            for (g, w) in g.iter_mut().zip(w) {
                *g = w - 1.0;
                loss += f64::from(*g * *g) / 2.0;
            }
        }
        losses.push(loss);
        sgd.step(&mut p, &grads);
    }
    assert!(losses[29] < 1e-3 * losses[0], "{losses:?}");
    let val: Vec<f64> = losses.iter().map(|l| l * 1.1).chain([f64::NAN]).collect();

    let path =
        std::env::temp_dir().join(format!("autodiff-runtime-loss-{}.svg", std::process::id()));
    plot_losses(&path, "loss", &[("train", &losses), ("validation", &val)]).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    let curves: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<polyline") && l.contains("stroke-width=\"2\""))
        .collect();
    assert_eq!(
        curves.len(),
        2 + 2,
        "two curves and two legend marks: {curves:?}"
    );
    // Two curves of 30 points (the validation curve's NaN is left out), two 2-point legend marks.
    let mut points: Vec<usize> = curves.iter().map(|c| c.matches(',').count()).collect();
    points.sort_unstable();
    assert_eq!(points, [2, 2, 30, 30]);
    let has_text = |t: &str| svg.lines().any(|l| l.trim() == t);
    assert!(
        has_text("train") && has_text("validation") && has_text("step"),
        "legend and axis labels"
    );

    let err = plot_losses(&path, "empty", &[("nothing", &[f64::NAN])]).unwrap_err();
    assert!(err.to_string().contains("no finite values"), "{err}");

    // Finite losses whose padded span overflows an f64 (a diverged run): an error, where the
    // plot's tick search never ended (found by a review).
    for losses in [[2.5, 1.75e308], [1e308, -1e308]] {
        let err = plot_losses(&path, "diverged", &[("train", &losses)]).unwrap_err();
        assert!(err.to_string().contains("too wide"), "{err}");
    }
    assert!(!path.exists(), "nothing written after an error");
    // A step at `u64::MAX` (`x_min + 1` overflowed).
    autodiff_runtime::train::plot_loss_curves(&path, "t", "step", &[("a", &[(u64::MAX, 1.0)])])
        .unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    std::fs::remove_file(&path).unwrap();
}
