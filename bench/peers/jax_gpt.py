"""The `shakespeare_gpt` example's miniature GPT in JAX: the whole training step under one jax.jit.

Usage:
    python jax_gpt.py [--steps 3000] [--batch 64]      # train, evaluate, time every step
    python jax_gpt.py --batch 1 --steps 1000 --time-only

The model, data and optimizer are those of torch_gpt.py (and of examples/shakespeare_gpt):
token and position embeddings, 6 pre-LayerNorm blocks (q, k, v projections with bias, 6 causal
heads of size 4, output projection, feed-forward 24 -> 96 -> 24 with ReLU), a final LayerNorm
(eps 1e-5) and a 65-way head; attention is `jax.nn.dot_product_attention`, as torch_gpt.py's is
`F.scaled_dot_product_attention` (scale 1/sqrt(4)); weights and embeddings from N(0, 0.02), biases 0, LayerNorm gains 1;
AdamW with lr 1e-3, betas (0.9, 0.999), eps 1e-8 and weight decay 0.01 on every parameter, at a
constant learning rate. The parameters are a dict keyed by the names of torch_gpt.py's
`state_dict()`, so check_peers.py can start both from the same numbers.

AdamW is written out below rather than taken from optax: optax.adamw computes the same update, but
bias-corrects m and v separately before dividing, where PyTorch and stackgrad fold the corrections
into a step size and a divisor; writing it out keeps their order of operations and needs no other
package.

One jitted function does the whole step: forward, backward, AdamW (its step count and bias
corrections included), returning the new state and the loss. It is compiled ahead of time, before
the first step, and the compilation time is printed on its own (`compile_s`); every step is
timed, batch already sampled and on the device, until its outputs are ready. Runs on the CPU on one
thread: XLA's multi-threaded Eigen is off, and run.sh pins the process to one core.
"""

import os

# Before jax is imported. `--xla_cpu_multi_thread_eigen=false` keeps XLA's matrix products on the
# calling thread; any other threads of XLA's are held to the one core run.sh pins. (TensorFlow's
# `intra_op_parallelism_threads` is no XLA flag: XLA aborts on `--intra_op_parallelism_threads`.)
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["XLA_FLAGS"] = " ".join(
    [os.environ.get("XLA_FLAGS", ""), "--xla_cpu_multi_thread_eigen=false"]
).strip()

import argparse  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

V, T, C, H, D, L, FF = 65, 8, 24, 6, 4, 6, 96
LR, BETA1, BETA2, EPS, WEIGHT_DECAY = 1e-3, 0.9, 0.999, 1e-8, 0.01


def shapes():
    """Every parameter's name (as in torch_gpt.py's state_dict) and shape, in its order."""
    out = {"wte.weight": (V, C), "wpe.weight": (T, C)}
    for l in range(L):
        b = f"blocks.{l}."
        out |= {b + "ln1.weight": (C,), b + "ln1.bias": (C,)}
        for name in "qkvo":
            out |= {b + f"{name}.weight": (C, C), b + f"{name}.bias": (C,)}
        out |= {b + "ln2.weight": (C,), b + "ln2.bias": (C,)}
        out |= {b + "fc1.weight": (FF, C), b + "fc1.bias": (FF,)}
        out |= {b + "fc2.weight": (C, FF), b + "fc2.bias": (C,)}
    out |= {"lnf.weight": (C,), "lnf.bias": (C,), "head.weight": (V, C), "head.bias": (V,)}
    return out


def init_params(rng):
    """GPT-2's initialisation, as torch_gpt.py's: N(0, 0.02) weights and embeddings, zero biases,
    LayerNorm gains 1 (drawn from numpy's generator, so the numbers differ from torch's)."""
    params = {}
    for name, shape in shapes().items():
        layer_norm = name.startswith("lnf.") or ".ln" in name
        if name.endswith(".bias"):
            value = np.zeros(shape, np.float32)
        elif layer_norm:
            value = np.ones(shape, np.float32)
        else:
            value = rng.normal(0.0, 0.02, shape).astype(np.float32)
        params[name] = jnp.asarray(value)
    return params


def layer_norm(x, g, b):
    mean = x.mean(-1, keepdims=True)
    var = jnp.square(x - mean).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * g + b


def linear(p, name, x):
    # x: (..., in); weight: (out, in), as nn.Linear's.
    return x @ p[name + ".weight"].T + p[name + ".bias"]


def loss_fn(p, tokens, targets):
    """Mean cross-entropy of predicting `targets` (B, T) from `tokens` (B, T)."""
    b, t = tokens.shape
    x = p["wte.weight"][tokens] + p["wpe.weight"][:t]

    def heads(y):  # (B, T, C) -> (B, T, H, D), the layout dot_product_attention takes
        return y.reshape(b, t, H, D)

    for l in range(L):
        k = f"blocks.{l}."
        h = layer_norm(x, p[k + "ln1.weight"], p[k + "ln1.bias"])
        q, kk, v = (heads(linear(p, k + n, h)) for n in "qkv")
        a = jax.nn.dot_product_attention(q, kk, v, is_causal=True).reshape(b, t, C)
        x = x + linear(p, k + "o", a)
        h2 = layer_norm(x, p[k + "ln2.weight"], p[k + "ln2.bias"])
        x = x + linear(p, k + "fc2", jax.nn.relu(linear(p, k + "fc1", h2)))
    logits = linear(p, "head", layer_norm(x, p["lnf.weight"], p["lnf.bias"]))
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


