//! Dense blocks assembled into a [`Csr`], and ADBench's bundle-adjustment pattern.

use alloc::vec::Vec;
use core::ops::Range;

use super::{Csr, Pattern, SparseError};

/// Assembles a [`Csr`] from dense blocks, rows in the order of the calls; a block is some rows
/// by a list of column ranges. For Jacobians made of many small dense ones computed one by one,
/// such as bundle adjustment's ([`ba_pattern`] has the layout).
///
/// # Examples
///
/// Bundle adjustment as ADBench lays it out: observation `k` (camera `c`, point `q`) has two
/// reprojection rows over the columns of its camera, its point and its weight; the `p` weight
/// rows come after them.
///
/// ```
/// use autodiff_runtime::sparse::{self, CsrBuilder};
///
/// let (cameras, points, observations) = (2, 3, [(0, 0), (1, 0), (1, 2)]);
/// let p = observations.len();
/// let (point0, weight0) = (11 * cameras, 11 * cameras + 3 * points);
/// let mut b = CsrBuilder::new(weight0 + p);
/// for (k, &(c, q)) in observations.iter().enumerate() {
///     let block = [0.5; 2 * 15]; // the 2 x 15 Jacobian of the reprojection error
///     let (camera, point) = (11 * c..11 * c + 11, point0 + 3 * q..point0 + 3 * q + 3);
///     b.push_block(2, &[camera, point, weight0 + k..weight0 + k + 1], &block)?;
/// }
/// for k in 0..p {
///     b.push_block(1, &[weight0 + k..weight0 + k + 1], &[-2.0])?; // d(1 - w²)/dw at w = 1
/// }
/// let j = b.finish();
/// assert_eq!(j.pattern(), &sparse::ba_pattern(cameras, points, &observations)?);
/// assert_eq!(j.get(2 * p + 1, weight0 + 1), Some(-2.0));
/// # Ok::<(), sparse::SparseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CsrBuilder {
    pattern: Pattern,
    values: Vec<f64>,
    blocks: usize,
}

impl CsrBuilder {
    /// No rows yet, `cols` columns.
    #[must_use]
    pub fn new(cols: usize) -> CsrBuilder {
        CsrBuilder {
            pattern: Pattern::new(cols),
            values: Vec::new(),
            blocks: 0,
        }
    }

    /// Appends `rows` rows over the columns of `ranges`, in order; `values` is row-major, `rows`
    /// rows of `width` (the ranges' total length), value `r * width + k` at row `r` of the block
    /// and its `k`-th column. Returns the rows the block fills.
    ///
    /// # Errors
    ///
    /// Leaving the builder as it was: [`SparseError::RangesNotIncreasing`] if a range ends
    /// before it starts or starts before the previous one ends; [`SparseError::ColOutOfRange`]
    /// if one ends past the last column; [`SparseError::BlockShape`] unless `values` is
    /// `rows * width` long.
    pub fn push_block(
        &mut self,
        rows: usize,
        ranges: &[Range<usize>],
        values: &[f64],
    ) -> Result<Range<usize>, SparseError> {
        let (block, first) = (self.blocks, self.pattern.rows());
        let (cols, mut width, mut previous_end) = (self.pattern.cols, 0, 0);
        for (range, r) in ranges.iter().enumerate() {
            if r.start < previous_end || r.end < r.start {
                return Err(SparseError::RangesNotIncreasing { block, range });
            }
            if r.end > cols {
                return Err(SparseError::ColOutOfRange {
                    row: first,
                    col: r.end - 1,
                    cols,
                });
            }
            (width, previous_end) = (width + r.len(), r.end);
        }
        if rows.checked_mul(width) != Some(values.len()) {
            let values = values.len();
            return Err(SparseError::BlockShape {
                block,
                rows,
                width,
                values,
            });
        }
        for _ in 0..rows {
            self.pattern.push_row(ranges.iter().cloned().flatten())?;
        }
        self.values.extend_from_slice(values);
        self.blocks += 1;
        Ok(first..first + rows)
    }

    /// The matrix of the blocks pushed.
    #[must_use]
    pub fn finish(self) -> Csr {
        Csr {
            pattern: self.pattern,
            values: self.values,
        }
    }
}

/// The pattern of the bundle-adjustment Jacobian as ADBench lays it out, for `n` cameras, `m`
/// points and `p` observations, each a `(camera, point)` pair.
///
/// Columns, `11n + 3m + p`: the 11 parameters of each camera (rotation, center, focal length,
/// principal point, distortion) at `11c ..`, the 3 coordinates of each point at `11n + 3q ..`,
/// one weight per observation at `11n + 3m + k`. Rows, `2p + p`: the two reprojection
/// residuals of observation `k` (rows `2k`, `2k + 1`), 15 entries each (its camera's 11
/// columns, its point's 3, its weight), then the `p` weight residuals (row `2p + k`, its
/// weight's column): `31p` entries.
///
/// # Errors
///
/// [`SparseError::BadObservation`] for the first observation of a camera or point that does not
/// exist; [`SparseError::TooLarge`] if the number of columns overflows.
///
/// # Examples
///
/// See [`CsrBuilder`].
pub fn ba_pattern(
    cameras: usize,
    points: usize,
    observations: &[(usize, usize)],
) -> Result<Pattern, SparseError> {
    let p = observations.len();
    let size = |c: usize, q: usize| {
        c.checked_mul(11)?
            .checked_add(q.checked_mul(3)?)?
            .checked_add(p)
    };
    let cols = size(cameras, points).ok_or(SparseError::TooLarge)?;
    let (point0, weight0) = (11 * cameras, cols - p);
    let mut pattern = Pattern::new(cols);
    for (observation, &(c, q)) in observations.iter().enumerate() {
        if c >= cameras || q >= points {
            let (seen, bounds) = ((c, q), (cameras, points));
            return Err(SparseError::BadObservation {
                observation,
                seen,
                bounds,
            });
        }
        let (camera, point) = (11 * c..11 * c + 11, point0 + 3 * q..point0 + 3 * q + 3);
        let row = camera.chain(point).chain([weight0 + observation]);
        pattern.push_row(row.clone())?;
        pattern.push_row(row)?;
    }
    for k in 0..p {
        pattern.push_row([weight0 + k])?;
    }
    Ok(pattern)
}
