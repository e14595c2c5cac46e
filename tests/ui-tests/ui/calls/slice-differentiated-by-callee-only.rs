use stackgrad::differentiable;

#[differentiable(wrt(x, w), hvp)]
fn g(x: f64, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * x * x;
    }
    s
}

// `g` differentiates the slice `w`, which this function passes as data: a zero derivative
// buffer of its run-time length would need an allocation. One error, naming `g` and `w`, under
// `hvp` too (its forward mode and tangent program say nothing more).
#[differentiable(wrt(x), hvp)]
fn f(x: f64, w: &[f64]) -> f64 {
    g(x, w) * x
}

fn main() {}
