use stackgrad::differentiable;

#[differentiable]
fn pair(a: f64, b: f64) -> (f64, f64) {
    (a * b, a + b)
}

#[differentiable]
fn f(a: f64, s: f64) -> f64 {
    pair(a, s).1 * a
}

fn main() {}
