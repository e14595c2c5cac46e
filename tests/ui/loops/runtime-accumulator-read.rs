use stackgrad::differentiable;

// `s` is accumulated, but also read inside the loop: its value before each iteration matters.
#[differentiable]
fn f(x: &[f64], w: f64) -> f64 {
    let mut s: f64 = 0.0;
    for v in x.iter() {
        s += w * v * s.tanh();
    }
    s
}

fn main() {}
