//! Gradients of `#[differentiable]` functions of arrays, loops, structs and calls, checked against
//! references the macro does not compute: central finite differences of the user's own function
//! (which the macro keeps unchanged), and closed forms where one is short.
//!
//! Inputs and gradients are flattened into one point with [`common::Flat`] so the shared
//! [`common::GradCheck`] checks every coordinate. Array-valued functions are checked through a
//! vector-Jacobian product: `f_adjoint` with a seed `d_out` against the finite differences of
//! `<d_out, f(x)>`. Every random point comes from a fixed seed.

mod common;
#[path = "models/mlp.rs"]
mod mlp;

/// The flat checker itself: it must reject a gradient that is right up to a permutation.
mod checker {
    use crate::common::{GradCheck, cube};

    #[test]
    #[should_panic(expected = "transposed: 20 of 20 points fail")]
    fn rejects_a_transposed_gradient() {
        // f(w, x) = x^T w x for a 2 x 2 `w`: its gradient in `w` is x x^T, symmetric, so use a
        // weighting that is not: f = w00 x0 + 2 w01 x1 + 3 w10 x0 + 4 w11 x1.
        GradCheck::new("transposed").flat(
            &cube::<6>(1, 20, -1.0, 1.0),
            |(w, x): &([[f64; 2]; 2], [f64; 2])| {
                w[0][0] * x[0] + 2.0 * w[0][1] * x[1] + 3.0 * w[1][0] * x[0] + 4.0 * w[1][1] * x[1]
            },
            |(w, x): &([[f64; 2]; 2], [f64; 2])| {
                let value = w[0][0] * x[0]
                    + 2.0 * w[0][1] * x[1]
                    + 3.0 * w[1][0] * x[0]
                    + 4.0 * w[1][1] * x[1];
                // d/dw01 and d/dw10 swapped.
                let d_w = [[x[0], 3.0 * x[0]], [2.0 * x[1], 4.0 * x[1]]];
                let d_x = [w[0][0] + 3.0 * w[1][0], 2.0 * w[0][1] + 4.0 * w[1][1]];
                (value, (d_w, d_x))
            },
        );
    }
}

