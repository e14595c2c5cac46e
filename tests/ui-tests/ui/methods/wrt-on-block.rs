// `wrt` goes on each method, not on the block.
use stackgrad::differentiable;

#[derive(Default)]
pub struct Scale {
    pub a: f64,
}

#[differentiable(wrt(x))]
impl Scale {
    pub fn loss(&self, x: f64) -> f64 {
        self.a * x
    }
}

fn main() {}
