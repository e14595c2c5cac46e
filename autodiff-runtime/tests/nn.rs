//! The `nn` ops against independent `f64` references: values, and adjoints against central finite
//! differences of the reference. Each test also checks that `op_forward` returns exactly the value
//! of `op` and that the adjoint accumulates (a second call doubles the gradient).

use autodiff_runtime::nn::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Step of the central differences, in `f64`: truncation error `~h² = 1e-12`, rounding error
/// `~1e-16 / h = 1e-10`, both far below the tolerance.
const H: f64 = 1e-6;

/// Tolerance for an `f32` value or gradient against the `f64` reference, relative above 1. Each
/// entry here is a sum of at most a few hundred `O(1)` products, so its `f32` rounding error is at
/// most about `300 * 6e-8 ≈ 2e-5`; a wrong derivative rule is off by `O(0.1)` or more.
const TOL: f32 = 1e-4;

/// Fixed-size `f32` arrays of any depth: random, zeroed, flattened.
trait Tensor: Sized {
    fn random(rng: &mut SmallRng) -> Self;
    fn zeroed() -> Self;
    fn push_to(&self, out: &mut Vec<f32>);

    fn flat(&self) -> Vec<f32> {
        let mut out = Vec::new();
        self.push_to(&mut out);
        out
    }
}

impl Tensor for f32 {
    fn random(rng: &mut SmallRng) -> Self {
        rng.gen_range(-1.0..1.0)
    }
    fn zeroed() -> Self {
        0.0
    }
    fn push_to(&self, out: &mut Vec<f32>) {
        out.push(*self);
    }
}

impl<T: Tensor, const N: usize> Tensor for [T; N] {
    fn random(rng: &mut SmallRng) -> Self {
        core::array::from_fn(|_| T::random(rng))
    }
    fn zeroed() -> Self {
        core::array::from_fn(|_| T::zeroed())
    }
    fn push_to(&self, out: &mut Vec<f32>) {
        for x in self {
            x.push_to(out);
        }
    }
}

fn close(a: f32, reference: f64, tol: f32) -> bool {
    (f64::from(a) - reference).abs() <= f64::from(tol) * reference.abs().max(1.0)
}

/// Panics, showing the first entries and the largest difference, unless every `got[i]` is within
/// `tol` of `want[i]`.
fn assert_close(what: &str, got: &[f32], want: &[f64], tol: f32) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    let worst = (0..got.len())
        .map(|i| (i, (f64::from(got[i]) - want[i]).abs()))
        .fold((0, 0.0), |w, d| if d.1 > w.1 { d } else { w });
    if !got.iter().zip(want).all(|(&g, &w)| close(g, w, tol)) {
        let n = got.len().min(6);
        panic!(
            "{what}: mismatch\n  first entries: {:?}\n  expected:      {:?}\n  largest difference {:.3e} at {}: {} vs {}",
            &got[..n],
            &want[..n],
            worst.1,
            worst.0,
            got[worst.0],
            want[worst.0]
        );
    }
}

/// An op's value and gradients against its `f64` reference `f`: `value` must match `f(inputs)`,
/// and `grads[j]` must match the central differences of `Σ d_out · f` with respect to input `j`.
fn check(
    op: &str,
    inputs: &[Vec<f32>],
    d_out: &[f32],
    value: &[f32],
    grads: &[Vec<f32>],
    f: impl Fn(&[Vec<f64>]) -> Vec<f64>,
) {
    let mut x: Vec<Vec<f64>> = inputs
        .iter()
        .map(|v| v.iter().map(|&x| f64::from(x)).collect())
        .collect();
    assert_close(&format!("{op}: value"), value, &f(&x), TOL);
    let loss = |x: &[Vec<f64>]| -> f64 {
        let y = f(x);
        assert_eq!(y.len(), d_out.len(), "{op}: reference output length");
        y.iter().zip(d_out).map(|(y, &d)| y * f64::from(d)).sum()
    };
    assert_eq!(grads.len(), inputs.len(), "{op}: one gradient per input");
    for (j, grad) in grads.iter().enumerate() {
        let mut fd = Vec::with_capacity(grad.len());
        for e in 0..x[j].len() {
            let x0 = x[j][e];
            x[j][e] = x0 + H;
            let up = loss(&x);
            x[j][e] = x0 - H;
            let down = loss(&x);
            x[j][e] = x0;
            fd.push((up - down) / (2.0 * H));
        }
        assert_close(&format!("{op}: gradient of input {j}"), grad, &fd, TOL);
    }
}

/// The gradient buffers of an op: a tuple of tensors.
trait Grads {
    fn zeroed() -> Self;
    fn flats(&self) -> Vec<Vec<f32>>;
}

impl<A: Tensor> Grads for (A,) {
    fn zeroed() -> Self {
        (A::zeroed(),)
    }
    fn flats(&self) -> Vec<Vec<f32>> {
        vec![self.0.flat()]
    }
}

impl<A: Tensor, B: Tensor> Grads for (A, B) {
    fn zeroed() -> Self {
        (A::zeroed(), B::zeroed())
    }
    fn flats(&self) -> Vec<Vec<f32>> {
        vec![self.0.flat(), self.1.flat()]
    }
}

impl<A: Tensor, B: Tensor, C: Tensor> Grads for (A, B, C) {
    fn zeroed() -> Self {
        (A::zeroed(), B::zeroed(), C::zeroed())
    }
    fn flats(&self) -> Vec<Vec<f32>> {
        vec![self.0.flat(), self.1.flat(), self.2.flat()]
    }
}