/// Dot, matrix-vector and matrix-matrix products; a function generic over `const N`.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod products {
    use crate::common::{GradCheck, assert_close, cube, weighted};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            s += a[i] * b[i];
        }
        s
    }

    #[test]
    fn dot_at_two_sizes() {
        GradCheck::new("dot::<3>").flat(
            &cube::<6>(10, 20, -2.0, 2.0),
            |(a, b): &([f64; 3], [f64; 3])| dot::<3>(a, b),
            |(a, b): &([f64; 3], [f64; 3])| dot_grad::<3>(a, b),
        );
        GradCheck::new("dot::<7>").flat(
            &cube::<14>(11, 20, -2.0, 2.0),
            |(a, b): &([f64; 7], [f64; 7])| dot::<7>(a, b),
            |(a, b): &([f64; 7], [f64; 7])| dot_grad::<7>(a, b),
        );
    }

    /// The gradient of a bilinear form is exact: d/da = b, d/db = a, bit for bit.
    #[test]
    fn dot_gradient_is_the_other_vector() {
        let a = [0.5, -1.25, 3.0, 0.1];
        let b = [2.0, 0.75, -0.3, 9.0];
        let (value, (d_a, d_b)) = dot_grad(&a, &b);
        assert_close("dot", value, 1.0 - 0.9375 - 0.9 + 0.9, 1e-15);
        assert_eq!((d_a, d_b), (b, a));
    }

    pub const ROWS: usize = 2;
    pub const COLS: usize = 3;

    #[differentiable]
    pub fn matvec(w: &[[f64; COLS]; ROWS], x: &[f64; COLS]) -> [f64; ROWS] {
        let mut y = [0.0; ROWS];
        for i in 0..ROWS {
            for j in 0..COLS {
                y[i] += w[i][j] * x[j];
            }
        }
        y
    }

    const MATVEC_SEED: [f64; ROWS] = [0.7, -1.3];

    #[test]
    fn matvec_vector_jacobian_product() {
        GradCheck::new("matvec").flat(
            &cube::<9>(12, 20, -2.0, 2.0),
            |(w, x): &([[f64; COLS]; ROWS], [f64; COLS])| weighted(&MATVEC_SEED, &matvec(w, x)),
            |(w, x): &([[f64; COLS]; ROWS], [f64; COLS])| {
                let mut tape = MatvecTape::new();
                let y = matvec_forward(w, x, &mut tape);
                let mut d_w = [[0.0; COLS]; ROWS];
                let mut d_x = [0.0; COLS];
                matvec_adjoint(w, x, &tape, &MATVEC_SEED, &mut d_w, &mut d_x);
                (weighted(&MATVEC_SEED, &y), (d_w, d_x))
            },
        );
    }

    pub const INNER: usize = 4;

    #[differentiable]
    pub fn matmul(a: &[[f64; INNER]; ROWS], b: &[[f64; COLS]; INNER]) -> [[f64; COLS]; ROWS] {
        let mut c = [[0.0; COLS]; ROWS];
        for i in 0..ROWS {
            for j in 0..COLS {
                for k in 0..INNER {
                    c[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        c
    }

    const MATMUL_SEED: [[f64; COLS]; ROWS] = [[0.3, -0.8, 1.1], [2.0, 0.05, -0.6]];

    #[test]
    fn matmul_vector_jacobian_product() {
        type Inputs = ([[f64; INNER]; ROWS], [[f64; COLS]; INNER]);
        GradCheck::new("matmul").flat(
            &cube::<20>(13, 20, -2.0, 2.0),
            |(a, b): &Inputs| weighted(&MATMUL_SEED, &matmul(a, b)),
            |(a, b): &Inputs| {
                let mut tape = MatmulTape::new();
                let c = matmul_forward(a, b, &mut tape);
                let mut d_a = [[0.0; INNER]; ROWS];
                let mut d_b = [[0.0; COLS]; INNER];
                matmul_adjoint(a, b, &tape, &MATMUL_SEED, &mut d_a, &mut d_b);
                (weighted(&MATMUL_SEED, &c), (d_a, d_b))
            },
        );
    }

    /// A nonlinearity of every entry of a matrix product: the tape keeps one entry per `(i, j)`.
    #[differentiable]
    pub fn matmul_loss(a: &[[f64; INNER]; ROWS], b: &[[f64; COLS]; INNER]) -> f64 {
        let mut loss = 0.0;
        for i in 0..ROWS {
            for j in 0..COLS {
                let mut c = 0.0;
                for k in 0..INNER {
                    c += a[i][k] * b[k][j];
                }
                loss += c * c.sin();
            }
        }
        loss
    }

    #[test]
    fn matmul_loss_gradient() {
        type Inputs = ([[f64; INNER]; ROWS], [[f64; COLS]; INNER]);
        GradCheck::new("matmul_loss").flat(
            &cube::<20>(14, 20, -1.5, 1.5),
            |(a, b): &Inputs| matmul_loss(a, b),
            |(a, b): &Inputs| matmul_loss_grad(a, b),
        );
    }
}

/// Columns read at an index of an outer counter that is valid only where the primal reads it:
/// the reverse sweep holds `d_x[a - 1]` and `d_y[a - 1]` in locals across the inner loop (golden
/// `held.rs`), and must not read them when the inner loop runs no iteration (`a == 0`) or when
/// only a branch reads them.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod held_columns {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn shifted(x: &[f64; 4], y: &[f64; 4], w: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for a in 0..4 {
            for b in 0..a {
                s += w[b] * x[a - 1] + w[b] * y[a - 1] * y[a - 1];
            }
        }
        s
    }

    #[differentiable]
    pub fn guarded(x: &[f64; 4], y: &[f64; 4], w: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for a in 0..5 {
            for b in 0..4 {
                if a > 0 {
                    s += w[b] * (x[a - 1] + y[a - 1] * y[a - 1]);
                }
            }
        }
        s
    }

    type Inputs = ([f64; 4], [f64; 4], [f64; 4]);

    #[test]
    fn no_iteration_and_branches_read_nothing() {
        // Closed forms at one point: shifted's d/dx[j] = sum of w[b] for b <= j < 3, guarded's
        // d/dx[j] = sum of w; d/dy[j] twice that times y[j].
        let (x, y, w) = (
            [0.5, -1.0, 2.0, 0.25],
            [1.5, 0.5, -2.0, 3.0],
            [1.0, 2.0, -3.0, 0.5],
        );
        let (_, (dx, dy, _)) = shifted_grad(&x, &y, &w);
        let prefix = [1.0, 3.0, 0.0, 0.0];
        for j in 0..4 {
            assert_eq!(dx[j], prefix[j], "shifted d/dx[{j}]");
            assert_eq!(dy[j], 2.0 * y[j] * prefix[j], "shifted d/dy[{j}]");
        }
        let (_, (dx, dy, _)) = guarded_grad(&x, &y, &w);
        for j in 0..4 {
            assert_eq!(dx[j], 0.5, "guarded d/dx[{j}]");
            assert_eq!(dy[j], 2.0 * y[j] * 0.5, "guarded d/dy[{j}]");
        }
    }

    #[test]
    fn gradients() {
        let points = cube::<12>(16, 20, -1.5, 1.5);
        GradCheck::new("shifted").flat(
            &points,
            |(x, y, w): &Inputs| shifted(x, y, w),
            |(x, y, w): &Inputs| shifted_grad(x, y, w),
        );
        GradCheck::new("guarded").flat(
            &points,
            |(x, y, w): &Inputs| guarded(x, y, w),
            |(x, y, w): &Inputs| guarded_grad(x, y, w),
        );
    }
}

/// Softmax cross-entropy, stabilised by subtracting the maximum logit.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod softmax {
    use crate::common::{GradCheck, assert_close, cube};
    use stackgrad::differentiable;

    const CLASSES: usize = 5;

    #[differentiable]
    pub fn softmax_cross_entropy(logits: &[f64; CLASSES], target: usize) -> f64 {
        let mut m = logits[0];
        for i in 1..CLASSES {
            m = m.max(logits[i]);
        }
        let mut s = 0.0;
        for i in 0..CLASSES {
            s += (logits[i] - m).exp();
        }
        s.ln() + m - logits[target]
    }

    #[test]
    fn gradient_for_every_target() {
        let points = cube::<CLASSES>(20, 20, -3.0, 3.0);
        for target in 0..CLASSES {
            GradCheck::new("softmax_cross_entropy").flat(
                &points,
                |logits: &[f64; CLASSES]| softmax_cross_entropy(logits, target),
                |logits: &[f64; CLASSES]| softmax_cross_entropy_grad(logits, target),
            );
        }
    }

    /// Logits near 1000 overflow `exp` without the shift; the gradient is `softmax - onehot`.
    #[test]
    fn large_logits_give_softmax_minus_onehot() {
        let logits = [1000.0, 1001.0, 999.5, 1000.25, 998.0];
        let target = 3;
        let (value, d_logits) = softmax_cross_entropy_grad(&logits, target);
        let shifted = logits.map(|l| (l - 1001.0_f64).exp());
        let total: f64 = shifted.iter().sum();
        assert_close("loss", value, total.ln() + 1001.0 - logits[target], 1e-13);
        for i in 0..CLASSES {
            let onehot = if i == target { 1.0 } else { 0.0 };
            assert_close("d_logits", d_logits[i], shifted[i] / total - onehot, 1e-13);
        }
    }
}

