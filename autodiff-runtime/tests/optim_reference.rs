//! Optimizers, schedules, clipping and checkpoint loading against numbers computed by PyTorch
//! (`tools/optim_reference.py`, run by hand; its output is committed in `tests/data/`).

use autodiff_macros::Parameters;
use autodiff_runtime::clip::{clip_grad_norm, clip_grad_value};
use autodiff_runtime::optim::{
    Adagrad, AdagradConfig, Adam, AdamConfig, AdamW, AdamWConfig, ConfigError, Lion, LionConfig,
    Optimizer, RmsProp, RmsPropConfig, Sgd, SgdConfig,
};
use autodiff_runtime::schedule::{CosineWithWarmup, Exponential, LrSchedule, StepDecay};
use autodiff_runtime::{Parameters, checkpoint};
use serde_json::Value;

/// The parameters the script optimizes: `w` of shape [2, 3] and `b` of shape [2].
#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct P {
    w: [[f64; 3]; 2],
    b: [f64; 2],
}

const REL_TOL: f64 = 1e-6;

fn reference() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/optim_reference.json"
    ))
    .expect("tests/data/optim_reference.json (written by tools/optim_reference.py)");
    serde_json::from_str(&text).expect("valid JSON")
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

/// A `P` from `{"w": [6 numbers], "b": [2 numbers]}`.
fn params(v: &Value) -> P {
    let mut p = P::zeroed();
    p.w.as_flattened_mut().copy_from_slice(&floats(&v["w"]));
    p.b.copy_from_slice(&floats(&v["b"]));
    p
}

/// Every scalar of `p`, in tensor order.
fn flat(p: &P) -> Vec<f64> {
    let mut out = Vec::new();
    p.for_each_tensor(|_, _, values| out.extend_from_slice(values));
    out
}

/// Compares element-wise within `REL_TOL` relative (with an absolute floor of 1e-12 for zeros);
/// on failure reports the first entries and the largest difference.
fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let worst = got
        .iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs() / w.abs().max(1e-6))
        .enumerate()
        .fold(
            (0, 0.0f64),
            |best, (i, d)| if d > best.1 { (i, d) } else { best },
        );
    let ok = got
        .iter()
        .zip(want)
        .all(|(g, w)| (g - w).abs() <= REL_TOL * w.abs() + 1e-12);
    assert!(
        ok,
        "{what}: mismatch\n  got  {:?}\n  want {:?}\n  largest relative difference {:e} at index {}",
        &got[..got.len().min(4)],
        &want[..want.len().min(4)],
        worst.1,
        worst.0
    );
}

fn num(config: &Value, key: &str) -> f64 {
    config[key]
        .as_f64()
        .unwrap_or_else(|| panic!("config field {key}"))
}

fn flag(config: &Value, key: &str) -> bool {
    config[key]
        .as_bool()
        .unwrap_or_else(|| panic!("config field {key}"))
}

/// The Rust optimizer for a JSON case.
fn optimizer(kind: &str, c: &Value) -> Box<dyn Optimizer<P>> {
    let adam = || AdamConfig {
        lr: num(c, "lr"),
        beta1: num(c, "beta1"),
        beta2: num(c, "beta2"),
        eps: num(c, "eps"),
        weight_decay: num(c, "weight_decay"),
        amsgrad: flag(c, "amsgrad"),
    };
    let adamw = || AdamWConfig {
        lr: num(c, "lr"),
        beta1: num(c, "beta1"),
        beta2: num(c, "beta2"),
        eps: num(c, "eps"),
        weight_decay: num(c, "weight_decay"),
        amsgrad: flag(c, "amsgrad"),
    };
    let built: Result<Box<dyn Optimizer<P>>, ConfigError> = match kind {
        "sgd" => Sgd::new(SgdConfig {
            lr: num(c, "lr"),
            momentum: num(c, "momentum"),
            dampening: num(c, "dampening"),
            weight_decay: num(c, "weight_decay"),
            nesterov: flag(c, "nesterov"),
        })
        .map(|o| Box::new(o) as _),
        "adam" => Adam::new(adam()).map(|o| Box::new(o) as _),
        "adamw" => AdamW::new(adamw()).map(|o| Box::new(o) as _),
        "rmsprop" => RmsProp::new(RmsPropConfig {
            lr: num(c, "lr"),
            alpha: num(c, "alpha"),
            eps: num(c, "eps"),
            weight_decay: num(c, "weight_decay"),
            momentum: num(c, "momentum"),
            centered: flag(c, "centered"),
        })
        .map(|o| Box::new(o) as _),
        "adagrad" => Adagrad::new(AdagradConfig {
            lr: num(c, "lr"),
            lr_decay: num(c, "lr_decay"),
            weight_decay: num(c, "weight_decay"),
            initial_accumulator_value: num(c, "initial_accumulator_value"),
            eps: num(c, "eps"),
        })
        .map(|o| Box::new(o) as _),
        "lion" => Lion::new(LionConfig {
            lr: num(c, "lr"),
            beta1: num(c, "beta1"),
            beta2: num(c, "beta2"),
            weight_decay: num(c, "weight_decay"),
        })
        .map(|o| Box::new(o) as _),
        other => panic!("unknown optimizer {other}"),
    };
    built.unwrap_or_else(|e| panic!("{kind} config {c}: {e}"))
}

