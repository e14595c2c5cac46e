//! Optimizers, one per file: a config struct with public hyperparameters and a state struct whose
//! buffers have the parameters' own type, so stepping never allocates.
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
//! let mut sgd = Sgd::new(SgdConfig { lr: 0.5, ..SgdConfig::default() });
//! sgd.step(&mut params, &grads);
//! assert_eq!(params, P([0.75, -1.125]));
//! ```

mod adagrad;
mod adam;
mod adamw;
mod lion;
mod rmsprop;
mod sgd;

pub use adagrad::{Adagrad, AdagradConfig};
pub use adam::{Adam, AdamConfig};
pub use adamw::AdamW;
pub use lion::{Lion, LionConfig};
pub use rmsprop::{RmsProp, RmsPropConfig};
pub use sgd::{Sgd, SgdConfig};

use crate::params::Parameters;

/// One optimizer step: update `params` in place from `grads` (the same struct type).
pub trait Optimizer<P: Parameters> {
    /// Applies one update. Gradients are read, never changed.
    fn step(&mut self, params: &mut P, grads: &P);

    /// The current learning rate.
    fn lr(&self) -> f64;

    /// Sets the learning rate used by the next steps, e.g. from a [`crate::schedule`].
    fn set_lr(&mut self, lr: f64);
}

/// Panics unless the hyperparameter `what` is finite and non-negative.
#[track_caller]
fn require_non_negative(what: &str, value: f64) {
    assert!(
        value >= 0.0 && value.is_finite(),
        "{what} must be finite and non-negative, got {value}"
    );
}

/// Panics unless the averaging coefficient `what` is in `[0, 1)`.
#[track_caller]
fn require_beta(what: &str, beta: f64) {
    assert!(
        (0.0..1.0).contains(&beta),
        "{what} must be in [0, 1), got {beta}"
    );
}
