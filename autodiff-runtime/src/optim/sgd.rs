//! Stochastic gradient descent with momentum, Nesterov momentum and L2 weight decay
//! (`torch.optim.SGD`).

use super::{Optimizer, require_beta, require_non_negative};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`Sgd`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdConfig {
    /// Learning rate.
    pub lr: f64,
    /// Momentum factor; `0.0` disables the velocity buffer.
    pub momentum: f64,
    /// Dampening of the gradient added to the velocity.
    pub dampening: f64,
    /// L2 penalty added to the gradient: `g + weight_decay * p`.
    pub weight_decay: f64,
    /// Nesterov momentum (needs `momentum > 0` and `dampening == 0`).
    pub nesterov: bool,
}

impl Default for SgdConfig {
    /// `lr = 0.01`, no momentum, no weight decay.
    fn default() -> Self {
        SgdConfig {
            lr: 0.01,
            momentum: 0.0,
            dampening: 0.0,
            weight_decay: 0.0,
            nesterov: false,
        }
    }
}

/// SGD state: the velocity buffer, present when momentum is on.
///
/// Per element, with `d = g + weight_decay * p`:
/// `b = d` on the first step, then `b = momentum * b + (1 - dampening) * d`;
/// `p -= lr * (d + momentum * b)` with Nesterov, `p -= lr * b` without, `p -= lr * d` without momentum.
///
/// # Examples
///
/// See [the module documentation](crate::optim).
#[derive(Clone, Debug)]
pub struct Sgd<P> {
    /// Hyperparameters, read at every step.
    pub config: SgdConfig,
    velocity: Option<P>,
    started: bool,
}

impl<P: Parameters> Sgd<P> {
    /// Creates the optimizer; the velocity buffer exists only when `config.momentum > 0`.
    ///
    /// # Panics
    ///
    /// If a hyperparameter is out of range, or Nesterov is asked for without momentum or with
    /// dampening.
    #[track_caller]
    #[must_use]
    pub fn new(config: SgdConfig) -> Self {
        require_non_negative("lr", config.lr);
        require_non_negative("weight_decay", config.weight_decay);
        require_non_negative("dampening", config.dampening);
        require_beta("momentum", config.momentum);
        assert!(
            !config.nesterov || (config.momentum > 0.0 && config.dampening == 0.0),
            "Nesterov momentum requires momentum > 0 and dampening = 0"
        );
        let velocity = (config.momentum != 0.0).then(P::zeroed);
        Sgd {
            config,
            velocity,
            started: false,
        }
    }
}

impl<P: Parameters> Optimizer<P> for Sgd<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        let c = self.config;
        let lr = P::Scalar::from_f64(c.lr);
        let wd = P::Scalar::from_f64(c.weight_decay);
        let momentum = P::Scalar::from_f64(c.momentum);
        let undamped = P::Scalar::from_f64(1.0 - c.dampening);
        let first = !self.started || self.velocity.is_none();
        self.started = true;
        let velocity = match (&mut self.velocity, c.momentum != 0.0) {
            (Some(v), true) => v,
            (None, true) => self.velocity.insert(P::zeroed()),
            (_, false) => {
                params.zip_mut(grads, |p, g| *p -= lr * (g + wd * *p));
                return;
            }
        };
        zip_update(params, grads, [velocity], |p, g, [b]| {
            let d = g + wd * *p;
            *b = if first {
                d
            } else {
                (momentum * *b + undamped * d).flush_subnormal()
            };
            *p -= lr * if c.nesterov { d + momentum * *b } else { *b };
        });
    }

    fn lr(&self) -> f64 {
        self.config.lr
    }

    fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }
}
