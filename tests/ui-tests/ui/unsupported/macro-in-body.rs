use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    println!("x = {x}");
    x * x
}

fn main() {}
