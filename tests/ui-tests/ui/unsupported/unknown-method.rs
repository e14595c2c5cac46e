use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    x.fract() * x
}

fn main() {}
