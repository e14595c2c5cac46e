// The sweep of the inner loop borrows the rows of `l` and `d_l` it reaches at `col + b - a - 1`
// once per `a`; `x[b]`, at the loop's variable itself, is read in place.
#[differentiable(wrt(l, x))]
fn triangle(l: &[f64], x: &[f64]) -> f64 {
    let d = x.len();
    let mut total = 0.0;
    for a in 0..d {
        let col = a * (2 * d - a - 1) / 2;
        for b in a + 1..d {
            total += l[col + b - a - 1] * x[a] * x[b];
        }
    }
    total
}
