// Only inherent impl blocks: a trait's methods have a fixed signature, with no room for the
// generated ones.
use stackgrad::differentiable;

pub trait Model {
    fn loss(&self, x: f64) -> f64;
}

#[derive(Default)]
pub struct Scale {
    pub a: f64,
}

#[differentiable]
impl Model for Scale {
    fn loss(&self, x: f64) -> f64 {
        self.a * x
    }
}

fn main() {}
