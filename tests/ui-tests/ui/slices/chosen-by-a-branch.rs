use stackgrad::differentiable;

#[differentiable(wrt(x))]
fn f(x: &[f64], c: bool) -> f64 {
    let r = if c { &x[..2] } else { &x[2..] };
    r[0] * r[1]
}

fn main() {}
