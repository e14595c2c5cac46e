//! Data loading (feature `std`): CSV tables, IDX (MNIST) files, character corpora, the bundled data
//! sets, and a mini-batch loader that fills fixed-size arrays.
//!
//! Malformed input is a [`DataError`] naming the file, line and column, never a panic and never a
//! silently wrong row.
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::data::{BatchLoader, CsvOptions, LastBatch, parse_csv};
//! use rand::{SeedableRng, rngs::SmallRng};
//!
//! let text = "x0,x1,label\n0.5,1.5,1\n2.0,-1.0,0\n3.0,0.0,1\n";
//! let table = parse_csv(text.as_bytes(), "inline.csv", &CsvOptions { has_header: true, ..CsvOptions::default() })?;
//! assert_eq!((table.len(), table.n_features, table.n_classes), (3, 2, 2));
//!
//! let mut loader = BatchLoader::<2, 2>::new(&table, LastBatch::Pad)?;
//! let (mut x, mut y) = ([[0.0f32; 2]; 2], [0usize; 2]);
//! let mut rng = SmallRng::seed_from_u64(0);
//! loader.shuffle(&mut rng);
//! let mut real_rows = 0;
//! while let Some(n) = loader.next_batch(&mut x, &mut y) {
//!     real_rows += n;
//! }
//! assert_eq!(real_rows, 3); // one full batch and one padded batch holding 1 real row
//! # Ok::<(), autodiff_runtime::data::DataError>(())
//! ```

mod batch;
pub mod bundled;
mod corpus;
mod csv;
mod idx;

pub use batch::{BatchLoader, LastBatch};
pub use corpus::{CharCorpus, TokenId, fill_windows};
pub use csv::{
    Column, CsvOptions, CsvReader, LabelColumn, MAX_INFERRED_CLASSES, parse_csv, read_csv,
};
pub use idx::{IdxArray, IdxData, parse_idx, read_idx, read_idx_dataset};

use std::fmt;
use std::string::{String, ToString};
use std::vec::Vec;

/// A table of `f32` features with one class label per row.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// Row-major features, `len() * n_features` values.
    pub features: Vec<f32>,
    /// One class index per row, each `< n_classes`.
    pub labels: Vec<usize>,
    /// Features per row.
    pub n_features: usize,
    /// Number of classes (labels are `0..n_classes`).
    pub n_classes: usize,
    /// Class names when the source gives them (the iris header does), else empty.
    pub class_names: Vec<String>,
}

impl Dataset {
    /// Number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are no rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The features of row `i`, or `None` past the end (or if `features` is too short for it).
    #[must_use]
    pub fn row(&self, i: usize) -> Option<&[f32]> {
        if i >= self.len() {
            return None;
        }
        let start = i.checked_mul(self.n_features)?;
        self.features
            .get(start..start.checked_add(self.n_features)?)
    }

    /// Splits into the first `n` rows and the rest (`n` is capped at `len()`).
    ///
    /// # Panics
    ///
    /// If `features` holds fewer than `len() * n_features` values.
    #[must_use]
    pub fn split_at(&self, n: usize) -> (Dataset, Dataset) {
        let n = n.min(self.len());
        let part = |rows: core::ops::Range<usize>| Dataset {
            features: self.features[rows.start * self.n_features..rows.end * self.n_features]
                .to_vec(),
            labels: self.labels[rows].to_vec(),
            n_features: self.n_features,
            n_classes: self.n_classes,
            class_names: self.class_names.clone(),
        };
        (part(0..n), part(n..self.len()))
    }
}

/// A table of `f32` features with one `f32` regression target per row, from
/// [`CsvReader::parse_regression`].
///
/// # Examples
///
/// ```
/// use autodiff_runtime::data::CsvReader;
///
/// let data = CsvReader::new().parse_regression("1,2,0.5\n3,4,1.5\n5,6,2.5\n".as_bytes(), "m.csv")?;
/// assert_eq!((data.len(), data.n_features), (3, 2));
/// let (train, test) = data.split_at(2);
/// assert_eq!((train.targets.as_slice(), test.row(0)), (&[0.5, 1.5][..], Some(&[5.0, 6.0][..])));
/// # Ok::<(), autodiff_runtime::data::DataError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RegressionDataset {
    /// Row-major features, `len() * n_features` values.
    pub features: Vec<f32>,
    /// One target per row.
    pub targets: Vec<f32>,
    /// Features per row.
    pub n_features: usize,
    /// The features' column names when the input has a header, else empty.
    pub feature_names: Vec<String>,
    /// The target's column name when the input has a header.
    pub target_name: Option<String>,
}

