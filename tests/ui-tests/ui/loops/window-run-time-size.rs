use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64], k: usize) -> f64 {
    let mut s = 0.0;
    for p in x.chunks_exact(k) {
        s += p[0] * p[0];
    }
    s
}

fn main() {}
