//! Mini-batches in fixed-size arrays: `x: [[f32; D]; B]` (`B` rows of `D` features) and
//! `y: [usize; B]` labels.

use std::vec::Vec;

use rand::Rng;

use super::{DataError, DataErrorKind, Dataset};

/// What to do with the last rows of an epoch when fewer than `B` remain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastBatch {
    /// Skip them: every batch is full.
    Drop,
    /// Return them in a batch whose missing rows are zero features with label `0`;
    /// [`BatchLoader::next_batch`] says how many rows are real.
    Pad,
}

/// Walks a [`Dataset`] in mini-batches of `B` rows with `D` features, in a fresh random order each
/// epoch ([`shuffle`](BatchLoader::shuffle)) or in file order ([`rewind`](BatchLoader::rewind)).
///
/// The order depends only on the generator passed to `shuffle`, so a seeded generator gives the
/// same batches on every run.
///
/// # Examples
///
/// See [the module documentation](crate::data).
#[derive(Clone, Debug)]
pub struct BatchLoader<'a, const D: usize, const B: usize> {
    data: &'a Dataset,
    order: Vec<usize>,
    next: usize,
    last: LastBatch,
}

impl<'a, const D: usize, const B: usize> BatchLoader<'a, D, B> {
    /// A loader over `data` in file order.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::FeatureCount`] if `data` does not have `D` features per row;
    /// [`DataErrorKind::CountMismatch`] if its `features` do not hold `len() * D` values.
    pub fn new(data: &'a Dataset, last: LastBatch) -> Result<Self, DataError> {
        const { assert!(B > 0, "the batch size B must be positive") };
        if data.n_features != D {
            return Err(DataError::new(
                "<dataset>",
                DataErrorKind::FeatureCount {
                    expected: D,
                    found: data.n_features,
                },
            ));
        }
        // Fields that disagree (they are public): as many rows of features as labels?
        if data.len().checked_mul(D) != Some(data.features.len()) {
            return Err(DataError::new(
                "<dataset>",
                DataErrorKind::CountMismatch {
                    features: data.features.len() / D.max(1),
                    labels: data.len(),
                },
            ));
        }
        Ok(BatchLoader {
            data,
            order: (0..data.len()).collect(),
            next: 0,
            last,
        })
    }

