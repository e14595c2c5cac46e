//! Gradient clipping by global norm and by value, like `torch.nn.utils.clip_grad_norm_` and
//! `clip_grad_value_`.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::clip::clip_grad_norm;
//! # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
//! # #[derive(Debug, PartialEq)]
//! # struct G([f64; 2]);
//! # impl Parameters for G {
//! #     type Scalar = f64;
//! #     const COUNT: usize = 2;
//! #     const TENSORS: usize = 1;
//! #     fn zeroed() -> Self { G([0.0; 2]) }
//! #     fn tensor(&self, i: usize) -> Option<&[f64]> { (i == 0).then_some(&self.0[..]) }
//! #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f64]> { (i == 0).then_some(&mut self.0[..]) }
//! #     fn visit<V: Visitor<f64>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[2], &self.0) }
//! #     fn visit_mut<V: VisitorMut<f64>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[2], &mut self.0) }
//! # }
//! let mut grads = G([3.0, 4.0]); // norm 5
//! let norm = clip_grad_norm(&mut grads, 1.0);
//! assert_eq!(norm, 5.0);
//! assert!((grads.0[0] - 0.6).abs() < 1e-6 && (grads.0[1] - 0.8).abs() < 1e-6);
//! ```

use crate::math::{self, Float};
use crate::params::Parameters;

/// Scales `grads` so that their global L2 norm is at most `max_norm`, and returns the norm before
/// clipping.
///
/// As in PyTorch the factor is `min(1, max_norm / (norm + 1e-6))`, so a norm just under `max_norm`
/// is left (almost) unchanged and a zero gradient stays zero. A NaN or infinite norm is returned
/// as is and the gradients become NaN; check the returned norm to skip such steps.
///
/// # Panics
///
/// If `max_norm` is negative or NaN (a negative one would flip the gradients' sign).
#[track_caller]
pub fn clip_grad_norm<P: Parameters>(grads: &mut P, max_norm: f64) -> f64 {
    assert!(
        max_norm >= 0.0,
        "max_norm must be non-negative, got {max_norm}"
    );
    let norm = math::sqrt(grads.sum_of_squares());
    let factor = P::Scalar::from_f64((max_norm / (norm + 1e-6)).min(1.0));
    grads.for_each_mut(|g| *g *= factor);
    norm
}

/// Clamps every gradient element to `[-clip, clip]`; NaN stays NaN.
///
/// # Panics
///
/// If `clip` is negative or NaN.
#[track_caller]
pub fn clip_grad_value<P: Parameters>(grads: &mut P, clip: f64) {
    assert!(clip >= 0.0, "clip must be non-negative, got {clip}");
    let hi = P::Scalar::from_f64(clip);
    grads.for_each_mut(|g| {
        if *g > hi {
            *g = hi;
        } else if *g < -hi {
            *g = -hi;
        }
    });
}
