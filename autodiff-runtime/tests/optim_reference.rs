//! Optimizers, schedules, clipping and checkpoint loading against numbers computed by PyTorch
//! (`tools/optim_reference.py`, run by hand; its output is committed in `tests/data/`).

use autodiff_macros::Parameters;
use autodiff_runtime::clip::{clip_grad_norm, clip_grad_value};
use autodiff_runtime::optim::{
    Adagrad, AdagradConfig, Adam, AdamConfig, AdamW, Lion, LionConfig, Optimizer, RmsProp,
    RmsPropConfig, Sgd, SgdConfig,
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
    match kind {
        "sgd" => Box::new(Sgd::new(SgdConfig {
            lr: num(c, "lr"),
            momentum: num(c, "momentum"),
            dampening: num(c, "dampening"),
            weight_decay: num(c, "weight_decay"),
            nesterov: flag(c, "nesterov"),
        })),
        "adam" => Box::new(Adam::new(adam())),
        "adamw" => Box::new(AdamW::new(adam())),
        "rmsprop" => Box::new(RmsProp::new(RmsPropConfig {
            lr: num(c, "lr"),
            alpha: num(c, "alpha"),
            eps: num(c, "eps"),
            weight_decay: num(c, "weight_decay"),
            momentum: num(c, "momentum"),
            centered: flag(c, "centered"),
        })),
        "adagrad" => Box::new(Adagrad::new(AdagradConfig {
            lr: num(c, "lr"),
            lr_decay: num(c, "lr_decay"),
            weight_decay: num(c, "weight_decay"),
            initial_accumulator_value: num(c, "initial_accumulator_value"),
            eps: num(c, "eps"),
        })),
        "lion" => Box::new(Lion::new(LionConfig {
            lr: num(c, "lr"),
            beta1: num(c, "beta1"),
            beta2: num(c, "beta2"),
            weight_decay: num(c, "weight_decay"),
        })),
        other => panic!("unknown optimizer {other}"),
    }
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
    });
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
    assert!(
        matches!(&err, checkpoint::CheckpointError::DtypeMismatch { name, expected: "F64", found } if name == "layers.0.w" && found == "F32"),
        "{err}"
    );
}
