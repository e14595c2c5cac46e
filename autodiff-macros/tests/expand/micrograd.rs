/// Straight-line code with compound assignments: the expression from micrograd's README.
#[differentiable]
pub fn micrograd(a: f64, b: f64) -> f64 {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += 1.0 + c + (-a);
    d += d * 2.0 + (b + a).max(0.0);
    d += 3.0 * d + (b - a).max(0.0);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += 10.0 / f;
    g
}
