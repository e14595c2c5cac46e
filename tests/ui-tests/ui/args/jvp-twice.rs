use stackgrad::differentiable;

#[differentiable(jvp, wrt(x), jvp)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
