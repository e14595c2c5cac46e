use stackgrad::differentiable;

// `i > k` makes the counter a `u8`; the reverse sweep would run `0..255 + 1`.
#[differentiable]
fn f(x: f64, k: u8) -> f64 {
    let mut s = x;
    for i in 0..=255 {
        if i > k {
            s *= x;
        }
    }
    s
}

fn main() {}