/// Runs `adjoint` twice on the same buffers, zeroed at first: the second call must double the
/// gradient, and the first must not be zero (so an adjoint that assigns instead of adding cannot
/// pass). Returns the gradient of the first call.
fn run_adjoint<G: Grads>(op: &str, mut adjoint: impl FnMut(&mut G)) -> Vec<Vec<f32>> {
    let mut g = G::zeroed();
    adjoint(&mut g);
    let once = g.flats();
    adjoint(&mut g);
    for (j, (once, twice)) in once.iter().zip(g.flats()).enumerate() {
        assert!(
            once.iter().any(|&g| g != 0.0),
            "{op}: gradient of input {j} is zero"
        );
        let doubled: Vec<f64> = once.iter().map(|&g| 2.0 * f64::from(g)).collect();
        let what = format!("{op}: second adjoint call, input {j}");
        assert_close(&what, &twice, &doubled, 1e-6);
    }
    once
}

impl<A: Tensor, B: Tensor, C: Tensor, D: Tensor> Grads for (A, B, C, D) {
    fn zeroed() -> Self {
        (A::zeroed(), B::zeroed(), C::zeroed(), D::zeroed())
    }
    fn flats(&self) -> Vec<Vec<f32>> {
        vec![self.0.flat(), self.1.flat(), self.2.flat(), self.3.flat()]
    }
}

impl<A: Tensor, B: Tensor, C: Tensor, D: Tensor, E: Tensor, F: Tensor> Grads
    for (A, B, C, D, E, F)
{
    fn zeroed() -> Self {
        (
            A::zeroed(),
            B::zeroed(),
            C::zeroed(),
            D::zeroed(),
            E::zeroed(),
            F::zeroed(),
        )
    }
    fn flats(&self) -> Vec<Vec<f32>> {
        vec![
            self.0.flat(),
            self.1.flat(),
            self.2.flat(),
            self.3.flat(),
            self.4.flat(),
            self.5.flat(),
        ]
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

fn check_linear<const R: usize, const I: usize, const O: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let x: [[f32; I]; R] = Tensor::random(&mut rng);
    let w: [[f32; I]; O] = Tensor::random(&mut rng);
    let b: [f32; O] = Tensor::random(&mut rng);
    let d_out: [[f32; O]; R] = Tensor::random(&mut rng);
    let mut tape = LinearTape::new();
    let y = linear_forward(&x, &w, &b, &mut tape);
    assert_eq!(y, linear(&x, &w, &b));
    let once = run_adjoint(
        "linear",
        |g: &mut ([[f32; I]; R], [[f32; I]; O], [f32; O])| {
            linear_adjoint(&x, &w, &b, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2);
        },
    );
    let inputs = [x.flat(), w.flat(), b.flat()];
    check("linear", &inputs, &d_out.flat(), &y.flat(), &once, |p| {
        let (x, w, b) = (&p[0], &p[1], &p[2]);
        let mut y = Vec::new();
        for r in 0..R {
            for o in 0..O {
                y.push(dot(&x[r * I..][..I], &w[o * I..][..I]) + b[o]);
            }
        }
        y
    });
}

fn check_linear_relu<const R: usize, const I: usize, const O: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let x: [[f32; I]; R] = Tensor::random(&mut rng);
    let w: [[f32; I]; O] = Tensor::random(&mut rng);
    let b: [f32; O] = Tensor::random(&mut rng);
    let d_out: [[f32; O]; R] = Tensor::random(&mut rng);
    let mut tape = LinearReluTape::new();
    let y = linear_relu_forward(&x, &w, &b, &mut tape);
    assert_eq!(y, linear_relu(&x, &w, &b));
    assert_eq!(
        y,
        relu(&linear(&x, &w, &b)),
        "the fused op is linear then relu"
    );
    let flags = tape.active.as_flattened();
    assert!(
        flags.iter().any(|&a| a) && flags.iter().any(|&a| !a),
        "both sides of the ReLU"
    );
    let once = run_adjoint(
        "linear_relu",
        |g: &mut ([[f32; I]; R], [[f32; I]; O], [f32; O])| {
            linear_relu_adjoint(&x, &w, &b, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2);
        },
    );
    let inputs = [x.flat(), w.flat(), b.flat()];
    check(
        "linear_relu",
        &inputs,
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            let (x, w, b) = (&p[0], &p[1], &p[2]);
            let mut y = Vec::new();
            for r in 0..R {
                for o in 0..O {
                    y.push((dot(&x[r * I..][..I], &w[o * I..][..I]) + b[o]).max(0.0));
                }
            }
            y
        },
    );
}

fn check_linear_add<const R: usize, const I: usize, const O: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let x: [[f32; I]; R] = Tensor::random(&mut rng);
    let w: [[f32; I]; O] = Tensor::random(&mut rng);
    let b: [f32; O] = Tensor::random(&mut rng);
    let res: [[f32; O]; R] = Tensor::random(&mut rng);
    let d_out: [[f32; O]; R] = Tensor::random(&mut rng);
    let mut tape = LinearAddTape::new();
    let y = linear_add_forward(&x, &w, &b, &res, &mut tape);
    assert_eq!(y, linear_add(&x, &w, &b, &res));
    assert_eq!(
        y,
        residual_add(&res, &linear(&x, &w, &b)),
        "the fused op is linear then residual_add, bit for bit"
    );
    type G<const R: usize, const I: usize, const O: usize> =
        ([[f32; I]; R], [[f32; I]; O], [f32; O], [[f32; O]; R]);
    let once = run_adjoint("linear_add", |g: &mut G<R, I, O>| {
        linear_add_adjoint(
            &x, &w, &b, &res, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2, &mut g.3,
        );
    });
    let inputs = [x.flat(), w.flat(), b.flat(), res.flat()];
    check(
        "linear_add",
        &inputs,
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            let (x, w, b, res) = (&p[0], &p[1], &p[2], &p[3]);
            let mut y = Vec::new();
            for r in 0..R {
                for o in 0..O {
                    y.push(res[r * O + o] + dot(&x[r * I..][..I], &w[o * I..][..I]) + b[o]);
                }
            }
            y
        },
    );
}

