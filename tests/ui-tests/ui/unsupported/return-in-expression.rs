use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let y = if x > 0.0 { x } else { return 0.0 };
    y * y
}

fn main() {}
