use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut y = vec![0.0; x.len()];
    y[0] = x[0];
    #[checkpoint(binomial(2))]
    for i in 1..x.len() {
        y[i] = y[i - 1] * x[i];
    }
    y[x.len() - 1]
}

fn main() {}
