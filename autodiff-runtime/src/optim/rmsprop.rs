//! RMSProp with optional momentum and centring (`torch.optim.RMSprop`).

use super::{Optimizer, require_beta, require_non_negative};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`RmsProp`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RmsPropConfig {
    /// Learning rate.
    pub lr: f64,
    /// Decay of the running average of squared gradients.
    pub alpha: f64,
    /// Added to the denominator for stability.
    pub eps: f64,
    /// L2 penalty added to the gradient: `g + weight_decay * p`.
    pub weight_decay: f64,
    /// Momentum factor; `0.0` disables the momentum buffer.
    pub momentum: f64,
    /// Normalise by the estimated variance (subtracting the squared running mean of gradients).
    pub centered: bool,
}

impl Default for RmsPropConfig {
    /// `lr = 0.01`, `alpha = 0.99`, `eps = 1e-8`, no decay, no momentum, not centred, as in PyTorch.
    fn default() -> Self {
        RmsPropConfig {
            lr: 0.01,
            alpha: 0.99,
            eps: 1e-8,
            weight_decay: 0.0,
            momentum: 0.0,
            centered: false,
        }
    }
}

/// RMSProp state: the running average of squared gradients, plus a momentum buffer and a running
/// mean of gradients when those options are on.
///
/// Per element, with `d = g + weight_decay * p`: `s = alpha s + (1 - alpha) d^2`; centred,
/// `a = alpha a + (1 - alpha) d` and `r = sqrt(s - a^2) + eps`, else `r = sqrt(s) + eps`; with momentum
/// `b = momentum b + d / r` and `p -= lr b`, else `p -= lr d / r`.
///
/// # Examples
///
/// See [the crate documentation](crate) (Adam; every optimizer is used the same way).
#[derive(Clone, Debug)]
pub struct RmsProp<P> {
    /// Hyperparameters, read at every step.
    pub config: RmsPropConfig,
    square_avg: P,
    momentum_buf: Option<P>,
    grad_avg: Option<P>,
}

impl<P: Parameters> RmsProp<P> {
    /// Creates the optimizer with zeroed buffers.
    ///
    /// # Panics
    ///
    /// If a hyperparameter is out of range.
    #[track_caller]
    #[must_use]
    pub fn new(config: RmsPropConfig) -> Self {
        require_non_negative("lr", config.lr);
        require_non_negative("weight_decay", config.weight_decay);
        require_non_negative("eps", config.eps);
        require_beta("alpha", config.alpha);
        require_beta("momentum", config.momentum);
        RmsProp {
            config,
            square_avg: P::zeroed(),
            momentum_buf: (config.momentum > 0.0).then(P::zeroed),
            grad_avg: config.centered.then(P::zeroed),
        }
    }
}

impl<P: Parameters> Optimizer<P> for RmsProp<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        let c = self.config;
        let from = P::Scalar::from_f64;
        let (lr, alpha, one_minus_alpha) = (from(c.lr), from(c.alpha), from(1.0 - c.alpha));
        let (eps, wd, momentum) = (from(c.eps), from(c.weight_decay), from(c.momentum));
        if c.momentum > 0.0 && self.momentum_buf.is_none() {
            self.momentum_buf = Some(P::zeroed());
        }
        if c.centered && self.grad_avg.is_none() {
            self.grad_avg = Some(P::zeroed());
        }
        let momentum_on = c.momentum > 0.0;
        let centered = c.centered;

        let update = |p: &mut P::Scalar,
                      g: P::Scalar,
                      s: &mut P::Scalar,
                      b: Option<&mut P::Scalar>,
                      a: Option<&mut P::Scalar>| {
            let d = g + wd * *p;
            *s = (alpha * *s + one_minus_alpha * d * d).flush_subnormal();
            let rms = match a {
                Some(a) => {
                    *a = (*a + one_minus_alpha * (d - *a)).flush_subnormal();
                    (*s - *a * *a).sqrt() + eps
                }
                None => s.sqrt() + eps,
            };
            match b {
                Some(b) => {
                    *b = (momentum * *b + d / rms).flush_subnormal();
                    *p -= lr * *b;
                }
                None => *p -= lr * d / rms,
            }
        };
        let s = &mut self.square_avg;
        match (
            self.momentum_buf.as_mut().filter(|_| momentum_on),
            self.grad_avg.as_mut().filter(|_| centered),
        ) {
            (None, None) => zip_update(params, grads, [s], |p, g, [s]| update(p, g, s, None, None)),
            (Some(b), None) => zip_update(params, grads, [s, b], |p, g, [s, b]| {
                update(p, g, s, Some(b), None)
            }),
            (None, Some(a)) => zip_update(params, grads, [s, a], |p, g, [s, a]| {
                update(p, g, s, None, Some(a))
            }),
            (Some(b), Some(a)) => {
                zip_update(params, grads, [s, b, a], |p, g, [s, b, a]| {
                    update(p, g, s, Some(b), Some(a))
                });
            }
        }
    }

    fn lr(&self) -> f64 {
        self.config.lr
    }

    fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }
}
