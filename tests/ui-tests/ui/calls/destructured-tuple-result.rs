use stackgrad::differentiable;

#[differentiable]
fn stats(a: &[f64; 2]) -> (f64, [f64; 2]) {
    (a[0] + a[1], [a[0] * a[1], a[0] - a[1]])
}

// The second element is an array: indexing it without the tuple's type is one error.
#[differentiable]
fn f(a: &[f64; 2]) -> f64 {
    let (s, v) = stats(a);
    s * v[0] + v[1]
}

fn main() {}
