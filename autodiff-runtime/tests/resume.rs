//! Exact resume: 200 steps in one go and 100 steps, a `TrainState` file, fresh objects restored
//! from it and 100 more steps give the same bits, for every optimizer with state; and every kind
//! of broken or mismatched file is a typed error naming the file, never a panic.

use std::path::{Path, PathBuf};

use autodiff_macros::Parameters;
use autodiff_runtime::Parameters;
use autodiff_runtime::checkpoint::{self, CheckpointError, ResumableRng, TrainState};
use autodiff_runtime::data::{BatchLoader, Dataset, LastBatch};
use autodiff_runtime::optim::{
    Adagrad, AdagradConfig, Adam, AdamConfig, AdamW, AdamWConfig, Lion, LionConfig, Optimizer,
    OptimizerState, RmsProp, RmsPropConfig, Sgd, SgdConfig,
};
use autodiff_runtime::rand::{Rng, SeedableRng};
use autodiff_runtime::schedule::{CosineWithWarmup, LrSchedule};

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Layer {
    w: [[f32; 3]; 4],
    b: [f32; 4],
}

#[derive(Parameters, Clone, Debug, PartialEq)]
#[parameters(crate = "autodiff_runtime")]
struct Model {
    layers: [Layer; 2],
    scale: f32,
}

/// A model whose scalars are all different.
fn initial() -> Model {
    let mut m = Model::zeroed();
    let mut rng = ResumableRng::seed_from_u64(11);
    m.for_each_mut(|x| *x = rng.gen_range(-1.0..1.0));
    m
}

/// Every scalar's bits, in tensor order.
fn bits(m: &Model) -> Vec<u32> {
    let mut out = Vec::new();
    m.for_each_tensor(|_, _, values| out.extend(values.iter().map(|v| v.to_bits())));
    out
}

/// The schedule of the runs: warm-up, then cosine, so the rate depends on the step number.
const SCHEDULE: CosineWithWarmup = CosineWithWarmup {
    base_lr: 0.05,
    min_lr: 0.005,
    warmup_steps: 20,
    total_steps: 200,
    warmup_start_factor: 0.1,
};

