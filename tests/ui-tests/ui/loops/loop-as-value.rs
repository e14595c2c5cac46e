use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut y = x;
    let r = #[max_iters(10)]
    loop {
        y = y * 0.5;
        if y < 1.0 {
            break y * 2.0;
        }
    };
    r
}

fn main() {}
