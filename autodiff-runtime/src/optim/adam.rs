//! Adam (`torch.optim.Adam`), with optional AMSGrad; also the moment buffers [`AdamW`](super::AdamW)
//! shares.

use super::state::restore_lr;
use super::{
    ConfigError, Optimizer, OptimizerState, StateVisitor, StateVisitorMut, beta, non_negative,
    positive, require_lr,
};
use crate::math::{self, Float};
use crate::params::Parameters;
use crate::wide::{WideLoop, with_wide_vectors};

/// Hyperparameters of [`Adam`], checked by [`Adam::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// Learning rate, finite and `>= 0`.
    pub lr: f64,
    /// Decay of the first-moment (mean) estimate, in `[0, 1)`.
    pub beta1: f64,
    /// Decay of the second-moment (uncentred variance) estimate, in `[0, 1)`.
    pub beta2: f64,
    /// Added to the denominator for stability, finite and `> 0`.
    pub eps: f64,
    /// L2 penalty added to the gradient, `g + weight_decay * p`; finite and `>= 0`. For decoupled
    /// decay use [`AdamW`](super::AdamW).
    pub weight_decay: f64,
    /// Divide by the running maximum of the second moment (AMSGrad).
    pub amsgrad: bool,
}

impl Default for AdamConfig {
    /// `lr = 1e-3`, `betas = (0.9, 0.999)`, `eps = 1e-8`, no weight decay, as in PyTorch.
    fn default() -> Self {
        AdamConfig {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            amsgrad: false,
        }
    }
}

impl AdamConfig {
    /// `Ok` if every hyperparameter is in range (what [`Adam::new`] checks).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] for a negative or non-finite `lr` or `weight_decay`, a beta
    /// outside `[0, 1)`, or `eps` not finite and positive (PyTorch accepts `eps = 0`, which turns a
    /// zero gradient into `0 / 0`).
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::optim::AdamConfig;
    ///
    /// assert!(AdamConfig::default().validate().is_ok());
    /// assert!(AdamConfig { eps: 0.0, ..AdamConfig::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        non_negative("lr", self.lr)?;
        beta("beta1", self.beta1)?;
        beta("beta2", self.beta2)?;
        positive("eps", self.eps)?;
        non_negative("weight_decay", self.weight_decay)
    }
}

/// Adam state: first and second moments (and their running maximum with AMSGrad) and the step count.
///
/// Per element, at step `t` with `d = g + weight_decay * p`:
/// `m = b1 m + (1 - b1) d`, `v = b2 v + (1 - b2) d^2`,
/// `p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)`.
///
/// # Examples
///
/// See [the crate documentation](crate).
#[derive(Clone, Debug)]
pub struct Adam<P> {
    config: AdamConfig,
    moments: Moments<P>,
}

impl<P: Parameters> Adam<P> {
    /// Creates the optimizer with zeroed moments.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] if a hyperparameter is out of range (see [`AdamConfig::validate`]).
    ///
    /// # Examples
    ///
    /// See [the crate documentation](crate).
    pub fn new(config: AdamConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Adam {
            config,
            moments: Moments::new(config.amsgrad),
        })
    }

    /// The hyperparameters (the learning rate as last set by [`Optimizer::set_lr`]).
    #[must_use]
    pub fn config(&self) -> &AdamConfig {
        &self.config
    }

    /// Number of steps taken.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.moments.t
    }
}

