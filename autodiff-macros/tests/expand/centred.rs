/// An array defined element by element from parameters and read in a triangular loop (the shape
/// of ADBench GMM's centred point): nothing of `c` is recorded; the reverse sweep computes it
/// again once per row, with `::core::array::from_fn`, before the reversed loops that read it.
#[differentiable]
pub fn centred<const D: usize>(x: &[[f64; D]; 4], m: &[f64; D], l: &[f64; D]) -> f64 {
    let mut total = 0.0;
    for i in 0..4 {
        let mut c = [0.0; D];
        for d in 0..D {
            c[d] = x[i][d] - m[d];
        }
        let mut q = 0.0;
        for a in 0..D {
            for b in a..D {
                q += c[a] * c[b] * l[b];
            }
        }
        total += (0.5 * q).tanh();
    }
    total
}
