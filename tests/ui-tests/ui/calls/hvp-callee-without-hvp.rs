use stackgrad::differentiable;

// A callee of an `hvp` function needs its own second-order items: declared `jvp` only, it has
// no `square_hvp_jvp`.
#[differentiable(jvp)]
fn square(x: f64) -> f64 {
    x * x
}

#[differentiable(hvp)]
fn f(x: f64) -> f64 {
    square(x).sin()
}

fn main() {}
