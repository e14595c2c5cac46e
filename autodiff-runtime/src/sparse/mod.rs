//! Sparse Jacobians by column compression (feature `alloc`): an `m x n` Jacobian `J` from a few
//! Jacobian-vector products instead of `n`, when most of its entries are known to be zero.
//!
//! The recipe of the AD tools (Curtis, Powell and Reid for differences; ColPack with ADOL-C or
//! Tapenade for forward mode):
//!
//! 1. A [`Pattern`]: the entries of `J` that may be nonzero, in CSR form.
//! 2. A [`Coloring`]: the columns split into groups ("colors") in which no two columns share a
//!    row. The seed of color `c`, `s_c`, is the sum of the unit vectors of its columns.
//! 3. [`jacobian_lanes`] (or [`jacobian`]): the products `J s_c` from a closure (forward mode,
//!    such as `#[differentiable(jvp)]`, or a difference of `f` along `s_c`), `W` directions per
//!    call, and the recovery: `j` is the only column of its color in row `i`, so
//!    `J[i][j] = (J s_c)[i]` with `c` the color of `j`. The result is a [`Csr`].
//!
//! The number of colors `p` is at least the largest number of entries in a row: `2b + 1` for a
//! band of half-width `b` whatever `n`, 15 for bundle adjustment ([`ba_pattern`]), but `n` for a
//! Jacobian with a dense row (an arrowhead), where compressing rows in reverse mode would be the
//! tool (not offered here). When the caller has the small dense blocks of `J` already,
//! [`CsrBuilder`] assembles them without any product.
//!
//! Layout of a block of `W` directions: one `[f64; W]` per component (lane `l` of element `j` is
//! component `j` of direction `l`): each row of the seed matrix is one array. The products come
//! back the same way, one array per row of `J`.
//!
//! # Examples
//!
//! `f_i(x) = x_i² + sin(x_{i+1})` (the last without the sine): a bidiagonal `J`, two colors for
//! any `n`, so one call with two lanes.
//!
//! ```
//! use autodiff_runtime::sparse::{self, Coloring, Pattern};
//!
//! let n = 6;
//! let x: [f64; 6] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
//! // J[i][i] = 2 x_i, J[i][i + 1] = cos(x_{i+1}); (5, 5) twice is one entry.
//! let pattern = Pattern::from_entries(n, n, (0..n).flat_map(|i| [(i, i), (i, (i + 1).min(n - 1))]))?;
//! let coloring = Coloring::new(&pattern);
//! assert_eq!(coloring.colors(), 2); // even columns, odd columns
//! let mut calls = 0;
//! let jvp = |v: &[[f64; 2]], out: &mut [[f64; 2]]| {
//!     calls += 1;
//!     for i in 0..n {
//!         for l in 0..2 {
//!             let next = if i + 1 < n { x[i + 1].cos() * v[i + 1][l] } else { 0.0 };
//!             out[i][l] = 2.0 * x[i] * v[i][l] + next;
//!         }
//!     }
//! };
//! let j = sparse::jacobian_lanes(&pattern, &coloring, jvp)?;
//! assert_eq!(calls, 1);
//! assert_eq!((j.get(2, 2), j.get(2, 3)), (Some(2.0 * x[2]), Some(x[3].cos())));
//! assert_eq!(j.get(2, 4), None); // outside the pattern: zero
//! # Ok::<(), sparse::SparseError>(())
//! ```

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// Why a pattern, a colored sweep or a block assembly failed, with the offending index and its
/// bound.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum SparseError {
    /// Entry `(row, col)` has a row not below `rows`.
    RowOutOfRange { row: usize, col: usize, rows: usize },
    /// A column not below `cols`, given for `row` (a block's first row; for a range, its last
    /// column).
    ColOutOfRange { row: usize, col: usize, cols: usize },
    /// The coloring is of `colored` columns, the pattern has `cols`.
    ColoringMismatch { cols: usize, colored: usize },
    /// Two columns of one color share a row: the coloring is of another pattern.
    ColorConflict {
        row: usize,
        cols: [usize; 2],
        color: usize,
    },
    /// A product is nonzero (and finite) in a row with no column of the direction's color: `J`
    /// has an entry outside the pattern. (An entry missing from a row that has another column
    /// of its color goes unseen: it adds into that column's value.)
    NotInPattern {
        row: usize,
        color: usize,
        value: f64,
    },
    /// Range `range` of block `block` (from 0, in the order of the calls) ends before it starts
    /// or starts before the previous one ends.
    RangesNotIncreasing { block: usize, range: usize },
    /// Block `block` has `rows` rows of `width` columns, but `values` values.
    BlockShape {
        block: usize,
        rows: usize,
        width: usize,
        values: usize,
    },
    /// An observation's camera is not below `cameras` or its point not below `points`.
    BadObservation {
        observation: usize,
        seen: (usize, usize),
        bounds: (usize, usize),
    },
    /// The number of columns overflows `usize`.
    TooLarge,
}

