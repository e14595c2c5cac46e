use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let (a, b): [f64; 2] = (x, x * x);
    a * b
}

fn main() {}
