"""Host runner for the smoke suite: run it inside an image, keep logs and diagnostics.

Artifacts of a run land in artifacts/<image>/<run>/: LOG (the tee'd container output),
junit.xml, metrics.txt, results.json, per-check logs, and on failure diagnostics.txt.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .errors import UserError
from .paths import ARTIFACTS_DIR

LOG_WAIT_CAP_S = 60.0
LOG_WAIT_POLL_S = 10.0
RUN_TIMEOUT_S = 1200
NPU_DEVICES = ("/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc")
NPU_MOUNTS = ("/usr/local/dcmi", "/usr/local/bin/npu-smi", "/usr/local/Ascend/driver/lib64",
              "/usr/local/Ascend/driver/version.info", "/etc/ascend_install.info", "/etc/hccn.conf")


@dataclass
class SmokeRun:
    image: str
    reference: str
    directory: Path
    exit_code: int | None = None
    passed: bool = False
    reason: str = ""
    results: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)

    @property
    def log(self) -> Path:
        return self.directory / "LOG"


@dataclass(frozen=True)
class NpuPassthrough:
    devices: tuple
    mounts: tuple

    @property
    def present(self) -> bool:
        return any("davinci" in d and d[-1].isdigit() for d in self.devices)


def detect_npu(dev_root: str = "/", exists=os.path.exists) -> NpuPassthrough:
    """Ascend device nodes and driver paths of this host, as `docker run` needs them."""
    root = dev_root.rstrip("/")
    numbered = sorted(glob.glob(f"{root}/dev/davinci[0-9]*"), key=lambda p: int(p.rsplit("davinci", 1)[1]))
    if not numbered:
        return NpuPassthrough((), ())
    devices = [p.removeprefix(root) for p in numbered]
    devices += [d for d in NPU_DEVICES if exists(root + d)]
    mounts = tuple(m for m in NPU_MOUNTS if exists(root + m))
    return NpuPassthrough(tuple(devices), mounts)


def run_dir(image: str, base: Path = ARTIFACTS_DIR) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = base / image / f"{stamp}-{os.getpid()}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def run(api, image: str, reference: str, *, only: str = "", faults=(), env=None, artifacts: Path = ARTIFACTS_DIR,
        log_wait_cap: float = LOG_WAIT_CAP_S, log_wait_poll: float = LOG_WAIT_POLL_S,
        timeout: float = RUN_TIMEOUT_S, npu: NpuPassthrough | None = None, echo=True,
        cpus: float | None = None) -> SmokeRun:
    """Run `python -m smoke_tests` in a container of `reference`; never raises for a failing suite."""
    outcome = SmokeRun(image, reference, run_dir(image, artifacts))
    outcome.directory.chmod(0o777)
    command = ["python", "-m", "smoke_tests", "--artifacts", "/artifacts"]
    command += ["--only", only] if only else []
    for fault in faults:
        command += ["--fault", fault]
    npu = npu if npu is not None else detect_npu()
    container = api.containers.run(
        reference, command, detach=True, working_dir="/opt/verl-image", network_mode="none", shm_size="2g",
        environment={"PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1", "TORCH_CPP_LOG_LEVEL": "ERROR",
                     "GLOG_minloglevel": "2", **(env or {})},
        volumes={str(outcome.directory): {"bind": "/artifacts", "mode": "rw"},
                 **{m: {"bind": m, "mode": "ro"} for m in npu.mounts}},
        devices=[f"{d}:{d}:rwm" for d in npu.devices], nano_cpus=int(cpus * 1e9) if cpus else None)
    try:
        streamer = threading.Thread(target=_tee, args=(container, outcome.log, echo), daemon=True)
        streamer.start()
        if not wait_for_log(outcome.log, log_wait_cap, log_wait_poll):
            outcome.reason = f"no output within {log_wait_cap:.0f} s"
        try:
            outcome.exit_code = container.wait(timeout=timeout)["StatusCode"]
        except Exception:
            outcome.reason = outcome.reason or f"did not finish within {timeout:.0f} s"
            container.kill()
        streamer.join(timeout=30)
        _collect(outcome)
        if not outcome.passed:
            write_diagnostics(outcome, container)
    finally:
        container.remove(force=True)
    return outcome


def _tee(container, log: Path, echo: bool) -> None:
    with open(log, "ab", buffering=0) as out:
        pending = b""
        for chunk in container.logs(stream=True, follow=True):
            out.write(chunk)
            if echo:
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    sys.stdout.write(line.decode(errors="replace") + "\n")
                sys.stdout.flush()


def wait_for_log(log: Path, cap: float, poll: float, sleep=time.sleep, clock=time.monotonic) -> bool:
    """Bounded wait for the log to become non-empty (`test -s`), checked every `poll` seconds."""
    deadline = clock() + cap
    while True:
        if log.exists() and log.stat().st_size > 0:
            return True
        remaining = deadline - clock()
        if remaining <= 0:
            return False
        sleep(min(poll, remaining))


def _collect(outcome: SmokeRun) -> None:
    results = outcome.directory / "results.json"
    if results.exists():
        outcome.results = json.loads(results.read_text())
    metrics_file = outcome.directory / "metrics.txt"
    if metrics_file.exists():
        from smoke_tests.metrics import parse

        outcome.metrics = parse(metrics_file.read_text())
    failed = [r["name"] for r in outcome.results if not r["passed"]]
    outcome.passed = outcome.exit_code == 0 and bool(outcome.results) and not failed and not outcome.reason
    if not outcome.passed and not outcome.reason:
        outcome.reason = (f"failed: {', '.join(failed)}" if failed
                          else f"suite exited {outcome.exit_code} without results")


def write_diagnostics(outcome: SmokeRun, container) -> Path:
    """Each diagnostic may fail on its own without hiding the others."""
    sections = [
        ("ls -l LOG", lambda: _command(["ls", "-l", str(outcome.log)])),
        ("wc -c LOG", lambda: _command(["wc", "-c", str(outcome.log)])),
        ("tail -c 4096 LOG", lambda: _tail(outcome.log, 4096)),
        ("container state", lambda: json.dumps(_state(container), indent=1)),
        ("exit code", lambda: str(outcome.exit_code)),
        ("OOMKilled", lambda: str(_state(container).get("OOMKilled"))),
        ("npu-smi info", lambda: _command(["npu-smi", "info"])),
    ]
    lines = [f"smoke diagnostics for {outcome.reference}: {outcome.reason}"]
    for title, produce in sections:
        try:
            body = produce()
        except Exception as exc:  # a diagnostic that fails says so and the next one still runs
            body = f"(unavailable: {type(exc).__name__}: {exc})"
        lines += [f"=== {title}", body.rstrip()]
    path = outcome.directory / "diagnostics.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def _state(container) -> dict:
    container.reload()
    return container.attrs.get("State", {})


def _command(argv) -> str:
    if not shutil.which(argv[0]):
        raise FileNotFoundError(f"{argv[0]} is not installed here")
    result = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    return result.stdout + result.stderr


def _tail(path: Path, count: int) -> str:
    with open(path, "rb") as handle:
        handle.seek(max(0, path.stat().st_size - count))
        return handle.read().decode(errors="replace")


def summary_table(outcome: SmokeRun) -> str:
    lines = [f"smoke {outcome.reference}: {'PASSED' if outcome.passed else 'FAILED'}"
             + ("" if outcome.passed else f" ({outcome.reason})"), f"artifacts: {outcome.directory}"]
    for result in outcome.results:
        lines.append(f"  {result['name']:<30} {'PASS' if result['passed'] else 'FAIL'}  {result['seconds']:6.1f}s  "
                     f"{result['detail'][:100]}")
    return "\n".join(lines)


def require_reference(api, reference: str) -> None:
    from .engine import image_id

    if not image_id(api, reference):
        raise UserError(f"image {reference} does not exist: build it with `python build.py image`")
