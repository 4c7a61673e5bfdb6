"""The device a check runs on is the one the image's pins name, never a fallback.

An npu image runs its device checks on the NPU; if torch_npu does not import or no NPU is
visible, the check fails with that reason. When the container has no NPU device nodes at all
(a host without NPUs) its device checks are NOT RUN. A cpu image runs them on the CPU.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Device:
    kind: str  # npu | cpu
    collective: str  # what verl's collective engine runs on here
    mooncake_protocol: str

    @property
    def torch_device(self) -> str:
        return self.kind

    def synchronize(self) -> None:
        import torch

        if self.kind == "npu":
            torch.npu.synchronize()


NPU = Device("npu", "hccl", "ascend_direct")
CPU = Device("cpu", "gloo", "tcp")


def npu_nodes() -> list:
    return sorted(glob.glob("/dev/davinci[0-9]*"))


def pinned_device_present(kind: str) -> tuple:
    """(present, why not) for the device the pins name."""
    if kind == "cpu":
        return True, ""
    if npu_nodes():
        return True, ""
    return False, ("no NPU in this container (/dev/davinci* absent): run it on an Ascend host, where "
                   "build.py smoke passes the devices and the driver through")


def for_pins(pins: dict) -> Device:
    """The pinned device, made ready: on NPU, torch_npu must import and see an NPU (no fallback)."""
    if pins["device"] == "cpu":
        return CPU
    import torch
    import torch_npu  # noqa: F401  (registers torch.npu: an ImportError here fails the check)

    if torch.npu.device_count() < 1:
        raise RuntimeError("torch_npu imported but sees no NPU")
    return NPU


def set_local_device(device: Device, rank: int) -> None:
    import torch

    if device.kind == "npu":
        torch.npu.set_device(rank % torch.npu.device_count())


def stack_versions(pins: dict) -> dict:
    """What a training baseline records it was made with: verl, torch and the device's own stack."""
    import platform
    from importlib.metadata import version

    made_with = {"verl": version("verl"), "torch": version("torch")}
    if pins["device"] == "npu":

        made_with["device"] = f"npu {pins.get('soc_version') or '?'}, torch_npu {version('torch_npu')}, CANN {cann_version()}"
    else:
        made_with["device"] = f"cpu {platform.machine()}"
    return made_with


def cann_version() -> str:
    """The CANN toolkit's version as its install records it (ASCEND_TOOLKIT_HOME, else the default path)."""
    home = Path(os.environ.get("ASCEND_TOOLKIT_HOME", "/usr/local/Ascend/ascend-toolkit/latest"))
    for info in sorted(home.glob("**/ascend_toolkit_install.info")) + sorted(home.glob("*/version.info")):
        for line in info.read_text().splitlines():
            if line.startswith("version="):
                return line.split("=", 1)[1].strip()
    return "unknown (no ascend_toolkit_install.info or version.info)"
