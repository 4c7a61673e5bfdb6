"""Bucketed broadcast over torch.distributed, double-buffered on both sides.

The trainer packs bucket i+1 into one buffer while bucket i is still being broadcast
from the other, and waits for a buffer's broadcast before packing into it again. The
rollout posts the receive of bucket i+1 before it unpacks bucket i. Bucket layouts go
through the store (verl sends the same metadata over ZMQ).
"""

from __future__ import annotations

import json
from datetime import timedelta

from . import buckets


def init_group(store, cfg, device, rank: int, version: int) -> str:
    import torch.distributed as dist

    from ..device import resolve_backend

    backend = resolve_backend(cfg.backend, device)
    if dist.is_initialized():
        if not cfg.rebuild_group:
            return backend
        dist.destroy_process_group()
    # a fresh prefix per rebuild: the new group must not see the old group's keys
    prefix = f"{cfg.group_name}/pg{version if cfg.rebuild_group else 0}"
    dist.init_process_group(backend, store=dist.PrefixStore(prefix, store), rank=rank, world_size=2,
                            timeout=timedelta(seconds=cfg.timeout_s))
    return backend


def _buffers(cfg, device):
    import torch

    return [torch.empty(cfg.bucket_bytes, dtype=torch.uint8, device=device.torch_device) for _ in range(2)]


def send(store, cfg, device, version: int, tensors: dict, plan: list) -> None:
    import torch.distributed as dist

    init_group(store, cfg, device, 0, version)
    buffers, in_flight = _buffers(cfg, device), [None, None]
    for index, bucket in enumerate(plan):
        slot = index % 2
        if in_flight[slot] is not None:
            in_flight[slot].wait()  # a buffer is free only once its broadcast finished
        buckets.pack(bucket, tensors, buffers[slot])
        device.synchronize()
        layout = {"items": buckets.to_wire(bucket), "last": index == len(plan) - 1}
        store.set(f"coll/v{version}/b{index}", json.dumps(layout))
        in_flight[slot] = dist.broadcast(buffers[slot][:buckets.length(bucket)], src=0, async_op=True)
    for work in in_flight:
        if work is not None:
            work.wait()


def receive(store, cfg, device, version: int, on_bucket) -> float:
    """Receive one version; on_bucket(index, layout, buffer_view) consumes each bucket.

    Returns the seconds from the first bucket's announcement to the last bucket consumed."""
    import time

    import torch.distributed as dist

    init_group(store, cfg, device, 1, version)
    buffers = _buffers(cfg, device)

    def post(index):
        message = json.loads(store.get(f"coll/v{version}/b{index}"))
        layout = buckets.from_wire(message["items"])
        view = buffers[index % 2][:buckets.length(layout)]
        return layout, view, dist.broadcast(view, src=0, async_op=True), message["last"]

    index, pending = 0, post(0)
    started = time.monotonic()
    while pending:
        layout, view, work, last = pending
        work.wait()
        pending = None if last else post(index + 1)
        on_bucket(index, layout, view)
        index += 1
    return time.monotonic() - started
