/// `f32` with a cast through `f64` and a numerically stable branch.
#[differentiable]
pub fn softplus32(x: f32) -> f32 {
    if x > 20.0 {
        return x;
    }
    let wide = (x as f64).exp().ln_1p();
    wide as f32
}
