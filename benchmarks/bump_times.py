#!/usr/bin/env python3
"""Wall time of a weekly bump (`build.py bump transformers ... --dry-run`): every lock the bump moves
is re-resolved, one at a time (--jobs 1, how bump ran before) and one per core (the default).

    python benchmarks/bump_times.py [COMPONENT]        (default: transformers)

Each run starts from a scratch copy with uv's and the metadata cache warm (a first, untimed run fills
them), so the two rows differ only in how many locks resolve at once. Needs PyPI.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from conftest import copy_repo  # noqa: E402
from image_pipeline.lock.run import default_jobs  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from test_layers import another_release  # noqa: E402


def timed_bump(component: str, release: str, jobs: int, tmp: Path) -> tuple:
    root = copy_repo(tmp / f"jobs-{jobs}-{time.monotonic_ns()}")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(REPO / "build.py"), "--root", str(root), "bump", component, release,
                             "--dry-run", "--jobs", str(jobs), "--reason", "benchmark",
                             "--issue", "https://example.org/benchmark"], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode:
        raise SystemExit(f"bump {component} {release} failed: {result.stderr.strip()}")
    locks = sum(line.startswith("lock ") for line in result.stdout.splitlines())
    return seconds, locks


def main():
    component = sys.argv[1] if len(sys.argv) > 1 else "transformers"
    comp = load_manifest(REPO / "pins.yaml").components[component]
    release = another_release(comp.dist, comp.version)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        timed_bump(component, release, default_jobs(), tmp)  # fills uv's and the metadata cache
        serial = timed_bump(component, release, 1, tmp)
        parallel = timed_bump(component, release, default_jobs(), tmp)
    print(f"bump {component} {comp.version} -> {release} --dry-run on {os.cpu_count()} cores "
          f"(load average before: {os.getloadavg()[0]:.1f})")
    print("| locks at once | locks re-resolved | seconds |")
    print("|---|---|---|")
    print(f"| 1 | {serial[1]} | {serial[0]:.0f} |")
    print(f"| {default_jobs()} (one per core) | {parallel[1]} | {parallel[0]:.0f} |")
    print(f"speed-up: {serial[0] / parallel[0]:.2f}x")


if __name__ == "__main__":
    main()
