use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let sq = |v: f64| v * v;
    sq(x)
}

fn main() {}
