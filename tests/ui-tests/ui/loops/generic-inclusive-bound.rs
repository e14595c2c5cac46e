use stackgrad::differentiable;

#[differentiable]
fn f<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..=N {
        s += x[i % N];
    }
    s
}

fn main() {}
