//! One step of every optimizer on as many parameters as the GPT example has (47,345 `f32`, one
//! tensor), and zeroing the gradient for comparison: `cargo bench --bench optimizers`. Each
//! step's loop runs compiled for the widest vectors the CPU has (`runtime::params::zip_update`,
//! AdamW's own loop); a loop bound by its memory traffic takes about as long as the zeroing pass
//! times the number of arrays it reads and writes.

use criterion::{Criterion, black_box};
use stackgrad::Parameters;
use stackgrad::runtime::optim::{
    Adagrad, AdagradConfig, AdamW, AdamWConfig, Lion, LionConfig, Optimizer, RmsProp,
    RmsPropConfig, Sgd, SgdConfig,
};

/// The GPT example's parameter count.
const N: usize = 47_345;

#[derive(Parameters, Clone)]
struct Flat {
    w: [f32; N],
}

#[allow(clippy::cast_precision_loss)]
fn flat(f: impl Fn(f32) -> f32) -> Box<Flat> {
    let mut p = Box::new(Flat { w: [0.0; N] });
    for (i, w) in p.w.iter_mut().enumerate() {
        *w = f(i as f32);
    }
    p
}

fn step(c: &mut Criterion, name: &str, mut opt: impl Optimizer<Flat>) {
    let mut params = flat(|i| (i * 1e-3).sin());
    let grads = flat(|i| (i * 3e-3).cos() * 1e-2);
    c.bench_function(name, |b| {
        b.iter(|| opt.step(black_box(&mut params), black_box(&grads)));
    });
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3))
        .configure_from_args();
    let mut grads = flat(|i| i);
    c.bench_function("optimizers/zero_gradient", |b| {
        b.iter(|| black_box(&mut *grads).zero());
    });
    let sgd = |momentum| SgdConfig {
        momentum,
        ..SgdConfig::default()
    };
    step(&mut c, "optimizers/sgd", Sgd::new(sgd(0.0)).expect("valid"));
    step(
        &mut c,
        "optimizers/sgd_momentum",
        Sgd::new(sgd(0.9)).expect("valid"),
    );
    let rmsprop = RmsProp::new(RmsPropConfig::default()).expect("valid");
    step(&mut c, "optimizers/rmsprop", rmsprop);
    let adagrad = Adagrad::new(AdagradConfig::default()).expect("valid");
    step(&mut c, "optimizers/adagrad", adagrad);
    step(
        &mut c,
        "optimizers/lion",
        Lion::new(LionConfig::default()).expect("valid"),
    );
    step(
        &mut c,
        "optimizers/adamw",
        AdamW::new(AdamWConfig::default()).expect("valid"),
    );
    c.final_summary();
}
