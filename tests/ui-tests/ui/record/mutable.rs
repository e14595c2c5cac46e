use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f32; 4]) -> f32 {
    #[record(bf16)]
    let mut h: [f32; 4] = [x[0], x[1], x[2], x[3]];
    h[0] *= h[1];
    h[0] * h[1] + h[2] * h[3]
}

fn main() {}
