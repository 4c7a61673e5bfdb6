"""Weight sync through Mooncake's TransferEngine with completion slots.

Trainer: two bucket buffers and two 4-byte completion slots, all registered. For
bucket i it packs into buffer i%2 (after consuming slot i%2's marker for bucket i-2),
then publishes the layout, the buffer's address and the slot's address.
Rollout: reads the bucket with transfer_sync_read, unpacks it, then writes MAGIC into
the trainer's slot with transfer_sync_write: "done with that buffer".
At the end of a version the trainer drains *both* slots. Without that drain (verl's
bug, `drain_slots=False`) the marker of the second-to-last bucket stays set, and in
the next version the trainer takes that stale marker as leave to overwrite a buffer
the rollout has not read yet.
"""

from __future__ import annotations

import json
import socket
import time

from . import buckets

MAGIC = (0xAB, 0xDC, 0xEF, 0x88)
POLL_S = 0.0002


class Endpoint:
    """One TransferEngine with registered buffers; `role` is trainer or rollout."""

    def __init__(self, cfg, device, host: str):
        import torch
        from mooncake.engine import TransferEngine

        self.engine = TransferEngine()
        ret = self.engine.initialize(host, "P2PHANDSHAKE", device.mooncake_protocol, "")
        if ret != 0:
            raise RuntimeError(f"TransferEngine.initialize({host}, P2PHANDSHAKE, {device.mooncake_protocol}) = {ret}")
        self.session = f"{host}:{self.engine.get_rpc_port()}"
        self.bucket_bytes = cfg.bucket_bytes
        self.buffer = torch.zeros(2 * cfg.bucket_bytes, dtype=torch.uint8, device=device.torch_device)
        self.slots = torch.zeros(8, dtype=torch.uint8, device=device.torch_device)
        self.magic = torch.tensor(MAGIC, dtype=torch.uint8, device=device.torch_device)
        self.magic_value = self.magic.clone()
        for tensor in (self.buffer, self.slots, self.magic):
            ret = self.engine.register_memory(tensor.data_ptr(), tensor.numel())
            if ret != 0:
                raise RuntimeError(f"register_memory failed: {ret}")

    def half(self, index: int):
        start = (index % 2) * self.bucket_bytes
        return self.buffer[start:start + self.bucket_bytes]

    def slot(self, index: int):
        start = (index % 2) * 4
        return self.slots[start:start + 4]

    def consume(self, index: int, timeout_s: float) -> None:
        """Wait for the rollout's completion marker in slot index%2, then clear it."""
        import torch

        slot, deadline = self.slot(index), time.monotonic() + timeout_s
        while not torch.equal(slot, self.magic_value):
            if time.monotonic() > deadline:
                raise TimeoutError(f"completion slot {index % 2} was never set (bucket {index})")
            time.sleep(POLL_S)
        slot.zero_()


def local_host() -> str:
    """An address the peer can reach: loopback in one container, the container IP across two."""
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"
    return address


def send(store, cfg, endpoint: Endpoint, device, version: int, tensors: dict, plan: list) -> None:
    count = len(plan)
    for index, bucket in enumerate(plan):
        if index >= 2:
            endpoint.consume(index - 2, cfg.timeout_s)
        target = endpoint.half(index)
        buckets.pack(bucket, tensors, target)
        device.synchronize()
        store.set(f"mc/v{version}/b{index}", json.dumps({
            "items": buckets.to_wire(bucket), "ptr": target.data_ptr(), "slot": endpoint.slot(index).data_ptr(),
            "len": buckets.length(bucket), "last": index == count - 1}))
    if cfg.drain_slots:
        for index in range(max(0, count - 2), count):
            endpoint.consume(index, cfg.timeout_s)
    else:
        endpoint.consume(count - 1, cfg.timeout_s)  # the bug: bucket count-2's marker is left behind


def receive(store, cfg, endpoint: Endpoint, device, version: int, trainer_session: str, on_bucket) -> float:
    """Read one version; returns the seconds from the first bucket's announcement to the last."""
    index, started = 0, None
    while True:
        message = json.loads(store.get(f"mc/v{version}/b{index}"))
        started = started or time.monotonic()
        if cfg.reader_delay_s:
            time.sleep(cfg.reader_delay_s)
        local = endpoint.half(index)[:message["len"]]
        ret = endpoint.engine.transfer_sync_read(trainer_session, local.data_ptr(), message["ptr"], message["len"])
        if ret != 0:
            raise RuntimeError(f"transfer_sync_read of bucket {index} failed: {ret}")
        on_bucket(index, buckets.from_wire(message["items"]), local)
        device.synchronize()
        ret = endpoint.engine.transfer_sync_write(trainer_session, endpoint.magic.data_ptr(), message["slot"], 4)
        if ret != 0:
            raise RuntimeError(f"completion write for bucket {index} failed: {ret}")
        if message["last"]:
            return time.monotonic() - started
        index += 1
