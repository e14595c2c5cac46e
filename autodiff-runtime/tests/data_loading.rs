//! Data loading: the bundled sets, and one test per kind of malformed input, each a typed
//! `DataError` with its place in the file (never a panic).

use std::path::{Path, PathBuf};

use autodiff_runtime::data::{
    BatchLoader, CharCorpus, Column, CsvOptions, CsvReader, DataError, DataErrorKind, IdxData,
    LabelColumn, LastBatch, MAX_INFERRED_CLASSES, bundled, fill_windows, parse_csv, parse_idx,
    read_csv, read_idx, read_idx_dataset,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// A file named as the test names it, alone in a fresh directory under the system temp
/// directory; both are removed when it drops.
struct TempFile {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

/// Writes `bytes` to a file `name` of a fresh temp directory.
fn temp_file(name: &str, bytes: &[u8]) -> TempFile {
    let dir = tempfile::Builder::new()
        .prefix("autodiff-runtime-tests-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    TempFile { path, _dir: dir }
}

fn csv(text: &str, options: &CsvOptions) -> Result<autodiff_runtime::data::Dataset, DataError> {
    parse_csv(text.as_bytes(), "mem.csv", options)
}

fn plain() -> CsvOptions {
    CsvOptions::default()
}

// ---- CSV ----

#[test]
fn csv_reads_features_and_labels_with_header_and_label_column() {
    let options = CsvOptions {
        has_header: true,
        label: LabelColumn::Index(0),
        num_classes: Some(4),
        delimiter: b';',
    };
    let d = csv("class;x;y\n3; 1.5;-2\n0;0.25;1e2\n", &options).unwrap();
    assert_eq!((d.len(), d.n_features, d.n_classes), (2, 2, 4));
    assert_eq!(d.features, [1.5, -2.0, 0.25, 100.0]);
    assert_eq!(d.labels, [3, 0]);
    assert_eq!(d.row(1), Some(&[0.25, 100.0][..]));
    assert_eq!(d.row(2), None);
    // Fields that do not agree (they are public): `None`, where `i * n_features` overflowed.
    let odd = autodiff_runtime::data::Dataset {
        features: Vec::new(),
        labels: vec![0, 1],
        n_features: usize::MAX,
        n_classes: 2,
        class_names: Vec::new(),
    };
    assert_eq!(odd.row(1), None);
    let (head, tail) = d.split_at(1);
    assert_eq!(
        (head.features.as_slice(), head.labels.as_slice()),
        (&[1.5, -2.0][..], &[3][..])
    );
    assert_eq!(
        (tail.len(), tail.n_classes, tail.row(0)),
        (1, 4, Some(&[0.25, 100.0][..]))
    );
    assert_eq!(d.split_at(9).1.len(), 0);
    // Without num_classes, the classes are 0..=max label.
    assert_eq!(csv("1,7\n2,3\n", &plain()).unwrap().n_classes, 8);
}

#[test]
fn csv_truncated_file_is_a_wrong_column_count_on_its_last_line() {
    let err = csv("1,2,0\n3,4,1\n5,", &plain()).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::WrongColumnCount {
                expected: 3,
                found: 2
            }
        ),
        "{err}"
    );
    assert_eq!(err.line, Some(3));
}

#[test]
fn csv_errors_name_the_line_whatever_the_line_endings() {
    // The `csv` crate counts `\n` only, from the end of the record before: with `\r\n` every
    // error was a line early per line before it, with `\r` on line 1, and after blank lines on
    // the first blank one.
    for end in ["\n", "\r\n", "\r"] {
        let lines = |lines: &[&str]| {
            lines
                .iter()
                .map(|l| format!("{l}{end}"))
                .collect::<String>()
        };
        let cases = [
            // (text, header, line of the error, column)
            (lines(&["1,0", "2,0", "x,0"]), false, 3, Some(1)),
            (lines(&["a,b", "1,0", "", "", "1,x"]), true, 5, Some(2)),
            (lines(&["1,0", "", "1,0,0"]), false, 3, None),
            (lines(&["", "", "1,0", "y,1"]), false, 4, Some(1)),
            (lines(&["\"1", "\",0", "z,1"]), false, 3, Some(1)),
            (lines(&["", "a,b", "1,0", "2,1"]), true, 2, None),
        ];
        for (text, has_header, line, column) in cases {
            let reader = CsvReader::new().has_header(has_header);
            let reader = if column.is_none() && has_header {
                reader.target("nope")
            } else {
                reader
            };
            let err = reader
                .parse_classification(text.as_bytes(), "mem.csv")
                .unwrap_err();
            assert_eq!(
                (err.line, err.column),
                (Some(line), column),
                "{text:?}: {err}"
            );
        }
    }
}

#[test]
fn csv_wrong_column_count_against_the_header() {
    let options = CsvOptions {
        has_header: true,
        ..plain()
    };
    let err = csv("a,b,label\n1,2,0\n1,2,3,0\n", &options).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::WrongColumnCount {
                expected: 3,
                found: 4
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "mem.csv:3: expected 3 fields like the first row, found 4"
    );
}

#[test]
fn csv_non_numeric_and_non_finite_fields() {
    for (text, bad, column) in [
        ("1,abc,0\n", "abc", 2),
        ("nan,1,0\n", "nan", 1),
        ("1,inf,0\n", "inf", 2),
        ("1,,0\n", "", 2),
    ] {
        let err = csv(text, &plain()).unwrap_err();
        match &err.kind {
            DataErrorKind::NotANumber { field } => assert_eq!(field, bad),
            other => panic!("{text:?}: expected NotANumber, got {other:?}"),
        }
        assert_eq!((err.line, err.column), (Some(1), Some(column)), "{text:?}");
    }
    // A number too large for f32 overflows to infinity: rejected, not stored.
    assert!(matches!(
        csv("1e39,0\n", &plain()).unwrap_err().kind,
        DataErrorKind::NotANumber { .. }
    ));
}

#[test]
fn csv_empty_inputs() {
    assert!(matches!(
        csv("", &plain()).unwrap_err().kind,
        DataErrorKind::Empty
    ));
    assert!(matches!(
        csv("\n\n", &plain()).unwrap_err().kind,
        DataErrorKind::Empty
    ));
    let header_only = csv(
        "a,b,label\n",
        &CsvOptions {
            has_header: true,
            ..plain()
        },
    )
    .unwrap_err();
    assert!(matches!(header_only.kind, DataErrorKind::Empty));
    assert_eq!(header_only.to_string(), "mem.csv: no data");
}

#[test]
fn csv_labels_out_of_range_or_not_integers() {
    let options = CsvOptions {
        num_classes: Some(3),
        ..plain()
    };
    let err = csv("1,2,0\n1,2,3\n", &options).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::LabelOutOfRange {
                label: 3,
                classes: 3
            }
        ),
        "{err}"
    );
    assert_eq!((err.line, err.column), (Some(2), Some(3)));
    for bad in ["-1", "1.5", "x", ""] {
        let err = csv(&format!("1,2,{bad}\n"), &plain()).unwrap_err();
        assert!(
            matches!(&err.kind, DataErrorKind::InvalidLabel { field } if field == bad),
            "{bad:?}: {err}"
        );
    }
    let err = csv(
        "1,2\n",
        &CsvOptions {
            label: LabelColumn::Index(5),
            ..plain()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::NoSuchColumn {
                column: 5,
                columns: 2
            }
        ),
        "{err}"
    );
}

