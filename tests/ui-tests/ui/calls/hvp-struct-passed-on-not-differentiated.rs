use stackgrad::differentiable;

#[derive(Default)]
pub struct Lin {
    pub a: f64,
}

#[differentiable(wrt(x), hvp)]
fn lin_x(x: f64, p: &Lin) -> f64 {
    p.a * x * x
}

// `p` is only passed on, to a callee that does not differentiate it: leave it out of `wrt(..)`.
// Under `hvp` too, one error: the tangent program says nothing more.
#[differentiable(hvp)]
fn f(x: f64, p: &Lin) -> f64 {
    lin_x(x, p) + x
}

fn main() {}
