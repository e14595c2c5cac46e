/// A triangular product in forward mode: the nest's tangents read `l` and `x`, which it does
/// not write, so `f_jvp` runs it as two nests, the primal's and the tangents'
/// (`tangent/split.rs`); the loop over `d`, whose tangent reads `q`, stays whole.
#[differentiable(jvp)]
pub fn split<const D: usize>(l: &[[f64; D]; D], x: &[f64; D]) -> f64 {
    let mut q = [0.0; D];
    for a in 0..D {
        for b in a + 1..D {
            q[b] += l[a][b] * x[a];
        }
    }
    let mut s = 0.0;
    for d in 0..D {
        s += q[d] * q[d];
    }
    s
}
