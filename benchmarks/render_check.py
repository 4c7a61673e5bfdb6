#!/usr/bin/env python3
"""How long `build.py render --check` takes for all images: its own work, and the whole CLI process.

    python benchmarks/render_check.py [--repeat 20]
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline.cli import readme_blocks  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.render import tree  # noqa: E402


def own_work() -> float:
    started = time.perf_counter()
    manifest = load_manifest(REPO / "pins.yaml")
    problems = tree.drift(tree.render_all(manifest, REPO, readme_blocks()), manifest, REPO)
    elapsed = time.perf_counter() - started
    assert not problems, "the tree has drifted: run `make render` first"
    return elapsed


def whole_process() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, str(REPO / "build.py"), "render", "--check"], check=True, capture_output=True)
    return time.perf_counter() - started


def row(name, samples):
    ms = [s * 1000 for s in samples]
    return f"| {name} | {len(ms)} | {min(ms):.1f} | {statistics.median(ms):.1f} | {max(ms):.1f} |"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    own_work()  # warm imports and template cache out of the first sample
    images = len(load_manifest(REPO / "pins.yaml").images)
    print(f"render --check over {images} images (+ README blocks and lock fingerprints)\n")
    print("| measurement | runs | min ms | median ms | max ms |")
    print("|---|---|---|---|---|")
    print(row("load + validate + render + diff (in process)", [own_work() for _ in range(args.repeat)]))
    print(row("`python build.py render --check` (whole process)", [whole_process() for _ in range(max(3, args.repeat // 4))]))


if __name__ == "__main__":
    main()
