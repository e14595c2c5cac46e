//! [`TrainState`]: a checkpoint a run continues from bit for bit.

use std::borrow::ToOwned;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;

use safetensors::tensor::{SafeTensorError, SafeTensors, TensorView};
use safetensors::{Dtype, serialize};

use super::{CheckpointError, ResumableRng, dtype_of};
use crate::data::BatchLoader;
use crate::math::Float;
use crate::optim::{OptimizerState, StateVisitor, StateVisitorMut};
use crate::params::{Name, Parameters};

/// The `format` metadata of a training state; the suffix is the layout's version.
pub(super) const FORMAT: &str = "stackgrad-train-state/1";

/// Everything a training run needs to continue exactly where it stopped, as one safetensors file:
/// the parameters, the optimizer's state, the step number, the random generators, and any counters
/// or series of the caller's (a loss curve, a data loader's position).
///
/// A run restored from it and continued gives the same bits as the run that was never stopped,
/// provided the program does the same thing after the step as before (the same data, the same
/// learning-rate schedule, which is a function of the step number, and every random draw from a
/// generator saved here, not from `SmallRng`, whose state cannot be read: see [`ResumableRng`]).
///
/// Layout: the tensors `params.<name>` (the parameters, as [`save`](super::save) writes them but
/// under `params.`), `optimizer.<buffer>.<name>` (each state buffer, shaped like the parameters),
/// `optimizer.<counter>` (`U64`, shape `[]`), `optimizer.lr` (`F64`, `[]`), `step` (`U64`, `[]`)
/// and `values.<name>` (`U64` or `F64`, shape `[n]`); the metadata `format` =
/// `stackgrad-train-state/1` and `optimizer` = [`OptimizerState::KIND`]. Any safetensors reader
/// (PyTorch's included) can open it; [`load`](super::load) cannot, as the file is not parameters
/// only.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::checkpoint::{ResumableRng, TrainState};
/// use autodiff_runtime::optim::{AdamW, AdamWConfig, Optimizer};
/// use autodiff_runtime::rand::{Rng, SeedableRng};
/// # use autodiff_runtime::{Name, Parameters, Visitor, VisitorMut};
/// # #[derive(Clone, Debug, PartialEq)]
/// # struct P([f32; 2]);
/// # impl Parameters for P {
/// #     type Scalar = f32;
/// #     const COUNT: usize = 2;
/// #     const TENSORS: usize = 1;
/// #     fn zeroed() -> Self { P([0.0; 2]) }
/// #     fn tensor(&self, i: usize) -> Option<&[f32]> { (i == 0).then_some(&self.0[..]) }
/// #     fn tensor_mut(&mut self, i: usize) -> Option<&mut [f32]> { (i == 0).then_some(&mut self.0[..]) }
/// #     fn visit<V: Visitor<f32>>(&self, p: Option<&Name<'_>>, v: &mut V) { v.visit(&Name::field(p, "w"), &[2], &self.0) }
/// #     fn visit_mut<V: VisitorMut<f32>>(&mut self, p: Option<&Name<'_>>, v: &mut V) { v.visit_mut(&Name::field(p, "w"), &[2], &mut self.0) }
/// # }
/// // With stackgrad: #[derive(Parameters)] struct P([f32; 2]);
/// fn train(from: u64, to: u64, p: &mut P, opt: &mut AdamW<P>, rng: &mut ResumableRng) {
///     for _ in from..to {
///         let noise: f32 = rng.gen_range(-0.1..0.1);
///         let grads = P([2.0 * (p.0[0] - 3.0) + noise, 2.0 * p.0[1]]);
///         opt.step(p, &grads);
///     }
/// }
/// let config = AdamWConfig { lr: 0.1, ..AdamWConfig::default() };
///
/// // 100 steps, saved.
/// let (mut p, mut opt, mut rng) = (P([0.0, 1.0]), AdamW::new(config)?, ResumableRng::seed_from_u64(1));
/// train(0, 100, &mut p, &mut opt, &mut rng);
/// let mut state = TrainState::new(100);
/// state.insert_params(&p);
/// state.insert_optimizer(&opt);
/// state.insert_rng("rng", &rng);
/// let bytes = state.to_bytes()?; // or state.save("run.safetensors")?
///
/// // Restored into fresh objects, 100 more steps: the same bits as 200 steps in one go.
/// let state = TrainState::from_bytes(&bytes)?; // or TrainState::load("run.safetensors")?
/// let (mut q, mut opt2) = (P::zeroed(), AdamW::new(config)?);
/// state.restore_params(&mut q)?;
/// state.restore_optimizer(&mut opt2)?;
/// let mut rng2 = state.rng("rng")?;
/// train(state.step(), 200, &mut q, &mut opt2, &mut rng2);
///
/// train(100, 200, &mut p, &mut opt, &mut rng);
/// assert_eq!(q, p);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    step: u64,
    tensors: BTreeMap<String, Tensor>,
    metadata: BTreeMap<String, String>,
    /// The file it was loaded from, named in errors.
    path: Option<PathBuf>,
}

