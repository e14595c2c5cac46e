use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut start = 0;
    let rest = &x[start..];
    start = 1;
    rest[0] * x[start]
}

fn main() {}
