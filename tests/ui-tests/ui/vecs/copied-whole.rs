use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut y = vec![0.0; x.len()];
    y[0] = x[0].sin();
    let z = y;
    z[0]
}

fn main() {}
