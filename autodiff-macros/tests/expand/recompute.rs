/// `#[recompute]` on an array that three calls read whole: the reverse sweep computes it again
/// once, into a local declared before the first reversed reader, and the other two reuse it.
#[differentiable]
fn three_readers(x: &[f64; 4], w: &[f64; 4]) -> f64 {
    #[recompute]
    let h: [f64; 4] = doubled(x);
    let a = dot4(&h, w);
    let b = dot4(&h, x);
    let c = dot4(&h, &h);
    a * b + c
}