/// Loop-carried values: RNNs, a running product, a running maximum, a triangular loop.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod recurrences {
    use crate::common::{GradCheck, cube, sample};
    use rand::Rng;
    use stackgrad::differentiable;

    pub const STEPS: usize = 50;

    /// A 50-step tanh RNN with a scalar state.
    #[differentiable]
    pub fn rnn(x: &[f64; STEPS], w: f64, u: f64) -> f64 {
        let mut h = 0.0;
        for t in 0..STEPS {
            h = (w * h + u * x[t]).tanh();
        }
        h
    }

    #[test]
    fn rnn_scalar_state() {
        GradCheck::new("rnn").flat(
            &cube::<{ STEPS + 2 }>(30, 20, -1.2, 1.2),
            |(x, w, u): &([f64; STEPS], f64, f64)| rnn(x, *w, *u),
            |(x, w, u): &([f64; STEPS], f64, f64)| rnn_grad(x, *w, *u),
        );
    }

    /// A state assigned twice per step: reads at the top of the body see the previous step's
    /// second value (or the initial one), reads between the two see the first.
    #[differentiable]
    pub fn two_updates_per_step(x: &[f64; STEPS], w: f64) -> f64 {
        let mut h = w;
        let mut acc = 0.0;
        for k in 0..STEPS {
            acc += h * x[k];
            h = (h * x[k]).sin();
            acc += h * h;
            h = h * w + x[k];
        }
        acc + h
    }

    #[test]
    fn state_assigned_twice_per_step() {
        GradCheck::new("two_updates_per_step").flat(
            &cube::<{ STEPS + 1 }>(31, 20, -1.2, 1.2),
            |(x, w): &([f64; STEPS], f64)| two_updates_per_step(x, *w),
            |(x, w): &([f64; STEPS], f64)| two_updates_per_step_grad(x, *w),
        );
        // The carried value is recorded once per step (as the second assignment's result), not
        // again where the top of the body reads it: the tape holds the two assignments' values
        // and the `sin` argument for each step, and the initial state.
        assert_eq!(
            TwoUpdatesPerStepTape::BYTES,
            core::mem::size_of::<f64>() * (3 * STEPS + 1)
        );
    }

    pub const HIDDEN: usize = 3;

    /// A 50-step tanh RNN with a vector state, `h = tanh(W h + u x_t)`.
    #[differentiable]
    pub fn rnn_vector(x: &[f64; STEPS], w: &[[f64; HIDDEN]; HIDDEN], u: &[f64; HIDDEN]) -> f64 {
        let mut h = [0.0; HIDDEN];
        for t in 0..STEPS {
            let mut z = [0.0; HIDDEN];
            for i in 0..HIDDEN {
                z[i] = u[i] * x[t];
                for j in 0..HIDDEN {
                    z[i] += w[i][j] * h[j];
                }
            }
            for i in 0..HIDDEN {
                h[i] = z[i].tanh();
            }
        }
        h[0] - h[1] + 0.5 * h[2]
    }

    #[test]
    fn rnn_vector_state() {
        type Inputs = ([f64; STEPS], [[f64; HIDDEN]; HIDDEN], [f64; HIDDEN]);
        GradCheck::new("rnn_vector").flat(
            &cube::<{ STEPS + HIDDEN * HIDDEN + HIDDEN }>(31, 20, -0.9, 0.9),
            |(x, w, u): &Inputs| rnn_vector(x, w, u),
            |(x, w, u): &Inputs| rnn_vector_grad(x, w, u),
        );
    }

    const LEN: usize = 8;

    #[differentiable]
    pub fn running_product(x: &[f64; LEN]) -> f64 {
        let mut acc = 1.0;
        for i in 0..LEN {
            acc *= x[i];
        }
        acc
    }

    #[test]
    fn running_product_gradient() {
        GradCheck::new("running_product").flat(
            &cube::<LEN>(32, 20, -1.5, 1.5),
            |x: &[f64; LEN]| running_product(x),
            |x: &[f64; LEN]| running_product_grad(x),
        );
    }

    /// With one factor exactly 0 its derivative is the product of the others and every other
    /// derivative is 0 (an adjoint that divides the product by `x[i]` gives NaN here).
    #[test]
    fn running_product_with_a_zero_factor() {
        let x = [0.5, -2.0, 1.5, 0.0, 3.0, -0.25, 2.0, 1.0];
        let (value, d_x) = running_product_grad(&x);
        assert_eq!(value, 0.0);
        let mut want = [0.0; LEN];
        want[3] = 0.5 * -2.0 * 1.5 * 3.0 * -0.25 * 2.0 * 1.0;
        assert_eq!(d_x, want);
    }

    /// The sum of the prefix maxima, weighted by the step: a branch inside a loop.
    #[differentiable]
    pub fn running_max(x: &[f64; LEN]) -> f64 {
        let mut best = x[0];
        let mut total = 0.0;
        for i in 1..LEN {
            if x[i] > best {
                best = x[i];
            }
            total += best * (i as f64) + best * best;
        }
        total
    }

    /// The smallest gap between two coordinates: a step shorter than half of it changes no
    /// comparison.
    fn smallest_gap<const N: usize>(x: &[f64; N]) -> f64 {
        let mut gap = f64::INFINITY;
        for i in 0..N {
            for j in 0..i {
                gap = gap.min((x[i] - x[j]).abs());
            }
        }
        gap
    }

    #[test]
    fn running_max_gradient() {
        GradCheck::new("running_max").kink(smallest_gap).flat(
            &cube::<LEN>(33, 40, -2.0, 2.0),
            |x: &[f64; LEN]| running_max(x),
            |x: &[f64; LEN]| running_max_grad(x),
        );
    }

    /// Increasing and decreasing inputs take the branch every time and never.
    #[test]
    fn running_max_monotone_inputs() {
        let rising: Vec<[f64; LEN]> = sample(34, 20, |rng| {
            let mut x = [0.0; LEN];
            let mut v = rng.gen_range(-2.0..0.0);
            for xi in &mut x {
                v += rng.gen_range(0.05..0.5);
                *xi = v;
            }
            x
        });
        let falling: Vec<[f64; LEN]> = rising.iter().map(|x| x.map(|v| -v)).collect();
        for points in [rising, falling] {
            GradCheck::new("running_max, monotone")
                .kink(smallest_gap)
                .flat(
                    &points,
                    |x: &[f64; LEN]| running_max(x),
                    |x: &[f64; LEN]| running_max_grad(x),
                );
        }
    }

    /// A triangular loop nest; the inner nonlinearity is recorded per `(i, j)`.
    #[differentiable]
    pub fn triangular(x: &[f64; LEN]) -> f64 {
        let mut s = 0.0;
        for i in 0..LEN {
            for j in 0..i {
                s += (x[i] - x[j]).tanh() * x[j];
            }
        }
        s
    }

    #[test]
    fn triangular_gradient() {
        GradCheck::new("triangular").flat(
            &cube::<LEN>(35, 20, -2.0, 2.0),
            |x: &[f64; LEN]| triangular(x),
            |x: &[f64; LEN]| triangular_grad(x),
        );
    }
}

