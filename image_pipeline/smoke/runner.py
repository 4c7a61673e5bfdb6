"""Host runner for the smoke suite: run it inside an image, keep logs and diagnostics, judge it.

The suite is judged by its results (results.json: every selected check PASS), never by how
soon it printed: a quiet start is noted in the diagnostics, not failed. --only and --fault
are checked against smoke_tests/checks.json here, before any container starts. SMOKE_*
variables of the host (SMOKE_PERF_GATE, SMOKE_TIMEOUT_SCALE) reach the container.
Artifacts of a run land in artifacts/<image>/<run>/: LOG (the tee'd container output),
run.json, junit.xml, metrics.txt, results.json, per-check logs, each training check's loss curve over
its baseline (<check>.loss.png), and on failure diagnostics.txt (with what each failed check left).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ..builder import engine
from ..builder.image_config import CONTENT_LABEL, SBOM_PATH, TREE_INPUTS_LABEL
from ..errors import UserError
from ..host.passthrough import NpuPassthrough, container_options, detect_npu
from ..manifest.model import arch_of
from ..paths import REPO, SMOKE, VERL_TESTS_RECORD
from . import plot

LOG_WAIT_CAP_S = 60.0
LOG_WAIT_POLL_S = 10.0
RUN_TIMEOUT_S = 3600
# Another architecture runs under QEMU user emulation, measured 5-10x slower here (benchmarks/arch.py):
# every check's timeout (and the run's) stretches by this factor, unless SMOKE_TIMEOUT_SCALE says otherwise.
EMULATION_SLOWDOWN = 10
# Under QEMU, aarch64 torch's default matmul paths take SVE kernels (OpenBLAS's, oneDNN/ACL's) that QEMU
# runs ~1000x slower than native; NEON kernels run ~15x faster there. Measured here: 20 training steps
# of the smoke model time out at 300 s without these, take ~60 s with them. Results stay within the
# baseline's tolerance; on real hardware none of this is set.
EMULATION_ENV = {"linux/arm64": {"OPENBLAS_CORETYPE": "ARMV8", "TORCH_MKLDNN_MATMUL_MIN_DIM": "1000000"}}
CHECKS_FILE = REPO / SMOKE / "checks.json"
TEST_TOOLS = "/opt/verl-image-test-tools"  # where verl-tests mounts the locked test tools


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
    quiet_start: bool = False

    @property
    def log(self) -> Path:
        return self.directory / "LOG"

    def status_of(self, name: str) -> str:
        return next((r["status"] for r in self.results if r["name"] == name), "missing")


def known() -> tuple:
    """(check names, fault names) from the suite's own table."""
    table = json.loads(CHECKS_FILE.read_text())
    return [c["name"] for c in table["checks"]], [f["name"] for f in table["faults"]]


def validate(only: str, faults) -> None:
    """Refuse unknown --only and --fault values before a container starts (exit 2)."""
    checks, fault_names = known()
    for fault in faults:
        if fault not in fault_names:
            raise UserError(f"unknown fault {fault!r} (known: {', '.join(fault_names)})", key="--fault")
    for wanted in filter(None, (w.strip() for w in only.split(","))):
        if not any(c == wanted or c.startswith(wanted + ".") for c in checks):
            raise UserError(f"no check matches {wanted!r} (checks: {', '.join(checks)})", key="--only")


