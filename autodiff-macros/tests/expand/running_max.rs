#[differentiable(wrt(x, w))]
fn scaled_max(x: &[f64], w: f64) -> f64 {
    let mut m = f64::NEG_INFINITY;
    for v in x.iter() {
        m = m.max(w * v);
    }
    m * m
}
