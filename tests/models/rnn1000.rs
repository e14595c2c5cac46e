//! The 1000-step RNN of `tests/checkpoint.rs`, `benches/checkpoint.rs` and the
//! `checkpoint_tradeoff` example: one body, which each of them instantiates with a full tape or
//! with its loop checkpointed in the ways it compares (`rnn1000!(name, #[checkpoint(..)])`; the
//! includer imports `stackgrad::differentiable`).

pub const STEPS: usize = 1000;

/// `rnn1000!(name, #[loop attributes])`: the RNN (a tanh recurrence with a 4-wide state) as
/// `#[differentiable] pub fn name`, with the attributes on its time loop.
macro_rules! rnn1000 {
    ($(#[$doc:meta])* $name:ident $(, #[$attr:meta])*) => {
        $(#[$doc])*
        #[differentiable]
        pub fn $name(x: &[f64; STEPS], w: &[[f64; 4]; 4], u: &[f64; 4]) -> f64 {
            let mut h = [0.0; 4];
            $(#[$attr])*
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
    };
}
