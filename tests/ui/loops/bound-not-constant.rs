use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 8], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += x[i];
    }
    s
}

fn main() {}
