//! AdamW: Adam with decoupled weight decay (`torch.optim.AdamW`).

use super::Optimizer;
use super::adam::{AdamConfig, Moments};
use crate::params::Parameters;

/// AdamW state: Adam's moments; each step is Adam's after `p *= 1 - lr * weight_decay`.
///
/// It takes an [`AdamConfig`]; [`AdamConfig::adamw`] gives PyTorch's AdamW defaults
/// (`weight_decay = 0.01`).
///
/// # Examples
///
/// See [the crate documentation](crate) (Adam; AdamW is used the same way).
#[derive(Clone, Debug)]
pub struct AdamW<P> {
    /// Hyperparameters, read at every step.
    pub config: AdamConfig,
    moments: Moments<P>,
}

impl<P: Parameters> AdamW<P> {
    /// Creates the optimizer with zeroed moments.
    ///
    /// # Panics
    ///
    /// If a hyperparameter is out of range (negative rate, decay or eps, a beta outside `[0, 1)`).
    #[track_caller]
    #[must_use]
    pub fn new(config: AdamConfig) -> Self {
        config.validate();
        AdamW {
            config,
            moments: Moments::new(config.amsgrad),
        }
    }

    /// Number of steps taken.
    pub fn steps(&self) -> u64 {
        self.moments.t
    }
}

impl<P: Parameters> Optimizer<P> for AdamW<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        self.moments.step(params, grads, &self.config, true);
    }

    fn lr(&self) -> f64 {
        self.config.lr
    }

    fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }
}
