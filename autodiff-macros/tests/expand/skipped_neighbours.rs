/// Differences of neighbours, `x.iter().zip(x.iter().skip(1))`: one counted loop over the
/// four pairs, each element read at the counter and at the counter plus one.
#[differentiable]
pub fn skipped_neighbours(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(x.iter().skip(1)) {
        s += (b - a) * (b - a);
    }
    s
}
