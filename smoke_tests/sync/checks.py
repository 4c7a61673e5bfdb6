"""The sync checks: verl's engines move weights trainer -> rollout bit for bit; GB/s into metrics."""

from __future__ import annotations

import os

from ..outcome import judged
from . import SyncConfig
from .harness import buckets_of, run_local

MODEL_BUCKET_STEP = 32 << 10
# How late the rollout starts reading each version: long enough for the trainer to run ahead into
# a stale completion slot even on a loaded host (0.2 s missed it while a QEMU build shared the CPUs).
READER_DELAY_S = 1.0


def _scale() -> float:
    """Slower hosts (QEMU emulation: the runner sets SMOKE_TIMEOUT_SCALE) get a proportionally slower reader."""
    return float(os.environ.get("SMOKE_TIMEOUT_SCALE", "1"))


def even_bucket_size(cfg: SyncConfig) -> int:
    """The smallest bucket from 256 KiB up that splits the model into an even number (>= 4) of
    buckets: a stale completion slot then releases a buffer the slow rollout has not read."""
    import torch

    size = cfg.bucket_bytes
    while True:
        count = buckets_of(SyncConfig(**{**cfg.as_dict(), "bucket_bytes": size}), getattr(torch, cfg.rollout_dtype))
        if count >= 4 and count % 2 == 0:
            return size
        size += MODEL_BUCKET_STEP


def _sync(name: str, ctx, cfg: SyncConfig):
    cfg = SyncConfig(**{**cfg.as_dict(), "faults": tuple(ctx.faults)})
    report = run_local(cfg, ctx.pins["device"])
    metrics = {f"sync.{cfg.backend}.{cfg.payload.split(':')[0]}.gbps": round(report.gbps, 4)}
    lines = [report.summary()] + report.mismatches[:10]
    problems = [report.error] if report.error else ([f"{len(report.mismatches)} tensor(s) not bitwise equal: "
                                                     f"{report.mismatches[0]}"] if report.mismatches else [])
    return judged(name, problems, lines, metrics)


def collective(ctx):
    return _sync("sync.collective", ctx, SyncConfig(backend="collective", versions=3, bucket_bytes=256 << 10))


def mooncake(ctx):
    cfg = SyncConfig(backend="mooncake", versions=3, bucket_bytes=256 << 10, reader_delay_s=READER_DELAY_S * _scale())
    return _sync("sync.mooncake", ctx, SyncConfig(**{**cfg.as_dict(), "bucket_bytes": even_bucket_size(cfg)}))


def collective_throughput(ctx):
    return _sync("sync.collective.throughput", ctx, SyncConfig(backend="collective", versions=1,
                                                               bucket_bytes=64 << 20, payload="synthetic:256"))


def mooncake_throughput(ctx):
    return _sync("sync.mooncake.throughput", ctx, SyncConfig(backend="mooncake", versions=1, bucket_bytes=64 << 20,
                                                             payload="synthetic:256"))
