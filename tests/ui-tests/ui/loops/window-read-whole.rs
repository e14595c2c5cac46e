use stackgrad::differentiable;

fn sum(v: &[f64]) -> f64 {
    v.iter().sum()
}

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        s += sum(w) * w[0];
    }
    s
}

fn main() {}

#[differentiable]
fn g(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for w in x.chunks_exact(2) {
        let v = w;
        s += v[0];
    }
    s
}

#[differentiable]
fn h(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        let v = &w;
        s += v[0];
    }
    s
}