#[test]
fn csv_file_errors_name_the_file() {
    let path = temp_file("bad.csv", b"1,2,0\n1,x,0\n");
    let err = read_csv(&path, &plain()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{}:2:2: `x` is not a finite number", path.display())
    );

    let missing = path.with_file_name("does-not-exist.csv");
    let err = read_csv(&missing, &plain()).unwrap_err();
    assert!(matches!(err.kind, DataErrorKind::Io(_)), "{err}");
    assert!(err.to_string().starts_with(&missing.display().to_string()));
    assert!(std::error::Error::source(&err).is_some());

    let err = read_csv(temp_file("latin1.csv", b"1,2,0\n1,\xe9,0\n"), &plain()).unwrap_err();
    assert!(matches!(err.kind, DataErrorKind::Csv(_)), "{err}");
    assert_eq!(err.line, Some(2));
}

/// The input the cargo-fuzz `csv` target found: a label near `usize::MAX` overflowed
/// `largest + 1` (a panic in debug, zero classes in release). Now a typed error at the label.
#[test]
fn csv_absurd_labels_are_errors_not_overflows() {
    for label in [usize::MAX, usize::MAX - 1, 1 << 40, MAX_INFERRED_CLASSES] {
        let err = csv(&format!("0.5,1\n0.25,{label}\n"), &plain()).unwrap_err();
        assert!(
            matches!(err.kind, DataErrorKind::LabelTooLarge { label: l, limit } if l == label && limit == MAX_INFERRED_CLASSES),
            "{label}: {err}"
        );
        assert_eq!((err.line, err.column), (Some(2), Some(2)), "{err}");
        assert!(
            err.to_string()
                .starts_with(&format!("mem.csv:2:2: label {label} is too large")),
            "{err}"
        );
    }
    assert_eq!(
        csv("1,18446744073709551615\n", &plain())
            .unwrap_err()
            .to_string(),
        "mem.csv:1:2: label 18446744073709551615 is too large to infer the number of classes from \
         (labels must be below 65536); give the number of classes to allow more"
    );
    // The largest label allowed without a class count, and any label below an explicit count.
    let d = csv(&format!("1,{}\n", MAX_INFERRED_CLASSES - 1), &plain()).unwrap();
    assert_eq!(d.n_classes, MAX_INFERRED_CLASSES);
    let huge = CsvOptions {
        num_classes: Some(usize::MAX),
        ..plain()
    };
    let d = csv("1,18446744073709551614\n", &huge).unwrap();
    assert_eq!((d.labels[0], d.n_classes), (usize::MAX - 1, usize::MAX));
    // Past usize: not an integer label at all.
    assert!(matches!(
        csv("1,18446744073709551616\n", &plain()).unwrap_err().kind,
        DataErrorKind::InvalidLabel { .. }
    ));
}

