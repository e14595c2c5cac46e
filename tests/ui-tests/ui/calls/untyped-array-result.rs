use stackgrad::differentiable;

#[differentiable]
fn matvec(m: &[[f64; 2]; 2], v: &[f64; 2]) -> [f64; 2] {
    [m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1]]
}

const M: [[f64; 2]; 2] = [[1.0, 2.0], [3.0, 4.0]];

// Bound without a type, the array a call returns is named through the callee's contract by the
// types of the arguments; `M`'s is declared elsewhere, so this one needs its type.
#[differentiable]
fn f(v: &[f64; 2]) -> f64 {
    let y = matvec(&M, v);
    y[0] * y[1]
}

fn main() {}
