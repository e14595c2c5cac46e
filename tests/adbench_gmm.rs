//! ADBench's GMM objective (tests/models/gmm.rs) under `#[differentiable]`: its gradient against
//! central finite differences on ADBench's own inputs (ADBench ships no reference gradients for
//! them), at the file's parameters and at seeded perturbations of them.

#![allow(clippy::needless_range_loop)] // index loops are how the objective is written

mod common;

use common::{GradCheck, unflatten};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "models/gmm.rs"]
mod gmm;

use gmm::*;

type Params<const D: usize, const K: usize, const Q: usize> =
    ([f64; K], [[f64; D]; K], [[f64; Q]; K]);

/// Points around the file's parameters: the first is the file's, the others move every
/// coordinate by up to `0.2`.
fn around<const P: usize>(start: [f64; P], count: usize, seed: u64) -> Vec<[f64; P]> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut points = vec![start];
    while points.len() < count {
        points.push(start.map(|v| v + rng.gen_range(-0.2..0.2)));
    }
    points
}

fn check<const D: usize, const K: usize, const N: usize, const Q: usize, const P: usize>(
    name: &'static str,
    file: &str,
) {
    let data: Gmm<D, K, N, Q> = load(format!(
        "{}/data/adbench/gmm/{file}",
        env!("CARGO_MANIFEST_DIR")
    ));
    let mut start = Vec::new();
    common::Flat::write(&(data.alphas, data.means, data.icf), &mut start);
    let start: [f64; P] = start.try_into().unwrap();
    let x = &*data.x;
    GradCheck::new(name).run(
        &around(start, 20, 7),
        |point| {
            let (alphas, means, icf): Params<D, K, Q> = unflatten(&point);
            gmm_objective::<D, K, N, Q>(&alphas, &means, &icf, x)
        },
        |point| {
            let (alphas, means, icf): Params<D, K, Q> = unflatten(&point);
            let mut tape = Box::new(GmmObjectiveTape::<D, K, N, Q>::new());
            let value = gmm_objective_forward::<D, K, N, Q>(&alphas, &means, &icf, x, &mut tape);
            let mut gradient: Params<D, K, Q> = ([0.0; K], [[0.0; D]; K], [[0.0; Q]; K]);
            gmm_objective_adjoint::<D, K, N, Q>(
                &alphas,
                &means,
                &icf,
                x,
                &tape,
                1.0,
                &mut gradient.0,
                &mut gradient.1,
                &mut gradient.2,
            );
            assert_eq!(value, gmm_objective::<D, K, N, Q>(&alphas, &means, &icf, x));
            (value, common::flatten(&gradient))
        },
    );
}

#[test]
fn unit_test_instance() {
    check::<2, 3, 1, 3, 18>("gmm d2 K3 n1", "gmm_test_d2_K3_n1.txt");
}

#[test]
fn thousand_points() {
    check::<2, 5, 1000, 3, 30>("gmm d2 K5 n1000", "gmm_1k_d2_K5.txt");
}
