/// A sequential loop over a run-time length: its steps go into `Vec` fields of the tape, sized
/// when the loop starts (the `alloc` feature).
#[differentiable]
pub fn rnn(w: f64, u: f64, x: &[f64]) -> f64 {
    let mut h = 0.0;
    for t in 0..x.len() {
        h = (w * h + u * x[t]).tanh();
    }
    h * h
}
