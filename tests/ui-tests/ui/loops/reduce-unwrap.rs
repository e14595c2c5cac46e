use stackgrad::differentiable;

// A reduction with no first value gives an `Option`: one error naming it, with a fold to write.
#[differentiable(wrt(x))]
fn largest(x: &[f64]) -> f64 {
    x.iter().copied().reduce(f64::max).unwrap()
}

#[differentiable(wrt(x))]
fn smallest(x: &[f64]) -> f64 {
    *x.iter().min_by(|a, b| a.total_cmp(b)).unwrap()
}

// In a condition too.
#[differentiable(wrt(x))]
fn clipped(x: &[f64]) -> f64 {
    if x.iter().copied().reduce(f64::max).unwrap() > 1.0 { 1.0 } else { x[0] }
}

fn main() {}
