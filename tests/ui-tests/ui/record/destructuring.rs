use stackgrad::differentiable;

#[differentiable]
fn f(x: f64, y: f64) -> f64 {
    #[record(f32)]
    let (a, b) = (x.sin(), y * x);
    a * b
}

fn main() {}
