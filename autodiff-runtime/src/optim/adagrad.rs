//! Adagrad with learning-rate decay (`torch.optim.Adagrad`).

use super::state::restore_lr;
use super::{
    ConfigError, Optimizer, OptimizerState, StateVisitor, StateVisitorMut, non_negative, positive,
    require_lr,
};
use crate::math::Float;
use crate::params::{Parameters, zip_update};

/// Hyperparameters of [`Adagrad`], checked by [`Adagrad::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdagradConfig {
    /// Learning rate, finite and `>= 0`.
    pub lr: f64,
    /// The rate at step `t` (from 1) is `lr / (1 + (t - 1) * lr_decay)`; finite and `>= 0`.
    pub lr_decay: f64,
    /// L2 penalty added to the gradient, `g + weight_decay * p`; finite and `>= 0`.
    pub weight_decay: f64,
    /// Starting value of the sum of squared gradients, finite and `>= 0`.
    pub initial_accumulator_value: f64,
    /// Added to the denominator for stability, finite and `> 0`.
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

impl AdagradConfig {
    /// `Ok` if every hyperparameter is in range (what [`Adagrad::new`] checks).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] for a value outside the range its field documents.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::optim::AdagradConfig;
    ///
    /// assert!(AdagradConfig::default().validate().is_ok());
    /// assert!(AdagradConfig { lr: -1.0, ..AdagradConfig::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        non_negative("lr", self.lr)?;
        non_negative("lr_decay", self.lr_decay)?;
        non_negative("weight_decay", self.weight_decay)?;
        non_negative("initial_accumulator_value", self.initial_accumulator_value)?;
        positive("eps", self.eps)
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
    config: AdagradConfig,
    sum: P,
    t: u64,
}

impl<P: Parameters> Adagrad<P> {
    /// Creates the optimizer with the accumulator at `initial_accumulator_value`.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] if a hyperparameter is out of range (see [`AdagradConfig::validate`]).
    ///
    /// # Examples
    ///
    /// See [the crate documentation](crate) (Adam; every optimizer is used the same way).
    pub fn new(config: AdagradConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let mut sum = P::zeroed();
        let start = P::Scalar::from_f64(config.initial_accumulator_value);
        sum.for_each_mut(|s| *s = start);
        Ok(Adagrad { config, sum, t: 0 })
    }

    /// The hyperparameters (the learning rate as last set by [`Optimizer::set_lr`]).
    #[must_use]
    pub fn config(&self) -> &AdagradConfig {
        &self.config
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
        zip_update(params, grads, [&mut self.sum], move |p, g, [s]| {
            let d = g + wd * *p;
            *s += d * d;
            *p -= lr * d / (s.sqrt() + eps);
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

/// State: `sum` (of squared gradients), the step count `t` and `lr`.
impl<P: Parameters> OptimizerState<P> for Adagrad<P> {
    const KIND: &'static str = "Adagrad";

    fn visit_state<V: StateVisitor<P>>(&self, visitor: &mut V) {
        visitor.buffer("sum", &self.sum);
        visitor.count("t", self.t);
        visitor.scalar("lr", self.config.lr);
    }

    fn visit_state_mut<V: StateVisitorMut<P>>(
        &mut self,
        visitor: &mut V,
    ) -> Result<(), ConfigError> {
        visitor.buffer("sum", &mut self.sum);
        visitor.count("t", &mut self.t);
        restore_lr(&mut self.config.lr, visitor)
    }
}
