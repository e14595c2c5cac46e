use stackgrad::differentiable;

#[differentiable]
fn f(x: &[f64; 5]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2).skip(1) {
        s += w[1] - w[0];
    }
    s
}

fn main() {}
