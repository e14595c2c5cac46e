use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate().skip(1) {
        s += (i as f64) * v;
    }
    s
}

fn main() {}
