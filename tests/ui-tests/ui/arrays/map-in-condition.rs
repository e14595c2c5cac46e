use stackgrad::differentiable;

// `map` right of `&&` (which may not run it): one error that says to bind it before (as a
// `let` of its own, an operand, a branch's value or a condition it is taken).
#[differentiable]
fn f(x: &[f64; 3], c: f64) -> f64 {
    if c > 0.0 && x.map(|v| v * c)[1] > 1.0 { x[0] } else { x[2] }
}

fn main() {}