#[derive(Clone, Debug, PartialEq)]
struct Tensor {
    dtype: Dtype,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl TrainState {
    /// An empty state at step `step` (the number of steps taken).
    #[must_use]
    pub fn new(step: u64) -> Self {
        TrainState {
            step,
            tensors: BTreeMap::new(),
            metadata: BTreeMap::new(),
            path: None,
        }
    }

    /// The number of steps taken when the state was made.
    #[must_use]
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Stores the parameters (replacing any stored before).
    pub fn insert_params<P: Parameters>(&mut self, params: &P) {
        self.tensors.retain(|name, _| !name.starts_with("params."));
        let prefix = Name::field(None, "params");
        params.visit(
            Some(&prefix),
            &mut |name: &Name<'_>, shape: &[usize], values: &[P::Scalar]| {
                self.tensors
                    .insert(name.to_string(), float_tensor(shape, values));
            },
        );
    }

    /// Stores the optimizer's state (replacing any stored before) and its
    /// [`KIND`](OptimizerState::KIND).
    pub fn insert_optimizer<P: Parameters, O: OptimizerState<P>>(&mut self, optimizer: &O) {
        self.tensors
            .retain(|name, _| !name.starts_with("optimizer."));
        self.metadata
            .insert("optimizer".to_owned(), O::KIND.to_owned());
        let mut writer = Writer {
            tensors: &mut self.tensors,
        };
        optimizer.visit_state(&mut writer);
    }

    /// Stores the state of `rng` as the values `name` (four `U64`).
    pub fn insert_rng(&mut self, name: &str, rng: &ResumableRng) {
        self.insert_u64s(name, &rng.state());
    }

    /// Stores `values` as the tensor `values.<name>` (`U64`, shape `[len]`).
    pub fn insert_u64s(&mut self, name: &str, values: &[u64]) {
        let data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.tensors.insert(
            std::format!("values.{name}"),
            Tensor {
                dtype: Dtype::U64,
                shape: std::vec![values.len()],
                data,
            },
        );
    }

    /// Stores `values` as the tensor `values.<name>` (`F64`, shape `[len]`), bit for bit.
    pub fn insert_f64s(&mut self, name: &str, values: &[f64]) {
        self.tensors.insert(
            std::format!("values.{name}"),
            float_tensor(&[values.len()], values),
        );
    }

    /// Stores where `loader` is, as the values `<name>.order` (the current order of the rows,
    /// which the next shuffle permutes further) and `<name>.position` (rows handed out this epoch).
    /// The generator passed to its `shuffle` is saved separately
    /// ([`insert_rng`](TrainState::insert_rng)).
    pub fn insert_loader<const D: usize, const B: usize>(
        &mut self,
        name: &str,
        loader: &BatchLoader<'_, D, B>,
    ) {
        let order: Vec<u64> = loader.order().iter().map(|&i| i as u64).collect();
        self.insert_u64s(&std::format!("{name}.order"), &order);
        self.insert_u64s(
            &std::format!("{name}.position"),
            &[loader.position() as u64],
        );
    }

