#!/usr/bin/env bash
# What a model edit costs to compile, and where the time goes.
#
#   tools/compile_time.sh            rebuild times and peak memory, release and debug, of the GPT
#                                    example, the quickstart and a generated-program batch; the
#                                    size of the generated code; the kernels' copies in the binary
#   tools/compile_time.sh --passes   also rustc's own account of the GPT example's release
#                                    rebuild (`-Z time-passes`, through RUSTC_BOOTSTRAP=1 on the
#                                    stable toolchain: a diagnosis, not a figure to quote)
#   tools/compile_time.sh --profile  also rustc's queries in that rebuild, by self time
#                                    (`-Z self-profile`, summarized by tools/self-profile-summary)
#
# Each rebuild touches the file a user would edit and times `cargo build` (wall clock, and the
# peak resident memory of the largest process, rustc, from `/usr/bin/time`). Dependencies are
# built first and not counted. Run it on a quiet machine; BENCHMARKS.md ("Compile time") keeps
# its output with the CPU named.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
passes=false
profile=false
[ "${1:-}" = "--passes" ] && passes=true
[ "${1:-}" = "--profile" ] && profile=true

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "rustc: $(rustc --version)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"

# One rebuild: touch FILE, then time the cargo command. Prints "NAME  SECONDS s  PEAK MB".
rebuild() {
    local name=$1 file=$2
    shift 2
    touch "$file"
    local log
    log=$(mktemp)
    /usr/bin/time -f '%e %M' -o "$log" "$@" >/dev/null 2>&1
    read -r secs kib <"$log"
    rm -f "$log"
    printf '%-44s %7.1f s  %6d MB peak\n' "$name" "$secs" $((kib / 1024))
}

echo
echo "== dependencies (built once, not counted)"
cargo build --quiet --release --example shakespeare_gpt --example quickstart
cargo build --quiet --example shakespeare_gpt --example quickstart
cargo build --quiet --release -p genprog

# A batch of generated programs, built once by genprog itself (debug, as its test builds it).
batch=target/compile-time-genprog
cargo run --quiet --release -p genprog -- --seed 1 --count 40 --quiet --out "$batch" |
    grep '^genprog: ' || true

echo
echo "== rebuild after touching the file a user edits"
rebuild "GPT example, release (model.rs)" examples/shakespeare_gpt/model.rs \
    cargo build --release --example shakespeare_gpt
rebuild "GPT example, debug (model.rs)" examples/shakespeare_gpt/model.rs \
    cargo build --example shakespeare_gpt
rebuild "quickstart, release" examples/quickstart.rs cargo build --release --example quickstart
rebuild "quickstart, debug" examples/quickstart.rs cargo build --example quickstart
rebuild "genprog batch of 40, debug (one program)" "$batch/src/p000.rs" \
    env CARGO_TARGET_DIR=target/genprog-target cargo build --manifest-path "$batch/Cargo.toml"

echo
echo "== generated code: lines of each expansion (prettyplease), per #[differentiable] function"
EXPANSION_SIZES="$PWD/examples/shakespeare_gpt/model.rs,$PWD/examples/quickstart.rs" \
    cargo test --quiet -p autodiff-macros --lib expansion_sizes -- --nocapture 2>/dev/null |
    grep -E '^ *[0-9]+ lines' || echo "(the macro's expansion_sizes test printed nothing)"

echo
echo "== copies of each function in the GPT example's release binary (nm, generic arguments dropped)"
bin=target/release/examples/shakespeare_gpt
nm -C --defined-only "$bin" | awk '$2 ~ /^[tTwW]$/ { $1 = ""; $2 = ""; print }' |
    grep -E 'autodiff_runtime::nn|shakespeare_gpt::model' |
    sed -E 's/::<[^:]*>//g; s/::h[0-9a-f]{16}$//; s/^ +//' | sort | uniq -c | sort -rn | head -25
echo "text section: $(size -A "$bin" | awk '$1 == ".text" { printf "%d KiB", $2 / 1024 }')"

if $passes; then
    echo
    echo "== rustc's passes, GPT example release rebuild (-Z time-passes; diagnosis only)"
    touch examples/shakespeare_gpt/model.rs
    RUSTC_BOOTSTRAP=1 cargo rustc --release --example shakespeare_gpt -- -Z time-passes 2>&1 |
        grep '^time:' | sort -t: -k2 -rn | head -12
fi

if $profile; then
    echo
    echo "== rustc's queries, GPT example release rebuild (-Z self-profile; diagnosis only)"
    dir=target/self-profile
    rm -rf "$dir" && mkdir -p "$dir"
    touch examples/shakespeare_gpt/model.rs
    RUSTC_BOOTSTRAP=1 cargo rustc --release --example shakespeare_gpt -- -Z self-profile="$PWD/$dir" \
        2>&1 | grep -E '^(error|warning: unused)' || true
    cargo run --quiet --release --manifest-path tools/self-profile-summary/Cargo.toml \
        --target-dir target/self-profile-summary -- "$(ls "$dir"/*.mm_profdata | sed 's/\.mm_profdata$//')" 20
fi
