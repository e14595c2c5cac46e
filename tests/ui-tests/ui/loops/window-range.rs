use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 6]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(3) {
        s += w[1..].len() as f64 * w[0];
    }
    s
}

fn main() {}
