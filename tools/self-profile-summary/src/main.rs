//! `self-profile-summary PATH_STEM [ROWS]`: rustc's queries in a `-Z self-profile` file
//! (`PATH_STEM.mm_profdata` without the extension), by self time, with each one's time
//! including what it called and how often it ran (cache misses).

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(stem) = args.next() else {
        eprintln!("usage: self-profile-summary PATH_STEM [ROWS]");
        return ExitCode::FAILURE;
    };
    let rows = match args.next().map(|r| r.parse::<usize>()) {
        None => 30,
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            eprintln!("ROWS must be a count: {e}");
            return ExitCode::FAILURE;
        }
    };
    let data = match analyzeme::ProfilingData::new(Path::new(&stem)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("cannot read the profile {stem}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut results = data.perform_analysis();
    results
        .query_data
        .sort_by(|a, b| b.self_time.cmp(&a.self_time));
    println!("total {:.1} s", results.total_time.as_secs_f64());
    println!("{:>9} {:>9} {:>9}  query", "self s", "total s", "runs");
    for q in results.query_data.iter().take(rows) {
        println!(
            "{:9.2} {:9.2} {:9}  {}",
            q.self_time.as_secs_f64(),
            q.time.as_secs_f64(),
            q.invocation_count,
            q.label
        );
    }
    ExitCode::SUCCESS
}
