//! The GPT's training step over MPI ranks (`--features mpi`, run under `mpirun`): every rank draws
//! the same global batch of `B` sequences, computes the loss and gradient of its `B / P` of them,
//! and an allreduce sums the gradients (`stackgrad::runtime::distributed`). Shared with
//! `tests/mpi.rs`.

use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use stackgrad::Parameters;
use stackgrad::runtime::distributed::{Cluster, DataParallel};

use crate::model::{B, Gpt, R, ShardState, ShardedLoss, Trainer};

/// The time a trainer's steps spent in their allreduces, readable while it trains.
#[derive(Clone, Debug, Default)]
pub struct Communication(Arc<AtomicU64>);

impl Communication {
    /// The total so far.
    pub fn time(&self) -> Duration {
        Duration::from_nanos(self.0.load(Ordering::Relaxed))
    }
}

/// Splits each step's batch of `B` sequences over the ranks of `cluster`: `B / P` on each of `P`
/// ranks. One rank keeps `trainer` as it is (on its threads).
///
/// # Errors
///
/// If the rank count is not 1, 2, 4 or 8 (each shard's tape is sized at compile time), or if a
/// rank of several would also run several threads.
pub fn with_ranks(
    trainer: Trainer,
    cluster: &Cluster,
) -> Result<(Trainer, Communication), Box<dyn Error>> {
    let communication = Communication::default();
    if cluster.size() > 1 && trainer.threads() > 1 {
        return Err(format!(
            "--threads {} under mpirun -np {}: run one thread per rank (--threads 1)",
            trainer.threads(),
            cluster.size()
        )
        .into());
    }
    let sharded: Box<dyn ShardedLoss<R> + Send> = match cluster.size() {
        1 => return Ok((trainer, communication)),
        2 => Box::new(Ranked::<R, { R / 2 }>::new(cluster, &communication)),
        4 => Box::new(Ranked::<R, { R / 4 }>::new(cluster, &communication)),
        8 => Box::new(Ranked::<R, { R / 8 }>::new(cluster, &communication)),
        n => {
            return Err(format!(
                "mpirun -np {n}: the batch of {B} sequences splits over 1, 2, 4 or 8 ranks (the \
                 shard tapes are sized at compile time)"
            )
            .into());
        }
    };
    Ok((trainer.with_sharded_loss(sharded), communication))
}

/// What this rank's shard reads: the parameters and its `SR` rows of the batch.
struct Input<const SR: usize> {
    params: Gpt,
    x: [usize; SR],
    y: [usize; SR],
}

/// A batch of `NR` rows over `NR / SR` ranks of `SR` rows each. The loss is a mean over rows, so
/// each rank seeds its adjoint with `SR / NR`: the sum over ranks is the gradient of the batch.
struct Ranked<const NR: usize, const SR: usize> {
    step: DataParallel<Input<SR>, ShardState<SR>>,
    communication: Communication,
}

impl<const NR: usize, const SR: usize> Ranked<NR, SR> {
    fn new(cluster: &Cluster, communication: &Communication) -> Self {
        const { assert!(SR > 0 && NR.is_multiple_of(SR), "shards of equal size") };
        let seed = SR as f32 / NR as f32;
        let input = Input {
            params: Gpt::zeroed(),
            x: [0; SR],
            y: [0; SR],
        };
        let step = DataParallel::build(
            cluster,
            input,
            |_| ShardState::new(),
            move |_, input: &Input<SR>, state: &mut ShardState<SR>| {
                state.compute(&input.params, &input.x, &input.y, seed);
            },
        );
        Ranked {
            step,
            communication: communication.clone(),
        }
    }
}

impl<const NR: usize, const SR: usize> ShardedLoss<NR> for Ranked<NR, SR> {
    fn shards(&self) -> usize {
        self.step.shards()
    }

    fn loss_and_gradient(
        &mut self,
        params: &Gpt,
        x: &[usize; NR],
        y: &[usize; NR],
        grads: &mut Gpt,
    ) -> f32 {
        let rows = self.step.cluster().rank() * SR..;
        let input = self.step.input_mut();
        input.params.copy_from(params);
        input.x.copy_from_slice(&x[rows.clone()][..SR]);
        input.y.copy_from_slice(&y[rows][..SR]);
        self.step.step();
        self.step.sum_into(grads, |state| &state.grads);
        let loss = self.step.sum_scalar(|state| state.loss) / self.step.shards() as f32;
        let nanos = u64::try_from(self.step.communication_time().as_nanos()).unwrap_or(u64::MAX);
        self.communication.0.store(nanos, Ordering::Relaxed);
        loss
    }
}
