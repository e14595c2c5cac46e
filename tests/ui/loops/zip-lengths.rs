use stackgrad::differentiable;

// `zip` stops at the shorter array; with a generic length the macro cannot tell which.
#[differentiable]
fn f<const N: usize>(a: &[f64; N], b: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b.iter()) {
        s += x * y;
    }
    s
}

fn main() {}
