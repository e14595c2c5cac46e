//! `gmm`: the log-likelihood of a Gaussian mixture with a Wishart prior (ADBench's objective),
//! its dimension `d`, number of components `k` and number of points `n` all read from the
//! input. Every array is a flat slice (`mu[c * d + j]`, `x[i * d + j]`, `l[c * d (d - 1) / 2 +
//! ..]`, the lower triangle of each `Q_c` by columns, as the eval lays it out), and every loop
//! runs over a run-time length.
//!
//! Each point's `Q_c (x_i - mu_c)` is computed as the reference computes it, the diagonal and
//! then the strictly lower triangle column by column (`qx[b] += l[..] * xc_a`, the entries of `l`
//! in their order), into a local array of 8, 16, 32, 64 or 128 floats by `d` (`gmm::<CAP>`,
//! chosen by [`objective`] and [`gradient`]; a `d` above 128 is an error). Row by row, with the
//! entries' column-major positions computed for each, its gradient took 2.6x longer at d = 64
//! on uniform inputs, 1.56x on the eval's draw (BENCHMARKS).
//!
//! The log-sum-exp over the components subtracts their maximum, as the eval's other tools do,
//! as a running log-sum-exp: one pass over the components per point, the largest term so far
//! and the sum of the exponentials below it carried from one component to the next (a
//! sequential loop inside the loop of independent iterations over the points).

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

/// The most dimensions the objective takes (GradBench's default sizes go to 64, its `-d` option
/// and ADBench to 128): the largest capacity of each point's `Q_c (x_i - mu_c)`, a local array.
/// A larger `d` is a typed error.
pub const MAX_D: usize = 128;

/// The objective without its constant part (`constant`: the Gaussians' normalization and the
/// prior's, which depend on `n`, `d`, `k`, `m` and `gamma` only).
#[allow(clippy::too_many_arguments)] // the eval's inputs, as slices
#[allow(clippy::needless_range_loop)] // `qx`'s first `d` floats by index: no `take` in the language
#[differentiable(wrt(alpha, mu, q, l))]
pub fn gmm<const CAP: usize>(
    alpha: &[f64],
    mu: &[f64],
    q: &[f64],
    l: &[f64],
    x: &[f64],
    d: usize,
    m: f64,
    gamma: f64,
    constant: f64,
) -> f64 {
    let k = alpha.len();
    let n = x.len() / d;
    let l_sz = d * (d - 1) / 2;
    let mut a_max = f64::NEG_INFINITY;
    for a in alpha.iter() {
        a_max = a_max.max(*a);
    }
    let mut a_sum = 0.0;
    for a in alpha.iter() {
        a_sum += (a - a_max).exp();
    }
    let lse_alpha = a_sum.ln() + a_max;
    let mut slse = 0.0;
    for i in 0..n {
        // Each component's term: alpha_c + Σ_j q_cj - |Q_c (x_i - mu_c)|² / 2, into a running
        // log-sum-exp (the largest term so far and the sum of exp(term - largest)): one pass
        // over the components, a sequential loop whose steps go into the point loop's step tape.
        let mut top = f64::NEG_INFINITY;
        let mut s = 0.0;
        for c in 0..k {
            let mut sum_q = 0.0;
            for j in 0..d {
                sum_q += q[c * d + j];
            }
            // Q_c (x_i - mu_c), as the reference computes it: the diagonal, then the strictly
            // lower triangle column by column (its entries in their order in `l`).
            let mut qx = [0.0; CAP];
            for r in 0..d {
                qx[r] = q[c * d + r].exp() * (x[i * d + r] - mu[c * d + r]);
            }
            for a in 0..d {
                let xa = x[i * d + a] - mu[c * d + a];
                let col = c * l_sz + a * (2 * d - a - 1) / 2;
                for b in a + 1..d {
                    qx[b] += l[col + b - a - 1] * xa;
                }
            }
            let mut sq = 0.0;
            for r in 0..d {
                sq += qx[r] * qx[r];
            }
            let v = alpha[c] + sum_q - 0.5 * sq;
            if v > top {
                s = s * (top - v).exp() + 1.0;
                top = v;
            } else {
                s += (v - top).exp();
            }
        }
        slse += s.ln() + top;
    }
    // The Wishart prior: -Σ_c (γ² |Q_c|_F² / 2 - m Σ_j q_cj).
    let mut frobenius = 0.0;
    let mut sum_all_q = 0.0;
    for v in q.iter() {
        let e = v.exp();
        frobenius += e * e;
        sum_all_q += v;
    }
    for v in l.iter() {
        frobenius += v * v;
    }
    let prior = m * sum_all_q - 0.5 * gamma * gamma * frobenius;
    constant + slse - (n as f64) * lse_alpha + prior
}

