use stackgrad::differentiable;

// `hvp` of a function differentiating a slice: its gradient and `H v` have a run-time length.
#[differentiable(wrt(x), hvp)]
fn f(x: &[f64]) -> f64 {
    x[0] * x[1]
}

fn main() {}