impl fmt::Display for SparseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SparseError::*;
        match *self {
            RowOutOfRange { row, col, rows } => {
                write!(
                    f,
                    "row {row} (entry ({row}, {col})) is out of range for {rows} rows"
                )
            }
            ColOutOfRange { row, col, cols } => {
                write!(
                    f,
                    "column {col} (in row {row}) is out of range for {cols} columns"
                )
            }
            ColoringMismatch { cols, colored } => {
                write!(
                    f,
                    "the coloring is of {colored} columns, the pattern has {cols}"
                )
            }
            ColorConflict {
                row,
                cols: [a, b],
                color,
            } => write!(
                f,
                "columns {a} and {b} share row {row} and color {color}: a coloring of another pattern"
            ),
            NotInPattern { row, color, value } => write!(
                f,
                "the product of color {color} is {value:e} in row {row}, which has no column of \
                 that color: the pattern misses an entry of row {row}"
            ),
            RangesNotIncreasing { block, range } => write!(
                f,
                "range {range} of block {block} ends before it starts or before the previous one ends"
            ),
            BlockShape {
                block,
                rows,
                width,
                values,
            } => {
                write!(
                    f,
                    "block {block} has {rows} rows of {width} columns but {values} values"
                )
            }
            BadObservation {
                observation,
                seen: (c, q),
                bounds: (cs, qs),
            } => write!(
                f,
                "observation {observation} sees camera {c} of {cs} and point {q} of {qs}"
            ),
            TooLarge => write!(f, "the number of columns overflows usize"),
        }
    }
}

impl core::error::Error for SparseError {}

/// The sparsity pattern of an `m x n` matrix in CSR form: row `i` holds the columns
/// `col_indices()[row_offsets()[i]..row_offsets()[i + 1]]`, increasing and without repeats.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::sparse::Pattern;
///
/// let a = Pattern::from_entries(2, 4, [(1, 3), (0, 2), (1, 0), (0, 2)])?;
/// let mut b = Pattern::new(4);
/// b.push_row([2])?;
/// b.push_row([3, 0])?;
/// assert_eq!(a, b);
/// assert_eq!((a.rows(), a.cols(), a.nnz(), a.row(1)), (2, 4, 3, &[0, 3][..]));
/// assert_eq!((a.row_offsets(), a.col_indices()), (&[0, 1, 3][..], &[2, 0, 3][..]));
/// # Ok::<(), autodiff_runtime::sparse::SparseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    cols: usize,
    row_offsets: Vec<usize>,
    col_indices: Vec<usize>,
}

impl Pattern {
    /// No rows yet, `cols` columns: add rows with [`push_row`](Pattern::push_row).
    #[must_use]
    pub fn new(cols: usize) -> Pattern {
        Pattern {
            cols,
            row_offsets: vec![0],
            col_indices: Vec::new(),
        }
    }

    /// Appends a row with these columns (any order, repeats counted once); returns its index.
    ///
    /// # Errors
    ///
    /// [`SparseError::ColOutOfRange`] for the first column not below `cols()`, leaving the
    /// pattern as it was.
    pub fn push_row(
        &mut self,
        cols: impl IntoIterator<Item = usize>,
    ) -> Result<usize, SparseError> {
        let (row, start) = (self.rows(), self.col_indices.len());
        self.col_indices.extend(cols);
        let new = &mut self.col_indices[start..];
        if let Some(&col) = new.iter().find(|&&j| j >= self.cols) {
            self.col_indices.truncate(start);
            return Err(SparseError::ColOutOfRange {
                row,
                col,
                cols: self.cols,
            });
        }
        new.sort_unstable();
        let mut end = start;
        for k in start..self.col_indices.len() {
            if end == start || self.col_indices[end - 1] != self.col_indices[k] {
                self.col_indices[end] = self.col_indices[k];
                end += 1;
            }
        }
        self.col_indices.truncate(end);
        self.row_offsets.push(end);
        Ok(row)
    }

