//! The cost model of the data-parallel step over MPI (`--features mpi`): per step, compute ∝ batch
//! / ranks, communication = one allreduce of the parameter count. Measures the allreduce of
//! `runtime::distributed` (`DataParallel::sum_flat_into`) on the ranks it runs on, then
//! calculates, from a stated latency and bandwidth per network, when the allreduce would dominate
//! the step.
//!
//! ```sh
//! # the one-process step time at batch 64, from `cargo run --release --example shakespeare_gpt`
//! mpirun -np 2 --oversubscribe cargo run --release --features mpi --example allreduce_cost -- --step-ms 5.4
//! ```
//!
//! Prints two markdown tables (rank 0): the measured allreduce times, and the calculated step
//! shares. The calculation is a model, not a measurement: a ring allreduce of `n` floats on `P`
//! ranks takes `2 (P - 1) α + 2 (P - 1) / P · 4 n / β` (latency `α`, bandwidth `β`), and the
//! compute of a step scales with parameters × tokens at the rate of the measured GPT step.

use std::error::Error;
use std::time::Instant;

use clap::Parser;
use stackgrad::runtime::distributed::{Cluster, DataParallel};

/// Time the allreduce of the data-parallel step over MPI, and tabulate the cost model.
#[derive(Parser, Debug)]
struct Args {
    /// The one-process GPT step at batch 64 (46 769 parameters, 512 tokens), in milliseconds:
    /// the compute rate of the model.
    #[arg(long, value_name = "MS", value_parser = positive)]
    step_ms: f64,
    /// Allreduces timed per size (after a tenth as many to warm up).
    #[arg(long, default_value_t = 200)]
    reps: usize,
}

/// A finite positive number.
fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{text}`: expected a positive number")),
    }
}

/// The GPT of `examples/shakespeare_gpt`: its parameters and tokens per step.
const GPT_PARAMETERS: usize = 46_769;
const GPT_TOKENS: usize = 64 * 8;

/// Sizes timed, in floats: one (the latency), the GPT, and two larger models.
const SIZES: [usize; 4] = [1, GPT_PARAMETERS, 1_000_000, 10_000_000];

/// The networks of the calculation: name, latency (s), bandwidth (bytes/s).
const NETWORKS: [(&str, f64, f64); 2] = [
    ("10 GbE (25 µs, 1.25 GB/s)", 25e-6, 1.25e9),
    ("100 Gb/s InfiniBand (2 µs, 12.5 GB/s)", 2e-6, 12.5e9),
];

/// Median time of `reps` allreduces of `n` floats, in seconds (the same on every rank's call
/// count; rank 0's times).
fn time_allreduce(cluster: &Cluster, n: usize, reps: usize) -> f64 {
    let mut step = DataParallel::build(cluster, (), |rank| vec![rank as f32; n], |_, _, _| {});
    let mut out = vec![0.0f32; n];
    let mut times = Vec::with_capacity(reps);
    for rep in 0..reps + reps / 10 {
        let start = Instant::now();
        step.sum_flat_into(&mut out, |g| g);
        if rep >= reps / 10 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// A ring allreduce of `n` floats on `ranks` ranks, in seconds.
fn ring(n: usize, ranks: usize, latency: f64, bandwidth: f64) -> f64 {
    let p = ranks as f64;
    2.0 * (p - 1.0) * latency + 2.0 * (p - 1.0) / p * 4.0 * n as f64 / bandwidth
}

fn run(args: &Args) -> Result<(), Box<dyn Error>> {
    let cluster = Cluster::init()?;
    let p = cluster.size();
    let reps = args.reps.max(10);
    let measured: Vec<(usize, f64)> = SIZES
        .iter()
        .map(|&n| {
            (
                n,
                time_allreduce(&cluster, n, (reps * 1000 / n.max(1000)).clamp(10, reps)),
            )
        })
        .collect();
    if !cluster.is_root() {
        return Ok(());
    }
    println!("Measured: allreduce (sum) of n f32 over {p} rank(s), median, rank 0\n");
    println!("| n (floats) | time | bus bandwidth 2(P-1)/P·4n/t |");
    println!("|---|---|---|");
    for &(n, t) in &measured {
        let bus = 2.0 * (p as f64 - 1.0) / p as f64 * 4.0 * n as f64 / t;
        println!("| {n} | {:.1} µs | {:.2} GB/s |", t * 1e6, bus / 1e9);
    }
    // The loopback's latency and bandwidth, fitted from the smallest and the largest size.
    let (small, large) = (measured[0].1, measured[SIZES.len() - 1]);
    let latency = small / (2.0 * (p as f64 - 1.0)).max(1.0);
    let bandwidth = 2.0 * (p as f64 - 1.0) / p as f64 * 4.0 * large.0 as f64
        / (large.1 - small).max(f64::MIN_POSITIVE);
    let per_token = args.step_ms * 1e-3 / (GPT_PARAMETERS * GPT_TOKENS) as f64;
    println!(
        "\nCalculated (a model, not a measurement): the step of a model of n parameters at the \
         GPT's global batch ({GPT_TOKENS} tokens) on P ranks. Compute per rank = n × \
         {GPT_TOKENS} / P × {:.3} ns (the GPT's rate: {} ms per step / ({GPT_PARAMETERS} × \
         {GPT_TOKENS})); allreduce = ring model; share = allreduce / (compute + allreduce). \
         Loopback: {:.1} µs, {:.2} GB/s, fitted to the measurements above.\n",
        per_token * 1e9,
        args.step_ms,
        latency * 1e6,
        bandwidth / 1e9
    );
    let networks: Vec<(String, f64, f64)> = std::iter::once((
        format!("this machine's loopback ({p} ranks)"),
        latency,
        bandwidth,
    ))
    .chain(NETWORKS.iter().map(|&(n, a, b)| (n.to_string(), a, b)))
    .collect();
    print!("| n | P | compute per rank |");
    for (name, _, _) in &networks {
        print!(" {name} |");
    }
    println!();
    println!("|---|---|---|{}", "---|".repeat(networks.len()));
    for n in [GPT_PARAMETERS, 1_000_000, 10_000_000, 100_000_000] {
        for ranks in [2, 8] {
            let compute = n as f64 * GPT_TOKENS as f64 / ranks as f64 * per_token;
            print!("| {n} | {ranks} | {:.2} ms |", compute * 1e3);
            for &(_, a, b) in &networks {
                let t = ring(n, ranks, a, b);
                print!(" {:.2} ms ({:.0} %) |", t * 1e3, 100.0 * t / (t + compute));
            }
            println!();
        }
    }
    // Where the bandwidth term alone equals the compute: tokens per rank below which the
    // allreduce dominates, whatever the model size (both scale with n).
    println!(
        "\nThe allreduce dominates (share > 50 %) below these tokens per rank, any model size:\n"
    );
    println!("| network | P = 2 | P = 8 |");
    println!("|---|---|---|");
    for (name, _, b) in &networks {
        let tokens = |ranks: f64| 8.0 * (ranks - 1.0) / ranks / (b * per_token);
        println!("| {name} | {:.0} | {:.0} |", tokens(2.0), tokens(8.0));
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    run(&Args::parse())
}