#[test]
fn csv_errors_quote_at_most_80_characters_of_a_field() {
    let long = "é".repeat(100) + "x";
    for (text, reader) in [
        (format!("1,{long},0\n"), CsvReader::new()),
        (format!("1,2,{long}\n"), CsvReader::new()),
        (format!("1,{long}\n"), CsvReader::new().target(0)),
    ] {
        let classification = reader.parse_classification(text.as_bytes(), "long.csv");
        let regression = reader.parse_regression(text.as_bytes(), "long.csv");
        for err in [classification.unwrap_err(), regression.unwrap_err()] {
            let field = match &err.kind {
                DataErrorKind::NotANumber { field } | DataErrorKind::InvalidLabel { field } => {
                    field
                }
                other => panic!("{text:?}: {other:?}"),
            };
            assert_eq!(field.chars().count(), 83, "{field}");
            assert_eq!(*field, "é".repeat(80) + "...");
            assert_eq!(err.line, Some(1));
            assert!(err.column.is_some());
            assert!(err.to_string().len() < 300, "{err}");
        }
    }
    // Exactly 80 characters are quoted whole.
    let eighty = "z".repeat(80);
    let err = csv(&format!("{eighty},0\n"), &plain()).unwrap_err();
    assert!(
        matches!(&err.kind, DataErrorKind::NotANumber { field } if *field == eighty),
        "{err}"
    );
    let name = "n".repeat(200);
    let err = CsvReader::new()
        .has_header(true)
        .target(name.as_str())
        .parse_regression("a,b\n1,2\n".as_bytes(), "h.csv")
        .unwrap_err();
    assert!(
        matches!(&err.kind, DataErrorKind::UnknownColumn { name, has_header: true } if name.len() == 83),
        "{err}"
    );
}

#[test]
fn csv_regression_targets_by_name_index_or_last() {
    let text = "rooms, price ,area\n3,250.5,80\n2,-1e3,61.5\n4,0,100\n";
    let by_name = CsvReader::new()
        .has_header(true)
        .target("price")
        .parse_regression(text.as_bytes(), "houses.csv")
        .unwrap();
    assert_eq!(by_name.targets, [250.5, -1000.0, 0.0]);
    assert_eq!(by_name.features, [3.0, 80.0, 2.0, 61.5, 4.0, 100.0]);
    assert_eq!((by_name.len(), by_name.n_features), (3, 2));
    assert_eq!(by_name.feature_names, ["rooms", "area"]);
    assert_eq!(by_name.target_name.as_deref(), Some("price"));
    let by_index = CsvReader::new()
        .has_header(true)
        .target(1)
        .parse_regression(text.as_bytes(), "houses.csv")
        .unwrap();
    assert_eq!(by_index, by_name);
    let last = CsvReader::new()
        .has_header(true)
        .parse_regression(text.as_bytes(), "houses.csv")
        .unwrap();
    assert_eq!(last.targets, [80.0, 61.5, 100.0]);
    assert_eq!(last.target_name.as_deref(), Some("area"));

    // No header: by position, no names; the same rows give the same numbers.
    let rows = &text[text.find('\n').unwrap() + 1..];
    let plain_rows = CsvReader::new()
        .target(Column::Index(1))
        .delimiter(b',')
        .parse_regression(rows.as_bytes(), "rows.csv")
        .unwrap();
    assert_eq!(
        (plain_rows.features, plain_rows.targets),
        (by_name.features.clone(), by_name.targets.clone())
    );
    assert!(plain_rows.feature_names.is_empty() && plain_rows.target_name.is_none());

    // Float targets are not class labels.
    let err = CsvReader::new()
        .has_header(true)
        .target("price")
        .parse_classification(text.as_bytes(), "houses.csv")
        .unwrap_err();
    assert!(
        matches!(&err.kind, DataErrorKind::InvalidLabel { field } if field == "250.5"),
        "{err}"
    );
    assert_eq!((err.line, err.column), (Some(2), Some(2)));
}

