#!/usr/bin/env python3
"""Wall time of a weekly bump (`build.py bump transformers ... --dry-run`): every lock the bump moves
is re-resolved, by the build.py of BEFORE (a commit, checked out in a scratch worktree: one lock at a
time, each lock's two uv runs both asking the index) and by this tree's, one at a time (--jobs 1) and
one per core (the default).

    python benchmarks/bump_times.py [COMPONENT [BEFORE]]   (default: transformers aa44b727)

Each run starts from a scratch copy with uv's and the metadata cache warm (a first, untimed run fills
them). The index here sends no caching headers, so uv asks again for every page it needs on every run:
a lock is bound by round trips, not by the CPU. Needs PyPI.
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


def timed_bump(component: str, release: str, jobs: int, tmp: Path, build_py: Path = REPO / "build.py") -> tuple:
    root = copy_repo(tmp / f"jobs-{jobs}-{time.monotonic_ns()}")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(build_py), "--root", str(root), "bump", component, release,
                             "--dry-run", "--jobs", str(jobs), "--reason", "benchmark",
                             "--issue", "https://example.org/benchmark"], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode:
        raise SystemExit(f"bump {component} {release} failed: {result.stderr.strip()}")
    locks = sum(line.startswith("lock ") for line in result.stdout.splitlines())
    return seconds, locks


def main():
    component = sys.argv[1] if len(sys.argv) > 1 else "transformers"
    before = sys.argv[2] if len(sys.argv) > 2 else "aa44b727"
    comp = load_manifest(REPO / "pins.yaml").components[component]
    release = another_release(comp.dist, comp.version)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet", str(tmp / "before"), before],
                       check=True)
        try:
            timed_bump(component, release, default_jobs(), tmp)  # fills uv's and the metadata cache
            old = timed_bump(component, release, 1, tmp, tmp / "before" / "build.py")
            serial = timed_bump(component, release, 1, tmp)
            parallel = timed_bump(component, release, default_jobs(), tmp)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tmp / "before")], check=True)
    print(f"bump {component} {comp.version} -> {release} --dry-run on {os.cpu_count()} cores "
          f"(load average before: {os.getloadavg()[0]:.1f})")
    print("| build.py | locks at once | locks re-resolved | seconds | speed-up |")
    print("|---|---|---|---|---|")
    print(f"| {before} (both uv runs ask the index) | 1 | {old[1]} | {old[0]:.0f} | 1.00x |")
    for label, (seconds, locks) in (("1", serial), (f"{default_jobs()} (one per core)", parallel)):
        print(f"| this tree | {label} | {locks} | {seconds:.0f} | {old[0] / seconds:.2f}x |")


if __name__ == "__main__":
    main()
