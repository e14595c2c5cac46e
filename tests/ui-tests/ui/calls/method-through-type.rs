use stackgrad::differentiable;

#[derive(Default)]
pub struct Model {
    pub w: [f64; 2],
}

#[differentiable]
impl Model {
    pub fn run(&self, x: f64) -> f64 {
        self.w[0] * x + self.w[1]
    }
}

// A free function cannot call the impl's method through the type's path.
#[differentiable]
fn f(m: &Model, x: f64) -> f64 {
    Model::run(m, x) * x
}

fn main() {}
