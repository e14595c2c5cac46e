"""Writes bench/peers/results.md from the logs run.sh leaves in target/peers and from criterion's
estimates in target/criterion. Every number in the tables is read from those files."""

import argparse
import json
import platform
import re
import subprocess
from pathlib import Path


def read(path):
    return Path(path).read_text(encoding="utf-8", errors="replace")


def find(pattern, text, what):
    match = re.findall(pattern, text)
    if not match:
        raise SystemExit(f"report.py: no {what} (pattern {pattern!r})")
    return match[-1]


def peak_rss_mib(log):
    return int(find(r"Maximum resident set size \(kbytes\): (\d+)", log, "peak RSS")) / 1024


def criterion_median_ns(group, case):
    path = Path("target/criterion") / group / case / "new/estimates.json"
    return json.loads(read(path))["median"]["point_estimate"]


def compiled_peer(log64, log1):
    """A compiled peer's step medians (ms), peak RSS, final loss and compile times (s)."""
    return {
        "ms64": float(find(r"median_step_ms=([\d.]+)", log64, "step time")),
        "ms1": float(find(r"median_step_ms=([\d.]+)", log1, "batch-1 step time")),
        "rss": peak_rss_mib(log64),
        "val": float(find(r"final_val=([\d.]+)", log64, "final loss")),
        "compile64": float(find(r"compile_s=([\d.]+)", log64, "compile time")),
        "compile1": float(find(r"compile_s=([\d.]+)", log1, "batch-1 compile time")),
    }


