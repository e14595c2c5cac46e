//! Second order from Hessian-vector products: a dense Hessian for small `n` (`n` products, or
//! `n / W` products of `W` directions each), its diagonal, and the truncated Newton (Newton-CG)
//! step, which needs only products, never the matrix.
//!
//! Both take the product as a closure `hvp(v, out)` that writes `H v` into `out`, so any source
//! works: forward mode over a gradient written in the macro's language (`#[differentiable(jvp)]`
//! on the gradient function gives `H v` as its tangent), a closed form, or a hand-written one.
//! Fixed sizes (`[f64; N]`), no allocation: the helpers run in `#![no_std]`.

//!
//! # Examples
//!
//! Newton's method on `f(x) = ½ xᵀ A x - bᵀ x` takes one step from anywhere: the Newton-CG
//! direction is `-A⁻¹ ∇f`, found in at most `N` products.
//!
//! ```
//! use autodiff_runtime::hessian::{self, CgOptions};
//!
//! let a = [[4.0, 1.0], [1.0, 3.0]];
//! let b = [1.0, 2.0];
//! let hvp = |v: &[f64; 2], out: &mut [f64; 2]| {
//!     *out = [a[0][0] * v[0] + a[0][1] * v[1], a[1][0] * v[0] + a[1][1] * v[1]];
//! };
//! let mut x = [10.0, -7.0];
//! let mut g = [0.0; 2];
//! hvp(&x, &mut g);
//! let g = [g[0] - b[0], g[1] - b[1]];
//! // Solved to 1e-14 (the default stops early, at a relative residual of min(0.5, sqrt(‖g‖))).
//! let options = CgOptions { max_iters: 10, rtol: Some(1e-14) };
//! let step = hessian::newton_cg(&g, hvp, &options)?;
//! x = [x[0] + step.direction[0], x[1] + step.direction[1]];
//! // The minimiser solves A x = b: x = (1/11, 7/11).
//! assert!((x[0] - 1.0 / 11.0).abs() < 1e-12 && (x[1] - 7.0 / 11.0).abs() < 1e-12, "{x:?}");
//! assert_eq!(hessian::dense(hvp), a);
//! # Ok::<(), hessian::NewtonCgError>(())
//! ```

/// The Hessian from `N` products with the unit vectors: column `j` is `H e_j`. A Hessian is
/// symmetric; products computed in floating point may differ from their transposes by rounding,
/// which [`symmetrize`] averages away where it matters.
#[allow(clippy::needless_range_loop)] // column j of the matrix, by index
pub fn dense<const N: usize>(mut hvp: impl FnMut(&[f64; N], &mut [f64; N])) -> [[f64; N]; N] {
    let mut h = [[0.0; N]; N];
    let mut e = [0.0; N];
    let mut column = [0.0; N];
    for j in 0..N {
        e[j] = 1.0;
        hvp(&e, &mut column);
        e[j] = 0.0;
        for i in 0..N {
            h[i][j] = column[i];
        }
    }
    h
}

/// The Hessian from products `W` columns at a time: `hvp_w(v, out)` writes `H V` into `out` for
/// the `N x W` block `V` (`v[i][l]` is coordinate `i` of direction `l`), which vector forward
/// mode over a gradient gives in one sweep (`g_jvp_vec::<W>` of a gradient `g` written under
/// `#[differentiable(jvp)]`: forward over reverse, `W` directions per sweep). `ceil(N / W)`
/// calls; the last block's surplus lanes are zero directions.
#[allow(clippy::needless_range_loop)] // a block of columns, by index
pub fn dense_wide<const N: usize, const W: usize>(
    mut hvp_w: impl FnMut(&[[f64; W]; N], &mut [[f64; W]; N]),
) -> [[f64; N]; N] {
    let mut h = [[0.0; N]; N];
    let mut v = [[0.0; W]; N];
    let mut out = [[0.0; W]; N];
    let mut first = 0;
    while first < N {
        let lanes = W.min(N - first);
        for l in 0..lanes {
            v[first + l][l] = 1.0;
        }
        hvp_w(&v, &mut out);
        for l in 0..lanes {
            v[first + l][l] = 0.0;
            for i in 0..N {
                h[i][first + l] = out[i][l];
            }
        }
        first += W.max(1);
    }
    h
}