/// `$f::<CAP>($args)` at the capacity `CAP` of `d`: 8, 16, 32, 64 or 128 floats for each
/// point's `Q_c (x_i - mu_c)`, of which the first `d` are used. Panics for `d` 0 or above
/// [`MAX_D`].
macro_rules! at_capacity {
    ($d:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $d {
            1..=8 => $f::<8>($($arg),*),
            9..=16 => $f::<16>($($arg),*),
            17..=32 => $f::<32>($($arg),*),
            33..=64 => $f::<64>($($arg),*),
            65..=MAX_D => $f::<MAX_D>($($arg),*),
            d => panic!("gmm: d = {d} is not in 1..={MAX_D}"),
        }
    };
}

/// `gmm` at the capacity of `d` (8, 16, 32, 64 or 128: each point's `Q_c (x_i - mu_c)` is an
/// array of that many floats, of which the first `d` are used).
///
/// # Panics
///
/// If `d` is 0 or exceeds [`MAX_D`] (the eval's input is checked first).
#[allow(clippy::too_many_arguments)] // gmm's
pub fn objective(
    alpha: &[f64],
    mu: &[f64],
    q: &[f64],
    l: &[f64],
    x: &[f64],
    d: usize,
    m: f64,
    gamma: f64,
    constant: f64,
) -> f64 {
    at_capacity!(d, gmm(alpha, mu, q, l, x, d, m, gamma, constant))
}

/// `gmm_grad` at the capacity of `d` ([`objective`]): the value, and the gradient into `g`
/// (alpha's, mu's, q's and l's, each of its parameter's length).
///
/// # Panics
///
/// If `d` is 0 or exceeds [`MAX_D`], or a buffer's length is not its parameter's.
pub fn gradient(
    alpha: &[f64],
    mu: &[f64],
    q: &[f64],
    l: &[f64],
    x: &[f64],
    (d, m, gamma, constant): (usize, f64, f64, f64),
    g: &mut [Vec<f64>; 4],
) -> f64 {
    let [ga, gm, gq, gl] = g;
    let (value, ..) = at_capacity!(
        d,
        gmm_grad(alpha, mu, q, l, x, d, m, gamma, constant, ga, gm, gq, gl)
    );
    value
}

/// `ln Γ_d(a)`, the multivariate gamma function's logarithm.
fn ln_multigamma(a: f64, d: usize) -> f64 {
    let pi = std::f64::consts::PI;
    0.25 * (d * (d - 1)) as f64 * pi.ln()
        + (1..=d)
            .map(|j| libm::lgamma(a + 0.5 * (1.0 - j as f64)))
            .sum::<f64>()
}

/// The objective's constant part: `-n d ln(2π) / 2` and the prior's normalization, `k C`.
fn constant(n: usize, d: usize, k: usize, m: f64, gamma: f64) -> f64 {
    let big_n = d as f64 + m + 1.0;
    let c = big_n * d as f64 * (gamma.ln() - 0.5 * 2f64.ln()) - ln_multigamma(0.5 * big_n, d);
    -((n * d) as f64) * 0.5 * (2.0 * std::f64::consts::PI).ln() + k as f64 * c
}

/// The eval's input, flattened.
struct Input {
    alpha: Vec<f64>,
    mu: Vec<f64>,
    q: Vec<f64>,
    l: Vec<f64>,
    x: Vec<f64>,
    d: usize,
    m: f64,
    gamma: f64,
    constant: f64,
}

