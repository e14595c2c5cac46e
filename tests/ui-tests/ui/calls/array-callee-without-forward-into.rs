use stackgrad::differentiable;

// A hand-written callee with an array output and the four items of a scalar one: a caller whose
// tape keeps its value needs `double_forward_into` as well.
#[differentiable(custom)]
pub fn double(x: &[f64; 2]) -> [f64; 2] {
    [2.0 * x[0], 2.0 * x[1]]
}

#[derive(Clone, Debug, Default)]
pub struct DoubleTape {}
impl DoubleTape {
    pub const fn new() -> Self {
        DoubleTape {}
    }
}

pub fn double_forward(x: &[f64; 2], _tape: &mut DoubleTape) -> [f64; 2] {
    double(x)
}

pub fn double_adjoint(_x: &[f64; 2], _tape: &DoubleTape, d_out: &[f64; 2], d_x: &mut [f64; 2]) {
    d_x[0] += 2.0 * d_out[0];
    d_x[1] += 2.0 * d_out[1];
}

#[differentiable]
fn f(x: &[f64; 2]) -> f64 {
    let y: [f64; 2] = double(x);
    y[0] * y[1]
}

fn main() {}
