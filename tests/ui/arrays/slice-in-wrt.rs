use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    x[0] * x[1]
}

fn main() {}
