//! ADBench's LSTM objective, written as a user would: plain loops over const-size arrays. Shared
//! by `tests/adbench_lstm.rs` and `benches/adbench.rs`, which include it as a module.
//!
//! `L` layers, `C` sequence length (characters), `B` width (bits per character). The shapes keep
//! the file's order, so the file's numbers fill them front to back:
//! - `main_params[layer][WEIGHT | BIAS][FORGET | INGATE | OUTGATE | CHANGE][i]`,
//! - `extra_params[IN_WEIGHT | OUT_WEIGHT | OUT_BIAS][i]`,
//! - `state[layer][HIDDEN | CELL][i]`, the initial state (data: it evolves inside the function),
//! - `sequence[t][i]`, the characters as 0/1 bits.
//!
//! The objective follows `lstm_objective` of ADBench's C++ reference (`src/cpp/shared/lstm.h`)
//! exactly, including its two quirks:
//! - each layer's cell is elementwise, and its gates do not all see the same value: `forget` and
//!   `outgate` take the layer's input, `ingate` and `change` take the layer's own hidden state
//!   from the previous step:
//!   `forget = sigmoid(x w_f + b_f)`, `ingate = sigmoid(h w_i + b_i)`,
//!   `outgate = sigmoid(x w_o + b_o)`, `change = tanh(h w_c + b_c)`,
//!   `cell = cell forget + ingate change`, `hidden = outgate tanh(cell)`;
//! - its log-sum-exp adds 2 inside the logarithm, `lse = ln(2 + sum_i exp(ypred_i))` (a
//!   translation of MATLAB's `log(sum(exp(x), 2))`, kept as ADBench has it).
//!
//! For `t` in `0..C - 1`: the input is `sequence[t]` scaled by `in_weight`, each layer's new
//! hidden state is the next layer's input, the prediction is `hidden * out_weight + out_bias`
//! of the last layer, and the loss adds `-sum_i sequence[t + 1][i] (ypred_i - lse)`. The result
//! is the loss over `(C - 1) B`.

use std::path::Path;

use stackgrad::differentiable;

pub const WEIGHT: usize = 0;
pub const BIAS: usize = 1;
pub const FORGET: usize = 0;
pub const INGATE: usize = 1;
pub const OUTGATE: usize = 2;
pub const CHANGE: usize = 3;
pub const IN_WEIGHT: usize = 0;
pub const OUT_WEIGHT: usize = 1;
pub const OUT_BIAS: usize = 2;
pub const HIDDEN: usize = 0;
pub const CELL: usize = 1;

/// The inputs of one ADBench LSTM instance.
pub struct Lstm<const L: usize, const C: usize, const B: usize> {
    pub main_params: [[[[f64; B]; 4]; 2]; L],
    pub extra_params: [[f64; B]; 3],
    pub state: [[[f64; B]; 2]; L],
    pub sequence: Box<[[f64; B]; C]>,
}

/// Reads an ADBench LSTM file whose sizes are `L`, `C`, `B` (panics on anything else: test and
/// bench inputs are the files shipped in `data/adbench/lstm`).
pub fn load<const L: usize, const C: usize, const B: usize>(
    path: impl AsRef<Path>,
) -> Lstm<L, C, B> {
    let path = path.as_ref();
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
    assert_eq!(sizes, [L as f64, C as f64, B as f64], "{}", path.display());
    let main_params = core::array::from_fn(|_| {
        core::array::from_fn(|_| core::array::from_fn(|_| core::array::from_fn(|_| next())))
    });
    let extra_params = core::array::from_fn(|_| core::array::from_fn(|_| next()));
    let state =
        core::array::from_fn(|_| core::array::from_fn(|_| core::array::from_fn(|_| next())));
    let mut sequence = Box::new([[0.0; B]; C]);
    for row in sequence.iter_mut() {
        for v in row.iter_mut() {
            *v = next();
        }
    }
    assert!(words.next().is_none(), "{}: too long", path.display());
    Lstm {
        main_params,
        extra_params,
        state,
        sequence,
    }
}

#[differentiable(wrt(main_params, extra_params))]
pub fn lstm_objective<const L: usize, const C: usize, const B: usize>(
    main_params: &[[[[f64; B]; 4]; 2]; L],
    extra_params: &[[f64; B]; 3],
    state: &[[[f64; B]; 2]; L],
    sequence: &[[f64; B]; C],
) -> f64 {
    let mut hidden = [[0.0; B]; L];
    let mut cell = [[0.0; B]; L];
    for layer in 0..L {
        hidden[layer] = state[layer][HIDDEN];
        cell[layer] = state[layer][CELL];
    }
    let mut total = 0.0;
    for t in 0..C - 1 {
        let mut x = [0.0; B];
        for i in 0..B {
            x[i] = sequence[t][i] * extra_params[IN_WEIGHT][i];
        }
        for layer in 0..L {
            for i in 0..B {
                // Pre-activations: forget and outgate see the layer's input, ingate and change
                // the layer's hidden state from the previous step.
                let h = hidden[layer][i];
                let forget = x[i] * main_params[layer][WEIGHT][FORGET][i]
                    + main_params[layer][BIAS][FORGET][i];
                let ingate =
                    h * main_params[layer][WEIGHT][INGATE][i] + main_params[layer][BIAS][INGATE][i];
                let outgate = x[i] * main_params[layer][WEIGHT][OUTGATE][i]
                    + main_params[layer][BIAS][OUTGATE][i];
                let change =
                    h * main_params[layer][WEIGHT][CHANGE][i] + main_params[layer][BIAS][CHANGE][i];
                let forget = 1.0 / (1.0 + (-forget).exp());
                let ingate = 1.0 / (1.0 + (-ingate).exp());
                let outgate = 1.0 / (1.0 + (-outgate).exp());
                let change = change.tanh();
                cell[layer][i] = cell[layer][i] * forget + ingate * change;
                hidden[layer][i] = outgate * cell[layer][i].tanh();
            }
            x = hidden[layer];
        }
        let mut ypred = [0.0; B];
        let mut sum = 0.0;
        for i in 0..B {
            ypred[i] = x[i] * extra_params[OUT_WEIGHT][i] + extra_params[OUT_BIAS][i];
            sum += ypred[i].exp();
        }
        let lse = (sum + 2.0).ln();
        for i in 0..B {
            total += sequence[t + 1][i] * (ypred[i] - lse);
        }
    }
    -total / (((C - 1) * B) as f64)
}