    /// The pattern of `rows x cols` with these `(row, col)` entries, in any order, repeats
    /// counted once. Cost: a sort of the entries.
    ///
    /// # Errors
    ///
    /// [`SparseError::RowOutOfRange`] or [`SparseError::ColOutOfRange`] for the first entry
    /// outside the matrix.
    pub fn from_entries(
        rows: usize,
        cols: usize,
        entries: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Pattern, SparseError> {
        let entries: Vec<(usize, usize)> = entries.into_iter().collect();
        if let Some(&(row, col)) = entries.iter().find(|&&(i, j)| i >= rows || j >= cols) {
            return Err(if row >= rows {
                SparseError::RowOutOfRange { row, col, rows }
            } else {
                SparseError::ColOutOfRange { row, col, cols }
            });
        }
        Ok(Pattern::from_valid(rows, cols, entries))
    }

    /// [`Pattern::from_entries`] for entries known to be in range.
    fn from_valid(rows: usize, cols: usize, mut entries: Vec<(usize, usize)>) -> Pattern {
        entries.sort_unstable();
        entries.dedup();
        let mut row_offsets = vec![0; rows + 1];
        for &(i, _) in &entries {
            row_offsets[i + 1] += 1;
        }
        for i in 0..rows {
            row_offsets[i + 1] += row_offsets[i];
        }
        let col_indices = entries.into_iter().map(|(_, j)| j).collect();
        Pattern {
            cols,
            row_offsets,
            col_indices,
        }
    }

    /// The number of rows, `m`.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.row_offsets.len() - 1
    }

    /// The number of columns, `n`.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The number of entries.
    #[must_use]
    pub fn nnz(&self) -> usize {
        self.col_indices.len()
    }

    /// The columns of row `i`, increasing.
    ///
    /// # Panics
    ///
    /// If `i >= rows()`.
    #[must_use]
    #[track_caller]
    pub fn row(&self, i: usize) -> &[usize] {
        assert!(i < self.rows(), "row {i} of {} rows", self.rows());
        &self.col_indices[self.row_offsets[i]..self.row_offsets[i + 1]]
    }

    /// Where each row starts in [`col_indices`](Pattern::col_indices), then `nnz()`: `m + 1`.
    #[must_use]
    pub fn row_offsets(&self) -> &[usize] {
        &self.row_offsets
    }

    /// The columns of all rows, row after row: `nnz()`.
    #[must_use]
    pub fn col_indices(&self) -> &[usize] {
        &self.col_indices
    }

    /// The pattern of the transpose: for each column, its rows.
    fn transpose(&self) -> Pattern {
        let rows = 0..self.rows();
        let entries = rows.flat_map(|i| self.row(i).iter().map(move |&j| (j, i)));
        Pattern::from_valid(self.cols, self.rows(), entries.collect())
    }
}

/// A sparse matrix in CSR form: a [`Pattern`] and one value per entry, in the order of its
/// [`col_indices`](Pattern::col_indices).
///
/// # Examples
///
/// ```
/// use autodiff_runtime::sparse::CsrBuilder;
///
/// let mut b = CsrBuilder::new(3);
/// b.push_block(2, &[0..1, 2..3], &[1.0, 2.0, 3.0, 4.0])?;
/// let a = b.finish();
/// assert_eq!(a.to_dense(), [[1.0, 0.0, 2.0], [3.0, 0.0, 4.0]]);
/// assert_eq!(a.row(1).collect::<Vec<_>>(), [(0, 3.0), (2, 4.0)]);
/// assert_eq!((a.get(0, 2), a.get(0, 1), a.get(5, 0)), (Some(2.0), None, None));
/// # Ok::<(), autodiff_runtime::sparse::SparseError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pattern: Pattern,
    values: Vec<f64>,
}

impl Csr {
    /// The shape, row offsets and column indices.
    #[must_use]
    pub fn pattern(&self) -> &Pattern {
        &self.pattern
    }

    /// The values, `nnz()` of them, row after row.
    #[must_use]
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The value at `(i, j)`; `None` outside the pattern (a zero) or the matrix. Cost: a binary
    /// search in row `i`.
    #[must_use]
    pub fn get(&self, i: usize, j: usize) -> Option<f64> {
        let start = *self.pattern.row_offsets.get(i)?;
        let end = *self.pattern.row_offsets.get(i + 1)?;
        let k = self.pattern.col_indices[start..end]
            .binary_search(&j)
            .ok()?;
        Some(self.values[start + k])
    }

