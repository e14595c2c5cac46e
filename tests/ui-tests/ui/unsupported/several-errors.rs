use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let a = x.frobnicate();
    let b = vec![x];
    a * x.unknown()
}

fn main() {}
