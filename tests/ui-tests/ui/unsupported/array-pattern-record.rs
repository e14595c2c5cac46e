use stackgrad::differentiable;

#[differentiable]
fn f(v: &[f64; 2]) -> f64 {
    #[record(f32)]
    let [a, b] = *v;
    a * b
}

fn main() {}