/// `torch.optim.AdamW`'s documented defaults (PyTorch 2.x, `AdamW.__init__`): `lr=1e-3`,
/// `betas=(0.9, 0.999)`, `eps=1e-8`, `weight_decay=1e-2`, `amsgrad=False`. Written out here
/// rather than read from torch, which the tests do not need.
#[test]
fn adamw_defaults_are_pytorchs() {
    let d = AdamWConfig::default();
    assert_eq!(
        (d.lr, d.beta1, d.beta2, d.eps, d.weight_decay, d.amsgrad),
        (1e-3, 0.9, 0.999, 1e-8, 1e-2, false)
    );
    // Adam's defaults differ only in the weight decay (`torch.optim.Adam`: 0).
    let a = AdamConfig::default();
    assert_eq!(
        (a.lr, a.beta1, a.beta2, a.eps, a.weight_decay, a.amsgrad),
        (1e-3, 0.9, 0.999, 1e-8, 0.0, false)
    );
    // And the decay is applied: one step with a zero gradient only shrinks the parameters, by
    // exactly `1 - lr * weight_decay`.
    let mut p = params(&reference()["initial"]);
    let before = flat(&p);
    let mut opt = AdamW::new(d).unwrap();
    opt.step(&mut p, &P::zeroed());
    for (after, before) in flat(&p).iter().zip(&before) {
        assert_eq!(*after, before * (1.0 - 1e-3 * 1e-2));
    }
    assert_eq!(opt.config(), &d);
    assert_eq!(opt.steps(), 1);
}

/// Every out-of-range hyperparameter of every optimizer is a `ConfigError` naming the field.
#[test]
fn out_of_range_hyperparameters_are_errors() {
    fn name(e: ConfigError) -> &'static str {
        match e {
            ConfigError::OutOfRange { name, .. } => name,
            ConfigError::Nesterov { .. } => "nesterov",
            other => panic!("{other:?}"),
        }
    }
    let bad = [f64::NAN, f64::INFINITY, -1e-3];
    let adamw = AdamWConfig::default();
    let adam = AdamConfig::default();
    for v in bad {
        for (field, config) in [
            ("lr", AdamWConfig { lr: v, ..adamw }),
            (
                "weight_decay",
                AdamWConfig {
                    weight_decay: v,
                    ..adamw
                },
            ),
            ("eps", AdamWConfig { eps: v, ..adamw }),
        ] {
            assert_eq!(name(AdamW::<P>::new(config).unwrap_err()), field);
        }
        assert_eq!(
            name(Adam::<P>::new(AdamConfig { lr: v, ..adam }).unwrap_err()),
            "lr"
        );
        let sgd = SgdConfig::default();
        assert_eq!(
            name(
                Sgd::<P>::new(SgdConfig {
                    dampening: v,
                    ..sgd
                })
                .unwrap_err()
            ),
            "dampening"
        );
        let rms = RmsPropConfig::default();
        assert_eq!(
            name(RmsProp::<P>::new(RmsPropConfig { eps: v, ..rms }).unwrap_err()),
            "eps"
        );
        let ada = AdagradConfig::default();
        assert_eq!(
            name(
                Adagrad::<P>::new(AdagradConfig {
                    initial_accumulator_value: v,
                    ..ada
                })
                .unwrap_err()
            ),
            "initial_accumulator_value"
        );
        let lion = LionConfig::default();
        assert_eq!(
            name(
                Lion::<P>::new(LionConfig {
                    weight_decay: v,
                    ..lion
                })
                .unwrap_err()
            ),
            "weight_decay"
        );
    }
    // Betas must be in [0, 1): 1 and above, negatives and NaN are errors, 0 is allowed.
    for b in [1.0, 1.5, -0.1, f64::NAN] {
        assert_eq!(
            name(AdamW::<P>::new(AdamWConfig { beta1: b, ..adamw }).unwrap_err()),
            "beta1"
        );
        assert_eq!(
            name(Adam::<P>::new(AdamConfig { beta2: b, ..adam }).unwrap_err()),
            "beta2"
        );
        assert_eq!(
            name(
                Lion::<P>::new(LionConfig {
                    beta2: b,
                    ..LionConfig::default()
                })
                .unwrap_err()
            ),
            "beta2"
        );
        assert_eq!(
            name(
                RmsProp::<P>::new(RmsPropConfig {
                    alpha: b,
                    ..RmsPropConfig::default()
                })
                .unwrap_err()
            ),
            "alpha"
        );
        assert_eq!(
            name(
                Sgd::<P>::new(SgdConfig {
                    momentum: b,
                    ..SgdConfig::default()
                })
                .unwrap_err()
            ),
            "momentum"
        );
    }
    assert!(
        AdamW::<P>::new(AdamWConfig {
            beta1: 0.0,
            beta2: 0.0,
            ..adamw
        })
        .is_ok()
    );
    // eps must be positive (PyTorch allows 0, where a zero gradient gives 0 / 0).
    assert_eq!(
        name(AdamW::<P>::new(AdamWConfig { eps: 0.0, ..adamw }).unwrap_err()),
        "eps"
    );
    assert_eq!(
        name(
            Adagrad::<P>::new(AdagradConfig {
                eps: 0.0,
                ..AdagradConfig::default()
            })
            .unwrap_err()
        ),
        "eps"
    );
    let nesterov = SgdConfig {
        nesterov: true,
        ..SgdConfig::default()
    };
    assert_eq!(name(Sgd::<P>::new(nesterov).unwrap_err()), "nesterov");
    assert!(
        Sgd::<P>::new(SgdConfig {
            momentum: 0.9,
            ..nesterov
        })
        .is_ok()
    );
    let err = AdamW::<P>::new(AdamWConfig { lr: -1.0, ..adamw }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`lr` must be finite and non-negative, got -1"
    );
}

