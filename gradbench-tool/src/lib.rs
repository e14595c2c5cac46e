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

/// The bytes of the level-2 cache of CPU 0 as Linux reports it (`/sys/devices/system/cpu/cpu0/
/// cache/index*/`: the data or unified cache of level 2; sizes such as `512K` or `2048K`), or
/// `None` where it does not (another system, a file not read, a size of 0). Every core of the
/// machines we measure on has the same; a hybrid CPU's may differ. Read once per call: callers
/// that need it often keep it.
pub fn l2_cache_bytes() -> Option<usize> {
    let dir = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    let read = |index: &std::path::Path, name: &str| {
        std::fs::read_to_string(index.join(name))
            .ok()
            .map(|s| s.trim().to_string())
    };
    (0..16).find_map(|i| {
        let index = dir.join(format!("index{i}"));
        let level = read(&index, "level")?;
        let kind = read(&index, "type")?;
        if level != "2" || kind == "Instruction" {
            return None;
        }
        cache_size(&read(&index, "size")?).filter(|&bytes| bytes > 0)
    })
}

/// A cache size as Linux writes it: bytes, or a number of `K`, `M` or `G`.
fn cache_size(s: &str) -> Option<usize> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => s.split_at(at),
        None => (s, ""),
    };
    let scale = match unit {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return None,
    };
    digits.parse::<usize>().ok()?.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    /// Linux's spellings of a cache's size; anything else is no size.
    #[test]
    fn cache_sizes_as_linux_writes_them() {
        assert_eq!(super::cache_size("512K"), Some(512 << 10));
        assert_eq!(super::cache_size("2048K"), Some(2 << 20));
        assert_eq!(super::cache_size("1M"), Some(1 << 20));
        assert_eq!(super::cache_size("32768"), Some(32768));
        assert_eq!(super::cache_size("12 K"), None);
        assert_eq!(super::cache_size("K"), None);
        assert_eq!(super::cache_size(""), None);
    }
}
