/// `#[record(bf16)]` on an array read whole by a callee's adjoint (widened into a local before
/// the call) and element by element; `#[record(f32)]` on an f64 scalar.
#[differentiable]
fn recorded(x: &[f32; 8], w: &[f32; 8], y: f64) -> f64 {
    #[record(bf16)]
    let h: [f32; 8] = scale(x, w[0]);
    let a = dot(&h, w);
    #[record(f32)]
    let g = y.sin();
    (a * h[3]) as f64 * g
}
