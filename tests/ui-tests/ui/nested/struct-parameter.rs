use stackgrad::differentiable;

#[derive(Clone, Debug, Default)]
pub struct Spring {
    pub k: f64,
}

#[differentiable(nested)]
fn energy(s: &Spring, x: f64) -> f64 {
    0.5 * s.k * x * x
}

fn main() {}
