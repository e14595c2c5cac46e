use stackgrad::differentiable;

// A `match` on a tuple takes or-patterns that bind no name: the error is on the first case
// that binds one, and the match's other arm (its names bound to the elements, one computed)
// is lowered without another error.
#[differentiable]
fn f(x: f64, i: usize, j: usize) -> f64 {
    match (i % 5, j) {
        (0, k) | (k, 0) => x * k as f64,
        (k, _) => x * x + k as f64,
    }
}

fn main() {}
