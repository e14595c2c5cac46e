use stackgrad::differentiable;

#[differentiable(wrt(n))]
fn f(x: f64, n: i32) -> f64 {
    x.powi(n)
}

fn main() {}
