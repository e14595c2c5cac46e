//! What the readers promise about inputs, shared by the stable fuzz test (`tests/fuzz_stable.rs`)
//! and the cargo-fuzz targets (`fuzz/fuzz_targets/`), so that the two cannot drift apart.

/// Where the first byte that is not UTF-8 lies in `input`, as a reader reports it: the line
/// (lines end at `\n`, `\r\n` or a lone `\r`, as the csv crate ends them) and the column (in
/// characters), both from 1. `None` if `input` is UTF-8.
pub fn utf8_error_place(input: &[u8]) -> Option<(u64, usize)> {
    let valid = std::str::from_utf8(input).err()?.valid_up_to();
    let text = std::str::from_utf8(&input[..valid]).expect("valid up to here");
    let last = text.rsplit(['\n', '\r']).next().unwrap_or("");
    let breaks = text.matches(['\n', '\r']).count() - text.matches("\r\n").count();
    Some((breaks as u64 + 1, last.chars().count() + 1))
}
