//! The data-parallel step over MPI ranks (`runtime::distributed`), run by `.ci/run` as
//! `mpirun -np 2 cargo test --release --features mpi --test mpi`: every rank runs every check in
//! the same order (their collectives pair up), and the process fails if any check fails on it.
//!
//! - an f64 model's allreduced gradient is the single-process one within 1e-12 relative;
//! - `check_agree` passes on equal parameters and fails, on every rank, on different ones;
//! - `rows` gives each rank its part of a batch, and an error for a batch that does not split;
//! - a step allocates nothing on the Rust heap after the first, the allreduce included;
//! - the example GPT's gradient over the ranks is the single-process one within float rounding
//!   (and, on two ranks, the same bits as two threads), and its loss after 300 steps is the
//!   single-process run's with the same global batches within float tolerance.
//!
//! Needs at least two ranks; alone it fails with a message that says so.

#![allow(clippy::needless_range_loop)] // index loops are what the macro differentiates

use std::process::ExitCode;

use stackgrad::runtime::Float;
use stackgrad::runtime::distributed::{Cluster, DataParallel, DistributedError};
use stackgrad::{Parameters, differentiable};

#[allow(dead_code, reason = "the example's model; these tests use part of it")]
#[path = "../examples/shakespeare_gpt/model.rs"]
mod model;
#[path = "../examples/shakespeare_gpt/ranks.rs"]
mod ranks;

mod counting;
mod gpt_batches;
use counting::allocations_in;

// ---- A small f64 model: a mean squared error over `N` rows. ----

/// Rows of the global batch.
const N: usize = 16;
/// Hidden units.
const HIDDEN: usize = 4;

#[derive(Parameters, Clone, Debug, PartialEq)]
struct Net {
    w: [[f64; 2]; HIDDEN],
    v: [f64; HIDDEN],
    c: f64,
}

/// `inv_rows * sum_n (c + sum_j v[j] tanh(w[j] . x[n]) - y[n])^2`.
#[differentiable(wrt(p))]
fn mse<const R: usize>(p: &Net, x: &[[f64; 2]; R], y: &[f64; R], inv_rows: f64) -> f64 {
    let mut total = 0.0;
    for n in 0..R {
        let mut out = p.c;
        for j in 0..HIDDEN {
            out += p.v[j] * (p.w[j][0] * x[n][0] + p.w[j][1] * x[n][1]).tanh();
        }
        let e = out - y[n];
        total += e * e;
    }
    total * inv_rows
}

fn net() -> Net {
    let v = |k: usize| ((k as f64 + 1.0) * 0.917).sin() * 0.7;
    Net {
        w: core::array::from_fn(|j| [v(2 * j), v(2 * j + 1)]),
        v: core::array::from_fn(|j| v(20 + j)),
        c: -0.2,
    }
}

fn batch() -> ([[f64; 2]; N], [f64; N]) {
    let x = core::array::from_fn(|n| [(n as f64 * 0.41).cos(), (n as f64 * 0.29).sin()]);
    let y = core::array::from_fn(|n| (n as f64 * 0.61).sin());
    (x, y)
}

/// This rank's tape, gradient and loss, for shards of `S` rows.
struct MseShard<const S: usize> {
    tape: Box<MseTape<S>>,
    grads: Net,
    loss: f64,
}

/// The step of this rank over `N / S` ranks of `S` rows: each computes the mean over its rows and
/// seeds its adjoint with `1 / ranks`.
fn mse_step<const S: usize>(cluster: &Cluster) -> DataParallel<Net, MseShard<S>> {
    let ranks = cluster.size();
    let (x, y) = batch();
    DataParallel::build(
        cluster,
        net(),
        |_| MseShard {
            tape: Box::new(MseTape::new()),
            grads: Net::zeroed(),
            loss: 0.0,
        },
        move |rank, p: &Net, shard: &mut MseShard<S>| {
            let x: &[[f64; 2]; S] = x[rank * S..][..S].try_into().expect("S rows");
            let y: &[f64; S] = y[rank * S..][..S].try_into().expect("S rows");
            let inv_rows = 1.0 / S as f64;
            shard.grads.zero();
            shard.loss = mse_forward::<S>(p, x, y, inv_rows, &mut shard.tape);
            let seed = 1.0 / ranks as f64;
            mse_adjoint::<S>(p, x, y, inv_rows, &shard.tape, seed, &mut shard.grads);
        },
    )
}

