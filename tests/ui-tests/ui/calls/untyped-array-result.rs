use stackgrad::differentiable;

#[differentiable]
fn matvec(m: &[[f64; 2]; 2], v: &[f64; 2]) -> [f64; 2] {
    [m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1]]
}

#[differentiable]
fn f(m: &[[f64; 2]; 2], v: &[f64; 2]) -> f64 {
    let y = matvec(m, v);
    y[0] * y[1]
}

fn main() {}
