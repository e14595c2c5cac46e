use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4], w: f64) -> f64 {
    #[record(f32)]
    let h = w.sin() + 1.5;
    x[(h as usize) % 4] * h
}

fn main() {}