impl<P: Parameters> Optimizer<P> for Adam<P> {
    fn step(&mut self, params: &mut P, grads: &P) {
        self.moments.step(params, grads, &self.config, false);
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
impl<P: Parameters> OptimizerState<P> for Adam<P> {
    const KIND: &'static str = "Adam";

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

/// Moment buffers and step count of Adam and AdamW.
#[derive(Clone, Debug)]
pub(super) struct Moments<P> {
    m: P,
    v: P,
    v_max: Option<P>,
    pub(super) t: u64,
}

impl<P: Parameters> Moments<P> {
    pub(super) fn new(amsgrad: bool) -> Self {
        Moments {
            m: P::zeroed(),
            v: P::zeroed(),
            v_max: amsgrad.then(P::zeroed),
            t: 0,
        }
    }

    /// Shows the buffers `m`, `v`, `v_max` (with AMSGrad) and the count `t`.
    pub(super) fn visit<V: StateVisitor<P>>(&self, visitor: &mut V) {
        visitor.buffer("m", &self.m);
        visitor.buffer("v", &self.v);
        if let Some(v_max) = &self.v_max {
            visitor.buffer("v_max", v_max);
        }
        visitor.count("t", self.t);
    }

    /// Overwrites what [`Moments::visit`] shows.
    pub(super) fn visit_mut<V: StateVisitorMut<P>>(&mut self, visitor: &mut V) {
        visitor.buffer("m", &mut self.m);
        visitor.buffer("v", &mut self.v);
        if let Some(v_max) = &mut self.v_max {
            visitor.buffer("v_max", v_max);
        }
        visitor.count("t", &mut self.t);
    }

    /// One Adam step; `decoupled` applies weight decay to the parameters (AdamW) instead of the
    /// gradient.
    pub(super) fn step(&mut self, params: &mut P, grads: &P, c: &AdamConfig, decoupled: bool) {
        self.t += 1;
        #[allow(clippy::cast_precision_loss)]
        let t = self.t as f64;
        let from = P::Scalar::from_f64;
        let step_size = from(c.lr / (1.0 - math::pow(c.beta1, t)));
        // Multiplying by 1 / sqrt(1 - b2^t) instead of dividing (as PyTorch does) leaves one
        // division per element, the slowest operation here; the results differ by at most an ulp.
        let inv_bias2_sqrt = from(1.0 / math::sqrt(1.0 - math::pow(c.beta2, t)));
        let (one_minus_b1, b2, one_minus_b2) =
            (from(1.0 - c.beta1), from(c.beta2), from(1.0 - c.beta2));
        let (eps, wd) = (from(c.eps), from(c.weight_decay));
        let shrink = from(1.0 - c.lr * c.weight_decay);

        let k = AdamStep {
            step_size,
            inv_bias2_sqrt,
            one_minus_b1,
            b2,
            one_minus_b2,
            eps,
            wd,
            shrink,
            decoupled,
        };
        with_wide_vectors(Update {
            k,
            params,
            grads,
            moments: self,
        });
    }
}

/// One step's update of every tensor, as a loop for [`with_wide_vectors`].
struct Update<'a, P: Parameters> {
    k: AdamStep<P::Scalar>,
    params: &'a mut P,
    grads: &'a P,
    moments: &'a mut Moments<P>,
}

impl<P: Parameters> WideLoop for Update<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let Update {
            k,
            params,
            grads,
            moments: Moments { m, v, v_max, .. },
        } = self;
        for t in 0..P::TENSORS {
            let (Some(p), Some(g), Some(m), Some(v)) = (
                params.tensor_mut(t),
                grads.tensor(t),
                m.tensor_mut(t),
                v.tensor_mut(t),
            ) else {
                continue;
            };
            match v_max.as_mut().and_then(|v_max| v_max.tensor_mut(t)) {
                None => k.run(p, g, m, v, None),
                Some(v_max) => k.run(p, g, m, v, Some(v_max)),
            }
        }
    }
}

/// The per-element update of one Adam or AdamW step, with its step's constants.
struct AdamStep<F> {
    step_size: F,
    inv_bias2_sqrt: F,
    one_minus_b1: F,
    b2: F,
    one_minus_b2: F,
    eps: F,
    wd: F,
    shrink: F,
    decoupled: bool,
}

