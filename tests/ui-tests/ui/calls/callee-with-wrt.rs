use stackgrad::differentiable;

#[differentiable(wrt(y))]
fn g(x: f64, y: f64) -> f64 {
    x * y
}

#[differentiable]
fn f(x: f64) -> f64 {
    g(x, 2.0) + 1.0
}

fn main() {}