/// The inputs of `feed_forward_add`, `(x, w1, b1, w2, b2, res)`, and the cotangents its adjoint adds
/// into, of the same shapes.
type FeedForwardGrads<const R: usize, const C: usize, const F: usize> = (
    [[f32; C]; R],
    [[f32; C]; F],
    [f32; F],
    [[f32; F]; C],
    [f32; C],
    [[f32; C]; R],
);

/// Random values of the six shapes, drawn in order: `feed_forward_add`'s inputs (then, drawn
/// next, a cotangent of its output), or the values its adjoint's buffers start from.
fn random_feed_forward<const R: usize, const C: usize, const F: usize>(
    rng: &mut SmallRng,
) -> FeedForwardGrads<R, C, F> {
    (
        Tensor::random(rng),
        Tensor::random(rng),
        Tensor::random(rng),
        Tensor::random(rng),
        Tensor::random(rng),
        Tensor::random(rng),
    )
}

fn check_feed_forward_add<const R: usize, const C: usize, const F: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (x, w1, b1, w2, b2, res) = random_feed_forward::<R, C, F>(&mut rng);
    let d_out: [[f32; C]; R] = Tensor::random(&mut rng);
    let mut tape = FeedForwardAddTape::new();
    let y = feed_forward_add_forward(&x, &w1, &b1, &w2, &b2, &res, &mut tape);
    assert_eq!(y, feed_forward_add(&x, &w1, &b1, &w2, &b2, &res));
    let hidden = linear_relu(&x, &w1, &b1);
    assert_eq!(
        y,
        linear_add(&hidden, &w2, &b2, &res),
        "the fused op is linear_relu then linear_add, bit for bit"
    );
    assert_eq!(tape.hidden, hidden, "the tape keeps the hidden activation");
    let h = tape.hidden.as_flattened();
    assert!(
        h.iter().any(|&h| h > 0.0) && h.contains(&0.0),
        "both sides of the ReLU"
    );
    let once = run_adjoint("feed_forward_add", |g: &mut FeedForwardGrads<R, C, F>| {
        feed_forward_add_adjoint(
            &x, &w1, &b1, &w2, &b2, &res, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2, &mut g.3,
            &mut g.4, &mut g.5,
        );
    });
    let inputs = [
        x.flat(),
        w1.flat(),
        b1.flat(),
        w2.flat(),
        b2.flat(),
        res.flat(),
    ];
    check(
        "feed_forward_add",
        &inputs,
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            let (x, w1, b1, w2, b2, res) = (&p[0], &p[1], &p[2], &p[3], &p[4], &p[5]);
            let mut y = Vec::new();
            for r in 0..R {
                let hidden: Vec<f64> = (0..F)
                    .map(|f| (dot(&x[r * C..][..C], &w1[f * C..][..C]) + b1[f]).max(0.0))
                    .collect();
                for c in 0..C {
                    y.push(res[r * C + c] + dot(&hidden, &w2[c * F..][..F]) + b2[c]);
                }
            }
            y
        },
    );
}

#[test]
fn feed_forward_add_gradients() {
    check_feed_forward_add::<3, 4, 5>(7);
    // Rows and widths that cross the kernels' 8-row and 8-column edges.
    check_feed_forward_add::<9, 16, 40>(8);
}

/// `feed_forward_add_adjoint` runs the rows in blocks (64, then 8, then 1): every cotangent must
/// have the bits of the unfused ops' adjoints over the whole batch, accumulated onto buffers that
/// already hold values. 139 rows = two blocks of 64, one of 8 and three single rows.
#[test]
fn feed_forward_add_adjoint_in_blocks_is_the_unfused_ops_bit_for_bit() {
    const R: usize = 139;
    const C: usize = 16;
    const F: usize = 40;
    type G = FeedForwardGrads<R, C, F>;
    let mut rng = SmallRng::seed_from_u64(11);
    let (x, w1, b1, w2, b2, res) = random_feed_forward::<R, C, F>(&mut rng);
    let d_out: [[f32; C]; R] = Tensor::random(&mut rng);
    let start: G = random_feed_forward(&mut rng);
    let mut tape = FeedForwardAddTape::new();
    let _ = feed_forward_add_forward(&x, &w1, &b1, &w2, &b2, &res, &mut tape);
    let mut fused = start;
    feed_forward_add_adjoint(
        &x,
        &w1,
        &b1,
        &w2,
        &b2,
        &res,
        &tape,
        &d_out,
        &mut fused.0,
        &mut fused.1,
        &mut fused.2,
        &mut fused.3,
        &mut fused.4,
        &mut fused.5,
    );
    let mut relu_tape = LinearReluTape::new();
    let hidden = linear_relu_forward(&x, &w1, &b1, &mut relu_tape);
    let mut unfused = start;
    let mut d_hidden = [[0.0; F]; R];
    linear_add_adjoint(
        &hidden,
        &w2,
        &b2,
        &res,
        &LinearAddTape::new(),
        &d_out,
        &mut d_hidden,
        &mut unfused.3,
        &mut unfused.4,
        &mut unfused.5,
    );
    linear_relu_adjoint(
        &x,
        &w1,
        &b1,
        &relu_tape,
        &d_hidden,
        &mut unfused.0,
        &mut unfused.1,
        &mut unfused.2,
    );
    let bits = |g: &G| -> Vec<Vec<u32>> {
        g.flats()
            .iter()
            .map(|v| v.iter().map(|x| x.to_bits()).collect())
            .collect()
    };
    assert_eq!(bits(&fused), bits(&unfused));
}

