use stackgrad::differentiable;

#[derive(Clone, Debug, Default)]
pub struct Spring {
    pub k: f64,
}

#[differentiable(nested)]
impl Spring {
    pub fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
