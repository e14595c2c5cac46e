//! ADBench's GMM objective, written as a user would: plain loops over const-size arrays. Shared by
//! `tests/adbench_gmm.rs` and `benches/adbench.rs`, which include it as a module.
//!
//! `D` dimensions, `K` components, `N` points, `Q = D + D (D - 1) / 2` entries of each
//! component's `icf`: its log-diagonal, then its strictly lower triangle column by column. The
//! objective is ADBench's negative log-likelihood with the Wishart prior (`gamma = 1`, `m = 0`),
//! less the prior's constant term (which no gradient sees).

use std::path::Path;

use stackgrad::differentiable;

/// The inputs of one ADBench GMM instance.
pub struct Gmm<const D: usize, const K: usize, const N: usize, const Q: usize> {
    pub alphas: [f64; K],
    pub means: [[f64; D]; K],
    pub icf: [[f64; Q]; K],
    pub x: Box<[[f64; D]; N]>,
}

/// Reads an ADBench GMM file whose sizes are `D`, `K`, `N` (panics on anything else: test
/// and bench inputs are the files shipped in `data/adbench/gmm`).
pub fn load<const D: usize, const K: usize, const N: usize, const Q: usize>(
    path: impl AsRef<Path>,
) -> Gmm<D, K, N, Q> {
    read(path.as_ref(), true)
}

/// The parameters and the first `N` points of a file whose header has `D` and `K`, and `N`
/// points where `all_points`; without it, any number of points, as in ADBench's
/// replicate-point mode (`gmm_2.5M_d2_K5.txt` holds one point, to be repeated `n` times).
pub fn read<const D: usize, const K: usize, const N: usize, const Q: usize>(
    path: &Path,
    all_points: bool,
) -> Gmm<D, K, N, Q> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut words = text.split_whitespace();
    let mut next = || -> f64 {
        words
            .next()
            .unwrap_or_else(|| panic!("{}: too short", path.display()))
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let sizes = [next(), next(), next()];
    assert_eq!(sizes[..2], [D as f64, K as f64], "{}", path.display());
    if all_points {
        assert_eq!(sizes[2], N as f64, "{}", path.display());
    }
    assert_eq!(Q, D + D * (D - 1) / 2);
    let alphas = core::array::from_fn(|_| next());
    let means = core::array::from_fn(|_| core::array::from_fn(|_| next()));
    let icf = core::array::from_fn(|_| core::array::from_fn(|_| next()));
    let mut x = Box::new([[0.0; D]; N]);
    for row in x.iter_mut() {
        for v in row.iter_mut() {
            *v = next();
        }
    }
    Gmm {
        alphas,
        means,
        icf,
        x,
    }
}

#[differentiable(wrt(alphas, means, icf), hvp)]
pub fn gmm_objective<const D: usize, const K: usize, const N: usize, const Q: usize>(
    alphas: &[f64; K],
    means: &[[f64; D]; K],
    icf: &[[f64; Q]; K],
    x: &[[f64; D]; N],
) -> f64 {
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
    for i in 0..N {
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
    let constant = -((N * D) as f64) * 0.5 * (2.0 * core::f64::consts::PI).ln();
    constant + slse - (N as f64) * lse_alphas + prior
}
