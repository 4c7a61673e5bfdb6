"""Trainer -> rollout weight sync through verl's own checkpoint engines.

  collective  verl.checkpoint_engine's collective engine ("nccl"): HCCLCheckpointEngine on
              Ascend; on the CPU stand-in the same class with verl_image.cpu_standin's patches
              (a mock torch.npu, CPU buffers, gloo under PyHccl's calls)
  mooncake    MooncakeCheckpointEngine: ascend_direct on NPU, TCP on the CPU stand-in

The harness plays verl's CheckpointEngineManager over a TCPStore (prepare -> build_topology ->
init_process_group -> send/receive -> finalize, once per weight version), so verl's bucketing,
double buffering and completion slots are what runs. The trainer sends checksums of what it
handed the engine (cast to the rollout dtype on the device, as verl does); the rollout checks
every tensor it received against them, bit for bit.
"""

from dataclasses import asdict, dataclass, field

BACKENDS = {"collective": "nccl", "mooncake": "mooncake"}  # our name -> verl's registry name


@dataclass
class SyncConfig:
    backend: str = "collective"  # collective | mooncake
    versions: int = 3
    bucket_bytes: int = 256 << 10
    payload: str = "model"  # model | synthetic:<MiB>
    reader_delay_s: float = 0.0  # the rollout starts reading each version late: stale completion slots show
    faults: tuple = ()
    rollout_dtype: str = "bfloat16"
    timeout_s: float = 240.0

    def as_dict(self):
        return asdict(self)


@dataclass
class SyncReport:
    ok: bool
    backend: str
    engine: str = ""
    versions: int = 0
    tensors: int = 0
    buckets: int = 0
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
        return (f"{self.backend} ({self.engine}): {self.versions} versions of {self.tensors} tensors in "
                f"{self.buckets} buckets, {self.gbps:.3f} GB/s, {state}")