    /// Puts `loader`, over the same data set, where the loader stored as `name` was.
    ///
    /// # Errors
    ///
    /// As [`u64s`](TrainState::u64s) for `<name>.order` and `<name>.position`, and
    /// [`CheckpointError::InvalidValue`] unless the order is a permutation of the loader's rows
    /// and the position at most their number (a loader over another data set).
    pub fn restore_loader<const D: usize, const B: usize>(
        &self,
        name: &str,
        loader: &mut BatchLoader<'_, D, B>,
    ) -> Result<(), CheckpointError> {
        let order_name = std::format!("{name}.order");
        let order = self.u64s(&order_name)?;
        let position = self.u64s(&std::format!("{name}.position"))?;
        let rows = loader.order().len();
        let invalid = |reason: String| {
            self.in_file(CheckpointError::InvalidValue {
                name: std::format!("values.{order_name}"),
                reason,
            })
        };
        if order.len() != rows {
            return Err(invalid(std::format!(
                "{} rows, but the loader's data set has {rows}",
                order.len()
            )));
        }
        let mut seen = std::vec![false; rows];
        let mut indices = Vec::with_capacity(rows);
        for &i in &order {
            match usize::try_from(i).ok().filter(|&i| i < rows) {
                Some(i) if !seen[i] => {
                    seen[i] = true;
                    indices.push(i);
                }
                _ => {
                    return Err(invalid(std::format!(
                        "not a permutation of the {rows} rows (row {i})"
                    )));
                }
            }
        }
        let position = match position.as_slice() {
            [p] if usize::try_from(*p).is_ok_and(|p| p <= rows) => *p as usize,
            _ => {
                return Err(self.in_file(CheckpointError::InvalidValue {
                    name: std::format!("values.{name}.position"),
                    reason: std::format!(
                        "expected one position of at most {rows}, got {position:?}"
                    ),
                }));
            }
        };
        loader.set_order_and_position(indices, position);
        Ok(())
    }