def one_minus_pow(log_beta, t):
    """1 - beta^t in float32 to an ulp or two (PyTorch and stackgrad compute it in float64); 1 minus
    0.999^t rounded to float32 would be off by 1.3e-5 of itself at t = 1."""
    return -jnp.expm1(t * jnp.float32(log_beta))


def adamw(p, g, m, v, t):
    """One AdamW update of every parameter (torch.optim.AdamW's, and stackgrad's, order)."""
    correction1 = one_minus_pow(math.log(BETA1), t)
    correction2_sqrt = jnp.sqrt(one_minus_pow(math.log(BETA2), t))
    step_size = LR / correction1

    def update(p, g, m, v):
        p = p * (1.0 - LR * WEIGHT_DECAY)
        m = m + (1.0 - BETA1) * (g - m)
        v = BETA2 * v + (1.0 - BETA2) * g * g
        p = p - step_size * m / (jnp.sqrt(v) / correction2_sqrt + EPS)
        return p, m, v

    new = {name: update(p[name], g[name], m[name], v[name]) for name in p}
    return ({n: u[0] for n, u in new.items()}, {n: u[1] for n, u in new.items()},
            {n: u[2] for n, u in new.items()})


def init_state(params):
    def zeros():
        return {name: jnp.zeros_like(w) for name, w in params.items()}

    return {"params": params, "m": zeros(), "v": zeros(), "t": jnp.zeros((), jnp.int32)}


def train_step(state, tokens, targets):
    """Forward, backward and AdamW: the new state and the loss."""
    loss, grads = jax.value_and_grad(loss_fn)(state["params"], tokens, targets)
    t = state["t"] + 1
    params, m, v = adamw(state["params"], grads, state["m"], state["v"], t.astype(jnp.float32))
    return {"params": params, "m": m, "v": v, "t": t}, loss


def compile_step(state, size):
    """`train_step` jitted and compiled for batches of `size`; the state buffers are donated, so
    the update is in place. Returns the compiled function and the seconds compiling took."""
    example = jax.ShapeDtypeStruct((size, T), jnp.int32)
    start = time.perf_counter()
    compiled = jax.jit(train_step, donate_argnums=0).lower(state, example, example).compile()
    return compiled, time.perf_counter() - start


def batch(tokens, size, rng):
    starts = rng.integers(0, len(tokens) - T, size)
    rows = starts[:, None] + np.arange(T)
    return jnp.asarray(tokens[rows]), jnp.asarray(tokens[rows + 1])


def evaluate_all(loss, params, tokens, size):
    """Mean loss over every non-overlapping window of the text (full batches of `size`), in order:
    the same windows and batches as torch_gpt.py's and the Rust example's."""
    starts = np.arange(0, len(tokens) - T, T)
    starts = starts[: len(starts) // size * size]
    total = 0.0
    for b in range(0, len(starts), size):
        rows = starts[b : b + size, None] + np.arange(T)
        total += float(loss(params, jnp.asarray(tokens[rows]), jnp.asarray(tokens[rows + 1])))
    return total / (len(starts) // size)


def load_tokens(path):
    text = Path(path).read_text(encoding="utf-8")
    vocab = sorted(set(text))
    assert len(vocab) == V, f"expected {V} characters, found {len(vocab)}"
    index = {ch: i for i, ch in enumerate(vocab)}
    tokens = np.array([index[ch] for ch in text], dtype=np.int32)
    n = int(len(tokens) * 0.9)
    return tokens[:n], tokens[n:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--time-only", action="store_true", help="no evaluation")
    root = Path(__file__).resolve().parents[2]
    parser.add_argument("--data", default=root / "data/tinyshakespeare/input.txt")
    args = parser.parse_args()

    train, val = load_tokens(args.data)
    rng = np.random.default_rng(1337)
    state = init_state(init_params(rng))
    params = sum(w.size for w in state["params"].values())
    print(f"gpt: {params} parameters, {args.steps} steps of batch {args.batch} x context {T}")
    step, compile_s = compile_step(state, args.batch)
    loss_of = jax.jit(loss_fn)
    print(f"compiled the training step in {compile_s:.2f} s", flush=True)

    times, window = [], []
    start = time.perf_counter()
    for i in range(1, args.steps + 1):
        x, y = batch(train, args.batch, rng)
        t0 = time.perf_counter_ns()
        state, loss = step(state, x, y)
        jax.block_until_ready((state, loss))
        times.append(time.perf_counter_ns() - t0)
        window.append(float(loss))
        if not args.time_only and (i % 100 == 0 or i == args.steps):
            val_loss = sum(float(loss_of(state["params"], *batch(val, args.batch, rng)))
                           for _ in range(10)) / 10
            print(
                f"step {i:5}  train {sum(window) / len(window):.4f}  val {val_loss:.4f}"
                f"  ({(time.perf_counter() - start) * 1e3 / i:.1f} ms/step)",
                flush=True,
            )
            window = []
    median_ms = statistics.median(times) / 1e6
    final = "nan"
    if not args.time_only:
        final = f"{evaluate_all(loss_of, state['params'], val, args.batch):.4f}"
    print(
        f"result: jax {jax.__version__}, jit, batch {args.batch}, {args.steps} steps in "
        f"{time.perf_counter() - start:.1f} s, median_step_ms={median_ms:.4f}, "
        f"compile_s={compile_s:.2f}, final_val={final}"
    )
    if math.isnan(float(loss)):
        raise SystemExit("the loss is NaN")


if __name__ == "__main__":
    main()
