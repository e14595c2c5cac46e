//! Learning-rate schedules: the rate to use at step `t` (counting from 0).
//!
//! Each matches the PyTorch scheduler named in its docs, evaluated after `t` calls to
//! `scheduler.step()`; `tests/optim_reference.rs` checks them against PyTorch.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::schedule::{CosineWithWarmup, LrSchedule};
//!
//! let s = CosineWithWarmup { base_lr: 1.0, min_lr: 0.0, warmup_steps: 10, total_steps: 110, warmup_start_factor: 0.0 };
//! assert_eq!(s.lr(0), 0.0); // warm-up starts at base_lr * warmup_start_factor
//! assert_eq!(s.lr(5), 0.5); // halfway through the warm-up
//! assert_eq!(s.lr(10), 1.0); // peak
//! assert!((s.lr(60) - 0.5).abs() < 1e-12); // halfway down the cosine
//! assert_eq!(s.lr(110), 0.0); // and it stays at min_lr
//! assert_eq!(s.lr(500), 0.0);
//! ```

use crate::math;

/// A learning rate as a function of the step number.
pub trait LrSchedule {
    /// The learning rate at step `step` (the first step is 0).
    fn lr(&self, step: u64) -> f64;
}

/// The same rate at every step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constant {
    /// The rate.
    pub lr: f64,
}

impl LrSchedule for Constant {
    fn lr(&self, _step: u64) -> f64 {
        self.lr
    }
}

/// `base_lr * gamma^floor(step / step_size)`, like `torch.optim.lr_scheduler.StepLR`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepDecay {
    /// Rate for the first `step_size` steps.
    pub base_lr: f64,
    /// Steps between decays; `0` is treated as `1`.
    pub step_size: u64,
    /// Factor applied at each decay.
    pub gamma: f64,
}

impl LrSchedule for StepDecay {
    fn lr(&self, step: u64) -> f64 {
        self.base_lr * math::pow(self.gamma, to_f64(step / self.step_size.max(1)))
    }
}

/// `base_lr * gamma^step`, like `torch.optim.lr_scheduler.ExponentialLR`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exponential {
    /// Rate at step 0.
    pub base_lr: f64,
    /// Factor applied every step.
    pub gamma: f64,
}

impl LrSchedule for Exponential {
    fn lr(&self, step: u64) -> f64 {
        self.base_lr * math::pow(self.gamma, to_f64(step))
    }
}

/// Linear warm-up from `base_lr * warmup_start_factor` to `base_lr` over `warmup_steps`, then cosine
/// annealing to `min_lr` at `total_steps`, then `min_lr`.
///
/// This is PyTorch's `SequentialLR([LinearLR(start_factor, total_iters=warmup_steps),
/// CosineAnnealingLR(T_max=total_steps - warmup_steps, eta_min=min_lr)], milestones=[warmup_steps])`,
/// except that it stays at `min_lr` after `total_steps` where PyTorch's cosine would rise again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CosineWithWarmup {
    /// Peak rate, reached at the end of the warm-up.
    pub base_lr: f64,
    /// Final rate.
    pub min_lr: f64,
    /// Length of the linear warm-up; `0` starts the cosine at once.
    pub warmup_steps: u64,
    /// Step at which the cosine reaches `min_lr`.
    pub total_steps: u64,
    /// Fraction of `base_lr` at step 0.
    pub warmup_start_factor: f64,
}

impl LrSchedule for CosineWithWarmup {
    fn lr(&self, step: u64) -> f64 {
        if step < self.warmup_steps {
            let s = self.warmup_start_factor;
            return self.base_lr * (s + (1.0 - s) * to_f64(step) / to_f64(self.warmup_steps));
        }
        let span = self.total_steps.saturating_sub(self.warmup_steps);
        let done = step - self.warmup_steps;
        if done >= span {
            return self.min_lr;
        }
        let progress = to_f64(done) / to_f64(span);
        self.min_lr
            + (self.base_lr - self.min_lr)
                * 0.5
                * (1.0 + math::cos(core::f64::consts::PI * progress))
    }
}

#[allow(clippy::cast_precision_loss)]
fn to_f64(n: u64) -> f64 {
    n as f64
}
