use stackgrad::differentiable;

static SCALE: f64 = 2.0;

#[differentiable]
fn f(x: f64) -> f64 {
    x * SCALE
}

fn main() {}
