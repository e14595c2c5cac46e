//! `#[derive(Parameters)]` and Adam in a `#![no_std]` crate without `alloc`.
#![no_std]

#[cfg(test)]
extern crate std;

use autodiff_macros::Parameters;
use autodiff_runtime::Parameters as _;
use autodiff_runtime::optim::{Adam, AdamConfig, Optimizer};

/// A dense layer.
#[derive(Parameters)]
#[parameters(crate = "autodiff_runtime")]
pub struct Layer<const I: usize, const O: usize> {
    /// Weights, shape `[O, I]`.
    pub w: [[f32; I]; O],
    /// Biases.
    pub b: [f32; O],
}

/// Two layers in an array, so names look like `layers.1.w`.
#[derive(Parameters)]
#[parameters(crate = "autodiff_runtime")]
pub struct Net {
    /// The layers.
    pub layers: [Layer<2, 2>; 2],
}

/// Minimises `sum (p - 1)^2 / 2` over every parameter of `Net` with Adam; returns the final loss.
pub fn fit(steps: usize) -> f32 {
    let mut net = Net::zeroed();
    let mut grads = Net::zeroed();
    let mut adam = Adam::new(AdamConfig {
        lr: 0.1,
        ..AdamConfig::default()
    })
    .unwrap();
    let mut loss = 0.0;
    for _ in 0..steps {
        loss = 0.0;
        for k in 0..Net::TENSORS {
            if let (Some(p), Some(g)) = (net.tensor(k), grads.tensor_mut(k)) {
                for (g, p) in g.iter_mut().zip(p) {
                    *g = p - 1.0;
                    loss += *g * *g / 2.0;
                }
            }
        }
        adam.step(&mut net, &grads);
    }
    loss
}

#[cfg(test)]
mod tests {
    #[test]
    fn adam_fits_in_no_std() {
        // 12 parameters start at 0: initial loss 6.
        assert_eq!(super::fit(1), 6.0);
        assert!(super::fit(300) < 1e-3);
    }
}
