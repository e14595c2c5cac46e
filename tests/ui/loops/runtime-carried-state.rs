use stackgrad::differentiable;

// A state carried from one iteration to the next of a loop whose length is known at run time
// only: its iterations are not independent.
#[differentiable]
fn f(x: &[f64], w: f64) -> f64 {
    let mut h = 0.0;
    for i in 0..x.len() {
        h = (w * h + x[i]).tanh();
    }
    h
}

fn main() {}
