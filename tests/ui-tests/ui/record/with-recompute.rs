use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    #[recompute]
    #[record(f32)]
    let h = x.sin();
    h * h
}

fn main() {}
