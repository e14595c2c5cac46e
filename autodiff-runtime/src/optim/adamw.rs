//! AdamW: Adam with decoupled weight decay (`torch.optim.AdamW`).

use super::adam::{AdamConfig, Moments};
use super::state::restore_lr;
use super::{ConfigError, Optimizer, OptimizerState, StateVisitor, StateVisitorMut, require_lr};
use crate::params::Parameters;

/// Hyperparameters of [`AdamW`], checked by [`AdamW::new`]. [`Default`] gives PyTorch's
/// `torch.optim.AdamW` defaults: `lr = 1e-3`, `betas = (0.9, 0.999)`, `eps = 1e-8`,
/// `weight_decay = 0.01`, no AMSGrad.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::optim::AdamWConfig;
///
/// let config = AdamWConfig { lr: 3e-4, ..AdamWConfig::default() };
/// assert_eq!((config.weight_decay, config.beta2), (0.01, 0.999));
/// assert!(config.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamWConfig {
    /// Learning rate, finite and `>= 0`.
    pub lr: f64,
    /// Decay of the first-moment (mean) estimate, in `[0, 1)`.
    pub beta1: f64,
    /// Decay of the second-moment (uncentred variance) estimate, in `[0, 1)`.
    pub beta2: f64,
    /// Added to the denominator for stability, finite and `> 0`.
    pub eps: f64,
    /// Decoupled decay: every step first multiplies the parameters by `1 - lr * weight_decay`;
    /// finite and `>= 0`.
    pub weight_decay: f64,
    /// Divide by the running maximum of the second moment (AMSGrad).
    pub amsgrad: bool,
}

impl Default for AdamWConfig {
    /// `lr = 1e-3`, `betas = (0.9, 0.999)`, `eps = 1e-8`, `weight_decay = 0.01`, as in PyTorch.
    fn default() -> Self {
        AdamWConfig {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 1e-2,
            amsgrad: false,
        }
    }
}

impl AdamWConfig {
    /// `Ok` if every hyperparameter is in range (what [`AdamW::new`] checks).
    ///
    /// # Errors
    ///
    /// As [`AdamConfig::validate`]: [`ConfigError::OutOfRange`] for a negative or non-finite `lr`
    /// or `weight_decay`, a beta outside `[0, 1)`, or `eps` not finite and positive.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::optim::AdamWConfig;
    ///
    /// let err = AdamWConfig { beta1: 1.0, ..AdamWConfig::default() }.validate().unwrap_err();
    /// assert_eq!(err.to_string(), "`beta1` must be in [0, 1), got 1");
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.moments_config().validate()
    }

    /// The same numbers for the moment buffers AdamW shares with Adam.
    fn moments_config(&self) -> AdamConfig {
        AdamConfig {
            lr: self.lr,
            beta1: self.beta1,
            beta2: self.beta2,
            eps: self.eps,
            weight_decay: self.weight_decay,
            amsgrad: self.amsgrad,
        }
    }
}

/// AdamW state: Adam's moments; each step is Adam's after `p *= 1 - lr * weight_decay`.
///
/// # Examples
///
/// See [the crate documentation](crate) (Adam; AdamW is used the same way, with an
/// [`AdamWConfig`]).
#[derive(Clone, Debug)]
pub struct AdamW<P> {
    config: AdamWConfig,
    moments: Moments<P>,
}

impl<P: Parameters> AdamW<P> {
    /// Creates the optimizer with zeroed moments.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] if a hyperparameter is out of range (see [`AdamWConfig::validate`]).
    ///
    /// # Examples
    ///
    /// See [the crate documentation](crate).
    pub fn new(config: AdamWConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(AdamW {
            config,
            moments: Moments::new(config.amsgrad),
        })
    }

    /// The hyperparameters (the learning rate as last set by [`Optimizer::set_lr`]).
    #[must_use]
    pub fn config(&self) -> &AdamWConfig {
        &self.config
    }

    /// Number of steps taken.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.moments.t
    }
}

impl<P: Parameters> Optimizer<P> for AdamW<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        self.moments
            .step(params, grads, &self.config.moments_config(), true);
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

/// State: `m`, `v`, `v_max` (with AMSGrad), the step count `t` and `lr`.
impl<P: Parameters> OptimizerState<P> for AdamW<P> {
    const KIND: &'static str = "AdamW";

    fn visit_state<V: StateVisitor<P>>(&self, visitor: &mut V) {
        self.moments.visit(visitor);
        visitor.scalar("lr", self.config.lr);
    }

    fn visit_state_mut<V: StateVisitorMut<P>>(
        &mut self,
        visitor: &mut V,
    ) -> Result<(), ConfigError> {
        self.moments.visit_mut(visitor);
        restore_lr(&mut self.config.lr, visitor)
    }
}
