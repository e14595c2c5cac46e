use stackgrad::differentiable;

pub enum Mode {
    Square,
    Cube,
}

#[differentiable]
fn power(x: f64, mode: &Mode) -> f64 {
    match mode {
        Mode::Square => x * x,
        _ => x * x * x,
    }
}

// `mode` is only passed on: its zero derivative is a copy, which needs `Clone`.
#[differentiable]
fn f(x: f64, mode: &Mode) -> f64 {
    power(x, mode) + x.sin()
}

fn main() {}
