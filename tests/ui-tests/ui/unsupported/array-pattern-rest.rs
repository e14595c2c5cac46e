use stackgrad::differentiable;

#[differentiable]
fn f(v: &[f64; 3]) -> f64 {
    let [a, ..] = *v;
    a * a
}

fn main() {}