def run_dir(image: str, base: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    path = base / image / f"{stamp}-{os.getpid()}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def passthrough_env(env: dict | None) -> dict:
    out = {"PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1", "TORCH_CPP_LOG_LEVEL": "ERROR", "GLOG_minloglevel": "2"}
    out.update({k: v for k, v in os.environ.items() if k.startswith("SMOKE_")})
    out.update(env or {})
    return out


def run(api, image: str, reference: str, *, artifacts: Path, platform: str | None = None, only: str = "",
        faults=(), extended=False, env=None, pins: Path | None = None, bypass_entrypoint=False,
        log_wait_cap: float = LOG_WAIT_CAP_S, log_wait_poll: float = LOG_WAIT_POLL_S,
        timeout: float = RUN_TIMEOUT_S, npu: NpuPassthrough | None = None, echo=True, cpus: float | None = None,
        extra_volumes: dict | None = None, stage: str = "", promotion=False) -> SmokeRun:
    """Run `python -m smoke_tests` in a container of `reference`; never raises for a failing suite.
    promotion: the run a local promotion waits for (the suite's --promotion)."""
    validate(only, faults)
    if platform and platform != engine.host_platform():
        env = {"SMOKE_TIMEOUT_SCALE": os.environ.get("SMOKE_TIMEOUT_SCALE", str(EMULATION_SLOWDOWN)),
               **EMULATION_ENV.get(platform, {}), **(env or {})}
        timeout *= EMULATION_SLOWDOWN
    outcome = SmokeRun(image, reference, run_dir(image, artifacts))
    outcome.directory.chmod(0o777)
    labels = api.images.get(reference).labels or {}
    (outcome.directory / "run.json").write_text(json.dumps({
        "image": image, "reference": reference, "platform": platform or "", "faults": list(faults), "stage": stage,
        "content_hash": labels.get(CONTENT_LABEL, ""), "tree_inputs": labels.get(TREE_INPUTS_LABEL, "")}))
    args = ["-m", "smoke_tests", "--artifacts", "/artifacts"] + (["--only", only] if only else [])
    args += [part for fault in faults for part in ("--fault", fault)] + (["--extended"] if extended else [])
    args += ["--promotion"] if promotion else []
    options = container_options(npu if npu is not None else detect_npu())
    options["volumes"] = {str(outcome.directory): {"bind": "/artifacts", "mode": "rw"}, **options["volumes"],
                          **(extra_volumes or {})}
    if pins is not None:
        options["volumes"][str(pins)] = {"bind": "/etc/verl-image/pins.json", "mode": "ro"}
    container = api.containers.run(
        reference, args if bypass_entrypoint else ["python", *args], detach=True, network_mode="none",
        environment=passthrough_env(env), platform=platform, entrypoint=["python"] if bypass_entrypoint else None,
        nano_cpus=int(cpus * 1e9) if cpus else None, **options)
    try:
        streamer = threading.Thread(target=_tee, args=(container, outcome.log, echo), daemon=True)
        streamer.start()
        outcome.quiet_start = not wait_for_log(outcome.log, log_wait_cap, log_wait_poll)
        try:
            outcome.exit_code = container.wait(timeout=timeout)["StatusCode"]
        except Exception:
            outcome.reason = f"did not finish within {timeout:.0f} s"
            container.kill()
        streamer.join(timeout=30)
        collect(outcome)
        _keep_sbom(container, outcome.directory)
        plot.write_loss_plots(outcome.directory)
        if not outcome.passed:
            write_diagnostics(outcome, container)
    finally:
        container.remove(force=True)
    return outcome


def _keep_sbom(container, directory: Path) -> None:
    """The image's SBOM next to the run's results (images built before it existed have none)."""
    import docker.errors

    try:
        stream, _ = container.get_archive(SBOM_PATH)
    except docker.errors.NotFound:
        return
    with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
        (directory / Path(SBOM_PATH).name).write_bytes(tar.extractfile(tar.next()).read())


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


def baseline_file(root: Path, image, platform: str) -> Path:
    """smoke_tests/baselines/<image>.<device>.<arch>.txt: the training baseline of the image on that platform."""
    return root / SMOKE / "baselines" / f"{image.name}.{image.device}.{arch_of(platform)}.txt"


def parse_metrics(text: str) -> dict:
    """metrics.txt: one `key:value` per line (the suite's output format)."""
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and not line.startswith("#"):
            values[key.strip()] = float(value)
    return values


def collect(outcome: SmokeRun) -> None:
    """Read a finished run's results and metrics from its directory; passed only with exit code 0 and every
    check PASS or MEASURED."""
    results = outcome.directory / "results.json"
    if results.exists():
        outcome.results = json.loads(results.read_text())
    metrics_file = outcome.directory / "metrics.txt"
    if metrics_file.exists():
        outcome.metrics = parse_metrics(metrics_file.read_text())
    bad = [f"{r['name']} {r['status']}" for r in outcome.results if r["status"] not in ("PASS", "MEASURED")]
    outcome.passed = outcome.exit_code == 0 and bool(outcome.results) and not bad and not outcome.reason
    if not outcome.passed and not outcome.reason:
        outcome.reason = (", ".join(bad) if bad else f"suite exited {outcome.exit_code}"
                          + ("" if outcome.results else " without results"))


def write_diagnostics(outcome: SmokeRun, container) -> Path:
    """Each diagnostic may fail on its own without hiding the others."""
    sections = [
        ("ls -l LOG", lambda: _command(["ls", "-l", str(outcome.log)])),
        ("wc -c LOG", lambda: _command(["wc", "-c", str(outcome.log)])),
        ("tail -c 4096 LOG", lambda: _tail(outcome.log, 4096)),
        ("first output", lambda: "none within the log wait (not a failure by itself)" if outcome.quiet_start
         else "within the log wait"),
        ("container state", lambda: json.dumps(_state(container), indent=1)),
        ("exit code", lambda: str(outcome.exit_code)),
        ("OOMKilled", lambda: str(_state(container).get("OOMKilled"))),
        ("npu-smi info", lambda: _command(["npu-smi", "info"])),
    ]
    # what a check left for a failure (a training check: its trainer's logs, ls -l / wc -c / tail -c 4096)
    sections += [(path.name, path.read_text) for path in sorted(outcome.directory.glob("*.diagnostics.txt"))]
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
        lines.append(f"  {result['name']:<30} {result['status']:<8} {result['seconds']:6.1f}s  {result['detail'][:100]}")
    return "\n".join(lines)


def record_verl_tests(root: Path, image: str, platform: str, summary: Path) -> None:
    """Keep the counts of a verl-tests run in records/verl_tests.json (the README shows them)."""
    from ..files import atomic_write

    path = root / VERL_TESTS_RECORD
    data = json.loads(path.read_text())
    found = json.loads(summary.read_text())
    data["measured"][f"{image} {platform}"] = {k: found[k] for k in ("verl", "files", "collected", "passed", "failed",
                                                                     "skipped", "deselected")}
    atomic_write(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def require_reference(api, reference: str) -> None:
    from ..builder.engine import image_id

    if not image_id(api, reference):
        raise UserError(f"image {reference} does not exist: build it with `python build.py image`")
