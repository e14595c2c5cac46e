use stackgrad::differentiable;

// The determinant by minors, calling itself on a smaller matrix.
#[differentiable]
fn det(m: &[[f64; 3]; 3], n: usize) -> f64 {
    if n == 1 {
        m[0][0]
    } else {
        let mut s = 0.0;
        for j in 0..3 {
            s += m[0][j] * det(m, n - 1);
        }
        s
    }
}

fn main() {}