/// The Hessian's diagonal from products `W` at a time (see [`dense_wide`]): `H_jj` is
/// coordinate `j` of `H e_j`, so it costs what the dense Hessian costs; for a function whose
/// Hessian is diagonal, [`diagonal_separable`] takes one product.
pub fn diagonal_wide<const N: usize, const W: usize>(
    hvp_w: impl FnMut(&[[f64; W]; N], &mut [[f64; W]; N]),
) -> [f64; N] {
    let h = dense_wide(hvp_w);
    core::array::from_fn(|j| h[j][j])
}

/// The diagonal of a Hessian that is diagonal, from one product with the all-ones vector:
/// `H 1` is the row sums, which are the diagonal exactly when every off-diagonal entry is zero,
/// that is for a separable function `f(x) = Σ f_j(x_j)` (k-means' cost in the centroids' coordinates,
/// a sum of per-parameter penalties). For any other function this is not its diagonal; use
/// [`diagonal_wide`].
pub fn diagonal_separable<const N: usize>(
    mut hvp: impl FnMut(&[f64; N], &mut [f64; N]),
) -> [f64; N] {
    let mut out = [0.0; N];
    hvp(&[1.0; N], &mut out);
    out
}

/// `(H + Hᵀ) / 2`, in place.
#[allow(clippy::needless_range_loop)] // a matrix's two triangles, by index
pub fn symmetrize<const N: usize>(h: &mut [[f64; N]; N]) {
    for i in 0..N {
        for j in 0..i {
            let mean = 0.5 * (h[i][j] + h[j][i]);
            h[i][j] = mean;
            h[j][i] = mean;
        }
    }
}

/// When the conjugate-gradient iteration of [`newton_cg`] stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CgOptions {
    /// At most this many Hessian-vector products (and never more than `4 N`: in exact
    /// arithmetic `N` suffice, rounding may need a few more).
    pub max_iters: usize,
    /// Stop once `‖H p + g‖ ≤ rtol · ‖g‖`. `None`: `min(0.5, sqrt(‖g‖))`, per Nocedal and
    /// Wright (superlinear convergence near the minimum).
    pub rtol: Option<f64>,
}

impl Default for CgOptions {
    fn default() -> Self {
        CgOptions {
            max_iters: usize::MAX,
            rtol: None,
        }
    }
}

/// The result of [`newton_cg`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonStep<const N: usize> {
    /// The step `p` with `H p ≈ -g` (a descent direction whenever `g ≠ 0`).
    pub direction: [f64; N],
    /// Hessian-vector products used.
    pub products: usize,
    /// `‖H p + g‖ / ‖g‖` at the end (0 for `g = 0`).
    pub relative_residual: f64,
    /// The iteration met a direction of non-positive curvature (`dᵀ H d ≤ 0`) and stopped
    /// there: with the steepest-descent step `-g` if it was the first direction, else with the
    /// step built so far.
    pub negative_curvature: bool,
}

/// Why [`newton_cg`] gave no step: a value it was given or computed is not finite, so any step
/// would be NaN or infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NewtonCgError {
    /// `g[index]` is NaN or infinite.
    NonFiniteGradient {
        /// The first such entry.
        index: usize,
    },
    /// The Hessian-vector product number `product` (from 1) wrote NaN or an infinity at `index`.
    NonFiniteProduct {
        /// Which product.
        product: usize,
        /// The first such entry.
        index: usize,
    },
    /// A sum of squares or the step overflowed after `products` products, with a finite
    /// gradient and finite products (entries beyond `sqrt(f64::MAX)`, about `1e154`, or a
    /// curvature underflowing towards zero): scale the problem.
    Overflow {
        /// Products used before.
        products: usize,
    },
}

impl core::fmt::Display for NewtonCgError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NewtonCgError::NonFiniteGradient { index } => {
                write!(f, "entry {index} of the gradient is not finite")
            }
            NewtonCgError::NonFiniteProduct { product, index } => write!(
                f,
                "entry {index} of Hessian-vector product {product} is not finite"
            ),
            NewtonCgError::Overflow { products } => write!(
                f,
                "the conjugate-gradient iteration overflowed after {products} products; scale the problem"
            ),
        }
    }
}

