use stackgrad::differentiable;

#[differentiable]
fn f(x: f64, i: usize, j: usize) -> f64 {
    match (i, j) {
        (0, _) => x,
        _ => x * x,
    }
}

fn main() {}
