//! `lstm`: ADBench's LSTM loss (GradBench's eval, its C++ reference `lstm.hpp`): `l` layers of
//! `b` cells over a sequence of `c` characters of `b` bits, all read at run time. The parameters
//! and data are flat row-major slices (`main_params`: `2l` rows of `4b`, a layer's weights then
//! its biases, each forget, ingate, outgate, change; `extra_params`: in-weight, out-weight,
//! out-bias; `state`: each layer's hidden then cell; `sequence`: `c` rows of `b`). The evolving
//! state lives in local arrays of fixed capacity, [`MAX_LAYERS`] x [`MAX_BITS`], of which the
//! first `l` x `b` are used: the macro has no local arrays of run-time length yet. The loop over
//! the characters carries the state, so its iterations are recorded into the tape's `Vec`s.
//!
//! As ADBench and GradBench's reference have it: `forget` and `outgate` see the layer's input,
//! `ingate` and `change` the layer's hidden state from the step before, and the log-sum-exp adds
//! 2 inside the logarithm.

use std::time::Duration;

use serde_json::{Value, json};
use stackgrad::differentiable;

/// The most layers the local state holds.
pub const MAX_LAYERS: usize = 8;
/// The most bits per character (cells per layer) the local state holds.
pub const MAX_BITS: usize = 32;

/// The loss: `-Σ_t Σ_i sequence[t + 1][i] (ypred_t[i] - lse(ypred_t))` over `(c - 1) b`.
#[differentiable(wrt(main, extra))]
pub fn objective(
    main: &[f64],
    extra: &[f64],
    state: &[f64],
    sequence: &[f64],
    l: usize,
    b: usize,
) -> f64 {
    let mut hidden = [[0.0; MAX_BITS]; MAX_LAYERS];
    let mut cell = [[0.0; MAX_BITS]; MAX_LAYERS];
    for layer in 0..l {
        for i in 0..b {
            hidden[layer][i] = state[2 * layer * b + i];
            cell[layer][i] = state[(2 * layer + 1) * b + i];
        }
    }
    let c = sequence.len() / b;
    let mut total = 0.0;
    for t in 0..c - 1 {
        let mut x = [0.0; MAX_BITS];
        for i in 0..b {
            x[i] = sequence[t * b + i] * extra[i];
        }
        for layer in 0..l {
            // The layer's weights, then its biases: forget, ingate, outgate, change.
            let w: usize = 8 * b * layer;
            let bias: usize = w + 4 * b;
            for i in 0..b {
                let h = hidden[layer][i];
                let forget = x[i] * main[w + i] + main[bias + i];
                let ingate = h * main[w + b + i] + main[bias + b + i];
                let outgate = x[i] * main[w + 2 * b + i] + main[bias + 2 * b + i];
                let change = h * main[w + 3 * b + i] + main[bias + 3 * b + i];
                let forget = 1.0 / (1.0 + (-forget).exp());
                let ingate = 1.0 / (1.0 + (-ingate).exp());
                let outgate = 1.0 / (1.0 + (-outgate).exp());
                let change = change.tanh();
                cell[layer][i] = cell[layer][i] * forget + ingate * change;
                hidden[layer][i] = outgate * cell[layer][i].tanh();
            }
            x = hidden[layer];
        }
        let mut ypred = [0.0; MAX_BITS];
        let mut sum = 0.0;
        for i in 0..b {
            ypred[i] = x[i] * extra[b + i] + extra[2 * b + i];
            sum += ypred[i].exp();
        }
        let lse = (sum + 2.0).ln();
        for i in 0..b {
            total += sequence[(t + 1) * b + i] * (ypred[i] - lse);
        }
    }
    -total / (((c - 1) * b) as f64)
}

/// The eval's input, flattened, with its sizes checked.
#[derive(Debug)]
pub struct Problem {
    pub main: Vec<f64>,
    pub extra: Vec<f64>,
    pub state: Vec<f64>,
    pub sequence: Vec<f64>,
    pub l: usize,
    pub b: usize,
}

impl Problem {
    pub fn read(input: &Value) -> Result<Problem, String> {
        use crate::protocol::rows;
        let (main, w) = rows(input, "main_params")?;
        let (extra, b) = rows(input, "extra_params")?;
        let (state, bs) = rows(input, "state")?;
        let (sequence, bq) = rows(input, "sequence")?;
        let l = state.len() / bs.max(1) / 2;
        if b == 0 || b > MAX_BITS || bs != b || bq != b || w != 4 * b {
            return Err(format!(
                "rows of {w}, {b}, {bs} and {bq} numbers: main_params needs 4b, the others b, with 1 <= b <= {MAX_BITS}"
            ));
        }
        if l == 0 || l > MAX_LAYERS || state.len() != 2 * l * b || main.len() != 8 * l * b {
            return Err(format!(
                "{} state rows and {} main_params rows: 2l each, with 1 <= l <= {MAX_LAYERS}",
                state.len() / b,
                main.len() / w
            ));
        }
        if extra.len() != 3 * b || sequence.len() < 2 * b {
            return Err(format!(
                "{} extra_params rows (3 wanted) and {} characters (at least 2)",
                extra.len() / b,
                sequence.len() / b
            ));
        }
        Ok(Problem {
            main,
            extra,
            state,
            sequence,
            l,
            b,
        })
    }
}

