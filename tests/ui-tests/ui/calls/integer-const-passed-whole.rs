// A `const` item (or a struct field) passed whole to a callee is taken for a float or an array:
// an integer one fails to compile, with a note saying to bind it with its type first.
use stackgrad::differentiable;

const STEPS: usize = 3;

#[differentiable(jvp)]
fn repeat(x: f64, n: usize) -> f64 {
    x * (n as f64)
}

#[differentiable(jvp)]
fn f(x: f64) -> f64 {
    repeat(x, STEPS)
}

fn main() {}
