use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let (a, b): (f64, f64, f64) = if x > 0.0 { (x, 1.0) } else { (1.0, x) };
    a * b
}

fn main() {}
