//! Tests of the sparse Jacobians: colorings against a dense table, recovery against
//! hand-written Jacobians and central differences, blocks against entry-by-entry matrices.

use super::*;
use core::ops::Range;

use crate::math::{cos, sin};

/// xorshift64: deterministic random patterns and values, without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    /// Uniform in [-1, 1).
    fn value(&mut self) -> f64 {
        self.below(1 << 20) as f64 / (1 << 19) as f64 - 1.0
    }
}

/// A Jacobian by hand: its rows and its structural entries `(i, j, J[i][j])`.
type Entries = (usize, Vec<(usize, usize, f64)>);

/// `f_i = x_i² + sin(x_{i+1}) + x_{i-1} x_i` (terms past the ends dropped): tridiagonal.
fn tridiagonal_f(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let next = |i: usize| if i + 1 < n { sin(x[i + 1]) } else { 0.0 };
    let prev = |i: usize| if i > 0 { x[i - 1] * x[i] } else { 0.0 };
    (0..n).map(|i| x[i] * x[i] + next(i) + prev(i)).collect()
}

fn tridiagonal(x: &[f64]) -> Entries {
    let n = x.len();
    let mut e = vec![(0, 0, 2.0 * x[0])];
    for i in 1..n {
        e.extend([
            (i, i, 2.0 * x[i] + x[i - 1]),
            (i, i - 1, x[i]),
            (i - 1, i, cos(x[i])),
        ]);
    }
    (n, e)
}

/// `f_0 = Σ sin(x_j)`, `f_i = x_0 x_i + x_i²`: a dense row and a dense column.
fn arrowhead(x: &[f64]) -> Entries {
    let mut e: Vec<_> = (0..x.len()).map(|j| (0, j, cos(x[j]))).collect();
    (1..x.len()).for_each(|i| e.extend([(i, 0, x[i]), (i, i, x[0] + 2.0 * x[i])]));
    (x.len(), e)
}

/// `f_i = x_i x_{i+4} + sin(x_{i+2})`, `i < n - 4`: rectangular.
fn shifted(x: &[f64]) -> Entries {
    let m = x.len() - 4;
    let e = (0..m).flat_map(|i| {
        [
            (i, i, x[i + 4]),
            (i, i + 2, cos(x[i + 2])),
            (i, i + 4, x[i]),
        ]
    });
    (m, e.collect())
}

fn point(n: usize) -> Vec<f64> {
    (0..n).map(|k| 0.3 + 0.17 * k as f64).collect()
}

fn pattern_of(n: usize, (m, e): &Entries) -> Pattern {
    Pattern::from_entries(*m, n, e.iter().map(|&(i, j, _)| (i, j))).unwrap()
}

fn dense_of(n: usize, (m, e): &Entries) -> Vec<Vec<f64>> {
    let mut d = vec![vec![0.0; n]; *m];
    e.iter().for_each(|&(i, j, v)| d[i][j] = v);
    d
}

/// `J v` for `W` directions, from the dense `J`.
fn products<const W: usize>(j: &[Vec<f64>], v: &[[f64; W]], out: &mut [[f64; W]]) {
    for (row, o) in j.iter().zip(out) {
        *o = core::array::from_fn(|l| row.iter().zip(v).map(|(a, s)| a * s[l]).sum());
    }
}

/// `got == want` within `tol`; else the first mismatch and the largest difference.
#[track_caller]
fn assert_close(got: &[Vec<f64>], want: &[Vec<f64>], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: rows");
    let (mut first, mut worst) = (None, (0.0, 0, 0));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.len(), w.len(), "{what}: columns");
        for (j, d) in g.iter().zip(w).map(|(a, b)| (a - b).abs()).enumerate() {
            first = first.or((d.is_nan() || d > tol).then_some((i, j, g[j], w[j])));
            worst = if d > worst.0 { (d, i, j) } else { worst };
        }
    }
    assert!(
        first.is_none(),
        "{what}: (i, j, got, want) {first:?}, largest {worst:?}"
    );
}

/// Independent of [`Coloring::check`]: every pair of columns of one color, on a dense table.
#[track_caller]
fn assert_valid(pattern: &Pattern, coloring: &Coloring) {
    let (m, n, color) = (pattern.rows(), pattern.cols(), &coloring.color);
    let mut dense = vec![vec![false; n]; m];
    (0..m).for_each(|i| pattern.row(i).iter().for_each(|&j| dense[i][j] = true));
    for (j, k) in (0..n).flat_map(|j| (j + 1..n).map(move |k| (j, k))) {
        let shared = (0..m).find(|&i| dense[i][j] && dense[i][k]);
        assert!(
            color[j] != color[k] || shared.is_none(),
            "columns {j}, {k}, row {shared:?}"
        );
    }
    let widest = (0..m).map(|i| pattern.row(i).len()).max().unwrap_or(0);
    assert!(coloring.colors() >= widest && color.iter().all(|&c| c < coloring.colors()));
    assert_eq!(coloring.check(pattern), Ok(()));
}

