use stackgrad::differentiable;

#[differentiable(jacobian)]
fn pair(x: f64, y: f64) -> (f64, [[f64; 2]; 2]) {
    (x * y, [[x, y], [y, x]])
}

fn main() {}
