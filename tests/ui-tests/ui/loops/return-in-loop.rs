use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    for i in 0..4 {
        if x[i] > 1.0 {
            return x[i];
        }
    }
    0.0
}

fn main() {}
