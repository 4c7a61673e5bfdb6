"""One sample's logprobs alone and inside a batch of N.

Switch on (deterministic algorithms, one intra-op thread, eager attention, explicit
position ids): the two must be bitwise equal, in fp32 and bf16. Switch off (defaults):
the observed difference is reported, not asserted; kernels may legitimately reduce in
a batch-size-dependent order there.
"""

from __future__ import annotations

from . import tinymodel

BATCH = 8
LENGTH = 48
SAMPLE = 3


def logprobs(model, ids):
    import torch

    positions = torch.arange(ids.shape[1], device=ids.device).expand_as(ids)
    logits = model(input_ids=ids, position_ids=positions).logits.float()
    return torch.log_softmax(logits[:, :-1], dim=-1).gather(-1, ids[:, 1:, None]).squeeze(-1)


def run(device, switch_on: bool) -> dict:
    """{dtype: (bitwise_equal, max_abs_diff)} for fp32 and bf16."""
    import torch

    if switch_on:
        torch.use_deterministic_algorithms(True)
        torch.set_num_threads(1)
    results = {}
    for dtype in (torch.float32, torch.bfloat16):
        model = tinymodel.build(seed=0, attn_implementation="eager" if switch_on else "sdpa", dtype=dtype)
        model = model.to(device.torch_device).eval()
        ids = tinymodel.synthetic_batch(BATCH, LENGTH, seed=7).to(device.torch_device)
        with torch.no_grad():
            alone = logprobs(model, ids[SAMPLE:SAMPLE + 1])
            batched = logprobs(model, ids)[SAMPLE:SAMPLE + 1]
        equal = torch.equal(alone, batched)
        results[str(dtype).removeprefix("torch.")] = (equal, float((alone - batched).abs().max()))
    return results
