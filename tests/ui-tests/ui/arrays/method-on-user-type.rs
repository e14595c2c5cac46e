use stackgrad::differentiable;

#[derive(Default)]
pub struct Params {
    pub w: [f64; 3],
}

impl Params {
    pub fn norm(&self) -> f64 {
        self.w[0].abs() + self.w[1].abs() + self.w[2].abs()
    }
}

#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    p.norm() * x
}

fn main() {}
