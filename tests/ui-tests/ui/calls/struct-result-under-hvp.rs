use stackgrad::differentiable;

#[derive(Clone, Copy, Default)]
pub struct Split {
    pub head: f64,
    pub tail: [f64; 2],
}

#[differentiable(custom)]
pub fn split(x: &[f64; 3]) -> Split {
    Split { head: x[0], tail: [x[1], x[2]] }
}

#[derive(Default)]
pub struct SplitTape {}

impl SplitTape {
    pub const fn new() -> Self {
        SplitTape {}
    }
}

pub fn split_forward(x: &[f64; 3], _: &mut SplitTape) -> Split {
    split(x)
}

pub fn split_adjoint(_: &[f64; 3], _: &SplitTape, d: &Split, d_x: &mut [f64; 3]) {
    d_x[0] += d.head;
    d_x[1] += d.tail[0];
    d_x[2] += d.tail[1];
}

// A struct result in a function with `hvp`: the callee has no `hvp` of its own.
#[differentiable(hvp)]
fn f(x: &[f64; 3]) -> f64 {
    let s = split(x);
    s.head * x[1]
}

fn main() {}
