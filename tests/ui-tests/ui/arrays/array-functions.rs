use stackgrad::differentiable;

// `from_fn` without the array's type (`let y: [f64; 3] = ..` is taken): one error, where
// rustc takes the type from a later use.
#[differentiable]
fn untyped(x: &[f64; 3]) -> f64 {
    let y = core::array::from_fn(|i| x[i] * 2.0);
    let z: [f64; 3] = y;
    z[0]
}

fn main() {}
