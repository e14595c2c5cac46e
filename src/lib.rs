//! stackgrad: compile-time reverse-mode automatic differentiation for Rust.
//!
//! Annotate a plain Rust function with [`differentiable`] and get its exact gradient as ordinary
//! Rust code: no tape on the heap, no runtime graph, no nightly compiler.
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
#![no_std]

pub use autodiff_macros::{Parameters, differentiable};
pub use autodiff_runtime as runtime;
/// The trait behind `#[derive(Parameters)]` (the derive macro of the same name is above).
pub use autodiff_runtime::Parameters;
