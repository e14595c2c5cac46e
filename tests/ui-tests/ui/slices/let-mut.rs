use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut rest = &x[1..];
    rest[0] * rest[1]
}

fn main() {}
