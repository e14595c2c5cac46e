use stackgrad::differentiable;

// A state carried from one step to the next of a loop over a run-time length, inside a loop
// whose iterations are independent (they share only `total`): the reverse sweep runs each
// outer iteration again, so the inner loop's steps cannot go into a tape that grows.
#[differentiable]
fn f(xs: &[f64], w: f64, n: usize) -> f64 {
    let mut total = 0.0;
    for _ in 0..n {
        let mut h = 0.0;
        for i in 0..xs.len() {
            h = (w * h + xs[i]).tanh();
        }
        total += h;
    }
    total
}

fn main() {}
