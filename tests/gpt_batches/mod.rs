//! The GPT tests' data (threads in `tests/parallel_gpt.rs`, MPI ranks in `tests/mpi.rs`): random
//! windows of the bundled tiny-shakespeare from one seed, so every thread and rank sees the same
//! batches.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use stackgrad::runtime::data::{bundled, fill_windows};

/// `n` random batches of `NB` windows of `T` tokens, flattened to `NR = NB * T` rows.
pub fn batches<const T: usize, const NB: usize, const NR: usize>(
    n: usize,
) -> Vec<([usize; NR], [usize; NR])> {
    let corpus = bundled::tinyshakespeare(bundled::data_dir().join("tinyshakespeare/input.txt"))
        .expect("the bundled tiny-shakespeare");
    let (train, _) = corpus.split(0.9);
    let mut rng = SmallRng::seed_from_u64(7);
    (0..n)
        .map(|_| {
            let (mut x, mut y) = ([[0usize; T]; NB], [[0usize; T]; NB]);
            fill_windows(train, &mut x, &mut y, &mut rng).expect("the text is longer than T");
            let flat = |rows: [[usize; T]; NB]| -> [usize; NR] {
                rows.as_flattened().try_into().expect("NR = NB * T")
            };
            (flat(x), flat(y))
        })
        .collect()
}
