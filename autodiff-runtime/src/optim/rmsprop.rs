//! RMSProp with optional momentum and centring (`torch.optim.RMSprop`).

use super::state::restore_lr;
use super::{
    ConfigError, Optimizer, OptimizerState, StateVisitor, StateVisitorMut, beta, non_negative,
    positive, require_lr,
};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`RmsProp`], checked by [`RmsProp::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RmsPropConfig {
    /// Learning rate, finite and `>= 0`.
    pub lr: f64,
    /// Decay of the running average of squared gradients, in `[0, 1)`.
    pub alpha: f64,
    /// Added to the denominator for stability, finite and `> 0`.
    pub eps: f64,
    /// L2 penalty added to the gradient, `g + weight_decay * p`; finite and `>= 0`.
    pub weight_decay: f64,
    /// Momentum factor in `[0, 1)`; `0.0` disables the momentum buffer.
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

impl RmsPropConfig {
    /// `Ok` if every hyperparameter is in range (what [`RmsProp::new`] checks).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] for a value outside the range its field documents.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::optim::RmsPropConfig;
    ///
    /// assert!(RmsPropConfig::default().validate().is_ok());
    /// assert!(RmsPropConfig { lr: -1.0, ..RmsPropConfig::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        non_negative("lr", self.lr)?;
        beta("alpha", self.alpha)?;
        positive("eps", self.eps)?;
        non_negative("weight_decay", self.weight_decay)?;
        beta("momentum", self.momentum)
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
    config: RmsPropConfig,
    square_avg: P,
    momentum_buf: Option<P>,
    grad_avg: Option<P>,
}

impl<P: Parameters> RmsProp<P> {
    /// Creates the optimizer with zeroed buffers.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] if a hyperparameter is out of range (see [`RmsPropConfig::validate`]).
    ///
    /// # Examples
    ///
    /// See [the crate documentation](crate) (Adam; every optimizer is used the same way).
    pub fn new(config: RmsPropConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(RmsProp {
            config,
            square_avg: P::zeroed(),
            momentum_buf: (config.momentum > 0.0).then(P::zeroed),
            grad_avg: config.centered.then(P::zeroed),
        })
    }

    /// The hyperparameters (the learning rate as last set by [`Optimizer::set_lr`]).
    #[must_use]
    pub fn config(&self) -> &RmsPropConfig {
        &self.config
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

        let update = move |p: &mut P::Scalar,
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
            (None, None) => zip_update(params, grads, [s], move |p, g, [s]| {
                update(p, g, s, None, None)
            }),
            (Some(b), None) => zip_update(params, grads, [s, b], move |p, g, [s, b]| {
                update(p, g, s, Some(b), None)
            }),
            (None, Some(a)) => zip_update(params, grads, [s, a], move |p, g, [s, a]| {
                update(p, g, s, None, Some(a))
            }),
            (Some(b), Some(a)) => {
                zip_update(params, grads, [s, b, a], move |p, g, [s, b, a]| {
                    update(p, g, s, Some(b), Some(a))
                });
            }
        }
    }

    fn lr(&self) -> f64 {
        self.config.lr
    }

    #[track_caller]
    fn set_lr(&mut self, lr: f64) {
        require_lr(lr);
        self.config.lr = lr;
    }
}

/// State: `square_avg`, `momentum_buf` (with momentum), `grad_avg` (centred) and `lr`.
impl<P: Parameters> OptimizerState<P> for RmsProp<P> {
    const KIND: &'static str = "RmsProp";

    fn visit_state<V: StateVisitor<P>>(&self, visitor: &mut V) {
        visitor.buffer("square_avg", &self.square_avg);
        if let Some(b) = &self.momentum_buf {
            visitor.buffer("momentum_buf", b);
        }
        if let Some(a) = &self.grad_avg {
            visitor.buffer("grad_avg", a);
        }
        visitor.scalar("lr", self.config.lr);
    }

    fn visit_state_mut<V: StateVisitorMut<P>>(
        &mut self,
        visitor: &mut V,
    ) -> Result<(), ConfigError> {
        visitor.buffer("square_avg", &mut self.square_avg);
        if let Some(b) = &mut self.momentum_buf {
            visitor.buffer("momentum_buf", b);
        }
        if let Some(a) = &mut self.grad_avg {
            visitor.buffer("grad_avg", a);
        }
        restore_lr(&mut self.config.lr, visitor)
    }
}