#[test]
fn linear_add_gradients() {
    check_linear_add::<3, 4, 5>(5);
    // Crosses the kernel's panel depth (128) and its 4-row and 8-column edges.
    check_linear_add::<9, 130, 24>(6);
}

#[test]
fn linear_relu_gradients() {
    check_linear_relu::<3, 4, 5>(3);
    check_linear_relu::<9, 24, 40>(4);
}

#[test]
fn linear_gradients() {
    check_linear::<3, 4, 5>(1);
    // Crosses the kernel's panel depth (128) and its 4-row and 8-column edges.
    check_linear::<5, 130, 9>(2);
}

fn check_matmul<const M: usize, const K: usize, const N: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let a: [[f32; K]; M] = Tensor::random(&mut rng);
    let b: [[f32; N]; K] = Tensor::random(&mut rng);
    let d_out: [[f32; N]; M] = Tensor::random(&mut rng);
    let mut tape = MatmulTape::new();
    let y = matmul_forward(&a, &b, &mut tape);
    assert_eq!(y, matmul(&a, &b));
    let once = run_adjoint("matmul", |g: &mut ([[f32; K]; M], [[f32; N]; K])| {
        matmul_adjoint(&a, &b, &tape, &d_out, &mut g.0, &mut g.1);
    });
    check(
        "matmul",
        &[a.flat(), b.flat()],
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            let (a, b) = (&p[0], &p[1]);
            let mut y = Vec::new();
            for i in 0..M {
                for j in 0..N {
                    y.push((0..K).map(|p| a[i * K + p] * b[p * N + j]).sum());
                }
            }
            y
        },
    );
}

#[test]
fn matmul_gradients() {
    check_matmul::<3, 4, 5>(3);
    check_matmul::<5, 130, 9>(4);
    check_matmul::<9, 3, 17>(5);
}

/// The inputs of the row-wise tests: 3 rows of `C`.
type Rows<const C: usize> = [[f32; C]; 3];

/// An op from [3][C] to [3][C] against its `f64` reference on the flattened rows.
fn check_rowwise<Tape, const C: usize>(
    op: &str,
    seed: u64,
    value: fn(&Rows<C>) -> Rows<C>,
    forward: fn(&Rows<C>, &mut Tape) -> Rows<C>,
    adjoint: fn(&Rows<C>, &Tape, &Rows<C>, &mut Rows<C>),
    tape: &mut Tape,
    reference: impl Fn(&[f64]) -> Vec<f64>,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    // Scaled to [-3, 3] to reach the saturating parts of tanh, sigmoid and gelu.
    let x = Rows::<C>::random(&mut rng).map(|r| r.map(|x| 3.0 * x));
    let d_out: Rows<C> = Tensor::random(&mut rng);
    let y = forward(&x, tape);
    assert_eq!(y, value(&x), "{op}: forward and primal differ");
    let once = run_adjoint(op, |g: &mut (Rows<C>,)| {
        adjoint(&x, tape, &d_out, &mut g.0);
    });
    check(op, &[x.flat()], &d_out.flat(), &y.flat(), &once, |p| {
        reference(&p[0])
    });
}

/// Applies a scalar function to every entry.
fn each(f: fn(f64) -> f64) -> impl Fn(&[f64]) -> Vec<f64> {
    move |x| x.iter().map(|&x| f(x)).collect()
}

#[test]
fn activation_gradients() {
    fn gelu64(x: f64) -> f64 {
        let u = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x.powi(3));
        0.5 * x * (1.0 + u.tanh())
    }
    let tape = &mut ReluTape::<3, 4>::new();
    check_rowwise(
        "relu",
        6,
        relu,
        relu_forward,
        relu_adjoint,
        tape,
        each(|x| x.max(0.0)),
    );
    let tape = &mut GeluTape::<3, 4>::new();
    check_rowwise(
        "gelu",
        7,
        gelu,
        gelu_forward,
        gelu_adjoint,
        tape,
        each(gelu64),
    );
    let tape = &mut TanhTape::<3, 4>::new();
    check_rowwise(
        "tanh",
        8,
        tanh,
        tanh_forward,
        tanh_adjoint,
        tape,
        each(f64::tanh),
    );
    let (value, forward, adjoint) = (sigmoid, sigmoid_forward, sigmoid_adjoint);
    let tape = &mut SigmoidTape::<3, 4>::new();
    check_rowwise(
        "sigmoid",
        9,
        value,
        forward,
        adjoint,
        tape,
        each(|x| 1.0 / (1.0 + (-x).exp())),
    );
}

/// `f64` softmax of each `C`-long row of `x`.
fn softmax64<const C: usize>(x: &[f64]) -> Vec<f64> {
    x.chunks(C)
        .flat_map(|row| {
            let z: f64 = row.iter().map(|x| x.exp()).sum();
            row.iter().map(move |x| x.exp() / z)
        })
        .collect()
}