    /// Overwrites `params` with the stored parameters. Every tensor is checked before any is
    /// copied, so on error `params` is unchanged.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::MissingTensor`], [`CheckpointError::DtypeMismatch`] or
    /// [`CheckpointError::ShapeMismatch`] for the first parameter that does not match (names
    /// without the `params.` prefix), then [`CheckpointError::UnexpectedTensor`] for a stored
    /// parameter `P` does not have; inside a [`CheckpointError::File`] if the state was loaded from
    /// a file.
    pub fn restore_params<P: Parameters>(&self, params: &mut P) -> Result<(), CheckpointError> {
        let prefix = Name::field(None, "params");
        let dtype = dtype_of::<P::Scalar>();
        let mut seen = BTreeSet::new();
        let mut first_error = None;
        params.visit(
            Some(&prefix),
            &mut |name: &Name<'_>, shape: &[usize], _: &[P::Scalar]| {
                let name = name.to_string();
                if first_error.is_none() {
                    first_error = self.check(&name, dtype, shape).err();
                }
                seen.insert(name);
            },
        );
        if let Some(e) = first_error {
            return Err(self.in_file(strip(e, "params.")));
        }
        self.no_other_tensors("params.", &seen)
            .map_err(|e| self.in_file(strip(e, "params.")))?;
        params.visit_mut(
            Some(&prefix),
            &mut |name: &Name<'_>, _: &[usize], values: &mut [P::Scalar]| {
                if let Some(t) = self.tensors.get(&name.to_string()) {
                    decode_floats(t, values);
                }
            },
        );
        Ok(())
    }

    /// Overwrites the state of `optimizer`, built with the same config as the saved one, with the
    /// stored state (its learning rate included). Every tensor is checked before any is copied.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::OptimizerMismatch`] if the state is another optimizer's (or there is
    /// none); [`CheckpointError::MissingTensor`], [`CheckpointError::DtypeMismatch`],
    /// [`CheckpointError::ShapeMismatch`] or [`CheckpointError::UnexpectedTensor`] if the stored
    /// state does not fit (another model, or a config with other buffers, such as AMSGrad on one
    /// side only); [`CheckpointError::InvalidValue`] for state a step would turn into a panic or
    /// NaN parameters: a negative or non-finite learning rate, a buffer value that is not finite,
    /// a negative value in a buffer of squares (`v`, `v_max`, `square_avg`, `sum`), a step count
    /// above 2^53. Nothing is restored then. Inside a [`CheckpointError::File`] if the state was
    /// loaded from a file.
    pub fn restore_optimizer<P: Parameters, O: OptimizerState<P>>(
        &self,
        optimizer: &mut O,
    ) -> Result<(), CheckpointError> {
        let found = self.metadata.get("optimizer");
        if found.map(String::as_str) != Some(O::KIND) {
            return Err(self.in_file(CheckpointError::OptimizerMismatch {
                expected: O::KIND,
                found: found.cloned(),
            }));
        }
        let mut checker = Checker {
            state: self,
            seen: BTreeSet::new(),
            first_error: None,
        };
        optimizer.visit_state(&mut checker);
        let Checker {
            seen, first_error, ..
        } = checker;
        if let Some(e) = first_error {
            return Err(self.in_file(e));
        }
        self.no_other_tensors("optimizer.", &seen)
            .map_err(|e| self.in_file(e))?;
        optimizer
            .visit_state_mut(&mut Reader { state: self })
            .map_err(|e| {
                self.in_file(CheckpointError::InvalidValue {
                    name: "optimizer.lr".to_owned(),
                    reason: e.to_string(),
                })
            })
    }

    /// The generator stored as `name` by [`insert_rng`](TrainState::insert_rng).
    ///
    /// # Errors
    ///
    /// As [`u64s`](TrainState::u64s), and [`CheckpointError::ShapeMismatch`] unless there are four
    /// words, [`CheckpointError::InvalidValue`] if they are all zero.
    pub fn rng(&self, name: &str) -> Result<ResumableRng, CheckpointError> {
        let words = self.u64s(name)?;
        let state: [u64; 4] = words.as_slice().try_into().map_err(|_| {
            self.in_file(CheckpointError::ShapeMismatch {
                name: std::format!("values.{name}"),
                expected: std::vec![4],
                found: std::vec![words.len()],
            })
        })?;
        ResumableRng::from_state(state).ok_or_else(|| {
            self.in_file(CheckpointError::InvalidValue {
                name: std::format!("values.{name}"),
                reason: "a generator state cannot be all zeros".to_owned(),
            })
        })
    }

    /// The values stored as `name` by [`insert_u64s`](TrainState::insert_u64s).
    ///
    /// # Errors
    ///
    /// [`CheckpointError::MissingTensor`] (`values.<name>`), [`CheckpointError::DtypeMismatch`]
    /// unless `U64`, [`CheckpointError::ShapeMismatch`] unless of rank 1; inside a
    /// [`CheckpointError::File`] if the state was loaded from a file.
    pub fn u64s(&self, name: &str) -> Result<Vec<u64>, CheckpointError> {
        let t = self
            .vector(name, Dtype::U64, "U64")
            .map_err(|e| self.in_file(e))?;
        Ok(t.data.chunks_exact(8).map(u64_le).collect())
    }

    /// The values stored as `name` by [`insert_f64s`](TrainState::insert_f64s).
    ///
    /// # Errors
    ///
    /// As [`u64s`](TrainState::u64s), with `F64`.
    pub fn f64s(&self, name: &str) -> Result<Vec<f64>, CheckpointError> {
        let t = self
            .vector(name, Dtype::F64, "F64")
            .map_err(|e| self.in_file(e))?;
        Ok(t.data
            .chunks_exact(8)
            .map(|b| f64::from_bits(u64_le(b)))
            .collect())
    }

    /// Serializes the state to safetensors bytes.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Format`] if the safetensors encoder rejects the tensors (which the
    /// methods above never produce).
    pub fn to_bytes(&self) -> Result<Vec<u8>, CheckpointError> {
        let step = self.step_tensor();
        let (views, metadata) = self.views(&step)?;
        serialize(views, Some(metadata)).map_err(CheckpointError::Format)
    }

    /// The `step` count as a tensor.
    fn step_tensor(&self) -> Tensor {
        Tensor {
            dtype: Dtype::U64,
            shape: Vec::new(),
            data: self.step.to_le_bytes().to_vec(),
        }
    }

    /// The views of every tensor and `step`, and the metadata with this version's `format`.
    #[allow(clippy::type_complexity)]
    fn views<'a>(
        &'a self,
        step: &'a Tensor,
    ) -> Result<(Vec<(&'a str, TensorView<'a>)>, HashMap<String, String>), CheckpointError> {
        let views = self
            .tensors
            .iter()
            .map(|(name, t)| (name.as_str(), t))
            .chain([("step", step)])
            .map(|(name, t)| Ok((name, TensorView::new(t.dtype, t.shape.clone(), &t.data)?)))
            .collect::<Result<Vec<_>, SafeTensorError>>()
            .map_err(CheckpointError::Format)?;
        let mut metadata: HashMap<String, String> = self
            .metadata
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        metadata.insert("format".to_owned(), FORMAT.to_owned());
        Ok((views, metadata))
    }

    /// Writes the state to the file `path` (through a temporary file beside it, as
    /// [`checkpoint::save`](super::save): a failed write leaves an existing file as it was).
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Io`] if the file cannot be written; otherwise the error of
    /// [`to_bytes`](TrainState::to_bytes) inside a [`CheckpointError::File`].
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), CheckpointError> {
        let path = path.as_ref();
        let step = self.step_tensor();
        let (views, metadata) = self.views(&step).map_err(|e| e.in_file(path))?;
        super::write_views(views, Some(metadata), path)
    }

    /// Reads a state from safetensors bytes written by [`to_bytes`](TrainState::to_bytes).
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Format`] for bytes that are not safetensors,
    /// [`CheckpointError::NotTrainState`] without the `format` metadata of this version, and the
    /// errors of a `step` tensor that is missing or not a `U64` scalar.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, CheckpointError> {
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(CheckpointError::Format)?;
        let file = SafeTensors::deserialize(bytes).map_err(CheckpointError::Format)?;
        let metadata: BTreeMap<String, String> = header
            .metadata()
            .iter()
            .flat_map(|m| m.iter())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if metadata.get("format").map(String::as_str) != Some(FORMAT) {
            return Err(CheckpointError::NotTrainState {
                found: metadata.get("format").cloned(),
            });
        }
        let mut tensors: BTreeMap<String, Tensor> = file
            .tensors()
            .into_iter()
            .map(|(name, view)| {
                let tensor = Tensor {
                    dtype: view.dtype(),
                    shape: view.shape().to_owned(),
                    data: view.data().to_owned(),
                };
                (name, tensor)
            })
            .collect();
        let mut state = TrainState::new(0);
        state.check_in(&tensors, "step", (Dtype::U64, "U64"), &[])?;
        state.step = tensors.remove("step").map_or(0, |t| u64_le(&t.data));
        state.tensors = tensors;
        state.metadata = metadata;
        state.metadata.remove("format");
        Ok(state)
    }

    /// Reads a state from the file `path`; later errors of the returned state name the file too.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Io`] if the file cannot be read; otherwise the error of
    /// [`from_bytes`](TrainState::from_bytes) inside a [`CheckpointError::File`].
    pub fn load(path: impl AsRef<Path>) -> Result<Self, CheckpointError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| CheckpointError::Io {
            path: path.to_owned(),
            source,
        })?;
        let mut state = TrainState::from_bytes(&bytes).map_err(|e| e.in_file(path))?;
        state.path = Some(path.to_owned());
        Ok(state)
    }

    /// `e` about the file the state came from, if any.
    fn in_file(&self, e: CheckpointError) -> CheckpointError {
        match &self.path {
            Some(path) => e.in_file(path),
            None => e,
        }
    }

    /// `Ok` if the tensor `name` exists with this dtype and shape.
    fn check(
        &self,
        name: &str,
        dtype: (Dtype, &'static str),
        shape: &[usize],
    ) -> Result<&Tensor, CheckpointError> {
        self.check_in(&self.tensors, name, dtype, shape)
    }

    fn check_in<'t>(
        &self,
        tensors: &'t BTreeMap<String, Tensor>,
        name: &str,
        (dtype, dtype_name): (Dtype, &'static str),
        shape: &[usize],
    ) -> Result<&'t Tensor, CheckpointError> {
        let t = tensors
            .get(name)
            .ok_or_else(|| CheckpointError::MissingTensor {
                name: name.to_owned(),
            })?;
        if t.dtype != dtype {
            return Err(CheckpointError::DtypeMismatch {
                name: name.to_owned(),
                expected: dtype_name,
                found: std::format!("{:?}", t.dtype),
            });
        }
        if t.shape != shape {
            return Err(CheckpointError::ShapeMismatch {
                name: name.to_owned(),
                expected: shape.to_owned(),
                found: t.shape.clone(),
            });
        }
        Ok(t)
    }

    /// The rank-1 tensor `values.<name>` of this dtype.
    fn vector(
        &self,
        name: &str,
        dtype: Dtype,
        dtype_name: &'static str,
    ) -> Result<&Tensor, CheckpointError> {
        let name = std::format!("values.{name}");
        let len = match self.tensors.get(&name) {
            Some(t) if t.shape.len() == 1 => t.shape[0],
            Some(t) => {
                return Err(CheckpointError::ShapeMismatch {
                    name,
                    expected: std::vec![t.shape.iter().product()],
                    found: t.shape.clone(),
                });
            }
            None => 0,
        };
        self.check(&name, (dtype, dtype_name), &[len])
    }

    /// `Err(UnexpectedTensor)` for the first tensor under `prefix` not in `seen`.
    fn no_other_tensors(
        &self,
        prefix: &str,
        seen: &BTreeSet<String>,
    ) -> Result<(), CheckpointError> {
        match self
            .tensors
            .keys()
            .find(|n| n.starts_with(prefix) && !seen.contains(*n))
        {
            Some(name) => Err(CheckpointError::UnexpectedTensor { name: name.clone() }),
            None => Ok(()),
        }
    }
}

