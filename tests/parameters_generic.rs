//! `#[derive(Parameters)]` on const-generic structs whose arrays exceed 32 elements: the derive's
//! `Default` (std's `#[derive(Default)]` stops at 32) is what `f_grad` needs for a struct gradient.

// Index loops, as the differentiated code and its hand-written gradient both read.
#![allow(clippy::needless_range_loop)]

use stackgrad::{Parameters, differentiable};

/// A one-hidden-layer network with `H` hidden units; `w1` is stored `[4][H]` (inputs outer), as in
/// the issue's `w: [[f32; H]; 4]`.
#[derive(Parameters, Clone, Debug, PartialEq)]
pub struct Mlp<const H: usize> {
    pub w1: [[f32; H]; 4],
    pub b1: [f32; H],
    pub w2: [f32; H],
    pub b2: f32,
}

/// `y = b2 + sum_j w2[j] tanh(b1[j] + sum_i w1[i][j] x[i])`.
#[differentiable(wrt(p))]
pub fn mlp<const H: usize>(p: &Mlp<H>, x: &[f32; 4]) -> f32 {
    let mut y = p.b2;
    for j in 0..H {
        let mut h = p.b1[j];
        for i in 0..4 {
            h += p.w1[i][j] * x[i];
        }
        y += p.w2[j] * h.tanh();
    }
    y
}

/// Generic over the float type too, with an array of 33 nested structs.
#[derive(Parameters, Debug, PartialEq)]
pub struct Stack<F, const N: usize> {
    pub layers: [Scale<F, N>; 33],
    pub bias: [F; 40],
}

#[derive(Parameters, Debug, PartialEq)]
pub struct Scale<F, const N: usize> {
    pub g: [F; N],
}

/// A struct with its own `Default` opts out of the derived one.
#[derive(Parameters, Debug, PartialEq)]
#[parameters(no_default)]
pub struct Custom {
    pub w: [f64; 2],
}

impl Default for Custom {
    fn default() -> Self {
        Custom { w: [1.0, 2.0] }
    }
}

/// Deterministic, varied parameters: no two entries alike.
fn filled<const H: usize>() -> Mlp<H> {
    let mut p = Mlp::<H>::default();
    let mut k = 0.0f32;
    p.for_each_mut(|v| {
        k += 1.0;
        *v = 0.5 * (0.37 * k).sin();
    });
    p
}

/// The gradient of `mlp` written out by hand, in f64.
fn reference<const H: usize>(p: &Mlp<H>, x: &[f32; 4]) -> (f64, Vec<f64>) {
    let x = x.map(f64::from);
    let mut y = f64::from(p.b2);
    let mut grads = (vec![[0.0; H]; 4], vec![0.0; H], vec![0.0; H]);
    for j in 0..H {
        let pre = f64::from(p.b1[j]) + (0..4).map(|i| f64::from(p.w1[i][j]) * x[i]).sum::<f64>();
        let t = pre.tanh();
        y += f64::from(p.w2[j]) * t;
        grads.2[j] = t;
        let d_pre = f64::from(p.w2[j]) * (1.0 - t * t);
        grads.1[j] = d_pre;
        for i in 0..4 {
            grads.0[i][j] = d_pre * x[i];
        }
    }
    let mut flat: Vec<f64> = grads.0.iter().flatten().copied().collect();
    flat.extend(&grads.1);
    flat.extend(&grads.2);
    flat.push(1.0);
    (y, flat)
}

fn check_grad<const H: usize>() {
    let p = filled::<H>();
    let x = [0.3, -1.2, 0.8, 0.05];
    let (value, grad) = mlp_grad::<H>(&p, &x);
    assert_eq!(value, mlp::<H>(&p, &x));
    let (want_value, want) = reference(&p, &x);
    let mut got = Vec::new();
    grad.for_each_tensor(|_, _, v| got.extend(v.iter().map(|x| f64::from(*x))));
    assert_eq!(got.len(), want.len());
    assert!(
        (f64::from(value) - want_value).abs() <= 1e-5 * want_value.abs().max(1.0),
        "value {value} vs {want_value}"
    );
    let worst = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (g - w).abs() / w.abs().max(1.0))
        .fold(0.0, f64::max);
    assert!(
        worst <= 1e-5,
        "H = {H}: worst relative difference {worst:e}; first entries {:?} vs {:?}",
        &got[..4],
        &want[..4]
    );
}

#[test]
fn f_grad_of_a_const_generic_struct_larger_than_32() {
    check_grad::<40>();
    check_grad::<33>();
    // Small sizes still work.
    check_grad::<3>();
}

#[test]
fn default_is_the_zero_constructor_for_any_size() {
    assert_eq!(Mlp::<40>::default(), Mlp::<40>::zeroed());
    let mut count = 0;
    Mlp::<40>::default().for_each_mut(|v| {
        assert_eq!(*v, 0.0);
        count += 1;
    });
    assert_eq!(count, 4 * 40 + 40 + 40 + 1);
    assert_eq!(Mlp::<40>::COUNT, count);

    let s = Stack::<f64, 50>::default();
    assert_eq!(s, Stack::<f64, 50>::zeroed());
    assert_eq!(Stack::<f64, 50>::COUNT, 33 * 50 + 40);
    assert!(s.layers.iter().all(|l| l.g == [0.0; 50]));

    assert_eq!(Custom::default().w, [1.0, 2.0]);
    assert_eq!(Custom::zeroed().w, [0.0, 0.0]);
}
