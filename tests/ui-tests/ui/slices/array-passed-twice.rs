use stackgrad::differentiable;

#[differentiable(wrt(a, b))]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s
}

#[differentiable]
fn halves(x: &[f64; 6]) -> f64 {
    dot(&x[..3], &x[3..])
}

fn main() {}
