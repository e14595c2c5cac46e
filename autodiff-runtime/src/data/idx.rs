//! IDX files, the format of MNIST: a 4-byte magic (`0, 0, type, dims`), one big-endian `u32` per
//! dimension, then the values in row-major order, big-endian.

use std::path::Path;
use std::string::ToString;
use std::vec::Vec;

use super::{DataError, DataErrorKind, Dataset, read_file};

/// The values of an IDX file, in the file's element type.
///
/// Float values are kept as the file has them, NaN and infinities included, bit for bit: this is
/// the file's content, not yet a data set. [`read_idx_dataset`], which makes features of them,
/// rejects them.
#[derive(Clone, Debug, PartialEq)]
pub enum IdxData {
    /// Type code `0x08`.
    U8(Vec<u8>),
    /// Type code `0x09`.
    I8(Vec<i8>),
    /// Type code `0x0B`.
    I16(Vec<i16>),
    /// Type code `0x0C`.
    I32(Vec<i32>),
    /// Type code `0x0D`.
    F32(Vec<f32>),
    /// Type code `0x0E`.
    F64(Vec<f64>),
}

/// An IDX file's shape and values.
#[derive(Clone, Debug, PartialEq)]
pub struct IdxArray {
    /// Size of each dimension, outermost first (`[60000, 28, 28]` for MNIST images).
    pub dims: Vec<usize>,
    /// The values, row-major.
    pub data: IdxData,
}

impl IdxArray {
    /// The values converted to `f32` (`f64` values are rounded).
    #[must_use]
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    pub fn to_f32(&self) -> Vec<f32> {
        match &self.data {
            IdxData::U8(v) => v.iter().map(|&x| f32::from(x)).collect(),
            IdxData::I8(v) => v.iter().map(|&x| f32::from(x)).collect(),
            IdxData::I16(v) => v.iter().map(|&x| f32::from(x)).collect(),
            IdxData::I32(v) => v.iter().map(|&x| x as f32).collect(),
            IdxData::F32(v) => v.clone(),
            IdxData::F64(v) => v.iter().map(|&x| x as f32).collect(),
        }
    }

    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.data {
            IdxData::U8(v) => v.len(),
            IdxData::I8(v) => v.len(),
            IdxData::I16(v) => v.len(),
            IdxData::I32(v) => v.len(),
            IdxData::F32(v) => v.len(),
            IdxData::F64(v) => v.len(),
        }
    }

    /// Whether there are no values.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Reads an IDX file.
///
/// # Errors
///
/// [`DataErrorKind::Io`] if the file cannot be read; otherwise as [`parse_idx`].
pub fn read_idx(path: impl AsRef<Path>) -> Result<IdxArray, DataError> {
    let path = path.as_ref();
    parse_idx(&read_file(path)?, &path.display().to_string())
}

/// Parses the bytes of an IDX file; `source` names it in errors.
///
/// # Errors
///
/// [`DataErrorKind::Empty`] for no bytes; [`DataErrorKind::BadHeader`] for a wrong magic, an
/// unknown type code or a header cut short; [`DataErrorKind::IdxSizeMismatch`] when the dimensions
/// imply a different length from the file's (truncated data or trailing bytes).
///
/// # Examples
///
/// ```
/// use autodiff_runtime::data::{IdxData, parse_idx};
///
/// // Two u8 values in one dimension of size 2.
/// let bytes = [0, 0, 0x08, 1, 0, 0, 0, 2, 7, 9];
/// let array = parse_idx(&bytes, "tiny.idx")?;
/// assert_eq!(array.dims, [2]);
/// assert_eq!(array.data, IdxData::U8(vec![7, 9]));
///
/// let err = parse_idx(&bytes[..9], "cut.idx").unwrap_err();
/// assert_eq!(err.to_string(), "cut.idx: the IDX header implies 10 bytes but the file has 9");
/// # Ok::<(), autodiff_runtime::data::DataError>(())
/// ```
pub fn parse_idx(bytes: &[u8], source: &str) -> Result<IdxArray, DataError> {
    let bad = |reason: &str| {
        DataError::new(
            source,
            DataErrorKind::BadHeader {
                reason: reason.into(),
            },
        )
    };
    if bytes.is_empty() {
        return Err(DataError::new(source, DataErrorKind::Empty));
    }
    let Some(&[z0, z1, type_code, ndims]) = bytes.first_chunk::<4>() else {
        return Err(bad("the file is shorter than the 4-byte magic number"));
    };
    if (z0, z1) != (0, 0) {
        return Err(bad("the magic number must start with two zero bytes"));
    }
    let elem_size: usize = match type_code {
        0x08 | 0x09 => 1,
        0x0B => 2,
        0x0C | 0x0D => 4,
        0x0E => 8,
        _ => {
            return Err(bad(
                "unknown element type code (expected 0x08, 0x09, 0x0B, 0x0C, 0x0D or 0x0E)",
            ));
        }
    };
    let header_len = 4 + 4 * usize::from(ndims);
    let Some(dim_bytes) = bytes.get(4..header_len) else {
        return Err(bad("the file ends inside the dimension sizes"));
    };
    let dims: Vec<usize> = dim_bytes
        .chunks_exact(4)
        .map(|c| {
            usize::try_from(u32::from_be_bytes([c[0], c[1], c[2], c[3]])).unwrap_or(usize::MAX)
        })
        .collect();
    let payload = &bytes[header_len..];
    let expected = dims
        .iter()
        .try_fold(elem_size, |n, d| n.checked_mul(*d))
        .and_then(|n| n.checked_add(header_len));
    if expected != Some(bytes.len()) {
        return Err(DataError::new(
            source,
            DataErrorKind::IdxSizeMismatch {
                expected: expected.map(|n| n as u64),
                found: bytes.len() as u64,
            },
        ));
    }
    let data = match type_code {
        0x08 => IdxData::U8(payload.to_vec()),
        0x09 => IdxData::I8(payload.iter().map(|&b| i8::from_be_bytes([b])).collect()),
        0x0B => IdxData::I16(decode(payload, i16::from_be_bytes)),
        0x0C => IdxData::I32(decode(payload, i32::from_be_bytes)),
        0x0D => IdxData::F32(decode(payload, f32::from_be_bytes)),
        _ => IdxData::F64(decode(payload, f64::from_be_bytes)),
    };
    Ok(IdxArray { dims, data })
}

