/// Second differences by windows, points of two coordinates by chunks, and a window iterated
/// against a kernel (a convolution).
#[differentiable]
pub fn grouped_differences(x: &[f64; 6], k: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for d in x.windows(3) {
        let c = d[0] - 2.0 * d[1] + d[d.len() - 1];
        s += c * c;
    }
    for p in x.chunks_exact(2) {
        s += p[0] * p[1];
    }
    for d in x.windows(3) {
        for (a, b) in d.iter().zip(k.iter()) {
            s += a * b;
        }
    }
    s
}
