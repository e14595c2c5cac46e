use stackgrad::differentiable;

#[differentiable]
fn f(x: Vec<f64>) -> f64 {
    x[0] * x[1]
}

fn main() {}