#[test]
fn csv_regression_errors_name_line_and_column() {
    let reader = CsvReader::new().has_header(true).target("y");
    let err = reader
        .parse_regression("x,y\n1,2\n3,nan\n".as_bytes(), "r.csv")
        .unwrap_err();
    assert_eq!(err.to_string(), "r.csv:3:2: `nan` is not a finite number");
    let err = reader
        .parse_regression("x,z\n1,2\n".as_bytes(), "r.csv")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "r.csv:1: no column named `y` in the header"
    );
    let err = CsvReader::new()
        .target("y")
        .parse_regression("1,2\n".as_bytes(), "r.csv")
        .unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::UnknownColumn {
                has_header: false,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("choose the column by index"),
        "{err}"
    );
    let err = CsvReader::new()
        .target(7)
        .parse_regression("1,2\n".as_bytes(), "r.csv")
        .unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::NoSuchColumn {
                column: 7,
                columns: 2
            }
        ),
        "{err}"
    );
    assert!(matches!(
        reader
            .parse_regression("x,y\n".as_bytes(), "r.csv")
            .unwrap_err()
            .kind,
        DataErrorKind::Empty
    ));
    let path = temp_file("regression.csv", b"x,y\n1,2\n1,2,3\n");
    let err = reader.read_regression(&path).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}:3: expected 2 fields like the first row, found 3",
            path.display()
        )
    );
    let ok = temp_file("regression-ok.csv", b"x,y\n1,2\n");
    assert_eq!(reader.read_regression(&ok).unwrap().targets, [2.0]);
}

#[test]
fn csv_reader_reads_classes_like_parse_csv() {
    let text = "class;x;y\n3; 1.5;-2\n0;0.25;1e2\n";
    let options = CsvOptions {
        has_header: true,
        label: LabelColumn::Index(0),
        num_classes: Some(4),
        delimiter: b';',
    };
    let want = csv(text, &options).unwrap();
    let reader = CsvReader::new()
        .has_header(true)
        .target("class")
        .num_classes(4)
        .delimiter(b';');
    assert_eq!(reader, CsvReader::from(&options).target("class"));
    assert_eq!(
        reader
            .parse_classification(text.as_bytes(), "mem.csv")
            .unwrap(),
        want
    );
    let path = temp_file("classes.csv", text.as_bytes());
    assert_eq!(reader.read_classification(&path).unwrap(), want);
    assert_eq!(read_csv(&path, &options).unwrap(), want);
}

// ---- IDX ----

/// An IDX file: header for `type_code` and `dims`, then `payload`.
fn idx(type_code: u8, dims: &[u32], payload: &[u8]) -> Vec<u8> {
    let mut bytes = vec![0, 0, type_code, dims.len() as u8];
    dims.iter()
        .for_each(|d| bytes.extend_from_slice(&d.to_be_bytes()));
    bytes.extend_from_slice(payload);
    bytes
}

