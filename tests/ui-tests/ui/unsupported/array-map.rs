use stackgrad::differentiable;

// `map` on an array, as a rotation scaled by `t` would be written in plain Rust.
#[differentiable]
fn f(rot: &[f64; 3], t: f64) -> f64 {
    let scaled: [f64; 3] = rot.map(|r| r * t);
    scaled[0] + scaled[1] + scaled[2]
}

fn main() {}
