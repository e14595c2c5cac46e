//! Checkpoints in the safetensors format (feature `std`).
//!
//! - [`save`] and [`load`] write and read the parameters only: one tensor per parameter tensor,
//!   named by [`Parameters::visit`] (`blocks.3.ln1.g`), with its shape and dtype `F32` or `F64`.
//!   Files written by PyTorch's `safetensors.torch.save_file` with the same names, shapes and dtype
//!   load directly.
//! - [`TrainState`] writes and reads everything a run needs to continue bit for bit: the
//!   parameters, the optimizer's state ([`OptimizerState`](crate::optim::OptimizerState)), the step
//!   and the random generators ([`ResumableRng`]), plus any counters or curves of the caller's.
//!
//! Errors from a file name it ([`CheckpointError::File`], or [`CheckpointError::Io`]).
//!
//! # Examples
//!
//! ```
//! use autodiff_runtime::checkpoint;
//! # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
//! # #[derive(Debug, PartialEq)]
//! # struct P { w: [[f32; 2]; 3] }
//! # impl Parameters for P {
//! #     type Scalar = f32;
//! #     const COUNT: usize = 6;
//! #     const TENSORS: usize = 1;
//! #     fn zeroed() -> Self { P { w: [[0.0; 2]; 3] } }
//! #     fn tensor(&self, i: usize) -> Option<&[f32]> { (i == 0).then(|| self.w.as_flattened()) }
//! #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f32]> { (i == 0).then(|| self.w.as_flattened_mut()) }
//! #     fn visit<V: Visitor<f32>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[3, 2], self.w.as_flattened()) }
//! #     fn visit_mut<V: VisitorMut<f32>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[3, 2], self.w.as_flattened_mut()) }
//! # }
//! let params = P { w: [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] };
//! let bytes = checkpoint::to_bytes(&params)?;
//! let back: P = checkpoint::from_bytes(&bytes)?;
//! assert_eq!(back, params);
//! # Ok::<(), autodiff_runtime::checkpoint::CheckpointError>(())
//! ```

use std::borrow::ToOwned;
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use safetensors::tensor::{SafeTensorError, SafeTensors, TensorView};
use safetensors::{Dtype, serialize};

use crate::math::Float;
use crate::params::{Name, Parameters};

mod rng;
mod state;

pub use rng::ResumableRng;
pub use state::TrainState;

/// Why a checkpoint could not be saved or loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A problem with the contents of the file `path`.
    File {
        /// The file.
        path: PathBuf,
        /// The problem (never itself a `File` or `Io` error).
        source: std::boxed::Box<CheckpointError>,
    },
    /// The bytes are not a valid safetensors file.
    Format(SafeTensorError),
    /// The file has no tensor for this parameter.
    MissingTensor {
        /// The parameter's name.
        name: String,
    },
    /// The file has a tensor that is not a parameter of the struct.
    UnexpectedTensor {
        /// The tensor's name.
        name: String,
    },
    /// The tensor's element type is not the parameters' float type.
    DtypeMismatch {
        /// The parameter's name.
        name: String,
        /// `F32` or `F64`, from the struct.
        expected: &'static str,
        /// The file's dtype.
        found: String,
    },
    /// The tensor's shape differs from the parameter's.
    ShapeMismatch {
        /// The parameter's name.
        name: String,
        /// Shape in the struct.
        expected: Vec<usize>,
        /// Shape in the file.
        found: Vec<usize>,
    },
    /// The file is not a [`TrainState`] (it has no `format` metadata naming one), or one of a
    /// newer version.
    NotTrainState {
        /// The `format` metadata found, if any.
        found: Option<String>,
    },
    /// The file holds the state of another optimizer.
    OptimizerMismatch {
        /// The optimizer being restored ([`OptimizerState::KIND`](crate::optim::OptimizerState::KIND)).
        expected: &'static str,
        /// The optimizer in the file, if any.
        found: Option<String>,
    },
    /// A tensor has the right type and shape but a value that cannot be restored (a negative
    /// learning rate, an all-zero generator state).
    InvalidValue {
        /// The tensor's name.
        name: String,
        /// Why the value is refused.
        reason: String,
    },
}

impl CheckpointError {
    /// The file the error is about, if it came from reading or writing one.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::checkpoint::TrainState;
    ///
    /// let err = TrainState::load("/nonexistent/run.safetensors").unwrap_err();
    /// assert_eq!(err.path(), Some(std::path::Path::new("/nonexistent/run.safetensors")));
    /// ```
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            CheckpointError::Io { path, .. } | CheckpointError::File { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The problem itself: `self`, or for [`CheckpointError::File`] the error it wraps.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::checkpoint::{CheckpointError, TrainState};
    ///
    /// let path = std::env::temp_dir().join(format!("not-a-checkpoint-{}", std::process::id()));
    /// std::fs::write(&path, b"hello")?;
    /// let err = TrainState::load(&path).unwrap_err();
    /// std::fs::remove_file(&path)?;
    /// assert!(matches!(err.detail(), CheckpointError::Format(_)));
    /// assert!(err.to_string().starts_with(&path.display().to_string()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn detail(&self) -> &CheckpointError {
        match self {
            CheckpointError::File { source, .. } => source,
            other => other,
        }
    }