/// Data-dependent indices: an embedding lookup adds into the rows the tokens name.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod lookup {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    const VOCAB: usize = 5;
    const DIM: usize = 3;
    const TOKENS: usize = 4;

    #[differentiable]
    pub fn embedding(table: &[[f64; DIM]; VOCAB], tokens: &[usize; TOKENS], w: &[f64; DIM]) -> f64 {
        let mut s = 0.0;
        for t in 0..TOKENS {
            for c in 0..DIM {
                s += (table[tokens[t]][c] * w[c]).tanh() * (t as f64 + 1.0);
            }
        }
        s
    }

    /// Token 1 appears twice (its row accumulates both), tokens 0 and 2 never.
    const TOKEN_IDS: [usize; TOKENS] = [1, 3, 1, 4];

    #[test]
    fn embedding_gradient() {
        type Inputs = ([[f64; DIM]; VOCAB], [f64; DIM]);
        GradCheck::new("embedding").flat(
            &cube::<{ VOCAB * DIM + DIM }>(40, 20, -1.5, 1.5),
            |(table, w): &Inputs| embedding(table, &TOKEN_IDS, w),
            |(table, w): &Inputs| embedding_grad(table, &TOKEN_IDS, w),
        );
    }

    #[test]
    fn unused_rows_get_exactly_zero() {
        let points = cube::<{ VOCAB * DIM + DIM }>(41, 1, -1.5, 1.5);
        let (table, w): ([[f64; DIM]; VOCAB], [f64; DIM]) = crate::common::unflatten(&points[0]);
        let (_, (d_table, _)) = embedding_grad(&table, &TOKEN_IDS, &w);
        assert_eq!(d_table[0], [0.0; DIM]);
        assert_eq!(d_table[2], [0.0; DIM]);
        assert!(d_table[1].iter().chain(&d_table[3]).all(|&d| d != 0.0));
    }
}

