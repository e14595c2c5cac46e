#[differentiable(jvp)]
pub fn tangent(x: &[f64; 8], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..8 {
        let a = (w * x[i]).tanh();
        s += a * a;
    }
    let r = if s > 1.0 { s.sqrt() } else { s };
    r / w
}
