//! Adagrad with learning-rate decay (`torch.optim.Adagrad`).

use super::{Optimizer, require_non_negative};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`Adagrad`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdagradConfig {
    /// Learning rate.
    pub lr: f64,
    /// The rate at step `t` (from 1) is `lr / (1 + (t - 1) * lr_decay)`.
    pub lr_decay: f64,
    /// L2 penalty added to the gradient: `g + weight_decay * p`.
    pub weight_decay: f64,
    /// Starting value of the sum of squared gradients.
    pub initial_accumulator_value: f64,
    /// Added to the denominator for stability.
    pub eps: f64,
}

impl Default for AdagradConfig {
    /// `lr = 0.01`, no decay, accumulator starts at `0`, `eps = 1e-10`, as in PyTorch.
    fn default() -> Self {
        AdagradConfig {
            lr: 0.01,
            lr_decay: 0.0,
            weight_decay: 0.0,
            initial_accumulator_value: 0.0,
            eps: 1e-10,
        }
    }
}

/// Adagrad state: the per-parameter sum of squared gradients and the step count.
///
/// Per element, with `d = g + weight_decay * p`: `s += d^2`, `p -= lr_t d / (sqrt(s) + eps)`.
///
/// # Examples
///
/// See [the crate documentation](crate) (Adam; every optimizer is used the same way).
#[derive(Clone, Debug)]
pub struct Adagrad<P> {
    /// Hyperparameters, read at every step.
    pub config: AdagradConfig,
    sum: P,
    t: u64,
}

impl<P: Parameters> Adagrad<P> {
    /// Creates the optimizer with the accumulator at `initial_accumulator_value`.
    ///
    /// # Panics
    ///
    /// If a hyperparameter is negative or not finite.
    #[track_caller]
    #[must_use]
    pub fn new(config: AdagradConfig) -> Self {
        require_non_negative("lr", config.lr);
        require_non_negative("weight_decay", config.weight_decay);
        require_non_negative("lr_decay", config.lr_decay);
        require_non_negative(
            "initial_accumulator_value",
            config.initial_accumulator_value,
        );
        require_non_negative("eps", config.eps);
        let mut sum = P::zeroed();
        let start = P::Scalar::from_f64(config.initial_accumulator_value);
        sum.for_each_mut(|s| *s = start);
        Adagrad { config, sum, t: 0 }
    }
}

impl<P: Parameters> Optimizer<P> for Adagrad<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        self.t += 1;
        let c = self.config;
        #[allow(clippy::cast_precision_loss)]
        let decayed = c.lr / (1.0 + (self.t - 1) as f64 * c.lr_decay);
        let from = P::Scalar::from_f64;
        let (lr, wd, eps) = (from(decayed), from(c.weight_decay), from(c.eps));
        zip_update(params, grads, [&mut self.sum], |p, g, [s]| {
            let d = g + wd * *p;
            *s += d * d;
            *p -= lr * d / (s.sqrt() + eps);
        });
    }

    fn lr(&self) -> f64 {
        self.config.lr
    }

    fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }
}
