use stackgrad::differentiable;

#[differentiable(wrt(a, b))]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s
}

#[differentiable(wrt(x))]
fn halves(x: &[f64]) -> f64 {
    let n = x.len() / 2;
    dot(&x[..n], &x[n..])
}

fn main() {}
