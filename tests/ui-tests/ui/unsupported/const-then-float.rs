use stackgrad::differentiable;

const K: f64 = 0.5;

// `v` starts as a constant of a type the function does not show and becomes a float carrying a
// derivative in the loop: `let c = v` cannot be lowered as a constant, nor known to be a float.
#[differentiable]
fn f(x: f64) -> f64 {
    let mut v = K;
    let mut s = 0.0;
    for _ in 0..2 {
        let c = v;
        s += c * x;
        v += x;
    }
    s
}

fn main() {}
