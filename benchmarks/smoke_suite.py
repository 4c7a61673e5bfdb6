#!/usr/bin/env python3
"""The smoke suite inside a built image, limited to N CPUs: seconds per check and sync GB/s.

    python benchmarks/smoke_suite.py [IMAGE] [--cpus 2]
"""

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verlimage import engine, smoke  # noqa: E402
from verlimage.manifest import load_manifest  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("image", nargs="?", default="cpu")
    parser.add_argument("--cpus", type=float, default=2.0)
    args = parser.parse_args()
    manifest = load_manifest(REPO / "pins.yaml")
    reference = f"{manifest.repository}:{args.image}"
    api = engine.client()
    outcome = smoke.run(api, args.image, reference, echo=False, cpus=args.cpus)
    print(f"smoke suite in {reference}, {args.cpus:g} CPUs: {'PASSED' if outcome.passed else 'FAILED'}\n")
    print("| check | result | seconds |")
    print("|---|---|---|")
    for result in outcome.results:
        print(f"| {result['name']} | {'pass' if result['passed'] else 'FAIL'} | {result['seconds']:.1f} |")
    total = sum(r["seconds"] for r in outcome.results)
    print(f"| **total** (checks) | | {total:.1f} |\n")
    print("| backend | GB/s (256 MiB, 64 MiB buckets) | GB/s (model, 256 KiB buckets, slow reader for mooncake) |")
    print("|---|---|---|")
    for backend in ("nccl", "mooncake"):
        print(f"| {backend} | {outcome.metrics.get(f'sync.{backend}.synthetic.gbps', float('nan')):.2f} | "
              f"{outcome.metrics.get(f'sync.{backend}.model.gbps', float('nan')):.3f} |")


if __name__ == "__main__":
    main()
