//! The [`Parameters`] trait: a model's trainable scalars as a fixed list of flat tensors.
//!
//! A model is a plain struct of floats, arrays and nested structs. `#[derive(Parameters)]` (from
//! `autodiff-macros`, re-exported by `stackgrad`) numbers its leaf tensors in field order, so the
//! parameters, their gradients and an optimizer's state (all of the same struct type) can be walked
//! together by index, with no allocation.
//!
//! Each array of floats, however deep, is one tensor: `w: [[f32; 3]; 2]` is the tensor `w` with shape
//! `[2, 3]`, seen as a flat slice of 6 values in row-major order. An array of structs is a list of
//! sub-models named by position: `blocks.3.ln1.g`.
//!
//! # Examples
//!
//! A hand-written implementation (the derive writes the same thing):
//!
//! ```
//! use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
//!
//! #[derive(Debug, PartialEq)]
//! struct Line {
//!     w: [f64; 2],
//!     b: f64,
//! }
//!
//! impl Parameters for Line {
//!     type Scalar = f64;
//!     const COUNT: usize = 3;
//!     const TENSORS: usize = 2;
//!
//!     fn zeroed() -> Self {
//!         Line { w: [0.0; 2], b: 0.0 }
//!     }
//!     fn tensor(&self, index: usize) -> Option<&[f64]> {
//!         match index {
//!             0 => Some(&self.w),
//!             1 => Some(core::slice::from_ref(&self.b)),
//!             _ => None,
//!         }
//!     }
//!     fn tensor_mut(&mut self, index: usize) -> Option<&mut [f64]> {
//!         match index {
//!             0 => Some(&mut self.w),
//!             1 => Some(core::slice::from_mut(&mut self.b)),
//!             _ => None,
//!         }
//!     }
//!     fn visit<V: Visitor<f64>>(&self, prefix: Option<&Name<'_>>, v: &mut V) {
//!         v.visit(&Name::field(prefix, "w"), &[2], &self.w);
//!         v.visit(&Name::field(prefix, "b"), &[], core::slice::from_ref(&self.b));
//!     }
//!     fn visit_mut<V: VisitorMut<f64>>(&mut self, prefix: Option<&Name<'_>>, v: &mut V) {
//!         v.visit_mut(&Name::field(prefix, "w"), &[2], &mut self.w);
//!         v.visit_mut(&Name::field(prefix, "b"), &[], core::slice::from_mut(&mut self.b));
//!     }
//! }
//!
//! let mut params = Line { w: [1.0, 2.0], b: 0.5 };
//! let grads = Line { w: [10.0, 20.0], b: -5.0 };
//! // One step of plain gradient descent with learning rate 0.1.
//! params.zip_mut(&grads, |p, g| *p -= 0.1 * g);
//! assert_eq!(params, Line { w: [0.0, 0.0], b: 1.0 });
//!
//! let mut names = Vec::new();
//! params.for_each_tensor(|name, shape, values| names.push((name.to_string(), shape.len(), values.len())));
//! assert_eq!(names, [("w".to_string(), 1, 2), ("b".to_string(), 0, 1)]);
//! ```

use core::fmt;

use crate::math::Float;
use crate::wide::{WideLoop, with_wide_vectors};

/// A struct of trainable floats, seen as a fixed, ordered list of flat tensors.
///
/// Implement it with `#[derive(Parameters)]`. Gradients and optimizer state use the same type as the
/// parameters, so tensor `k` of each lines up element for element.
///
/// # Examples
///
/// See the [module documentation](self).
pub trait Parameters: Sized {
    /// The float type of every tensor.
    type Scalar: Float;
    /// Number of scalar parameters.
    const COUNT: usize;
    /// Number of tensors (leaf arrays or scalars).
    const TENSORS: usize;

    /// A value with every parameter `0.0`, e.g. to start accumulating gradients.
    #[must_use]
    fn zeroed() -> Self;

    /// Tensor `index` (in field order) as a flat slice, or `None` when `index >= Self::TENSORS`.
    fn tensor(&self, index: usize) -> Option<&[Self::Scalar]>;

    /// Tensor `index` (in field order) as a flat mutable slice, or `None` when
    /// `index >= Self::TENSORS`.
    fn tensor_mut(&mut self, index: usize) -> Option<&mut [Self::Scalar]>;

