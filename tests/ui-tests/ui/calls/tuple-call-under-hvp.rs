use stackgrad::differentiable;

#[differentiable(jvp)]
fn pair(a: f64, b: f64) -> (f64, f64) {
    (a * b, a + b)
}

#[differentiable(hvp)]
fn f(a: f64, s: f64) -> f64 {
    let (p, q) = pair(a, s);
    p * q
}

fn main() {}
