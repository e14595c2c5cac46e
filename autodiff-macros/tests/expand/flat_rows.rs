// In vector mode, the tangent halves of split nests run their innermost loops over flat rows of
// lanes where each tangent is an array's at `base + j` (the triangle, the backward inclusive
// range); the other four inner loops stay lane by lane (`tangent/flat.rs`).
#[differentiable(jvp, wrt(l, m))]
fn lane_rows(l: &[f64; 10], m: &[[f64; 3]; 2], x: &[f64; 4]) -> [f64; 2] {
    // A triangle: the lanes of `l` from `a * (7 - a) / 2` and of `q` from `a + 1`, one flat
    // loop per `a`.
    let mut q = [0.0; 4];
    for a in 0..4 {
        for b in a + 1..4 {
            // Values the tangent half computes again, the same for every `b`: computed once
            // before the flat loop.
            let c = (0.5 * x[a]).exp();
            let e = c * x[a];
            q[b] += l[a * (7 - a) / 2 + b - a - 1] * e;
        }
    }
    // An inclusive range run backwards; rows at offsets, and of a row of `m`.
    let mut r = [0.0; 5];
    for k in 0..2 {
        for j in (0..=2).rev() {
            r[j + 1] += m[k][j] * x[k] - 0.5 * l[j + 4];
        }
    }
    // Lane by lane: an index of stride 2, a tangent the same in every iteration, two indices
    // of one array, a rule with a branch.
    for k in 0..2 {
        for j in 0..2 {
            r[j] += l[2 * j] * x[k];
        }
        for j in 0..3 {
            r[j + 2] -= q[k] * x[j];
        }
        for j in 0..3 {
            q[j] = q[j] * x[k] + l[j + 1] * l[j];
        }
        for j in 0..3 {
            q[j + 1] += m[k][j].max(x[k]);
        }
    }
    let mut s = 0.0;
    for d in 0..4 {
        s += q[d] * q[d];
    }
    [s + r[0], r[1] * r[2] + r[3] - r[4].sin()]
}
