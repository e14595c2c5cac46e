//! Loaders for the data sets bundled in the repository's `data/` directory (see each
//! `data/*/SOURCE.md` for origin and licence).
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::data::bundled;
//!
//! let iris = bundled::iris(bundled::data_dir().join("iris/iris.csv"))?;
//! assert_eq!((iris.len(), iris.n_features, iris.n_classes), (150, 4, 3));
//! assert_eq!(iris.class_names, ["setosa", "versicolor", "virginica"]);
//! # Ok::<(), autodiff_runtime::data::DataError>(())
//! ```

use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use super::{CharCorpus, CsvOptions, CsvReader, DataError, DataErrorKind, Dataset, read_file};

/// The repository's `data/` directory, found from this crate's source location, so examples run
/// from a fresh clone whatever the working directory.
#[must_use]
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// The handwritten digits (`data/digits/digits.csv`): 1797 rows of 64 pixels (8x8, values 0 to 16)
/// and a class 0 to 9.
///
/// # Errors
///
/// Any [`read_csv`](super::read_csv) error, and [`DataErrorKind::FeatureCount`] if the rows do not
/// have 64 pixels.
pub fn digits(path: impl AsRef<Path>) -> Result<Dataset, DataError> {
    let path = path.as_ref();
    let options = CsvOptions {
        num_classes: Some(10),
        ..CsvOptions::default()
    };
    let data = super::read_csv(path, &options)?;
    if data.n_features != 64 {
        let kind = DataErrorKind::FeatureCount {
            expected: 64,
            found: data.n_features,
        };
        return Err(DataError::new(path.display().to_string(), kind));
    }
    Ok(data)
}

/// Fisher's iris (`data/iris/iris.csv`): a first line `150,4,setosa,versicolor,virginica` (rows,
/// features, class names), then rows of 4 measurements and the class index.
///
/// # Errors
///
/// Any [`read_csv`](super::read_csv) error, and [`DataErrorKind::BadHeader`] if the first line is
/// malformed or disagrees with the rows that follow.
pub fn iris(path: impl AsRef<Path>) -> Result<Dataset, DataError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let bytes = read_file(path)?;
    let bad = |reason: String| {
        DataError::new(&*name, DataErrorKind::BadHeader { reason }).at(Some(1), None)
    };

    // The first line ends at `\n`, `\r\n` or a lone `\r`, as the rows' lines do.
    let first_len = bytes
        .iter()
        .position(|b| matches!(b, b'\n' | b'\r'))
        .unwrap_or(bytes.len());
    let line_end = if bytes[first_len..].starts_with(b"\r\n") {
        2
    } else {
        1
    };
    let (first_line, rest) = (
        &bytes[..first_len],
        bytes.get(first_len + line_end..).unwrap_or_default(),
    );
    let header: Vec<&str> = core::str::from_utf8(first_line)
        .unwrap_or_default()
        .trim_end()
        .split(',')
        .collect();
    let count = |i: usize| header.get(i).and_then(|f| f.trim().parse::<usize>().ok());
    let (Some(rows), Some(features), [_, _, names @ ..]) = (count(0), count(1), header.as_slice())
    else {
        return Err(bad("expected `rows,features,class names...`".into()));
    };
    let class_names: Vec<String> = names.iter().map(|s| s.trim().to_string()).collect();

    let options = CsvOptions {
        num_classes: Some(class_names.len()),
        ..CsvOptions::default()
    };
    let mut data = CsvReader::from(&options).parse_after(rest, &name, 1)?;
    if rows != data.len() || features != data.n_features {
        return Err(bad(std::format!(
            "it says {rows} rows of {features} features, the file has {} rows of {}",
            data.len(),
            data.n_features
        )));
    }
    data.n_classes = class_names.len();
    data.class_names = class_names;
    Ok(data)
}

/// Tiny Shakespeare (`data/tinyshakespeare/input.txt`) as a character corpus (65 characters),
/// one byte per character (`u8` ids).
///
/// # Errors
///
/// As [`CharCorpus::read_with_ids`].
pub fn tinyshakespeare(path: impl AsRef<Path>) -> Result<CharCorpus<u8>, DataError> {
    CharCorpus::read_with_ids(path)
}