#[test]
fn softmax_gradients() {
    let (value, forward, adjoint) = (softmax, softmax_forward, softmax_adjoint);
    let tape = &mut SoftmaxTape::<3, 5>::new();
    check_rowwise("softmax", 10, value, forward, adjoint, tape, softmax64::<5>);
    let (value, forward, adjoint) = (log_softmax, log_softmax_forward, log_softmax_adjoint);
    let tape = &mut LogSoftmaxTape::<3, 5>::new();
    check_rowwise("log_softmax", 11, value, forward, adjoint, tape, |x| {
        softmax64::<5>(x).iter().map(|p| p.ln()).collect()
    });
}

#[test]
fn cross_entropy_gradients() {
    let mut rng = SmallRng::seed_from_u64(12);
    let logits: [[f32; 5]; 3] = Tensor::random(&mut rng);
    let targets = [4, 0, 2];
    let d_out = 0.7f32;
    let mut tape = CrossEntropyTape::new();
    let loss = cross_entropy_forward(&logits, &targets, &mut tape);
    assert_eq!(loss, cross_entropy(&logits, &targets));
    let once = run_adjoint("cross_entropy", |g: &mut ([[f32; 5]; 3],)| {
        cross_entropy_adjoint(&logits, &targets, &tape, d_out, &mut g.0);
    });
    check(
        "cross_entropy",
        &[logits.flat()],
        &[d_out],
        &[loss],
        &once,
        |p| {
            let probs = softmax64::<5>(&p[0]);
            let nll: f64 = (0..3).map(|r| -probs[r * 5 + targets[r]].ln()).sum();
            vec![nll / 3.0]
        },
    );
}

/// Logits `[1, 2, 3]` and target 2: `loss = ln(e + e² + e³) - 3 = ln(1 + e⁻¹ + e⁻²)`, and
/// `d loss / d logits = softmax - one_hot(2)`; shifting the logits by 1000 changes nothing.
#[test]
fn cross_entropy_closed_form() {
    let e = std::f64::consts::E;
    let loss = (1.0 + 1.0 / e + 1.0 / (e * e)).ln();
    let z = e + e * e + e * e * e;
    let grad = [e / z, e * e / z, e * e * e / z - 1.0];
    for shift in [0.0f32, 1000.0] {
        let logits = [[1.0 + shift, 2.0 + shift, 3.0 + shift]];
        let mut tape = CrossEntropyTape::new();
        let got = cross_entropy_forward(&logits, &[2], &mut tape);
        assert_close("closed-form loss", &[got], &[loss], 1e-6);
        let mut d = [[0.0f32; 3]];
        cross_entropy_adjoint(&logits, &[2], &tape, 1.0, &mut d);
        assert_close("closed-form gradient", &d[0], &grad, 1e-6);
    }
    // The mean over rows: uniform logits give ln V for each row.
    let uniform = cross_entropy(&[[0.0f32; 7]; 4], &[0, 6, 3, 3]);
    assert_close("uniform logits", &[uniform], &[7f64.ln()], 1e-6);
}

#[test]
#[should_panic(expected = "target 5 of row 1 is out of range for 5 classes")]
fn cross_entropy_rejects_a_target_out_of_range() {
    let _ = cross_entropy(&[[0.0f32; 5]; 2], &[0, 5]);
}

#[test]
fn mse_gradients() {
    let mut rng = SmallRng::seed_from_u64(13);
    let pred: [[f32; 4]; 3] = Tensor::random(&mut rng);
    let target: [[f32; 4]; 3] = Tensor::random(&mut rng);
    let d_out = -1.3f32;
    let mut tape = MseTape::new();
    let loss = mse_forward(&pred, &target, &mut tape);
    assert_eq!(loss, mse(&pred, &target));
    let once = run_adjoint("mse", |g: &mut ([[f32; 4]; 3], [[f32; 4]; 3])| {
        mse_adjoint(&pred, &target, &tape, d_out, &mut g.0, &mut g.1);
    });
    let inputs = [pred.flat(), target.flat()];
    check("mse", &inputs, &[d_out], &[loss], &once, |p| {
        let sum: f64 = p[0].iter().zip(&p[1]).map(|(a, b)| (a - b).powi(2)).sum();
        vec![sum / 12.0]
    });
}

/// Rows of 5 channels (no full group of eight lanes) and of 21 (two groups and five more).
#[test]
fn layer_norm_gradients() {
    layer_norm_case::<5>(14);
    layer_norm_case::<21>(24);
}

fn layer_norm_case<const C: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let x: [[f32; C]; 3] = Tensor::random(&mut rng);
    let gain: [f32; C] = Tensor::random(&mut rng);
    let bias: [f32; C] = Tensor::random(&mut rng);
    let d_out: [[f32; C]; 3] = Tensor::random(&mut rng);
    let mut tape = LayerNormTape::new();
    let y = layer_norm_forward(&x, &gain, &bias, &mut tape);
    assert_eq!(y, layer_norm(&x, &gain, &bias));
    let once = run_adjoint(
        "layer_norm",
        |g: &mut ([[f32; C]; 3], [f32; C], [f32; C])| {
            layer_norm_adjoint(
                &x, &gain, &bias, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2,
            );
        },
    );
    let inputs = [x.flat(), gain.flat(), bias.flat()];
    check(
        "layer_norm",
        &inputs,
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            let (x, gain, bias) = (&p[0], &p[1], &p[2]);
            x.chunks(C)
                .flat_map(|row| {
                    let mean = row.iter().sum::<f64>() / C as f64;
                    let var = row.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / C as f64;
                    let std = (var + 1e-5).sqrt();
                    (0..C).map(move |c| (row[c] - mean) / std * gain[c] + bias[c])
                })
                .collect()
        },
    );
}