#[test]
fn idx_reads_each_element_type_big_endian() {
    let a = parse_idx(&idx(0x08, &[2, 3], &[1, 2, 3, 4, 5, 6]), "u8").unwrap();
    assert_eq!((a.dims.as_slice(), a.len()), (&[2, 3][..], 6));
    assert_eq!(a.to_f32(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let a = parse_idx(&idx(0x09, &[2], &[0xFF, 0x7F]), "i8").unwrap();
    assert_eq!(a.data, IdxData::I8(vec![-1, 127]));
    let a = parse_idx(&idx(0x0B, &[1], &[0x01, 0x02]), "i16").unwrap();
    assert_eq!(a.data, IdxData::I16(vec![0x0102]));
    let a = parse_idx(&idx(0x0C, &[1], &[0xFF, 0xFF, 0xFF, 0xFE]), "i32").unwrap();
    assert_eq!(a.data, IdxData::I32(vec![-2]));
    let a = parse_idx(&idx(0x0D, &[1], &1.5f32.to_be_bytes()), "f32").unwrap();
    assert_eq!(a.data, IdxData::F32(vec![1.5]));
    let a = parse_idx(&idx(0x0E, &[1, 1], &(-0.25f64).to_be_bytes()), "f64").unwrap();
    assert_eq!(a.data, IdxData::F64(vec![-0.25]));
}

#[test]
fn idx_header_sizes_disagreeing_with_the_file_length() {
    let truncated = idx(0x08, &[2, 3], &[1, 2, 3, 4, 5]);
    let err = parse_idx(&truncated, "t.idx").unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::IdxSizeMismatch {
                expected: Some(18),
                found: 17
            }
        ),
        "{err}"
    );
    let trailing = idx(0x0C, &[1], &[0, 0, 0, 1, 9]);
    assert!(matches!(
        parse_idx(&trailing, "t").unwrap_err().kind,
        DataErrorKind::IdxSizeMismatch { .. }
    ));
    // Sizes whose product overflows must not allocate or panic.
    let huge = idx(0x0E, &[u32::MAX, u32::MAX, u32::MAX], &[]);
    let err = parse_idx(&huge, "huge.idx").unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::IdxSizeMismatch { expected: None, .. }
        ),
        "{err}"
    );
}

#[test]
fn idx_truncated_or_invalid_headers() {
    assert!(matches!(
        parse_idx(&[], "e").unwrap_err().kind,
        DataErrorKind::Empty
    ));
    let cases: [(&[u8], &str); 4] = [
        (&[0, 0, 8], "shorter than the 4-byte magic"),
        (
            &[0, 0, 8, 2, 0, 0, 0, 1, 0, 0],
            "ends inside the dimension sizes",
        ),
        (&[1, 0, 8, 1, 0, 0, 0, 0], "two zero bytes"),
        (&[0, 0, 0x0A, 1, 0, 0, 0, 0], "unknown element type"),
    ];
    for (bytes, reason_part) in cases {
        match parse_idx(bytes, "h.idx").unwrap_err().kind {
            DataErrorKind::BadHeader { reason } => {
                assert!(reason.contains(reason_part), "{reason}")
            }
            other => panic!("{bytes:?}: {other:?}"),
        }
    }
}

#[test]
fn idx_float_values_pass_through_but_are_not_features_unless_finite() {
    // NaN and infinities in a float IDX file became NaN and infinite features without a word,
    // and so did f64 values beyond f32's range.
    let nan = f32::NAN.to_be_bytes();
    let mut values = [1.0f32, 2.0, 3.0, 4.0].map(f32::to_be_bytes);
    values[3] = nan;
    let bytes = idx(0x0D, &[2, 2], values.as_flattened());
    // `parse_idx` gives the file's values, bit for bit.
    let IdxData::F32(raw) = parse_idx(&bytes, "x.idx").unwrap().data else {
        panic!("not f32")
    };
    assert_eq!(raw[3].to_bits(), f32::from_be_bytes(nan).to_bits());
    let labels = temp_file("nan-labels.idx", &idx(0x08, &[2], &[0, 1]));
    let images = temp_file("nan-images.idx", &bytes);
    let err = read_idx_dataset(&images, &labels, 2).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::NonFiniteFeature {
                item: 1,
                feature: 1
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "{}: feature 1 of item 1 is not a finite number (as an f32)",
            images.display()
        )
    );
    for bad in [f64::NEG_INFINITY, 1e300] {
        let values = [0.5, bad, 0.25, 0.0].map(f64::to_be_bytes);
        let images = temp_file("inf-images.idx", &idx(0x0E, &[2, 2], values.as_flattened()));
        let err = read_idx_dataset(&images, &labels, 2).unwrap_err();
        assert!(
            matches!(
                err.kind,
                DataErrorKind::NonFiniteFeature {
                    item: 0,
                    feature: 1
                }
            ),
            "{bad}: {err}"
        );
    }
}

