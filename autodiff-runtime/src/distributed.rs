//! Data-parallel training steps over MPI processes: each rank computes the gradient of its shard of
//! the global batch, and an MPI allreduce sums the shard gradients (`mpi` feature).
//!
//! The same program runs on every rank (`mpirun -np P ./train`). A [`Cluster`] is this process's
//! view of the MPI world: its rank, the number of ranks, and the collective checks. A
//! [`DataParallel`] step has the shape of the threads' ([`crate::parallel::DataParallel`]): an
//! input `I` (the parameters and the batch), a state `S` (the tape and the gradient buffer) and a
//! shard function, all made once; [`DataParallel::step`] runs the shard function for this rank's
//! shard and [`DataParallel::sum_into`] sums the gradients of every rank into `out`, on every rank.
//! The flat send and receive buffers of the sum are allocated by its first call; later calls
//! allocate nothing on the Rust heap (what the MPI library does inside `MPI_Allreduce` is its own).
//!
//! **Same start, same result.** Every rank builds its model from the same seed and draws the same
//! global batches from the same generator; rank `r` computes rows [`Cluster::rows`] of each batch.
//! After a step every rank holds the same summed gradient, so the optimizers stay in step without
//! sending parameters. [`Cluster::check_agree`] verifies that (one allreduce of a checksum of the
//! parameters) and fails with a message naming the ranks' checksums when they differ: call it after
//! the first step. Rank 0 ([`Cluster::is_root`]) writes the checkpoints and the logs.
//!
//! **Sum or mean.** As for threads: with a loss that is a mean over the batch, each of `P` ranks
//! computes the mean over its own rows and seeds its adjoint with `1 / P`; the sum over ranks is
//! then the gradient of the mean over the global batch.
//!
//! **Determinism.** With two ranks every element of the sum is one addition, `a + b`, the same bits
//! on both ranks and the same as [`crate::parallel::DataParallel`] on two shards. With more ranks
//! the order of the additions is MPI's; `check_agree` catches a library that gives ranks different
//! bits.
//!
//! # Examples
//!
//! The gradient of `L(w) = sum_i (w - x_i)^2` over 8 points, split over the ranks (run with
//! `mpirun -np 2`, or alone as one rank): `dL/dw = sum_i 2 (w - x_i) = 16 w - 56 = -40` at `w = 1`.
//!
//! ```
//! use autodiff_runtime::distributed::{Cluster, DataParallel};
//!
//! let cluster = Cluster::init()?;
//! let xs = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
//! let rows = cluster.rows(xs.len())?;
//! let mut step = DataParallel::build(&cluster, 1.0f64, |_rank| [0.0f64; 1], move |_rank, w, grad| {
//!     grad[0] = xs[rows.clone()].iter().map(|x| 2.0 * (w - x)).sum();
//! });
//! step.step();
//! let mut grad = [0.0];
//! step.sum_flat_into(&mut grad, |g| g);
//! assert_eq!(grad, [-40.0]);
//! cluster.check_agree_flat(&grad)?;
//! if cluster.is_root() {
//!     println!("gradient {grad:?} over {} ranks", cluster.size());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::any::Any;
use core::fmt;
use core::ops::Range;
use std::boxed::Box;
use std::sync::Arc;
use std::time::{Duration, Instant};
use std::vec::Vec;

use mpi::collective::SystemOperation;
use mpi::datatype::Equivalence;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};

use crate::{Float, Parameters};

/// Why a distributed step cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DistributedError {
    /// MPI was initialized already in this process (by another [`Cluster::init`], or by other
    /// code): it can be initialized once per process.
    AlreadyInitialized,
    /// A batch of `rows` rows does not split into equal shards over `ranks` ranks.
    UnevenRows {
        /// Rows of the global batch.
        rows: usize,
        /// Ranks of the world.
        ranks: usize,
    },
    /// The ranks' parameters differ: they did not start from the same seed, did not draw the same
    /// batches, or their sums differed.
    ParametersDiffer {
        /// This rank.
        rank: usize,
        /// Ranks of the world.
        ranks: usize,
        /// This rank's checksum of its parameters.
        checksum: u64,
        /// The lowest and the highest checksum over the ranks.
        lowest: u64,
        /// See `lowest`.
        highest: u64,
    },
}

impl fmt::Display for DistributedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DistributedError::AlreadyInitialized => {
                f.write_str("MPI is already initialized in this process: build one `Cluster`")
            }
            DistributedError::UnevenRows { rows, ranks } => write!(
                f,
                "a batch of {rows} rows does not split evenly over {ranks} MPI ranks: run with a \
                 rank count that divides it"
            ),
            DistributedError::ParametersDiffer {
                rank,
                ranks,
                checksum,
                lowest,
                highest,
            } => write!(
                f,
                "rank {rank} of {ranks}: the parameters differ between ranks (checksum \
                 {checksum:016x}, lowest {lowest:016x}, highest {highest:016x}); every rank must \
                 start from the same seed and checkpoint and draw the same batches"
            ),
        }
    }
}

