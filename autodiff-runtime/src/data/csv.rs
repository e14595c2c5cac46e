//! CSV tables of numeric features and one target per row: an integer class label
//! ([`parse_csv`], [`CsvReader::parse_classification`]) or a float regression value
//! ([`CsvReader::parse_regression`]), read with the `csv` crate.

use std::collections::VecDeque;
use std::io::Read;
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use ::csv::{ReaderBuilder, StringRecord};

use super::{DataError, DataErrorKind, Dataset, RegressionDataset, read_file};

/// When the number of classes is taken from the data, every label must be below this; a larger
/// label (a row id or a corrupted field, say) is [`DataErrorKind::LabelTooLarge`]. Give the
/// number of classes ([`CsvOptions::num_classes`], [`CsvReader::num_classes`]) to allow more.
pub const MAX_INFERRED_CLASSES: usize = 1 << 16;

/// Errors quote at most this many characters of a field, then `...`.
pub(super) const QUOTED_CHARS: usize = 80;

/// Which field of each row holds the class label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LabelColumn {
    /// The last field.
    #[default]
    Last,
    /// The field at this 0-based position.
    Index(usize),
}

/// How to read a CSV table of features and class labels with [`parse_csv`] or [`read_csv`].
///
/// [`CsvReader`] reads the same tables and also float regression targets and columns chosen by
/// their header name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvOptions {
    /// Whether the first line is a header (it then sets the expected number of fields).
    pub has_header: bool,
    /// Where the label is; every other field is a feature.
    pub label: LabelColumn,
    /// Number of classes; labels must be below it. `None` takes the largest label plus one (the
    /// largest label must then be below [`MAX_INFERRED_CLASSES`]).
    pub num_classes: Option<usize>,
    /// Field separator.
    pub delimiter: u8,
}

impl Default for CsvOptions {
    /// No header, label last, classes from the data, comma-separated.
    fn default() -> Self {
        CsvOptions {
            has_header: false,
            label: LabelColumn::Last,
            num_classes: None,
            delimiter: b',',
        }
    }
}

/// Reads a CSV file of numeric features and one integer label per row.
///
/// # Errors
///
/// A [`DataError`] with the file, line and column for: an unreadable file, no data rows, a row
/// whose field count differs from the header's (or the first row's), a missing label column, a
/// feature that is not a finite number, a label that is not a non-negative integer or is not below
/// `num_classes` (or [`MAX_INFERRED_CLASSES`] without it), and invalid UTF-8. Errors quote at most
/// 80 characters of a field.
///
/// # Examples
///
/// ```no_run
/// use autodiff_runtime::data::{CsvOptions, read_csv};
///
/// let iris_like = read_csv("measurements.csv", &CsvOptions { has_header: true, ..CsvOptions::default() })?;
/// println!("{} rows of {} features", iris_like.len(), iris_like.n_features);
/// # Ok::<(), autodiff_runtime::data::DataError>(())
/// ```
pub fn read_csv(path: impl AsRef<Path>, options: &CsvOptions) -> Result<Dataset, DataError> {
    CsvReader::from(options).read_classification(path)
}

/// Parses CSV text from `reader`; `source` names it in errors. See [`read_csv`].
///
/// # Errors
///
/// As [`read_csv`].
///
/// # Examples
///
/// ```
/// use autodiff_runtime::data::{CsvOptions, DataErrorKind, parse_csv};
///
/// let err = parse_csv("1,2,0\n3,x,1\n".as_bytes(), "mem.csv", &CsvOptions::default()).unwrap_err();
/// assert_eq!(err.to_string(), "mem.csv:2:2: `x` is not a finite number");
/// assert!(matches!(err.kind, DataErrorKind::NotANumber { .. }));
/// ```
pub fn parse_csv<R: Read>(
    reader: R,
    source: &str,
    options: &CsvOptions,
) -> Result<Dataset, DataError> {
    CsvReader::from(options).parse_classification(reader, source)
}

/// Which column holds the target of a [`CsvReader`]: the class label or the regression value.
///
/// `usize`, `&str` and `String` convert into it, so `.target(3)` and `.target("price")` both work.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Column {
    /// The last field.
    #[default]
    Last,
    /// The field at this 0-based position.
    Index(usize),
    /// The field whose header is this name (the first, if several are); needs a header.
    Name(String),
}

impl From<usize> for Column {
    fn from(index: usize) -> Self {
        Column::Index(index)
    }
}

