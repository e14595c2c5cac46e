"""The micrograd README expression in eager PyTorch: value and gradient per call, one thread.

Usage: python torch_small_graph.py [--calls N]

Each call builds the graph from two float64 leaves with requires_grad, runs backward, and reads
both gradients; the median over N timed calls (after a warm-up) is reported in a `result:` line.
"""

import argparse
import statistics
import time

import torch


def micrograd(a, b):
    c = a + b
    d = a * b + b**3
    c = c + (c + 1.0)
    c = c + (1.0 + c + (-a))
    d = d + (d * 2.0 + (b + a).relu())
    d = d + (3.0 * d + (b - a).relu())
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    return g


def value_and_grad(a, b):
    a.grad = None
    b.grad = None
    g = micrograd(a, b)
    g.backward()
    return g.item(), a.grad.item(), b.grad.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)

    a = torch.tensor(-4.0, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    g, d_a, d_b = value_and_grad(a, b)
    print(f"g     = {g:.4f}\ndg/da = {d_a:.4f}\ndg/db = {d_b:.4f}")
    assert abs(g - 24.7041) < 1e-4 and abs(d_a - 138.8338) < 1e-4 and abs(d_b - 645.5773) < 1e-4

    for _ in range(args.calls // 10):
        value_and_grad(a, b)
    times = []
    for _ in range(args.calls):
        start = time.perf_counter_ns()
        value_and_grad(a, b)
        times.append(time.perf_counter_ns() - start)
    median = statistics.median(times)
    print(f"result: torch {torch.__version__}, median_ns={median:.0f} over {args.calls} calls")


if __name__ == "__main__":
    main()
