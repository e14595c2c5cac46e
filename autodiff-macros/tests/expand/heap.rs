/// `heap`: the outermost loop level of each field is a `Vec`, sized when the loop starts; the
/// inner levels stay arrays.
#[differentiable(heap)]
pub fn layer<const N: usize>(w: &[[f64; 4]; N], x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        let mut a = 0.0;
        for j in 0..4 {
            a += (w[i][j] * x[j]).sin();
        }
        s += a.tanh();
    }
    s
}
