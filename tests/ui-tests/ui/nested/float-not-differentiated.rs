use stackgrad::differentiable;

// A caller differentiating `energy`'s gradient passes a derivative for `k` too.
#[differentiable(nested, wrt(x))]
fn energy(x: &[f64; 2], k: f64) -> f64 {
    0.5 * k * (x[0] * x[0] + x[1] * x[1])
}

fn main() {}
