//! Lion, "EvoLved Sign Momentum" (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms",
//! Algorithm 2). PyTorch has no Lion, so its reference trajectory is the paper's formula written
//! with torch tensor operations in `tools/optim_reference.py`.

use super::state::restore_lr;
use super::{
    ConfigError, Optimizer, OptimizerState, StateVisitor, StateVisitorMut, beta, non_negative,
    require_lr,
};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`Lion`], checked by [`Lion::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LionConfig {
    /// Learning rate (typically 3 to 10 times smaller than AdamW's), finite and `>= 0`.
    pub lr: f64,
    /// Interpolation between momentum and gradient for the update direction, in `[0, 1)`.
    pub beta1: f64,
    /// Decay of the momentum, in `[0, 1)`.
    pub beta2: f64,
    /// Decoupled decay: every step first multiplies the parameters by `1 - lr * weight_decay`;
    /// finite and `>= 0`.
    pub weight_decay: f64,
}

impl Default for LionConfig {
    /// `lr = 1e-4`, `betas = (0.9, 0.99)`, no weight decay, as in the paper.
    fn default() -> Self {
        LionConfig {
            lr: 1e-4,
            beta1: 0.9,
            beta2: 0.99,
            weight_decay: 0.0,
        }
    }
}

impl LionConfig {
    /// `Ok` if every hyperparameter is in range (what [`Lion::new`] checks).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] for a value outside the range its field documents.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::optim::LionConfig;
    ///
    /// assert!(LionConfig::default().validate().is_ok());
    /// assert!(LionConfig { lr: -1.0, ..LionConfig::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        non_negative("lr", self.lr)?;
        beta("beta1", self.beta1)?;
        beta("beta2", self.beta2)?;
        non_negative("weight_decay", self.weight_decay)
    }
}

/// Lion state: the momentum.
///
/// Per element: `p = p (1 - lr wd) - lr sign(b1 m + (1 - b1) g)`, then `m = b2 m + (1 - b2) g`.
///
/// # Examples
///
/// See [the crate documentation](crate) (Adam; every optimizer is used the same way).
#[derive(Clone, Debug)]
pub struct Lion<P> {
    config: LionConfig,
    momentum: P,
}

impl<P: Parameters> Lion<P> {
    /// Creates the optimizer with zero momentum.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] if a hyperparameter is out of range (see [`LionConfig::validate`]).
    ///
    /// # Examples
    ///
    /// See [the crate documentation](crate) (Adam; every optimizer is used the same way).
    pub fn new(config: LionConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Lion {
            config,
            momentum: P::zeroed(),
        })
    }

    /// The hyperparameters (the learning rate as last set by [`Optimizer::set_lr`]).
    #[must_use]
    pub fn config(&self) -> &LionConfig {
        &self.config
    }
}

impl<P: Parameters> Optimizer<P> for Lion<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        let c = self.config;
        let from = P::Scalar::from_f64;
        let (lr, shrink) = (from(c.lr), from(1.0 - c.lr * c.weight_decay));
        let (b1, one_minus_b1) = (from(c.beta1), from(1.0 - c.beta1));
        let (b2, one_minus_b2) = (from(c.beta2), from(1.0 - c.beta2));
        zip_update(params, grads, [&mut self.momentum], move |p, g, [m]| {
            *p = *p * shrink - lr * (b1 * *m + one_minus_b1 * g).sign();
            *m = (b2 * *m + one_minus_b2 * g).flush_subnormal();
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

/// State: `momentum` and `lr`.
impl<P: Parameters> OptimizerState<P> for Lion<P> {
    const KIND: &'static str = "Lion";

    fn visit_state<V: StateVisitor<P>>(&self, visitor: &mut V) {
        visitor.buffer("momentum", &self.momentum);
        visitor.scalar("lr", self.config.lr);
    }

    fn visit_state_mut<V: StateVisitorMut<P>>(
        &mut self,
        visitor: &mut V,
    ) -> Result<(), ConfigError> {
        visitor.buffer("momentum", &mut self.momentum);
        restore_lr(&mut self.config.lr, visitor)
    }
}
