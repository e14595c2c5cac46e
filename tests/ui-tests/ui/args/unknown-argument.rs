use stackgrad::differentiable;

#[differentiable(respect(x))]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
