// `hvp` on an impl block is not supported yet: one error saying what to write instead.
use stackgrad::differentiable;

#[derive(Default)]
pub struct Scale {
    pub a: f64,
}

#[differentiable(hvp)]
impl Scale {
    pub fn loss(&self, x: f64) -> f64 {
        self.a * x * x
    }
}

fn main() {}
