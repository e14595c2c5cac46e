use stackgrad::differentiable;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scaled {
    pub w: f64,
    pub k: usize,
}

// Under `hvp` the tangent program cannot tell an integer field from a float one: one error on
// the cast, saying to bind the field with its type first (`f_grad` and `f_jvp` take both).
#[differentiable(hvp)]
fn f(p: &Scaled, x: f64) -> f64 {
    p.w * x * (p.k as f64)
}

#[differentiable(hvp)]
fn bound_first(p: &Scaled, x: f64) -> f64 {
    let k: usize = p.k;
    p.w * x * (k as f64)
}

fn main() {}
