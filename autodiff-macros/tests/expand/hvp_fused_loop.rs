#[differentiable(wrt(w), hvp)]
fn mean_cubes(w: &[f64; 2], xs: &[f64], scale: f64) -> f64 {
    let mut a = 0.0;
    let mut b = 0.0;
    for i in 0..xs.len() {
        let z = w[0] * xs[i] + w[1];
        a += z * z * z;
        b += z.sin();
    }
    (a - 2.0 * b) * scale / xs.len() as f64
}
