use stackgrad::differentiable;

// Every arm's pattern is a tuple: one error, on the first.
#[differentiable]
fn f(x: f64, i: usize, j: usize) -> f64 {
    match (i, j) {
        (0, _) => x,
        (_, _) => x * x,
    }
}

fn main() {}
