use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 6]) -> f64 {
    let mut s = 0.0;
    for v in x.iter().step_by(2).skip(1) {
        s += v;
    }
    s
}

#[differentiable]
fn g(x: &[f64; 6], y: &[f64; 6]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y.iter().rev().step_by(2)) {
        s += a * b;
    }
    s
}

#[differentiable]
fn h(x: &[f64; 6], n: usize) -> f64 {
    let mut s = 0.0;
    for v in x.iter().step_by(n) {
        s += v;
    }
    s
}

#[differentiable]
fn k(x: &[f64; 6]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().step_by(0).enumerate() {
        s += v * i as f64;
    }
    s
}

fn main() {}
