//! ADBench's GMM objective with the points in a slice, their number known at run time only:
//! the same code as `tests/models/gmm.rs` but for `x: &[[f64; D]]` and `n = x.len()`. The loop
//! over the points shares only the accumulator `slse` between iterations, so the tape holds one
//! point's values whatever `n` is. Shared by `tests/runtime_sizes.rs` and `benches/adbench.rs`.

use stackgrad::differentiable;

#[differentiable(wrt(alphas, means, icf))]
pub fn gmm_points<const D: usize, const K: usize, const Q: usize>(
    alphas: &[f64; K],
    means: &[[f64; D]; K],
    icf: &[[f64; Q]; K],
    x: &[[f64; D]],
) -> f64 {
    let n = x.len();
    let mut a_max = alphas[0];
    for k in 1..K {
        a_max = a_max.max(alphas[k]);
    }
    let mut a_sum = 0.0;
    for k in 0..K {
        a_sum += (alphas[k] - a_max).exp();
    }
    let lse_alphas = a_sum.ln() + a_max;
    // ADBench's preprocessing: the diagonals of Q and the sums of their logs, per component.
    let mut qdiags = [[0.0; D]; K];
    let mut sum_qs = [0.0; K];
    for k in 0..K {
        for d in 0..D {
            qdiags[k][d] = icf[k][d].exp();
            sum_qs[k] += icf[k][d];
        }
    }
    let mut slse = 0.0;
    for i in 0..n {
        let mut main = [0.0; K];
        for k in 0..K {
            let mut xc = [0.0; D];
            for d in 0..D {
                xc[d] = x[i][d] - means[k][d];
            }
            // Q (x - mu), Q = diag(qdiags) + L with L's column a below the diagonal.
            let mut qx = [0.0; D];
            for d in 0..D {
                qx[d] = qdiags[k][d] * xc[d];
            }
            for a in 0..D {
                for b in a + 1..D {
                    qx[b] += icf[k][D + a * (2 * D - a - 1) / 2 + (b - a - 1)] * xc[a];
                }
            }
            let mut sq = 0.0;
            for d in 0..D {
                sq += qx[d] * qx[d];
            }
            main[k] = alphas[k] + sum_qs[k] - 0.5 * sq;
        }
        let mut m = main[0];
        for k in 1..K {
            m = m.max(main[k]);
        }
        let mut s = 0.0;
        for k in 0..K {
            s += (main[k] - m).exp();
        }
        slse += s.ln() + m;
    }
    let mut prior = 0.0;
    for k in 0..K {
        for d in 0..D {
            prior += 0.5 * qdiags[k][d] * qdiags[k][d];
        }
        for j in D..Q {
            prior += 0.5 * icf[k][j] * icf[k][j];
        }
    }
    let constant = -((n * D) as f64) * 0.5 * (2.0 * core::f64::consts::PI).ln();
    constant + slse - (n as f64) * lse_alphas + prior
}