/// `W` lanes, products of the dense `want`: `ceil(colors / W)` calls, the entries exactly
/// (each product is one entry plus zeros).
#[track_caller]
fn assert_recovers<const W: usize>(p: &Pattern, c: &Coloring, want: &[Vec<f64>], what: &str) {
    let mut calls = 0;
    let got = jacobian_lanes::<W>(p, c, |v, out| {
        assert_eq!((v.len(), out.len()), (p.cols(), p.rows()));
        calls += 1;
        products(want, v, out);
    });
    let got = got.unwrap();
    assert_eq!(calls, c.colors().div_ceil(W), "{what}, W = {W}");
    assert_eq!(got.pattern(), p);
    assert_close(&got.to_dense(), want, 0.0, what);
}

#[test]
fn patterns_are_sorted_deduplicated_and_checked() {
    let entries = [(2, 3), (0, 1), (2, 0), (0, 1), (2, 3), (0, 0)];
    let a = Pattern::from_entries(3, 4, entries).unwrap();
    assert_eq!(
        (a.rows(), a.cols(), a.nnz(), a.row_offsets()),
        (3, 4, 4, &[0, 2, 2, 4][..])
    );
    assert_eq!(
        (a.row(0), a.row(1), a.row(2)),
        (&[0, 1][..], &[][..], &[0, 3][..])
    );
    let mut b = Pattern::new(4);
    assert_eq!((b.push_row([1, 0, 1]), b.push_row([])), (Ok(0), Ok(1)));
    let err = b.push_row([0, 4, 3]).unwrap_err();
    assert_eq!(
        err,
        SparseError::ColOutOfRange {
            row: 2,
            col: 4,
            cols: 4
        }
    );
    assert_eq!(b.push_row([3, 0]), Ok(2)); // the failed row left nothing behind
    assert_eq!(b, a);
    let err = Pattern::from_entries(3, 4, [(0, 0), (3, 1)]).unwrap_err();
    assert_eq!(
        err,
        SparseError::RowOutOfRange {
            row: 3,
            col: 1,
            rows: 3
        }
    );
    let message = alloc::format!("{err}");
    assert_eq!(message, "row 3 (entry (3, 1)) is out of range for 3 rows");
    // The empty matrix: no colors, no calls.
    let empty = Pattern::new(0);
    let coloring = Coloring::new(&empty);
    assert_eq!(coloring.colors(), 0);
    let j = jacobian(&empty, &coloring, |_, _| panic!("no call expected")).unwrap();
    assert_eq!((j.to_dense().len(), j.values().len()), (0, 0));
}

#[test]
fn structured_colorings_reach_the_row_bound() {
    let diagonal = Pattern::from_entries(10, 10, (0..10).map(|i| (i, i))).unwrap();
    assert_eq!(Coloring::new(&diagonal).colors(), 1);
    for b in 0..4 {
        let n: usize = 20;
        let band = move |i: usize| (i.saturating_sub(b)..(i + b + 1).min(n)).map(move |j| (i, j));
        let banded = Pattern::from_entries(n, n, (0..n).flat_map(band)).unwrap();
        let coloring = Coloring::new(&banded);
        assert_valid(&banded, &coloring);
        assert_eq!(coloring.colors(), 2 * b + 1, "half-bandwidth {b}");
    }
    let arrow = pattern_of(9, &arrowhead(&point(9)));
    let coloring = Coloring::new(&arrow);
    assert_valid(&arrow, &coloring);
    assert_eq!(coloring.colors(), 9); // the dense row
}

#[test]
fn random_colorings_are_valid_and_recover_random_jacobians() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..200 {
        let (m, n, per_mille) = (
            1 + rng.below(16),
            1 + rng.below(16),
            [30, 150, 400, 800][case % 4],
        );
        let mut entries = Vec::new();
        for (i, j) in (0..m).flat_map(|i| (0..n).map(move |j| (i, j))) {
            if rng.below(1000) < per_mille {
                // Some twice, for the deduplication.
                entries.extend(core::iter::repeat_n((i, j), 1 + rng.below(2)));
            }
        }
        for k in 0..entries.len() {
            let other = rng.below(entries.len());
            entries.swap(k, other);
        }
        let pattern = Pattern::from_entries(m, n, entries).unwrap();
        let coloring = Coloring::new(&pattern);
        assert_valid(&pattern, &coloring);
        let mut want = vec![vec![0.0; n]; m];
        (0..m).for_each(|i| {
            pattern
                .row(i)
                .iter()
                .for_each(|&j| want[i][j] = rng.value())
        });
        assert_recovers::<1>(&pattern, &coloring, &want, "random");
        assert_recovers::<3>(&pattern, &coloring, &want, "random");
        assert_recovers::<8>(&pattern, &coloring, &want, "random");
    }
}

