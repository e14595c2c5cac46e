use stackgrad::differentiable;

#[derive(Default)]
pub struct Params {
    pub w: [f64; 3],
}

#[differentiable]
fn f(p: Params, x: f64) -> f64 {
    p.w[0] * x
}

fn main() {}
