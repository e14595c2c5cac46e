use stackgrad::differentiable;

#[differentiable]
fn f(a: &[f64; 4]) -> f64 {
    let y = a[1..3][0];
    y * a[0]
}

fn main() {}
