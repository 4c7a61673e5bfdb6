"""Run verl's checkpoint engines between a trainer (rank 0) and a rollout (rank 1) and check every byte.

verl's CheckpointEngineManager drives the engines through Ray; here each rank follows the same
sequence per weight version, coordinated through a TCPStore (no Ray cluster): prepare ->
build_topology -> init_process_group -> send_weights | receive_weights -> finalize (after both
ranks are done). Local mode spawns both ranks in this container; cross-container mode runs one
rank per container (`python -m smoke_tests.sync --role ...`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import os
import pickle
import time
import traceback
from datetime import timedelta

from . import SyncConfig, SyncReport
from .. import tinymodel

STORE_TIMEOUT = timedelta(seconds=300)
CORRUPTED_BYTE = 0x5A


def trainer_weights(cfg: SyncConfig, version: int, device: str) -> list:
    """The trainer's master weights (fp32, on the device) at `version`; every tensor changes each version."""
    import torch

    if cfg.payload == "model":
        state = tinymodel.build(seed=0).state_dict()
        generator = torch.Generator().manual_seed(1000 + version)
        return [(name, (t + 0.02 * torch.randn(t.shape, generator=generator)).contiguous().to(device))
                for name, t in state.items()]
    mib = int(cfg.payload.split(":", 1)[1])
    chunk = 16 << 20  # bytes of the rollout dtype per tensor
    generator = torch.Generator().manual_seed(2000 + version)
    return [(f"synthetic.{i}", torch.randn(chunk // 2, generator=generator).to(device))
            for i in range(max(1, (mib << 20) // chunk))]


def checksum(tensor) -> str:
    import torch

    return hashlib.sha256(tensor.detach().contiguous().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()


def connect(host: str, port: int, master: bool):
    import torch.distributed as dist

    return dist.TCPStore(host, port, is_master=master, timeout=STORE_TIMEOUT, wait_for_workers=False)


def _exchange(store, key: str, rank: int, world: int, value) -> list:
    store.set(f"{key}/{rank}", pickle.dumps(value))
    return [pickle.loads(store.get(f"{key}/{i}")) for i in range(world)]


def _barrier(store, key: str, world: int, timeout_s: float) -> None:
    store.add(key, 1)
    deadline = time.monotonic() + timeout_s
    while store.add(key, 0) < world:
        if time.monotonic() > deadline:
            raise TimeoutError(f"barrier {key}: the other rank never arrived")
        time.sleep(0.01)


class BucketCount:
    """Stands in front of the channel verl's engine receives each bucket's metadata on, and counts the
    buckets verl received: what the engine did, not what the harness expects it to do."""
    CHANNELS = {"mooncake": ("store", "recv_obj"), "collective": ("socket", "recv_pyobj")}

    def __init__(self, engine, backend: str):
        attribute, self.method = self.CHANNELS[backend]
        self.channel = getattr(engine, attribute)
        self.count = 0
        setattr(engine, attribute, self)

    def __getattr__(self, name):
        value = getattr(self.channel, name)
        if name != self.method:
            return value

        def counted(*args, **kwargs):
            message = value(*args, **kwargs)
            if isinstance(message, dict) and "bucket_meta" in message:
                self.count += 1
            return message
        return counted


PROBE, PROBE_END = b"probe", b"end"
PROBE_INTERVAL_S = 0.01


def publish_until_subscribed(socket, topic: str, subscribed, timeout_s: float) -> None:
    """The trainer's half of the metadata channel's handshake: publish probes on verl's own topic until
    the rollout says one arrived, then an end marker."""
    deadline = time.monotonic() + timeout_s
    while not subscribed():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no probe on verl's metadata topic reached the rollout in {timeout_s:.0f} s: "
                               f"its subscription never arrived at the trainer")
        socket.send_multipart([topic.encode(), PROBE])
        time.sleep(PROBE_INTERVAL_S)
    socket.send_multipart([topic.encode(), PROBE_END])


def await_subscription(socket, acknowledge, timeout_s: float) -> None:
    """The rollout's half: wait for a probe, acknowledge it, and read up to the end marker, so verl's
    own reads start at its first bucket. Every later read on the socket (verl's) fails after timeout_s
    instead of waiting forever on a message that will not come."""
    import zmq

    socket.setsockopt(zmq.RCVTIMEO, int(timeout_s * 1000))
    try:
        _, payload = socket.recv_multipart()
        acknowledge()
        while payload != PROBE_END:
            _, payload = socket.recv_multipart()
    except zmq.Again:
        raise TimeoutError(f"no probe from the trainer on verl's metadata topic in {timeout_s:.0f} s") from None


def _settle_metadata_channel(engine, store, rank: int, version: int, timeout_s: float) -> None:
    """verl's collective engine publishes each bucket's metadata on a zmq PUB socket right after the
    all_reduce that follows the rollout's SUB connect. A subscription still on its way is not held by
    that barrier (zmq's slow joiner, libzmq#4713): the first bucket's metadata is dropped, the rollout
    waits on it forever and the trainer's broadcast times out (seen once in CI across two containers).
    verl's manager has Ray round trips in that gap; the harness waits for the subscription itself."""
    key = f"v{version}/subscribed"
    if rank == 0:
        publish_until_subscribed(engine.socket, engine.topic, lambda: store.check([key]), timeout_s)
    else:
        await_subscription(engine.socket, lambda: store.set(key, "1"), timeout_s)


def _no_slot_drain(engine, exhausted: dict) -> None:
    """Fault: skip the completion-slot drain verl 0.9.1 added at the end of send_weights (0.9.0's bug).

    After the last weight is produced, send_weights waits on the last bucket's slot, then drains
    the other one; the second of those waits returns at once, leaving that slot's marker set."""
    wait = engine.wait_for_complete
    calls = {"after_last": 0}

    async def wait_for_complete(buf):
        if exhausted["done"]:
            calls["after_last"] += 1
            if calls["after_last"] == 2:
                return None
        return await wait(buf)

    engine.wait_for_complete = wait_for_complete
    exhausted["reset"] = lambda: calls.update(after_last=0)


async def _send(engine, cfg, weights, device, rollout_dtype, fault_state):
    """Hand verl the trainer's weights; the collective engine expects them cast already (on the
    device, as verl's actor does), the Mooncake engine casts them itself."""
    fault_state["done"] = False
    if "reset" in fault_state:
        fault_state["reset"]()

    def produce():
        for name, weight in weights:
            yield name, (weight.to(rollout_dtype) if cfg.backend == "collective" else weight)
        fault_state["done"] = True

    await engine.send_weights(produce())


async def _receive(engine, cfg, version) -> dict:
    import torch

    got = {}
    stream = engine.receive_weights()
    if cfg.reader_delay_s:
        await asyncio.sleep(cfg.reader_delay_s)  # a rollout slow to start reading each version
    async for name, tensor in stream:
        got[name] = tensor.clone()  # the rollout's copy, taken when verl hands the tensor over
    if "corrupt-byte" in cfg.faults and got and version == 1:
        flip_one_byte(got[next(iter(got))].reshape(-1).view(torch.uint8))  # one flipped byte in transit
    return got


def flip_one_byte(flat) -> None:
    """The corrupt-byte fault: the middle byte of a flat uint8 view (torch's or numpy's) XOR CORRUPTED_BYTE."""
    flat[len(flat) // 2] ^= CORRUPTED_BYTE


def run_rank(cfg: SyncConfig, rank: int, store, device_kind: str, loopback: bool) -> SyncReport | None:
    """One rank of a sync; the rollout (rank 1) returns the report, the trainer None."""
    import torch

    from ..device import for_pins
    from .adapt import engine_class, prepare_engines

    os.environ["RANK"] = str(rank)
    prepare_engines(device_kind, loopback=loopback)
    device = for_pins({"device": device_kind})
    rollout_dtype = getattr(torch, cfg.rollout_dtype)
    cls = engine_class(cfg.backend)
    kwargs = {"bucket_size": cfg.bucket_bytes, "is_master": rank == 0, "rollout_dtype": rollout_dtype}
    if cfg.backend == "mooncake":
        kwargs["device"] = device.torch_device
    engine = cls(**kwargs)
    fault_state = {"done": False}
    if rank == 0 and cfg.backend == "mooncake" and "no-slot-drain" in cfg.faults:
        _no_slot_drain(engine, fault_state)
    import verl

    report = SyncReport(ok=True, backend=cfg.backend, engine=f"verl {verl.__version__} {cls.__name__}",
                        versions=cfg.versions)
    for version in range(1, cfg.versions + 1):
        metas = _exchange(store, f"v{version}/meta", rank, 2, engine.prepare())
        trainer_kwargs, rollout_kwargs = cls.build_topology(1, 1, metas)
        mine = trainer_kwargs if rank == 0 else rollout_kwargs
        engine.init_process_group(**{key: values[0] for key, values in mine.items()})
        if cfg.backend == "collective":
            _settle_metadata_channel(engine, store, rank, version, cfg.timeout_s)
        buckets = BucketCount(engine, cfg.backend) if rank == 1 else None
        if rank == 0:
            weights = trainer_weights(cfg, version, device.torch_device)
            sums = {name: checksum(w.to(rollout_dtype)) for name, w in weights}
            store.set(f"v{version}/sums", json.dumps(sums))
            asyncio.run(asyncio.wait_for(_send(engine, cfg, weights, device, rollout_dtype, fault_state),
                                         cfg.timeout_s))
        else:
            started = time.monotonic()
            got = asyncio.run(asyncio.wait_for(_receive(engine, cfg, version), cfg.timeout_s))
            report.seconds += time.monotonic() - started - cfg.reader_delay_s
            sums = json.loads(store.get(f"v{version}/sums"))
            report.mismatches += compare(version, sums, got)
            report.tensors = len(sums)
            report.bytes_per_version = sum(t.numel() * t.element_size() for t in got.values())
            report.buckets = buckets.count
        _barrier(store, f"v{version}/done", 2, cfg.timeout_s)
        engine.finalize()
    report.ok = not report.mismatches
    return report if rank == 1 else None


def buckets_of(cfg: SyncConfig, dtype) -> int:
    """How many buckets a version will take (verl's rule: a new bucket when the next tensor does not fit),
    to choose parameters before a run; a run reports what verl's engine did (BucketCount)."""
    sizes = [w.numel() * dtype.itemsize for _, w in trainer_weights(cfg, 1, "cpu")]
    count, used = 1, 0
    for size in sizes:
        if used + size > cfg.bucket_bytes and used:
            count, used = count + 1, 0
        used += min(size, cfg.bucket_bytes)
    return count


def compare(version: int, sums: dict, got: dict, digest=None) -> list:
    """What the rollout got against the sha256 of each tensor the trainer sent: missing, changed, extra."""
    digest = digest or checksum
    problems = []
    for name, want in sums.items():
        if name not in got:
            problems.append(f"v{version} {name}: missing")
        elif digest(got[name]) != want:
            problems.append(f"v{version} {name}: bytes differ from what the trainer sent (sha256)")
    problems += [f"v{version} {name}: unexpected tensor" for name in got.keys() - sums.keys()]
    return problems


def _rank_process(cfg_dict, rank, port, device_kind, queue) -> None:
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    try:
        store = connect("127.0.0.1", port, master=False)
        report = run_rank(SyncConfig(**cfg_dict), rank, store, device_kind, loopback=True)
        queue.put((rank, report.__dict__ if report else None))
    except Exception as exc:  # reported to the parent as a failed sync, with the cause
        queue.put((rank, {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}))


def run_local(cfg: SyncConfig, device_kind: str) -> SyncReport:
    """Spawn trainer and rollout in this container. Each rank prepares verl's engines itself (run_rank):
    this process imports neither verl's engines nor the stand-in (22 s under QEMU)."""
    from verl_image import runtime_patch

    from .adapt import engine_environment

    engine_environment(device_kind)
    context = multiprocessing.get_context("spawn")
    store = connect("127.0.0.1", 0, master=True)
    queue = context.Queue()
    processes = [runtime_patch.spawn(context, _rank_process, (cfg.as_dict(), rank, store.port, device_kind, queue))
                 for rank in (0, 1)]
    for process in processes:
        process.start()
    results, deadline = {}, time.monotonic() + cfg.timeout_s * cfg.versions + 120
    try:
        while len(results) < 2 and time.monotonic() < deadline:
            try:
                rank, value = queue.get(timeout=1)
            except Exception:
                if not all(p.is_alive() for p in processes) and queue.empty():
                    break
                continue
            results[rank] = value
            if isinstance(value, dict) and value.get("error"):
                break
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    return _report(cfg, results)


def _report(cfg: SyncConfig, results: dict) -> SyncReport:
    for rank, role in ((0, "trainer"), (1, "rollout")):
        value = results.get(rank)
        if isinstance(value, dict) and value.get("error"):
            print(value.get("trace", ""), flush=True)
            return SyncReport(ok=False, backend=cfg.backend, error=f"{role}: {value['error']}")
    if not isinstance(results.get(1), dict):
        missing = [role for rank, role in ((0, "trainer"), (1, "rollout")) if rank not in results]
        return SyncReport(ok=False, backend=cfg.backend, error=f"{', '.join(missing) or 'rollout'} did not finish")
    return SyncReport(**results[1])
