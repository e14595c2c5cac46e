use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    #[record(bf16)]
    let n: usize = 3;
    x * n as f64
}

fn main() {}