/// The error with `prefix` taken off the tensor name it reports, so that parameter errors name
/// parameters as [`load`](super::load) does.
fn strip(e: CheckpointError, prefix: &str) -> CheckpointError {
    let strip = |name: String| {
        name.strip_prefix(prefix)
            .map_or(name.clone(), str::to_owned)
    };
    match e {
        CheckpointError::MissingTensor { name } => {
            CheckpointError::MissingTensor { name: strip(name) }
        }
        CheckpointError::UnexpectedTensor { name } => {
            CheckpointError::UnexpectedTensor { name: strip(name) }
        }
        CheckpointError::DtypeMismatch {
            name,
            expected,
            found,
        } => CheckpointError::DtypeMismatch {
            name: strip(name),
            expected,
            found,
        },
        CheckpointError::ShapeMismatch {
            name,
            expected,
            found,
        } => CheckpointError::ShapeMismatch {
            name: strip(name),
            expected,
            found,
        },
        other => other,
    }
}

fn u64_le(bytes: &[u8]) -> u64 {
    let mut le = [0; 8];
    le.copy_from_slice(bytes);
    u64::from_le_bytes(le)
}

/// A tensor of floats in the dtype of `F`, exactly.
fn float_tensor<F: Float>(shape: &[usize], values: &[F]) -> Tensor {
    let (dtype, _) = dtype_of::<F>();
    let mut data = Vec::with_capacity(values.len() * F::BYTES);
    for v in values {
        #[allow(clippy::cast_possible_truncation)]
        match dtype {
            Dtype::F32 => data.extend_from_slice(&(v.to_f64() as f32).to_le_bytes()),
            _ => data.extend_from_slice(&v.to_f64().to_le_bytes()),
        }
    }
    Tensor {
        dtype,
        shape: shape.to_owned(),
        data,
    }
}

