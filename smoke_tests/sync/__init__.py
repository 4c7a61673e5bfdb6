"""Trainer -> rollout weight sync, the heart of verl's RL loop, over two backends.

  collective: the backend verl calls `nccl` (HCCL on NPU, NCCL on CUDA, gloo on CPU),
              bucketed broadcast with double buffers on both sides.
  mooncake:   Mooncake TransferEngine (P2PHANDSHAKE; ascend_direct on NPU, tcp elsewhere),
              the rollout reads each bucket and writes a completion marker into the
              trainer's slot for that buffer; the trainer may only reuse a buffer after
              consuming its marker, and drains both slots at the end of every version.

Several consecutive weight versions are sent; the rollout recomputes what it should have
received and compares every tensor bit for bit after the cast to the rollout dtype.
"""

from dataclasses import asdict, dataclass, field

from ..config import SYNC_DEFAULTS


@dataclass
class SyncConfig:
    backend: str = "nccl"  # nccl (collective) | mooncake
    versions: int = 3
    bucket_bytes: int = SYNC_DEFAULTS.bucket_bytes
    rollout_dtype: str = SYNC_DEFAULTS.rollout_dtype
    group_name: str = SYNC_DEFAULTS.group_name
    rebuild_group: bool = SYNC_DEFAULTS.rebuild_group
    payload: str = "model"  # model | synthetic:<MiB>
    drain_slots: bool = True  # False reproduces verl's bug: slots left unconsumed across versions
    reader_delay_s: float = 0.0  # rollout sleeps before each read: the adversarial timing for slots
    corrupt: tuple = ()  # (version, bucket): flip one received byte, to prove the comparison bites
    timeout_s: float = 120.0

    def as_dict(self):
        return asdict(self)


@dataclass
class SyncReport:
    ok: bool
    backend: str
    resolved: str = ""
    versions: int = 0
    buckets_per_version: int = 0
    tensors: int = 0
    bytes_per_version: int = 0
    seconds: float = 0.0
    mismatches: list = field(default_factory=list)
    error: str = ""

    @property
    def gbps(self) -> float:
        return self.bytes_per_version * self.versions / self.seconds / 1e9 if self.seconds else 0.0

    def summary(self) -> str:
        if self.error:
            return f"{self.backend}: ERROR {self.error}"
        state = "bitwise equal" if self.ok else f"{len(self.mismatches)} MISMATCH(ES): {self.mismatches[0]}"
        return (f"{self.backend} ({self.resolved}): {self.versions} versions x {self.buckets_per_version} buckets, "
                f"{self.tensors} tensors, {self.gbps:.2f} GB/s, {state}")
