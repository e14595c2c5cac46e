// A call to a const-generic function names its constants: the caller's tape holds the callee's,
// whose type needs them.
use stackgrad::differentiable;

#[differentiable]
fn sum_sq<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += x[i] * x[i];
    }
    s
}

#[differentiable]
fn f(x: &[f64; 3]) -> f64 {
    sum_sq(x)
}

fn main() {}