#[test]
fn embedding_gradients() {
    const C: usize = 3;
    let mut rng = SmallRng::seed_from_u64(15);
    let table: [[f32; C]; 6] = Tensor::random(&mut rng);
    let ids = [4, 1, 4, 0]; // a repeated id, and rows 2, 3, 5 unused
    let d_out: [[f32; C]; 4] = Tensor::random(&mut rng);
    let mut tape = EmbeddingTape::new();
    let y = embedding_forward(&table, &ids, &mut tape);
    assert_eq!(y, embedding(&table, &ids));
    let once = run_adjoint("embedding", |g: &mut ([[f32; C]; 6],)| {
        embedding_adjoint(&table, &ids, &tape, &d_out, &mut g.0);
    });
    check(
        "embedding",
        &[table.flat()],
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            ids.iter()
                .flat_map(|&i| p[0][i * C..][..C].to_vec())
                .collect()
        },
    );
}

#[test]
fn token_position_embedding_gradients() {
    const C: usize = 3;
    const T: usize = 2;
    let mut rng = SmallRng::seed_from_u64(16);
    let tokens: [[f32; C]; 6] = Tensor::random(&mut rng);
    let positions: [[f32; C]; T] = Tensor::random(&mut rng);
    let ids = [4, 1, 4, 0, 2, 4]; // three sequences of two
    let d_out: [[f32; C]; 6] = Tensor::random(&mut rng);
    let mut tape = TokenPositionEmbeddingTape::new();
    let y = token_position_embedding_forward(&tokens, &positions, &ids, &mut tape);
    assert_eq!(y, token_position_embedding(&tokens, &positions, &ids));
    let once = run_adjoint(
        "token_position_embedding",
        |g: &mut ([[f32; C]; 6], [[f32; C]; T])| {
            token_position_embedding_adjoint(
                &tokens, &positions, &ids, &tape, &d_out, &mut g.0, &mut g.1,
            );
        },
    );
    check(
        "token_position_embedding",
        &[tokens.flat(), positions.flat()],
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| {
            let (tokens, positions) = (&p[0], &p[1]);
            (0..ids.len())
                .flat_map(|r| {
                    (0..C).map(move |c| tokens[ids[r] * C + c] + positions[(r % T) * C + c])
                })
                .collect()
        },
    );
}

#[test]
#[should_panic(expected = "id 6 at position 2 is out of range for a table of 6 rows")]
fn embedding_rejects_an_id_out_of_range() {
    let _ = embedding(&[[0.0f32; 2]; 6], &[0, 5, 6]);
}

#[test]
fn residual_add_gradients() {
    let mut rng = SmallRng::seed_from_u64(16);
    let a: [[f32; 4]; 3] = Tensor::random(&mut rng);
    let b: [[f32; 4]; 3] = Tensor::random(&mut rng);
    let d_out: [[f32; 4]; 3] = Tensor::random(&mut rng);
    let mut tape = ResidualAddTape::new();
    let y = residual_add_forward(&a, &b, &mut tape);
    assert_eq!(y, residual_add(&a, &b));
    let once = run_adjoint("residual_add", |g: &mut ([[f32; 4]; 3], [[f32; 4]; 3])| {
        residual_add_adjoint(&a, &b, &tape, &d_out, &mut g.0, &mut g.1);
    });
    check(
        "residual_add",
        &[a.flat(), b.flat()],
        &d_out.flat(),
        &y.flat(),
        &once,
        |p| p[0].iter().zip(&p[1]).map(|(a, b)| a + b).collect(),
    );
}

/// Causal self-attention by the textbook formula in `f64`, on `B` sequences of `T` tokens whose
/// `H * D` channels (token-major, flat) are `H` heads of size `D`.
fn attention64<const B: usize, const T: usize, const H: usize, const D: usize>(
    p: &[Vec<f64>],
) -> Vec<f64> {
    let at = |x: &[f64], b: usize, t: usize, h: usize| -> Vec<f64> {
        x[((b * T + t) * H + h) * D..][..D].to_vec()
    };
    let (q, k, v) = (&p[0], &p[1], &p[2]);
    let mut y = vec![0.0; B * T * H * D];
    for b in 0..B {
        for t in 0..T {
            for h in 0..H {
                let scores: Vec<f64> = (0..=t)
                    .map(|s| dot(&at(q, b, t, h), &at(k, b, s, h)) / (D as f64).sqrt())
                    .collect();
                let z: f64 = scores.iter().map(|s| s.exp()).sum();
                for (s, score) in scores.iter().enumerate() {
                    let weight = score.exp() / z;
                    for (d, v) in at(v, b, s, h).iter().enumerate() {
                        y[((b * T + t) * H + h) * D + d] += weight * v;
                    }
                }
            }
        }
    }
    y
}

#[test]
fn causal_self_attention_gradients() {
    const B: usize = 2;
    const T: usize = 4;
    const H: usize = 2;
    const D: usize = 3;
    type Qkv = [[[[f32; D]; H]; T]; B];
    let mut rng = SmallRng::seed_from_u64(17);
    let (q, k, v): (Qkv, Qkv, Qkv) = (
        Tensor::random(&mut rng),
        Tensor::random(&mut rng),
        Tensor::random(&mut rng),
    );
    let d_out: Qkv = Tensor::random(&mut rng);
    let mut tape = CausalSelfAttentionTape::new();
    let y = causal_self_attention_forward(&q, &k, &v, &mut tape);
    assert_eq!(y, causal_self_attention(&q, &k, &v));
    let once = run_adjoint("causal_self_attention", |g: &mut (Qkv, Qkv, Qkv)| {
        causal_self_attention_adjoint(&q, &k, &v, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2);
    });
    let inputs = [q.flat(), k.flat(), v.flat()];
    check(
        "causal_self_attention",
        &inputs,
        &d_out.flat(),
        &y.flat(),
        &once,
        attention64::<B, T, H, D>,
    );
    // probs[b][s][h][t]: the first query of each sequence attends only to itself, in every head;
    // no query sees a later key.
    for probs in &tape.probs {
        for (s, heads) in probs.iter().enumerate() {
            for p in heads {
                assert_eq!(p[0], if s == 0 { 1.0 } else { 0.0 });
                assert!(p[..s].iter().all(|&p| p == 0.0));
            }
        }
    }
}

