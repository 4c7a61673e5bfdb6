"""CPU stand-ins for the NPU pieces of verl's HCCL checkpoint engine, for the cpu image only.

verl registers HCCLCheckpointEngine as its collective engine ("nccl") on Ascend. On a machine
without an NPU it cannot even be imported. These runtime patches (verl_image.runtime_patch:
each target is fingerprinted first and refused if upstream changed) replace only what an NPU
provides, so that verl's own bucketing, chunk split/merge, double-buffer swap, zmq metadata,
topology and finalize run unchanged on the CPU:

  torch.npu                        MockNpuModule: current_device() -> cpu, synchronize() and
                                   empty_cache() do nothing, no device is available. Added only
                                   after verl chose its platform, so verl never thinks it has an NPU.
  HCCLCheckpointEngine.prepare     the same two buffers, allocated on "cpu" instead of "npu"
  hccl_checkpoint_engine.          vLLM's StatelessProcessGroup (as upstream) with GlooCommunicator,
    stateless_init_process_group   a gloo process group with the calls PyHcclCommunicator offers
                                   (broadcast, all_reduce, destroyComm): HCCL's wire, over gloo

Fingerprints are of verl 0.9.1. The Mooncake engine needs no patch: verl_cpu_platform gives
it a CPU device module, and Mooncake falls back to TCP where verl asks for RDMA.
"""

from __future__ import annotations

import os
import types
from datetime import timedelta

import torch

from . import runtime_patch

PATCH_NPU = "verl_image.cpu_standin.mock_npu_module"
PATCH_PREPARE = "verl_image.cpu_standin.cpu_buffers"
PATCH_COMM = "verl_image.cpu_standin.gloo_communicator"

SHA_IS_TORCH_NPU_AVAILABLE = "e198a3436c4cf595411387a47349c2ad54be16c66f695a53997dbf4cb40c7a36"
SHA_STATELESS_INIT = "bb2a5362036221704ba733d0bc040348b1dc0a38525166df654c96b2f9a38c80"
SHA_PREPARE = "bb50876c59bd721f23a79fff865a20a7bca90b80b25c6b51b3dc3cc11eae97f5"
# the engine code that calls torch.npu or the communicator: the stand-ins were written for it
CALLERS = {
    "HCCLCheckpointEngine.__init__": "16c312686e3c94b280ee180f6c85204d7ebcccce4f948e655266728e754f7a36",
    "HCCLCheckpointEngine.finalize": "44d9af19a155ef9d5303749b11c00a19b1047d9149267428844691917a81a562",
    "HCCLCheckpointEngine.init_process_group": "0f4fcb7016a39b4076e666566bd531a0a9f1a52bffe8f1f76a3ba219322e5995",
    "HCCLCheckpointEngine.send_weights": "ed61d01e6d51c227be93ebc9f8fe0c6ad7274ab8dcb2b0e9e460861c48db2265",
    "HCCLCheckpointEngine._receive_weight_chunks": "0c51280fa36736d25d502342a68d076070aa6403296b5d4a124a3e2f83633abd",
    "BroadcastOperation._run": "280059541ff6cb85a793f34e29e89e0ccf9b8add19c88564d120c9e5744dfb07",
}


def _nothing(*args, **kwargs):
    return None


def mock_npu_module() -> types.ModuleType:
    """MockNpuModule: the torch.npu calls the HCCL engine makes, answered by the CPU."""
    module = types.ModuleType("verl_image_mock_npu", "CPU stand-in for torch.npu (verl_image.cpu_standin)")
    module.is_available = lambda: False
    module.device_count = lambda: 0
    module.current_device = lambda: torch.device("cpu")
    module.synchronize = _nothing
    module.empty_cache = _nothing
    setattr(module, runtime_patch.MARK, PATCH_NPU)
    return module


