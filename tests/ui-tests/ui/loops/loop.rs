use stackgrad::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let mut y = x;
    loop {
        y = y.sqrt();
        if y < 1.5 {
            break;
        }
    }
    y
}

fn main() {}