/// A negative `max_norm` would flip the gradients' sign (found by a review): refused.
#[test]
#[should_panic(expected = "max_norm must be non-negative, got -1")]
fn clip_grad_norm_rejects_a_negative_bound() {
    let mut g = P::zeroed();
    clip_grad_norm(&mut g, -1.0);
}

/// A running optimizer's rate can only be set to a valid one.
#[test]
#[should_panic(expected = "`lr` must be finite and non-negative, got -0.5")]
fn set_lr_rejects_a_negative_rate() {
    let mut opt = AdamW::<P>::new(AdamWConfig::default()).unwrap();
    opt.set_lr(0.5);
    assert_eq!((opt.lr(), opt.config().lr), (0.5, 0.5));
    opt.set_lr(-0.5);
}

#[test]
fn optimizers_follow_pytorch_trajectories() {
    let r = reference();
    let grads: Vec<P> = r["grads"].as_array().unwrap().iter().map(params).collect();
    let cases = r["optimizers"].as_array().unwrap();
    let kinds: std::collections::BTreeSet<&str> = cases
        .iter()
        .map(|c| c["optimizer"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["adagrad", "adam", "adamw", "lion", "rmsprop", "sgd"]
    );
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut opt = optimizer(case["optimizer"].as_str().unwrap(), &case["config"]);
        let mut p = params(&r["initial"]);
        let want = case["params"].as_array().unwrap();
        assert_eq!(want.len(), grads.len());
        for (step, (g, want)) in grads.iter().zip(want).enumerate() {
            opt.step(&mut p, g);
            assert_close(
                &format!("{name}, step {}", step + 1),
                &flat(&p),
                &flat(&params(want)),
            );
        }
    }
}

