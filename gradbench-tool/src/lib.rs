//! The evals of stackgrad's GradBench tool (`evals`) and its side of GradBench's protocol
//! (`protocol`); the binary (`main.rs`) reads the messages on stdin. A library so that the
//! benches (`benches/`) run the same functions, with what they share (`bench`).

pub mod adbench;
pub mod bench;
pub mod evals;
pub mod protocol;

/// The CPU's model name from `/proc/cpuinfo` (for the benches' reports), or "unknown CPU".
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
