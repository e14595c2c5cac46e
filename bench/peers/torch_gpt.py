"""The `shakespeare_gpt` example's miniature GPT in eager PyTorch, on one thread.

Usage:
    python torch_gpt.py [--steps 3000] [--batch 64]      # train, evaluate, time every step
    python torch_gpt.py --batch 1 --steps 1000 --time-only
    python torch_gpt.py --compile [MODE]                 # the step under torch.compile

The model is the one in examples/shakespeare_gpt/model.rs: token and position embeddings, 6
pre-LayerNorm blocks (separate q, k, v projections with bias, 6 causal heads of size 4, output
projection, feed-forward 24 -> 96 -> 24 with ReLU), a final LayerNorm and a 65-way head.
Weights and embeddings start from N(0, 0.02), biases at 0, LayerNorm gains at 1. AdamW with
lr 1e-3 and PyTorch's other defaults (betas (0.9, 0.999), eps 1e-8, weight_decay 0.01).

The data is tiny-shakespeare as characters, vocabulary sorted, the first 90 % for training (as the
runtime's CharCorpus.split(0.9)); a batch is B windows of 8 from uniformly random starts.
A step (zero grads, forward, backward, AdamW) is timed with the batch already sampled; the median
step time is reported in the `result:` line, with the validation loss over every non-overlapping window of the held-out text at the end.

With `--compile`, the step (zero grads, forward, backward, AdamW) is one function wrapped in
`torch.compile` (mode "default" unless MODE is given). Dynamo makes two graphs of it: the forward,
compiled together with its backward by AOTAutograd (it breaks the graph at `backward()`, which
runs the compiled backward), and AdamW's update (the optimizer breaks the graph around its step on
purpose); `zero_grad` is one Dynamo does not trace, and runs eagerly. Inductor emits C++ for the
graphs (g++ compiles it).
Compilation happens in the first step, which is trained on but left out of the median; its
time is reported as `compile_s`. Inductor's on-disk caches are off, so every run compiles cold,
and it compiles on the calling thread.
"""

import argparse
import math
import statistics
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

