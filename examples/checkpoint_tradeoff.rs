//! The checkpointing trade-off: tape bytes against gradient time for a 1000-step RNN, from a full
//! tape to `#[checkpoint(snapshots = S)]` with S = 1 ... 1000.
//!
//! ```sh
//! cargo run --release --example checkpoint_tradeoff                # prints the table
//! cargo run --release --example checkpoint_tradeoff -- docs/       # and writes docs/checkpoint_tradeoff.svg
//! cargo run --release --example checkpoint_tradeoff -- --out docs/ # the same
//! ```
//!
//! Times are medians over repeated gradients on this machine; the tape sizes are exact.

#![allow(clippy::needless_range_loop)]

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use stackgrad::differentiable;

/// Tape bytes against gradient time for a 1000-step RNN, full tape to one snapshot.
#[derive(Parser, Debug)]
struct Args {
    /// Also write the plot, DIR/checkpoint_tradeoff.svg (the same as --out).
    #[arg(value_name = "DIR", conflicts_with = "out")]
    dir: Option<PathBuf>,
    /// Also write the plot, DIR/checkpoint_tradeoff.svg.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[macro_use]
#[path = "../tests/models/rnn1000.rs"]
mod rnn1000;

use rnn1000::STEPS;

rnn1000!(
    /// The RNN with a full tape.
    rnn_full
);

/// The same RNN checkpointed with `$s` snapshots, as `$name`.
macro_rules! checkpointed {
    ($($name:ident $s:literal),*) => {$(
        rnn1000!($name, #[checkpoint(snapshots = $s)]);
    )*};
}

checkpointed!(s1 1, s2 2, s5 5, s10 10, s20 20, s50 50, s100 100, s200 200, s500 500, s1000 1000);

type Grad =
    fn(&[f64; STEPS], &[[f64; 4]; 4], &[f64; 4]) -> (f64, ([f64; STEPS], [[f64; 4]; 4], [f64; 4]));

/// Median seconds per call of `f` over `reps` calls, after a warm-up.
fn median_time(f: Grad, x: &[f64; STEPS], w: &[[f64; 4]; 4], u: &[f64; 4], reps: usize) -> f64 {
    let mut times = Vec::with_capacity(reps);
    for i in 0..reps + 5 {
        let start = Instant::now();
        std::hint::black_box(f(std::hint::black_box(x), w, u));
        if i >= 5 {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    times[reps / 2]
}

/// A log-log scatter plot of (bytes, microseconds), as SVG.
fn svg(points: &[(String, usize, f64)]) -> String {
    let (w, h, pad) = (640.0, 400.0, 60.0);
    let lx = |b: usize| (b as f64).log10();
    let ly = |t: f64| t.log10();
    let (x0, x1) = (
        points.iter().map(|p| lx(p.1)).fold(f64::MAX, f64::min),
        points.iter().map(|p| lx(p.1)).fold(f64::MIN, f64::max),
    );
    let (y0, y1) = (
        points.iter().map(|p| ly(p.2)).fold(f64::MAX, f64::min),
        points.iter().map(|p| ly(p.2)).fold(f64::MIN, f64::max),
    );
    let sx = |b: usize| pad + (lx(b) - x0) / (x1 - x0).max(1e-9) * (w - 2.0 * pad);
    let sy = |t: f64| h - pad - (ly(t) - y0) / (y1 - y0).max(1e-9) * (h - 2.0 * pad);
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">
<rect width="{w}" height="{h}" fill="white"/>
<text x="{}" y="20" text-anchor="middle" font-size="14">1000-step RNN: tape size against gradient time</text>
<line x1="{pad}" y1="{}" x2="{}" y2="{}" stroke="black"/><line x1="{pad}" y1="{pad}" x2="{pad}" y2="{}" stroke="black"/>
<text x="{}" y="{}" text-anchor="middle">tape bytes (log scale)</text>
<text x="15" y="{}" transform="rotate(-90 15 {})" text-anchor="middle">µs per gradient (log scale)</text>
"#,
        w / 2.0,
        h - pad,
        w - pad,
        h - pad,
        h - pad,
        w / 2.0,
        h - 15.0,
        h / 2.0,
        h / 2.0
    );
    let path: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", sx(p.1), sy(p.2)))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{}" fill="none" stroke="steelblue"/>"#,
        path.join(" ")
    );
    for (label, bytes, t) in points {
        let (x, y) = (sx(*bytes), sy(*t));
        let _ = writeln!(
            out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="steelblue"/><text x="{:.1}" y="{:.1}">{label}: {} B, {:.0} µs</text>"#,
            x + 5.0,
            y - 5.0,
            bytes,
            t
        );
    }
    out.push_str("</svg>\n");
    out
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let mut x = Box::new([0.0; STEPS]);
    for (t, v) in x.iter_mut().enumerate() {
        *v = (t as f64 * 0.37).sin();
    }
    let w = [
        [0.3, -0.2, 0.1, 0.4],
        [0.2, 0.1, -0.5, 0.3],
        [-0.4, 0.3, 0.2, 0.1],
        [0.1, -0.1, 0.3, -0.2],
    ];
    let u = [0.5, -0.4, 0.3, 0.2];
    let cases: [(&str, Grad, usize); 11] = [
        ("full tape", rnn_full_grad, RnnFullTape::BYTES),
        ("S=1000", s1000_grad, S1000Tape::BYTES),
        ("S=500", s500_grad, S500Tape::BYTES),
        ("S=200", s200_grad, S200Tape::BYTES),
        ("S=100", s100_grad, S100Tape::BYTES),
        ("S=50", s50_grad, S50Tape::BYTES),
        ("S=20", s20_grad, S20Tape::BYTES),
        ("S=10", s10_grad, S10Tape::BYTES),
        ("S=5", s5_grad, S5Tape::BYTES),
        ("S=2", s2_grad, S2Tape::BYTES),
        ("S=1", s1_grad, S1Tape::BYTES),
    ];
    let reference = rnn_full_grad(&x, &w, &u);
    let primal = {
        let mut times: Vec<f64> = (0..200)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(rnn_full(std::hint::black_box(&x), &w, &u));
                start.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[100]
    };
    println!(
        "{:<10} {:>10} {:>12} {:>14}",
        "tape", "bytes", "µs/gradient", "x full tape"
    );
    let mut points = Vec::new();
    let mut full_time = 0.0;
    for (label, grad, bytes) in cases {
        assert_eq!(grad(&x, &w, &u), reference, "{label} changed the gradient");
        let t = median_time(grad, &x, &w, &u, 200);
        if full_time == 0.0 {
            full_time = t;
        }
        println!(
            "{label:<10} {bytes:>10} {:>12.1} {:>14.2}",
            t * 1e6,
            t / full_time
        );
        points.push((label.to_string(), bytes, t * 1e6));
    }
    println!("primal alone: {:.1} µs", primal * 1e6);
    if let Some(dir) = args.dir.or(args.out) {
        std::fs::create_dir_all(&dir)?;
        let path = dir.join("checkpoint_tradeoff.svg");
        std::fs::write(&path, svg(&points))?;
        println!("wrote {}", path.display());
    }
    println!("result: every checkpointed gradient equals the full tape's, bit for bit");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let parse = |a: &[&str]| Args::try_parse_from(["checkpoint_tradeoff"].iter().chain(a));
        let args = parse(&[]).unwrap();
        assert!(args.dir.is_none() && args.out.is_none());
        assert_eq!(parse(&["docs"]).unwrap().dir, Some(PathBuf::from("docs")));
        assert_eq!(
            parse(&["--out", "d"]).unwrap().out,
            Some(PathBuf::from("d"))
        );
        assert!(parse(&["a", "--out", "b"]).is_err());
        assert_eq!(parse(&["--help"]).unwrap_err().exit_code(), 0);
    }
}
