use stackgrad::differentiable;

// A pattern a `match` does not take (`ref k`): one error on it, and the match's last arm (its
// name bound to the computed scrutinee) is lowered without another error.
#[differentiable]
fn f(x: f64, i: usize) -> f64 {
    match i % 5 {
        0 => x,
        ref k if *k > 2 => x * 2.0,
        k => x * x + k as f64,
    }
}

fn main() {}
