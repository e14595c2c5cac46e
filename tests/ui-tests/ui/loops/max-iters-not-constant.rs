use stackgrad::differentiable;

#[differentiable]
fn f(x: f64, n: usize) -> f64 {
    let mut y = x;
    #[max_iters(n)]
    while y > 1.0 {
        y *= 0.5;
    }
    y
}

fn main() {}