/// Struct parameters: a two-layer MLP, nested structs, arrays of structs.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod structs {
    use crate::common::{Flat, GradCheck, cube};
    use stackgrad::differentiable;

    use crate::mlp::{HIDDEN, INPUTS, Mlp, PARAMS};

    /// Squared error of a one-hidden-layer tanh network.
    #[differentiable]
    pub fn mlp(p: &Mlp, x: &[f64; INPUTS], y: f64) -> f64 {
        let mut h = [0.0; HIDDEN];
        for i in 0..HIDDEN {
            let mut z = p.b1[i];
            for j in 0..INPUTS {
                z += p.w1[i][j] * x[j];
            }
            h[i] = z.tanh();
        }
        let mut out = p.b2;
        for i in 0..HIDDEN {
            out += p.w2[i] * h[i];
        }
        let e = out - y;
        0.5 * e * e
    }

    #[test]
    fn mlp_gradient() {
        GradCheck::new("mlp").flat(
            &cube::<{ PARAMS + INPUTS + 1 }>(50, 20, -1.5, 1.5),
            |(p, x, y): &(Mlp, [f64; INPUTS], f64)| mlp(p, x, *y),
            |(p, x, y): &(Mlp, [f64; INPUTS], f64)| mlp_grad(p, x, *y),
        );
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Affine {
        pub w: [[f64; 2]; 2],
        pub b: [f64; 2],
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Head {
        pub scale: f64,
        pub layer: Affine,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct Deep {
        pub layers: [Affine; 3],
        pub head: Head,
    }

    impl Flat for Affine {
        fn read(coordinates: &mut &[f64]) -> Self {
            Affine {
                w: Flat::read(coordinates),
                b: Flat::read(coordinates),
            }
        }

        fn write(&self, out: &mut Vec<f64>) {
            self.w.write(out);
            self.b.write(out);
        }
    }

    impl Flat for Deep {
        fn read(coordinates: &mut &[f64]) -> Self {
            Deep {
                layers: Flat::read(coordinates),
                head: Head {
                    scale: Flat::read(coordinates),
                    layer: Flat::read(coordinates),
                },
            }
        }

        fn write(&self, out: &mut Vec<f64>) {
            self.layers.write(out);
            self.head.scale.write(out);
            self.head.layer.write(out);
        }
    }

    /// Three tanh layers from an array of structs, then a head two structs deep.
    #[differentiable]
    pub fn deep(p: &Deep, x: &[f64; 2]) -> f64 {
        let mut h = [x[0], x[1]];
        for k in 0..3 {
            let mut z = [0.0; 2];
            for i in 0..2 {
                z[i] = p.layers[k].b[i];
                for j in 0..2 {
                    z[i] += p.layers[k].w[i][j] * h[j];
                }
            }
            for i in 0..2 {
                h[i] = z[i].tanh();
            }
        }
        let mut out = 0.0;
        for i in 0..2 {
            out += p.head.layer.w[i][0] * h[i] + p.head.layer.b[i] * h[0] * h[1];
        }
        p.head.scale * out
    }

    #[test]
    fn nested_structs_and_arrays_of_structs() {
        GradCheck::new("deep").flat(
            &cube::<{ 4 * 6 + 1 + 2 }>(51, 20, -1.5, 1.5),
            |(p, x): &(Deep, [f64; 2])| deep(p, x),
            |(p, x): &(Deep, [f64; 2])| deep_grad(p, x),
        );
    }
}

/// Arrays defined element by element from parameters (`c[d] = x[i][d] - m[d]`), which the
/// reverse sweep evaluates again at each read instead of recording: read in a triangular loop,
/// through a reversed defining loop, a difference and a negation, in a const-generic function, and
/// (in `hvp`) in the tangent program too.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod elementwise {
    use crate::common::{GradCheck, check_hvp_flat, cube};
    use stackgrad::differentiable;

    #[differentiable(hvp)]
    pub fn centred<const D: usize>(x: &[[f64; D]; 4], m: &[f64; D], l: &[f64; D]) -> f64 {
        let mut total = 0.0;
        for i in 0..4 {
            let mut c = [0.0; D];
            let mut n = [0.0; D];
            for d in (0..D).rev() {
                c[d] = x[i][d] - m[d];
                n[d] = -l[d];
            }
            let mut q = 0.0;
            for a in 0..D {
                for b in a..D {
                    q += c[a] * c[b] * l[b] + n[a] * c[b];
                }
            }
            total += (0.3 * q).tanh();
        }
        total
    }

    type Inputs = ([[f64; 3]; 4], [f64; 3], [f64; 3]);

    #[test]
    fn gradient_and_hessian_vector_product() {
        let points = cube::<{ 12 + 3 + 3 }>(81, 20, -1.5, 1.5);
        GradCheck::new("centred").flat(
            &points,
            |(x, m, l): &Inputs| centred::<3>(x, m, l),
            |(x, m, l): &Inputs| centred_grad::<3>(x, m, l),
        );
        check_hvp_flat::<Inputs, Inputs, 18>(
            "centred",
            &points,
            |_| f64::INFINITY,
            |(x, m, l): &Inputs| centred_grad::<3>(x, m, l),
            |(x, m, l): &Inputs, (vx, vm, vl): &Inputs| centred_hvp::<3>(x, m, l, vx, vm, vl),
        );
        // Nothing of `c` or `n` is recorded: the tape holds what `tanh` needs, per row.
        assert!(
            CentredTape::<3>::FIELDS
                .iter()
                .all(|(name, ..)| !["c", "n"].contains(name)),
            "{:?}",
            CentredTape::<3>::FIELDS
        );
    }
}

/// Every loop form: `rev`, `step_by`, `..=`, offsets in indices, iterators, `break`, `continue`.
#[allow(clippy::needless_range_loop)]
// index loops are the construct under test
// The macro sizes the tape of `(1..N).step_by(2)` with `((N - 1 + 2 - 1) / 2)`, outside its
// `#[allow(clippy::all)]`; remove this once the tape length is written `usize::div_ceil`.
#[allow(clippy::manual_div_ceil)]
mod loops {
    use crate::common::{GradCheck, cube};
    use stackgrad::differentiable;

    const N: usize = 6;

    /// Horner's rule from the last coefficient down, with a nonlinearity per step, so an
    /// iteration order reversed the wrong way changes the result.
    #[differentiable]
    pub fn reversed(c: [f64; N], x: f64) -> f64 {
        let mut acc = 0.0;
        for i in (0..N).rev() {
            acc = (acc * x + c[i]).sin();
        }
        acc
    }

    #[test]
    fn rev_and_an_array_by_value() {
        GradCheck::new("reversed").flat(
            &cube::<{ N + 1 }>(60, 20, -1.5, 1.5),
            |(c, x): &([f64; N], f64)| reversed(*c, *x),
            |(c, x): &([f64; N], f64)| reversed_grad(*c, *x),
        );
    }

    /// Odd indices with their left neighbours, `a[i - 1]`.
    #[differentiable]
    pub fn stepped(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in (1..N).step_by(2) {
            s = s * x[i] + (x[i - 1] * x[i]).sin();
        }
        s
    }

    #[test]
    fn step_by() {
        GradCheck::new("stepped").flat(
            &cube::<N>(61, 20, -1.5, 1.5),
            |x: &[f64; N]| stepped(x),
            |x: &[f64; N]| stepped_grad(x),
        );
    }

    /// An inclusive range with mirrored indices `a[N - 1 - i]` and `a[i + 1]`.
    #[differentiable]
    pub fn inclusive(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 1..=3 {
            s += x[i + 1].exp() * x[N - 1 - i] * s + x[i];
        }
        s
    }

    #[test]
    fn inclusive_range_and_index_arithmetic() {
        GradCheck::new("inclusive").flat(
            &cube::<N>(62, 20, -1.5, 1.5),
            |x: &[f64; N]| inclusive(x),
            |x: &[f64; N]| inclusive_grad(x),
        );
    }

    /// A triangular nest with an inclusive inner bound, `for j in 0..=i`.
    #[differentiable]
    pub fn triangular_inclusive(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            let mut row = 0.0;
            for j in 0..=i {
                row += x[j] * x[i - j];
            }
            s += row.tanh();
        }
        s
    }

    #[test]
    fn triangular_inclusive_gradient() {
        GradCheck::new("triangular_inclusive").flat(
            &cube::<N>(63, 20, -1.5, 1.5),
            |x: &[f64; N]| triangular_inclusive(x),
            |x: &[f64; N]| triangular_inclusive_grad(x),
        );
    }

    #[differentiable]
    pub fn iterated(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for v in x.iter() {
            s = s * 0.5 + v.sin() * s + v * v;
        }
        s
    }

    #[test]
    fn iter() {
        GradCheck::new("iterated").flat(
            &cube::<N>(64, 20, -1.5, 1.5),
            |x: &[f64; N]| iterated(x),
            |x: &[f64; N]| iterated_grad(x),
        );
    }

    #[differentiable]
    pub fn enumerated(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for (i, v) in x.iter().enumerate() {
            s += (i as f64 + 1.0) * (v * s).cos();
        }
        s
    }

    #[test]
    fn enumerate() {
        GradCheck::new("enumerated").flat(
            &cube::<N>(65, 20, -1.5, 1.5),
            |x: &[f64; N]| enumerated(x),
            |x: &[f64; N]| enumerated_grad(x),
        );
    }

    #[differentiable]
    pub fn zipped(x: &[f64; N], y: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for (a, b) in x.iter().zip(y.iter()) {
            let d = a - b;
            s += d * d * a.exp() + s * b;
        }
        s
    }

    #[test]
    fn zip() {
        GradCheck::new("zipped").flat(
            &cube::<{ 2 * N }>(66, 20, -1.5, 1.5),
            |(x, y): &([f64; N], [f64; N])| zipped(x, y),
            |(x, y): &([f64; N], [f64; N])| zipped_grad(x, y),
        );
    }

    /// `iter_mut` on a local array overwrites every element in place.
    #[differentiable]
    pub fn mutated(x: &[f64; N], w: f64) -> f64 {
        let mut h = [0.0; N];
        for i in 0..N {
            h[i] = x[i] * w;
        }
        for v in h.iter_mut() {
            *v = v.tanh();
        }
        for v in h.iter_mut() {
            *v = *v * *v + w;
        }
        let mut s = 0.0;
        for i in 0..N {
            s += h[i] * x[i];
        }
        s
    }

    #[test]
    fn iter_mut() {
        GradCheck::new("mutated").flat(
            &cube::<{ N + 1 }>(67, 20, -1.5, 1.5),
            |(x, w): &([f64; N], f64)| mutated(x, *w),
            |(x, w): &([f64; N], f64)| mutated_grad(x, *w),
        );
    }

    /// Stops at the first element above 0.5: the trip count depends on the data.
    #[differentiable]
    pub fn until_large(x: &[f64; N]) -> f64 {
        let mut s = 1.0;
        for i in 0..N {
            if x[i] > 0.5 {
                break;
            }
            s = s * x[i].cos() + x[i];
        }
        s
    }

    /// The distance to the threshold a comparison in the loop tests.
    fn distance_to_half(x: &[f64; N]) -> f64 {
        x.iter()
            .map(|v| (v - 0.5).abs())
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn break_() {
        let points = cube::<N>(68, 40, -1.5, 1.0);
        // Breaks at every position and never.
        for stop in 0..=N {
            assert!(
                points
                    .iter()
                    .any(|x| x.iter().position(|&v| v > 0.5).unwrap_or(N) == stop),
                "no point stops at {stop}"
            );
        }
        GradCheck::new("until_large").kink(distance_to_half).flat(
            &points,
            |x: &[f64; N]| until_large(x),
            |x: &[f64; N]| until_large_grad(x),
        );
    }

    /// Skips elements above 0.5.
    #[differentiable]
    pub fn skip_large(x: &[f64; N]) -> f64 {
        let mut s = 1.0;
        for i in 0..N {
            if x[i] > 0.5 {
                continue;
            }
            s = s * x[i].cos() + x[i];
        }
        s
    }

    #[test]
    fn continue_() {
        GradCheck::new("skip_large").kink(distance_to_half).flat(
            &cube::<N>(69, 20, -1.5, 1.5),
            |x: &[f64; N]| skip_large(x),
            |x: &[f64; N]| skip_large_grad(x),
        );
    }

    /// `break` on the index alone, after the update.
    #[differentiable]
    pub fn first_four(x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            s = (s + x[i]).sin();
            if i == 3 {
                break;
            }
        }
        s
    }

    #[test]
    fn break_after_the_update_leaves_the_tail_alone() {
        let points = cube::<N>(70, 20, -1.5, 1.5);
        GradCheck::new("first_four").flat(
            &points,
            |x: &[f64; N]| first_four(x),
            |x: &[f64; N]| first_four_grad(x),
        );
        let (_, d_x) = first_four_grad(&points[0]);
        assert_eq!(d_x[4..], [0.0, 0.0]);
    }
}

