#!/usr/bin/env bash
# The GPT bench (`benches/gpt.rs`) of two builds in interleaved rounds: old, new, old, new, ...
# so that a drift of the machine shows in both. Prints, per round and side, criterion's median
# of each step and the bench's own medians against the peak; every round is listed.
#
#   git worktree add /tmp/old REV && (cd /tmp/old && CARGO_TARGET_DIR=$PWD/target cargo bench --bench gpt --no-run)
#   cargo bench --bench gpt --no-run
#   tools/ab_gpt.sh OLD_BINARY NEW_BINARY [ROUNDS]
#
# The binaries are the `target/release/deps/gpt-*` files the two `--no-run` builds print; copy
# them aside (both builds name the file alike). Keep the worktree until the rounds are done: the
# old binary reads the bundled data from it. Give the worktree its own target directory, as
# above: in a shared one, cargo took the old commit's runtime for fresh and built the new bench
# against it (the two binaries came out identical).
set -euo pipefail
old=$1
new=$2
rounds=${3:-3}
cd "$(dirname "$0")/.."
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
for round in $(seq 1 "$rounds"); do
    for side in old new; do
        bin=$old
        [ "$side" = new ] && bin=$new
        out=$("$bin" --bench 2>&1)
        criterion=$(echo "$out" | tr '\n' ' ' | grep -oE '(gpt|gpt_threads)/[a-z_0-9]+ +time: +\[[^]]*\]' |
            sed -E 's/ +time: +\[[^ ]+ [^ ]+ ([^ ]+ [^ ]+) [^]]+\]/ \1/' | tr '\n' ';')
        own=$(echo "$out" | grep -E '^train_step_(64|1): median' | sed -E 's/; matrix.*step \/ floor = / floor x/' | tr '\n' ';')
        tape=$(echo "$out" | grep -oE 'with an f32 tape: median of [0-9]+ interleaved rounds [0-9.]+' | grep -oE '[0-9.]+$' || true)
        echo "round $round $side: $criterion $own bf16/f32 $tape"
    done
done
