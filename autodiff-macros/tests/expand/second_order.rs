#[differentiable(hvp)]
pub fn energy(x: &[f64; 4], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s += (w * x[i]).tanh();
    }
    if s > 0.0 { s * s } else { -s }
}