/// Calls to `#[differentiable]` functions inside loops and with array arguments.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod calls {
    use crate::common::{GradCheck, cube};
    use crate::products::{self, COLS, ROWS};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn bump(x: f64) -> f64 {
        x * x.sin()
    }

    /// A scalar call per iteration whose argument depends on the carried sum.
    #[differentiable]
    pub fn sum_of_bumps(x: &[f64; 5]) -> f64 {
        let mut s = 0.0;
        for i in 0..5 {
            s += bump(x[i] * s + 1.0);
        }
        s
    }

    #[test]
    fn scalar_call_in_a_loop() {
        GradCheck::new("sum_of_bumps").flat(
            &cube::<5>(80, 20, -1.0, 1.0),
            |x: &[f64; 5]| sum_of_bumps(x),
            |x: &[f64; 5]| sum_of_bumps_grad(x),
        );
    }

    /// A const-generic callee on a local array that the loop overwrites after each call.
    #[differentiable]
    pub fn dot_in_a_loop(x: &[f64; 3], b: &[f64; 3]) -> f64 {
        let mut h = [x[0], x[1] * x[2], x[2]];
        let mut s = 0.0;
        for k in 0..4 {
            let d = products::dot::<3>(&h, b);
            s += d.tanh() * (k as f64 + 1.0);
            for i in 0..3 {
                h[i] = (h[i] * d + b[i]).sin();
            }
        }
        s
    }

    #[test]
    fn const_generic_call_in_a_loop() {
        GradCheck::new("dot_in_a_loop").flat(
            &cube::<6>(81, 20, -1.5, 1.5),
            |(x, b): &([f64; 3], [f64; 3])| dot_in_a_loop(x, b),
            |(x, b): &([f64; 3], [f64; 3])| dot_in_a_loop_grad(x, b),
        );
    }

    /// By-reference parameters passed on as they are; the callee returns an array.
    #[differentiable]
    pub fn through_matvec(w: &[[f64; COLS]; ROWS], x: &[f64; COLS]) -> f64 {
        let y: [f64; ROWS] = products::matvec(w, x);
        y[0] * y[1] + y[1].exp()
    }

    #[test]
    fn array_returning_call() {
        type Inputs = ([[f64; COLS]; ROWS], [f64; COLS]);
        GradCheck::new("through_matvec").flat(
            &cube::<{ ROWS * COLS + COLS }>(82, 20, -1.0, 1.0),
            |(w, x): &Inputs| through_matvec(w, x),
            |(w, x): &Inputs| through_matvec_grad(w, x),
        );
    }

    /// An array-valued callee with a tape of its own, an array literal of expressions.
    #[differentiable]
    pub fn squash(v: &[f64; 2]) -> [f64; 2] {
        [v[0].tanh(), (v[0] * v[1]).sin() + v[1]]
    }

    /// `squash_forward_into`, the form a caller that keeps the value calls, writes what
    /// `squash` returns (its output starts as NaN) and records the tape the adjoint reads.
    #[test]
    fn squash_forward_into_writes_the_value_and_the_tape() {
        const SEED: [f64; 2] = [0.7, -1.3];
        const { assert!(SquashTape::BYTES > 0) };
        GradCheck::new("squash_forward_into").flat(
            &cube::<2>(15, 20, -2.0, 2.0),
            |v: &[f64; 2]| crate::common::weighted(&SEED, &squash(v)),
            |v: &[f64; 2]| {
                let mut tape = SquashTape::new();
                let mut y = [f64::NAN; 2];
                squash_forward_into(v, &mut tape, &mut y);
                let mut d_v = [0.0; 2];
                squash_adjoint(v, &tape, &SEED, &mut d_v);
                (crate::common::weighted(&SEED, &y), d_v)
            },
        );
    }

    /// Four calls to `squash` on a state the loop overwrites: one `SquashTape` per iteration.
    #[differentiable]
    pub fn squash_chain(x: &[f64; 4], v: &[f64; 2]) -> f64 {
        let mut h = [v[0], v[1]];
        for k in 0..4 {
            let y: [f64; 2] = squash(&h);
            h[0] = y[0] + x[k];
            h[1] = y[1] * x[k];
        }
        h[0] * h[1]
    }

    #[test]
    fn array_returning_call_in_a_loop() {
        GradCheck::new("squash_chain").flat(
            &cube::<6>(83, 20, -1.2, 1.2),
            |(x, v): &([f64; 4], [f64; 2])| squash_chain(x, v),
            |(x, v): &([f64; 4], [f64; 2])| squash_chain_grad(x, v),
        );
    }
    /// Variables overwritten by calls that do not read them, whole and one row at a time: the
    /// callee's adjoint takes their cotangents directly, and they are reset after the call.
    #[differentiable]
    pub fn overwritten_by_calls(x: &[f64; 4], v: &[f64; 2]) -> f64 {
        let mut y = [v[0], v[1]];
        let mut rows = [[0.0; 2]; 2];
        let mut total = 0.0;
        for k in 0..4 {
            total += y[0] * y[1];
            let u = [x[k] + y[1], v[1] * x[k]];
            y = squash(&u);
            rows[k % 2] = squash(&y);
            total += y[0] * rows[0][1] + rows[1][0] * y[1];
        }
        total
    }

    #[test]
    fn variables_overwritten_by_calls() {
        GradCheck::new("overwritten_by_calls").flat(
            &cube::<6>(84, 20, -1.2, 1.2),
            |(x, v): &([f64; 4], [f64; 2])| overwritten_by_calls(x, v),
            |(x, v): &([f64; 4], [f64; 2])| overwritten_by_calls_grad(x, v),
        );
    }
}

