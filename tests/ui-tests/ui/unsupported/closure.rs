use stackgrad::differentiable;

// A closure called where it is written (not bound to a name first).
#[differentiable]
fn f(x: f64) -> f64 {
    (|v: f64| v * v)(x)
}

fn main() {}