impl core::error::Error for DistributedError {}

/// This process's place in the MPI world: its rank and the number of ranks.
///
/// Cloning shares the MPI environment; MPI is finalized when the last clone (and the last
/// [`DataParallel`] built from one) is dropped.
#[derive(Clone)]
pub struct Cluster {
    /// Kept alive by every handle: dropping the last one calls `MPI_Finalize`.
    universe: Arc<Universe>,
    rank: usize,
    size: usize,
}

impl fmt::Debug for Cluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cluster")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Initializes MPI (`MPI_Init`) on the calling thread, which makes every MPI call of this
    /// process from then on. Run alone, without `mpirun`, the process is a world of one rank.
    ///
    /// # Errors
    ///
    /// [`DistributedError::AlreadyInitialized`] if MPI was initialized before in this process.
    pub fn init() -> Result<Self, DistributedError> {
        let universe = mpi::initialize().ok_or(DistributedError::AlreadyInitialized)?;
        let world = universe.world();
        let (rank, size) = (world.rank(), world.size());
        Ok(Cluster {
            universe: Arc::new(universe),
            rank: usize::try_from(rank).unwrap_or_default(),
            size: usize::try_from(size).unwrap_or(1),
        })
    }

    /// The world communicator; valid while `self.universe` lives.
    fn world(&self) -> SimpleCommunicator {
        self.universe.world()
    }

    /// This process's rank, from 0.
    #[must_use]
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether this is rank 0, the one that writes checkpoints and logs.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// This rank's rows of a global batch of `rows` rows: the `rank`-th of `size` equal,
    /// contiguous parts.
    ///
    /// # Errors
    ///
    /// [`DistributedError::UnevenRows`] if `rows` is not a multiple of the rank count.
    pub fn rows(&self, rows: usize) -> Result<Range<usize>, DistributedError> {
        if !rows.is_multiple_of(self.size) {
            return Err(DistributedError::UnevenRows {
                rows,
                ranks: self.size,
            });
        }
        let part = rows / self.size;
        Ok(self.rank * part..(self.rank + 1) * part)
    }

    /// `value` summed over the ranks (an allreduce), on every rank.
    #[must_use]
    pub fn sum<F: Float + Equivalence>(&self, value: F) -> F {
        let mut total = F::ZERO;
        self.world()
            .all_reduce_into(&value, &mut total, SystemOperation::sum());
        total
    }

    /// Checks that every rank holds the same parameters, bit for bit: one allreduce of a
    /// checksum. Every rank must call it at the same point.
    ///
    /// # Errors
    ///
    /// [`DistributedError::ParametersDiffer`], on every rank, if any two ranks differ.
    pub fn check_agree<P: Parameters>(&self, params: &P) -> Result<(), DistributedError> {
        let mut checksum = Checksum::new();
        for k in 0..P::TENSORS {
            if let Some(t) = params.tensor(k) {
                checksum.push(t);
            }
        }
        self.agree(checksum.finish())
    }

    /// As [`check_agree`](Self::check_agree), for a flat slice.
    ///
    /// # Errors
    ///
    /// [`DistributedError::ParametersDiffer`], on every rank, if any two ranks differ.
    pub fn check_agree_flat<F: Float>(&self, values: &[F]) -> Result<(), DistributedError> {
        let mut checksum = Checksum::new();
        checksum.push(values);
        self.agree(checksum.finish())
    }

    fn agree(&self, checksum: u64) -> Result<(), DistributedError> {
        // The maxima of the checksum and of its complement give the highest and the lowest.
        let mine = [checksum, !checksum];
        let mut max = [0u64; 2];
        self.world()
            .all_reduce_into(&mine[..], &mut max[..], SystemOperation::max());
        let (highest, lowest) = (max[0], !max[1]);
        if highest == lowest {
            Ok(())
        } else {
            Err(DistributedError::ParametersDiffer {
                rank: self.rank,
                ranks: self.size,
                checksum,
                lowest,
                highest,
            })
        }
    }
}

/// FNV-1a over the bits of every value, as `f64` (exact for `f32`).
struct Checksum(u64);