#[test]
fn recovery_equals_the_hand_written_jacobians_for_every_width() {
    type Case = (&'static str, usize, fn(&[f64]) -> Entries);
    let cases: [Case; 3] = [
        ("tridiagonal", 13, tridiagonal),
        ("arrowhead", 9, arrowhead),
        ("shifted", 12, shifted),
    ];
    for (name, n, jac) in cases {
        let entries = jac(&point(n));
        let (pattern, want) = (pattern_of(n, &entries), dense_of(n, &entries));
        let coloring = Coloring::new(&pattern);
        assert_valid(&pattern, &coloring);
        let mut calls = 0;
        let scalar = jacobian(&pattern, &coloring, |v, out| {
            calls += 1;
            for (o, row) in out.iter_mut().zip(&want) {
                *o = row.iter().zip(v).map(|(a, s)| a * s).sum();
            }
        });
        assert_close(&scalar.unwrap().to_dense(), &want, 0.0, name);
        assert_eq!(calls, coloring.colors());
        assert_recovers::<2>(&pattern, &coloring, &want, name);
        assert_recovers::<4>(&pattern, &coloring, &want, name);
        assert_recovers::<8>(&pattern, &coloring, &want, name);
    }
}

#[test]
#[allow(clippy::needless_range_loop)] // column j of the differences, by index
fn recovery_agrees_with_central_differences_of_the_function() {
    let (n, x) = (13, point(13));
    let entries = tridiagonal(&x);
    let (pattern, exact) = (pattern_of(n, &entries), dense_of(n, &entries));
    let coloring = Coloring::new(&pattern);
    let got = jacobian_lanes::<4>(&pattern, &coloring, |v, out| products(&exact, v, out));
    // (f(x + hv) - f(x - hv)) / 2h: truncation h²/6 |f'''| ~ 1e-13, rounding eps |f| / h ~ 1e-9.
    let h = 1e-6;
    let difference = |v: &[f64], out: &mut [f64]| {
        let at = |sign: f64| {
            x.iter()
                .zip(v)
                .map(|(a, s)| a + sign * h * s)
                .collect::<Vec<_>>()
        };
        let (plus, minus) = (tridiagonal_f(&at(1.0)), tridiagonal_f(&at(-1.0)));
        for (o, (p, q)) in out.iter_mut().zip(plus.iter().zip(&minus)) {
            *o = (p - q) / (2.0 * h);
        }
    };
    let (mut fd, mut e, mut column) = (vec![vec![0.0; n]; n], vec![0.0; n], vec![0.0; n]);
    for j in 0..n {
        e[j] = 1.0;
        difference(&e, &mut column);
        e[j] = 0.0;
        (0..n).for_each(|i| fd[i][j] = column[i]);
    }
    assert_close(&got.unwrap().to_dense(), &fd, 1e-8, "against differences");
    // The products themselves as differences along the seeds (Curtis, Powell and Reid):
    // 3 pairs of evaluations of f in place of 13; rows a seed leaves alone are exactly zero.
    let compressed = jacobian(&pattern, &coloring, difference).unwrap();
    assert_close(
        &compressed.to_dense(),
        &exact,
        1e-8,
        "compressed differences",
    );
}

#[test]
fn a_wrong_pattern_or_coloring_is_an_error() {
    let (m, full) = tridiagonal(&point(8));
    let want = dense_of(8, &(m, full.clone()));
    // Row 2 left out of the pattern: its products are nonzero where no column of it is.
    let holed = pattern_of(8, &(m, full.iter().copied().filter(|e| e.0 != 2).collect()));
    let coloring = Coloring::new(&holed);
    let got = jacobian_lanes::<2>(&holed, &coloring, |v, out| products(&want, v, out));
    assert!(
        matches!(got, Err(SparseError::NotInPattern { row: 2, .. })),
        "{got:?}"
    );
    // A coloring of the diagonal used for the tridiagonal pattern, or of another size.
    let tri = pattern_of(8, &(m, full));
    let diagonal = Coloring::new(&Pattern::from_entries(8, 8, (0..8).map(|i| (i, i))).unwrap());
    let err = jacobian(&tri, &diagonal, |_, _| panic!("no call expected")).unwrap_err();
    assert_eq!(
        err,
        SparseError::ColorConflict {
            row: 0,
            cols: [0, 1],
            color: 0
        }
    );
    let small = Coloring::new(&Pattern::new(3));
    let err = small.check(&tri).unwrap_err();
    assert_eq!(
        err,
        SparseError::ColoringMismatch {
            cols: 8,
            colored: 3
        }
    );
}

#[test]
#[allow(clippy::single_range_in_vec_init)] // blocks of one range
fn blocks_assemble_to_the_matrix_built_entry_by_entry() {
    let (mut rng, n) = (Rng(12345), 15);
    let (mut builder, mut dense) = (CsrBuilder::new(n), Vec::new());
    for block in 0..40 {
        let (rows, mut ranges, mut start) = (rng.below(4), Vec::new(), rng.below(3));
        while ranges.len() < 3 && start < n {
            let end = (start + rng.below(5)).min(n);
            ranges.push(start..end);
            start = end + rng.below(3);
        }
        let width: usize = ranges.iter().map(Range::len).sum();
        let values: Vec<f64> = (0..rows * width).map(|_| rng.value()).collect();
        let at = builder.push_block(rows, &ranges, &values).unwrap();
        assert_eq!(at, dense.len()..dense.len() + rows, "block {block}");
        for r in 0..rows {
            let mut row = vec![0.0; n];
            let cols = ranges.iter().cloned().flatten().enumerate();
            cols.for_each(|(k, j)| row[j] = values[r * width + k]);
            dense.push(row);
        }
    }
    // Each error leaves the builder as it was.
    let (a, b, first) = (3, 1, dense.len());
    let bad: [(&[Range<usize>], usize); 4] = [
        (&[0..3, 2..4], 8),
        (&[a..b], 0),
        (&[10..16], 6),
        (&[0..3], 5),
    ];
    let errors = bad.map(|(ranges, len)| builder.push_block(2, ranges, &vec![0.0; len]));
    let expected = [
        SparseError::RangesNotIncreasing {
            block: 40,
            range: 1,
        },
        SparseError::RangesNotIncreasing {
            block: 40,
            range: 0,
        },
        SparseError::ColOutOfRange {
            row: first,
            col: 15,
            cols: 15,
        },
        SparseError::BlockShape {
            block: 40,
            rows: 2,
            width: 3,
            values: 5,
        },
    ];
    assert_eq!(errors, expected.map(Err));
    let csr = builder.finish();
    assert_close(&csr.to_dense(), &dense, 0.0, "blocks");
    for (i, row) in dense.iter().enumerate() {
        assert!(
            csr.row(i)
                .all(|(j, v)| row[j] == v && csr.get(i, j) == Some(v))
        );
    }
}

#[test]
fn bundle_adjustment_pattern_has_the_adbench_layout() {
    let (cameras, points) = (3, 5);
    let observations = [(0, 0), (0, 1), (1, 1), (2, 4), (1, 3), (0, 4), (2, 2)];
    let p = observations.len();
    let pattern = ba_pattern(cameras, points, &observations).unwrap();
    assert_eq!(
        (pattern.rows(), pattern.cols()),
        (3 * p, 11 * 3 + 3 * 5 + p)
    );
    assert_eq!(pattern.nnz(), 31 * p);
    // Observation 3: camera 2 (columns 22..33), point 4 (33 + 12..), weight 33 + 15 + 3.
    let row: Vec<usize> = (22..33).chain(45..48).chain([51]).collect();
    assert_eq!((pattern.row(6), pattern.row(7)), (&row[..], &row[..]));
    assert_eq!(pattern.row(2 * p + 3), [51]);
    assert_eq!(pattern.row(0)[10..], [10, 33, 34, 35, 48]);
    let coloring = Coloring::new(&pattern);
    assert_valid(&pattern, &coloring);
    assert_eq!(coloring.colors(), 15);
    let err = ba_pattern(cameras, points, &[(0, 0), (3, 0)]).unwrap_err();
    let bounds = (cameras, points);
    assert_eq!(
        err,
        SparseError::BadObservation {
            observation: 1,
            seen: (3, 0),
            bounds
        }
    );
    let err = ba_pattern(cameras, points, &[(2, 5)]).unwrap_err();
    assert_eq!(
        err,
        SparseError::BadObservation {
            observation: 0,
            seen: (2, 5),
            bounds
        }
    );
    assert_eq!(ba_pattern(usize::MAX, 0, &[]), Err(SparseError::TooLarge));
}
