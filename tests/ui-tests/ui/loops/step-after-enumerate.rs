use stackgrad::differentiable;

// `.step_by(..)` after `.enumerate()` (`.skip(k)` and `.take(n)` are taken there, moved
// before it): one error that says where it goes.
#[differentiable]
fn f(x: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate().step_by(2) {
        s += (i as f64) * v;
    }
    s
}

fn main() {}
