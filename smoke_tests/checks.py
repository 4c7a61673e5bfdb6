"""The smoke checks, in the order the suite runs them.

Each check takes a Context and returns a Result; the runner runs every check in its own
fresh interpreter, because several of them set process-global state (deterministic mode,
thread counts, process groups, a registered verl platform).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

PINS_PATH = Path("/etc/verl-image/pins.json")
FAULTS = ("no-slot-drain", "corrupt-byte")


@dataclass
class Context:
    pins: dict
    faults: tuple = ()

    @classmethod
    def load(cls, pins_path: Path, faults=()):
        return cls(json.loads(Path(pins_path).read_text()), tuple(faults))


@dataclass
class Result:
    name: str
    passed: bool
    detail: str = ""
    lines: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)
    seconds: float = 0.0

    def as_dict(self):
        return asdict(self)


def _device():
    from .device import pick

    return pick()


def _result(name, problems, lines, metrics=None):
    detail = "; ".join(problems) if problems else (lines[-1] if lines else "ok")
    return Result(name, not problems, detail, lines, metrics or {})


def stack_versions(ctx):
    from . import conformance

    return _result("conformance.versions", *conformance.version_problems(ctx.pins))


def external_modules(ctx):
    from . import conformance

    problems, lines = conformance.external_modules()
    pinned = ctx.pins["env"].get("VERL_USE_EXTERNAL_MODULES")
    if os.environ.get("VERL_USE_EXTERNAL_MODULES", "") != pinned:
        problems.append(f"VERL_USE_EXTERNAL_MODULES is {os.environ.get('VERL_USE_EXTERNAL_MODULES')!r}, "
                        f"pinned {pinned!r}")
    if not problems and ctx.pins["device"] == "cpu":
        from verl.utils.device import get_device_name

        if get_device_name() != "cpu":
            problems.append(f"verl picked device {get_device_name()!r} on a cpu image (CPU platform not registered)")
    return _result("conformance.external_modules", problems, lines)


def stack_imports(ctx):
    from . import conformance

    return _result("conformance.imports", *conformance.stack_imports(_device()))


def verl_defaults(ctx):
    from . import conformance

    return _result("conformance.verl_defaults", *conformance.verl_defaults())


def patches_applied(ctx):
    from .patchcheck import applied

    return _result("conformance.patches", *applied(ctx.pins))


def training(ctx):
    from . import train

    device = _device()
    values = train.run(device)
    problems, notes = train.check(values, ctx.pins["image"], device.kind)
    return _result("train", problems, notes, values)


def _sync(name, backend, ctx, **overrides):
    from .sync import SyncConfig
    from .sync.harness import run_local

    if "corrupt-byte" in ctx.faults:
        overrides["corrupt"] = (1, 1)
    if backend == "mooncake" and "no-slot-drain" in ctx.faults:
        overrides["drain_slots"] = False
    report = run_local(SyncConfig(backend=backend, **overrides))
    metrics = {f"sync.{backend}.{overrides.get('payload', 'model').split(':')[0]}.gbps": round(report.gbps, 4)}
    lines = [report.summary()] + report.mismatches[:10]
    problems = [report.error] if report.error else ([f"{len(report.mismatches)} tensor(s) not bitwise equal: "
                                                     f"{report.mismatches[0]}"] if report.mismatches else [])
    return _result(name, problems, lines, metrics)


def sync_collective(ctx):
    # small buckets so the model spans many of them
    return _sync("sync.nccl", "nccl", ctx, versions=3, bucket_bytes=256 << 10)


def sync_mooncake(ctx):
    # the rollout reads slowly: a trainer that reuses a buffer too early is caught
    return _sync("sync.mooncake", "mooncake", ctx, versions=3, bucket_bytes=256 << 10, reader_delay_s=0.005)


def throughput_collective(ctx):
    return _sync("sync.nccl.throughput", "nccl", ctx, versions=1, bucket_bytes=64 << 20, payload="synthetic:256")


def throughput_mooncake(ctx):
    return _sync("sync.mooncake.throughput", "mooncake", ctx, versions=1, bucket_bytes=64 << 20,
                 payload="synthetic:256")


def _invariance(name, switch_on):
    from .batch_invariance import run

    results = run(_device(), switch_on)
    lines = [f"{dtype}: bitwise {'equal' if eq else 'different'}, max |diff| {diff:.3g}"
             for dtype, (eq, diff) in results.items()]
    metrics = {f"batch_invariance.{'on' if switch_on else 'off'}.{d}.max_abs_diff": diff
               for d, (_, diff) in results.items()}
    problems = [] if not switch_on else [f"{d}: alone vs batch differ by {diff:.3g} with the switch on"
                                         for d, (eq, diff) in results.items() if not eq]
    return _result(name, problems, lines, metrics)


def invariance_on(ctx):
    return _invariance("batch_invariance.on", True)


def invariance_off(ctx):
    return _invariance("batch_invariance.off", False)


CHECKS = {
    "conformance.versions": stack_versions,
    "conformance.external_modules": external_modules,
    "conformance.imports": stack_imports,
    "conformance.verl_defaults": verl_defaults,
    "conformance.patches": patches_applied,
    "train": training,
    "sync.nccl": sync_collective,
    "sync.mooncake": sync_mooncake,
    "sync.nccl.throughput": throughput_collective,
    "sync.mooncake.throughput": throughput_mooncake,
    "batch_invariance.on": invariance_on,
    "batch_invariance.off": invariance_off,
}
