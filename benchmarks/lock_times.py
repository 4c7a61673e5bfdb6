#!/usr/bin/env python3
"""Lock time of every image and platform with uv: cold (empty uv and metadata caches) and warm.

    python benchmarks/lock_times.py

Needs the package indexes (PyPI here). Nothing is written to images/: the locks are resolved and
compared with the committed ones.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline import network  # noqa: E402
from image_pipeline.lock.run import lock_all  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402


def timed_lock(manifest, cache: Path) -> tuple:
    started = time.perf_counter()
    out = lock_all(manifest, REPO, network.from_host(), cache, log=lambda _: None)
    seconds = time.perf_counter() - started
    same = sum(path.read_text() == text for path, text in out.items())
    return seconds, len(out), same


def main():
    manifest = load_manifest(REPO / "pins.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["UV_CACHE_DIR"] = str(Path(tmp) / "uv")
        cold = timed_lock(manifest, Path(tmp) / "metadata")
        warm = timed_lock(manifest, Path(tmp) / "metadata")
    print("| run | locks | seconds | identical to the committed locks |")
    print("|---|---|---|---|")
    for name, (seconds, count, same) in (("cold caches", cold), ("warm caches", warm)):
        print(f"| {name} | {count} | {seconds:.1f} | {same}/{count} |")


if __name__ == "__main__":
    main()
