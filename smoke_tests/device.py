"""Pick the device once: npu (torch_npu present and a device visible) -> cuda -> cpu."""

from __future__ import annotations

import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class Device:
    kind: str  # npu | cuda | cpu
    collective_backend: str  # what the `nccl` backend name resolves to here
    mooncake_protocol: str

    @property
    def torch_device(self) -> str:
        return self.kind

    def synchronize(self) -> None:
        import torch

        if self.kind == "npu":
            torch.npu.synchronize()
        elif self.kind == "cuda":
            torch.cuda.synchronize()


NPU = Device("npu", "hccl", "ascend_direct")
CUDA = Device("cuda", "nccl", "tcp")
CPU = Device("cpu", "gloo", "tcp")


@functools.lru_cache(maxsize=1)
def pick() -> Device:
    import torch

    try:
        import torch_npu  # noqa: F401  (registers torch.npu)

        if torch.npu.is_available() and torch.npu.device_count() > 0:
            return NPU
    except ImportError:
        pass
    if torch.cuda.is_available():
        return CUDA
    return CPU


def resolve_backend(name: str, device: Device) -> str:
    """verl's backend names: `nccl` means the vendor collective library (HCCL on Ascend)."""
    if name == "nccl":
        return device.collective_backend
    return name


def set_local_device(device: Device, rank: int) -> None:
    import torch

    if device.kind == "npu":
        torch.npu.set_device(rank % torch.npu.device_count())
    elif device.kind == "cuda":
        torch.cuda.set_device(rank % torch.cuda.device_count())
