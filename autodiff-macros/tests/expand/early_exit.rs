/// `break` and `iter_mut`: the tape records the trip count and the branch taken.
#[differentiable]
pub fn early_exit(x: &[f64; 6]) -> f64 {
    let mut y = *x;
    for v in y.iter_mut() {
        *v = v.tanh();
    }
    let mut s = 0.0;
    for i in 0..6 {
        if s > 2.0 {
            break;
        }
        s += y[i] * y[i];
    }
    s
}
