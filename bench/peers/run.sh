#!/usr/bin/env bash
# Runs stackgrad, PyTorch (eager and torch.compile) and JAX (jax.jit) on the same workloads, one
# after the other on one pinned core, and writes bench/peers/results.md. Never part of CI.
#
#   bench/peers/run.sh [STEPS]        # GPT training steps for every side (default 3000)
#
# Environment: TORCH_PYTHON, a Python with torch, numpy and jax already installed (else a venv is
# made in target/peers-venv with them from PyPI); CORE, the core to pin (default 0); BATCH1_STEPS,
# steps timed at batch 1 (default 1000). torch.compile needs a C++ compiler (g++) on the PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."

STEPS=${1:-3000}
CORE=${CORE:-0}
BATCH1_STEPS=${BATCH1_STEPS:-1000}
LOGS=target/peers
mkdir -p "$LOGS"

if [ -n "${TORCH_PYTHON:-}" ]; then
    PY=$TORCH_PYTHON
else
    PY=target/peers-venv/bin/python
    if ! "$PY" -c 'import torch, numpy, jax' 2>/dev/null; then
        python3 -m venv target/peers-venv
        "$PY" -m pip install --quiet --upgrade pip
        # PyPI's default wheel (on Linux x86-64 it is built with CUDA and loads more libraries;
        # results.md gives the version and the RSS of `import torch` alone).
        "$PY" -m pip install --quiet torch
        "$PY" -m pip install --quiet numpy
        # jax from PyPI brings jaxlib's CPU build.
        "$PY" -m pip install --quiet jax
    fi
fi

if [ ! -x /usr/bin/time ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y time
    else
        echo "run.sh needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
        exit 1
    fi
fi

pin() { taskset -c "$CORE" "$@"; }
measure() { # measure LOG COMMAND...: peak RSS and everything printed go to LOG
    local log=$1
    shift
    echo "+ $*" >&2
    pin /usr/bin/time -v "$@" >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
}

echo "building" >&2
cargo build --release --example shakespeare_gpt --example small_graph
cargo bench --no-run --bench gpt --bench small_graph

uptime >"$LOGS/load-before.txt"
echo "criterion: gpt and small_graph" >&2
pin cargo bench --bench gpt >"$LOGS/bench-gpt.txt" 2>&1
pin cargo bench --bench small_graph >"$LOGS/bench-small-graph.txt" 2>&1

measure "$LOGS/ours-gpt.txt" target/release/examples/shakespeare_gpt "$STEPS"
measure "$LOGS/torch-gpt.txt" "$PY" bench/peers/torch_gpt.py --steps "$STEPS"
measure "$LOGS/torch-gpt-batch1.txt" "$PY" bench/peers/torch_gpt.py --batch 1 \
    --steps "$BATCH1_STEPS" --time-only
measure "$LOGS/torch-import.txt" "$PY" -c 'import torch'
measure "$LOGS/torch-compile-gpt.txt" "$PY" bench/peers/torch_gpt.py --compile --steps "$STEPS"
measure "$LOGS/torch-compile-gpt-batch1.txt" "$PY" bench/peers/torch_gpt.py --compile --batch 1 \
    --steps "$BATCH1_STEPS" --time-only
measure "$LOGS/jax-gpt.txt" "$PY" bench/peers/jax_gpt.py --steps "$STEPS"
measure "$LOGS/jax-gpt-batch1.txt" "$PY" bench/peers/jax_gpt.py --batch 1 \
    --steps "$BATCH1_STEPS" --time-only
measure "$LOGS/jax-import.txt" "$PY" -c 'import jax.numpy as jnp; jnp.zeros(1).block_until_ready()'
# The same first steps from the same weights and batches: the peers train the same model.
measure "$LOGS/check-peers.txt" "$PY" bench/peers/check_peers.py --steps 5
measure "$LOGS/ours-small-graph.txt" target/release/examples/small_graph
measure "$LOGS/torch-small-graph.txt" "$PY" bench/peers/torch_small_graph.py
uptime >"$LOGS/load-after.txt"

python3 bench/peers/report.py --logs "$LOGS" --steps "$STEPS" --core "$CORE" \
    --out bench/peers/results.md
echo "wrote bench/peers/results.md" >&2