/// The companions' contract: `f_forward` computes `f`, adjoints accumulate and scale with
/// `d_out`, and the tape size is exact and copies no input.
mod contract {
    use crate::calls::{SquashChainTape, squash_chain_adjoint, squash_chain_forward};
    use crate::common::{assert_close, cube, flatten, unflatten};
    use crate::mlp::Mlp;
    use crate::products::{COLS, DotTape, INNER, MatmulTape, ROWS, matmul, matmul_forward};
    use crate::recurrences::{
        HIDDEN, RnnTape, RnnVectorTape, STEPS, rnn, rnn_forward, rnn_vector, rnn_vector_adjoint,
        rnn_vector_forward,
    };
    use crate::structs::{MlpTape, mlp, mlp_adjoint, mlp_forward};
    use core::mem::size_of;

    #[test]
    fn forward_returns_the_primal_value() {
        for point in cube::<{ STEPS + 2 }>(90, 5, -1.2, 1.2) {
            let (x, w, u): ([f64; STEPS], f64, f64) = unflatten(&point);
            let mut tape = RnnTape::new();
            assert_eq!(rnn_forward(&x, w, u, &mut tape), rnn(&x, w, u));
        }
        for point in cube::<{ ROWS * INNER + INNER * COLS }>(91, 5, -2.0, 2.0) {
            let (a, b) = unflatten(&point);
            let mut tape = MatmulTape::new();
            assert_eq!(matmul_forward(&a, &b, &mut tape), matmul(&a, &b));
        }
        for point in cube::<{ 4 * 3 + 2 * 4 + 1 + 3 + 1 }>(92, 5, -1.5, 1.5) {
            let (p, x, y): (Mlp, [f64; 3], f64) = unflatten(&point);
            let mut tape = MlpTape::new();
            assert_eq!(mlp_forward(&p, &x, y, &mut tape), mlp(&p, &x, y));
        }
    }

