use stackgrad::differentiable;

#[differentiable]
fn f(x: f32) -> f32 {
    #[record(f32)]
    let h = x.sin();
    h * h
}

fn main() {}
