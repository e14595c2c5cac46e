use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut k = 1;
    let mut s = 0.0;
    for v in x[k..].iter() {
        s += v * k as f64;
        k += 1;
    }
    s
}

fn main() {}
