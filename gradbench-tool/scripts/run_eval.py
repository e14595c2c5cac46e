#!/usr/bin/env python3
"""Runs one of GradBench's evals against stackgrad's tool, in place of GradBench's intermediary.

    python3 gradbench-tool/scripts/run_eval.py GRADBENCH_DIR EVAL [--manual | --native] [EVAL ARGS..]

GRADBENCH_DIR is a checkout of github.com/gradbench/gradbench whose `manual` tool is built (see
`setup.sh` beside this file): the evals validate every output against it. The eval
(`python/gradbench/gradbench/evals/EVAL/run.py`) and the tool (`target/release/stackgrad-gradbench`,
built first) exchange JSON lines through this script, which prints, for every `evaluate`, the
function, the input's description, GradBench's verdict and the median `evaluate` timing, and
exits with 1 if any output was found invalid, or if the eval stopped before validating any.
With `--manual`, the tool is GradBench's C++ `manual` tool instead (through GradBench's own
`python -m gradbench.cpp manual`, which builds it on `define`): its timings on the same inputs.
With `--native`, stackgrad's tool is built for this machine's CPU (`RUSTFLAGS="-C
target-cpu=native"`, in `target/native`), as GradBench builds its C++ tools when it compiles them
right before running them (`cpp/common.mk`'s `NATIVE=yes`, which `--manual` gets too); without
it, the tool is the plain x86-64 build every other figure of ours uses.
"""

import json
import os
import statistics
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    gradbench, name, eval_args = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    flags = set()
    while eval_args[:1] in (["--manual"], ["--native"]):
        flags.add(eval_args.pop(0))
    if flags == {"--manual", "--native"}:
        print("--manual runs GradBench's C++ tool, --native builds ours: one or the other",
              file=sys.stderr)
        return 2
    manual, native = "--manual" in flags, "--native" in flags
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.path.join(gradbench, "python", "gradbench"))
    if manual:
        command, cwd = [sys.executable, "-m", "gradbench.cpp", "manual"], gradbench
    else:
        build_env, target = dict(os.environ), os.path.join(repo, "target")
        if native:
            target = os.path.join(target, "native")
            rustflags = (build_env.get("RUSTFLAGS", "") + " -C target-cpu=native").strip()
            build_env.update(RUSTFLAGS=rustflags, CARGO_TARGET_DIR=target)
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "-p", "stackgrad-gradbench"],
            cwd=repo,
            env=build_env,
            check=True,
        )
        command, cwd = [os.path.join(target, "release", "stackgrad-gradbench")], repo
    tool = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    evaluation = subprocess.Popen(
        [sys.executable, f"python/gradbench/gradbench/evals/{name}/run.py", *eval_args],
        cwd=gradbench,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    pending = {}
    invalid = 0
    validated = 0
    print(f"{'function':<10} {'input':<22} {'valid':<6} {'runs':>5} {'median evaluate':>16}")
    for line in evaluation.stdout:
        message = json.loads(line)
        tool.stdin.write(line)
        tool.stdin.flush()
        reply = tool.stdout.readline()
        response = json.loads(reply)
        evaluation.stdin.write(reply)
        evaluation.stdin.flush()
        kind = message.get("kind")
        if kind == "define" and not response.get("success"):
            print(f"define {message.get('module')}: {response.get('error')}")
        if kind == "evaluate":
            times = [t["nanoseconds"] for t in response.get("timings", []) if t["name"] == "evaluate"]
            pending[message["id"]] = (message, response, times)
        if kind == "analysis":
            message_of, response_of, times = pending.pop(message["of"])
            valid = message.get("valid")
            invalid += not valid
            validated += 1
            median = f"{statistics.median(times) / 1e6:.4f} ms" if times else "-"
            print(
                f"{message_of['function']:<10} {message_of.get('description', ''):<22} "
                f"{str(valid):<6} {len(times):>5} {median:>16}"
            )
            if not valid:
                print(f"    {message.get('error', '')[:2000]}")
    status = evaluation.wait()
    tool.stdin.close()
    tool.wait()
    if status != 0 or validated == 0:
        print(f"{name}: the eval stopped (exit status {status}) after {validated} validated outputs")
        return 1
    print(f"{name}: {'all outputs valid' if invalid == 0 else f'{invalid} invalid outputs'}")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
