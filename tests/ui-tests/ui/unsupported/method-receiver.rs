use stackgrad::differentiable;

struct Model;

impl Model {
    #[differentiable]
    fn f(&self, x: f64) -> f64 {
        x * x
    }
}

fn main() {}