def cpu_model():
    for line in read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--logs", type=Path, required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--core", default="0")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    logs = {name: read(args.logs / f"{name}.txt") for name in [
        "ours-gpt", "torch-gpt", "torch-gpt-batch1", "ours-small-graph", "torch-small-graph",
        "torch-import", "load-before", "load-after", "torch-compile-gpt",
        "torch-compile-gpt-batch1", "jax-gpt", "jax-gpt-batch1", "jax-import", "check-peers"]}

    ours64 = criterion_median_ns("gpt", "train_step_64") / 1e6
    ours1 = criterion_median_ns("gpt", "train_step_1") / 1e6
    ours_graph = criterion_median_ns("small_graph", "small_graph_generated")
    torch64 = float(find(r"median_step_ms=([\d.]+)", logs["torch-gpt"], "torch step time"))
    torch1 = float(find(r"median_step_ms=([\d.]+)", logs["torch-gpt-batch1"], "torch step time"))
    torch_graph = float(find(r"median_ns=([\d.]+)", logs["torch-small-graph"], "torch graph time"))
    ours_rss, torch_rss = peak_rss_mib(logs["ours-gpt"]), peak_rss_mib(logs["torch-gpt"])
    ours_val = float(find(r"final validation loss ([\d.]+)", logs["ours-gpt"], "our final loss"))
    torch_val = float(find(r"final_val=([\d.]+)", logs["torch-gpt"], "torch final loss"))
    ours_run_ms = float(find(r"\(([\d.]+) ms/step\)", logs["ours-gpt"], "our ms/step"))
    torch_run_ms = float(find(r"\(([\d.]+) ms/step\)", logs["torch-gpt"], "torch ms/step"))
    ours_params = find(r"gpt: (\d+) parameters", logs["ours-gpt"], "our parameter count")
    torch_params = find(r"gpt: (\d+) parameters", logs["torch-gpt"], "torch parameter count")
    import_rss = peak_rss_mib(logs["torch-import"])
    torch_version = find(r"result: torch (\S+),", logs["torch-gpt"], "torch version")
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    compiled = {name: compiled_peer(logs[f"{name}-gpt"], logs[f"{name}-gpt-batch1"])
                for name in ["torch-compile", "jax"]}
    compile_mode = find(r"compile mode (\S+),", logs["torch-compile-gpt"], "torch.compile mode")
    jax_version = find(r"result: jax (\S+),", logs["jax-gpt"], "jax version")
    jax_import_rss = peak_rss_mib(logs["jax-import"])
    check_steps = find(r"batch 64, the same (\d+) batches", logs["check-peers"], "peer check steps")
    check_loss = find(r"largest \|loss - eager loss\| (\S+)", logs["check-peers"], "peer check")
    check_verdict = find(r"losses (agree|DISAGREE)", logs["check-peers"], "peer check verdict")
    check_grad = find(r"first gradient, JAX against eager PyTorch: largest relative difference "
                      r"(\S+)", logs["check-peers"], "gradient check")

    def met(ok):
        return "**met**" if ok else "**missed**"

    speed64, speed1, graph = torch64 / ours64, torch1 / ours1, torch_graph / ours_graph
    rss_ratio = torch_rss / ours_rss
    rows = [
        ("GPT training step, batch 64 (median)", f"{ours64:.2f} ms", f"{torch64:.2f} ms",
         f"{speed64:.1f}x faster", ">= 5x", met(speed64 >= 5)),
        ("GPT training step, batch 1 (median)", f"{ours1 * 1e3:.0f} µs", f"{torch1 * 1e3:.0f} µs",
         f"{speed1:.1f}x faster", ">= 50x", met(speed1 >= 50)),
        ("peak RSS, whole GPT training process", f"{ours_rss:.1f} MiB", f"{torch_rss:.1f} MiB",
         f"1/{rss_ratio:.0f}", "<= 1/50", met(rss_ratio >= 50)),
        ("final validation loss (every held-out window)", f"{ours_val:.4f}", f"{torch_val:.4f}",
         f"{ours_val - torch_val:+.4f}", "ours <= PyTorch's", met(ours_val <= torch_val)),
        ("small graph, value + gradient (median)", f"{ours_graph:.1f} ns",
         f"{torch_graph / 1e3:.1f} µs", f"{graph:,.0f}x faster", ">= 10,000x", met(graph >= 1e4)),
    ]
    table = ["| | stackgrad | PyTorch (eager) | ratio | target | |", "|---|---|---|---|---|---|"]
    table += ["| " + " | ".join(row) + " |" for row in rows]

    tc, jx = compiled["torch-compile"], compiled["jax"]
    compiled_rows = [
        ("GPT training step, batch 64 (median)", f"{ours64:.2f} ms",
         f"{tc['ms64']:.2f} ms", f"{tc['ms64'] / ours64:.1f}x faster",
         f"{jx['ms64']:.2f} ms", f"{jx['ms64'] / ours64:.1f}x faster"),
        ("GPT training step, batch 1 (median)", f"{ours1 * 1e3:.0f} µs",
         f"{tc['ms1'] * 1e3:.0f} µs", f"{tc['ms1'] / ours1:.1f}x faster",
         f"{jx['ms1'] * 1e3:.0f} µs", f"{jx['ms1'] / ours1:.1f}x faster"),
        ("peak RSS, whole GPT training process", f"{ours_rss:.1f} MiB",
         f"{tc['rss']:.1f} MiB", f"1/{tc['rss'] / ours_rss:.0f}",
         f"{jx['rss']:.1f} MiB", f"1/{jx['rss'] / ours_rss:.0f}"),
        ("final validation loss (every held-out window)", f"{ours_val:.4f}",
         f"{tc['val']:.4f}", f"{ours_val - tc['val']:+.4f}",
         f"{jx['val']:.4f}", f"{ours_val - jx['val']:+.4f}"),
        ("compilation, batch 64 / batch 1 (not in the medians)", "at build time",
         f"{tc['compile64']:.1f} s / {tc['compile1']:.1f} s", "",
         f"{jx['compile64']:.1f} s / {jx['compile1']:.1f} s", ""),
    ]
    compiled_table = ["| | stackgrad | torch.compile | ratio | JAX (jit) | ratio |",
                      "|---|---|---|---|---|---|"]
    compiled_table += ["| " + " | ".join(row) + " |" for row in compiled_rows]

    text = f"""# stackgrad against PyTorch and JAX

Written by `bench/peers/run.sh {args.steps}`; every number below is read from that run's logs
(`target/peers/`) and criterion's estimates (`target/criterion/`). Every side ran one after the
other, each pinned to core {args.core} with `taskset`, PyTorch with `torch.set_num_threads(1)`,
JAX with XLA's multi-threaded Eigen off.

{chr(10).join(table)}

Against compiled peers, in the same run and on the same core: `torch_gpt.py --compile` (the
whole step in `torch.compile`, mode {compile_mode}) and `jax_gpt.py` (the whole step, AdamW
included, in one `jax.jit`). A ratio is the peer's step time over ours, our peak RSS as a
fraction of the peer's, or our loss minus the peer's.

{chr(10).join(compiled_table)}

- **Workloads.** The GPT is the `shakespeare_gpt` example (tiny-shakespeare characters, context 8,
  embedding 24, 6 layers of 6 heads of size 4, pre-LayerNorm, feed-forward 96 with ReLU, batch 64,
  AdamW lr 1e-3, {args.steps} steps) and `bench/peers/torch_gpt.py`, the same model in PyTorch
  ({ours_params} and {torch_params} parameters), the same initialisation and AdamW settings. The
  small graph is micrograd's README expression (`examples/small_graph.rs`,
  `bench/peers/torch_small_graph.py`).
- **Step time.** One step = zero the gradients, forward, backward, optimizer update, with the
  batch already sampled. Ours: criterion's median (`benches/gpt.rs`; 16 pre-sampled batches in
  turn). PyTorch's: the median over the steps of its run ({args.steps} at batch 64, as timed
  inside the training loop; the batch-1 steps in a separate timing-only run). For context, the
  whole training runs took {ours_run_ms:.1f} ms/step (ours) and {torch_run_ms:.1f} ms/step
  (PyTorch) of wall clock, sampling and the evaluations every 100 steps included.
- **Memory.** Peak RSS of the whole training process (`/usr/bin/time -v`, "Maximum resident set
  size"): the `shakespeare_gpt` binary against the Python interpreter running `torch_gpt.py`.
  `python -c 'import torch'` alone peaks at {import_rss:.1f} MiB with this build of PyTorch.
- **Loss.** Each run's validation loss at the end, over every non-overlapping window of
  context 8 of the held-out 10 % (full batches of 64, the same windows in the same order on both
  sides): a deterministic measure, where random batches differ by a few hundredths.
- **Compiled peers.** The same model, initialisation, AdamW and data as the eager peer.
  `torch_gpt.py --compile` wraps the step function (zero the gradients, forward, backward,
  `opt.step()`) in `torch.compile`: Dynamo compiles the forward with its backward (AOTAutograd)
  and AdamW's update as two graphs, Inductor generates C++; it compiles cold (Inductor's caches
  off) during the first step, which is left out of the median and reported as the compilation
  time. `jax_gpt.py` jits forward, backward and AdamW (written out in `jnp`, in PyTorch's order
  of operations) as one function with the state donated, compiles it ahead of the first step
  (reported as the compilation time), and runs on the CPU with XLA's multi-threaded Eigen off;
  its batches come from numpy's generator, so they differ from PyTorch's draws (as ours do).
  `check_peers.py` starts all three peers from the same weights on the same batches: over
  the first {check_steps} steps at batch 64 the losses of torch.compile and JAX differ from eager
  PyTorch's by at most {check_loss} ({check_verdict}), and JAX's first gradient by at most
  {check_grad} of each tensor's largest entry (the key biases aside: their gradient is 0 in exact
  arithmetic, rounding noise on every side). torch.compile's AdamW computes its bias corrections
  in float32 (`std::pow(0.999f, step)` in the generated C++), eager PyTorch's in float64, so its
  parameters move apart from eager's a little faster than JAX's (`target/peers/check-peers.txt`).
  A process that has imported jax and run one operation peaks at {jax_import_rss:.1f} MiB. The
  peak RSS of a torch.compile run is the largest of the Python process and the compiler
  processes it starts, not their sum.
- **Small graph.** Ours: criterion's median of `micrograd_grad` (`benches/small_graph.rs`).
  PyTorch's: the median of 20,000 timed calls, each building the graph from two float64 leaves,
  calling `backward()` and reading the value and both gradients.

Machine: {cpu_model()}; {rustc}; PyTorch {torch_version}; JAX {jax_version}.
Load average before: `{logs["load-before"].strip()}`; after: `{logs["load-after"].strip()}`.
"""
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
