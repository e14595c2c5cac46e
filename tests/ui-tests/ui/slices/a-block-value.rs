use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let row = &x[1..];
    let r = { row };
    r[0] * x[0]
}

fn main() {}
