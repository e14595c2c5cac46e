use stackgrad::differentiable;

// A float output's Jacobian is its gradient.
#[differentiable(jacobian)]
fn norm2(x: &[f64; 3]) -> f64 {
    x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
}

fn main() {}
