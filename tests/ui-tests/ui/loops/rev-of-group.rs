use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for (i, w) in x.windows(2).rev().enumerate() {
        s += (i as f64) * (w[1] - w[0]);
    }
    s
}

fn main() {}