V, T, C, H, D, L, FF = 65, 8, 24, 6, 4, 6, 96


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(C)
        self.q = nn.Linear(C, C)
        self.k = nn.Linear(C, C)
        self.v = nn.Linear(C, C)
        self.o = nn.Linear(C, C)
        self.ln2 = nn.LayerNorm(C)
        self.fc1 = nn.Linear(C, FF)
        self.fc2 = nn.Linear(FF, C)

    def forward(self, x):
        b, t, _ = x.shape
        h = self.ln1(x)

        def heads(y):
            return y.view(b, t, H, D).transpose(1, 2)

        a = F.scaled_dot_product_attention(
            heads(self.q(h)), heads(self.k(h)), heads(self.v(h)), is_causal=True
        )
        x = x + self.o(a.transpose(1, 2).reshape(b, t, C))
        return x + self.fc2(F.relu(self.fc1(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(V, C)
        self.wpe = nn.Embedding(T, C)
        self.blocks = nn.ModuleList(Block() for _ in range(L))
        self.lnf = nn.LayerNorm(C)
        self.head = nn.Linear(C, V)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0.0, 0.02)
            if isinstance(m, nn.Linear):
                nn.init.zeros_(m.bias)

    def forward(self, tokens, targets):
        x = self.wte(tokens) + self.wpe.weight[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.lnf(x))
        return F.cross_entropy(logits.view(-1, V), targets.view(-1))


# Steps of a compiled run that compile: the first traces and compiles the forward-and-backward
# graph and AdamW's (`TORCH_LOGS=recompiles` shows no recompilation after it).
COMPILE_WARMUP = 1


def make_step(model, opt):
    """One training step on a sampled batch: zero the gradients, forward, backward, AdamW."""

    def step(x, y):
        opt.zero_grad(set_to_none=False)
        loss = model(x, y)
        loss.backward()
        opt.step()
        return loss

    return step


def compiled(step, mode):
    """`step` under torch.compile in `mode`, compiled cold (Inductor's on-disk caches off) and on
    one thread (no pool of compile workers)."""
    import torch._inductor.config as inductor_config

    inductor_config.force_disable_caches = True
    inductor_config.compile_threads = 1
    return torch.compile(step, mode=mode)


def one_thread_seeded():
    """One thread for PyTorch's kernels and none for its inter-op pool (run.sh pins the process
    to one core), and the seed every peer's weights come from."""
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    torch.manual_seed(1337)


def batch(tokens, size, generator):
    starts = torch.randint(0, len(tokens) - T, (size,), generator=generator)
    x = torch.stack([tokens[s : s + T] for s in starts])
    y = torch.stack([tokens[s + 1 : s + T + 1] for s in starts])
    return x, y


@torch.no_grad()
def evaluate_all(model, tokens, size):
    """Mean loss over every non-overlapping window of the text (full batches of `size`), in order:
    the same windows and batches as the Rust example's final evaluation."""
    starts = list(range(0, len(tokens) - T, T))
    starts = starts[: len(starts) // size * size]
    total = 0.0
    for b in range(0, len(starts), size):
        chunk = starts[b : b + size]
        x = torch.stack([tokens[s : s + T] for s in chunk])
        y = torch.stack([tokens[s + 1 : s + T + 1] for s in chunk])
        total += model(x, y).item()
    return total / (len(starts) // size)


@torch.no_grad()
def evaluate(model, tokens, batches, size, generator):
    return sum(model(*batch(tokens, size, generator)).item() for _ in range(batches)) / batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--time-only", action="store_true", help="no evaluation")
    parser.add_argument("--compile", nargs="?", const="default", metavar="MODE",
                        help="wrap the step in torch.compile (mode default, or MODE)")
    root = Path(__file__).resolve().parents[2]
    parser.add_argument("--data", default=root / "data/tinyshakespeare/input.txt")
    args = parser.parse_args()
    one_thread_seeded()

    text = Path(args.data).read_text(encoding="utf-8")
    vocab = sorted(set(text))
    assert len(vocab) == V, f"expected {V} characters, found {len(vocab)}"
    index = {ch: i for i, ch in enumerate(vocab)}
    tokens = torch.tensor([index[ch] for ch in text], dtype=torch.long)
    n = int(len(tokens) * 0.9)
    train, val = tokens[:n], tokens[n:]

    model = Gpt()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    generator = torch.Generator().manual_seed(1337)
    params = sum(p.numel() for p in model.parameters())
    print(f"gpt: {params} parameters, {args.steps} steps of batch {args.batch} x context {T}")

    step_fn, warmup = make_step(model, opt), 0
    if args.compile:
        step_fn, warmup = compiled(step_fn, args.compile), COMPILE_WARMUP

    times, window = [], []
    start = time.perf_counter()
    for step in range(1, args.steps + 1):
        x, y = batch(train, args.batch, generator)
        t0 = time.perf_counter_ns()
        loss = step_fn(x, y)
        times.append(time.perf_counter_ns() - t0)
        window.append(loss.item())
        if not args.time_only and (step % 100 == 0 or step == args.steps):
            val_loss = evaluate(model, val, 10, args.batch, generator)
            print(
                f"step {step:5}  train {sum(window) / len(window):.4f}  val {val_loss:.4f}"
                f"  ({(time.perf_counter() - start) * 1e3 / step:.1f} ms/step)",
                flush=True,
            )
            window = []
    median_ms = statistics.median(times[warmup:]) / 1e6
    final = "nan" if args.time_only else f"{evaluate_all(model, val, args.batch):.4f}"
    compile_note = ""
    if args.compile:
        compile_note = f", compile mode {args.compile}, compile_s={sum(times[:warmup]) / 1e9:.2f}"
    print(
        f"result: torch {torch.__version__}, batch {args.batch}, {args.steps} steps in "
        f"{time.perf_counter() - start:.1f} s, median_step_ms={median_ms:.4f}{compile_note}, "
        f"final_val={final}"
    )
    if math.isnan(loss.item()):
        raise SystemExit("the loss is NaN")


if __name__ == "__main__":
    main()
