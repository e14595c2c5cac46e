"""Writes bench/peers/results.md from the logs run.sh leaves in target/peers and from criterion's
estimates in target/criterion. Every number in the table is read from those files."""

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
        "torch-import", "load-before", "load-after"]}

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

    text = f"""# stackgrad against PyTorch

Written by `bench/peers/run.sh {args.steps}`; every number below is read from that run's logs
(`target/peers/`) and criterion's estimates (`target/criterion/`). Both sides ran one after the
other, each pinned to core {args.core} with `taskset`, PyTorch with `torch.set_num_threads(1)`.

{chr(10).join(table)}

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
- **Small graph.** Ours: criterion's median of `micrograd_grad` (`benches/small_graph.rs`).
  PyTorch's: the median of 20,000 timed calls, each building the graph from two float64 leaves,
  calling `backward()` and reading the value and both gradients.

Machine: {cpu_model()}; {rustc}; PyTorch {torch_version}.
Load average before: `{logs["load-before"].strip()}`; after: `{logs["load-after"].strip()}`.
"""
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
