//! Data-parallel training steps over threads: one forward/adjoint pair per shard of a batch, then a
//! gradient sum in a fixed order (`std` only).
//!
//! A [`DataParallel`] pool owns an input `I` that every shard reads (the parameters and the batch)
//! and one state `S` per shard (its tape and gradient buffer), all allocated once, when the pool is
//! built. [`DataParallel::step`] runs the shard function on every shard at once: shard 0 on the
//! calling thread, shard `k > 0` on persistent worker `k`. The workers sleep on a condition
//! variable between steps, so a step allocates nothing and spawns nothing.
//!
//! The sum ([`DataParallel::sum_into`]) runs on the calling thread, shard 0 + shard 1 + ... in index
//! order, so for a given shard count the result does not depend on scheduling: it is the same, bit
//! for bit, run to run. With one shard the sum is a copy of shard 0's gradient, the same bits as the
//! single-threaded step.
//!
//! **Sum or mean.** The pool sums. When the loss is a sum over the batch, each shard seeds its
//! adjoint with `1` and the sum is the full-batch gradient. When it is a mean over the batch (a
//! cross-entropy), each of `n` equal shards computes the mean over its own rows and seeds its adjoint
//! with `1 / n`: then the sum of the shard gradients is the full-batch gradient, and the mean of the
//! shard losses is the full-batch loss. Seeding with `1 / n` rather than scaling the sum keeps one
//! shard bit-identical to the single-threaded step (the seed is `1`).
//!
//! # Examples
//!
//! The gradient of `L(w) = sum_i (w - x_i)^2` over 8 points, in 2 shards of 4 points each:
//! `dL/dw = sum_i 2 (w - x_i)`, `16 w - 2 * 28 = -40` at `w = 1`.
//!
//! ```
//! use autodiff_runtime::parallel::DataParallel;
//!
//! struct Input { w: f64, xs: [f64; 8] }
//! let input = Input { w: 1.0, xs: [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0] };
//! // Per shard: its gradient (a flat buffer, as a `Parameters` type would be).
//! let mut pool = DataParallel::builder(2).build(input, |_shard| [0.0f64; 1], |shard, input, grad| {
//!     let rows = &input.xs[shard * 4..][..4];
//!     grad[0] = rows.iter().map(|x| 2.0 * (input.w - x)).sum();
//! })?;
//! pool.step();
//! let mut grad = [0.0];
//! pool.sum_flat_into(&mut grad, |g| g);
//! assert_eq!(grad, [-40.0]);
//! // A new batch: write the input, step again.
//! pool.input_mut().w = 3.5;
//! pool.step();
//! pool.sum_flat_into(&mut grad, |g| g);
//! assert_eq!(grad, [0.0]);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::boxed::Box;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockWriteGuard};
use std::thread::{self, JoinHandle};
use std::vec::Vec;

use crate::{Float, Parameters};

/// The shard function: `(shard index, shared input, this shard's state)`.
type ShardFn<I, S> = dyn Fn(usize, &I, &mut S) + Send + Sync;

/// How to build a [`DataParallel`] pool: the shard count and the workers' stack size.
#[derive(Clone, Debug)]
pub struct Builder {
    shards: usize,
    stack_size: Option<usize>,
}

impl Builder {
    /// Each worker thread's stack, in bytes (by default std's, 2 MiB). Shard 0 runs on the
    /// calling thread, whose stack is the caller's.
    #[must_use]
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    /// Builds the pool: calls `state(k)` for every shard `k` in order, then spawns `shards - 1`
    /// workers that run `shard(k, &input, &mut state_k)` on each [`DataParallel::step`].
    ///
    /// # Errors
    ///
    /// If a worker thread cannot be spawned; the workers already spawned are stopped.
    pub fn build<I, S, F>(
        self,
        input: I,
        state: impl FnMut(usize) -> S,
        shard: F,
    ) -> io::Result<DataParallel<I, S>>
    where
        I: Send + Sync + 'static,
        S: Send + 'static,
        F: Fn(usize, &I, &mut S) + Send + Sync + 'static,
    {
        let n = self.shards;
        let shared = Arc::new(Shared {
            input: RwLock::new(input),
            states: (0..n).map(state).map(Mutex::new).collect(),
            shard: Box::new(shard) as Box<ShardFn<I, S>>,
            control: Mutex::new(Control {
                epoch: 0,
                pending: 0,
                stop: false,
            }),
            go: Condvar::new(),
            finished: Condvar::new(),
            panicked: AtomicUsize::new(NONE),
        });
        let mut pool = DataParallel {
            shared,
            workers: Vec::with_capacity(n - 1),
        };
        for k in 1..n {
            let mut worker = thread::Builder::new().name(std::format!("data-parallel-{k}"));
            if let Some(bytes) = self.stack_size {
                worker = worker.stack_size(bytes);
            }
            let shared = Arc::clone(&pool.shared);
            // On an error, dropping `pool` stops the workers spawned so far.
            pool.workers.push(worker.spawn(move || shared.work(k))?);
        }
        Ok(pool)
    }
}

/// No shard has panicked.
const NONE: usize = usize::MAX;

struct Shared<I, S> {
    input: RwLock<I>,
    states: Box<[Mutex<S>]>,
    shard: Box<ShardFn<I, S>>,
    control: Mutex<Control>,
    /// Signalled when `epoch` advances or `stop` is set.
    go: Condvar,
    /// Signalled when `pending` reaches 0.
    finished: Condvar,
    /// The lowest shard that panicked in the last step, or `NONE`.
    panicked: AtomicUsize,
}