    /// Starts a new epoch in a random order (Fisher-Yates, `len - 1` draws from `rng`).
    pub fn shuffle<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        for i in (1..self.order.len()).rev() {
            let j = rng.gen_range(0..=i);
            self.order.swap(i, j);
        }
        self.next = 0;
    }

    /// Starts a new epoch in the current order (file order if never shuffled).
    pub fn rewind(&mut self) {
        self.next = 0;
    }

    /// The current order of the rows (file order until the first [`shuffle`](BatchLoader::shuffle)),
    /// which the next `shuffle` permutes further: part of the state a resumed run needs
    /// ([`TrainState::insert_loader`](crate::checkpoint::TrainState::insert_loader)).
    #[must_use]
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// How many rows of [`order`](BatchLoader::order) this epoch has handed out.
    #[must_use]
    pub fn position(&self) -> usize {
        self.next
    }

    /// Sets the order and position, which the caller has checked: a permutation of the rows, and
    /// at most their number.
    pub(crate) fn set_order_and_position(&mut self, order: Vec<usize>, position: usize) {
        debug_assert!(order.len() == self.order.len() && position <= order.len());
        self.order = order;
        self.next = position;
    }

    /// Number of batches in an epoch.
    #[must_use]
    pub fn batches_per_epoch(&self) -> usize {
        match self.last {
            LastBatch::Drop => self.order.len() / B,
            LastBatch::Pad => self.order.len().div_ceil(B),
        }
    }

    /// Fills the next batch and returns how many of its rows are real (`B` except for a padded last
    /// batch), or `None` at the end of the epoch.
    pub fn next_batch(&mut self, x: &mut [[f32; D]; B], y: &mut [usize; B]) -> Option<usize> {
        let remaining = self.order.len() - self.next;
        let take = match (remaining, self.last) {
            (0, _) => return None,
            (r, LastBatch::Drop) if r < B => return None,
            (r, _) => r.min(B),
        };
        let rows = &self.order[self.next..self.next + take];
        for (b, (xb, yb)) in x.iter_mut().zip(y.iter_mut()).enumerate() {
            match rows
                .get(b)
                .and_then(|&i| Some((self.data.row(i)?, *self.data.labels.get(i)?)))
            {
                Some((features, label)) => {
                    xb.copy_from_slice(features);
                    *yb = label;
                }
                None => {
                    *xb = [0.0; D];
                    *yb = 0;
                }
            }
        }
        self.next += take;
        Some(take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::vec;

    /// Rows `i` with features `[i, 10 i]` and label `i % 3`.
    fn table(n: usize) -> Dataset {
        Dataset {
            features: (0..n).flat_map(|i| [i as f32, 10.0 * i as f32]).collect(),
            labels: (0..n).map(|i| i % 3).collect(),
            n_features: 2,
            n_classes: 3,
            class_names: vec![],
        }
    }

    /// Every (first feature, label) of one epoch, with the real-row counts.
    fn epoch(loader: &mut BatchLoader<'_, 2, 4>) -> (Vec<(f32, usize)>, Vec<usize>) {
        let (mut x, mut y) = ([[f32::NAN; 2]; 4], [usize::MAX; 4]);
        let (mut seen, mut counts) = (vec![], vec![]);
        while let Some(n) = loader.next_batch(&mut x, &mut y) {
            counts.push(n);
            seen.extend(x.iter().zip(&y).map(|(row, &label)| {
                assert!(
                    row[1] == 10.0 * row[0],
                    "row {row:?} is not a dataset row or zero padding"
                );
                (row[0], label)
            }));
        }
        (seen, counts)
    }

    #[test]
    fn pad_and_drop_last_batch() {
        let data = table(10);
        let mut pad = BatchLoader::<2, 4>::new(&data, LastBatch::Pad).unwrap();
        let (seen, counts) = epoch(&mut pad);
        assert_eq!(counts, [4, 4, 2]);
        assert_eq!(pad.batches_per_epoch(), 3);
        let expected: Vec<(f32, usize)> = (0..10)
            .map(|i| (i as f32, i % 3))
            .chain([(0.0, 0), (0.0, 0)])
            .collect();
        assert_eq!(seen, expected);

        let mut drop = BatchLoader::<2, 4>::new(&data, LastBatch::Drop).unwrap();
        let (seen, counts) = epoch(&mut drop);
        assert_eq!((counts, drop.batches_per_epoch()), (vec![4, 4], 2));
        assert_eq!(seen.len(), 8);
        drop.rewind();
        assert_eq!(epoch(&mut drop).1, [4, 4]);
    }

    #[test]
    fn shuffle_is_a_seeded_permutation_that_changes_per_epoch() {
        let data = table(10);
        let run = |seed| {
            let mut loader = BatchLoader::<2, 4>::new(&data, LastBatch::Pad).unwrap();
            let mut rng = SmallRng::seed_from_u64(seed);
            loader.shuffle(&mut rng);
            let first = epoch(&mut loader).0;
            loader.shuffle(&mut rng);
            (first, epoch(&mut loader).0)
        };
        let (a1, a2) = run(3);
        assert_eq!((a1.clone(), a2.clone()), run(3));
        assert_ne!(a1, a2, "each epoch should get a new order");
        let mut firsts: Vec<usize> = a1[..10].iter().map(|(f, _)| *f as usize).collect();
        assert_ne!(firsts, (0..10).collect::<Vec<_>>());
        firsts.sort_unstable();
        assert_eq!(firsts, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn features_that_disagree_with_the_labels_are_an_error() {
        // The message named the feature count twice ("expected 2 features per row, the data
        // has 2") where the rows were missing (found by a review).
        let mut data = table(3);
        data.features.pop();
        let err = BatchLoader::<2, 2>::new(&data, LastBatch::Drop).unwrap_err();
        assert!(matches!(
            err.kind,
            DataErrorKind::CountMismatch {
                features: 2,
                labels: 3
            }
        ));
    }

    #[test]
    fn wrong_feature_count_is_an_error() {
        let data = table(3);
        let err = BatchLoader::<5, 2>::new(&data, LastBatch::Drop).unwrap_err();
        assert!(matches!(
            err.kind,
            DataErrorKind::FeatureCount {
                expected: 5,
                found: 2
            }
        ));
    }
}