impl Checksum {
    fn new() -> Self {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    fn push<F: Float>(&mut self, values: &[F]) {
        for x in values {
            for byte in x.to_f64().to_bits().to_le_bytes() {
                self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }

    fn finish(self) -> u64 {
        self.0
    }
}

/// The shard function: `(rank, input, this rank's state)`.
type ShardFn<I, S> = dyn FnMut(usize, &I, &mut S) + Send;

/// One data-parallel step per rank: this rank's shard function on its state, then a sum of the
/// ranks' gradients by MPI allreduce.
///
/// See the [module documentation](self) for an example and the rules.
pub struct DataParallel<I, S> {
    cluster: Cluster,
    input: I,
    state: S,
    shard: Box<ShardFn<I, S>>,
    /// The sum's flat send and receive buffers ([`Buffers`] of the gradient's scalar), made by
    /// the first sum.
    buffers: Option<Box<dyn Any + Send>>,
    /// Time spent in the sums' allreduces, since built.
    communication: Duration,
}

/// A gradient, flattened in tensor order to be sent, and the sum received.
struct Buffers<F> {
    send: Vec<F>,
    receive: Vec<F>,
}

impl<I, S> DataParallel<I, S> {
    /// Builds the step of this rank: `state(rank)` once, and `shard(rank, &input, &mut state)` on
    /// every [`step`](Self::step).
    pub fn build<F>(cluster: &Cluster, input: I, state: impl FnOnce(usize) -> S, shard: F) -> Self
    where
        F: FnMut(usize, &I, &mut S) + Send + 'static,
    {
        DataParallel {
            cluster: cluster.clone(),
            input,
            state: state(cluster.rank),
            shard: Box::new(shard),
            buffers: None,
            communication: Duration::ZERO,
        }
    }

    /// The number of shards: the ranks of the world.
    #[must_use]
    pub fn shards(&self) -> usize {
        self.cluster.size
    }

    /// The cluster the step runs on.
    #[must_use]
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The input the shard function reads, to write the next batch or the updated parameters
    /// before a [`step`](Self::step).
    pub fn input_mut(&mut self) -> &mut I {
        &mut self.input
    }

    /// This rank's state, as the last step left it.
    pub fn state(&mut self) -> &mut S {
        &mut self.state
    }

    /// Runs the shard function of this rank. Allocates nothing (beyond what the shard function
    /// does) and communicates nothing.
    pub fn step(&mut self) {
        (self.shard)(self.cluster.rank, &self.input, &mut self.state);
    }

    /// `out = grads(state on rank 0) + grads(state on rank 1) + ...`, on every rank: one
    /// allreduce of the gradient flattened in tensor order. Every rank must call it.
    pub fn sum_into<G>(&mut self, out: &mut G, grads: impl Fn(&S) -> &G)
    where
        G: Parameters,
        G::Scalar: Equivalence + Send,
    {
        let buffers = Self::buffers::<G::Scalar>(&mut self.buffers, G::COUNT);
        let g = grads(&self.state);
        let mut at = 0;
        for k in 0..G::TENSORS {
            if let Some(t) = g.tensor(k) {
                buffers.send[at..at + t.len()].copy_from_slice(t);
                at += t.len();
            }
        }
        self.communication += all_reduce_sum(&self.cluster, buffers);
        let mut at = 0;
        for k in 0..G::TENSORS {
            if let Some(t) = out.tensor_mut(k) {
                t.copy_from_slice(&buffers.receive[at..at + t.len()]);
                at += t.len();
            }
        }
    }

    /// As [`sum_into`](Self::sum_into), for flat views of equal length on every rank.
    ///
    /// # Panics
    ///
    /// If this rank's view is not as long as `out`.
    #[track_caller]
    pub fn sum_flat_into<F>(&mut self, out: &mut [F], grads: impl Fn(&S) -> &[F])
    where
        F: Float + Equivalence + Send,
    {
        let g = grads(&self.state);
        assert_eq!(g.len(), out.len(), "the gradient has another length");
        let buffers = Self::buffers::<F>(&mut self.buffers, out.len());
        buffers.send.copy_from_slice(g);
        self.communication += all_reduce_sum(&self.cluster, buffers);
        out.copy_from_slice(&buffers.receive);
    }

    /// `value(state on rank 0) + value(state on rank 1) + ...`, on every rank (e.g. the shard
    /// losses). Every rank must call it.
    pub fn sum_scalar<F: Float + Equivalence>(&mut self, value: impl Fn(&S) -> F) -> F {
        let start = Instant::now();
        let total = self.cluster.sum(value(&self.state));
        self.communication += start.elapsed();
        total
    }

    /// Time spent in the sums' collective calls since the step was built: the communication,
    /// and the wait for the slowest rank.
    #[must_use]
    pub fn communication_time(&self) -> Duration {
        self.communication
    }

    /// The buffers for `len` scalars of type `F`, made on the first call (and again only if
    /// the type or the length changes).
    fn buffers<F: Float + Send>(
        slot: &mut Option<Box<dyn Any + Send>>,
        len: usize,
    ) -> &mut Buffers<F> {
        let fits = slot
            .as_ref()
            .and_then(|b| b.downcast_ref::<Buffers<F>>())
            .is_some_and(|b| b.send.len() == len);
        if !fits {
            *slot = Some(Box::new(Buffers {
                send: std::vec![F::ZERO; len],
                receive: std::vec![F::ZERO; len],
            }));
        }
        slot.as_mut()
            .and_then(|b| b.downcast_mut::<Buffers<F>>())
            .expect("made above")
    }
}

/// `receive = sum over ranks of send`; the time it took.
fn all_reduce_sum<F: Equivalence>(cluster: &Cluster, buffers: &mut Buffers<F>) -> Duration {
    let start = Instant::now();
    cluster.world().all_reduce_into(
        &buffers.send[..],
        &mut buffers.receive[..],
        SystemOperation::sum(),
    );
    start.elapsed()
}
