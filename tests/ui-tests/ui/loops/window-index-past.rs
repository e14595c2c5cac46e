use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for p in x.chunks_exact(2) {
        s += p[0] * p[2];
    }
    s
}

#[differentiable]
fn g(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        for j in 0..3 {
            s += w[j];
        }
    }
    s
}

fn main() {}
