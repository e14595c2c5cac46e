use stackgrad::differentiable;

// A state carried from one step to the next of a loop over a run-time length, inside a loop
// under binomial checkpoints, whose iterations the reverse sweep runs again.
#[differentiable]
fn f(xs: &[f64], w: f64, n: usize) -> f64 {
    let mut g = 0.0;
    #[checkpoint(binomial(3))]
    for _ in 0..n {
        let mut h = g;
        for i in 0..xs.len() {
            h = (w * h + xs[i]).tanh();
        }
        g = h;
    }
    g
}

fn main() {}
