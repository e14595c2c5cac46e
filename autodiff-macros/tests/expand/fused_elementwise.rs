/// An array recomputed element by element (`w[i] = 0.75 - p[i]`), read in the loop `f_grad`
/// fuses into its forward sweep: the fused iteration's reverse code reads the forward's own
/// `w`, while `f_adjoint`'s reverse sweep computes `w` again (`w_1`, `from_fn`).
#[differentiable]
pub fn fused_elementwise(p: &[f64; 2], xs: &[f64]) -> f64 {
    let mut w = [0.0; 2];
    for i in 0..2 {
        w[i] = 0.75 - p[i];
    }
    let mut acc = 0.0;
    for v in xs.iter() {
        acc += v / (w[1] * w[1] + 1.0);
    }
    acc * 0.5
}
