use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().rev().take(3).skip(1).enumerate() {
        s += (i as f64) * v;
    }
    s
}

fn main() {}