/// The gradient and loss of the whole batch in this process.
fn mse_single() -> (Net, f64) {
    let (x, y) = batch();
    let mut tape = Box::new(MseTape::<N>::new());
    let mut grads = Net::zeroed();
    let loss = mse_forward::<N>(&net(), &x, &y, 1.0 / N as f64, &mut tape);
    mse_adjoint::<N>(&net(), &x, &y, 1.0 / N as f64, &tape, 1.0, &mut grads);
    (grads, loss)
}

/// The flat values of `p`, in tensor order.
fn flat<P: Parameters>(p: &P) -> Vec<f64> {
    let mut out = Vec::with_capacity(P::COUNT);
    p.for_each_tensor(|_, _, t| out.extend(t.iter().map(|x| x.to_f64())));
    out
}

/// `Err` naming the largest difference and the first entries, if any entry of `got` is farther
/// from `want` than `tolerance` times the largest magnitude of `want`.
fn compare(what: &str, got: &[f64], want: &[f64], tolerance: f64) -> Result<(), String> {
    let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let (worst, at) = got
        .iter()
        .zip(want)
        .enumerate()
        .map(|(i, (a, b))| ((a - b).abs(), i))
        .fold((0.0, 0), |m, d| if d.0 > m.0 { d } else { m });
    if got.len() == want.len() && worst <= tolerance * scale {
        Ok(())
    } else {
        Err(format!(
            "{what}: largest difference {worst:e} at {at} (tolerance {tolerance:e} x {scale:e}, \
             lengths {} and {}); first entries {:?} against {:?}",
            got.len(),
            want.len(),
            &got[..got.len().min(4)],
            &want[..want.len().min(4)]
        ))
    }
}

// ---- The checks. ----

/// A check of a shard size `S`: the one of `N / ranks` for 2, 4 or 8 ranks (each shard's tape is
/// sized at compile time).
type Check = fn(&Cluster) -> Result<(), String>;

fn by_shard_size(cluster: &Cluster, [two, four, eight]: [Check; 3]) -> Result<(), String> {
    match cluster.size() {
        2 => two(cluster),
        4 => four(cluster),
        8 => eight(cluster),
        n => Err(format!("{n} ranks: this check runs on 2, 4 or 8")),
    }
}

fn mse_gradient_is_the_single_process_one(cluster: &Cluster) -> Result<(), String> {
    by_shard_size(
        cluster,
        [
            mse_gradient::<{ N / 2 }>,
            mse_gradient::<{ N / 4 }>,
            mse_gradient::<{ N / 8 }>,
        ],
    )
}

fn mse_gradient<const S: usize>(cluster: &Cluster) -> Result<(), String> {
    let mut step = mse_step::<S>(cluster);
    step.step();
    let mut grads = Net::zeroed();
    step.sum_into(&mut grads, |s| &s.grads);
    let loss = step.sum_scalar(|s| s.loss) / cluster.size() as f64;
    // One tensor, `v`, as a flat view.
    let mut v = [0.0; HIDDEN];
    step.sum_flat_into(&mut v, |s| &s.grads.v);
    let mine = flat(&step.state().grads);
    let agree = cluster.check_agree(&grads);
    let (want, want_loss) = mse_single();
    compare("allreduced gradient", &flat(&grads), &flat(&want), 1e-12)?;
    compare("flat allreduced gradient of v", &v, &want.v, 1e-12)?;
    compare("mean loss", &[loss], &[want_loss], 1e-12)?;
    // The rank's own gradient is a part of the sum, not all of it.
    if mine == flat(&want) {
        return Err("a rank's gradient is already the whole batch's".into());
    }
    agree.map_err(|e| e.to_string())
}