impl From<&str> for Column {
    fn from(name: &str) -> Self {
        Column::Name(name.into())
    }
}

impl From<String> for Column {
    fn from(name: String) -> Self {
        Column::Name(name)
    }
}

impl From<LabelColumn> for Column {
    fn from(label: LabelColumn) -> Self {
        match label {
            LabelColumn::Last => Column::Last,
            LabelColumn::Index(i) => Column::Index(i),
        }
    }
}

/// A CSV table reader configured step by step: header or not, which column is the target,
/// separator; then [`parse_classification`](Self::parse_classification) for integer class labels
/// or [`parse_regression`](Self::parse_regression) for float targets (and `read_*` for files).
///
/// Every field other than the target is a feature and must be a finite number. Malformed input is
/// a [`DataError`] with the line and the 1-based column; errors quote at most 80 characters of a
/// field. Lines end at `\n`, `\r\n` or a lone `\r`, and blank lines (which are skipped) count.
///
/// # Examples
///
/// A regression target chosen by its header name, in the middle of the row:
///
/// ```
/// use autodiff_runtime::data::CsvReader;
///
/// let text = "rooms,price,area\n3,250.5,80\n2,180,61.5\n";
/// let houses = CsvReader::new()
///     .has_header(true)
///     .target("price")
///     .parse_regression(text.as_bytes(), "houses.csv")?;
/// assert_eq!(houses.targets, [250.5, 180.0]);
/// assert_eq!(houses.row(1), Some(&[2.0, 61.5][..]));
/// assert_eq!(houses.feature_names, ["rooms", "area"]);
/// assert_eq!(houses.target_name.as_deref(), Some("price"));
///
/// // Without a header, by position; class labels this time.
/// let table = CsvReader::new()
///     .target(0)
///     .delimiter(b';')
///     .parse_classification("1;0.5\n0;2.5\n".as_bytes(), "inline.csv")?;
/// assert_eq!((table.labels.as_slice(), table.n_classes), (&[1, 0][..], 2));
/// # Ok::<(), autodiff_runtime::data::DataError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvReader {
    has_header: bool,
    target: Column,
    num_classes: Option<usize>,
    delimiter: u8,
}

impl Default for CsvReader {
    /// As [`CsvReader::new`].
    fn default() -> Self {
        CsvReader::new()
    }
}

impl From<&CsvOptions> for CsvReader {
    fn from(options: &CsvOptions) -> Self {
        CsvReader {
            has_header: options.has_header,
            target: options.label.into(),
            num_classes: options.num_classes,
            delimiter: options.delimiter,
        }
    }
}

impl From<CsvOptions> for CsvReader {
    fn from(options: CsvOptions) -> Self {
        CsvReader::from(&options)
    }
}

/// A row's target, parsed from its field.
trait Target: Sized {
    /// Parses the field (already trimmed) of a row; `Err` is the kind of error to report.
    fn parse(text: &str, field: &str, num_classes: Option<usize>) -> Result<Self, DataErrorKind>;
}

impl Target for usize {
    fn parse(text: &str, field: &str, num_classes: Option<usize>) -> Result<Self, DataErrorKind> {
        let label = text
            .parse::<usize>()
            .map_err(|_| DataErrorKind::InvalidLabel {
                field: quote(field),
            })?;
        match num_classes {
            Some(classes) if label >= classes => {
                Err(DataErrorKind::LabelOutOfRange { label, classes })
            }
            None if label >= MAX_INFERRED_CLASSES => Err(DataErrorKind::LabelTooLarge {
                label,
                limit: MAX_INFERRED_CLASSES,
            }),
            _ => Ok(label),
        }
    }
}

impl Target for f32 {
    fn parse(text: &str, field: &str, _: Option<usize>) -> Result<Self, DataErrorKind> {
        parse_number(text, field)
    }
}

/// What a parse collects before it becomes a [`Dataset`] or a [`RegressionDataset`].
struct Table<T> {
    features: Vec<f32>,
    targets: Vec<T>,
    n_features: usize,
    header: Option<StringRecord>,
    target_column: usize,
}

impl CsvReader {
    /// No header, target last, classes from the data, comma-separated.
    ///
    /// # Examples
    ///
    /// See [`CsvReader`].
    #[must_use]
    pub fn new() -> Self {
        CsvReader {
            has_header: false,
            target: Column::Last,
            num_classes: None,
            delimiter: b',',
        }
    }

