use stackgrad::differentiable;

#[differentiable]
fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += a[i] * b[i];
    }
    s
}

const W: [f64; 3] = [1.0, 2.0, 3.0];

// `W`'s type is declared elsewhere: the macro cannot pass it to `dot`'s contract, so `N` is not
// inferred.
#[differentiable]
fn f(x: &[f64; 3]) -> f64 {
    dot(&W, x)
}

fn main() {}
