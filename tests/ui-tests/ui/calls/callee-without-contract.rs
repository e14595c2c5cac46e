use stackgrad::differentiable;

// A hand-written callee with the four items but no contract, called on an array without its
// constants named: the caller names its tape through `HalfCall`, which is missing.
pub fn half(x: &[f64; 2]) -> f64 {
    0.5 * (x[0] + x[1])
}

#[derive(Clone, Debug, Default)]
pub struct HalfTape {}
impl HalfTape {
    pub const fn new() -> Self {
        HalfTape {}
    }
}

pub fn half_forward(x: &[f64; 2], _tape: &mut HalfTape) -> f64 {
    half(x)
}

pub fn half_adjoint(_x: &[f64; 2], _tape: &HalfTape, d_out: f64, d_x: &mut [f64; 2]) {
    d_x[0] += 0.5 * d_out;
    d_x[1] += 0.5 * d_out;
}

#[differentiable]
fn f(x: &[f64; 2]) -> f64 {
    half(x) * x[0]
}

fn main() {}
