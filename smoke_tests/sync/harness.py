"""Run a sync between a trainer and a rollout process and check every byte.

Local mode spawns both processes here (the parent hosts the rendezvous store);
cross-container mode runs one role per container (`python -m smoke_tests.sync --role`).
"""

from __future__ import annotations

import json
import os
import time
import traceback
from datetime import timedelta

from . import SyncConfig, SyncReport, buckets, collective, mooncake_sync
from .. import tinymodel

STORE_TIMEOUT = timedelta(seconds=120)


def weights(cfg: SyncConfig, version: int) -> dict:
    """The trainer's weights at `version`, cast to the rollout dtype (what must arrive)."""
    import torch

    dtype = getattr(torch, cfg.rollout_dtype)
    if cfg.payload == "model":
        return {name: t.to(dtype) for name, t in tinymodel.weights_for_version(version).items()}
    mib = int(cfg.payload.split(":", 1)[1])
    generator = torch.Generator().manual_seed(version)
    chunk = 16 << 20
    count = max(1, (mib << 20) // chunk)
    return {f"synthetic.{i}": torch.randn(chunk // dtype.itemsize, generator=generator).to(dtype)
            for i in range(count)}


def connect(host: str, port: int, master: bool):
    import torch.distributed as dist

    return dist.TCPStore(host, port, is_master=master, timeout=STORE_TIMEOUT, wait_for_workers=False)


def trainer(cfg: SyncConfig, store, own_host: str) -> None:
    """own_host: the address the rollout reaches this process at (Mooncake's session id)."""
    from ..device import pick, set_local_device

    device = pick()
    set_local_device(device, 0)
    endpoint = None
    if cfg.backend == "mooncake":
        endpoint = mooncake_sync.Endpoint(cfg, device, own_host)
        store.set("mc/trainer-session", endpoint.session)
    for version in range(cfg.versions):
        tensors = {k: v.to(device.torch_device) for k, v in weights(cfg, version).items()}
        plan = buckets.plan(tensors, cfg.bucket_bytes)
        if cfg.backend == "mooncake":
            mooncake_sync.send(store, cfg, endpoint, device, version, tensors, plan)
        else:
            collective.send(store, cfg, device, version, tensors, plan)
    store.wait(["rollout/done"])


def rollout(cfg: SyncConfig, store, own_host: str) -> SyncReport:
    from ..device import pick, resolve_backend, set_local_device

    device = pick()
    set_local_device(device, 1)
    resolved = (f"{device.mooncake_protocol}" if cfg.backend == "mooncake"
                else resolve_backend(cfg.backend, device))
    report = SyncReport(ok=True, backend=cfg.backend, resolved=resolved, versions=cfg.versions)
    endpoint, session = None, None
    if cfg.backend == "mooncake":
        endpoint = mooncake_sync.Endpoint(cfg, device, own_host)
        session = store.get("mc/trainer-session").decode()
    for version in range(cfg.versions):
        received = {}

        def on_bucket(index, layout, view, version=version):
            if tuple(cfg.corrupt) == (version, index):
                view[len(view) // 2] ^= 0x5A  # fault injection: one flipped byte in transit
            received.update(buckets.unpack(layout, view))
            report.buckets_per_version = max(report.buckets_per_version, index + 1)

        if cfg.backend == "mooncake":
            report.seconds += mooncake_sync.receive(store, cfg, endpoint, device, version, session, on_bucket)
        else:
            report.seconds += collective.receive(store, cfg, device, version, on_bucket)
        expected = weights(cfg, version)
        report.mismatches += compare(version, expected, received)
        report.tensors = len(expected)
        report.bytes_per_version = sum(t.numel() * t.element_size() for t in expected.values())
    report.ok = not report.mismatches
    store.set("rollout/done", "1")
    return report


def compare(version: int, expected: dict, received: dict) -> list:
    """Bitwise comparison; one line per tensor that differs or is missing."""
    import torch

    problems = []
    for name, want in expected.items():
        got = received.get(name)
        if got is None:
            problems.append(f"v{version} {name}: missing")
            continue
        a = want.detach().cpu().reshape(-1).view(torch.uint8)
        b = got.detach().cpu().reshape(-1).view(torch.uint8)
        if a.shape != b.shape:
            problems.append(f"v{version} {name}: {b.numel()} bytes, expected {a.numel()}")
            continue
        differ = (a != b).nonzero()
        if differ.numel():
            problems.append(f"v{version} {name}: {differ.numel()} of {a.numel()} bytes differ "
                            f"(first at byte {int(differ[0])})")
    for name in received.keys() - expected.keys():
        problems.append(f"v{version} {name}: unexpected tensor")
    return problems


def _role_main(role: str, cfg_dict: dict, host: str, port: int, queue) -> None:
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    os.environ.setdefault("MC_LOG_LEVEL", "ERROR")
    cfg = SyncConfig(**cfg_dict)
    try:
        store = connect(host, port, master=False)
        if role == "trainer":
            trainer(cfg, store, host)
            queue.put((role, None))
        else:
            queue.put((role, rollout(cfg, store, host).__dict__))
    except Exception as exc:  # reported to the parent as a failed sync, with the cause
        queue.put((role, {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}))


def run_local(cfg: SyncConfig) -> SyncReport:
    """Spawn trainer and rollout on this host and return the rollout's report."""
    import multiprocessing

    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    context = multiprocessing.get_context("spawn")
    store = connect("127.0.0.1", 0, master=True)
    queue = context.Queue()
    processes = [context.Process(target=_role_main, args=(role, cfg.as_dict(), "127.0.0.1", store.port, queue))
                 for role in ("trainer", "rollout")]
    for process in processes:
        process.start()
    results, deadline = {}, time.monotonic() + cfg.timeout_s
    try:
        while len(results) < 2 and time.monotonic() < deadline:
            try:
                role, value = queue.get(timeout=1)
            except Exception:
                if not all(p.is_alive() for p in processes) and queue.empty():
                    break
                continue
            results[role] = value
            if isinstance(value, dict) and value.get("error"):
                break
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
    return _report(cfg, results)


def _report(cfg: SyncConfig, results: dict) -> SyncReport:
    for role in ("trainer", "rollout"):
        value = results.get(role)
        if isinstance(value, dict) and value.get("error"):
            return SyncReport(ok=False, backend=cfg.backend, error=f"{role}: {value['error']}")
    value = results.get("rollout")
    if value is None:
        missing = [r for r in ("trainer", "rollout") if r not in results]
        return SyncReport(ok=False, backend=cfg.backend, error=f"{', '.join(missing)} did not finish "
                                                               f"within {cfg.timeout_s:.0f} s")
    return SyncReport(**value)


def report_json(report: SyncReport) -> str:
    return json.dumps({**report.__dict__, "gbps": report.gbps})
