//! The smallest stackgrad program: differentiate a function and print its gradient.
//!
//! Run it with `cargo run --example quickstart`; see the generated code with
//! `cargo expand --example quickstart`.

use stackgrad::differentiable;

/// The expression from micrograd's README, written as plain Rust.
#[allow(clippy::misrefactored_assign_op)] // micrograd's `c += c + 1`, kept as written there
#[differentiable]
fn micrograd(a: f64, b: f64) -> f64 {
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

fn main() {
    let (g, (d_a, d_b)) = micrograd_grad(-4.0, 2.0);
    println!("g     = {g:.4}");
    println!("dg/da = {d_a:.4}");
    println!("dg/db = {d_b:.4}");
}
