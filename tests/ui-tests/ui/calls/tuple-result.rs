use stackgrad::differentiable;

#[differentiable]
fn pair(a: f64, b: f64) -> (f64, f64) {
    (a * b, a + b)
}

// Read twice: still one error, on the `let`.
#[differentiable]
fn f(a: f64, s: f64) -> f64 {
    let t = pair(a, s);
    t.0 * t.1
}

fn main() {}
