use stackgrad::differentiable;

// Sorting in place is one error that shows the compare-and-swap loop the macro takes.
#[differentiable]
fn f(x: [f64; 4]) -> f64 {
    let mut y = x;
    y.sort_by(|a, b| a.total_cmp(b));
    y[0] + 2.0 * y[3]
}

// Another method called for its effect: one error naming the ones taken.
#[differentiable]
fn g(x: [f64; 4]) -> f64 {
    let mut y = x;
    y.rotate_left(1);
    y[0]
}

fn main() {}
