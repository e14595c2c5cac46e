//! Runtime support for stackgrad: parameters, optimizers, initializers, data and checkpoints.
//!
//! The core is `#![no_std]` and allocation-free: a model is a plain struct of floats that implements
//! [`Parameters`] (usually with `#[derive(Parameters)]`), its gradients and the optimizers' state use
//! the same struct type, and [`optim`] updates them in place. The `std` feature (default) adds
//! [`data`] loading, [`checkpoint`]s in the safetensors format, and the [`train`] helpers.
//!
//! # Examples
//!
//! Minimise `(w - 3)^2` with Adam, where the gradient is `2 (w - 3)`:
//!
//! ```
//! use autodiff_runtime::optim::{Adam, AdamConfig, Optimizer};
//! # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
//! # #[derive(Debug)]
//! # struct W { w: f64 }
//! # impl Parameters for W {
//! #     type Scalar = f64;
//! #     const COUNT: usize = 1;
//! #     const TENSORS: usize = 1;
//! #     fn zeroed() -> Self { W { w: 0.0 } }
//! #     fn tensor(&self, i: usize) -> Option<&[f64]> { (i == 0).then(|| core::slice::from_ref(&self.w)) }
//! #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f64]> { (i == 0).then(|| core::slice::from_mut(&mut self.w)) }
//! #     fn visit<V: Visitor<f64>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[], core::slice::from_ref(&self.w)) }
//! #     fn visit_mut<V: VisitorMut<f64>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[], core::slice::from_mut(&mut self.w)) }
//! # }
//! // With stackgrad: #[derive(Parameters)] struct W { w: f64 }
//! let mut params = W { w: 0.0 };
//! let mut grads = W::zeroed();
//! let mut adam = Adam::new(AdamConfig { lr: 0.1, ..AdamConfig::default() })?;
//! for _ in 0..500 {
//!     grads.w = 2.0 * (params.w - 3.0);
//!     adam.step(&mut params, &grads);
//! }
//! assert!((params.w - 3.0).abs() < 1e-3);
//! # Ok::<(), autodiff_runtime::optim::ConfigError>(())
//! ```
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod clip;
pub mod cpu;
pub mod hessian;
pub mod init;
pub mod math;
pub mod nn;
pub mod optim;
pub mod params;
pub mod schedule;
pub mod tape;
mod wide;

#[cfg(feature = "std")]
pub mod checkpoint;
#[cfg(feature = "std")]
pub mod data;
#[cfg(feature = "mpi")]
pub mod distributed;
#[cfg(feature = "std")]
mod file;
#[cfg(feature = "alloc")]
pub mod gradcheck;
#[cfg(feature = "std")]
pub mod parallel;
#[cfg(feature = "alloc")]
pub mod sparse;
#[cfg(feature = "std")]
pub mod train;

pub use math::Float;
pub use params::{Name, Parameters, Visitor, VisitorMut};

/// The `rand` crate (0.8) whose traits the [`init`]ializers and the [`data`] loaders take
/// (`rand::Rng`).
///
/// Seed generators through this path rather than a `rand` of your own: `cargo add rand` gives a
/// newer `rand` whose generators do not implement this version's traits (error E0277 at the call).
/// It includes `rngs::SmallRng` (`small_rng` feature); `stackgrad` re-exports it as
/// `stackgrad::rand`.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::init;
/// use autodiff_runtime::rand::{SeedableRng, rngs::SmallRng};
///
/// let (mut a, mut b) = ([0.0f32; 8], [0.0f32; 8]);
/// init::normal(&mut a, 0.0, 0.02, &mut SmallRng::seed_from_u64(42));
/// init::normal(&mut b, 0.0, 0.02, &mut SmallRng::seed_from_u64(42));
/// assert_eq!(a, b); // the same seed gives the same bits
/// ```
pub use rand;