    /// `self` about the file `path` (unless it already names a file).
    pub(crate) fn in_file(self, path: &Path) -> CheckpointError {
        match self {
            CheckpointError::Io { .. } | CheckpointError::File { .. } => self,
            other => CheckpointError::File {
                path: path.to_owned(),
                source: std::boxed::Box::new(other),
            },
        }
    }
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            CheckpointError::File { path, source } => write!(f, "{}: {source}", path.display()),
            CheckpointError::Format(e) => write!(f, "not a valid safetensors file: {e}"),
            CheckpointError::MissingTensor { name } => {
                write!(f, "the checkpoint has no tensor `{name}`")
            }
            CheckpointError::UnexpectedTensor { name } => {
                write!(
                    f,
                    "the checkpoint has a tensor `{name}` that is not a parameter"
                )
            }
            CheckpointError::DtypeMismatch {
                name,
                expected,
                found,
            } => {
                write!(f, "tensor `{name}` has dtype {found}, expected {expected}")
            }
            CheckpointError::ShapeMismatch {
                name,
                expected,
                found,
            } => {
                write!(
                    f,
                    "tensor `{name}` has shape {found:?}, expected {expected:?}"
                )
            }
            CheckpointError::NotTrainState { found: None } => write!(
                f,
                "not a training state (no `format` metadata; a file of parameters only?)"
            ),
            CheckpointError::NotTrainState { found: Some(found) } => write!(
                f,
                "not a training state this version reads (format `{found}`, expected `{}`)",
                state::FORMAT
            ),
            CheckpointError::OptimizerMismatch { expected, found } => write!(
                f,
                "the checkpoint holds the state of {}, not {expected}",
                found.as_deref().unwrap_or("no optimizer")
            ),
            CheckpointError::InvalidValue { name, reason } => {
                write!(f, "tensor `{name}`: {reason}")
            }
        }
    }
}

impl core::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            CheckpointError::Io { source, .. } => Some(source),
            // A `File` error displays the error it wraps, so its source is that error's source.
            CheckpointError::File { source, .. } => source.source(),
            CheckpointError::Format(e) => Some(e),
            _ => None,
        }
    }
}

/// The safetensors dtype of a float type.
pub(crate) fn dtype_of<F: Float>() -> (Dtype, &'static str) {
    if F::BYTES == 4 {
        (Dtype::F32, "F32")
    } else {
        (Dtype::F64, "F64")
    }
}

/// Serializes `params` to safetensors bytes.
///
/// # Errors
///
/// [`CheckpointError::Format`] if the safetensors encoder rejects the tensors (for example two
/// tensors with the same name, which a derived implementation never produces).
pub fn to_bytes<P: Parameters>(params: &P) -> Result<Vec<u8>, CheckpointError> {
    let (dtype, tensors) = tensor_bytes(params);
    serialize(views(dtype, &tensors)?, None).map_err(CheckpointError::Format)
}

/// A tensor to write: its name, shape and little-endian bytes.
type Named = (String, Vec<usize>, Vec<u8>);

/// The tensors of `params`, in `P::Scalar`'s dtype.
fn tensor_bytes<P: Parameters>(params: &P) -> (Dtype, Vec<Named>) {
    let (dtype, _) = dtype_of::<P::Scalar>();
    let mut tensors: Vec<Named> = Vec::with_capacity(P::TENSORS);
    params.for_each_tensor(|name, shape, values| {
        let mut bytes = Vec::with_capacity(values.len() * P::Scalar::BYTES);
        for v in values {
            #[allow(clippy::cast_possible_truncation)]
            match dtype {
                Dtype::F32 => bytes.extend_from_slice(&(v.to_f64() as f32).to_le_bytes()),
                _ => bytes.extend_from_slice(&v.to_f64().to_le_bytes()),
            }
        }
        tensors.push((name.to_string(), shape.to_owned(), bytes));
    });
    (dtype, tensors)
}

/// Safetensors views of `tensors`.
fn views(dtype: Dtype, tensors: &[Named]) -> Result<Vec<(&str, TensorView<'_>)>, CheckpointError> {
    tensors
        .iter()
        .map(|(name, shape, bytes)| {
            Ok((name.as_str(), TensorView::new(dtype, shape.clone(), bytes)?))
        })
        .collect::<Result<Vec<_>, SafeTensorError>>()
        .map_err(CheckpointError::Format)
}

