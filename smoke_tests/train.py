"""Smoke training: a tiny causal LM on the pinned device, fixed seeds, AdamW on a fixed batch.

The loss must fall to at most LOSS_KEEP of its first value, and the run must match the
image's committed baseline for this device and architecture (loss always; step time only
with SMOKE_PERF_GATE=1). No baseline is a failure: an image is not promoted on a device
nobody has measured it on.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from pathlib import Path

from . import metrics, tinymodel
from .device import for_pins
from .outcome import judged

STEPS = 20
LOSS_KEEP = 0.5  # last loss <= 50% of the first: a model that does not learn fails
LR = 3e-3
ARCH = {"x86_64": "amd64", "aarch64": "arm64"}
BASELINE_ARTIFACT = "train.baseline.txt"


def run(device) -> dict:
    """Train and return the metrics of the run."""
    import torch

    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    model = tinymodel.build(seed=0).to(device.torch_device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR)
    batch = tinymodel.synthetic_batch(8, 64, seed=1).to(device.torch_device)
    values, losses, times = {}, [], []
    for step in range(1, STEPS + 1):
        started = time.perf_counter()
        loss = model(input_ids=batch, labels=batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        device.synchronize()
        losses.append(loss.item())
        times.append(time.perf_counter() - started)
    values["train.loss.first"] = losses[0]
    values["train.loss.last"] = losses[-1]
    values["train.loss.mean_05_14"] = statistics.fmean(losses[4:14])
    values["train.step_time_s.mean_05_14"] = statistics.fmean(times[4:14])
    return values


def judge(values: dict, image: str, device_kind: str, arch: str, baseline_dir=metrics.BASELINE_DIR) -> tuple:
    """(problems, notes): problems fail the check, notes are reported."""
    problems, notes = [], []
    first, last = values["train.loss.first"], values["train.loss.last"]
    if not last <= LOSS_KEEP * first:
        problems.append(f"loss did not fall enough: {first:.4f} -> {last:.4f} (must reach <= {LOSS_KEEP:.0%})")
    path = metrics.baseline_path(image, device_kind, arch, baseline_dir)
    if not path.exists():
        problems.append(f"no baseline {path.name} for this device: run `python build.py baseline {image} "
                        f"--platform linux/{arch} --update` on it and commit the file")
    else:
        perf_gate = os.environ.get("SMOKE_PERF_GATE") == "1"
        problems += [f"baseline {path.name}: {p}" for p in metrics.compare(metrics.parse(path.read_text()), values,
                                                                         perf_gate)]
        notes.append(f"compared with {path.name}" + (" (perf gate on)" if perf_gate else ""))
    notes.append(f"loss {first:.4f} -> {last:.4f} in {STEPS} steps")
    return problems, notes


def check(ctx):
    device = for_pins(ctx.pins)
    values = run(device)
    arch = ARCH[platform.machine()]
    problems, notes = judge(values, ctx.pins["image"], device.kind, arch)
    # what a baseline from this run would be: `build.py baseline --update` commits it
    (Path(ctx.artifacts) / BASELINE_ARTIFACT).write_text(metrics.baseline_text(ctx.pins["image"], device.kind, arch,
                                                                              values))
    return judged("train", problems, notes, values)