    /// Whether the first line is a header: it names the columns and sets the expected number of
    /// fields. Default: no header.
    ///
    /// # Examples
    ///
    /// See [`CsvReader`].
    #[must_use]
    pub fn has_header(mut self, yes: bool) -> Self {
        self.has_header = yes;
        self
    }

    /// The column of the target: a 0-based index, a header name, or [`Column::Last`] (the
    /// default).
    ///
    /// # Examples
    ///
    /// See [`CsvReader`].
    #[must_use]
    pub fn target(mut self, column: impl Into<Column>) -> Self {
        self.target = column.into();
        self
    }

    /// For classification: the number of classes, which every label must be below. Without it the
    /// number is the largest label plus one, and labels must be below [`MAX_INFERRED_CLASSES`].
    /// Regression ignores it.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::data::{CsvReader, DataErrorKind};
    ///
    /// let err = CsvReader::new().num_classes(3).parse_classification("0.5,3\n".as_bytes(), "m").unwrap_err();
    /// assert!(matches!(err.kind, DataErrorKind::LabelOutOfRange { label: 3, classes: 3 }));
    /// ```
    #[must_use]
    pub fn num_classes(mut self, classes: usize) -> Self {
        self.num_classes = Some(classes);
        self
    }

    /// The field separator, `b','` by default.
    ///
    /// # Examples
    ///
    /// See [`CsvReader`].
    #[must_use]
    pub fn delimiter(mut self, delimiter: u8) -> Self {
        self.delimiter = delimiter;
        self
    }

    /// Reads a file of features and one integer class label per row.
    ///
    /// # Errors
    ///
    /// As [`parse_classification`](Self::parse_classification), and
    /// [`DataErrorKind::Io`] if the file cannot be read.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use autodiff_runtime::data::CsvReader;
    ///
    /// let table = CsvReader::new().has_header(true).target("species").read_classification("flowers.csv")?;
    /// # Ok::<(), autodiff_runtime::data::DataError>(())
    /// ```
    pub fn read_classification(&self, path: impl AsRef<Path>) -> Result<Dataset, DataError> {
        let path = path.as_ref();
        let bytes = read_file(path)?;
        self.parse_classification(bytes.as_slice(), &path.display().to_string())
    }

    /// Reads a file of features and one float regression target per row.
    ///
    /// # Errors
    ///
    /// As [`parse_regression`](Self::parse_regression), and [`DataErrorKind::Io`] if the file
    /// cannot be read.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use autodiff_runtime::data::CsvReader;
    ///
    /// let houses = CsvReader::new().has_header(true).target("price").read_regression("houses.csv")?;
    /// # Ok::<(), autodiff_runtime::data::DataError>(())
    /// ```
    pub fn read_regression(&self, path: impl AsRef<Path>) -> Result<RegressionDataset, DataError> {
        let path = path.as_ref();
        let bytes = read_file(path)?;
        self.parse_regression(bytes.as_slice(), &path.display().to_string())
    }

    /// Parses CSV text of features and one integer class label per row; `source` names the input
    /// in errors.
    ///
    /// # Errors
    ///
    /// A [`DataError`] with the line and column for: no data rows, a row whose field count
    /// differs from the header's (or the first row's), a target column that does not exist
    /// ([`DataErrorKind::NoSuchColumn`], [`DataErrorKind::UnknownColumn`]), a feature that is not a
    /// finite number, a label that is not a non-negative integer, is not below the number of
    /// classes, or (without one) is not below [`MAX_INFERRED_CLASSES`], and invalid UTF-8.
    ///
    /// # Examples
    ///
    /// See [`CsvReader`].
    pub fn parse_classification<R: Read>(
        &self,
        reader: R,
        source: &str,
    ) -> Result<Dataset, DataError> {
        self.parse_after(reader, source, 0)
    }

