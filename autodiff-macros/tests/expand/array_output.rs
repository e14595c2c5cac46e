/// A function with an array output gets `mlp_forward_into`, the forward sweep writing its value
/// into `out`: its last call writes there itself (`affine_forward_into(.., out)`) instead of
/// returning the value to be copied.
#[differentiable]
fn mlp(w: &[[f64; 2]; 2], x: &[f64; 2]) -> [f64; 2] {
    let h: [f64; 2] = affine(w, x);
    let s: [f64; 2] = [h[0].tanh(), h[1].tanh()];
    affine(w, &s)
}
