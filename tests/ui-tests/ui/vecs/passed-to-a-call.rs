use stackgrad::differentiable;

#[differentiable(wrt(a))]
fn total(a: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut y = vec![0.0; x.len()];
    for i in 0..x.len() {
        y[i] = x[i] * x[i];
    }
    total(&y)
}

fn main() {}
