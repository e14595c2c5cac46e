use stackgrad::differentiable;

fn square(v: &f64) -> f64 {
    v * v
}

#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    x.iter().map(square).sum()
}

fn main() {}
