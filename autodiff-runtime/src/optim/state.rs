//! An optimizer's state as named values, for checkpoints: the buffers shaped like the
//! parameters (Adam's moments), the counters (the step count) and the learning rate.
//!
//! [`OptimizerState`] is what [`checkpoint::TrainState`](crate::checkpoint::TrainState) (feature
//! `std`) saves and restores; it needs no allocation, so a `#![no_std]` user can write the state in
//! a format of their own.

use super::{ConfigError, non_negative};
use crate::params::Parameters;

/// Exports and imports everything an optimizer carries from one step to the next, so that a run
/// restored from it continues bit for bit.
///
/// The configuration is not part of the state: restore into an optimizer built with the same
/// config (`new`), except for the learning rate, which [`Optimizer::set_lr`](super::Optimizer::set_lr)
/// may have changed and which is restored.
///
/// # Examples
///
/// Copy the state of one Adam into another through a visitor:
///
/// ```
/// use autodiff_runtime::optim::{
///     Adam, AdamConfig, Optimizer, OptimizerState, StateVisitor, StateVisitorMut,
/// };
/// # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
/// # #[derive(Clone, Debug, PartialEq)]
/// # struct P([f32; 2]);
/// # impl Parameters for P {
/// #     type Scalar = f32;
/// #     const COUNT: usize = 2;
/// #     const TENSORS: usize = 1;
/// #     fn zeroed() -> Self { P([0.0; 2]) }
/// #     fn tensor(&self, i: usize) -> Option<&[f32]> { (i == 0).then_some(&self.0[..]) }
/// #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f32]> { (i == 0).then_some(&mut self.0[..]) }
/// #     fn visit<V: Visitor<f32>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[2], &self.0) }
/// #     fn visit_mut<V: VisitorMut<f32>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[2], &mut self.0) }
/// # }
/// /// Records what it is shown (a real checkpoint writes it to a file).
/// #[derive(Default)]
/// struct Record { buffers: Vec<(&'static str, P)>, counts: Vec<(&'static str, u64)>, lr: f64 }
///
/// impl StateVisitor<P> for Record {
///     fn buffer(&mut self, name: &'static str, buffer: &P) { self.buffers.push((name, buffer.clone())) }
///     fn count(&mut self, name: &'static str, value: u64) { self.counts.push((name, value)) }
///     fn scalar(&mut self, _name: &'static str, value: f64) { self.lr = value }
/// }
/// impl StateVisitorMut<P> for Record {
///     fn buffer(&mut self, name: &'static str, buffer: &mut P) {
///         let (_, saved) = self.buffers.iter().find(|(n, _)| *n == name).unwrap();
///         *buffer = saved.clone();
///     }
///     fn count(&mut self, name: &'static str, value: &mut u64) {
///         *value = self.counts.iter().find(|(n, _)| *n == name).unwrap().1;
///     }
///     fn scalar(&mut self, _name: &'static str, value: &mut f64) { *value = self.lr }
/// }
///
/// let mut adam = Adam::<P>::new(AdamConfig::default())?;
/// adam.step(&mut P([1.0, 2.0]), &P([0.5, -0.5]));
/// let mut saved = Record::default();
/// adam.visit_state(&mut saved);
/// assert_eq!(saved.buffers.iter().map(|(n, _)| *n).collect::<Vec<_>>(), ["m", "v"]);
/// assert_eq!(saved.counts, [("t", 1)]);
///
/// let mut fresh = Adam::<P>::new(AdamConfig::default())?;
/// fresh.visit_state_mut(&mut saved)?;
/// assert_eq!(fresh.steps(), 1);
/// # Ok::<(), autodiff_runtime::optim::ConfigError>(())
/// ```
pub trait OptimizerState<P: Parameters> {
    /// The optimizer's name as written in checkpoints (`"AdamW"`), so that the state of one
    /// optimizer is not loaded into another.
    const KIND: &'static str;

    /// Shows `visitor` every piece of state, each under a name that is fixed for a given config.
    fn visit_state<V: StateVisitor<P>>(&self, visitor: &mut V);

    /// Lets `visitor` overwrite every piece of state, with the names and in the order of
    /// [`visit_state`](OptimizerState::visit_state).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] if the learning rate the visitor wrote is negative or not
    /// finite; the optimizer keeps its previous learning rate then (the rest of the state is
    /// overwritten).
    fn visit_state_mut<V: StateVisitorMut<P>>(
        &mut self,
        visitor: &mut V,
    ) -> Result<(), ConfigError>;
}

/// Receives an optimizer's state from [`OptimizerState::visit_state`].
pub trait StateVisitor<P> {
    /// A buffer with the parameters' type (Adam's first moment `"m"`).
    fn buffer(&mut self, name: &'static str, buffer: &P);
    /// A counter (the step count `"t"`).
    fn count(&mut self, name: &'static str, value: u64);
    /// A float that can change during training (the learning rate `"lr"`).
    fn scalar(&mut self, name: &'static str, value: f64);
}

/// Overwrites an optimizer's state in [`OptimizerState::visit_state_mut`].
pub trait StateVisitorMut<P> {
    /// A buffer with the parameters' type (Adam's first moment `"m"`).
    fn buffer(&mut self, name: &'static str, buffer: &mut P);
    /// A counter (the step count `"t"`).
    fn count(&mut self, name: &'static str, value: &mut u64);
    /// A float that can change during training (the learning rate `"lr"`).
    fn scalar(&mut self, name: &'static str, value: &mut f64);
}

/// Lets `visitor` write the learning rate `"lr"`, and keeps it if it is valid.
pub(super) fn restore_lr<P, V: StateVisitorMut<P>>(
    lr: &mut f64,
    visitor: &mut V,
) -> Result<(), ConfigError> {
    let mut new = *lr;
    visitor.scalar("lr", &mut new);
    non_negative("lr", new)?;
    *lr = new;
    Ok(())
}
