use stackgrad::differentiable;

#[differentiable]
fn f<T>(x: f64) -> f64 {
    x * 2.0
}

fn main() {}