/// The rows layout: the same numbers as `[R][C]`, against the same reference, for `B` sequences
/// of `T` tokens and `H` heads of size `D` (`R = B T` rows of `C = H D` channels).
fn check_attention_rows<
    const B: usize,
    const T: usize,
    const H: usize,
    const D: usize,
    const R: usize,
    const C: usize,
>(
    seed: u64,
) {
    type Rows<const R: usize, const C: usize> = [[f32; C]; R];
    let mut rng = SmallRng::seed_from_u64(seed);
    let (q, k, v): (Rows<R, C>, Rows<R, C>, Rows<R, C>) = (
        Tensor::random(&mut rng),
        Tensor::random(&mut rng),
        Tensor::random(&mut rng),
    );
    let d_out: Rows<R, C> = Tensor::random(&mut rng);
    let mut tape = CausalSelfAttentionRowsTape::<T, H, D, R, C>::new();
    let y = causal_self_attention_rows_forward::<T, H, D, R, C>(&q, &k, &v, &mut tape);
    assert_eq!(y, causal_self_attention_rows::<T, H, D, R, C>(&q, &k, &v));
    let op = format!("causal_self_attention_rows T={T} H={H} D={D}");
    let once = run_adjoint(&op, |g: &mut (Rows<R, C>, Rows<R, C>, Rows<R, C>)| {
        causal_self_attention_rows_adjoint::<T, H, D, R, C>(
            &q, &k, &v, &tape, &d_out, &mut g.0, &mut g.1, &mut g.2,
        );
    });
    let inputs = [q.flat(), k.flat(), v.flat()];
    check(
        &op,
        &inputs,
        &d_out.flat(),
        &y.flat(),
        &once,
        attention64::<B, T, H, D>,
    );
    // The same numbers in the `[B][T][H][D]` layout give the same output, bit for bit.
    let split = |m: &Rows<R, C>| -> [[[[f32; D]; H]; T]; B] {
        core::array::from_fn(|b| {
            core::array::from_fn(|t| {
                core::array::from_fn(|h| core::array::from_fn(|d| m[b * T + t][h * D + d]))
            })
        })
    };
    let y4 = causal_self_attention(&split(&q), &split(&k), &split(&v));
    assert_eq!(y4.flat(), y.flat());
}

/// Both paths of the kernel: channels a multiple of 8 with `T = 8` (transposed in 8 x 8 register
/// blocks, as the GPT's `C = 24`) and any other shape (element by element).
#[test]
fn causal_self_attention_rows_gradients() {
    check_attention_rows::<3, 8, 3, 2, 24, 6>(18);
    check_attention_rows::<2, 8, 4, 4, 16, 16>(19);
    check_attention_rows::<2, 8, 6, 4, 16, 24>(20);
}

#[test]
fn tapes_are_exactly_what_the_adjoints_read() {
    assert_eq!(LinearTape::<64, 24, 96>::BYTES, 0);
    assert_eq!(GeluTape::<64, 96>::BYTES, 0);
    assert_eq!(LayerNormTape::<64, 24>::BYTES, 2 * 64 * 4);
    assert_eq!(CrossEntropyTape::<64, 65>::BYTES, 64 * 65 * 4);
    assert_eq!(
        CausalSelfAttentionTape::<64, 8, 6, 4>::BYTES,
        64 * 6 * 8 * 8 * 4
    );
    assert_eq!(
        CausalSelfAttentionRowsTape::<8, 6, 4, 512, 24>::BYTES,
        64 * 6 * 8 * 8 * 4
    );
    // The feed-forward network keeps its hidden activation and nothing else.
    assert_eq!(FeedForwardAddTape::<512, 24, 96>::BYTES, 512 * 96 * 4);
    const _: LayerNormTape<2, 3> = LayerNormTape::new(); // `new` is a `const fn`
}

