#[differentiable(nested)]
fn cubic(x: &[f64; 2], w: f64) -> f64 {
    w * x[0] * x[0] * x[1] + w.sin()
}
