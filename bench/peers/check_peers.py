"""Checks that jax_gpt.py and torch_gpt.py --compile train the same model as torch_gpt.py.

Usage: python check_peers.py [--steps 5] [--batch 64] [--no-compile]

All three start from the same weights (torch_gpt.py's, seeded 1337, copied into JAX's dict) and
take the same batches (torch_gpt.py's sampler and generator). Prints the largest difference of
the first gradient from eager PyTorch's (relative to the tensor's largest entry), the losses of
the first steps side by side, and how far apart the parameters are after them; exits non-zero
if a loss differs from eager PyTorch's by more than --tolerance.
"""

import argparse
import copy
from pathlib import Path

import jax_gpt  # first: it sets XLA's flags before jax is imported
import jax
import jax.numpy as jnp
import numpy as np
import torch
import torch_gpt


def zero_in_exact_arithmetic(name):
    """The key biases: a query's scores all shift by q . b_k, which the softmax ignores, so their
    gradient is 0 and every implementation computes rounding noise for it (which AdamW, dividing
    by its own scale, turns into steps of up to lr)."""
    return name.endswith(".k.bias")


def worst(reference, other):
    """The name and the relative difference of the tensor that differs most: max |a - b| over
    max |a|, tensor by tensor (the key biases left out)."""
    diffs = {name: float(np.abs(reference[name] - other[name]).max()
                         / max(float(np.abs(reference[name]).max()), 1e-30))
             for name in reference if not zero_in_exact_arithmetic(name)}
    name = max(diffs, key=diffs.get)
    return name, diffs[name]


def parameter_difference(reference, other):
    """||a - b|| / ||a|| over every parameter but the key biases, and the largest |a - b| in units
    of the learning rate (the most an AdamW step moves a parameter, weight decay aside)."""
    names = [n for n in reference if not zero_in_exact_arithmetic(n)]
    diff = np.concatenate([(reference[n] - other[n]).ravel() for n in names])
    norm = np.sqrt(sum(float(np.square(reference[n]).sum()) for n in names))
    at = max(names, key=lambda n: float(np.abs(reference[n] - other[n]).max()))
    largest = float(np.abs(diff).max())
    return (f"||difference|| / ||parameters|| {np.linalg.norm(diff) / norm:.1e}, largest "
            f"|difference| {largest:.1e}, {largest / 1e-3:.1e} of lr ({at})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--tolerance", type=float, default=1e-5,
                        help="largest |loss - eager loss| allowed")
    parser.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    root = Path(__file__).resolve().parents[2]
    parser.add_argument("--data", default=root / "data/tinyshakespeare/input.txt")
    args = parser.parse_args()
    torch_gpt.one_thread_seeded()

    train_np, _ = jax_gpt.load_tokens(args.data)
    train = torch.from_numpy(train_np).long()
    generator = torch.Generator().manual_seed(1337)
    batches = [torch_gpt.batch(train, args.batch, generator) for _ in range(args.steps)]

    model = torch_gpt.Gpt()
    initial = {name: w.detach().numpy().copy() for name, w in model.state_dict().items()}
    shapes = jax_gpt.shapes()
    assert list(initial) == list(shapes), "the two models name their parameters differently"
    assert all(initial[n].shape == shapes[n] for n in shapes), "the parameter shapes differ"

    # The first gradient, at the initial weights.
    x, y = batches[0]
    model(x, y).backward()
    grad_torch = {name: w.grad.numpy().copy() for name, w in model.named_parameters()}
    model.zero_grad(set_to_none=True)
    params = {name: jnp.asarray(w) for name, w in initial.items()}
    tokens, targets = (jnp.asarray(a.numpy(), jnp.int32) for a in (x, y))
    grad_jax = jax.grad(jax_gpt.loss_fn)(params, tokens, targets)
    name, diff = worst(grad_torch, {n: np.asarray(g) for n, g in grad_jax.items()})
    print(f"first gradient, JAX against eager PyTorch: largest relative difference {diff:.2e} "
          f"({name})")
    noise = [max(float(np.abs(g[n]).max()) for n in g if zero_in_exact_arithmetic(n))
             for g in (grad_torch, grad_jax)]
    largest = max(float(np.abs(g).max()) for g in grad_torch.values())
    print(f"key biases (gradient 0 in exact arithmetic): largest |gradient| {noise[0]:.1e} "
          f"(PyTorch), {noise[1]:.1e} (JAX), against {largest:.1e} for the largest entry of the "
          f"whole gradient")

    runs = {}
    peers = [("eager", None), ("compile", "default")]
    for label, mode in peers if not args.no_compile else peers[:1]:
        m = copy.deepcopy(model)
        opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
        step = torch_gpt.make_step(m, opt)
        if mode:
            step = torch_gpt.compiled(step, mode)
        losses = [step(x, y).item() for x, y in batches]
        runs[label] = losses, {n: w.detach().numpy().copy() for n, w in m.state_dict().items()}

    state = jax_gpt.init_state(params)
    step = jax.jit(jax_gpt.train_step)
    losses = []
    for x, y in batches:
        state, loss = step(state, *(jnp.asarray(a.numpy(), jnp.int32) for a in (x, y)))
        losses.append(float(loss))
    runs["jax"] = losses, {n: np.asarray(w) for n, w in state["params"].items()}

    labels = list(runs)
    print(f"\nbatch {args.batch}, the same {args.steps} batches:")
    print("step  " + "  ".join(f"{label:>10}" for label in labels)
          + "".join(f"  {'|' + label + ' - eager|':>17}" for label in labels[1:]))
    eager = runs["eager"][0]
    largest = 0.0
    for i in range(args.steps):
        row = [runs[label][0][i] for label in labels]
        deltas = [abs(v - eager[i]) for v in row[1:]]
        largest = max([largest, *deltas])
        print(f"{i + 1:4}  " + "  ".join(f"{v:10.6f}" for v in row)
              + "".join(f"  {d:17.2e}" for d in deltas))
    for label in labels[1:]:
        print(f"parameters after {args.steps} steps, {label} against eager: "
              + parameter_difference(runs["eager"][1], runs[label][1]))
    verdict = "agree" if largest <= args.tolerance else "DISAGREE"
    print(f"\nlosses {verdict}: largest |loss - eager loss| {largest:.2e} "
          f"(tolerance {args.tolerance:.0e})")
    if largest > args.tolerance:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
