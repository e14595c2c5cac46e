use stackgrad::differentiable;

// `i * k` makes the loop counter an `i64`, whose range the reverse sweep cannot run backwards.
#[differentiable]
fn f(x: f64, k: i64) -> f64 {
    let mut s = x;
    for i in 0..4 {
        s = s * x * ((i * k) as f64);
    }
    s
}

fn main() {}