fn check_agree_fails_on_every_rank_when_parameters_differ(cluster: &Cluster) -> Result<(), String> {
    let same = cluster.check_agree(&net());
    let mut other = net();
    other.v[1] += cluster.rank() as f64 * f64::EPSILON;
    let differ = cluster.check_agree(&other);
    same.map_err(|e| format!("equal parameters: {e}"))?;
    let Err(
        e @ DistributedError::ParametersDiffer {
            rank,
            ranks,
            checksum,
            lowest,
            highest,
        },
    ) = differ
    else {
        return Err(format!("parameters that differ by one ulp: {differ:?}"));
    };
    let message = e.to_string();
    if rank != cluster.rank() || ranks != cluster.size() || lowest == highest {
        return Err(format!("wrong context: {message}"));
    }
    if !(lowest..=highest).contains(&checksum) || !message.contains("same seed") {
        return Err(format!("unclear message: {message}"));
    }
    Ok(())
}

fn rows_split_a_batch_by_rank(cluster: &Cluster) -> Result<(), String> {
    let (rank, ranks) = (cluster.rank(), cluster.size());
    let rows = cluster.rows(N).map_err(|e| e.to_string())?;
    if rows != (rank * N / ranks..(rank + 1) * N / ranks) {
        return Err(format!("rank {rank} of {ranks}: rows {rows:?} of {N}"));
    }
    match cluster.rows(N + 1) {
        Err(e @ DistributedError::UnevenRows { rows, ranks: r })
            if rows == N + 1 && r == ranks && e.to_string().contains("does not split evenly") =>
        {
            Ok(())
        }
        other => Err(format!("{} rows over {ranks} ranks: {other:?}", N + 1)),
    }
}

fn no_allocation_after_the_first_step(cluster: &Cluster) -> Result<(), String> {
    by_shard_size(
        cluster,
        [
            no_allocation::<{ N / 2 }>,
            no_allocation::<{ N / 4 }>,
            no_allocation::<{ N / 8 }>,
        ],
    )
}

fn no_allocation<const S: usize>(cluster: &Cluster) -> Result<(), String> {
    let mut step = mse_step::<S>(cluster);
    let mut grads = Net::zeroed();
    let mut one_step = |step: &mut DataParallel<Net, MseShard<S>>| {
        step.step();
        step.sum_into(&mut grads, |s| &s.grads);
        let _ = step.sum_scalar(|s| s.loss);
        step.input_mut().zip_mut(&grads, |w, g| *w -= 0.1 * g);
    };
    let first = allocations_in(|| one_step(&mut step));
    let later = allocations_in(|| {
        for _ in 0..5 {
            one_step(&mut step);
        }
    });
    // The GPT's step through the trainer, as the example runs it.
    let data = gpt_batches::batches::<{ model::T }, { model::B }, { model::R }>(3);
    let (mut trainer, _) = ranks::with_ranks(model::Trainer::new(1337), cluster)
        .map_err(|e| format!("the trainer over the ranks: {e}"))?;
    trainer.step(&data[0].0, &data[0].1);
    let gpt_later = allocations_in(|| {
        for (x, y) in &data[1..] {
            trainer.step(x, y);
        }
    });
    if first == 0 {
        return Err("the first step allocates its buffers, the counter saw none".into());
    }
    if later != 0 || gpt_later != 0 {
        return Err(format!(
            "{later} allocations in 5 later steps of the small model, {gpt_later} in 2 of the GPT"
        ));
    }
    Ok(())
}

/// Steps of the trajectory check.
const GPT_STEPS: usize = 300;

