#!/usr/bin/env python3
"""Reference numbers for autodiff-runtime's optimizer, schedule, clipping and checkpoint tests.

Run by hand (not by CI) from the repository root:

    pip install torch numpy safetensors
    python3 tools/optim_reference.py

It writes
    autodiff-runtime/tests/data/optim_reference.json         trajectories, schedules, clipping
    autodiff-runtime/tests/data/torch_checkpoint.safetensors  a small checkpoint saved by PyTorch

Everything is computed by PyTorch (float64) from fixed inputs, independently of the Rust code:
torch.optim.{SGD, Adam, AdamW, RMSprop, Adagrad}, torch.optim.lr_scheduler and
torch.nn.utils.clip_grad_*. PyTorch has no Lion optimizer, so its trajectory is the paper's
update rule (Chen et al. 2023, Algorithm 2) written below with torch tensor operations; that
case is labelled "reference": "paper formula (torch ops)" in the JSON.
"""

import json
import math
import os

import numpy as np
import torch
from safetensors.torch import save_file

OUT_DIR = os.path.join(os.path.dirname(__file__), "..", "autodiff-runtime", "tests", "data")
STEPS = 8

# Parameters: w of shape [2, 3] and b of shape [2], like `struct P { w: [[f64; 3]; 2], b: [f64; 2] }`.
rng = np.random.default_rng(20240611)
INITIAL = {"w": rng.normal(0.0, 1.0, size=(2, 3)), "b": rng.normal(0.0, 1.0, size=(2,))}
GRADS = []
for step in range(STEPS):
    g = {"w": rng.normal(0.0, 0.5, size=(2, 3)), "b": rng.normal(0.0, 0.5, size=(2,))}
    if step == 2:
        g["w"][0, 1] = 0.0  # exercises sign(0) in Lion and a zero update elsewhere
    GRADS.append(g)

# (case name, optimizer, config with the Rust field names)
CASES = [
    ("sgd", "sgd", dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False)),
    ("sgd_momentum_dampening_decay", "sgd", dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01, nesterov=False)),
    ("sgd_nesterov", "sgd", dict(lr=0.05, momentum=0.9, dampening=0.0, weight_decay=0.1, nesterov=True)),
    ("adam", "adam", dict(lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, amsgrad=False)),
    ("adam_decay_amsgrad", "adam", dict(lr=0.02, beta1=0.8, beta2=0.95, eps=1e-6, weight_decay=0.1, amsgrad=True)),
    ("adamw", "adamw", dict(lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.1, amsgrad=False)),
    ("adamw_amsgrad", "adamw", dict(lr=0.03, beta1=0.85, beta2=0.99, eps=1e-7, weight_decay=0.05, amsgrad=True)),
    ("rmsprop", "rmsprop", dict(lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False)),
    ("rmsprop_momentum", "rmsprop", dict(lr=0.01, alpha=0.9, eps=1e-8, weight_decay=0.0, momentum=0.5, centered=False)),
    ("rmsprop_centered_momentum_decay", "rmsprop", dict(lr=0.01, alpha=0.9, eps=1e-6, weight_decay=0.05, momentum=0.5, centered=True)),
    ("rmsprop_centered", "rmsprop", dict(lr=0.005, alpha=0.95, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=True)),
    ("adagrad", "adagrad", dict(lr=0.1, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10)),
    ("adagrad_decay", "adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5, eps=1e-8)),
    ("lion", "lion", dict(lr=0.001, beta1=0.9, beta2=0.99, weight_decay=0.0)),
    ("lion_decay", "lion", dict(lr=0.01, beta1=0.95, beta2=0.98, weight_decay=0.5)),
]


def torch_optimizer(kind, params, c):
    if kind == "sgd":
        return torch.optim.SGD(params, lr=c["lr"], momentum=c["momentum"], dampening=c["dampening"],
                               weight_decay=c["weight_decay"], nesterov=c["nesterov"])
    if kind in ("adam", "adamw"):
        cls = torch.optim.Adam if kind == "adam" else torch.optim.AdamW
        return cls(params, lr=c["lr"], betas=(c["beta1"], c["beta2"]), eps=c["eps"],
                   weight_decay=c["weight_decay"], amsgrad=c["amsgrad"], foreach=False)
    if kind == "rmsprop":
        return torch.optim.RMSprop(params, lr=c["lr"], alpha=c["alpha"], eps=c["eps"],
                                   weight_decay=c["weight_decay"], momentum=c["momentum"],
                                   centered=c["centered"], foreach=False)
    if kind == "adagrad":
        return torch.optim.Adagrad(params, lr=c["lr"], lr_decay=c["lr_decay"], weight_decay=c["weight_decay"],
                                   initial_accumulator_value=c["initial_accumulator_value"], eps=c["eps"],
                                   foreach=False)
    raise ValueError(kind)


class LionByFormula:
    """Lion, Algorithm 2 of the paper, on torch tensors (PyTorch has no Lion)."""

    def __init__(self, params, c):
        self.params, self.c = params, c
        self.m = [torch.zeros_like(p) for p in params]

    @torch.no_grad()
    def step(self):
        c = self.c
        for p, m in zip(self.params, self.m):
            update = torch.sign(c["beta1"] * m + (1 - c["beta1"]) * p.grad)
            p.mul_(1 - c["lr"] * c["weight_decay"]).add_(update, alpha=-c["lr"])
            m.mul_(c["beta2"]).add_(p.grad, alpha=1 - c["beta2"])


