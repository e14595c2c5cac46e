/// Element reads of a `#[recompute]` array: the reverse sweep computes the array again once per
/// reversed scope, into a local the reads index (`y_again[i]`), not once per read.
#[differentiable]
pub fn recompute_elements(x: &[f64; 4], w: f64) -> f64 {
    #[recompute]
    let y = [(w * x[0]).sin(), (w * x[1]).sin(), (w * x[2]).sin(), (w * x[3]).sin()];
    let mut s = 0.0;
    for i in 0..4 {
        s += y[i] * y[i] * w;
    }
    s
}
