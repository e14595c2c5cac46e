//! karpathy/micrograd's README expression, shared by `benches/small_graph.rs` (reverse mode)
//! and `benches/forward.rs` (forward mode).

use stackgrad::differentiable;

/// karpathy/micrograd's README example, `relu` as `max(0.0)` and `**3` as `powi(3)`.
#[differentiable(hvp)]
#[allow(clippy::misrefactored_assign_op)] // `c += c + 1.0` as the README writes it
pub fn micrograd(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).max(0.0);
    d += 3.0 * d + (b - a).max(0.0);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}
