use stackgrad::differentiable;

#[differentiable]
fn f(x: f64, o: bool) -> f64 {
    if let true = o { x } else { -x }
}

fn main() {}