class GlooCommunicator:
    """Stands in for vllm_ascend's PyHcclCommunicator: the calls the engine makes, over gloo."""

    def __init__(self, group, local_ip: str | None = None):
        self.group = group  # vLLM StatelessProcessGroup: keeps the TCPStore alive
        self.rank, self.world_size = group.rank, group.world_size
        options = torch.distributed.ProcessGroupGloo._Options()
        options._timeout = timedelta(seconds=int(os.environ.get("VERL_IMAGE_GLOO_TIMEOUT_S", "120")))
        options._devices = [torch.distributed.ProcessGroupGloo.create_device(hostname=local_ip) if local_ip
                            else torch.distributed.ProcessGroupGloo.create_default_device()]
        store = torch.distributed.PrefixStore("verl_image_gloo", group.store)
        self.comm = torch.distributed.ProcessGroupGloo(store, self.rank, self.world_size, options)

    def broadcast(self, tensor: torch.Tensor, src: int, stream=None):
        options = torch.distributed.BroadcastOptions()
        options.rootRank = src
        self.comm.broadcast([tensor], options).wait()

    def all_reduce(self, tensor: torch.Tensor, op=None, stream=None) -> torch.Tensor:
        out = tensor.clone()  # PyHccl's all_reduce is out of place and returns the result
        self.comm.allreduce([out]).wait()
        return out

    def destroyComm(self, comm=None):  # noqa: N802  (the PyHccl name the engine calls)
        self.comm = None
        self.group = None


def gloo_stateless_init_process_group(master_address, master_port, rank, world_size, device):
    from vllm.distributed.utils import StatelessProcessGroup

    group = StatelessProcessGroup.create(host=master_address, port=master_port, rank=rank, world_size=world_size)
    loopback = master_address in ("127.0.0.1", "localhost")
    return GlooCommunicator(group, local_ip="127.0.0.1" if loopback else None)


def cpu_prepare(self):
    """HCCLCheckpointEngine.prepare with its two buffers on "cpu" instead of "npu"."""
    from verl.checkpoint_engine.hccl_checkpoint_engine import MasterMetadata

    self.send_buf = torch.zeros(self.bucket_size, dtype=torch.uint8, device="cpu")
    self.recv_buf = torch.zeros(self.bucket_size, dtype=torch.uint8, device="cpu")
    if not self.is_master:
        return None
    return MasterMetadata(zmq_ip=self.ip, zmq_port=self.zmq_port, dist_ip=self.ip, dist_port=self.dist_port)


def apply() -> None:
    """Idempotent; registered so that spawned children apply it too (runtime_patch.spawn)."""
    import verl.utils.device as device
    from verl.plugin.platform import get_platform

    if runtime_patch.fingerprint(device.is_torch_npu_available) != SHA_IS_TORCH_NPU_AVAILABLE:
        raise runtime_patch.UnknownUpstream("verl.utils.device.is_torch_npu_available changed: re-derive "
                                            "verl_image.cpu_standin")
    if getattr(getattr(torch, "npu", None), runtime_patch.MARK, None) != PATCH_NPU:
        if hasattr(torch, "npu"):
            raise runtime_patch.UnknownUpstream("torch.npu exists: this is no CPU-only image")
        get_platform()  # verl picks its platform before the stand-in exists
        torch.npu = mock_npu_module()
    import verl.checkpoint_engine.hccl_checkpoint_engine as hccl

    for qualified, expected in CALLERS.items():
        owner, _, name = qualified.partition(".")
        if getattr(getattr(getattr(hccl, owner), name), runtime_patch.MARK, None):
            continue
        found = runtime_patch.fingerprint(getattr(getattr(hccl, owner), name))
        if found != expected:
            raise runtime_patch.UnknownUpstream(f"{qualified}: upstream source sha256 {found}, the stand-ins were "
                                                f"made for {expected}; re-derive verl_image.cpu_standin")
    runtime_patch.replace(hccl.HCCLCheckpointEngine, "prepare", cpu_prepare, expect_sha256=SHA_PREPARE,
                          patch_id=PATCH_PREPARE)
    runtime_patch.replace(hccl, "stateless_init_process_group", gloo_stateless_init_process_group,
                          expect_sha256=SHA_STATELESS_INIT, patch_id=PATCH_COMM)


runtime_patch.register(f"{__name__}:apply")
