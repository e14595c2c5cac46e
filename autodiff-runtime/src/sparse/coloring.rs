//! The distance-2 coloring of a pattern's columns.

use alloc::vec;
use alloc::vec::Vec;

use super::{Pattern, SparseError};

/// A distance-2 coloring of a pattern's columns: two columns with entries in a common row have
/// different colors, so the product with the seed of a color gives each entry of its columns
/// unmixed with others.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::sparse::{Coloring, Pattern};
///
/// // Tridiagonal: column j shares rows with j ± 1 and j ± 2, not with j ± 3.
/// let n: usize = 7;
/// let entries = (0..n).flat_map(|i| [i.saturating_sub(1), i, (i + 1).min(n - 1)].map(|j| (i, j)));
/// let pattern = Pattern::from_entries(n, n, entries)?;
/// let coloring = Coloring::new(&pattern);
/// assert_eq!((coloring.colors(), coloring.color_of(4)), (3, 1));
/// assert_eq!(coloring.seed(1), [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
/// coloring.check(&pattern)?;
/// # Ok::<(), autodiff_runtime::sparse::SparseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coloring {
    pub(super) color: Vec<usize>,
    pub(super) colors: usize,
}

impl Coloring {
    /// The greedy coloring in natural order: column `j = 0, 1, ...` takes the smallest color no
    /// column sharing a row with it has yet.
    ///
    /// Natural order rather than largest-degree-first: it is optimal on the structured
    /// Jacobians that matter most (`2b + 1` colors for a band of half-width `b`, 15 for bundle
    /// adjustment numbered as ADBench numbers it: cameras, points, weights), it is the same for
    /// the same pattern everywhere, and the caller steers it by numbering the columns. Cost:
    /// `O(Σ_i (entries of row i)² + n · colors)` time after a sort of the entries by column,
    /// `O(nnz)` memory.
    #[must_use]
    pub fn new(pattern: &Pattern) -> Coloring {
        let by_column = pattern.transpose();
        let mut color = vec![usize::MAX; pattern.cols];
        // `forbidden[c] == j`: a neighbour of column j has color c.
        let mut forbidden: Vec<usize> = Vec::new();
        for j in 0..pattern.cols {
            for &i in by_column.row(j) {
                for &k in pattern.row(i) {
                    if let Some(slot) = forbidden.get_mut(color[k]) {
                        *slot = j;
                    }
                }
            }
            let free = forbidden.iter().position(|&f| f != j);
            color[j] = free.unwrap_or(forbidden.len());
            if free.is_none() {
                forbidden.push(j);
            }
        }
        Coloring {
            color,
            colors: forbidden.len(),
        }
    }

    /// The number of colors `p`: the products needed.
    #[must_use]
    pub fn colors(&self) -> usize {
        self.colors
    }

    /// The color of column `col`.
    ///
    /// # Panics
    ///
    /// If `col` is not below the number of columns.
    #[must_use]
    #[track_caller]
    pub fn color_of(&self, col: usize) -> usize {
        assert!(
            col < self.color.len(),
            "column {col} of {}",
            self.color.len()
        );
        self.color[col]
    }

    /// The seed of color `c`, `n` long: 1 at its columns, 0 elsewhere. It is column `c` of the
    /// `n x p` seed matrix `S`, and `J S` is the compressed Jacobian.
    #[must_use]
    pub fn seed(&self, c: usize) -> Vec<f64> {
        self.color
            .iter()
            .map(|&k| if k == c { 1.0 } else { 0.0 })
            .collect()
    }

    /// Whether this is a valid coloring of `pattern`: as many columns, no two columns of one
    /// color in a row. Cost: `O(nnz + colors)`.
    ///
    /// # Errors
    ///
    /// [`SparseError::ColoringMismatch`] or the first [`SparseError::ColorConflict`].
    pub fn check(&self, pattern: &Pattern) -> Result<(), SparseError> {
        let (cols, colored) = (pattern.cols, self.color.len());
        if cols != colored {
            return Err(SparseError::ColoringMismatch { cols, colored });
        }
        // `last[c]`: the row and column color c was last seen in.
        let mut last = vec![(usize::MAX, 0); self.colors];
        for row in 0..pattern.rows() {
            for &j in pattern.row(row) {
                let color = self.color[j];
                if last[color].0 == row {
                    let cols = [last[color].1, j];
                    return Err(SparseError::ColorConflict { row, cols, color });
                }
                last[color] = (row, j);
            }
        }
        Ok(())
    }
}
