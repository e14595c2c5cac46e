#!/usr/bin/env bash
# Prepares a GradBench checkout for `run_eval.py`: its Python packages (numpy, scipy, pydantic,
# dataclasses-json, from PyPI) and its C++ `manual` tool, the evals' golden implementation.
# GradBench's Makefile downloads nlohmann's json.hpp from GitHub; Debian's nlohmann-json3-dev
# package provides the same header where GitHub is out of reach.
#
#   gradbench-tool/scripts/setup.sh GRADBENCH_DIR EVAL..
set -euo pipefail
dir=$1
shift
pip3 install --quiet numpy scipy pydantic dataclasses-json
if [ ! -f "$dir/cpp/json.hpp" ]; then
    if [ ! -f /usr/include/nlohmann/json.hpp ]; then
        sudo=()
        [ "$(id -u)" -ne 0 ] && sudo=(sudo)
        "${sudo[@]}" apt-get install -y -q nlohmann-json3-dev
    fi
    cp /usr/include/nlohmann/json.hpp "$dir/cpp/json.hpp"
fi
for eval in "$@"; do
    make -C "$dir/tools/manual" NATIVE=no "bin/$eval"
done
# `ba` reads ADBench's inputs from its data folder, which the snapshot lacks: link ours.
for eval in "$@"; do
    if [ "$eval" = ba ] && [ ! -e "$dir/evals/ba/data" ]; then
        mkdir -p "$dir/evals/ba"
        ln -s "$(cd "$(dirname "$0")/../../data/adbench/ba" && pwd)" "$dir/evals/ba/data"
    fi
done
# `lstm` reads its text from a file the snapshot lacks (any text serves: the eval validates
# against `manual` on the same input): link tiny shakespeare, which the GPT example uses.
for eval in "$@"; do
    if [ "$eval" = lstm ] && [ ! -e "$dir/evals/lstm/data/lstm_full.txt" ]; then
        mkdir -p "$dir/evals/lstm/data"
        ln -s "$(cd "$(dirname "$0")/../../data/tinyshakespeare" && pwd)/input.txt" \
            "$dir/evals/lstm/data/lstm_full.txt"
    fi
done