fn input(v: &Value) -> Result<Input, String> {
    use crate::protocol::{count, floats, rows};
    let (d, k, n) = (count(v, "d")?, count(v, "k")?, count(v, "n")?);
    if d == 0 || k == 0 || d > MAX_D {
        return Err(format!(
            "a mixture of d = {d} dimensions and k = {k} components: this tool takes 1 to {MAX_D} dimensions and at least one component"
        ));
    }
    let alpha = floats(v, "alpha")?;
    let (mu, d_mu) = rows(v, "mu")?;
    let (q, d_q) = rows(v, "q")?;
    let (l, l_sz) = rows(v, "l")?;
    let (x, d_x) = rows(v, "x")?;
    let m = v
        .get("m")
        .and_then(Value::as_f64)
        .ok_or("the input has no number `m`")?;
    let gamma =
        (v.get("gamma").and_then(Value::as_f64)).ok_or("the input has no number `gamma`")?;
    let shapes = [
        (alpha.len(), k, "alpha"),
        (mu.len(), k * d, "mu"),
        (q.len(), k * d, "q"),
        (l.len(), k * (d * (d - 1) / 2), "l"),
        (x.len(), n * d, "x"),
    ];
    for (got, want, name) in shapes {
        if got != want {
            return Err(format!(
                "`{name}` holds {got} numbers, not {want} (d = {d}, k = {k}, n = {n})"
            ));
        }
    }
    if d == 0
        || k == 0
        || [d_mu, d_q, d_x].iter().any(|&r| r != d)
        || (d > 1 && l_sz != d * (d - 1) / 2)
    {
        return Err(format!(
            "rows of `mu`, `q`, `x` must hold d = {d} numbers, of `l` d (d - 1) / 2"
        ));
    }
    let constant = constant(n, d, k, m, gamma);
    Ok(Input {
        alpha,
        mu,
        q,
        l,
        x,
        d,
        m,
        gamma,
        constant,
    })
}

