use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4], y: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y.iter().rev().skip(1).rev()) {
        s += a * b;
    }
    s
}

fn main() {}
