"""The sync checks: verl's engines move weights trainer -> rollout bit for bit; GB/s into metrics."""

from __future__ import annotations

import os

from ..outcome import judged
from . import SyncConfig
from .harness import buckets_of, run_local

MODEL_BUCKET_STEP = 32 << 10
# The stale slot of verl 0.9.0's Mooncake engine (verl/checkpoint_engine/mooncake_checkpoint_engine.py):
# send_weights fills buffer k % 2 with bucket k and, before refilling a buffer, waits for its completion
# slot; after the last bucket (n-1) 0.9.0 waits on that bucket's slot only, so the marker of bucket n-2
# stays set, in slot n % 2 (0.9.1 also waits on `magic_slots[idx ^ 1]`). In the next version the first
# wait, before bucket 2 overwrites buffer 0, is on slot 0: an even n leaves the stale marker exactly
# there, and with n >= 4 (a bucket 2 in every version) that wait returns at once and bucket 2 overwrites
# bucket 0 before a slow rollout has read it. An odd n leaves it in slot 1, consumed one bucket later
# when the rollout is already reading: the bug hides. Hence: an even number (>= 4) of buckets, at least
# two versions, and a rollout that starts reading each version later than the trainer takes to fill three
# buckets (milliseconds; 1 s holds on a loaded host, where 0.2 s with 7 buckets missed it).
READER_DELAY_S = 1.0
MIN_BUCKETS = 4


def _scale() -> float:
    """Slower hosts (QEMU emulation: the runner sets SMOKE_TIMEOUT_SCALE) get a proportionally slower reader."""
    return float(os.environ.get("SMOKE_TIMEOUT_SCALE", "1"))


def catches_a_stale_slot(buckets: int) -> bool:
    return buckets >= MIN_BUCKETS and buckets % 2 == 0


def even_bucket_size(cfg: SyncConfig) -> int:
    """The smallest bucket from 256 KiB up that splits the model into an even number (>= 4) of
    buckets: a stale completion slot then releases a buffer the slow rollout has not read."""
    import torch

    size = cfg.bucket_bytes
    while True:
        count = buckets_of(SyncConfig(**{**cfg.as_dict(), "bucket_bytes": size}), getattr(torch, cfg.rollout_dtype))
        if catches_a_stale_slot(count):
            return size
        size += MODEL_BUCKET_STEP


def slow_reader_config(faults=()) -> SyncConfig:
    """The Mooncake sync that catches a stale completion slot: sync.mooncake runs it in one container,
    `python -m smoke_tests.sync --backend mooncake` across two."""
    cfg = SyncConfig(backend="mooncake", versions=3, bucket_bytes=256 << 10, reader_delay_s=READER_DELAY_S * _scale(),
                     faults=tuple(faults))
    return SyncConfig(**{**cfg.as_dict(), "bucket_bytes": even_bucket_size(cfg)})


def _sync(name: str, ctx, cfg: SyncConfig, slow_reader=False):
    cfg = SyncConfig(**{**cfg.as_dict(), "faults": tuple(ctx.faults)})
    report = run_local(cfg, ctx.pins["device"])
    metrics = {f"sync.{cfg.backend}.{cfg.payload.split(':')[0]}.gbps": round(report.gbps, 4)}
    lines = [report.summary()] + report.mismatches[:10]
    problems = [report.error] if report.error else ([f"{len(report.mismatches)} tensor(s) not bitwise equal: "
                                                     f"{report.mismatches[0]}"] if report.mismatches else [])
    if slow_reader and not report.error and not catches_a_stale_slot(report.buckets):
        problems.append(f"verl's engine sent {report.buckets} buckets per version: a stale completion slot "
                        f"needs an even number >= {MIN_BUCKETS} to show, so this run proves nothing")
    return judged(name, problems, lines, metrics)


def collective(ctx):
    return _sync("sync.collective", ctx, SyncConfig(backend="collective", versions=3, bucket_bytes=256 << 10))


def mooncake(ctx):
    return _sync("sync.mooncake", ctx, slow_reader_config(), slow_reader=True)


def collective_throughput(ctx):
    return _sync("sync.collective.throughput", ctx, SyncConfig(backend="collective", versions=1,
                                                               bucket_bytes=64 << 20, payload="synthetic:256"))


def mooncake_throughput(ctx):
    return _sync("sync.mooncake.throughput", ctx, SyncConfig(backend="mooncake", versions=1, bucket_bytes=64 << 20,
                                                             payload="synthetic:256"))