/// Copies a checked float tensor into `values`.
fn decode_floats<F: Float>(t: &Tensor, values: &mut [F]) {
    for (v, x) in values.iter_mut().zip(float_values(t)) {
        *v = F::from_f64(x);
    }
}

/// The name of the optimizer's piece of state `name`.
fn optimizer_name(name: &str) -> String {
    std::format!("optimizer.{name}")
}

/// Writes an optimizer's state into the tensors.
struct Writer<'a> {
    tensors: &'a mut BTreeMap<String, Tensor>,
}

impl<P: Parameters> StateVisitor<P> for Writer<'_> {
    fn buffer(&mut self, name: &'static str, buffer: &P) {
        let optimizer = Name::field(None, "optimizer");
        let prefix = Name::field(Some(&optimizer), name);
        buffer.visit(
            Some(&prefix),
            &mut |n: &Name<'_>, shape: &[usize], values: &[P::Scalar]| {
                self.tensors
                    .insert(n.to_string(), float_tensor(shape, values));
            },
        );
    }

    fn count(&mut self, name: &'static str, value: u64) {
        let t = Tensor {
            dtype: Dtype::U64,
            shape: Vec::new(),
            data: value.to_le_bytes().to_vec(),
        };
        self.tensors.insert(optimizer_name(name), t);
    }

    fn scalar(&mut self, name: &'static str, value: f64) {
        self.tensors
            .insert(optimizer_name(name), float_tensor(&[], &[value]));
    }
}

/// Checks that every piece of an optimizer's state is stored, with its dtype and shape.
struct Checker<'a> {
    state: &'a TrainState,
    seen: BTreeSet<String>,
    first_error: Option<CheckpointError>,
}

/// The optimizer buffers that hold squares (second moments, sums of squares): never negative.
const SQUARES: [&str; 4] = ["v", "v_max", "square_avg", "sum"];

