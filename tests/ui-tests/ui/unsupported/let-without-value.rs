use stackgrad::differentiable;

// A `let` without a value: one error, and none for the later uses of the name.
#[differentiable]
fn f(x: f64) -> f64 {
    let a: f64;
    if x > 0.0 {
        a = x * 2.0;
    } else {
        a = x;
    }
    a * x
}

fn main() {}
