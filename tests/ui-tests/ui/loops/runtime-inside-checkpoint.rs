use stackgrad::differentiable;

#[differentiable]
fn f(xs: &[f64], w: f64) -> f64 {
    let mut h = 0.0;
    #[checkpoint]
    for _ in 0..4 {
        let mut s = 0.0;
        for v in xs.iter() {
            s += (w * v + h).tanh();
        }
        h = s;
    }
    h
}

fn main() {}
