use stackgrad::differentiable;

#[differentiable]
fn f(theta: f64, m: &[[f64; 2]; 3]) -> f64 {
    let mut k = 0;
    let row = &m[k];
    k += 1;
    row[0] * theta + m[k][1]
}

fn main() {}
