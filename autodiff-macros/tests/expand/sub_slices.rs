// Rows of flat slices as sub-slices: every sweep reads `c[j * d..(j + 1) * d][t]` where the
// function reads `centroid[t]`, its bounds checked once per row; `d_c[..][t]` in the adjoint.
#[differentiable(wrt(c), jvp)]
fn nearest(c: &[f64], p: &[f64], d: usize) -> f64 {
    let mut total = 0.0;
    for i in 0..p.len() / d {
        let point = &p[i * d..i * d + d];
        let mut best = f64::INFINITY;
        for j in 0..c.len() / d {
            let centroid = &c[j * d..(j + 1) * d];
            let mut dist = 0.0;
            for (a, b) in centroid.iter().zip(point) {
                dist += (a - b) * (a - b);
            }
            best = best.min(dist);
        }
        total += best;
    }
    total
}
