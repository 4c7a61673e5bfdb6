"""Smoke training: a tiny causal LM, fixed seeds, AdamW on a fixed synthetic batch.

The loss must fall to at most LOSS_KEEP of its first value, and the run is compared with
the image's baseline (loss always, step time only with the perf gate on).
"""

from __future__ import annotations

import os
import statistics
import time

from . import metrics, tinymodel

STEPS = 20
LOSS_KEEP = 0.5  # last loss <= 50% of the first: a model that does not learn fails
LR = 3e-3


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
        values[f"train.loss.step_{step:02d}"] = losses[-1]
        values[f"train.step_time_s.step_{step:02d}"] = times[-1]
    values["train.loss.first"] = losses[0]
    values["train.loss.last"] = losses[-1]
    values["train.loss.mean_05_14"] = statistics.fmean(losses[4:14])
    values["train.step_time_s.mean_05_14"] = statistics.fmean(times[4:14])
    return values


def check(values: dict, image: str, device_kind: str, baseline_dir=metrics.BASELINE_DIR) -> tuple:
    """(problems, notes): problems fail the check, notes are reported."""
    problems, notes = [], []
    first, last = values["train.loss.first"], values["train.loss.last"]
    if not last <= LOSS_KEEP * first:
        problems.append(f"loss did not fall enough: {first:.4f} -> {last:.4f} (must reach <= {LOSS_KEEP:.0%})")
    path = metrics.baseline_path(image, device_kind, baseline_dir)
    if path.exists():
        perf_gate = os.environ.get("SMOKE_PERF_GATE") == "1"
        problems += [f"baseline {path.name}: {p}" for p in metrics.compare(metrics.parse(path.read_text()),
                                                                         values, perf_gate)]
        notes.append(f"compared with {path.name}" + (" (perf gate on)" if perf_gate else ""))
    else:
        notes.append(f"no baseline {path.name}: run `python build.py baseline {image} --update` on this device")
    notes.append(f"loss {first:.4f} -> {last:.4f} in {STEPS} steps")
    return problems, notes
