use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let y = x * 2.0;
    y[0]
}

fn main() {}
