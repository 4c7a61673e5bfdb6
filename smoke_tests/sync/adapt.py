"""Make verl's checkpoint engines runnable on the image's device (nothing to adapt on NPU)."""

from __future__ import annotations

import os


def engine_environment(device_kind: str, loopback: bool = True) -> None:
    """The environment verl's engines read: on the CPU stand-in, Mooncake over TCP (where verl asks for
    RDMA). loopback: one container, so the engines' node address is 127.0.0.1 (Ray's own answer with no
    Ray node running); across containers it is the container's address. Cheap: a process that only
    spawns the ranks sets this and leaves the imports to them."""
    if loopback:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    if device_kind == "cpu":
        os.environ.setdefault("MC_FORCE_TCP", "1")


def prepare_engines(device_kind: str, require_device: bool = True, loopback: bool = True) -> None:
    """engine_environment, and on the CPU stand-in the HCCL engine's NPU pieces stood in for
    (verl_image.cpu_standin, applied in spawned children too)."""
    engine_environment(device_kind, loopback)
    if device_kind == "cpu":
        from verl_image import cpu_standin

        cpu_standin.apply()
    elif require_device:
        import torch_npu  # noqa: F401  (registers torch.npu; verl then registers HCCL as "nccl")


def engine_class(backend: str):
    from verl.checkpoint_engine import CheckpointEngineRegistry

    from . import BACKENDS

    if backend == "collective":
        import verl.checkpoint_engine.hccl_checkpoint_engine  # noqa: F401  (registers "nccl" once torch.npu exists)
    return CheckpointEngineRegistry.get(BACKENDS[backend])
