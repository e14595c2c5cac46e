use stackgrad::differentiable;

#[derive(Clone, Copy, Debug)]
pub enum Mode {
    A,
    B,
}

// One error each: the name `if let` binds and the enum taken by value report nothing more.
#[differentiable]
fn f(x: f64, s: f64) -> f64 {
    if let y @ 0.0..=1.0 = s { x * y } else { x }
}

#[differentiable]
fn g(x: f64, m: Mode) -> f64 {
    if let Mode::A = m { x } else { x * x }
}

fn main() {}
