use stackgrad::differentiable;

const OFFSETS: [f64; 3] = [0.5, 1.0, 1.5];

#[differentiable(hvp)]
fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

// `OFFSETS`'s type is declared elsewhere: the tangent program cannot make its zero tangent.
#[differentiable(hvp)]
fn f(x: &[f64; 3]) -> f64 {
    dot(x, &OFFSETS)
}

fn main() {}