/// What the calling thread and the workers agree on, under one lock.
struct Control {
    /// Steps started; a worker runs its shard once per increment.
    epoch: u64,
    /// Workers still running the current step.
    pending: usize,
    /// Set once, when the pool is dropped.
    stop: bool,
}

impl<I, S> Shared<I, S> {
    fn control(&self) -> MutexGuard<'_, Control> {
        self.control.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Worker `k`'s loop: one shard per step until stopped.
    fn work(&self, k: usize) {
        let mut seen = 0;
        loop {
            {
                let mut control = self.control();
                while control.epoch == seen && !control.stop {
                    control = self
                        .go
                        .wait(control)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                if control.stop {
                    return;
                }
                seen = control.epoch;
            }
            self.run(k);
            let mut control = self.control();
            control.pending -= 1;
            if control.pending == 0 {
                self.finished.notify_one();
            }
        }
    }

    /// Runs shard `k`, recording a panic instead of unwinding past the barriers.
    fn run(&self, k: usize) {
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            let input = self.input.read().unwrap_or_else(PoisonError::into_inner);
            let mut state = self.states[k]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            (self.shard)(k, &input, &mut state);
        }));
        if ran.is_err() {
            self.panicked.fetch_min(k, Ordering::AcqRel);
        }
    }
}

/// A pool of `shards` threads (the caller and `shards - 1` persistent workers) that runs one
/// shard function per shard of a batch, each on its own state, and sums the results in index order.
///
/// See the [module documentation](self) for the determinism and sum-or-mean rules.
pub struct DataParallel<I, S> {
    shared: Arc<Shared<I, S>>,
    workers: Vec<JoinHandle<()>>,
}

impl DataParallel<(), ()> {
    /// A builder of a pool of `shards` shards.
    ///
    /// # Panics
    ///
    /// If `shards` is 0.
    #[track_caller]
    #[must_use]
    pub fn builder(shards: usize) -> Builder {
        assert!(shards > 0, "a data-parallel pool needs at least one shard");
        Builder {
            shards,
            stack_size: None,
        }
    }
}

impl<I, S> DataParallel<I, S> {
    /// The number of shards.
    #[must_use]
    pub fn shards(&self) -> usize {
        self.shared.states.len()
    }

    /// The input every shard reads, to write the next batch or the updated parameters before a
    /// [`step`](Self::step). Never blocks: the workers hold it only during a step.
    pub fn input_mut(&mut self) -> RwLockWriteGuard<'_, I> {
        self.shared
            .input
            .write()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Shard `k`'s state, as the last step left it. Never blocks.
    ///
    /// # Panics
    ///
    /// If `k >= self.shards()`.
    #[track_caller]
    pub fn state(&mut self, k: usize) -> MutexGuard<'_, S> {
        self.shared.states[k]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs the shard function on every shard, shard 0 on this thread, and returns when all are
    /// done. Allocates nothing.
    ///
    /// # Panics
    ///
    /// If a shard function panicked (after every shard has finished), naming the lowest such shard.
    pub fn step(&mut self) {
        let shared = &*self.shared;
        shared.panicked.store(NONE, Ordering::Release);
        {
            let mut control = shared.control();
            control.epoch += 1;
            control.pending = self.workers.len();
        }
        shared.go.notify_all();
        shared.run(0);
        let mut control = shared.control();
        while control.pending > 0 {
            control = shared
                .finished
                .wait(control)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(control);
        let panicked = self.shared.panicked.load(Ordering::Acquire);
        assert!(
            panicked == NONE,
            "data-parallel step: the function of shard {panicked} panicked"
        );
    }

    /// `out = grads(state_0) + grads(state_1) + ...`, added in shard order on this thread.
    pub fn sum_into<G: Parameters>(&mut self, out: &mut G, grads: impl Fn(&S) -> &G) {
        for (k, state) in self.shared.states.iter().enumerate() {
            let state = state.lock().unwrap_or_else(PoisonError::into_inner);
            if k == 0 {
                out.copy_from(grads(&state));
            } else {
                out.zip_mut(grads(&state), |a, b| *a += b);
            }
        }
    }

    /// As [`sum_into`](Self::sum_into), for flat views of equal length.
    ///
    /// # Panics
    ///
    /// If a shard's view is not as long as `out`.
    #[track_caller]
    pub fn sum_flat_into<F: Float>(&mut self, out: &mut [F], grads: impl Fn(&S) -> &[F]) {
        for (k, state) in self.shared.states.iter().enumerate() {
            let state = state.lock().unwrap_or_else(PoisonError::into_inner);
            let g = grads(&state);
            assert_eq!(
                g.len(),
                out.len(),
                "shard {k}'s gradient has another length"
            );
            if k == 0 {
                out.copy_from_slice(g);
            } else {
                out.iter_mut().zip(g).for_each(|(a, &b)| *a += b);
            }
        }
    }
}

impl<I, S> Drop for DataParallel<I, S> {
    fn drop(&mut self) {
        self.shared.control().stop = true;
        self.shared.go.notify_all();
        for handle in self.workers.drain(..) {
            // A worker never unwinds (shard panics are caught), so joining cannot fail.
            let _ = handle.join();
        }
    }
}