pub fn evaluate(function: &str, input_value: &Value) -> Result<(Value, Vec<Duration>), String> {
    let p = input(input_value)?;
    let runs = crate::protocol::Runs::of(input_value);
    let args = (&p.alpha, &p.mu, &p.q, &p.l, &p.x);
    match function {
        "objective" => {
            let (y, times) = runs.time(|| {
                objective(
                    args.0, args.1, args.2, args.3, args.4, p.d, p.m, p.gamma, p.constant,
                )
            });
            Ok((json!(y), times))
        }
        "jacobian" => {
            let mut g = [p.alpha.len(), p.mu.len(), p.q.len(), p.l.len()].map(|len| vec![0.0; len]);
            let scalars = (p.d, p.m, p.gamma, p.constant);
            let (_, times) =
                runs.time(|| gradient(args.0, args.1, args.2, args.3, args.4, scalars, &mut g));
            let [ga, gm, gq, gl] = &g;
            let by_rows = |v: &[f64], w: usize| -> Vec<Vec<f64>> {
                if w == 0 {
                    vec![Vec::new(); p.alpha.len()]
                } else {
                    v.chunks(w).map(<[f64]>::to_vec).collect()
                }
            };
            let l_sz = p.d * (p.d - 1) / 2;
            Ok((
                json!({"alpha": ga, "mu": by_rows(gm, p.d), "q": by_rows(gq, p.d), "l": by_rows(gl, l_sz)}),
                times,
            ))
        }
        _ => Err(super::unknown("gmm", function)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The objective the plain way (each point's terms into a `Vec`, one log-sum-exp), with the
    /// constant part too: the reference for [`gmm`] and, by central differences, its gradient.
    fn reference(p: &Input, alpha: &[f64], mu: &[f64], q: &[f64], l: &[f64]) -> f64 {
        let (d, k) = (p.d, alpha.len());
        let n = p.x.len() / d;
        let l_sz = d * (d - 1) / 2;
        let lse = |v: &[f64]| {
            let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
        };
        let mut slse = 0.0;
        for i in 0..n {
            let terms: Vec<f64> = (0..k)
                .map(|c| {
                    let xc: Vec<f64> = (0..d).map(|j| p.x[i * d + j] - mu[c * d + j]).collect();
                    // Q x: the diagonal, then the lower triangle column by column.
                    let mut qx: Vec<f64> = (0..d).map(|j| q[c * d + j].exp() * xc[j]).collect();
                    let mut at = c * l_sz;
                    for (col, &xcol) in xc.iter().enumerate() {
                        for v in &mut qx[col + 1..] {
                            *v += l[at] * xcol;
                            at += 1;
                        }
                    }
                    let sum_q: f64 = q[c * d..(c + 1) * d].iter().sum();
                    alpha[c] + sum_q - 0.5 * qx.iter().map(|v| v * v).sum::<f64>()
                })
                .collect();
            slse += lse(&terms);
        }
        let frobenius: f64 =
            q.iter().map(|v| v.exp().powi(2)).sum::<f64>() + l.iter().map(|v| v * v).sum::<f64>();
        let prior = p.m * q.iter().sum::<f64>() - 0.5 * p.gamma * p.gamma * frobenius;
        p.constant + slse - n as f64 * lse(alpha) + prior
    }

    fn sample(d: usize, k: usize, n: usize) -> Input {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |scale: f64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            scale * ((state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0)
        };
        let mut v = |len: usize, scale: f64| (0..len).map(|_| next(scale)).collect::<Vec<f64>>();
        let (alpha, mu, q, l, x) = (
            v(k, 1.0),
            v(k * d, 1.0),
            v(k * d, 0.5),
            v(k * d * (d - 1) / 2, 0.5),
            v(n * d, 1.5),
        );
        let (m, gamma) = (2.0, 1.3);
        Input {
            alpha,
            mu,
            q,
            l,
            x,
            d,
            m,
            gamma,
            constant: constant(n, d, k, m, gamma),
        }
    }

    #[test]
    fn the_objective_and_its_gradient_against_a_plain_reference() {
        // d = 9, 17 and 33: the capacities of 16, 32 and 64 floats beside the 8 of the others.
        for (d, k, n) in [
            (1, 1, 3),
            (2, 3, 5),
            (4, 3, 7),
            (5, 2, 4),
            (9, 2, 3),
            (17, 1, 2),
            (33, 1, 1),
        ] {
            let p = sample(d, k, n);
            let value = objective(
                &p.alpha, &p.mu, &p.q, &p.l, &p.x, p.d, p.m, p.gamma, p.constant,
            );
            let want = reference(&p, &p.alpha, &p.mu, &p.q, &p.l);
            assert!(
                (value - want).abs() < 1e-10 * want.abs().max(1.0),
                "{d} {k} {n}: {value} {want}"
            );
            let mut g = [p.alpha.len(), p.mu.len(), p.q.len(), p.l.len()].map(|len| vec![0.0; len]);
            let scalars = (p.d, p.m, p.gamma, p.constant);
            let value_g = gradient(&p.alpha, &p.mu, &p.q, &p.l, &p.x, scalars, &mut g);
            assert!((value_g - value).abs() <= 1e-12 * value.abs().max(1.0));
            let h = 1e-6;
            for (which, grad) in g.iter().enumerate() {
                for j in 0..grad.len() {
                    let at = |delta: f64| {
                        let mut a = [p.alpha.clone(), p.mu.clone(), p.q.clone(), p.l.clone()];
                        a[which][j] += delta;
                        reference(&p, &a[0], &a[1], &a[2], &a[3])
                    };
                    let fd = (at(h) - at(-h)) / (2.0 * h);
                    assert!(
                        (grad[j] - fd).abs() < 1e-6 * (1.0 + fd.abs()),
                        "{d} {k} {n}: array {which}, {j}: {} against {fd}",
                        grad[j]
                    );
                }
            }
        }
    }

    /// The constant: for d = 1, m = 0, γ = 1 the prior's normalization is
    /// k (2 (ln 1 - ln 2 / 2) - ln Γ(1)) = -k ln 2.
    #[test]
    fn the_constant_against_a_closed_form() {
        let c = constant(3, 1, 2, 0.0, 1.0);
        let want = -3.0 * 0.5 * (2.0 * std::f64::consts::PI).ln() - 2.0 * 2f64.ln();
        assert!((c - want).abs() < 1e-14, "{c} {want}");
    }
}