#[test]
fn idx_dataset_pairs_images_with_labels() {
    let images = temp_file(
        "images.idx",
        &idx(0x08, &[3, 2, 2], &(0..12).collect::<Vec<u8>>()),
    );
    let labels = temp_file("labels.idx", &idx(0x08, &[3], &[2, 0, 1]));
    let d = read_idx_dataset(&images, &labels, 3).unwrap();
    assert_eq!((d.len(), d.n_features, d.n_classes), (3, 4, 3));
    assert_eq!(d.row(2), Some(&[8.0, 9.0, 10.0, 11.0][..]));
    assert_eq!(d.labels, [2, 0, 1]);
    assert_eq!(read_idx(&labels).unwrap().dims, [3]);

    let err = read_idx_dataset(&images, &labels, 2).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::LabelOutOfRange {
                label: 2,
                classes: 2
            }
        ),
        "{err}"
    );
    let two_labels = temp_file("labels2.idx", &idx(0x08, &[2], &[0, 1]));
    let err = read_idx_dataset(&images, &two_labels, 3).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::CountMismatch {
                features: 3,
                labels: 2
            }
        ),
        "{err}"
    );
    let float_labels = temp_file("labels3.idx", &idx(0x0D, &[1], &[0; 4]));
    assert!(matches!(
        read_idx_dataset(&images, &float_labels, 3)
            .unwrap_err()
            .kind,
        DataErrorKind::BadHeader { .. }
    ));
}

// ---- Character corpus ----

#[test]
fn corpus_window_longer_than_the_text() {
    let corpus = CharCorpus::from_text("abcde", "tiny").unwrap();
    let (mut x, mut y) = ([[7usize; 5]; 2], [[7usize; 5]; 2]);
    let err = fill_windows(
        corpus.tokens(),
        &mut x,
        &mut y,
        &mut SmallRng::seed_from_u64(0),
    )
    .unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::WindowTooLong {
                needed: 6,
                available: 5
            }
        ),
        "{err}"
    );
    assert_eq!(
        (x, y),
        ([[7; 5]; 2], [[7; 5]; 2]),
        "arrays must be left unchanged"
    );
    // Exactly T + 1 tokens is enough, and there is only one window.
    let (mut x, mut y) = ([[0usize; 4]; 3], [[0usize; 4]; 3]);
    fill_windows(
        corpus.tokens(),
        &mut x,
        &mut y,
        &mut SmallRng::seed_from_u64(0),
    )
    .unwrap();
    assert_eq!((x, y), ([[0, 1, 2, 3]; 3], [[1, 2, 3, 4]; 3]));
}

#[test]
fn corpus_rejects_unknown_characters_tokens_and_empty_text() {
    let corpus = CharCorpus::from_text("hello", "greeting").unwrap();
    assert!(matches!(
        corpus.encode("help").unwrap_err().kind,
        DataErrorKind::UnknownChar('p')
    ));
    assert!(matches!(
        corpus.decode(&[0, 4]).unwrap_err().kind,
        DataErrorKind::UnknownToken(4)
    ));
    assert!(matches!(
        CharCorpus::from_text("", "nothing").unwrap_err().kind,
        DataErrorKind::Empty
    ));
    // Token ids are u16: 65,536 distinct characters fit, one more does not.
    let distinct = |n: u32| -> String {
        (0x100..)
            .filter_map(char::from_u32)
            .take(n as usize)
            .collect()
    };
    let corpus = CharCorpus::from_text(&distinct(65_536), "wide").unwrap();
    assert_eq!(corpus.tokens().last(), Some(&u16::MAX));
    let err = CharCorpus::from_text(&distinct(65_537), "wider").unwrap_err();
    assert!(matches!(err.kind, DataErrorKind::VocabTooLarge(65_537)));
    assert!(
        err.to_string()
            .starts_with("wider: 65537 distinct characters")
    );
    let err = CharCorpus::read(temp_file("bad.txt", b"ok\nstill ok\n\xff")).unwrap_err();
    assert!(matches!(err.kind, DataErrorKind::InvalidUtf8), "{err}");
    assert_eq!(err.line, Some(3));
}

#[test]
fn corpus_invalid_utf8_is_placed_by_line_and_character_whatever_the_line_endings() {
    // Lines were counted at `\n` only (a `\r` file's bad byte was always on line 1), and the
    // error had no column.
    for (bytes, line, column) in [
        (&b"ab\ncd\n\xe9t\xe9"[..], 3, 1),
        (b"ab\r\ncd\r\nx\xff", 3, 2),
        (b"ab\rcd\r\r\xc3\xa9t\xc3\xa9 \xfe", 4, 5),
        (b"\r\n\n\r\x80", 4, 1),
        (b"caf\xc3\xa9\xc3", 1, 5),
    ] {
        let err = CharCorpus::read(temp_file("bad-endings.txt", bytes)).unwrap_err();
        assert!(matches!(err.kind, DataErrorKind::InvalidUtf8), "{err}");
        assert_eq!(
            (err.line, err.column),
            (Some(line), Some(column)),
            "{bytes:?}"
        );
    }
}

// ---- Bundled data sets ----

