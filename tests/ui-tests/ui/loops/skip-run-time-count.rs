use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4], k: usize) -> f64 {
    let mut s = 0.0;
    for v in x.iter().skip(k) {
        s += v * v;
    }
    s
}

fn main() {}