impl RegressionDataset {
    /// Number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are no rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The features of row `i`, or `None` past the end (or if `features` is too short for it).
    #[must_use]
    pub fn row(&self, i: usize) -> Option<&[f32]> {
        if i >= self.len() {
            return None;
        }
        let start = i.checked_mul(self.n_features)?;
        self.features
            .get(start..start.checked_add(self.n_features)?)
    }

    /// Splits into the first `n` rows and the rest (`n` is capped at `len()`).
    ///
    /// # Panics
    ///
    /// If `features` holds fewer than `len() * n_features` values.
    #[must_use]
    pub fn split_at(&self, n: usize) -> (RegressionDataset, RegressionDataset) {
        let n = n.min(self.len());
        let part = |rows: core::ops::Range<usize>| RegressionDataset {
            features: self.features[rows.start * self.n_features..rows.end * self.n_features]
                .to_vec(),
            targets: self.targets[rows].to_vec(),
            n_features: self.n_features,
            feature_names: self.feature_names.clone(),
            target_name: self.target_name.clone(),
        };
        (part(0..n), part(n..self.len()))
    }
}

/// A data-loading failure: where it happened and why.
///
/// `line` and `column` count from 1; they are present when the failure is about one place in a
/// text file.
#[derive(Debug)]
pub struct DataError {
    /// The file path, or the name given to in-memory input.
    pub file: String,
    /// Line in the file, when known.
    pub line: Option<u64>,
    /// Column (field number for CSV, character in the line for text), when known.
    pub column: Option<usize>,
    /// What went wrong.
    pub kind: DataErrorKind,
}

/// The reason for a [`DataError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum DataErrorKind {
    /// Reading the file failed.
    Io(std::io::Error),
    /// The input has no data (no rows, no bytes or no characters).
    Empty,
    /// A CSV row has a different number of fields from the first row.
    WrongColumnCount {
        /// Fields in the first row.
        expected: usize,
        /// Fields in this row.
        found: usize,
    },
    /// The chosen label or target column does not exist.
    NoSuchColumn {
        /// The 0-based column asked for.
        column: usize,
        /// Columns in the file.
        columns: usize,
    },
    /// No column has the target's name: it is not in the header, or there is no header.
    UnknownColumn {
        /// The name asked for (at most 80 characters, then `...`).
        name: String,
        /// Whether the input was read with a header.
        has_header: bool,
    },
    /// A feature (or a regression target) is not a finite number.
    NotANumber {
        /// The field's text (at most 80 characters, then `...`).
        field: String,
    },
    /// A label is not a non-negative integer.
    InvalidLabel {
        /// The field's text (at most 80 characters, then `...`).
        field: String,
    },
    /// Without a given number of classes, a label is too large to infer it from
    /// (see [`MAX_INFERRED_CLASSES`]).
    LabelTooLarge {
        /// The label.
        label: usize,
        /// Labels must be below this.
        limit: usize,
    },
    /// A label is not below the number of classes.
    LabelOutOfRange {
        /// The label.
        label: usize,
        /// The number of classes.
        classes: usize,
    },
    /// The file's structure is not what its format or its own header says.
    BadHeader {
        /// What is wrong.
        reason: String,
    },
    /// An IDX header's sizes imply a different file length.
    IdxSizeMismatch {
        /// Bytes the header implies (`None` if that overflows).
        expected: Option<u64>,
        /// Bytes in the file.
        found: u64,
    },
    /// A feature of a float IDX file is NaN or infinite, or (for `f64`) beyond the range of the
    /// `f32` it becomes.
    NonFiniteFeature {
        /// The item (the index in the first dimension).
        item: usize,
        /// The feature's index within the item, row-major.
        feature: usize,
    },
    /// Two files meant to go together have different numbers of items.
    CountMismatch {
        /// Items in the features file.
        features: usize,
        /// Items in the labels file.
        labels: usize,
    },
    /// The data's feature count differs from what the caller needs.
    FeatureCount {
        /// Features the caller needs.
        expected: usize,
        /// Features in the data.
        found: usize,
    },
    /// A context window needs more tokens than the text has.
    WindowTooLong {
        /// Tokens a window needs (context length plus the one predicted).
        needed: usize,
        /// Tokens available.
        available: usize,
    },
    /// A character is not in the corpus vocabulary.
    UnknownChar(char),
    /// A token id is not in the corpus vocabulary.
    UnknownToken(usize),
    /// A text has more distinct characters than its token id type has values (256 for `u8`,
    /// 65,536 for `u16`).
    VocabTooLarge(usize),
    /// A text file is not valid UTF-8.
    InvalidUtf8,
    /// A problem the CSV reader reports, such as invalid UTF-8 in a field.
    Csv(String),
}