    /// Calls `visitor` once per tensor, in field order, with its dotted name below `prefix`, its shape
    /// and its values.
    fn visit<V: Visitor<Self::Scalar>>(&self, prefix: Option<&Name<'_>>, visitor: &mut V);

    /// Like [`visit`](Parameters::visit), with mutable values.
    fn visit_mut<V: VisitorMut<Self::Scalar>>(
        &mut self,
        prefix: Option<&Name<'_>>,
        visitor: &mut V,
    );

    /// Calls `f(name, shape, values)` once per tensor, in field order.
    fn for_each_tensor<C>(&self, mut f: C)
    where
        C: FnMut(&Name<'_>, &[usize], &[Self::Scalar]),
    {
        self.visit(None, &mut f);
    }

    /// Calls `f(name, shape, values)` once per tensor, in field order, with mutable values.
    fn for_each_tensor_mut<C>(&mut self, mut f: C)
    where
        C: FnMut(&Name<'_>, &[usize], &mut [Self::Scalar]),
    {
        self.visit_mut(None, &mut f);
    }

    /// Sets every parameter to `0.0`.
    fn zero(&mut self) {
        self.for_each_mut(|x| *x = Self::Scalar::ZERO);
    }

    /// Calls `f` on every scalar, tensor by tensor.
    fn for_each_mut<C: FnMut(&mut Self::Scalar)>(&mut self, mut f: C) {
        for k in 0..Self::TENSORS {
            if let Some(t) = self.tensor_mut(k) {
                t.iter_mut().for_each(&mut f);
            }
        }
    }

    /// Calls `f(self_element, other_element)` on matching scalars of `self` and `other`, e.g.
    /// `params.zip_mut(&grads, |p, g| *p -= lr * g)`.
    fn zip_mut<C: FnMut(&mut Self::Scalar, Self::Scalar)>(&mut self, other: &Self, mut f: C) {
        for k in 0..Self::TENSORS {
            if let (Some(a), Some(b)) = (self.tensor_mut(k), other.tensor(k)) {
                a.iter_mut().zip(b).for_each(|(a, &b)| f(a, b));
            }
        }
    }

    /// Copies every parameter of `other` into `self`.
    fn copy_from(&mut self, other: &Self) {
        self.zip_mut(other, |a, b| *a = b);
    }

    /// The sum of squares of every parameter, accumulated in `f64`.
    fn sum_of_squares(&self) -> f64 {
        let mut sum = 0.0;
        for k in 0..Self::TENSORS {
            if let Some(t) = self.tensor(k) {
                sum += t.iter().map(|x| x.to_f64() * x.to_f64()).sum::<f64>();
            }
        }
        sum
    }
}

/// Walks `params`, `grads` and `K` state structs of the same type together, calling
/// `f(param, grad, [state_0, .., state_K-1])` on each matching scalar. This is how optimizers update.
/// With `std` on an x86 CPU that has AVX2, the loop runs compiled for it (eight `f32` lanes
/// instead of SSE2's four, same results bit for bit), so keep `f` small enough to be inlined,
/// and make it a `move` closure: with its constants (learning rate, flags) borrowed, SGD with
/// momentum's loop came out scalar and ten times slower (`cargo bench --bench optimizers`,
/// BENCHMARKS.md).
///
/// # Examples
///
/// ```
/// use autodiff_runtime::params::zip_update;
/// # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
/// # #[derive(Debug, PartialEq)]
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
/// let mut params = P([1.0, 1.0]);
/// let grads = P([2.0, -4.0]);
/// let mut velocity = P::zeroed();
/// // Momentum 0.5, learning rate 0.25, twice.
/// for _ in 0..2 {
///     zip_update(&mut params, &grads, [&mut velocity], move |p, g, [v]| {
///         *v = 0.5 * *v + g;
///         *p -= 0.25 * *v;
///     });
/// }
/// assert_eq!(velocity, P([3.0, -6.0]));
/// assert_eq!(params, P([-0.25, 3.5]));
/// ```
pub fn zip_update<P, const K: usize, C>(params: &mut P, grads: &P, state: [&mut P; K], f: C)
where
    P: Parameters,
    C: FnMut(&mut P::Scalar, P::Scalar, [&mut P::Scalar; K]),
{
    with_wide_vectors(ZipUpdate {
        params,
        grads,
        state,
        f,
    });
}

/// The loop of [`zip_update`], run with the widest vectors the CPU has.
struct ZipUpdate<'a, P, const K: usize, C> {
    params: &'a mut P,
    grads: &'a P,
    state: [&'a mut P; K],
    f: C,
}

impl<P, const K: usize, C> WideLoop for ZipUpdate<'_, P, K, C>
where
    P: Parameters,
    C: FnMut(&mut P::Scalar, P::Scalar, [&mut P::Scalar; K]),
{
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let ZipUpdate {
            params,
            grads,
            mut state,
            mut f,
        } = self;
        for k in 0..P::TENSORS {
            let (Some(p), Some(g)) = (params.tensor_mut(k), grads.tensor(k)) else {
                continue;
            };
            let s = state
                .each_mut()
                .map(|s| s.tensor_mut(k).unwrap_or_default());
            let len = s.iter().fold(p.len().min(g.len()), |n, s| n.min(s.len()));
            // Every slice cut to `len` up front: the loop has no bounds checks and vectorizes.
            let (p, g) = (&mut p[..len], &g[..len]);
            let mut s = s.map(|s| &mut s[..len]);
            for i in 0..len {
                f(&mut p[i], g[i], s.each_mut().map(|s| &mut s[i]));
            }
        }
    }
}

/// Receives each tensor of a [`Parameters`] value; closures `FnMut(&Name, &[usize], &[F])` implement it.
pub trait Visitor<F> {
    /// Called once per tensor with its name, shape (empty for a scalar) and values (row-major).
    fn visit(&mut self, name: &Name<'_>, shape: &[usize], values: &[F]);
}

/// Receives each tensor of a [`Parameters`] value mutably; closures
/// `FnMut(&Name, &[usize], &mut [F])` implement it.
pub trait VisitorMut<F> {
    /// Called once per tensor with its name, shape (empty for a scalar) and values (row-major).
    fn visit_mut(&mut self, name: &Name<'_>, shape: &[usize], values: &mut [F]);
}

impl<F, C: FnMut(&Name<'_>, &[usize], &[F])> Visitor<F> for C {
    fn visit(&mut self, name: &Name<'_>, shape: &[usize], values: &[F]) {
        self(name, shape, values);
    }
}

impl<F, C: FnMut(&Name<'_>, &[usize], &mut [F])> VisitorMut<F> for C {
    fn visit_mut(&mut self, name: &Name<'_>, shape: &[usize], values: &mut [F]) {
        self(name, shape, values);
    }
}

/// A dotted parameter name such as `blocks.3.ln1.g`, built on the stack as a chain of segments.
///
/// It prints with [`Display`](fmt::Display) and compares with `&str` without allocating.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::Name;
///
/// let blocks = Name::field(None, "blocks");
/// let third = Name::index(Some(&blocks), 3);
/// let ln1 = Name::field(Some(&third), "ln1");
/// let g = Name::field(Some(&ln1), "g");
/// assert_eq!(g, "blocks.3.ln1.g");
/// assert_eq!(format!("{g}"), "blocks.3.ln1.g");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Name<'a> {
    parent: Option<&'a Name<'a>>,
    segment: Segment,
}

#[derive(Clone, Copy, Debug)]
enum Segment {
    Field(&'static str),
    Index(usize),
}

impl<'a> Name<'a> {
    /// The name of field `field` below `parent`.
    #[must_use]
    pub const fn field(parent: Option<&'a Name<'a>>, field: &'static str) -> Self {
        Name {
            parent,
            segment: Segment::Field(field),
        }
    }

    /// The name of element `index` of the array `parent`.
    #[must_use]
    pub const fn index(parent: Option<&'a Name<'a>>, index: usize) -> Self {
        Name {
            parent,
            segment: Segment::Index(index),
        }
    }
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            write!(f, "{parent}.")?;
        }
        match self.segment {
            Segment::Field(s) => f.write_str(s),
            Segment::Index(i) => write!(f, "{i}"),
        }
    }
}

impl PartialEq<str> for Name<'_> {
    fn eq(&self, other: &str) -> bool {
        /// Consumes `rest` as the name is written; fails at the first difference.
        struct Matcher<'s> {
            rest: &'s str,
        }
        impl fmt::Write for Matcher<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.rest = self.rest.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut m = Matcher { rest: other };
        fmt::write(&mut m, format_args!("{self}")).is_ok() && m.rest.is_empty()
    }
}

impl PartialEq<&str> for Name<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_comparison_is_exact() {
        let a = Name::field(None, "layers");
        let a0 = Name::index(Some(&a), 10);
        let w = Name::field(Some(&a0), "w");
        assert_eq!(w, "layers.10.w");
        assert_ne!(w, "layers.10.w2");
        assert_ne!(w, "layers.10");
        assert_ne!(w, "layers.1.w");
        assert_ne!(w, "");
        assert_eq!(a, "layers");
    }
}
