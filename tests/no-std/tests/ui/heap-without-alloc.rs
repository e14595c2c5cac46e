use autodiff_macros::differentiable;

// `heap` puts the tape's loops in `Vec`s: it needs the `alloc` feature.
#[differentiable(heap)]
pub fn f(x: &[f64; 4], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s += (w * x[i]).tanh();
    }
    s
}

fn main() {}
