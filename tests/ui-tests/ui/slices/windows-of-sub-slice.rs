use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in x[1..].windows(2) {
        s += w[1] - w[0];
    }
    s
}

fn main() {}
