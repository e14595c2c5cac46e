//! `parallel::DataParallel` with generated adjoints: a mean-squared-error loss over `N` rows, split
//! into 1, 2 and 4 shards, gives the unsharded gradient (within 1e-12 relative), the same bits on
//! every run for a given shard count, the single-threaded step's bits with one shard, and no
//! allocation in a step after the first on any thread of the pool.

#![allow(clippy::needless_range_loop)] // index loops are what the macro differentiates

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use stackgrad::runtime::parallel::DataParallel;
use stackgrad::{Parameters, differentiable};

/// Rows of the full batch.
const N: usize = 16;
/// Hidden units.
const H: usize = 5;
/// Plain gradient-descent steps of the trajectory tests.
const STEPS: usize = 5;
const LR: f64 = 0.1;

#[derive(Parameters, Clone, Debug, PartialEq)]
struct Net {
    w1: [[f64; 3]; H],
    b1: [f64; H],
    w2: [f64; H],
    b2: f64,
}

/// `inv_rows * sum_n (b2 + sum_j w2[j] tanh(b1[j] + w1[j] . x[n]) - y[n])^2`: the mean squared
/// error over the `R` rows when `inv_rows = 1 / R`.
#[differentiable(wrt(p))]
fn mse<const R: usize>(p: &Net, x: &[[f64; 3]; R], y: &[f64; R], inv_rows: f64) -> f64 {
    let mut total = 0.0;
    for n in 0..R {
        let mut out = p.b2;
        for j in 0..H {
            let mut h = p.b1[j];
            for i in 0..3 {
                h += p.w1[j][i] * x[n][i];
            }
            out += p.w2[j] * h.tanh();
        }
        let e = out - y[n];
        total += e * e;
    }
    total * inv_rows
}

// ---- A counting allocator: allocations on marked threads while counting is on. ----

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the test's thread and, by the shard function, on every worker of the pool.
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

fn mark_thread() {
    MARKED.with(|m| m.set(true));
}

