use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    x * scale
}

fn main() {}
