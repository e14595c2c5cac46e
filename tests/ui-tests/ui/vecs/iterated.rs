use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64]) -> f64 {
    let mut y = vec![0.0; x.len()];
    for i in 0..x.len() {
        y[i] = x[i].sin();
    }
    let mut s = 0.0;
    for v in &y {
        s += v;
    }
    s
}

fn main() {}
