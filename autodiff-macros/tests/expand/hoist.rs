/// Distances of `N` points to `K` centres under per-centre triangular maps: the tangent of
/// `l[k] (x[i] - mu[k])` has a part, `l[k] (-t_mu[k])`, that is the same for every point.
#[differentiable(jvp, wrt(l, mu))]
pub fn hoist<const K: usize, const N: usize>(l: &[[f64; 6]; K], mu: &[[f64; 3]; K], x: &[[f64; 3]; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        for k in 0..K {
            let mut xc = [0.0; 3];
            for d in 0..3 {
                xc[d] = x[i][d] - mu[k][d];
            }
            let mut y = [0.0; 3];
            for a in 0..3 {
                for b in a..3 {
                    y[b] += l[k][a * 3 - a * (a + 1) / 2 + b] * xc[a];
                }
            }
            for d in 0..3 {
                s += y[d] * y[d];
            }
        }
    }
    s
}
