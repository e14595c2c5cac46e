//! The 1000-step RNN of `tests/checkpoint.rs` and `benches/checkpoint.rs`: with a full tape, with
//! 10 snapshots, and with a snapshot before every step.

use stackgrad::differentiable;

pub const STEPS: usize = 1000;

/// A 1000-step tanh RNN with a 4-wide state, full tape.
#[differentiable]
pub fn rnn_full(x: &[f64; STEPS], w: &[[f64; 4]; 4], u: &[f64; 4]) -> f64 {
    let mut h = [0.0; 4];
    for t in 0..STEPS {
        let mut next = [0.0; 4];
        for i in 0..4 {
            let mut z = u[i] * x[t];
            for j in 0..4 {
                z += w[i][j] * h[j];
            }
            next[i] = z.tanh();
        }
        h = next;
    }
    h[0] + h[1] * h[2] - h[3]
}

/// The same with 10 snapshots.
#[differentiable]
pub fn rnn_snapshots(x: &[f64; STEPS], w: &[[f64; 4]; 4], u: &[f64; 4]) -> f64 {
    let mut h = [0.0; 4];
    #[checkpoint(snapshots = 10)]
    for t in 0..STEPS {
        let mut next = [0.0; 4];
        for i in 0..4 {
            let mut z = u[i] * x[t];
            for j in 0..4 {
                z += w[i][j] * h[j];
            }
            next[i] = z.tanh();
        }
        h = next;
    }
    h[0] + h[1] * h[2] - h[3]
}

/// The same with a snapshot before every step.
#[differentiable]
pub fn rnn_every_step(x: &[f64; STEPS], w: &[[f64; 4]; 4], u: &[f64; 4]) -> f64 {
    let mut h = [0.0; 4];
    #[checkpoint]
    for t in 0..STEPS {
        let mut next = [0.0; 4];
        for i in 0..4 {
            let mut z = u[i] * x[t];
            for j in 0..4 {
                z += w[i][j] * h[j];
            }
            next[i] = z.tanh();
        }
        h = next;
    }
    h[0] + h[1] * h[2] - h[3]
}

/// The same with 10 snapshots on Griewank's binomial schedule.
#[differentiable]
pub fn rnn_binomial(x: &[f64; STEPS], w: &[[f64; 4]; 4], u: &[f64; 4]) -> f64 {
    let mut h = [0.0; 4];
    #[checkpoint(snapshots = 10, binomial)]
    for t in 0..STEPS {
        let mut next = [0.0; 4];
        for i in 0..4 {
            let mut z = u[i] * x[t];
            for j in 0..4 {
                z += w[i][j] * h[j];
            }
            next[i] = z.tanh();
        }
        h = next;
    }
    h[0] + h[1] * h[2] - h[3]
}
