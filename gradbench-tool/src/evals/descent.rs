//! The gradient descent `saddle` and `particle` specify (in GradBench's tools): a step `eta`
//! that starts at 1e-5, doubles after 10 accepted steps and halves after a rejected one; it
//! stops when the gradient's norm or the step's length is at most 1e-5. Plain Rust: what is
//! differentiated is the objective, not the descent.

fn norm<const N: usize>(v: &[f64; N]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// The point the descent on `f` from `x` stops at, with `f`'s gradient from `grad`.
pub fn argmin<const N: usize>(
    f: impl Fn(&[f64; N]) -> f64,
    grad: impl Fn(&[f64; N]) -> [f64; N],
    mut x: [f64; N],
) -> [f64; N] {
    let (mut fx, mut gx) = (f(&x), grad(&x));
    let (mut eta, mut accepted) = (1e-5, 0);
    loop {
        if norm(&gx) <= 1e-5 {
            return x;
        }
        if accepted == 10 {
            eta *= 2.0;
            accepted = 0;
            continue;
        }
        let next: [f64; N] = std::array::from_fn(|i| x[i] - eta * gx[i]);
        let step: [f64; N] = std::array::from_fn(|i| x[i] - next[i]);
        if norm(&step) <= 1e-5 {
            return x;
        }
        let f_next = f(&next);
        if f_next < fx {
            (x, fx, gx) = (next, f_next, grad(&next));
            accepted += 1;
        } else {
            eta /= 2.0;
            accepted = 0;
        }
    }
}
