use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 3]) -> f64 {
    x[0] = 1.0;
    x[0] + x[1]
}

fn main() {}
