use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4], w: f64) -> f64 {
    #[record(f32)]
    let h = w.sin();
    let mut s = 0.0;
    #[checkpoint]
    for i in 0..4 {
        s += x[i] * h;
    }
    s
}

fn main() {}