    /// Row `i` as `(column, value)`, columns increasing.
    ///
    /// # Panics
    ///
    /// If `i >= rows()` of the pattern.
    #[track_caller]
    pub fn row(&self, i: usize) -> impl ExactSizeIterator<Item = (usize, f64)> + '_ {
        let cols = self.pattern.row(i);
        let start = self.pattern.row_offsets[i];
        let values = &self.values[start..start + cols.len()];
        cols.iter().copied().zip(values.iter().copied())
    }

    /// The dense `m x n` matrix, `m` rows of `n`, zero outside the pattern.
    #[must_use]
    pub fn to_dense(&self) -> Vec<Vec<f64>> {
        let dense_row = |i| {
            let mut row = vec![0.0; self.pattern.cols];
            self.row(i).for_each(|(j, v)| row[j] = v);
            row
        };
        (0..self.pattern.rows()).map(dense_row).collect()
    }
}

/// `J` from `ceil(colors / W)` calls of `jvp(v, out)`, which writes `J v` for `W` directions at
/// once: `v` holds the `n` components (`v[j][l]`: component `j` of direction `l`), `out` the
/// `m` products in the same layout, zero at each call (so the closure may assign or add). Call
/// `b` gets the seeds of colors `bW .. bW + W`, and zero directions past the last color.
///
/// Besides the closure, each call costs `O((m + n) W + nnz)`: the seeds, `out`, the recovery.
/// `W = 0` does not compile.
///
/// # Errors
///
/// - [`SparseError::ColoringMismatch`] or [`SparseError::ColorConflict`], before any call, if
///   `coloring` is not one of `pattern` ([`Coloring::check`]);
/// - [`SparseError::NotInPattern`] if a product is nonzero in a row with no column of its
///   direction's color: `J` has an entry the pattern lacks.
///
/// # Examples
///
/// See [the module documentation](self).
pub fn jacobian_lanes<const W: usize>(
    pattern: &Pattern,
    coloring: &Coloring,
    mut jvp: impl FnMut(&[[f64; W]], &mut [[f64; W]]),
) -> Result<Csr, SparseError> {
    const { assert!(W > 0, "W must be at least 1") };
    coloring.check(pattern)?;
    let mut values = vec![0.0; pattern.nnz()];
    let mut seeds = vec![[0.0; W]; pattern.cols];
    let mut out = vec![[0.0; W]; pattern.rows()];
    for block in 0..coloring.colors.div_ceil(W) {
        for (seed, &c) in seeds.iter_mut().zip(&coloring.color) {
            *seed = [0.0; W];
            if c / W == block {
                seed[c % W] = 1.0;
            }
        }
        out.fill([0.0; W]);
        jvp(&seeds, &mut out);
        recover(pattern, &coloring.color, block, &out, &mut values)?;
    }
    Ok(Csr {
        pattern: pattern.clone(),
        values,
    })
}

/// [`jacobian_lanes`] with one direction per call, `colors` calls: `jvp(v, out)` writes `J v`
/// into `out` (`m` long, zero at each call) for `v` (`n` long).
///
/// # Errors
///
/// As [`jacobian_lanes`].
pub fn jacobian(
    pattern: &Pattern,
    coloring: &Coloring,
    mut jvp: impl FnMut(&[f64], &mut [f64]),
) -> Result<Csr, SparseError> {
    jacobian_lanes::<1>(pattern, coloring, |v, out| {
        jvp(v.as_flattened(), out.as_flattened_mut())
    })
}

/// Reads the entries of colors `block * W ..` out of the products `out` (`m` long).
fn recover<const W: usize>(
    pattern: &Pattern,
    color: &[usize],
    block: usize,
    out: &[[f64; W]],
    values: &mut [f64],
) -> Result<(), SparseError> {
    for (row, products) in out.iter().enumerate() {
        let mut covered = [false; W];
        for k in pattern.row_offsets[row]..pattern.row_offsets[row + 1] {
            let c = color[pattern.col_indices[k]];
            if c / W == block {
                values[k] = products[c % W];
                covered[c % W] = true;
            }
        }
        // Non-finite products pass: an infinite partial times a zero seed is NaN.
        let missed = |l: &usize| !covered[*l] && products[*l] != 0.0 && products[*l].is_finite();
        if let Some(l) = (0..W).find(missed) {
            let (color, value) = (block * W + l, products[l]);
            return Err(SparseError::NotInPattern { row, color, value });
        }
    }
    Ok(())
}

mod assembly;
mod coloring;

pub use assembly::{CsrBuilder, ba_pattern};
pub use coloring::Coloring;

#[cfg(test)]
mod tests;
