/// A triangular product by columns with two inputs per column (`x[a]`, `y[a]`): in the reverse
/// of the inner loop, their cotangents are the same two elements at every iteration, so the
/// sweep adds into locals (`d_x_held`, `d_y_held`) read before the loop and stored after it.
#[differentiable]
pub fn columns<const D: usize>(l: &[[f64; D]; D], x: &[f64; D], y: &[f64; D]) -> f64 {
    let mut q = [0.0; D];
    for a in 0..D {
        for b in a + 1..D {
            q[b] += l[a][b] * x[a] + l[b][a] * y[a];
        }
    }
    let mut s = 0.0;
    for d in 0..D {
        s += q[d] * q[d];
    }
    s
}
