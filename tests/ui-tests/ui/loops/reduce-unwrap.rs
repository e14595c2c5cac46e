use stackgrad::differentiable;

// A reduction with no first value gives an `Option`: one error naming it, with a fold to write.
#[differentiable(wrt(x))]
fn largest(x: &[f64]) -> f64 {
    x.iter().copied().reduce(f64::max).unwrap()
}

#[differentiable(wrt(x))]
fn largest_by(x: &[f64]) -> f64 {
    *x.iter().max_by(|a, b| a.total_cmp(b)).unwrap()
}

fn main() {}