    /// Parses CSV text of features and one float regression target per row; `source` names the
    /// input in errors. With a header, the result keeps the column names.
    ///
    /// # Errors
    ///
    /// As [`parse_classification`](Self::parse_classification), except that the target, like every
    /// feature, must be a finite number ([`DataErrorKind::NotANumber`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::data::{CsvReader, DataErrorKind};
    ///
    /// let data = CsvReader::new().parse_regression("0.5,1.25\n2,-3e2\n".as_bytes(), "mem.csv")?;
    /// assert_eq!((data.features.as_slice(), data.targets.as_slice()), (&[0.5, 2.0][..], &[1.25, -300.0][..]));
    ///
    /// let err = CsvReader::new().parse_regression("1,2\n3,oops\n".as_bytes(), "mem.csv").unwrap_err();
    /// assert_eq!(err.to_string(), "mem.csv:2:2: `oops` is not a finite number");
    /// # Ok::<(), autodiff_runtime::data::DataError>(())
    /// ```
    pub fn parse_regression<R: Read>(
        &self,
        reader: R,
        source: &str,
    ) -> Result<RegressionDataset, DataError> {
        let table = self.parse_table::<R, f32>(reader, source, 0)?;
        let (feature_names, target_name) = match &table.header {
            Some(header) => (
                header
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != table.target_column)
                    .map(|(_, name)| name.trim().to_string())
                    .collect(),
                header
                    .get(table.target_column)
                    .map(|s| s.trim().to_string()),
            ),
            None => (Vec::new(), None),
        };
        Ok(RegressionDataset {
            features: table.features,
            targets: table.targets,
            n_features: table.n_features,
            feature_names,
            target_name,
        })
    }

    /// Parses like [`parse_classification`](Self::parse_classification) text that starts after
    /// line `skipped_lines` of the file, so errors give the file's line numbers.
    pub(super) fn parse_after<R: Read>(
        &self,
        reader: R,
        source: &str,
        skipped_lines: u64,
    ) -> Result<Dataset, DataError> {
        let table = self.parse_table::<R, usize>(reader, source, skipped_lines)?;
        // Each label is below `num_classes` or `MAX_INFERRED_CLASSES`: `+ 1` cannot overflow.
        let largest = table.targets.iter().max().copied().unwrap_or(0);
        Ok(Dataset {
            features: table.features,
            n_classes: self.num_classes.unwrap_or(largest + 1),
            labels: table.targets,
            n_features: table.n_features,
            class_names: Vec::new(),
        })
    }

    fn parse_table<R: Read, T: Target>(
        &self,
        reader: R,
        source: &str,
        skipped_lines: u64,
    ) -> Result<Table<T>, DataError> {
        let mut rdr = ReaderBuilder::new()
            .has_headers(self.has_header)
            .flexible(true)
            .delimiter(self.delimiter)
            .from_reader(LineStarts::new(reader));
        let err = |kind, line: Option<u64>, column| {
            DataError::new(source, kind).at(line.map(|l| l + skipped_lines), column)
        };
        // The line of a record from its byte offset: the `csv` crate counts `\n` only and from
        // the end of the previous record, which is wrong after `\r` endings and blank lines.
        let line_of = |rdr: &mut ::csv::Reader<LineStarts<R>>,
                       position: Option<&::csv::Position>| {
            position.map(|p| rdr.get_mut().line_at(p.byte()).unwrap_or(p.line()))
        };
        let csv_err = |rdr: &mut ::csv::Reader<LineStarts<R>>, e: ::csv::Error| {
            let line = line_of(rdr, e.position());
            csv_error(source, e, line.map(|l| l + skipped_lines))
        };

        let mut expected = None;
        let mut header = None;
        let mut target_column = None;
        if self.has_header {
            let names = match rdr.headers() {
                Ok(names) => names.clone(),
                Err(e) => return Err(csv_err(&mut rdr, e)),
            };
            expected = Some(names.len()).filter(|n| *n > 0);
            if let Column::Name(name) = &self.target {
                let Some(j) = names.iter().position(|h| h.trim() == name.trim()) else {
                    let kind = DataErrorKind::UnknownColumn {
                        name: quote(name),
                        has_header: true,
                    };
                    // No line when there is no header line (the input is empty or blank).
                    let line = names
                        .position()
                        .and_then(|p| rdr.get_mut().line_at(p.byte()));
                    return Err(err(kind, line, None));
                };
                target_column = Some(j);
            }
            header = Some(names);
        } else if let Column::Name(name) = &self.target {
            let kind = DataErrorKind::UnknownColumn {
                name: quote(name),
                has_header: false,
            };
            return Err(DataError::new(source, kind));
        }
        let mut table = Table {
            features: Vec::new(),
            targets: Vec::new(),
            n_features: 0,
            header,
            target_column: 0,
        };
        let mut record = StringRecord::new();
        loop {
            match rdr.read_record(&mut record) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Err(csv_err(&mut rdr, e)),
            }
            let line = line_of(&mut rdr, record.position());
            let columns = record.len();
            let expected = *expected.get_or_insert(columns);
            if columns != expected {
                return Err(err(
                    DataErrorKind::WrongColumnCount {
                        expected,
                        found: columns,
                    },
                    line,
                    None,
                ));
            }
            let target_column = match (&self.target, target_column) {
                (_, Some(j)) => j,
                (Column::Index(i), None) => *i,
                (_, None) => columns.saturating_sub(1),
            };
            if target_column >= columns {
                return Err(err(
                    DataErrorKind::NoSuchColumn {
                        column: target_column,
                        columns,
                    },
                    line,
                    None,
                ));
            }
            for (j, field) in record.iter().enumerate() {
                let text = field.trim();
                if j == target_column {
                    let target = T::parse(text, field, self.num_classes)
                        .map_err(|kind| err(kind, line, Some(j + 1)))?;
                    table.targets.push(target);
                } else {
                    let value =
                        parse_number(text, field).map_err(|kind| err(kind, line, Some(j + 1)))?;
                    table.features.push(value);
                }
            }
            table.n_features = columns - 1;
            table.target_column = target_column;
        }
        if table.targets.is_empty() {
            return Err(DataError::new(source, DataErrorKind::Empty));
        }
        Ok(table)
    }
}

