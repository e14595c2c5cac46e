use autodiff_macros::differentiable;

// A state carried from one step to the next of a loop over a run-time length: without the
// `alloc` feature its steps cannot go into a tape that grows with the length.
#[differentiable]
pub fn f(x: &[f64], w: f64) -> f64 {
    let mut h = 0.0;
    for i in 0..x.len() {
        h = w * h + x[i];
    }
    h
}

fn main() {}
