use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let (a, b) = (x, x * x);
    a + b
}

fn main() {}
