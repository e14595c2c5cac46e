//! CSV tables of numeric features and an integer class label, read with the `csv` crate.

use std::io::Read;
use std::path::Path;
use std::string::ToString;
use std::vec::Vec;

use ::csv::{ReaderBuilder, StringRecord};

use super::{DataError, DataErrorKind, Dataset, read_file};

/// Which field of each row holds the class label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LabelColumn {
    /// The last field.
    #[default]
    Last,
    /// The field at this 0-based position.
    Index(usize),
}

/// How to read a CSV table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvOptions {
    /// Whether the first line is a header (it then sets the expected number of fields).
    pub has_header: bool,
    /// Where the label is; every other field is a feature.
    pub label: LabelColumn,
    /// Number of classes; labels must be below it. `None` takes the largest label plus one.
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
/// `num_classes`, and invalid UTF-8.
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
    let path = path.as_ref();
    let bytes = read_file(path)?;
    parse_csv(bytes.as_slice(), &path.display().to_string(), options)
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
    parse_after(reader, source, options, 0)
}

/// Parses like [`parse_csv`] text that starts after line `skipped_lines` of the file, so errors
/// give the file's line numbers.
pub(super) fn parse_after<R: Read>(
    reader: R,
    source: &str,
    options: &CsvOptions,
    skipped_lines: u64,
) -> Result<Dataset, DataError> {
    let mut rdr = ReaderBuilder::new()
        .has_headers(options.has_header)
        .flexible(true)
        .delimiter(options.delimiter)
        .from_reader(reader);
    let err = |kind, line: Option<u64>, column| {
        DataError::new(source, kind).at(line.map(|l| l + skipped_lines), column)
    };

    let mut expected = None;
    if options.has_header {
        let header = rdr
            .headers()
            .map_err(|e| csv_error(source, e, skipped_lines))?;
        expected = Some(header.len()).filter(|n| *n > 0);
    }
    let mut data = Dataset {
        features: Vec::new(),
        labels: Vec::new(),
        n_features: 0,
        n_classes: 0,
        class_names: Vec::new(),
    };
    let mut record = StringRecord::new();
    while rdr
        .read_record(&mut record)
        .map_err(|e| csv_error(source, e, skipped_lines))?
    {
        let line = record.position().map(::csv::Position::line);
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
        let label_column = match options.label {
            LabelColumn::Last => columns.saturating_sub(1),
            LabelColumn::Index(i) => i,
        };
        if label_column >= columns {
            return Err(err(
                DataErrorKind::NoSuchColumn {
                    column: label_column,
                    columns,
                },
                line,
                None,
            ));
        }
        for (j, field) in record.iter().enumerate() {
            let text = field.trim();
            if j == label_column {
                let label = text.parse::<usize>().map_err(|_| {
                    err(
                        DataErrorKind::InvalidLabel {
                            field: field.into(),
                        },
                        line,
                        Some(j + 1),
                    )
                })?;
                if let Some(classes) = options.num_classes.filter(|c| label >= *c) {
                    return Err(err(
                        DataErrorKind::LabelOutOfRange { label, classes },
                        line,
                        Some(j + 1),
                    ));
                }
                data.labels.push(label);
            } else {
                let value = text.parse::<f32>().ok().filter(|v| v.is_finite());
                let value = value.ok_or_else(|| {
                    err(
                        DataErrorKind::NotANumber {
                            field: field.into(),
                        },
                        line,
                        Some(j + 1),
                    )
                })?;
                data.features.push(value);
            }
        }
        data.n_features = columns - 1;
    }
    if data.labels.is_empty() {
        return Err(DataError::new(source, DataErrorKind::Empty));
    }
    let largest = data.labels.iter().max().copied().unwrap_or(0);
    data.n_classes = options.num_classes.unwrap_or(largest + 1);
    Ok(data)
}

/// Converts an error of the `csv` crate, keeping its line and I/O cause.
fn csv_error(source: &str, e: ::csv::Error, skipped_lines: u64) -> DataError {
    let line = e.position().map(|p| p.line() + skipped_lines);
    let message = e.to_string();
    let kind = match e.into_kind() {
        ::csv::ErrorKind::Io(io) => DataErrorKind::Io(io),
        _ => DataErrorKind::Csv(message),
    };
    DataError::new(source, kind).at(line, None)
}
