use stackgrad::differentiable;

#[differentiable(wrt(x), jvp)]
fn scale(x: f64, s: f64) -> f64 {
    s * x
}

// `s` carries a derivative into `scale`, which leaves it out of `wrt(..)`: one error, from the
// reverse sweep; forward mode's call says nothing more.
#[differentiable(jvp)]
fn f(x: f64, s: f64) -> f64 {
    scale(x, s) + s
}

fn main() {}