fn record() {
    // `try_with`: the allocator also runs while thread-locals are being torn down.
    if COUNTING.load(Ordering::Relaxed) && MARKED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` unchanged; counting touches an atomic and a
// const-initialized thread-local, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record();
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The tests of this file one at a time, so that no other test's pool allocates while one counts.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

// ---- The model, the batch, and the steps. ----

fn initial() -> Net {
    let v = |k: usize| ((k as f64 + 1.0) * 0.731).sin() * 0.6;
    Net {
        w1: core::array::from_fn(|j| core::array::from_fn(|i| v(3 * j + i))),
        b1: core::array::from_fn(|j| v(40 + j)),
        w2: core::array::from_fn(|j| v(60 + j)),
        b2: 0.1,
    }
}

fn batch() -> ([[f64; 3]; N], [f64; N]) {
    let x = core::array::from_fn(|n| core::array::from_fn(|i| ((n * 3 + i) as f64 * 0.37).cos()));
    let y = core::array::from_fn(|n| ((n as f64) * 0.53).sin());
    (x, y)
}

/// What every shard reads: the parameters and the full batch.
struct Input {
    p: Net,
    x: [[f64; 3]; N],
    y: [f64; N],
}

/// One shard's tape, gradient and loss, allocated once.
struct Shard<const S: usize> {
    tape: Box<MseTape<S>>,
    grads: Net,
    loss: f64,
}

/// A pool of `N / S` shards of `S` rows: each shard's loss is the mean over its rows, and its
/// adjoint is seeded with `1 / shards`, so the sum of the shard gradients is the full gradient.
fn pool<const S: usize>(p: Net) -> DataParallel<Input, Shard<S>> {
    let shards = N / S;
    let (x, y) = batch();
    DataParallel::builder(shards)
        .build(
            Input { p, x, y },
            |_| Shard {
                tape: Box::new(MseTape::new()),
                grads: Net::zeroed(),
                loss: 0.0,
            },
            move |k, input: &Input, shard: &mut Shard<S>| {
                mark_thread();
                let x: &[[f64; 3]; S] = input.x[k * S..][..S].try_into().unwrap();
                let y: &[f64; S] = input.y[k * S..][..S].try_into().unwrap();
                let inv_rows = 1.0 / S as f64;
                shard.grads.zero();
                shard.loss = mse_forward::<S>(&input.p, x, y, inv_rows, &mut shard.tape);
                let seed = 1.0 / shards as f64;
                mse_adjoint::<S>(
                    &input.p,
                    x,
                    y,
                    inv_rows,
                    &shard.tape,
                    seed,
                    &mut shard.grads,
                );
            },
        )
        .expect("spawn the workers")
}

/// The pool's gradient at `p`.
fn sharded_gradient<const S: usize>(p: &Net) -> Net {
    let mut pool = pool::<S>(p.clone());
    pool.step();
    let mut grads = Net::zeroed();
    pool.sum_into(&mut grads, |s| &s.grads);
    grads
}

/// `STEPS` steps of gradient descent with the pool; the parameters after them.
fn sharded_descent<const S: usize>() -> Net {
    let mut pool = pool::<S>(initial());
    let mut grads = Net::zeroed();
    for _ in 0..STEPS {
        pool.step();
        pool.sum_into(&mut grads, |s| &s.grads);
        pool.input_mut().p.zip_mut(&grads, |w, g| *w -= LR * g);
    }
    pool.input_mut().p.clone()
}

/// The same descent on one thread, without the pool: today's single-core step.
fn plain_descent() -> Net {
    let (x, y) = batch();
    let mut p = initial();
    let mut tape = Box::new(MseTape::<N>::new());
    let mut grads = Net::zeroed();
    for _ in 0..STEPS {
        grads.zero();
        mse_forward::<N>(&p, &x, &y, 1.0 / N as f64, &mut tape);
        mse_adjoint::<N>(&p, &x, &y, 1.0 / N as f64, &tape, 1.0, &mut grads);
        p.zip_mut(&grads, |w, g| *w -= LR * g);
    }
    p
}

fn flat(p: &Net) -> Vec<f64> {
    let mut v = Vec::new();
    p.for_each_tensor(|_, _, t| v.extend_from_slice(t));
    v
}

fn bits(p: &Net) -> Vec<u64> {
    flat(p).iter().map(|x| x.to_bits()).collect()
}

/// Asserts `got` is within `rel` of `want` relative to the largest entry of `want`, printing the
/// first entries and the largest difference otherwise.
fn assert_close(got: &Net, want: &Net, rel: f64, what: &str) {
    let (got, want) = (flat(got), flat(want));
    let scale = want.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    let (worst, at) = got
        .iter()
        .zip(&want)
        .map(|(g, w)| (g - w).abs())
        .enumerate()
        .fold(
            (0.0, 0),
            |(m, at), (i, d)| if d > m { (d, i) } else { (m, at) },
        );
    assert!(
        worst <= rel * scale,
        "{what}: largest difference {worst:e} at {at} (scale {scale:e})\n got {:?}\nwant {:?}",
        &got[..6],
        &want[..6]
    );
}

#[test]
fn one_two_and_four_shards_give_the_unsharded_gradient() {
    let _serial = serial();
    let (x, y) = batch();
    let p = initial();
    let mut want = Net::zeroed();
    let mut tape = Box::new(MseTape::<N>::new());
    mse_forward::<N>(&p, &x, &y, 1.0 / N as f64, &mut tape);
    mse_adjoint::<N>(&p, &x, &y, 1.0 / N as f64, &tape, 1.0, &mut want);
    assert!(want.sum_of_squares() > 1e-6, "a non-trivial gradient");
    assert_eq!(bits(&sharded_gradient::<N>(&p)), bits(&want), "1 shard");
    assert_close(&sharded_gradient::<{ N / 2 }>(&p), &want, 1e-12, "2 shards");
    assert_close(&sharded_gradient::<{ N / 4 }>(&p), &want, 1e-12, "4 shards");
}

#[test]
fn one_shard_is_bit_identical_to_the_single_threaded_step() {
    let _serial = serial();
    assert_eq!(bits(&sharded_descent::<N>()), bits(&plain_descent()));
}

#[test]
fn repeated_runs_are_bit_identical_for_a_given_shard_count() {
    let _serial = serial();
    for _ in 0..2 {
        let two = sharded_descent::<{ N / 2 }>();
        assert_eq!(
            bits(&two),
            bits(&sharded_descent::<{ N / 2 }>()),
            "2 shards"
        );
        let four = sharded_descent::<{ N / 4 }>();
        assert_eq!(
            bits(&four),
            bits(&sharded_descent::<{ N / 4 }>()),
            "4 shards"
        );
        assert_close(&four, &plain_descent(), 1e-12, "4 shards against 1");
    }
}

#[test]
fn steps_after_the_first_allocate_nothing_on_any_thread() {
    let _serial = serial();
    mark_thread();
    let mut pool = pool::<{ N / 4 }>(initial());
    let mut grads = Net::zeroed();
    // The first step marks the workers (and lets anything lazy happen).
    pool.step();
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    for _ in 0..20 {
        pool.step();
        pool.sum_into(&mut grads, |s| &s.grads);
        pool.input_mut().p.zip_mut(&grads, |w, g| *w -= LR * g);
    }
    COUNTING.store(false, Ordering::Relaxed);
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
    // The counter does see the workers: a shard that allocates is counted.
    let mut boxing = DataParallel::builder(2)
        .build(
            (),
            |_| 0usize,
            |_, (), n: &mut usize| {
                mark_thread();
                *n += std::hint::black_box(Box::new(1usize)).as_ref();
            },
        )
        .unwrap();
    boxing.step();
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    boxing.step();
    COUNTING.store(false, Ordering::Relaxed);
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 2, "one box per shard");
}

#[test]
fn a_panicking_shard_is_reported_after_every_shard_finished() {
    let _serial = serial();
    let mut pool = DataParallel::builder(3)
        .build((), |_| (), |k, (), ()| assert!(k != 2, "shard 2 fails"))
        .unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.step()));
    let message = *caught.unwrap_err().downcast::<String>().unwrap();
    assert!(message.contains("shard 2 panicked"), "{message}");
    // The pool is still usable and drops cleanly.
    drop(pool);
}