pub fn evaluate(function: &str, input: &Value) -> Result<(Value, Vec<Duration>), String> {
    let p = Problem::read(input)?;
    let runs = crate::protocol::Runs::of(input);
    let (main, extra, state, seq) = (&p.main[..], &p.extra[..], &p.state[..], &p.sequence[..]);
    match function {
        "objective" => {
            let (y, times) = runs.time(|| objective(main, extra, state, seq, p.l, p.b));
            Ok((json!(y), times))
        }
        "jacobian" => {
            let (mut g_main, mut g_extra) = (vec![0.0; main.len()], vec![0.0; extra.len()]);
            // One tape for every run, as a training loop keeps it: its `Vec`s are sized by the
            // first run and reused by the others.
            let mut tape = ObjectiveTape::new();
            let (_, times) = runs.time(|| {
                g_main.iter_mut().for_each(|g| *g = 0.0);
                g_extra.iter_mut().for_each(|g| *g = 0.0);
                objective_forward(main, extra, state, seq, p.l, p.b, &mut tape);
                objective_adjoint(
                    main,
                    extra,
                    state,
                    seq,
                    p.l,
                    p.b,
                    &tape,
                    1.0,
                    &mut g_main,
                    &mut g_extra,
                );
            });
            g_main.extend_from_slice(&g_extra);
            Ok((json!(g_main), times))
        }
        _ => Err(super::unknown("lstm", function)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loss the plain way, its state in `Vec`s: the reference for [`objective`] and, by
    /// central differences, for its gradient.
    fn reference(p: &Problem, main: &[f64], extra: &[f64]) -> f64 {
        let (l, b) = (p.l, p.b);
        let sigmoid = |v: f64| 1.0 / (1.0 + (-v).exp());
        let mut state = p.state.clone();
        let c = p.sequence.len() / b;
        let mut total = 0.0;
        for t in 0..c - 1 {
            let mut x: Vec<f64> = (0..b).map(|i| p.sequence[t * b + i] * extra[i]).collect();
            for layer in 0..l {
                let par = &main[8 * b * layer..8 * b * (layer + 1)];
                let (h0, c0) = (2 * layer * b, (2 * layer + 1) * b);
                for i in 0..b {
                    let h = state[h0 + i];
                    let f = sigmoid(x[i] * par[i] + par[4 * b + i]);
                    let ig = sigmoid(h * par[b + i] + par[5 * b + i]);
                    let o = sigmoid(x[i] * par[2 * b + i] + par[6 * b + i]);
                    let ch = (h * par[3 * b + i] + par[7 * b + i]).tanh();
                    state[c0 + i] = state[c0 + i] * f + ig * ch;
                    state[h0 + i] = o * state[c0 + i].tanh();
                }
                x = state[h0..h0 + b].to_vec();
            }
            let y: Vec<f64> = (0..b)
                .map(|i| x[i] * extra[b + i] + extra[2 * b + i])
                .collect();
            let lse = (y.iter().map(|v| v.exp()).sum::<f64>() + 2.0).ln();
            total += (0..b)
                .map(|i| p.sequence[(t + 1) * b + i] * (y[i] - lse))
                .sum::<f64>();
        }
        -total / ((c - 1) * b) as f64
    }

    fn sample(l: usize, b: usize, c: usize) -> Problem {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut v = |len: usize| (0..len).map(|_| next()).collect::<Vec<f64>>();
        let (main, extra, state) = (v(8 * l * b), v(3 * b), v(2 * l * b));
        let sequence = v(c * b)
            .into_iter()
            .map(|x| (x > 0.5) as u8 as f64)
            .collect();
        Problem {
            main,
            extra,
            state,
            sequence,
            l,
            b,
        }
    }

    #[test]
    fn objective_and_gradient_against_a_plain_reference() {
        for (l, b, c) in [(1, 3, 4), (2, 7, 9), (3, 5, 6)] {
            let p = sample(l, b, c);
            let (m, e, s, q) = (&p.main[..], &p.extra[..], &p.state[..], &p.sequence[..]);
            let want = reference(&p, m, e);
            let got = objective(m, e, s, q, l, b);
            assert!(
                (got - want).abs() <= 1e-14 * want.abs(),
                "{got} against {want}"
            );
            let (mut gm, mut ge) = (vec![0.0; m.len()], vec![0.0; e.len()]);
            let (value, _) = objective_grad(m, e, s, q, l, b, &mut gm, &mut ge);
            assert_eq!(value, got);
            let h = 1e-6;
            for k in (0..m.len()).step_by(3) {
                let (mut up, mut down) = (p.main.clone(), p.main.clone());
                up[k] += h;
                down[k] -= h;
                let fd = (reference(&p, &up, e) - reference(&p, &down, e)) / (2.0 * h);
                assert!(
                    (gm[k] - fd).abs() < 1e-8,
                    "main[{k}]: {} against {fd}",
                    gm[k]
                );
            }
            for k in 0..e.len() {
                let (mut up, mut down) = (p.extra.clone(), p.extra.clone());
                up[k] += h;
                down[k] -= h;
                let fd = (reference(&p, m, &up) - reference(&p, m, &down)) / (2.0 * h);
                assert!(
                    (ge[k] - fd).abs() < 1e-8,
                    "extra[{k}]: {} against {fd}",
                    ge[k]
                );
            }
        }
    }

    #[test]
    fn sizes_beyond_the_capacity_are_errors() {
        let row = |n: usize| json!(vec![0.5; n]);
        let input = |l: usize, b: usize| {
            json!({
                "main_params": vec![row(4 * b); 2 * l],
                "extra_params": vec![row(b); 3],
                "state": vec![row(b); 2 * l],
                "sequence": vec![row(b); 3],
            })
        };
        assert!(Problem::read(&input(2, 7)).is_ok());
        assert!(
            Problem::read(&input(MAX_LAYERS + 1, 7))
                .unwrap_err()
                .contains("l <= 8")
        );
        assert!(
            Problem::read(&input(2, MAX_BITS + 1))
                .unwrap_err()
                .contains("b <= 32")
        );
    }
}
