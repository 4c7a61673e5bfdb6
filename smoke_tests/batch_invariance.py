"""Batch invariance: one sample's logprobs alone and inside a batch of N.

On NPU this exercises the switch verl flips for full determinism (VLLM_BATCH_INVARIANT, which
vllm-ascend reads in each worker process), the way vllm-ascend's own regression test does,
each mode in a spawned process: on, vllm_ascend.batch_invariant registers its ops and the
sample alone equals the sample in the batch bit for bit; off, no op is registered.
On the CPU stand-in there is no such switch: the difference is reported as a figure.
"""

from __future__ import annotations

import multiprocessing
import os

from . import tinymodel
from .outcome import judged, measured

BATCH = 8
LENGTH = 48
SAMPLE = 3


def logprobs(model, ids):
    import torch

    positions = torch.arange(ids.shape[1], device=ids.device).expand_as(ids)
    logits = model(input_ids=ids, position_ids=positions).logits.float()
    return torch.log_softmax(logits[:, :-1], dim=-1).gather(-1, ids[:, 1:, None]).squeeze(-1)


def alone_vs_batch(device: str, dtype) -> tuple:
    """(bitwise equal, max |difference|) of the sample's logprobs alone and in the batch."""
    import torch

    model = tinymodel.build(seed=0, attn_implementation="eager", dtype=dtype).to(device).eval()
    ids = tinymodel.synthetic_batch(BATCH, LENGTH, seed=7).to(device)
    with torch.no_grad():
        alone = logprobs(model, ids[SAMPLE:SAMPLE + 1])
        batched = logprobs(model, ids)[SAMPLE:SAMPLE + 1]
    return torch.equal(alone, batched), float((alone - batched).abs().max())


def _npu_mode(switch: str, queue) -> None:
    """In a fresh process, as vllm-ascend's workers do: read the switch, register (or not), compare."""
    os.environ["VLLM_BATCH_INVARIANT"] = switch
    try:
        import torch
        import torch_npu  # noqa: F401
        from vllm_ascend import batch_invariant

        batch_invariant.init_batch_invariance()
        registered = getattr(batch_invariant, "_batch_invariant_LIB", None) is not None
        equal, diff = alone_vs_batch("npu", torch.bfloat16)
        queue.put({"registered": registered, "equal": equal, "diff": diff})
    except Exception as exc:  # reported to the parent as the mode's failure
        queue.put({"error": f"{type(exc).__name__}: {exc}"})


def check(ctx):
    context = multiprocessing.get_context("spawn")
    problems, lines, values = [], [], {}
    for switch in ("1", "0"):
        queue = context.Queue()
        process = context.Process(target=_npu_mode, args=(switch, queue))
        process.start()
        process.join()
        outcome = queue.get() if not queue.empty() else {"error": f"exited {process.exitcode} without a result"}
        mode = "on" if switch == "1" else "off"
        if "error" in outcome:
            problems.append(f"switch {mode}: {outcome['error']}")
            continue
        lines.append(f"switch {mode}: ops registered {outcome['registered']}, alone vs batch "
                     f"{'bitwise equal' if outcome['equal'] else 'different'} (max |diff| {outcome['diff']:.3g})")
        values[f"batch_invariance.{mode}.max_abs_diff"] = outcome["diff"]
        if switch == "1" and not (outcome["registered"] and outcome["equal"]):
            problems.append(f"switch on: registered={outcome['registered']}, bitwise equal={outcome['equal']}")
        if switch == "0" and outcome["registered"]:
            problems.append("switch off: batch-invariant ops are registered anyway")
    return judged("batch_invariance", problems, lines, values)


def measure_cpu(ctx):
    import torch

    lines, values = [], {}
    for dtype in (torch.float32, torch.bfloat16):
        equal, diff = alone_vs_batch("cpu", dtype)
        name = str(dtype).removeprefix("torch.")
        lines.append(f"{name}: alone vs batch of {BATCH} {'bitwise equal' if equal else 'different'}, "
                     f"max |diff| {diff:.3g}")
        values[f"batch_invariance.cpu.{name}.max_abs_diff"] = diff
    return measured("batch_invariance.cpu", lines, values)
