use stackgrad::differentiable;

#[differentiable]
fn f(w: f64, x: &mut [f64]) -> f64 {
    w * x[0]
}

fn main() {}
