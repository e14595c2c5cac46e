use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let mut y = vec![0.0; 2];
        y[0] = x[i];
        s += y[0] * y[0];
    }
    s
}

fn main() {}