fn gpt_gradient_and_300_steps_match_one_process(cluster: &Cluster) -> Result<(), String> {
    let data = gpt_batches::batches::<{ model::T }, { model::B }, { model::R }>(GPT_STEPS);
    let (mut ranked, communication) = ranks::with_ranks(model::Trainer::new(1337), cluster)
        .map_err(|e| format!("the trainer over the ranks: {e}"))?;
    let mut single = model::Trainer::new(1337);
    let mut threads = model::Trainer::new(1337)
        .with_threads(cluster.size())
        .map_err(|e| format!("spawn: {e}"))?;
    let (x, y) = &data[0];
    let (ranked_loss, single_loss) = (ranked.step(x, y), single.step(x, y));
    threads.step(x, y);
    let agree = cluster.check_agree(&*ranked.params);
    let ranked_grads = flat(&*ranked.grads);
    // The rows of a shard are summed in another order than in the whole batch.
    compare("GPT gradient", &ranked_grads, &flat(&*single.grads), 1e-5)?;
    compare(
        "GPT loss",
        &[f64::from(ranked_loss)],
        &[f64::from(single_loss)],
        1e-6,
    )?;
    if cluster.size() == 2 && ranked_grads != flat(&*threads.grads) {
        compare(
            "two ranks against two threads",
            &ranked_grads,
            &flat(&*threads.grads),
            0.0,
        )?;
    }
    agree.map_err(|e| format!("after the first step: {e}"))?;
    // The mean training loss of the last 100 steps, as the example reports it.
    let (mut ranked_mean, mut single_mean) = (0.0, 0.0);
    for (step, (x, y)) in data.iter().enumerate().skip(1) {
        let (a, b) = (ranked.step(x, y), single.step(x, y));
        if step >= GPT_STEPS - 100 {
            ranked_mean += f64::from(a) / 100.0;
            single_mean += f64::from(b) / 100.0;
        }
    }
    // Measured on two ranks: 2.5% apart after 300 steps at most in a parameter, 1.2e-3 relative
    // in the loss of step 300 alone, 2e-4 in the mean of the last 100 (the trajectories drift
    // apart by rounding, AdamW's normalisation amplifying it); a wrong sum (a shard missing, a
    // seed off) moves the mean by far more.
    compare(
        "mean loss of steps 201-300",
        &[ranked_mean],
        &[single_mean],
        1e-3,
    )?;
    if communication.time().is_zero() {
        return Err("the allreduces of 300 steps took no time: they were not timed".into());
    }
    if cluster.is_root() {
        println!(
            "  GPT mean loss of steps 201-300: {ranked_mean:.6} over {} ranks, {single_mean:.6} \
             in one process",
            cluster.size()
        );
    }
    Ok(())
}

/// The checks in order: every rank runs all of them, so the collectives pair up.
const CHECKS: [(&str, Check); 5] = [
    ("rows_split_a_batch_by_rank", rows_split_a_batch_by_rank),
    (
        "mse_gradient_is_the_single_process_one",
        mse_gradient_is_the_single_process_one,
    ),
    (
        "check_agree_fails_on_every_rank_when_parameters_differ",
        check_agree_fails_on_every_rank_when_parameters_differ,
    ),
    (
        "no_allocation_after_the_first_step",
        no_allocation_after_the_first_step,
    ),
    (
        "gpt_gradient_and_300_steps_match_one_process",
        gpt_gradient_and_300_steps_match_one_process,
    ),
];

fn run() -> Result<usize, String> {
    let cluster = Cluster::init().map_err(|e| e.to_string())?;
    if cluster.size() < 2 {
        return Err(
            "one rank: run under mpirun, e.g. `mpirun -np 2 cargo test --release --features mpi \
             --test mpi`"
                .into(),
        );
    }
    let mut failed = 0;
    for (name, check) in CHECKS {
        match check(&cluster) {
            Ok(()) if cluster.is_root() => println!("test {name} ... ok"),
            Ok(()) => {}
            Err(e) => {
                failed += 1;
                eprintln!("test {name} ... FAILED on rank {}: {e}", cluster.rank());
            }
        }
    }
    if cluster.is_root() {
        println!(
            "mpi: {} checks on {} ranks, {failed} failed on rank 0",
            CHECKS.len(),
            cluster.size()
        );
    }
    Ok(failed)
}

fn main() -> ExitCode {
    // The GPT's activations live in the stack frames of its sweeps, as in the example; MPI is
    // initialized on this thread.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .expect("spawn the test thread");
    match worker.join() {
        Ok(Ok(0)) => ExitCode::SUCCESS,
        Ok(Ok(_)) => ExitCode::FAILURE,
        Ok(Err(e)) => {
            eprintln!("mpi test: {e}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("mpi test: a check panicked");
            ExitCode::FAILURE
        }
    }
}
