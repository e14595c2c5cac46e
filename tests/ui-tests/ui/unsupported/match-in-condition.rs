use stackgrad::differentiable;

// A `match` on a computed value within a condition (here a guard) is a block with a `let`,
// which a condition does not take: one error, on that `match`.
#[differentiable]
fn f(x: f64, i: usize) -> f64 {
    match i % 3 {
        0 => x,
        k if match (i + 1) % 2 {
            0 => k > 0,
            _ => false,
        } =>
        {
            x * 2.0
        }
        _ => x * x,
    }
}

fn main() {}