impl core::error::Error for NewtonCgError {}

fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The truncated Newton step: conjugate gradients on `H p = -g` (Nocedal and Wright,
/// *Numerical Optimization*, Algorithm 7.1), using only products `H d`. On a positive definite
/// `H` it reaches the Newton step in at most `N` products (in exact arithmetic); far from a
/// minimum, where `H` may be indefinite, it stops at the first direction of non-positive
/// curvature, so the step is always a descent direction. Follow it with a line search (or take
/// the full step near the minimum).
///
/// # Errors
///
/// A [`NewtonCgError`], and no step, when `g` or a product `H d` holds a NaN or an infinity, or
/// when the iteration overflows: its step would not be finite.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::hessian::{self, CgOptions, NewtonCgError};
///
/// // A product that fails (a NaN, say from a log of a negative number) is an error, not a NaN step.
/// let nan = |_: &[f64; 2], out: &mut [f64; 2]| *out = [1.0, f64::NAN];
/// let err = hessian::newton_cg(&[1.0, 2.0], nan, &CgOptions::default()).unwrap_err();
/// assert_eq!(err, NewtonCgError::NonFiniteProduct { product: 1, index: 1 });
/// ```
#[allow(clippy::needless_range_loop)] // the CG updates of several vectors, by index
pub fn newton_cg<const N: usize>(
    g: &[f64; N],
    mut hvp: impl FnMut(&[f64; N], &mut [f64; N]),
    options: &CgOptions,
) -> Result<NewtonStep<N>, NewtonCgError> {
    if let Some(index) = g.iter().position(|x| !x.is_finite()) {
        return Err(NewtonCgError::NonFiniteGradient { index });
    }
    let mut step = NewtonStep {
        direction: [0.0; N],
        products: 0,
        relative_residual: 0.0,
        negative_curvature: false,
    };
    let overflow = |step: &NewtonStep<N>| NewtonCgError::Overflow {
        products: step.products,
    };
    let mut rr = dot(g, g);
    if !rr.is_finite() {
        return Err(overflow(&step));
    }
    let g_norm = crate::math::sqrt(rr);
    if g_norm == 0.0 {
        return Ok(step);
    }
    let rtol = options
        .rtol
        .unwrap_or_else(|| crate::math::sqrt(g_norm).min(0.5));
    // r = H p + g (the residual), d = the search direction.
    let mut r = *g;
    let mut d = g.map(|x| -x);
    let mut hd = [0.0; N];
    step.relative_residual = 1.0;
    while step.products < options.max_iters.min(N.max(1) * 4) {
        hvp(&d, &mut hd);
        step.products += 1;
        if let Some(index) = hd.iter().position(|x| !x.is_finite()) {
            return Err(NewtonCgError::NonFiniteProduct {
                product: step.products,
                index,
            });
        }
        let curvature = dot(&d, &hd);
        if !curvature.is_finite() {
            return Err(overflow(&step));
        }
        if curvature <= 0.0 {
            step.negative_curvature = true;
            if step.products == 1 {
                step.direction = d;
            }
            return Ok(step);
        }
        let alpha = rr / curvature;
        for i in 0..N {
            step.direction[i] += alpha * d[i];
            r[i] += alpha * hd[i];
        }
        let rr_next = dot(&r, &r);
        if !rr_next.is_finite() || step.direction.iter().any(|x| !x.is_finite()) {
            return Err(overflow(&step));
        }
        step.relative_residual = crate::math::sqrt(rr_next) / g_norm;
        if step.relative_residual <= rtol {
            return Ok(step);
        }
        let beta = rr_next / rr;
        rr = rr_next;
        for i in 0..N {
            d[i] = -r[i] + beta * d[i];
        }
    }
    Ok(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rosenbrock's `f = (1 - x)² + 100 (y - x²)²`: its Hessian in closed form.
    fn rosenbrock_hessian(x: f64, y: f64) -> [[f64; 2]; 2] {
        [
            [2.0 - 400.0 * (y - x * x) + 800.0 * x * x, -400.0 * x],
            [-400.0 * x, 200.0],
        ]
    }

    fn times<const N: usize>(h: &[[f64; N]; N], v: &[f64; N]) -> [f64; N] {
        core::array::from_fn(|i| dot(&h[i], v))
    }

    #[test]
    fn wide_products_give_the_same_matrix_in_fewer_calls() {
        // A 5 x 5 symmetric matrix, read 2 columns per call: 3 calls, the last with one lane.
        let h: [[f64; 5]; 5] = core::array::from_fn(|i| {
            core::array::from_fn(|j| {
                1.0 / (1.0 + i as f64 + j as f64) + if i == j { 2.0 } else { 0.0 }
            })
        });
        let mut calls = 0;
        let wide = |v: &[[f64; 2]; 5], out: &mut [[f64; 2]; 5]| {
            calls += 1;
            for i in 0..5 {
                for l in 0..2 {
                    out[i][l] = (0..5).map(|k| h[i][k] * v[k][l]).sum();
                }
            }
        };
        assert_eq!(dense_wide(wide), h);
        assert_eq!(calls, 3);
        let diag = diagonal_wide(|v: &[[f64; 4]; 5], out: &mut [[f64; 4]; 5]| {
            for i in 0..5 {
                for l in 0..4 {
                    out[i][l] = (0..5).map(|k| h[i][k] * v[k][l]).sum();
                }
            }
        });
        assert_eq!(diag, core::array::from_fn(|j| h[j][j]));
    }

    #[test]
    fn a_separable_diagonal_takes_one_product() {
        // f = Σ x_j⁴ / 12 + x_j: H = diag(x_j²).
        let x = [0.5, -2.0, 3.0];
        let mut calls = 0;
        let diag = diagonal_separable(|v: &[f64; 3], out: &mut [f64; 3]| {
            calls += 1;
            *out = core::array::from_fn(|j| x[j] * x[j] * v[j]);
        });
        assert_eq!(diag, [0.25, 4.0, 9.0]);
        assert_eq!(calls, 1);
        // Not separable: the row sums are not the diagonal.
        let h = rosenbrock_hessian(-1.2, 1.0);
        let sums = diagonal_separable(|v: &[f64; 2], out: &mut [f64; 2]| *out = times(&h, v));
        assert_ne!(sums[0], h[0][0]);
    }

    #[test]
    fn dense_reads_the_matrix_column_by_column() {
        let h = rosenbrock_hessian(-1.2, 1.0);
        let mut calls = 0;
        let got = dense(|v: &[f64; 2], out: &mut [f64; 2]| {
            calls += 1;
            *out = times(&h, v);
        });
        assert_eq!(got, h);
        assert_eq!(calls, 2);
        // A product that is not symmetric to rounding is averaged.
        let mut skew = [[1.0, 2.0], [2.0 + 1e-12, 3.0]];
        symmetrize(&mut skew);
        assert_eq!(skew[0][1], skew[1][0]);
    }

    #[test]
    fn conjugate_gradients_solve_a_positive_definite_system() {
        // A 5x5 SPD matrix: M Mᵀ + I for a fixed M.
        let m: [[f64; 5]; 5] =
            core::array::from_fn(|i| core::array::from_fn(|j| ((i * 5 + j) as f64 * 0.7).sin()));
        let a: [[f64; 5]; 5] = core::array::from_fn(|i| {
            core::array::from_fn(|j| dot(&m[i], &m[j]) + if i == j { 1.0 } else { 0.0 })
        });
        let g = [1.0, -2.0, 0.5, 3.0, -1.0];
        let options = CgOptions {
            max_iters: 50,
            rtol: Some(1e-13),
        };
        let step = newton_cg(&g, |v, out| *out = times(&a, v), &options).unwrap();
        assert!(!step.negative_curvature);
        assert!(step.products <= 10, "{} products", step.products);
        let residual = times(&a, &step.direction);
        for i in 0..5 {
            assert!((residual[i] + g[i]).abs() < 1e-10, "{residual:?} vs -{g:?}");
        }
    }

    #[test]
    fn newton_cg_minimises_rosenbrock() {
        // Newton-CG solved to 1e-10 with a backtracking line search from the classic start
        // (-1.2, 1): the minimum (1, 1) in a few dozen iterations, where gradient descent needs
        // thousands.
        let f = |p: [f64; 2]| (1.0 - p[0]).powi(2) + 100.0 * (p[1] - p[0] * p[0]).powi(2);
        let grad = |p: [f64; 2]| {
            [
                -2.0 * (1.0 - p[0]) - 400.0 * p[0] * (p[1] - p[0] * p[0]),
                200.0 * (p[1] - p[0] * p[0]),
            ]
        };
        let mut p = [-1.2, 1.0];
        let mut iterations = 0;
        while crate::math::sqrt(dot(&grad(p), &grad(p))) > 1e-10 {
            iterations += 1;
            assert!(iterations < 100, "no convergence: {p:?}");
            let h = rosenbrock_hessian(p[0], p[1]);
            let options = CgOptions {
                max_iters: 10,
                rtol: Some(1e-10),
            };
            let step = newton_cg(&grad(p), |v, out| *out = times(&h, v), &options).unwrap();
            let slope = dot(&grad(p), &step.direction);
            assert!(slope < 0.0, "not a descent direction at {p:?}");
            let mut t = 1.0;
            while f([p[0] + t * step.direction[0], p[1] + t * step.direction[1]])
                > f(p) + 1e-4 * t * slope
            {
                t *= 0.5;
            }
            p = [p[0] + t * step.direction[0], p[1] + t * step.direction[1]];
        }
        assert!(
            (p[0] - 1.0).abs() < 1e-8 && (p[1] - 1.0).abs() < 1e-8,
            "{p:?}"
        );
        assert!(iterations < 40, "{iterations} iterations");
    }

    #[test]
    fn negative_curvature_gives_a_descent_direction() {
        // An indefinite H: the first direction -g has negative curvature.
        let h = [[-1.0, 0.0], [0.0, 2.0]];
        let g = [1.0, 0.0];
        let step = newton_cg(&g, |v, out| *out = times(&h, v), &CgOptions::default()).unwrap();
        assert!(step.negative_curvature);
        assert_eq!(step.direction, [-1.0, 0.0]);
        // A zero gradient: no step.
        let step = newton_cg(
            &[0.0; 2],
            |v, out| *out = times(&h, v),
            &CgOptions::default(),
        )
        .unwrap();
        assert_eq!((step.direction, step.products), ([0.0; 2], 0));
    }

    #[test]
    fn non_finite_gradients_and_products_are_errors_not_nan_steps() {
        // Before, each gave a NaN direction with `relative_residual` NaN after 8 products.
        let identity = |v: &[f64; 2], out: &mut [f64; 2]| *out = *v;
        let options = CgOptions::default();
        for (g, index) in [([1.0, f64::NAN], 1), ([f64::NEG_INFINITY, 0.0], 0)] {
            assert_eq!(
                newton_cg(&g, identity, &options),
                Err(NewtonCgError::NonFiniteGradient { index })
            );
        }
        // The product turns NaN on the second call (the first direction is -g).
        let mut calls = 0;
        let h = [[2.0, 0.0], [0.0, 1.0]];
        let late_nan = |v: &[f64; 2], out: &mut [f64; 2]| {
            calls += 1;
            *out = times(&h, v);
            if calls == 2 {
                out[0] = f64::NAN;
            }
        };
        let tight = CgOptions {
            max_iters: 10,
            rtol: Some(1e-14),
        };
        assert_eq!(
            newton_cg(&[1.0, 1.0], late_nan, &tight),
            Err(NewtonCgError::NonFiniteProduct {
                product: 2,
                index: 0
            })
        );
        let inf = |_: &[f64; 2], out: &mut [f64; 2]| *out = [0.0, f64::INFINITY];
        assert_eq!(
            newton_cg(&[1.0, 1.0], inf, &options),
            Err(NewtonCgError::NonFiniteProduct {
                product: 1,
                index: 1
            })
        );
        // Finite, but its sum of squares overflows.
        assert_eq!(
            newton_cg(&[1e200, 1e200], identity, &options),
            Err(NewtonCgError::Overflow { products: 0 })
        );
        // A finite product whose curvature overflows.
        let huge = |v: &[f64; 2], out: &mut [f64; 2]| *out = v.map(|x| x * 1e30);
        assert_eq!(
            newton_cg(&[1e140, 1e140], huge, &options),
            Err(NewtonCgError::Overflow { products: 1 })
        );
    }
}
