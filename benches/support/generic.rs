//! The functions the forward-mode and second-order benchmarks time (`benches/forward.rs`,
//! `benches/second_order.rs`): the guide's RNN (docs/guide.md) as `#[differentiable(hvp)]` generates it, and
//! micrograd's expression, the RNN and ADBench's GMM objective written generically over
//! `num-dual`'s number types, the way a user of run-time dual numbers writes them.

use num_dual::DualNum;
use stackgrad::differentiable;

#[path = "../../tests/models/gmm.rs"]
pub mod gmm;

/// `max(x, 0)` for dual numbers: the receiver's branch at a tie, as the macro's rule.
pub fn relu<D: DualNum<f64> + Copy>(x: D) -> D {
    if x.re() >= 0.0 { x } else { D::from(0.0) }
}

#[allow(clippy::misrefactored_assign_op)]
pub fn micrograd_dual<D: DualNum<f64> + Copy>(a: D, b: D) -> D {
    let mut c = a + b;
    let mut d = a * b + b.powi(3);
    c += c + 1.0;
    c += -a + c + 1.0;
    d += d * 2.0 + relu(b + a);
    d += d * 3.0 + relu(b - a);
    let e = c - d;
    let f = e.powi(2);
    let mut g = f / 2.0;
    g += D::from(10.0) / f;
    g
}

pub const STEPS: usize = 50;

/// The README's RNN.
#[differentiable(hvp)]
pub fn rnn(x: &[f64; STEPS], w: f64, u: f64) -> f64 {
    let mut h = 0.0;
    for t in 0..STEPS {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

pub fn rnn_dual<D: DualNum<f64> + Copy>(x: &[D; STEPS], w: D, u: D) -> D {
    let mut h = D::from(0.0);
    for t in 0..STEPS {
        h = (w * h + u * x[t]).tanh();
    }
    h
}

/// [`gmm::gmm_objective`] over dual numbers (`x`, the data, stays `f64`).
pub fn gmm_dual<
    D: DualNum<f64> + Copy,
    const DIM: usize,
    const K: usize,
    const N: usize,
    const Q: usize,
>(
    alphas: &[D; K],
    means: &[[D; DIM]; K],
    icf: &[[D; Q]; K],
    x: &[[f64; DIM]; N],
) -> D {
    let max = |a: D, b: D| if a.re() >= b.re() { a } else { b };
    let mut a_max = alphas[0];
    for k in 1..K {
        a_max = max(a_max, alphas[k]);
    }
    let mut a_sum = D::from(0.0);
    for k in 0..K {
        a_sum += (alphas[k] - a_max).exp();
    }
    let lse_alphas = a_sum.ln() + a_max;
    let mut qdiags = [[D::from(0.0); DIM]; K];
    let mut sum_qs = [D::from(0.0); K];
    for k in 0..K {
        for d in 0..DIM {
            qdiags[k][d] = icf[k][d].exp();
            sum_qs[k] += icf[k][d];
        }
    }
    let mut slse = D::from(0.0);
    for i in 0..N {
        let mut main = [D::from(0.0); K];
        for k in 0..K {
            let mut xc = [D::from(0.0); DIM];
            for d in 0..DIM {
                xc[d] = -means[k][d] + x[i][d];
            }
            let mut qx = [D::from(0.0); DIM];
            for d in 0..DIM {
                qx[d] = qdiags[k][d] * xc[d];
            }
            for a in 0..DIM {
                for b in a + 1..DIM {
                    qx[b] += icf[k][DIM + a * (2 * DIM - a - 1) / 2 + (b - a - 1)] * xc[a];
                }
            }
            let mut sq = D::from(0.0);
            for d in 0..DIM {
                sq += qx[d] * qx[d];
            }
            main[k] = alphas[k] + sum_qs[k] - sq * 0.5;
        }
        let mut m = main[0];
        for k in 1..K {
            m = max(m, main[k]);
        }
        let mut s = D::from(0.0);
        for k in 0..K {
            s += (main[k] - m).exp();
        }
        slse += s.ln() + m;
    }
    let mut prior = D::from(0.0);
    for k in 0..K {
        for d in 0..DIM {
            prior += qdiags[k][d] * qdiags[k][d] * 0.5;
        }
        for j in DIM..Q {
            prior += icf[k][j] * icf[k][j] * 0.5;
        }
    }
    let constant = -((N * DIM) as f64) * 0.5 * (2.0 * core::f64::consts::PI).ln();
    slse + constant - lse_alphas * (N as f64) + prior
}
