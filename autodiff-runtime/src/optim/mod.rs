//! Optimizers, one per file: a config struct with public hyperparameters and a state struct whose
//! buffers have the parameters' own type, so stepping never allocates.
//!
//! A config is plain data with PyTorch's defaults (`XConfig { lr: 0.1, ..XConfig::default() }`);
//! the optimizer's constructor validates it and returns a [`ConfigError`] for a value out of range
//! (a negative or non-finite rate or decay, a beta outside `[0, 1)`, `eps <= 0`). The optimizer
//! keeps its config private (read it with `config()`), so a running optimizer's hyperparameters are
//! always valid; [`Optimizer::set_lr`] checks the new rate too.
//!
//! Each optimizer follows the update rule of its PyTorch namesake (`torch.optim`), step for step;
//! `tests/optim_reference.rs` checks them against trajectories PyTorch computed
//! (`tools/optim_reference.py`). Lion is not in `torch.optim`; it follows the paper
//! (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms", Algorithm 2).
//!
//! Hyperparameters are `f64`; they are converted to the parameters' float type once per step.
//!
//! One deliberate difference from PyTorch: state that decays geometrically (momentum buffers,
//! Adam's and RMSprop's averages) is flushed to zero when it falls below the smallest normal
//! float ([`Float::flush_subnormal`](crate::math::Float::flush_subnormal)). Without it, the state of
//! a parameter whose gradient stays zero (an embedding row no batch uses) decays into subnormals
//! after a few hundred steps, and arithmetic on subnormals is tens of times slower on x86 (it
//! made AdamW a third of a GPT training step at batch 1). Values above `1.2e-38` (`f32`) are
//! untouched.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::optim::{Optimizer, Sgd, SgdConfig};
//! # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
//! # #[derive(Debug, PartialEq)]
//! # struct P([f32; 2]);
//! # impl Parameters for P {
//! #     type Scalar = f32;
//! #     const COUNT: usize = 2;
//! #     const TENSORS: usize = 1;
//! #     fn zeroed() -> Self { P([0.0; 2]) }
//! #     fn tensor(&self, i: usize) -> Option<&[f32]> { (i == 0).then_some(&self.0[..]) }
//! #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f32]> { (i == 0).then_some(&mut self.0[..]) }
//! #     fn visit<V: Visitor<f32>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[2], &self.0) }
//! #     fn visit_mut<V: VisitorMut<f32>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[2], &mut self.0) }
//! # }
//! let mut params = P([1.0, -1.0]);
//! let grads = P([0.5, 0.25]);
//! let mut sgd = Sgd::new(SgdConfig { lr: 0.5, ..SgdConfig::default() })?;
//! sgd.step(&mut params, &grads);
//! assert_eq!(params, P([0.75, -1.125]));
//!
//! // Out-of-range hyperparameters are errors, not silently used.
//! let err = Sgd::<P>::new(SgdConfig { lr: -0.5, ..SgdConfig::default() }).unwrap_err();
//! assert_eq!(err.to_string(), "`lr` must be finite and non-negative, got -0.5");
//! # Ok::<(), autodiff_runtime::optim::ConfigError>(())
//! ```

mod adagrad;
mod adam;
mod adamw;
mod lion;
mod rmsprop;
mod sgd;
mod state;

pub use adagrad::{Adagrad, AdagradConfig};
pub use adam::{Adam, AdamConfig};
pub use adamw::{AdamW, AdamWConfig};
pub use lion::{Lion, LionConfig};
pub use rmsprop::{RmsProp, RmsPropConfig};
pub use sgd::{Sgd, SgdConfig};
pub use state::{OptimizerState, StateVisitor, StateVisitorMut};

use crate::params::Parameters;

/// One optimizer step: update `params` in place from `grads` (the same struct type).
pub trait Optimizer<P: Parameters> {
    /// Applies one update. Gradients are read, never changed.
    fn step(&mut self, params: &mut P, grads: &P);

    /// The current learning rate.
    fn lr(&self) -> f64;

    /// Sets the learning rate used by the next steps, e.g. from a [`crate::schedule`].
    ///
    /// # Panics
    ///
    /// If `lr` is negative or not finite (the constructors' check, as a precondition here).
    fn set_lr(&mut self, lr: f64);
}

/// An optimizer hyperparameter out of its range, from an optimizer's `new`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::optim::{Adam, AdamConfig, ConfigError};
/// # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
/// # #[derive(Debug)]
/// # struct W { w: f64 }
/// # impl Parameters for W {
/// #     type Scalar = f64;
/// #     const COUNT: usize = 1;
/// #     const TENSORS: usize = 1;
/// #     fn zeroed() -> Self { W { w: 0.0 } }
/// #     fn tensor(&self, i: usize) -> Option<&[f64]> { (i == 0).then(|| core::slice::from_ref(&self.w)) }
/// #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f64]> { (i == 0).then(|| core::slice::from_mut(&mut self.w)) }
/// #     fn visit<V: Visitor<f64>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[], core::slice::from_ref(&self.w)) }
/// #     fn visit_mut<V: VisitorMut<f64>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[], core::slice::from_mut(&mut self.w)) }
/// # }
/// let err = Adam::<W>::new(AdamConfig { beta2: 1.0, ..AdamConfig::default() }).unwrap_err();
/// assert_eq!(err, ConfigError::OutOfRange { name: "beta2", value: 1.0, expected: "in [0, 1)" });
/// assert_eq!(err.to_string(), "`beta2` must be in [0, 1), got 1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ConfigError {
    /// A hyperparameter is outside its valid range.
    OutOfRange {
        /// The config field.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The range it must be in, in words.
        expected: &'static str,
    },
    /// Nesterov momentum asked for without momentum, or with dampening.
    Nesterov {
        /// The momentum (must be `> 0`).
        momentum: f64,
        /// The dampening (must be `0`).
        dampening: f64,
    },
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ConfigError::OutOfRange {
                name,
                value,
                expected,
            } => write!(f, "`{name}` must be {expected}, got {value}"),
            ConfigError::Nesterov {
                momentum,
                dampening,
            } => write!(
                f,
                "Nesterov momentum requires momentum > 0 and dampening = 0, got momentum {momentum} and dampening {dampening}"
            ),
        }
    }
}

impl core::error::Error for ConfigError {}

/// `Ok` if the hyperparameter `name` is finite and non-negative.
fn non_negative(name: &'static str, value: f64) -> Result<(), ConfigError> {
    check(
        name,
        value,
        value >= 0.0 && value.is_finite(),
        "finite and non-negative",
    )
}

/// `Ok` if the hyperparameter `name` is finite and positive.
fn positive(name: &'static str, value: f64) -> Result<(), ConfigError> {
    check(
        name,
        value,
        value > 0.0 && value.is_finite(),
        "finite and positive",
    )
}

/// `Ok` if the averaging coefficient `name` is in `[0, 1)`.
fn beta(name: &'static str, value: f64) -> Result<(), ConfigError> {
    check(name, value, (0.0..1.0).contains(&value), "in [0, 1)")
}

fn check(
    name: &'static str,
    value: f64,
    ok: bool,
    expected: &'static str,
) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError::OutOfRange {
            name,
            value,
            expected,
        })
    }
}

/// Panics unless `lr` is a valid learning rate: the precondition of [`Optimizer::set_lr`].
#[track_caller]
fn require_lr(lr: f64) {
    if let Err(e) = non_negative("lr", lr) {
        panic!("{e}");
    }
}
