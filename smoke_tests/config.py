"""Checkpoint-sync defaults: the one place they are written.

They mirror verl's checkpoint engine (``CheckpointEngineConfig`` and the NCCL/HCCL
engines' constructors); ``smoke_tests.conformance`` checks that the verl installed in
the image still agrees, and the README table is generated from ``SYNC_DEFAULTS``.
Importing this module must not need torch.
"""

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class SyncDefaults:
    backend: str = "nccl"
    update_weights_bucket_megabytes: int = 2048
    group_name: str = "default"
    rebuild_group: bool = False
    rollout_dtype: str = "bfloat16"
    mooncake_handshake: str = "P2PHANDSHAKE"

    @property
    def bucket_bytes(self) -> int:
        return self.update_weights_bucket_megabytes << 20


SYNC_DEFAULTS = SyncDefaults()

FIELD_DOCS = {
    "backend": "collective backend name; `nccl` resolves to HCCL on NPU, NCCL on CUDA, gloo on CPU",
    "update_weights_bucket_megabytes": "bucket size (MB << 20 bytes); raise to 1.2-1.5x the largest tensor",
    "group_name": "process-group name of the collective engine",
    "rebuild_group": "rebuild the process group on every update",
    "rollout_dtype": "dtype weights are cast to before they are sent",
    "mooncake_handshake": "Mooncake metadata mode (protocol: `ascend_direct` on NPU, `tcp` elsewhere)",
}

# Where verl keeps the same defaults: (module file relative to the verl package, class, field).
VERL_SOURCES = {
    "update_weights_bucket_megabytes": ("workers/config/rollout.py", "CheckpointEngineConfig", None),
    "group_name": ("checkpoint_engine/nccl_checkpoint_engine.py", "NCCLCheckpointEngine", "__init__"),
    "rebuild_group": ("checkpoint_engine/nccl_checkpoint_engine.py", "NCCLCheckpointEngine", "__init__"),
}


def rows():
    for item in fields(SyncDefaults):
        yield item.name, getattr(SYNC_DEFAULTS, item.name), FIELD_DOCS[item.name]
