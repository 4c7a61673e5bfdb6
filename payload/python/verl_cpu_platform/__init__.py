"""A CPU platform for verl, registered through VERL_USE_EXTERNAL_MODULES.

verl probes its registered platforms (nvidia, npu, rocm) and falls back to 'nvidia'
when none is available, which on a CPU-only image means device 'cuda' and backend
'nccl'. Importing this module (verl does it for every name in
VERL_USE_EXTERNAL_MODULES) registers a 'cpu' platform that is chosen only when no
accelerator is present: device 'cpu', collective backend 'gloo'.

What verl's trainer and FSDP engine ask of a device, answered for the host: its device
module reports no device memory in use and the host's RAM as the device's, the device's
name is "CPU", and the current device is torch.device("cpu") (verl moves modules with
`.to(get_device_id())`; an integer there means an accelerator index, which a CPU has not).
"""

import os
from contextlib import contextmanager
from types import ModuleType

import torch
from verl.plugin.platform import PlatformBase, PlatformRegistry


def _host_memory(device=None) -> tuple:
    """(free, total) bytes, as torch.cuda.mem_get_info reports them: the host's RAM."""
    page = os.sysconf("SC_PAGE_SIZE")
    return os.sysconf("SC_AVPHYS_PAGES") * page, os.sysconf("SC_PHYS_PAGES") * page


def _device_module() -> ModuleType:
    """torch.cpu plus the calls verl's trainer and engines make that it lacks."""
    module = ModuleType("verl_cpu_platform.device", "torch.cpu as verl's device module")
    for name in ("device_count", "is_available", "set_device", "synchronize"):
        setattr(module, name, getattr(torch.cpu, name))
    module.current_device = lambda: torch.device("cpu")
    module.empty_cache = lambda: None
    module.get_device_name = lambda device=None: "CPU"
    module.mem_get_info = _host_memory
    for name in ("memory_allocated", "memory_reserved", "max_memory_allocated", "max_memory_reserved"):
        setattr(module, name, lambda device=None: 0)
    module.reset_peak_memory_stats = lambda device=None: None
    return module


DEVICE_MODULE = _device_module()


@PlatformRegistry.register(platform="cpu")
class PlatformCPU(PlatformBase):
    @property
    def device_name(self) -> str:
        return "cpu"

    @property
    def vendor_name(self) -> str:
        return "cpu"

    @property
    def device_module(self) -> ModuleType:
        return DEVICE_MODULE

    def is_available(self) -> bool:
        return True

    def is_platform_available(self, use_smi_check=False) -> bool:
        npu = getattr(torch, "npu", None)
        return not torch.cuda.is_available() and not (npu is not None and npu.is_available())

    def current_device(self) -> torch.device:
        return torch.device("cpu")

    def device_count(self) -> int:
        return 1

    def set_device(self, device_index: int) -> None:
        return None

    def synchronize(self, device_index=None) -> None:
        return None

    def manual_seed(self, seed: int) -> None:
        torch.manual_seed(seed)

    def manual_seed_all(self, seed: int) -> None:
        torch.manual_seed(seed)

    def set_allocator_settings(self, settings: str) -> None:
        return None

    def empty_cache(self) -> None:
        return None

    def get_device_capability(self, device_index: int = 0):
        return (None, None)

    def communication_backend_name(self) -> str:
        return "gloo"

    def visible_devices_envvar(self) -> str:
        return "CPU_VISIBLE_DEVICES"

    @contextmanager
    def nvtx_range(self, msg: str):
        yield

    def profiler_start(self) -> None:
        return None

    def profiler_stop(self) -> None:
        return None

    def ray_resource_name(self) -> str:
        return "CPU"

    def ray_noset_envvars(self) -> list:
        return []

    def ray_resource_options(self, num_gpus: float) -> dict:
        return {}

    def is_ipc_supported(self) -> bool:
        return False

    def cudart(self):
        return None
