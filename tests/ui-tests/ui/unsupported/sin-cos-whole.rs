use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let t = x.sin_cos();
    let (s, c) = t;
    s * c + t.0
}

fn main() {}
