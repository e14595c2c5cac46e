use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut y = x;
    while y > 1.0 {
        y = y / 2.0;
    }
    y
}

fn main() {}