    /// A second `f_adjoint` on the same tape adds the same gradient again, and a seed `d_out`
    /// scales it.
    #[test]
    fn adjoints_accumulate_and_scale() {
        type Inputs = ([f64; STEPS], [[f64; HIDDEN]; HIDDEN], [f64; HIDDEN]);
        const LEN: usize = STEPS + HIDDEN * HIDDEN + HIDDEN;
        let point = cube::<LEN>(93, 1, -0.9, 0.9)[0];
        let (x, w, u): Inputs = unflatten(&point);
        let mut tape = RnnVectorTape::new();
        let value = rnn_vector_forward(&x, &w, &u, &mut tape);
        assert_eq!(value, rnn_vector(&x, &w, &u));
        let adjoint = |d_out: f64, d: &mut Inputs| {
            rnn_vector_adjoint(&x, &w, &u, &tape, d_out, &mut d.0, &mut d.1, &mut d.2);
        };
        let mut once: Inputs = unflatten(&[0.0; LEN]);
        adjoint(1.0, &mut once);
        let mut twice = once;
        adjoint(1.0, &mut twice);
        let mut scaled: Inputs = unflatten(&[0.0; LEN]);
        adjoint(-2.5, &mut scaled);
        let (once, twice, scaled) = (
            flatten::<_, LEN>(&once),
            flatten::<_, LEN>(&twice),
            flatten::<_, LEN>(&scaled),
        );
        assert!(
            once.iter().all(|&g| g != 0.0),
            "every input matters: {once:?}"
        );
        for i in 0..LEN {
            assert_close("second adjoint", twice[i], 2.0 * once[i], 1e-14);
            assert_close("d_out = -2.5", scaled[i], -2.5 * once[i], 1e-14);
        }
    }

    /// Struct gradients accumulate field by field, and array seeds of array outputs scale too.
    #[test]
    fn struct_and_array_seed_adjoints_accumulate() {
        let point = cube::<{ 4 * 3 + 2 * 4 + 1 + 3 + 1 }>(94, 1, -1.5, 1.5)[0];
        let (p, x, y): (Mlp, [f64; 3], f64) = unflatten(&point);
        let mut tape = MlpTape::new();
        mlp_forward(&p, &x, y, &mut tape);
        let (mut d_p, mut d_x, mut d_y) = (Mlp::default(), [0.0; 3], 0.0);
        mlp_adjoint(&p, &x, y, &tape, 1.0, &mut d_p, &mut d_x, &mut d_y);
        let once = flatten::<_, 25>(&(d_p.clone(), d_x, d_y));
        mlp_adjoint(&p, &x, y, &tape, 1.0, &mut d_p, &mut d_x, &mut d_y);
        let twice = flatten::<_, 25>(&(d_p, d_x, d_y));
        for i in 0..25 {
            assert_close("mlp, second adjoint", twice[i], 2.0 * once[i], 1e-14);
        }

        let (x, v) = ([0.3, -0.7, 1.1, 0.4], [0.2, -0.5]);
        let mut tape = SquashChainTape::new();
        squash_chain_forward(&x, &v, &mut tape);
        let (mut d_x, mut d_v) = ([0.0; 4], [0.0; 2]);
        squash_chain_adjoint(&x, &v, &tape, 1.0, &mut d_x, &mut d_v);
        let once = flatten::<_, 6>(&(d_x, d_v));
        squash_chain_adjoint(&x, &v, &tape, 3.0, &mut d_x, &mut d_v);
        let four_times = flatten::<_, 6>(&(d_x, d_v));
        for i in 0..6 {
            assert_close("squash_chain, 1 + 3", four_times[i], 4.0 * once[i], 1e-14);
        }
    }

    #[test]
    fn tape_bytes_are_exact_and_hold_no_inputs() {
        assert_eq!(DotTape::<3>::BYTES, size_of::<DotTape<3>>());
        assert_eq!(RnnTape::BYTES, size_of::<RnnTape>());
        assert_eq!(RnnVectorTape::BYTES, size_of::<RnnVectorTape>());
        assert_eq!(MlpTape::BYTES, size_of::<MlpTape>());
        assert_eq!(MatmulTape::BYTES, size_of::<MatmulTape>());
        // A dot product needs only its inputs, which stay alive: nothing is recorded at any size.
        assert_eq!(DotTape::<3>::BYTES, 0);
        assert_eq!(DotTape::<1024>::BYTES, 0);
        // Summing into `c[i][j]` needs no recorded value either.
        assert_eq!(MatmulTape::BYTES, 0);
        // The RNN's reverse sweep needs the 51 states h_0 .. h_50 (h_t for tanh' and h_{t-1} for
        // d_w): at most 51 floats. The 50 inputs are not copied.
        assert!(
            RnnTape::BYTES <= (STEPS + 1) * size_of::<f64>(),
            "{}",
            RnnTape::BYTES
        );
    }
}

/// `f32` arrays, against an `f64` twin of the function.
#[allow(clippy::needless_range_loop)] // index loops are the construct under test
mod single_precision {
    use crate::common::{GradCheck, cube, round_to_f32};
    use stackgrad::differentiable;

    #[differentiable]
    pub fn layer32(w: &[[f32; 3]; 2], x: &[f32; 3]) -> f32 {
        let mut s = 0.0;
        for i in 0..2 {
            let mut z = 0.0;
            for j in 0..3 {
                z += w[i][j] * x[j];
            }
            s += z.tanh();
        }
        s
    }

    /// [`layer32`] in `f64`: the reference.
    fn layer64(w: &[[f64; 3]; 2], x: &[f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..2 {
            let mut z = 0.0;
            for j in 0..3 {
                z += w[i][j] * x[j];
            }
            s += z.tanh();
        }
        s
    }

    #[test]
    fn f32_matrix_parameter() {
        type Inputs = ([[f64; 3]; 2], [f64; 3]);
        GradCheck::new("layer32").f32().flat(
            &round_to_f32(cube::<9>(100, 20, -1.5, 1.5)),
            |(w, x): &Inputs| layer64(w, x),
            |(w, x): &Inputs| {
                let (value, gradient) =
                    layer32_grad(&w.map(|row| row.map(|v| v as f32)), &x.map(|v| v as f32));
                (f64::from(value), gradient)
            },
        );
    }
}
