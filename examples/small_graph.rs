//! BurTorch's "small graph": the expression from micrograd's README, differentiated at compile time.
//!
//! ```sh
//! cargo run --release --example small_graph                  # 10 million timed calls
//! cargo run --release --example small_graph -- --calls 1000   # fewer
//! ```
//!
//! Prints the value and the gradient at micrograd's inputs (a = -4, b = 2), where micrograd's README
//! gives g = 24.7041, dg/da = 138.8338, dg/db = 645.5773, then the mean time of one `micrograd_grad`
//! call (value and gradient together). `cargo bench --bench small_graph` measures it properly.

use std::hint::black_box;
use std::time::Instant;

use clap::Parser;
use stackgrad::differentiable;

/// The micrograd expression's value and gradient, then the mean time of one gradient call.
#[derive(Parser, Debug)]
struct Args {
    /// How many `micrograd_grad` calls to time.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u32).range(1..))]
    calls: u32,
}

/// micrograd's README expression, `relu` written as `max(0.0)` and `**3` as `powi(3)`.
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
    let args = Args::parse();
    let (a, b) = (-4.0, 2.0);
    let (g, (d_a, d_b)) = micrograd_grad(a, b);
    println!("a = {a}, b = {b}");
    println!("g     = {g:.4}");
    println!("dg/da = {d_a:.4}");
    println!("dg/db = {d_b:.4}");

    let calls = args.calls;
    let start = Instant::now();
    let mut sink = 0.0;
    for _ in 0..calls {
        let (g, (d_a, d_b)) = micrograd_grad(black_box(a), black_box(b));
        sink += g + d_a + d_b;
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / f64::from(calls);
    black_box(sink);
    println!(
        "result: g = {g:.4}, dg/da = {d_a:.4}, dg/db = {d_b:.4}, {ns:.1} ns per value and gradient"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        assert_eq!(
            Args::try_parse_from(["small_graph"]).unwrap().calls,
            10_000_000
        );
        assert_eq!(
            Args::try_parse_from(["small_graph", "--calls", "5"])
                .unwrap()
                .calls,
            5
        );
        assert!(Args::try_parse_from(["small_graph", "--calls", "0"]).is_err());
        let help = Args::try_parse_from(["small_graph", "--help"]).unwrap_err();
        assert_eq!(help.exit_code(), 0);
    }
}