/// Steps `from..to`: the rate from the schedule, a gradient of `(p - 0.3)^2` plus noise from `rng`,
/// with some steps' gradient entries left at zero (as for an unused embedding row).
fn train<O: Optimizer<Model>>(
    range: std::ops::Range<u64>,
    params: &mut Model,
    opt: &mut O,
    rng: &mut ResumableRng,
) {
    let mut grads = Model::zeroed();
    for step in range {
        opt.set_lr(SCHEDULE.lr(step));
        grads.copy_from(params);
        grads.for_each_mut(|g| {
            *g = if rng.gen_bool(0.1) {
                0.0
            } else {
                2.0 * (*g - 0.3) + rng.gen_range(-0.5..0.5)
            }
        });
        opt.step(params, &grads);
    }
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> Self {
        TempFile(std::env::temp_dir().join(format!(
            "autodiff-runtime-resume-{}-{name}.safetensors",
            std::process::id()
        )))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// 200 steps in one go against 100, a state file, a restore into new objects, and 100 more.
fn resumes_exactly<O>(name: &str, new: impl Fn() -> O)
where
    O: Optimizer<Model> + OptimizerState<Model>,
{
    let mut params = initial();
    let mut opt = new();
    let mut rng = ResumableRng::seed_from_u64(5);
    train(0..200, &mut params, &mut opt, &mut rng);

    let mut first = initial();
    let mut opt1 = new();
    let mut rng1 = ResumableRng::seed_from_u64(5);
    train(0..100, &mut first, &mut opt1, &mut rng1);
    let file = TempFile::new(name);
    let mut state = TrainState::new(100);
    state.insert_params(&first);
    state.insert_optimizer(&opt1);
    state.insert_rng("batches", &rng1);
    state.save(&file.0).unwrap();
    drop((first, opt1, rng1));

    let state = TrainState::load(&file.0).unwrap();
    let mut resumed = Model::zeroed();
    let mut opt2 = new();
    state.restore_params(&mut resumed).unwrap();
    state.restore_optimizer(&mut opt2).unwrap();
    let mut rng2 = state.rng("batches").unwrap();
    train(state.step()..200, &mut resumed, &mut opt2, &mut rng2);

    let (a, b) = (bits(&params), bits(&resumed));
    if let Some(i) = a.iter().zip(&b).position(|(x, y)| x != y) {
        panic!(
            "{name}: resumed run differs at scalar {i}: {} vs {} (first: {:?} vs {:?})",
            f32::from_bits(a[i]),
            f32::from_bits(b[i]),
            &a[..4]
                .iter()
                .map(|&x| f32::from_bits(x))
                .collect::<Vec<_>>(),
            &b[..4]
                .iter()
                .map(|&x| f32::from_bits(x))
                .collect::<Vec<_>>(),
        );
    }
    assert_ne!(
        bits(&initial()),
        a,
        "{name}: the run should move the parameters"
    );
    assert_eq!(opt.lr().to_bits(), opt2.lr().to_bits());
    assert_eq!(rng, rng2, "{name}: the generator should be where it was");
}

#[test]
fn adamw_resumes_bit_for_bit() {
    resumes_exactly("adamw", || AdamW::new(AdamWConfig::default()).unwrap());
    resumes_exactly("adamw-amsgrad", || {
        AdamW::new(AdamWConfig {
            amsgrad: true,
            ..AdamWConfig::default()
        })
        .unwrap()
    });
}

#[test]
fn every_optimizer_with_state_resumes_bit_for_bit() {
    resumes_exactly("adam", || {
        Adam::new(AdamConfig {
            weight_decay: 0.01,
            amsgrad: true,
            ..AdamConfig::default()
        })
        .unwrap()
    });
    resumes_exactly("sgd-nesterov", || {
        Sgd::new(SgdConfig {
            momentum: 0.9,
            nesterov: true,
            ..SgdConfig::default()
        })
        .unwrap()
    });
    resumes_exactly("sgd-dampened", || {
        Sgd::new(SgdConfig {
            momentum: 0.8,
            dampening: 0.5,
            ..SgdConfig::default()
        })
        .unwrap()
    });
    resumes_exactly("sgd", || Sgd::new(SgdConfig::default()).unwrap());
    resumes_exactly("rmsprop", || {
        RmsProp::new(RmsPropConfig {
            momentum: 0.5,
            centered: true,
            ..RmsPropConfig::default()
        })
        .unwrap()
    });
    resumes_exactly("adagrad", || {
        Adagrad::new(AdagradConfig {
            lr_decay: 0.01,
            initial_accumulator_value: 0.1,
            ..AdagradConfig::default()
        })
        .unwrap()
    });
    resumes_exactly("lion", || {
        Lion::new(LionConfig {
            weight_decay: 0.1,
            ..LionConfig::default()
        })
        .unwrap()
    });
}

/// A state set apart from fresh objects would not resume: the test above is not vacuous.
#[test]
fn a_fresh_optimizer_does_not_continue_the_same_way() {
    let mut a = initial();
    let mut opt = AdamW::new(AdamWConfig::default()).unwrap();
    let mut rng = ResumableRng::seed_from_u64(5);
    train(0..200, &mut a, &mut opt, &mut rng);

    let mut b = initial();
    let mut opt1 = AdamW::new(AdamWConfig::default()).unwrap();
    let mut rng1 = ResumableRng::seed_from_u64(5);
    train(0..100, &mut b, &mut opt1, &mut rng1);
    let mut opt2 = AdamW::new(AdamWConfig::default()).unwrap();
    train(100..200, &mut b, &mut opt2, &mut rng1);
    assert_ne!(bits(&a), bits(&b));
}

#[test]
fn values_and_metadata_round_trip() {
    let mut state = TrainState::new(7);
    state.insert_u64s("loader", &[3, 1, 2, u64::MAX]);
    state.insert_f64s("curve", &[0.1, f64::NAN, -0.0, f64::MIN_POSITIVE / 2.0]);
    state.insert_f64s("empty", &[]);
    let back = TrainState::from_bytes(&state.to_bytes().unwrap()).unwrap();
    assert_eq!(back.step(), 7);
    assert_eq!(back.u64s("loader").unwrap(), [3, 1, 2, u64::MAX]);
    let curve: Vec<u64> = back
        .f64s("curve")
        .unwrap()
        .iter()
        .map(|v| v.to_bits())
        .collect();
    let expected: Vec<u64> = [0.1, f64::NAN, -0.0, f64::MIN_POSITIVE / 2.0]
        .iter()
        .map(|v| v.to_bits())
        .collect();
    assert_eq!(curve, expected);
    assert_eq!(back.f64s("empty").unwrap(), [] as [f64; 0]);
    let err = back.u64s("curve").unwrap_err();
    assert!(
        matches!(&err, CheckpointError::DtypeMismatch { name, expected: "U64", .. } if name == "values.curve"),
        "{err}"
    );
    let err = back.u64s("nothing").unwrap_err();
    assert!(
        matches!(&err, CheckpointError::MissingTensor { name } if name == "values.nothing"),
        "{err}"
    );
}

/// A state file of the model after a few AdamW steps, with a generator.
fn saved_state(file: &Path) -> Vec<u8> {
    let mut params = initial();
    let mut opt = AdamW::new(AdamWConfig::default()).unwrap();
    let mut rng = ResumableRng::seed_from_u64(1);
    train(0..3, &mut params, &mut opt, &mut rng);
    let mut state = TrainState::new(3);
    state.insert_params(&params);
    state.insert_optimizer(&opt);
    state.insert_rng("batches", &rng);
    state.save(file).unwrap();
    std::fs::read(file).unwrap()
}

/// Loads `file` and restores everything `saved_state` wrote.
fn restore_all(file: &Path) -> Result<(), CheckpointError> {
    let state = TrainState::load(file)?;
    state.restore_params(&mut Model::zeroed())?;
    state.restore_optimizer(&mut AdamW::<Model>::new(AdamWConfig::default()).unwrap())?;
    state.rng("batches")?;
    Ok(())
}

/// `err` names `file` first and is not an I/O error.
fn assert_names(err: &CheckpointError, file: &Path) {
    assert_eq!(err.path(), Some(file), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("{}: ", file.display())),
        "{err}"
    );
    assert!(!matches!(err.detail(), CheckpointError::File { .. }));
}

#[test]
fn truncated_and_corrupted_files_are_typed_errors_naming_the_file() {
    let file = TempFile::new("corrupt");
    let bytes = saved_state(&file.0);
    restore_all(&file.0).unwrap();

    // Every truncation.
    for len in 0..bytes.len() {
        std::fs::write(&file.0, &bytes[..len]).unwrap();
        let err = restore_all(&file.0).unwrap_err();
        assert_names(&err, &file.0);
    }

    // Seeded byte changes: an error naming the file, or a file that still loads (a changed value).
    let mut rng = ResumableRng::seed_from_u64(99);
    let (mut errors, mut loaded) = (0, 0);
    for _ in 0..3000 {
        let mut changed = bytes.clone();
        for _ in 0..rng.gen_range(1..4) {
            let at = if rng.gen_bool(0.7) {
                rng.gen_range(0..changed.len().min(2000))
            } else {
                rng.gen_range(0..changed.len())
            };
            changed[at] = rng.r#gen();
        }
        std::fs::write(&file.0, &changed).unwrap();
        match restore_all(&file.0) {
            Ok(()) => loaded += 1,
            Err(err) => {
                assert_names(&err, &file.0);
                errors += 1;
            }
        }
    }
    assert!(
        errors > 500 && loaded > 100,
        "{errors} errors, {loaded} loaded"
    );

    let missing = file.0.with_extension("missing");
    let err = TrainState::load(&missing).unwrap_err();
    assert!(matches!(err, CheckpointError::Io { .. }), "{err}");
    assert_eq!(err.path(), Some(missing.as_path()));
}

#[test]
fn mismatched_files_are_typed_errors_naming_the_file() {
    let file = TempFile::new("mismatch");
    saved_state(&file.0);
    let state = TrainState::load(&file.0).unwrap();

    // Another model.
    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct Wider {
        layers: [Layer; 2],
        scale: f32,
        bias: f32,
    }
    let err = state.restore_params(&mut Wider::zeroed()).unwrap_err();
    assert_names(&err, &file.0);
    assert!(
        matches!(err.detail(), CheckpointError::MissingTensor { name } if name == "bias"),
        "{err}"
    );
    let err = state
        .restore_optimizer(&mut AdamW::<Wider>::new(AdamWConfig::default()).unwrap())
        .unwrap_err();
    assert!(
        matches!(err.detail(), CheckpointError::MissingTensor { name } if name == "optimizer.m.bias"),
        "{err}"
    );

    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct OneLayer {
        layers: [Layer; 1],
        scale: f32,
    }
    let err = state.restore_params(&mut OneLayer::zeroed()).unwrap_err();
    assert!(
        matches!(err.detail(), CheckpointError::UnexpectedTensor { name } if name == "layers.1.b"),
        "{err}"
    );

    #[derive(Parameters, Debug)]
    #[parameters(crate = "autodiff_runtime")]
    struct Double {
        layers: [[[f64; 3]; 4]; 2],
        b: [[f64; 4]; 2],
        scale: f64,
    }
    let err = state.restore_params(&mut Double::zeroed()).unwrap_err();
    assert!(
        matches!(err.detail(), CheckpointError::MissingTensor { name } if name == "layers"),
        "{err}"
    );

    // On error the parameters are untouched.
    let mut params = initial();
    let mut wider = Wider::zeroed();
    wider.scale = 42.0;
    assert!(state.restore_params(&mut wider).is_err());
    assert_eq!(wider.scale, 42.0);
    state.restore_params(&mut params).unwrap();

    // Another optimizer, or the same one with other buffers.
    let err = state
        .restore_optimizer(&mut Adam::<Model>::new(AdamConfig::default()).unwrap())
        .unwrap_err();
    assert_names(&err, &file.0);
    assert!(
        matches!(err.detail(), CheckpointError::OptimizerMismatch { expected: "Adam", found: Some(f) } if f == "AdamW"),
        "{err}"
    );
    assert!(
        err.to_string()
            .ends_with("holds the state of AdamW, not Adam"),
        "{err}"
    );
    let mut amsgrad = AdamW::<Model>::new(AdamWConfig {
        amsgrad: true,
        ..AdamWConfig::default()
    })
    .unwrap();
    let err = state.restore_optimizer(&mut amsgrad).unwrap_err();
    assert!(
        matches!(err.detail(), CheckpointError::MissingTensor { name } if name == "optimizer.v_max.layers.0.w"),
        "{err}"
    );
    assert_eq!(amsgrad.steps(), 0, "a failed restore changes nothing");

    // A generator that is not there, or not a generator.
    let err = state.rng("shuffle").unwrap_err();
    assert!(
        matches!(err.detail(), CheckpointError::MissingTensor { name } if name == "values.shuffle"),
        "{err}"
    );

    // A parameters-only checkpoint is not a training state, and a training state is not
    // parameters only.
    let params_only = TempFile::new("params-only");
    checkpoint::save(&params, &params_only.0).unwrap();
    let err = TrainState::load(&params_only.0).unwrap_err();
    assert_names(&err, &params_only.0);
    assert!(
        matches!(err.detail(), CheckpointError::NotTrainState { found: None }),
        "{err}"
    );
    let err = checkpoint::load::<Model>(&file.0).unwrap_err();
    assert_names(&err, &file.0);
}

#[test]
fn invalid_values_are_refused() {
    // A negative learning rate, as a corrupted or hand-made file could hold.
    let mut opt = Sgd::<Model>::new(SgdConfig::default()).unwrap();
    let mut state = TrainState::new(1);
    state.insert_optimizer(&opt);
    let mut bytes = state.to_bytes().unwrap();
    let lr = 0.01f64.to_le_bytes();
    let at = bytes.windows(8).position(|w| w == lr).unwrap();
    bytes[at..at + 8].copy_from_slice(&(-0.5f64).to_le_bytes());
    let err = TrainState::from_bytes(&bytes)
        .unwrap()
        .restore_optimizer(&mut opt)
        .unwrap_err();
    assert!(
        matches!(&err, CheckpointError::InvalidValue { name, reason }
            if name == "optimizer.lr" && reason.contains("-0.5")),
        "{err}"
    );
    assert_eq!(opt.lr(), 0.01);

    let mut state = TrainState::new(1);
    state.insert_u64s("rng", &[0; 4]);
    state.insert_u64s("short", &[1, 2, 3]);
    assert!(matches!(
        state.rng("rng").unwrap_err(),
        CheckpointError::InvalidValue { .. }
    ));
    assert!(matches!(
        state.rng("short").unwrap_err(),
        CheckpointError::ShapeMismatch { .. }
    ));
}

/// Overwrites one piece of an optimizer's state: a step count, a buffer's every value, a rate.
struct Corrupt {
    name: &'static str,
    count: Option<u64>,
    value: Option<f32>,
    rate: Option<f64>,
}

impl autodiff_runtime::optim::StateVisitorMut<Model> for Corrupt {
    fn buffer(&mut self, name: &'static str, buffer: &mut Model) {
        if let (true, Some(v)) = (name == self.name, self.value) {
            buffer.for_each_mut(|x| *x = v);
        }
    }
    fn count(&mut self, name: &'static str, value: &mut u64) {
        if let (true, Some(c)) = (name == self.name, self.count) {
            *value = c;
        }
    }
    fn scalar(&mut self, name: &'static str, value: &mut f64) {
        if let (true, Some(r)) = (name == self.name, self.rate) {
            *value = r;
        }
    }
}

#[test]
fn optimizer_state_a_step_would_break_is_refused() {
    // State a step would turn into a panic or NaN parameters (found by a review): a step count at
    // `u64::MAX` (`t += 1` overflowed; in release it wrapped and the bias correction divided by
    // zero), a negative second moment (`sqrt` of it), a moment that is not finite, a NaN rate.
    // Each is refused before anything is restored: the optimizer keeps its own state.
    let cases = [
        ("t", Some(u64::MAX), None, None, "more than 2^53"),
        ("v", None, Some(-1.0), None, "never negative"),
        ("m", None, Some(f32::INFINITY), None, "must be finite"),
        ("lr", None, None, Some(f64::NAN), "must be finite"),
    ];
    for (name, count, value, rate, says) in cases {
        let mut params = initial();
        let mut source = Adam::<Model>::new(AdamConfig::default()).unwrap();
        train(
            0..3,
            &mut params,
            &mut source,
            &mut ResumableRng::seed_from_u64(5),
        );
        source
            .visit_state_mut(&mut Corrupt {
                name,
                count,
                value,
                rate,
            })
            .ok();
        let mut state = TrainState::new(3);
        state.insert_optimizer(&source);
        let mut bytes = state.to_bytes().unwrap();
        if let Some(r) = rate {
            // The optimizer keeps its rate valid; a file need not.
            let lr = source.lr().to_le_bytes();
            let at = bytes.windows(8).position(|w| w == lr).unwrap();
            bytes[at..at + 8].copy_from_slice(&r.to_le_bytes());
        }

        let mut target = Adam::<Model>::new(AdamConfig::default()).unwrap();
        train(
            0..1,
            &mut initial(),
            &mut target,
            &mut ResumableRng::seed_from_u64(6),
        );
        let before = std::format!("{target:?}");
        let err = TrainState::from_bytes(&bytes)
            .unwrap()
            .restore_optimizer(&mut target)
            .unwrap_err();
        assert!(
            matches!(&err, CheckpointError::InvalidValue { name: n, reason }
                if n.starts_with(&std::format!("optimizer.{name}")) && reason.contains(says)),
            "{name}: {err}"
        );
        assert_eq!(
            std::format!("{target:?}"),
            before,
            "{name}: a refused restore changes nothing"
        );
    }
}

/// Rows `i` with 3 features `[i, i / 2, -i] / 10` and label `i % 3`.
fn table(rows: usize) -> Dataset {
    Dataset {
        features: (0..rows)
            .flat_map(|i| [i as f32 / 10.0, i as f32 / 20.0, -(i as f32) / 10.0])
            .collect(),
        labels: (0..rows).map(|i| i % 3).collect(),
        n_features: 3,
        n_classes: 3,
        class_names: Vec::new(),
    }
}

/// `steps` steps on batches of a shuffled loader (a new epoch, shuffled, when one runs out).
fn train_on_batches(
    steps: usize,
    loader: &mut BatchLoader<'_, 3, 4>,
    params: &mut Model,
    opt: &mut Sgd<Model>,
    rng: &mut ResumableRng,
) {
    let (mut x, mut y) = ([[0.0; 3]; 4], [0; 4]);
    for _ in 0..steps {
        if loader.next_batch(&mut x, &mut y).is_none() {
            loader.shuffle(rng);
            loader.next_batch(&mut x, &mut y).unwrap();
        }
        let mut grads = Model::zeroed();
        // Any gradient that depends on the batch and on the parameters will do.
        for (row, &label) in x.iter().zip(&y) {
            for (l, layer) in params.layers.iter().enumerate() {
                for (o, w) in layer.w.iter().enumerate() {
                    let err = w.iter().zip(row).map(|(w, x)| w * x).sum::<f32>() + layer.b[o]
                        - label as f32;
                    for (k, g) in grads.layers[l].w[o].iter_mut().enumerate() {
                        *g += err * row[k];
                    }
                    grads.layers[l].b[o] += err;
                }
            }
        }
        opt.step(params, &grads);
    }
}

/// Mid-epoch: the loader's order and position and the shuffling generator are restored.
#[test]
fn a_shuffled_batch_loader_resumes_mid_epoch() {
    let data = table(10); // two batches of 4 an epoch, the last 2 rows dropped
    let new_opt = || {
        Sgd::new(SgdConfig {
            lr: 0.01,
            momentum: 0.9,
            ..SgdConfig::default()
        })
        .unwrap()
    };
    let start = || {
        let mut loader = BatchLoader::<3, 4>::new(&data, LastBatch::Drop).unwrap();
        let mut rng = ResumableRng::seed_from_u64(3);
        loader.shuffle(&mut rng);
        (loader, rng)
    };

    let (mut loader, mut rng) = start();
    let (mut params, mut opt) = (initial(), new_opt());
    train_on_batches(14, &mut loader, &mut params, &mut opt, &mut rng);

    let (mut loader1, mut rng1) = start();
    let (mut params1, mut opt1) = (initial(), new_opt());
    train_on_batches(7, &mut loader1, &mut params1, &mut opt1, &mut rng1);
    assert_eq!(loader1.position(), 4, "the run should stop mid-epoch");
    let mut state = TrainState::new(7);
    state.insert_params(&params1);
    state.insert_optimizer(&opt1);
    state.insert_rng("rng", &rng1);
    state.insert_loader("loader", &loader1);
    let state = TrainState::from_bytes(&state.to_bytes().unwrap()).unwrap();

    let mut loader2 = BatchLoader::<3, 4>::new(&data, LastBatch::Drop).unwrap();
    let (mut params2, mut opt2) = (Model::zeroed(), new_opt());
    state.restore_params(&mut params2).unwrap();
    state.restore_optimizer(&mut opt2).unwrap();
    state.restore_loader("loader", &mut loader2).unwrap();
    let mut rng2 = state.rng("rng").unwrap();
    assert_eq!((loader2.order(), loader2.position()), (loader1.order(), 4));
    train_on_batches(7, &mut loader2, &mut params2, &mut opt2, &mut rng2);
    assert_eq!(bits(&params2), bits(&params));
    assert_ne!(bits(&params2), bits(&initial()));

    // A loader over another data set is refused.
    let other = table(12);
    let mut wrong = BatchLoader::<3, 4>::new(&other, LastBatch::Drop).unwrap();
    let err = state.restore_loader("loader", &mut wrong).unwrap_err();
    assert!(
        matches!(&err, CheckpointError::InvalidValue { name, .. } if name == "values.loader.order"),
        "{err}"
    );
    assert_eq!(wrong.order(), (0..12).collect::<Vec<_>>());
}
