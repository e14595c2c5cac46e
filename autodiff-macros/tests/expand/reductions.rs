/// Iterator reductions become loops: a dot product by `zip`/`map`/`sum`, and a maximum by `fold`.
#[differentiable]
pub fn reductions<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let d: f64 = a.iter().zip(b.iter()).map(|(p, q)| p * q).sum();
    let m = a.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    d * m
}
