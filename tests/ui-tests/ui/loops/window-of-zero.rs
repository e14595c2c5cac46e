use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for (i, w) in x.windows(0).enumerate() {
        s += w[0] * i as f64;
    }
    s
}

fn main() {}
