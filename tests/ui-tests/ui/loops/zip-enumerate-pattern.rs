use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4], y: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (i, pair) in x.iter().zip(y.iter()).enumerate() {
        s += (i as f64) * pair.0 * pair.1;
    }
    s
}

fn main() {}
