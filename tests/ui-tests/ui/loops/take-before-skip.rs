use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(x.iter().take(3).skip(1)) {
        s += a * b;
    }
    s
}

fn main() {}