#[test]
fn optimizers_step_f32_parameters_close_to_the_f64_reference() {
    #[derive(Parameters)]
    #[parameters(crate = "autodiff_runtime")]
    struct P32 {
        w: [[f32; 3]; 2],
        b: [f32; 2],
    }
    let to32 = |p: &P| {
        let mut q = P32::zeroed();
        for k in 0..P::TENSORS {
            let src = p.tensor(k).unwrap();
            q.tensor_mut(k)
                .unwrap()
                .iter_mut()
                .zip(src)
                .for_each(|(d, s)| *d = *s as f32);
        }
        q
    };
    let r = reference();
    let case = r["optimizers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "adam_decay_amsgrad")
        .unwrap();
    let mut opt = Adam::new(AdamConfig {
        lr: 0.02,
        beta1: 0.8,
        beta2: 0.95,
        eps: 1e-6,
        weight_decay: 0.1,
        amsgrad: true,
    })
    .unwrap();
    let mut p = to32(&params(&r["initial"]));
    for (g, want) in r["grads"]
        .as_array()
        .unwrap()
        .iter()
        .zip(case["params"].as_array().unwrap())
    {
        opt.step(&mut p, &to32(&params(g)));
        let want = flat(&params(want));
        let mut got = Vec::new();
        p.for_each_tensor(|_, _, v| got.extend(v.iter().map(|x| f64::from(*x))));
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g - w).abs() <= 1e-5 * w.abs().max(1.0),
                "f32 Adam drifted: {got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn schedules_follow_pytorch() {
    let r = reference();
    let schedules = r["schedules"].as_array().unwrap();
    assert_eq!(schedules.len(), 3);
    for s in schedules {
        let c = &s["config"];
        let int = |k: &str| c[k].as_u64().unwrap();
        let schedule: Box<dyn LrSchedule> = match s["name"].as_str().unwrap() {
            "step" => Box::new(StepDecay {
                base_lr: num(c, "base_lr"),
                step_size: int("step_size"),
                gamma: num(c, "gamma"),
            }),
            "exponential" => Box::new(Exponential {
                base_lr: num(c, "base_lr"),
                gamma: num(c, "gamma"),
            }),
            "cosine_with_warmup" => Box::new(CosineWithWarmup {
                base_lr: num(c, "base_lr"),
                min_lr: num(c, "min_lr"),
                warmup_steps: int("warmup_steps"),
                total_steps: int("total_steps"),
                warmup_start_factor: num(c, "warmup_start_factor"),
            }),
            other => panic!("unknown schedule {other}"),
        };
        let want = floats(&s["lrs"]);
        let got: Vec<f64> = (0..want.len() as u64).map(|t| schedule.lr(t)).collect();
        assert_close(s["name"].as_str().unwrap(), &got, &want);
    }
}

#[test]
fn clipping_follows_pytorch() {
    let r = reference();
    let grads = params(&r["grads"][0]);
    for case in r["clipping"].as_array().unwrap() {
        let mut g = grads.clone();
        let limit = num(case, "limit");
        match case["kind"].as_str().unwrap() {
            "norm" => {
                let norm = clip_grad_norm(&mut g, limit);
                assert_close("norm before clipping", &[norm], &[num(case, "norm")]);
            }
            "value" => clip_grad_value(&mut g, limit),
            other => panic!("unknown clipping {other}"),
        }
        assert_close(
            &format!("clip {} {limit}", case["kind"]),
            &flat(&g),
            &flat(&params(&case["grads"])),
        );
    }
}

/// The layout of the checkpoint the script saves with `safetensors.torch.save_file`.
#[derive(Parameters, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Layer<F, const I: usize, const O: usize> {
    w: [[F; I]; O],
    b: [F; O],
}

#[derive(Parameters, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Net<F> {
    layers: [Layer<F, 3, 3>; 2],
    head: Layer<F, 3, 1>,
    scale: F,
}

#[test]
fn checkpoint_written_by_pytorch_loads() {
    let r = reference();
    let path = format!(
        "{}/tests/data/{}",
        env!("CARGO_MANIFEST_DIR"),
        r["checkpoint"]["file"].as_str().unwrap()
    );
    let net: Net<f32> = checkpoint::load(&path).expect("the PyTorch checkpoint loads");
    let tensors = r["checkpoint"]["tensors"].as_object().unwrap();
    let mut seen = 0;
    net.for_each_tensor(|name, shape, values| {
        let want = &tensors[&name.to_string()];
        let want_shape: Vec<u64> = want["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap())
            .collect();
        assert_eq!(
            shape.iter().map(|d| *d as u64).collect::<Vec<_>>(),
            want_shape,
            "{name}"
        );
        // f32 values are written to JSON as their exact f64 widening.
        let got: Vec<f64> = values.iter().map(|v| f64::from(*v)).collect();
        assert_eq!(got, floats(&want["values"]), "{name}");
        seen += 1;
    });
    assert_eq!(seen, tensors.len());
    assert_eq!(net.scale, std::f32::consts::PI);
    assert_eq!(net.layers[1].b, [1e-3, -1e3, 0.0]);

    // Read as f64 parameters, the same file is a dtype mismatch, not a silent conversion.
    let err = checkpoint::load::<Net<f64>>(&path).unwrap_err();
    let err = err.detail();
    assert!(
        matches!(&err, checkpoint::CheckpointError::DtypeMismatch { name, expected: "F64", found } if name == "layers.0.w" && found == "F32"),
        "{err}"
    );
}