/// Decodes big-endian values of `N` bytes each (the length was checked to be a multiple of `N`).
fn decode<T, const N: usize>(payload: &[u8], from_be: fn([u8; N]) -> T) -> Vec<T> {
    payload
        .chunks_exact(N)
        .filter_map(|c| c.try_into().ok())
        .map(from_be)
        .collect()
}

/// Reads an MNIST-style pair: images `[n, ...]` (any element type, flattened per item to `f32`) and
/// labels `[n]` of `u8` below `num_classes`.
///
/// # Errors
///
/// As [`read_idx`] for either file, plus [`DataErrorKind::BadHeader`] for a labels file that is not
/// one-dimensional `u8` or an images file with no dimensions or whose image size (the product of
/// the dimensions after the first) overflows `usize`, [`DataErrorKind::CountMismatch`] when
/// the counts differ, [`DataErrorKind::LabelOutOfRange`], and
/// [`DataErrorKind::NonFiniteFeature`] for a NaN or infinite image value (or an `f64` one beyond
/// `f32`'s range), as a CSV feature that is not a finite number is an error.
pub fn read_idx_dataset(
    images: impl AsRef<Path>,
    labels: impl AsRef<Path>,
    num_classes: usize,
) -> Result<Dataset, DataError> {
    let images_name = images.as_ref().display().to_string();
    let labels_name = labels.as_ref().display().to_string();
    let x = read_idx(images)?;
    let y = read_idx(labels)?;
    let bad = |file: &str, reason: &str| {
        DataError::new(
            file,
            DataErrorKind::BadHeader {
                reason: reason.into(),
            },
        )
    };
    let IdxData::U8(raw_labels) = &y.data else {
        return Err(bad(&labels_name, "labels must be u8 (type code 0x08)"));
    };
    if y.dims.len() != 1 {
        return Err(bad(&labels_name, "labels must be one-dimensional"));
    }
    let Some((&n, item_dims)) = x.dims.split_first() else {
        return Err(bad(&images_name, "images need at least one dimension"));
    };
    // With no items the file has no values, so the item size was not checked against its length.
    let Some(n_features) = item_dims.iter().try_fold(1usize, |p, &d| p.checked_mul(d)) else {
        return Err(bad(&images_name, "the size of one image overflows"));
    };
    if n != raw_labels.len() {
        return Err(DataError::new(
            images_name,
            DataErrorKind::CountMismatch {
                features: n,
                labels: raw_labels.len(),
            },
        ));
    }
    let mut labels = Vec::with_capacity(n);
    for &label in raw_labels {
        let label = usize::from(label);
        if label >= num_classes {
            return Err(DataError::new(
                labels_name,
                DataErrorKind::LabelOutOfRange {
                    label,
                    classes: num_classes,
                },
            ));
        }
        labels.push(label);
    }
    let features = x.to_f32();
    if let Some(i) = features.iter().position(|v| !v.is_finite()) {
        // An image value exists only if the image size is not zero.
        let (item, feature) = (i / n_features.max(1), i % n_features.max(1));
        return Err(DataError::new(
            images_name,
            DataErrorKind::NonFiniteFeature { item, feature },
        ));
    }
    Ok(Dataset {
        features,
        labels,
        n_features,
        n_classes: num_classes,
        class_names: Vec::new(),
    })
}
