/// A sum over points in a slice, whose number is known at run time only: the iterations share
/// only the accumulator, so the forward sweep records nothing of the loop and the reverse sweep
/// runs each point again into one iteration's tape before sweeping it back.
#[differentiable]
pub fn spread(mu: &[f64; 2], scale: f64, xs: &[[f64; 2]]) -> f64 {
    let s2 = scale * scale;
    let mut total = 0.0;
    for x in xs.iter() {
        let mut sq = 0.0;
        for d in 0..2 {
            let c = x[d] - mu[d];
            sq += c * c;
        }
        total += (1.0 + sq / s2).ln();
    }
    total / xs.len() as f64
}
