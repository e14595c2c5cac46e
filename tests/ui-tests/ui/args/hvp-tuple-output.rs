use stackgrad::differentiable;

// `hvp` needs one output of floats: a tuple has no single Hessian.
#[differentiable(hvp)]
fn polar(r: f64, theta: f64) -> (f64, f64) {
    (r * theta.cos(), r * theta.sin())
}

fn main() {}
