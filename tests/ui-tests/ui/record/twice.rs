use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    #[record(f32)]
    #[record(bf16)]
    let h = x.sin();
    h * h
}

fn main() {}
