use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let y = vec![x[0]; x.len()];
    y[1]
}

fn main() {}
