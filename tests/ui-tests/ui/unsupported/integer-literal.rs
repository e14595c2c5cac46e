use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let two: f64 = 2;
    x * two
}

fn main() {}
