use stackgrad::differentiable;

#[differentiable(jacobian, wrt(x))]
fn scaled(x: &[f64], s: f64) -> [f64; 2] {
    let mut t = 0.0;
    for v in x {
        t += v;
    }
    [s * t, t]
}

fn main() {}
