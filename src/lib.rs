//! stackgrad: compile-time reverse-mode automatic differentiation for Rust.
//!
//! Annotate a plain Rust function with [`differentiable`] and get its exact gradient as ordinary
//! Rust code: no tape on the heap, no runtime graph, no nightly compiler. The documentation of
//! [`differentiable`] is the macro's reference: the generated items, the language, `wrt`,
//! bounded loops, checkpointing, custom adjoints, each with an example.
//!
//! ```
//! use stackgrad::differentiable;
//!
//! #[differentiable]
//! fn f(x: f64, y: f64) -> f64 {
//!     let z = x * y + x.sin();
//!     z * z
//! }
//!
//! let (value, (d_x, d_y)) = f_grad(2.0, 3.0);
//! // z = 6 + sin 2 = 6.909297..., value = z² = 47.738...
//! assert!((value - 47.73838).abs() < 1e-4);
//! // d/dx = 2z (y + cos x) = 35.7...; d/dy = 2z x = 27.637...
//! assert!((d_x - 2.0 * 6.909297 * (3.0 + 2f64.cos())).abs() < 1e-4);
//! assert!((d_y - 27.637189).abs() < 1e-4);
//! ```
//!
//! # Random numbers
//!
//! The initializers (`runtime::init`) and data loaders take the generators of `rand` 0.8, which
//! stackgrad re-exports as [`stackgrad::rand`](rand). Seed through it: `cargo add rand` gives a
//! newer major version whose generators do not implement these traits.
//!
//! ```
//! use stackgrad::rand::{SeedableRng, rngs::SmallRng};
//! use stackgrad::runtime::init;
//!
//! let mut w = [[0.0f32; 4]; 3]; // 3 outputs, 4 inputs
//! let mut rng = SmallRng::seed_from_u64(7);
//! init::xavier_uniform(w.as_flattened_mut(), init::fans(&[3, 4]), 1.0, &mut rng);
//! assert!(w.as_flattened().iter().all(|x| x.abs() <= (6.0f32 / 7.0).sqrt()));
//! ```
#![no_std]

#[doc = include_str!("../docs/differentiable.md")]
#[doc(inline)]
pub use autodiff_macros::differentiable;

pub use autodiff_macros::Parameters;
pub use autodiff_runtime as runtime;
/// The trait behind `#[derive(Parameters)]` (the derive macro of the same name is above).
pub use autodiff_runtime::Parameters;
/// The `rand` crate (0.8) the runtime's initializers and loaders take: seed generators through it
/// (`stackgrad::rand::rngs::SmallRng::seed_from_u64(..)`). The same as `stackgrad::runtime::rand`.
pub use autodiff_runtime::rand;