def trajectory(kind, c):
    w = torch.tensor(INITIAL["w"], dtype=torch.float64, requires_grad=True)
    b = torch.tensor(INITIAL["b"], dtype=torch.float64, requires_grad=True)
    opt = LionByFormula([w, b], c) if kind == "lion" else torch_optimizer(kind, [w, b], c)
    out = []
    for g in GRADS:
        w.grad = torch.tensor(g["w"], dtype=torch.float64)
        b.grad = torch.tensor(g["b"], dtype=torch.float64)
        opt.step()
        out.append({"w": w.detach().reshape(-1).tolist(), "b": b.detach().tolist()})
    return out


def schedules():
    def lrs(make, steps=22):
        p = torch.zeros(1, requires_grad=True)
        opt = torch.optim.SGD([p], lr=0.1)
        sched = make(opt)
        out = [opt.param_groups[0]["lr"]]
        for _ in range(steps - 1):
            opt.step()
            sched.step()
            out.append(opt.param_groups[0]["lr"])
        return out

    S = torch.optim.lr_scheduler
    return [
        {"name": "step", "config": dict(base_lr=0.1, step_size=3, gamma=0.5),
         "lrs": lrs(lambda o: S.StepLR(o, step_size=3, gamma=0.5))},
        {"name": "exponential", "config": dict(base_lr=0.1, gamma=0.9),
         "lrs": lrs(lambda o: S.ExponentialLR(o, gamma=0.9))},
        # Only up to total_steps: past it PyTorch's cosine rises again, the Rust schedule stays at min_lr.
        {"name": "cosine_with_warmup",
         "config": dict(base_lr=0.1, min_lr=0.001, warmup_steps=5, total_steps=20, warmup_start_factor=0.1),
         "lrs": lrs(lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=5),
                                                 S.CosineAnnealingLR(o, T_max=15, eta_min=0.001)],
                                             milestones=[5]), steps=21)},
    ]


def clipping():
    g = GRADS[0]
    cases = []
    for max_norm in (0.5, 100.0):
        w = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
        b = torch.zeros(2, dtype=torch.float64, requires_grad=True)
        w.grad = torch.tensor(g["w"]); b.grad = torch.tensor(g["b"])
        norm = torch.nn.utils.clip_grad_norm_([w, b], max_norm)
        cases.append({"kind": "norm", "limit": max_norm, "norm": float(norm),
                      "grads": {"w": w.grad.reshape(-1).tolist(), "b": b.grad.tolist()}})
    w = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    w.grad = torch.tensor(g["w"]); b.grad = torch.tensor(g["b"])
    torch.nn.utils.clip_grad_value_([w, b], 0.3)
    cases.append({"kind": "value", "limit": 0.3, "grads": {"w": w.grad.reshape(-1).tolist(), "b": b.grad.tolist()}})
    return cases


def checkpoint():
    """A float32 checkpoint named like `struct Net { layers: [Layer<3, 3>; 2], head: Layer<3, 1>, scale: f32 }`
    with `struct Layer<const I, const O> { w: [[f32; I]; O], b: [f32; O] }`, as `save_file` writes it."""
    tensors = {
        "layers.0.w": torch.linspace(-1.0, 1.0, 9, dtype=torch.float32).reshape(3, 3),
        "layers.0.b": torch.tensor([0.1, -0.2, 0.3], dtype=torch.float32),
        "layers.1.w": torch.arange(9, dtype=torch.float32).reshape(3, 3) / 7,
        "layers.1.b": torch.tensor([1e-3, -1e3, 0.0], dtype=torch.float32),
        "head.w": torch.tensor([[1.5, -2.5, 0.125]], dtype=torch.float32),
        "head.b": torch.tensor([-0.75], dtype=torch.float32),
        "scale": torch.tensor(math.pi, dtype=torch.float32),
    }
    save_file(tensors, os.path.join(OUT_DIR, "torch_checkpoint.safetensors"))
    return {"file": "torch_checkpoint.safetensors",
            "tensors": {k: {"shape": list(v.shape), "values": v.reshape(-1).tolist()} for k, v in tensors.items()}}


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    torch.set_default_dtype(torch.float64)
    doc = {
        "generator": "tools/optim_reference.py",
        "torch_version": torch.__version__,
        "initial": {"w": INITIAL["w"].reshape(-1).tolist(), "b": INITIAL["b"].tolist()},
        "grads": [{"w": g["w"].reshape(-1).tolist(), "b": g["b"].tolist()} for g in GRADS],
        "optimizers": [
            {"name": name, "optimizer": kind, "config": c,
             "reference": "paper formula (torch ops)" if kind == "lion" else "torch.optim",
             "params": trajectory(kind, c)}
            for name, kind, c in CASES
        ],
        "schedules": schedules(),
        "clipping": clipping(),
        "checkpoint": checkpoint(),
    }
    with open(os.path.join(OUT_DIR, "optim_reference.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
