//! The multilayer perceptron of the `digits_mlp` example: parameters, the differentiable loss, and
//! one training step. Shared with `benches/mlp.rs`.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::runtime::optim::{Adam, AdamConfig, Optimizer};
use stackgrad::runtime::{init, nn};
use stackgrad::{Parameters, differentiable};

/// Pixels per image (8x8), hidden units, classes, rows per mini-batch.
pub const PIXELS: usize = 64;
pub const HIDDEN: usize = 64;
pub const CLASSES: usize = 10;
pub const BATCH: usize = 32;

/// Two linear layers with a ReLU between them.
#[derive(Parameters, Clone, Debug)]
pub struct Mlp {
    pub w1: [[f32; PIXELS]; HIDDEN],
    pub b1: [f32; HIDDEN],
    pub w2: [[f32; HIDDEN]; CLASSES],
    pub b2: [f32; CLASSES],
}

/// The class scores of `N` images. Differentiated with respect to the parameters only: the
/// caller passes no derivative for the images (its call names no constants, so it goes through
/// the callee contract, which takes `()` there), and the first layer's input adjoint is never
/// computed.
#[differentiable(wrt(p))]
pub fn mlp_logits<const N: usize>(p: &Mlp, x: &[[f32; PIXELS]; N]) -> [[f32; CLASSES]; N] {
    let h: [[f32; HIDDEN]; N] = nn::linear::<N, PIXELS, HIDDEN>(x, &p.w1, &p.b1);
    let a: [[f32; HIDDEN]; N] = nn::relu::<N, HIDDEN>(&h);
    nn::linear::<N, HIDDEN, CLASSES>(&a, &p.w2, &p.b2)
}

/// The mean cross-entropy of the `labels` of `N` images.
#[differentiable(wrt(p))]
pub fn mlp_loss<const N: usize>(p: &Mlp, x: &[[f32; PIXELS]; N], labels: &[usize; N]) -> f32 {
    let logits = mlp_logits(p, x);
    nn::cross_entropy::<N, CLASSES>(&logits, labels)
}

/// He-normal weights for the ReLU layer, Xavier for the output layer, zero biases.
pub fn init_mlp(seed: u64) -> Mlp {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut p = Mlp::zeroed();
    init::he_normal(p.w1.as_flattened_mut(), PIXELS, &mut rng);
    let fans = init::fans(&[CLASSES, HIDDEN]);
    init::xavier_uniform(p.w2.as_flattened_mut(), fans, 1.0, &mut rng);
    p
}

/// Everything one training step needs, allocated once.
pub struct Trainer {
    pub params: Mlp,
    pub grads: Mlp,
    pub opt: Adam<Mlp>,
    pub tape: MlpLossTape<BATCH>,
}

impl Trainer {
    /// A freshly initialised model and Adam with learning rate `lr` (PyTorch's other defaults).
    ///
    /// # Panics
    ///
    /// If `lr` is negative or not finite.
    pub fn new(seed: u64, lr: f64) -> Self {
        let opt = Adam::new(AdamConfig {
            lr,
            ..AdamConfig::default()
        });
        Trainer {
            params: init_mlp(seed),
            grads: Mlp::zeroed(),
            opt: opt.unwrap_or_else(|e| panic!("{e}")),
            tape: MlpLossTape::new(),
        }
    }

    /// Zero the gradients, forward, reverse sweep, Adam update; returns the loss.
    pub fn step(&mut self, x: &[[f32; PIXELS]; BATCH], y: &[usize; BATCH]) -> f32 {
        self.grads.zero();
        let loss = mlp_loss_forward::<BATCH>(&self.params, x, y, &mut self.tape);
        mlp_loss_adjoint::<BATCH>(&self.params, x, y, &self.tape, 1.0, &mut self.grads);
        self.opt.step(&mut self.params, &self.grads);
        loss
    }
}
