use stackgrad::differentiable;

// `square` has the reverse-mode companions but no tangent function (no `jvp`).
#[differentiable]
fn square(x: f64) -> f64 {
    x * x
}

#[differentiable(jvp)]
fn f(x: f64) -> f64 {
    square(x) + 1.0
}

fn main() {}
