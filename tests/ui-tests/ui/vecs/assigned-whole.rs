use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut y = vec![0.0; x.len()];
    y = vec![1.0; 3];
    y[0] * x[0]
}

fn main() {}
