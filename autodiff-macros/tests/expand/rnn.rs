/// A loop-carried state (a tanh RNN): the tape keeps one `h` per step.
#[differentiable]
pub fn rnn(x: &[f64; 50], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..50 {
        h = (w * h + u * x[t]).tanh();
    }
    h
}
