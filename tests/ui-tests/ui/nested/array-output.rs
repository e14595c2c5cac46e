use stackgrad::differentiable;

// `nested` differentiates a gradient again; a function with an array output has no gradient.
#[differentiable(nested)]
fn spring(x: &[f64; 2]) -> [f64; 2] {
    [-x[0], -x[1]]
}

fn main() {}
