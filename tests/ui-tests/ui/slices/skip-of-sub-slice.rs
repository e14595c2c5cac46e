use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x[1..].iter().skip(1) {
        s += v * v;
    }
    s
}

fn main() {}