impl DataError {
    pub(crate) fn new(file: impl Into<String>, kind: DataErrorKind) -> Self {
        DataError {
            file: file.into(),
            line: None,
            column: None,
            kind,
        }
    }

    pub(crate) fn at(mut self, line: Option<u64>, column: Option<usize>) -> Self {
        self.line = line;
        self.column = column;
        self
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(column) = self.column {
            write!(f, ":{column}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl fmt::Display for DataErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DataErrorKind as K;
        match self {
            K::Io(e) => write!(f, "cannot read: {e}"),
            K::Empty => f.write_str("no data"),
            K::WrongColumnCount { expected, found } => {
                write!(
                    f,
                    "expected {expected} fields like the first row, found {found}"
                )
            }
            K::NoSuchColumn { column, columns } => {
                write!(
                    f,
                    "target column {column} (0-based) does not exist: the rows have {columns} fields"
                )
            }
            K::UnknownColumn {
                name,
                has_header: true,
            } => write!(f, "no column named `{name}` in the header"),
            K::UnknownColumn {
                name,
                has_header: false,
            } => write!(
                f,
                "no column named `{name}`: columns have names only with a header; read with a header or choose the column by index"
            ),
            K::NotANumber { field } => write!(f, "`{field}` is not a finite number"),
            K::InvalidLabel { field } => write!(f, "label `{field}` is not a non-negative integer"),
            K::LabelOutOfRange { label, classes } => {
                write!(f, "label {label} is out of range for {classes} classes")
            }
            K::LabelTooLarge { label, limit } => write!(
                f,
                "label {label} is too large to infer the number of classes from (labels must be below {limit}); give the number of classes to allow more"
            ),
            K::BadHeader { reason } => write!(f, "bad header: {reason}"),
            K::IdxSizeMismatch {
                expected: Some(e),
                found,
            } => {
                write!(
                    f,
                    "the IDX header implies {e} bytes but the file has {found}"
                )
            }
            K::IdxSizeMismatch {
                expected: None,
                found,
            } => {
                write!(
                    f,
                    "the IDX header's sizes overflow (the file has {found} bytes)"
                )
            }
            K::NonFiniteFeature { item, feature } => write!(
                f,
                "feature {feature} of item {item} is not a finite number (as an f32)"
            ),
            K::CountMismatch { features, labels } => {
                write!(f, "{features} feature rows but {labels} labels")
            }
            K::FeatureCount { expected, found } => {
                write!(
                    f,
                    "expected {expected} features per row, the data has {found}"
                )
            }
            K::WindowTooLong { needed, available } => {
                write!(
                    f,
                    "a window needs {needed} tokens but only {available} are available"
                )
            }
            K::UnknownChar(c) => write!(f, "character {c:?} is not in the vocabulary"),
            K::UnknownToken(t) => write!(f, "token {t} is not in the vocabulary"),
            K::VocabTooLarge(n) => write!(
                f,
                "{n} distinct characters: more than the token id type has values (256 for u8, 65536 for u16)"
            ),
            K::InvalidUtf8 => f.write_str("the text is not valid UTF-8"),
            K::Csv(reason) => f.write_str(reason),
        }
    }
}

impl core::error::Error for DataError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            DataErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Reads a whole file, mapping failure to [`DataErrorKind::Io`].
fn read_file(path: &std::path::Path) -> Result<Vec<u8>, DataError> {
    std::fs::read(path)
        .map_err(|e| DataError::new(path.display().to_string(), DataErrorKind::Io(e)))
}
