use stackgrad::differentiable;

// A tuple of one element: one error that says to return the element (the generated code
// returned the element where the tuple was due).
#[differentiable]
fn f(x: f64) -> (f64,) {
    (x * x,)
}

fn main() {}
