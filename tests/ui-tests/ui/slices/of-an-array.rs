use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let r = &x[1..3];
    r[0] * r[1]
}

fn main() {}
