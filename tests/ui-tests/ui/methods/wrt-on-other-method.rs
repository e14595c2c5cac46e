// `#[wrt(..)]` on a method the macro leaves alone (it takes `&mut self`).
use stackgrad::differentiable;

#[derive(Default)]
pub struct Scale {
    pub a: f64,
}

#[differentiable]
impl Scale {
    #[wrt(self)]
    pub fn grow(&mut self, x: f64) -> f64 {
        self.a *= x;
        self.a
    }
}

fn main() {}
