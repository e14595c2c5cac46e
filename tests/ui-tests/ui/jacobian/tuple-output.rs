use stackgrad::differentiable;

#[differentiable(jacobian)]
fn pair(x: f64, y: f64) -> (f64, f64) {
    (x * y, x + y)
}

fn main() {}
