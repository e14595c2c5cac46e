//! Stochastic gradient descent with momentum, Nesterov momentum and L2 weight decay
//! (`torch.optim.SGD`).

use super::state::restore_lr;
use super::{
    ConfigError, Optimizer, OptimizerState, StateVisitor, StateVisitorMut, beta, non_negative,
    require_lr,
};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`Sgd`], checked by [`Sgd::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdConfig {
    /// Learning rate, finite and `>= 0`.
    pub lr: f64,
    /// Momentum factor in `[0, 1)`; `0.0` disables the velocity buffer.
    pub momentum: f64,
    /// Dampening of the gradient added to the velocity, finite and `>= 0`.
    pub dampening: f64,
    /// L2 penalty added to the gradient, `g + weight_decay * p`; finite and `>= 0`.
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

impl SgdConfig {
    /// `Ok` if every hyperparameter is in range (what [`Sgd::new`] checks).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] for a value outside the range its field documents, and [`ConfigError::Nesterov`] for Nesterov momentum without momentum or with dampening.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::optim::SgdConfig;
    ///
    /// assert!(SgdConfig::default().validate().is_ok());
    /// assert!(SgdConfig { lr: -1.0, ..SgdConfig::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        non_negative("lr", self.lr)?;
        beta("momentum", self.momentum)?;
        non_negative("dampening", self.dampening)?;
        non_negative("weight_decay", self.weight_decay)?;
        if self.nesterov && (self.momentum <= 0.0 || self.dampening != 0.0) {
            return Err(ConfigError::Nesterov {
                momentum: self.momentum,
                dampening: self.dampening,
            });
        }
        Ok(())
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
    config: SgdConfig,
    velocity: Option<P>,
    /// Steps taken: the first one starts the velocity at the gradient.
    t: u64,
}

impl<P: Parameters> Sgd<P> {
    /// Creates the optimizer; the velocity buffer exists only when `config.momentum > 0`.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] if a hyperparameter is out of range (see [`SgdConfig::validate`]).
    ///
    /// # Examples
    ///
    /// See [the module documentation](crate::optim).
    pub fn new(config: SgdConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let velocity = (config.momentum != 0.0).then(P::zeroed);
        Ok(Sgd {
            config,
            velocity,
            t: 0,
        })
    }

    /// The hyperparameters (the learning rate as last set by [`Optimizer::set_lr`]).
    #[must_use]
    pub fn config(&self) -> &SgdConfig {
        &self.config
    }
}

impl<P: Parameters> Optimizer<P> for Sgd<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        let c = self.config;
        let lr = P::Scalar::from_f64(c.lr);
        let wd = P::Scalar::from_f64(c.weight_decay);
        let momentum = P::Scalar::from_f64(c.momentum);
        let undamped = P::Scalar::from_f64(1.0 - c.dampening);
        let first = self.t == 0 || self.velocity.is_none();
        self.t += 1;
        let velocity = match (&mut self.velocity, c.momentum != 0.0) {
            (Some(v), true) => v,
            (None, true) => self.velocity.insert(P::zeroed()),
            (_, false) => {
                params.zip_mut(grads, move |p, g| *p -= lr * (g + wd * *p));
                return;
            }
        };
        zip_update(params, grads, [velocity], move |p, g, [b]| {
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

    #[track_caller]
    fn set_lr(&mut self, lr: f64) {
        require_lr(lr);
        self.config.lr = lr;
    }
}

/// State: `velocity` (with momentum), the step count `t` and `lr`.
impl<P: Parameters> OptimizerState<P> for Sgd<P> {
    const KIND: &'static str = "Sgd";

    fn visit_state<V: StateVisitor<P>>(&self, visitor: &mut V) {
        if let Some(velocity) = &self.velocity {
            visitor.buffer("velocity", velocity);
        }
        visitor.count("t", self.t);
        visitor.scalar("lr", self.config.lr);
    }

    fn visit_state_mut<V: StateVisitorMut<P>>(
        &mut self,
        visitor: &mut V,
    ) -> Result<(), ConfigError> {
        if let Some(velocity) = &mut self.velocity {
            visitor.buffer("velocity", velocity);
        }
        visitor.count("t", &mut self.t);
        restore_lr(&mut self.config.lr, visitor)
    }
}