impl<F: Float> AdamStep<F> {
    /// One element: `p`, its gradient `g`, its moments `m`, `v` and, with AMSGrad, `v_max`.
    #[inline(always)]
    fn element(&self, p: &mut F, g: F, m: &mut F, v: &mut F, v_max: Option<&mut F>) {
        let d = if self.decoupled {
            *p *= self.shrink;
            g
        } else {
            g + self.wd * *p
        };
        *m = (*m + self.one_minus_b1 * (d - *m)).flush_subnormal();
        *v = (self.b2 * *v + self.one_minus_b2 * d * d).flush_subnormal();
        let second = match v_max {
            Some(v_max) => {
                *v_max = v_max.max(*v);
                *v_max
            }
            None => *v,
        };
        *p -= self.step_size * *m / (second.sqrt() * self.inv_bias2_sqrt + self.eps);
    }

    /// The update of one tensor. The slices are cut to one length, so the loop has no bounds
    /// checks and vectorizes (with the widest vectors the CPU has: [`Moments::step`] runs it in
    /// [`with_wide_vectors`]).
    #[inline(always)]
    fn run(&self, p: &mut [F], g: &[F], m: &mut [F], v: &mut [F], v_max: Option<&mut [F]>) {
        let len = p.len().min(g.len()).min(m.len()).min(v.len());
        let (p, g, m, v) = (&mut p[..len], &g[..len], &mut m[..len], &mut v[..len]);
        match v_max {
            None => {
                for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m).zip(v) {
                    self.element(p, g, m, v, None);
                }
            }
            Some(v_max) => {
                let v_max = &mut v_max[..len];
                for ((((p, &g), m), v), v_max) in p.iter_mut().zip(g).zip(m).zip(v).zip(v_max) {
                    self.element(p, g, m, v, Some(v_max));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parameter with one nonzero gradient and zeros after it: its first moment decays by
    /// `beta1` per step and would be subnormal after about 800 steps; it must become exactly 0
    /// instead, and stay normal or zero on every step.
    use crate::params::{Name, Visitor, VisitorMut};

    /// One `f32` parameter.
    #[derive(Clone, Debug)]
    struct One(f32);

    impl Parameters for One {
        type Scalar = f32;
        const COUNT: usize = 1;
        const TENSORS: usize = 1;
        fn zeroed() -> Self {
            One(0.0)
        }
        fn tensor(&self, i: usize) -> Option<&[f32]> {
            (i == 0).then_some(core::slice::from_ref(&self.0))
        }
        fn tensor_mut(&mut self, i: usize) -> Option<&mut [f32]> {
            (i == 0).then_some(core::slice::from_mut(&mut self.0))
        }
        fn visit<V: Visitor<f32>>(&self, p: Option<&Name<'_>>, v: &mut V) {
            v.visit(&Name::field(p, "x"), &[], core::slice::from_ref(&self.0));
        }
        fn visit_mut<V: VisitorMut<f32>>(&mut self, p: Option<&Name<'_>>, v: &mut V) {
            v.visit_mut(
                &Name::field(p, "x"),
                &[],
                core::slice::from_mut(&mut self.0),
            );
        }
    }

    /// A parameter with one nonzero gradient and zeros after it: its first moment decays by
    /// `beta1` per step and would be subnormal after about 800 steps; it must become exactly 0
    /// instead, and stay normal or zero on every step.
    #[test]
    fn decaying_moments_never_go_subnormal() {
        let mut params = One(1.0);
        let mut adam = Adam::<One>::new(AdamConfig::default()).unwrap();
        adam.step(&mut params, &One(1.0));
        let mut reached_zero = false;
        for _ in 0..2000 {
            adam.step(&mut params, &One(0.0));
            let (m, v) = (adam.moments.m.0, adam.moments.v.0);
            assert!(m == 0.0 || m.is_normal(), "m = {m:e}");
            assert!(v == 0.0 || v.is_normal(), "v = {v:e}");
            reached_zero |= m == 0.0;
        }
        assert!(reached_zero, "the first moment should have decayed to 0");
        assert!(params.0.is_finite());
    }
}
