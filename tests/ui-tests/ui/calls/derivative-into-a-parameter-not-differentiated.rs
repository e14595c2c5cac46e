use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn g(x: &[f64; 2], s: f64) -> f64 {
    s * (x[0] + x[1])
}

// `s` carries a derivative here, and `g` does not differentiate its `s`.
#[differentiable]
fn f(x: &[f64; 2], s: f64) -> f64 {
    g(x, 2.0 * s)
}

fn main() {}
