use stackgrad::differentiable;

// A pattern a `match` does not take, within a tuple pattern: one error, on it.
#[differentiable]
fn f(x: f64, i: usize, j: usize) -> f64 {
    match (&i, j) {
        (&0, _) => x,
        _ => x * x,
    }
}

fn main() {}