/// `op_forward_into` against `op_forward`: the same output bit for bit, every element of `out`
/// overwritten (it starts as NaN), and the same tape.
#[test]
fn forward_into_writes_what_forward_returns() {
    fn same<Tp: core::fmt::Debug, const R: usize, const C: usize>(
        op: &str,
        forward: impl FnOnce(&mut Tp) -> [[f32; C]; R],
        into: impl FnOnce(&mut Tp, &mut [[f32; C]; R]),
        new_tape: impl Fn() -> Tp,
    ) {
        let (mut t1, mut t2) = (new_tape(), new_tape());
        let want = forward(&mut t1);
        let mut out = [[f32::NAN; C]; R];
        into(&mut t2, &mut out);
        let (out, want) = (out.flat(), want.flat());
        let differ = out
            .iter()
            .zip(&want)
            .filter(|(a, b)| a.to_bits() != b.to_bits());
        assert_eq!(differ.count(), 0, "{op}: output {out:?}, forward {want:?}");
        assert_eq!(format!("{t2:?}"), format!("{t1:?}"), "{op}: tape");
    }
    let mut rng = SmallRng::seed_from_u64(40);
    let x: [[f32; 24]; 16] = Tensor::random(&mut rng);
    let (k, v): ([[f32; 24]; 16], [[f32; 24]; 16]) =
        (Tensor::random(&mut rng), Tensor::random(&mut rng));
    let w: [[f32; 24]; 7] = Tensor::random(&mut rng);
    let b: [f32; 7] = Tensor::random(&mut rng);
    let res: [[f32; 7]; 16] = Tensor::random(&mut rng);
    let (g, c): ([f32; 24], [f32; 24]) = (Tensor::random(&mut rng), Tensor::random(&mut rng));
    let m: [[f32; 7]; 24] = Tensor::random(&mut rng);
    let ids: [usize; 16] = core::array::from_fn(|i| (i * 7) % 5);

    same(
        "linear",
        |t| linear_forward(&x, &w, &b, t),
        |t, o| linear_forward_into(&x, &w, &b, t, o),
        LinearTape::new,
    );
    same(
        "linear_relu",
        |t| linear_relu_forward(&x, &w, &b, t),
        |t, o| linear_relu_forward_into(&x, &w, &b, t, o),
        LinearReluTape::new,
    );
    same(
        "linear_add",
        |t| linear_add_forward(&x, &w, &b, &res, t),
        |t, o| linear_add_forward_into(&x, &w, &b, &res, t, o),
        LinearAddTape::new,
    );
    let w2: [[f32; 7]; 24] = Tensor::random(&mut rng);
    let b2: [f32; 24] = Tensor::random(&mut rng);
    same(
        "feed_forward_add",
        |t| feed_forward_add_forward(&x, &w, &b, &w2, &b2, &k, t),
        |t, o| feed_forward_add_forward_into(&x, &w, &b, &w2, &b2, &k, t, o),
        FeedForwardAddTape::new,
    );
    same(
        "matmul",
        |t| matmul_forward(&x, &m, t),
        |t, o| matmul_forward_into(&x, &m, t, o),
        MatmulTape::new,
    );
    same(
        "layer_norm",
        |t| layer_norm_forward(&x, &g, &c, t),
        |t, o| layer_norm_forward_into(&x, &g, &c, t, o),
        LayerNormTape::new,
    );
    same(
        "residual_add",
        |t| residual_add_forward(&x, &k, t),
        |t, o| residual_add_forward_into(&x, &k, t, o),
        ResidualAddTape::new,
    );
    same(
        "softmax",
        |t| softmax_forward(&x, t),
        |t, o| softmax_forward_into(&x, t, o),
        SoftmaxTape::new,
    );
    same(
        "log_softmax",
        |t| log_softmax_forward(&x, t),
        |t, o| log_softmax_forward_into(&x, t, o),
        LogSoftmaxTape::new,
    );
    same(
        "embedding",
        |t| embedding_forward::<5, 24, 16>(&k[..5].try_into().unwrap(), &ids, t),
        |t, o| embedding_forward_into::<5, 24, 16>(&k[..5].try_into().unwrap(), &ids, t, o),
        EmbeddingTape::new,
    );
    same(
        "token_position_embedding",
        |t| {
            token_position_embedding_forward::<5, 8, 24, 16>(
                &k[..5].try_into().unwrap(),
                &v[..8].try_into().unwrap(),
                &ids,
                t,
            )
        },
        |t, o| {
            token_position_embedding_forward_into::<5, 8, 24, 16>(
                &k[..5].try_into().unwrap(),
                &v[..8].try_into().unwrap(),
                &ids,
                t,
                o,
            )
        },
        TokenPositionEmbeddingTape::new,
    );
    same(
        "causal_self_attention_rows",
        |t| causal_self_attention_rows_forward::<8, 6, 4, 16, 24>(&x, &k, &v, t),
        |t, o| causal_self_attention_rows_forward_into::<8, 6, 4, 16, 24>(&x, &k, &v, t, o),
        CausalSelfAttentionRowsTape::new,
    );
    same(
        "relu",
        |t| relu_forward(&x, t),
        |t, o| relu_forward_into(&x, t, o),
        ReluTape::new,
    );
    same(
        "gelu",
        |t| gelu_forward(&x, t),
        |t, o| gelu_forward_into(&x, t, o),
        GeluTape::new,
    );
    same(
        "tanh",
        |t| tanh_forward(&x, t),
        |t, o| tanh_forward_into(&x, t, o),
        TanhTape::new,
    );
    same(
        "sigmoid",
        |t| sigmoid_forward(&x, t),
        |t, o| sigmoid_forward_into(&x, t, o),
        SigmoidTape::new,
    );
    // The batch layout of attention: [B][T][H][D], compared through the rows form's numbers.
    let split = |m: &[[f32; 24]; 16]| -> [[[[f32; 4]; 6]; 8]; 2] {
        core::array::from_fn(|b| {
            core::array::from_fn(|t| {
                core::array::from_fn(|h| core::array::from_fn(|d| m[b * 8 + t][h * 4 + d]))
            })
        })
    };
    let (q4, k4, v4) = (split(&x), split(&k), split(&v));
    let (mut t1, mut t2) = (
        CausalSelfAttentionTape::new(),
        CausalSelfAttentionTape::new(),
    );
    let want = causal_self_attention_forward(&q4, &k4, &v4, &mut t1);
    let mut out = [[[[f32::NAN; 4]; 6]; 8]; 2];
    causal_self_attention_forward_into(&q4, &k4, &v4, &mut t2, &mut out);
    assert_eq!(out.flat(), want.flat(), "causal_self_attention: output");
    assert_eq!(
        format!("{t2:?}"),
        format!("{t1:?}"),
        "causal_self_attention: tape"
    );
}
