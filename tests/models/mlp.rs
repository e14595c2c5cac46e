//! A one-hidden-layer network's parameters as a struct, and their coordinates for the
//! finite-difference checks (`common::Flat`). Shared by `tests/array_gradients.rs` (a free
//! function taking `&Mlp`) and `tests/methods.rs` (the same network as methods of `Mlp`).

use crate::common::Flat;

pub const INPUTS: usize = 3;
pub const HIDDEN: usize = 4;
/// Every parameter.
pub const PARAMS: usize = HIDDEN * INPUTS + 2 * HIDDEN + 1;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mlp {
    pub w1: [[f64; INPUTS]; HIDDEN],
    pub b1: [f64; HIDDEN],
    pub w2: [f64; HIDDEN],
    pub b2: f64,
}

impl Flat for Mlp {
    fn read(coordinates: &mut &[f64]) -> Self {
        Mlp {
            w1: Flat::read(coordinates),
            b1: Flat::read(coordinates),
            w2: Flat::read(coordinates),
            b2: Flat::read(coordinates),
        }
    }

    fn write(&self, out: &mut Vec<f64>) {
        self.w1.write(out);
        self.b1.write(out);
        self.w2.write(out);
        self.b2.write(out);
    }
}
