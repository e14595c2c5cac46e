use stackgrad::differentiable;

#[differentiable]
fn f(x: f64, a: &[f64; 4]) -> f64 {
    let y = x[1..3][0];
    y * a[0]
}

fn main() {}
