use stackgrad::differentiable;

#[derive(Clone, Copy)]
pub struct P {
    pub w: f64,
}

#[differentiable]
fn f(x: f64, p: &P) -> f64 {
    let (a, b): (f64, P) = (x, *p);
    a * b.w
}

fn main() {}
