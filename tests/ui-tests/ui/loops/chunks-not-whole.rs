use stackgrad::differentiable;

#[differentiable]
fn odd(x: &[f64; 7]) -> f64 {
    let mut s = 0.0;
    for c in x.chunks(3) {
        s += c[0];
    }
    s
}

#[differentiable(wrt(x))]
fn slice(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for c in x.chunks(2) {
        s += c[0];
    }
    s
}

fn main() {}
