//! The smallest stackgrad program: differentiate a function and print its gradient.
//!
//! Run it with `cargo run --example quickstart` (at micrograd's point a = -4, b = 2, or any
//! other: `-- --a 1 --b 3`); see the generated code with `cargo expand --example quickstart`.

use clap::Parser;
use stackgrad::differentiable;

/// The value and the gradient of micrograd's README expression at a point.
#[derive(Parser, Debug)]
#[command(allow_negative_numbers = true)]
struct Args {
    /// The first input.
    #[arg(long, default_value_t = -4.0)]
    a: f64,
    /// The second input.
    #[arg(long, default_value_t = 2.0)]
    b: f64,
}

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
    let Args { a, b } = Args::parse();
    let (g, (d_a, d_b)) = micrograd_grad(a, b);
    println!("g     = {g:.4}");
    println!("dg/da = {d_a:.4}");
    println!("dg/db = {d_b:.4}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let args = Args::try_parse_from(["quickstart"]).unwrap();
        assert_eq!((args.a, args.b), (-4.0, 2.0));
        let args = Args::try_parse_from(["quickstart", "--a", "-1.5", "--b", "3"]).unwrap();
        assert_eq!((args.a, args.b), (-1.5, 3.0));
        assert!(Args::try_parse_from(["quickstart", "--a", "x"]).is_err());
        assert_eq!(
            Args::try_parse_from(["quickstart", "--help"])
                .unwrap_err()
                .exit_code(),
            0
        );
    }
}