#[test]
fn bundled_digits() {
    let d = bundled::digits(bundled::data_dir().join("digits/digits.csv")).unwrap();
    assert_eq!((d.len(), d.n_features, d.n_classes), (1797, 64, 10));
    // The first line of digits.csv: 64 pixels, then class 0.
    assert_eq!(
        &d.row(0).unwrap()[..8],
        [0.0, 0.0, 5.0, 13.0, 9.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(d.labels[..3], [0, 1, 2]);
    assert!(d.features.iter().all(|p| (0.0..=16.0).contains(p)));
    let mut per_class = [0; 10];
    d.labels.iter().for_each(|&l| per_class[l] += 1);
    assert!(
        per_class.iter().all(|&n| (170..=190).contains(&n)),
        "{per_class:?}"
    );

    // 63 pixels and a label.
    let row = (0..63)
        .map(|i| (i % 17).to_string())
        .chain(["5".to_string()])
        .collect::<Vec<_>>()
        .join(",");
    let short = temp_file("digits63.csv", row.as_bytes());
    let err = bundled::digits(&short).unwrap_err();
    assert!(
        matches!(
            err.kind,
            DataErrorKind::FeatureCount {
                expected: 64,
                found: 63
            }
        ),
        "{err}"
    );
}

#[test]
fn bundled_iris() {
    let d = bundled::iris(bundled::data_dir().join("iris/iris.csv")).unwrap();
    assert_eq!((d.len(), d.n_features, d.n_classes), (150, 4, 3));
    assert_eq!(d.row(0), Some(&[5.1, 3.5, 1.4, 0.2][..]));
    assert_eq!(d.class_names, ["setosa", "versicolor", "virginica"]);
    for class in 0..3 {
        assert_eq!(d.labels.iter().filter(|&&l| l == class).count(), 50);
    }

    let wrong_count = temp_file("iris-bad.csv", b"3,4,a,b\n1,2,3,4,0\n1,2,3,4,1\n");
    let err = bundled::iris(&wrong_count).unwrap_err();
    assert!(
        matches!(&err.kind, DataErrorKind::BadHeader { reason } if reason.contains("3 rows")),
        "{err}"
    );
    // Every line ending the rows may have ends the header line too.
    for (name, bytes) in [
        ("iris-lf.csv", &b"2,4,a,b\n1,2,3,4,0\n5,6,7,8,1\n"[..]),
        ("iris-crlf.csv", b"2,4,a,b\r\n1,2,3,4,0\r\n5,6,7,8,1\r\n"),
        ("iris-cr.csv", b"2,4,a,b\r1,2,3,4,0\r5,6,7,8,1\r"),
        ("iris-noend.csv", b"2,4,a,b\n1,2,3,4,0\n5,6,7,8,1"),
    ] {
        let d = bundled::iris(temp_file(name, bytes)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((d.len(), d.n_features), (2, 4), "{name}");
        assert_eq!(d.row(1), Some(&[5.0, 6.0, 7.0, 8.0][..]), "{name}");
        assert_eq!(d.labels, [0, 1], "{name}");
        assert_eq!(d.class_names, ["a", "b"], "{name}");
    }
    // A label past the class names, with each line ending: line numbers count the header line
    // (as one line: a `\r\n` read as two ends would put the label on line 4).
    for (name, bytes) in [
        ("iris-label.csv", &b"2,4,a,b\n1,2,3,4,0\n1,2,3,4,2\n"[..]),
        (
            "iris-label-crlf.csv",
            b"2,4,a,b\r\n1,2,3,4,0\r\n1,2,3,4,2\r\n",
        ),
        ("iris-label-cr.csv", b"2,4,a,b\r1,2,3,4,0\r1,2,3,4,2\r"),
    ] {
        let err = bundled::iris(temp_file(name, bytes)).unwrap_err();
        let label_2_of_2 = matches!(
            err.kind,
            DataErrorKind::LabelOutOfRange {
                label: 2,
                classes: 2
            }
        );
        assert!(label_2_of_2, "{name}: {err}");
        assert_eq!(
            err.line,
            Some(3),
            "{name}: line numbers count the header line"
        );
    }
    let no_header = temp_file("iris-nohead.csv", b"x,4,a\n1,2,3,4,0\n");
    assert!(matches!(
        bundled::iris(&no_header).unwrap_err().kind,
        DataErrorKind::BadHeader { .. }
    ));
}

#[test]
fn bundled_tinyshakespeare() {
    let c =
        bundled::tinyshakespeare(bundled::data_dir().join("tinyshakespeare/input.txt")).unwrap();
    assert_eq!(c.vocab().len(), 65);
    assert_eq!(c.tokens().len(), 1_115_394);
    assert_eq!(c.decode(&c.tokens()[..14]).unwrap(), "First Citizen:");
    let (train, val) = c.split(0.9);
    assert_eq!((train.len(), val.len()), (1_003_854, 111_540));
    let (mut x, mut y) = ([[0usize; 32]; 4], [[0usize; 32]; 4]);
    fill_windows(val, &mut x, &mut y, &mut SmallRng::seed_from_u64(5)).unwrap();
    for (xb, yb) in x.iter().zip(&y) {
        assert_eq!(xb[1..], yb[..31]);
    }
}

#[test]
fn batches_over_a_bundled_set_are_deterministic_for_a_seed() {
    let d = bundled::iris(bundled::data_dir().join("iris/iris.csv")).unwrap();
    let run = |seed| {
        let mut loader = BatchLoader::<4, 16>::new(&d, LastBatch::Drop).unwrap();
        loader.shuffle(&mut SmallRng::seed_from_u64(seed));
        let (mut x, mut y) = ([[0.0f32; 4]; 16], [0usize; 16]);
        let mut labels = Vec::new();
        while let Some(n) = loader.next_batch(&mut x, &mut y) {
            assert_eq!(n, 16);
            labels.extend_from_slice(&y);
        }
        labels
    };
    assert_eq!(run(1).len(), 144);
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
}

/// `bytes` with a few random byte flips, insertions, deletions and a random truncation.
fn mutate(bytes: &[u8], rng: &mut SmallRng) -> Vec<u8> {
    use rand::Rng;
    let mut out = bytes.to_vec();
    for _ in 0..rng.gen_range(1..4) {
        let at = rng.gen_range(0..=out.len());
        match rng.gen_range(0..3) {
            0 if at < out.len() => out[at] = rng.r#gen(),
            1 => out.insert(at, *b",\n-.e0x\xff ".get(rng.gen_range(0..9)).unwrap_or(&0)),
            _ if at < out.len() => {
                out.remove(at);
            }
            _ => {}
        }
    }
    let keep = rng.gen_range(out.len() / 2..=out.len());
    out.truncate(keep);
    out
}

/// A stable-toolchain stand-in for the fuzz targets in `fuzz/`: corrupted inputs give an error or
/// a consistent result, never a panic.
#[test]
fn readers_survive_corrupted_input() {
    let mut rng = SmallRng::seed_from_u64(11);
    let iris = std::fs::read(bundled::data_dir().join("iris/iris.csv")).unwrap();
    let csv_base = &iris[34..400]; // the first rows after the header line
    let idx_base = idx(0x0B, &[2, 3], &(0..12).collect::<Vec<u8>>());
    let (mut csv_ok, mut idx_ok) = (0, 0);
    for i in 0..3000 {
        let options = CsvOptions {
            has_header: i % 2 == 0,
            num_classes: Some(3),
            ..plain()
        };
        let text = mutate(csv_base, &mut rng);
        if let Ok(t) = parse_csv(text.as_slice(), "fuzz.csv", &options) {
            assert_eq!(t.features.len(), t.len() * t.n_features);
            assert!(t.features.iter().all(|x| x.is_finite()) && t.labels.iter().all(|&l| l < 3));
            csv_ok += 1;
        }
        let reader = CsvReader::from(&options).target(i % 5);
        if let Ok(t) = reader.parse_regression(text.as_slice(), "fuzz.csv") {
            assert_eq!(t.features.len(), t.len() * t.n_features);
            assert!(t.features.iter().chain(&t.targets).all(|x| x.is_finite()));
        }
        if let Ok(a) = parse_idx(&mutate(&idx_base, &mut rng), "fuzz.idx") {
            assert_eq!(a.len(), a.dims.iter().product::<usize>());
            idx_ok += 1;
        }
    }
    // Both readers saw accepted and rejected inputs.
    assert!(
        (1..3000).contains(&csv_ok) && (1..3000).contains(&idx_ok),
        "{csv_ok} {idx_ok}"
    );
}

/// The vocabulary is every distinct character in code-point order, ASCII and beyond mixed.
#[test]
fn vocabulary_sorts_ascii_and_other_characters() {
    let text = "wörld ∑ héllo, ∂x\n€ zebra ~ \u{7f}\u{80}";
    let c = CharCorpus::<u16>::with_ids_from_text(text, "mixed").unwrap();
    let mut expected: Vec<char> = text.chars().collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(c.vocab(), &expected[..]);
    assert_eq!(c.decode(c.tokens()).unwrap(), text);
}
