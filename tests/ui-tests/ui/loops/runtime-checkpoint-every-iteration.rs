use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64], w: f64, n: usize) -> f64 {
    let mut h = 0.0;
    #[checkpoint]
    for i in 0..n {
        h = (w * h + x[i]).tanh();
    }
    h
}

fn main() {}