/// The largest step count a checkpoint may hold: the largest integer an `f64` holds exactly (the
/// bias corrections take the count as an `f64`), far beyond any run, and far from overflow.
const MAX_COUNT: u64 = 1 << 53;

impl Checker<'_> {
    /// Checks a tensor's dtype and shape; `true` if it (and everything before) is valid.
    fn check(&mut self, name: String, dtype: (Dtype, &'static str), shape: &[usize]) -> bool {
        if self.first_error.is_none() {
            self.first_error = self.state.check(&name, dtype, shape).err();
        }
        self.seen.insert(name);
        self.first_error.is_none()
    }

    /// Records the first invalid value.
    fn invalid(&mut self, name: String, reason: String) {
        if self.first_error.is_none() {
            self.first_error = Some(CheckpointError::InvalidValue { name, reason });
        }
    }
}

/// The values of a checked float tensor, as `f64`.
fn float_values(t: &Tensor) -> impl Iterator<Item = f64> + '_ {
    let width = if t.dtype == Dtype::F32 { 4 } else { 8 };
    t.data.chunks_exact(width).map(move |b| {
        if width == 4 {
            let mut le = [0; 4];
            le.copy_from_slice(b);
            f64::from(f32::from_le_bytes(le))
        } else {
            f64::from_bits(u64_le(b))
        }
    })
}

impl<P: Parameters> StateVisitor<P> for Checker<'_> {
    fn buffer(&mut self, name: &'static str, buffer: &P) {
        let optimizer = Name::field(None, "optimizer");
        let prefix = Name::field(Some(&optimizer), name);
        let dtype = dtype_of::<P::Scalar>();
        // Values a step would turn into NaN parameters are refused here, before anything is
        // overwritten: a float that is not finite, a negative square.
        buffer.visit(
            Some(&prefix),
            &mut |n: &Name<'_>, shape: &[usize], _: &[P::Scalar]| {
                let n = n.to_string();
                if !self.check(n.clone(), dtype, shape) {
                    return;
                }
                let square = SQUARES.contains(&name);
                let bad = float_values(&self.state.tensors[&n])
                    .find(|v| !v.is_finite() || (square && *v < 0.0));
                if let Some(v) = bad {
                    let reason = if v.is_finite() {
                        std::format!("holds {v}; `{name}` is a sum of squares, never negative")
                    } else {
                        std::format!("holds {v}; optimizer state must be finite")
                    };
                    self.invalid(n, reason);
                }
            },
        );
    }

    fn count(&mut self, name: &'static str, _: u64) {
        let n = optimizer_name(name);
        if self.check(n.clone(), (Dtype::U64, "U64"), &[]) {
            let v = u64_le(&self.state.tensors[&n].data);
            if v > MAX_COUNT {
                self.invalid(n, std::format!("holds {v}, more than 2^53 steps"));
            }
        }
    }

    fn scalar(&mut self, name: &'static str, _: f64) {
        let n = optimizer_name(name);
        if self.check(n.clone(), (Dtype::F64, "F64"), &[]) {
            let v = f64::from_bits(u64_le(&self.state.tensors[&n].data));
            if !v.is_finite() || v < 0.0 {
                self.invalid(
                    n,
                    std::format!("holds {v}; `{name}` must be finite and not negative"),
                );
            }
        }
    }
}

/// Copies a checked optimizer state out of the tensors.
struct Reader<'a> {
    state: &'a TrainState,
}

impl<P: Parameters> StateVisitorMut<P> for Reader<'_> {
    fn buffer(&mut self, name: &'static str, buffer: &mut P) {
        let optimizer = Name::field(None, "optimizer");
        let prefix = Name::field(Some(&optimizer), name);
        buffer.visit_mut(
            Some(&prefix),
            &mut |n: &Name<'_>, _: &[usize], values: &mut [P::Scalar]| {
                if let Some(t) = self.state.tensors.get(&n.to_string()) {
                    decode_floats(t, values);
                }
            },
        );
    }

    fn count(&mut self, name: &'static str, value: &mut u64) {
        if let Some(t) = self.state.tensors.get(&optimizer_name(name)) {
            *value = u64_le(&t.data);
        }
    }

    fn scalar(&mut self, name: &'static str, value: &mut f64) {
        if let Some(t) = self.state.tensors.get(&optimizer_name(name)) {
            *value = f64::from_bits(u64_le(&t.data));
        }
    }
}