/// Writes `views` with `metadata` to the file `path` through a temporary file renamed over it
/// ([`crate::file::replace`]: a failed write leaves an existing file as it was; its permissions
/// and a symbolic link at `path` stay). The temporary file is written by `safetensors`' own
/// streaming writer, which itself writes an owner-only file and renames it.
pub(crate) fn write_views<'a>(
    views: impl IntoIterator<Item = (&'a str, TensorView<'a>)>,
    metadata: Option<std::collections::HashMap<String, String>>,
    path: &Path,
) -> Result<(), CheckpointError> {
    crate::file::replace(path, |tmp| {
        safetensors::serialize_to_file(views, metadata, tmp)
    })
    .map_err(|e| match e {
        SafeTensorError::IoError(source) => CheckpointError::Io {
            path: path.to_owned(),
            source,
        },
        e => CheckpointError::Format(e).in_file(path),
    })
}

/// Writes `params` to a safetensors file (through a temporary file beside it: a write that
/// fails leaves an existing file at `path` as it was). An existing file keeps its permissions, and
/// a symbolic link at `path` stays one: the file it points to is replaced.
///
/// # Errors
///
/// [`CheckpointError::Io`] if the file cannot be written; otherwise the error of [`to_bytes`]
/// inside a [`CheckpointError::File`].
pub fn save<P: Parameters>(params: &P, path: impl AsRef<Path>) -> Result<(), CheckpointError> {
    let path = path.as_ref();
    let (dtype, tensors) = tensor_bytes(params);
    write_views(
        views(dtype, &tensors).map_err(|e| e.in_file(path))?,
        None,
        path,
    )
}

/// Reads parameters from safetensors bytes. The file must hold exactly the struct's tensors, with
/// the same names, shapes and float type.
///
/// # Errors
///
/// [`CheckpointError::Format`] for bytes that are not safetensors; otherwise the first problem in
/// parameter order: [`CheckpointError::MissingTensor`], [`CheckpointError::DtypeMismatch`] or
/// [`CheckpointError::ShapeMismatch`]; then [`CheckpointError::UnexpectedTensor`] for the first (by
/// name) tensor in the file that is not a parameter.
pub fn from_bytes<P: Parameters>(bytes: &[u8]) -> Result<P, CheckpointError> {
    let file = SafeTensors::deserialize(bytes).map_err(CheckpointError::Format)?;
    let (dtype, dtype_name) = dtype_of::<P::Scalar>();
    let mut params = P::zeroed();
    let mut seen = BTreeSet::new();
    let mut first_error = None;
    params.for_each_tensor_mut(
        |name: &Name<'_>, shape: &[usize], values: &mut [P::Scalar]| {
            if first_error.is_some() {
                return;
            }
            let name = name.to_string();
            let result = read_tensor(&file, &name, shape, (dtype, dtype_name), values);
            seen.insert(name);
            first_error = result.err();
        },
    );
    if let Some(e) = first_error {
        return Err(e);
    }
    let mut names = file.names();
    names.sort_unstable();
    if let Some(extra) = names.into_iter().find(|n| !seen.contains(*n)) {
        return Err(CheckpointError::UnexpectedTensor {
            name: extra.to_owned(),
        });
    }
    Ok(params)
}

/// Copies the tensor `name` of `file` into `values` after checking its dtype and shape.
pub(crate) fn read_tensor<F: Float>(
    file: &SafeTensors<'_>,
    name: &str,
    shape: &[usize],
    (dtype, dtype_name): (Dtype, &'static str),
    values: &mut [F],
) -> Result<(), CheckpointError> {
    let tensor = file.tensor(name).map_err(|e| match e {
        SafeTensorError::TensorNotFound(_) => CheckpointError::MissingTensor {
            name: name.to_owned(),
        },
        other => CheckpointError::Format(other),
    })?;
    if tensor.dtype() != dtype {
        let found = std::format!("{:?}", tensor.dtype());
        return Err(CheckpointError::DtypeMismatch {
            name: name.to_owned(),
            expected: dtype_name,
            found,
        });
    }
    if tensor.shape() != shape {
        let (expected, found) = (shape.to_owned(), tensor.shape().to_owned());
        return Err(CheckpointError::ShapeMismatch {
            name: name.to_owned(),
            expected,
            found,
        });
    }
    let data = tensor.data();
    if dtype == Dtype::F32 {
        for (v, chunk) in values.iter_mut().zip(data.chunks_exact(4)) {
            *v = F::from_f64(f64::from(f32::from_le_bytes(
                chunk.try_into().unwrap_or_default(),
            )));
        }
    } else {
        for (v, chunk) in values.iter_mut().zip(data.chunks_exact(8)) {
            *v = F::from_f64(f64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
    }
    Ok(())
}

/// Reads parameters from a safetensors file. See [`from_bytes`].
///
/// # Errors
///
/// [`CheckpointError::Io`] if the file cannot be read; otherwise the error of [`from_bytes`]
/// inside a [`CheckpointError::File`] (match it through [`CheckpointError::detail`]).
pub fn load<P: Parameters>(path: impl AsRef<Path>) -> Result<P, CheckpointError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| CheckpointError::Io {
        path: path.to_owned(),
        source,
    })?;
    from_bytes(&bytes).map_err(|e| e.in_file(path))
}
