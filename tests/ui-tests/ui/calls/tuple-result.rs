use stackgrad::differentiable;

#[differentiable]
fn stats(a: &[f64; 2]) -> (f64, [f64; 2]) {
    (a[0] + a[1], [a[0] * a[1], a[0] - a[1]])
}

// A tuple bound to one name is read by element (`t.0`), but an element that is an array
// cannot be indexed without the tuple's type: one error, on the `let`, naming `t.1`.
#[differentiable]
fn f(a: &[f64; 2]) -> f64 {
    let t = stats(a);
    t.0 * t.1[0] + t.1[1]
}

fn main() {}
