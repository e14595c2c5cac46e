/// Two layers of an array-valued callee: the recorded hidden arrays are computed straight into
/// their tape slots, and the callee's adjoint takes each output's cotangent by reference.
#[differentiable]
fn layers(w: &[[f64; 3]; 3], x: &[f64; 3]) -> f64 {
    let mut h: [f64; 3] = squash(x);
    for _ in 0..2 {
        let z: [f64; 3] = affine(w, &h);
        h = squash(&z);
    }
    h[0] * h[1] + h[2]
}