/// A finite `f32`, or [`DataErrorKind::NotANumber`] quoting the field.
fn parse_number(text: &str, field: &str) -> Result<f32, DataErrorKind> {
    text.parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| DataErrorKind::NotANumber {
            field: quote(field),
        })
}

/// The first [`QUOTED_CHARS`] characters of `field`, then `...` if it is longer.
pub(super) fn quote(field: &str) -> String {
    match field.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => std::format!("{}...", &field[..cut]),
        None => field.into(),
    }
}

/// Converts an error of the `csv` crate at `line`, keeping its I/O cause.
fn csv_error(source: &str, e: ::csv::Error, line: Option<u64>) -> DataError {
    let message = e.to_string();
    let kind = match e.into_kind() {
        ::csv::ErrorKind::Io(io) => DataErrorKind::Io(io),
        _ => DataErrorKind::Csv(message),
    };
    DataError::new(source, kind).at(line, None)
}

/// A reader that notes where the lines of its input start, ending in `\n`, `\r\n` or `\r`, so that
/// a record's byte offset gives its line.
///
/// Only lines with something on them are kept (a record never starts on an empty one), and only
/// until a record after them is looked up: those the `csv` crate has read ahead of its record.
struct LineStarts<R> {
    inner: R,
    /// Bytes read so far.
    offset: u64,
    /// The line the next byte is on.
    line: u64,
    /// Whether the next byte starts a line.
    at_line_start: bool,
    /// Whether the last byte was `\r` (a `\n` after it ends the same line).
    after_cr: bool,
    /// `(offset, line)` of the starts of non-empty lines not yet passed.
    starts: VecDeque<(u64, u64)>,
}

impl<R> LineStarts<R> {
    fn new(inner: R) -> Self {
        LineStarts {
            inner,
            offset: 0,
            line: 1,
            at_line_start: true,
            after_cr: false,
            starts: VecDeque::new(),
        }
    }

    /// The line of the first non-empty line starting at or after `offset` (a record's start,
    /// which follows a line break or the start of the input), once its first byte has been read;
    /// forgets the lines before it. Offsets must not decrease from call to call.
    fn line_at(&mut self, offset: u64) -> Option<u64> {
        while self
            .starts
            .front()
            .is_some_and(|&(start, _)| start < offset)
        {
            self.starts.pop_front();
        }
        self.starts.front().map(|&(_, line)| line)
    }

    fn note(&mut self, bytes: &[u8]) {
        for &b in bytes {
            let crlf = self.after_cr && b == b'\n';
            self.after_cr = b == b'\r';
            if !crlf {
                let line_break = matches!(b, b'\n' | b'\r');
                if self.at_line_start && !line_break {
                    self.starts.push_back((self.offset, self.line));
                }
                self.at_line_start = line_break;
                self.line += u64::from(line_break);
            }
            self.offset += 1;
        }
    }
}

impl<R: Read> Read for LineStarts<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.note(&buf[..n]);
        Ok(n)
    }
}
