use stackgrad::differentiable;

#[derive(Clone, Copy, Debug)]
pub enum Mode {
    A,
    B,
}

type Real = f64;

#[differentiable]
fn g(x: f64, m: Mode) -> f64 {
    match m {
        Mode::A => x * x,
        Mode::B => x,
    }
}

#[differentiable]
fn h(x: f64) -> f64 {
    x * x
}

// Passed on only: the macro cannot tell an enum from an alias of a float (`Real`), whose
// derivative it must not drop. One error each.
#[differentiable]
fn f(x: f64, m: Mode) -> f64 {
    g(x, m)
}

#[differentiable]
fn k(x: Real, y: f64) -> f64 {
    h(x) * y
}

fn main() {}
