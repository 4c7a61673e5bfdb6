#!/usr/bin/env python3
"""The smoke suite inside the promoted image, limited to N CPUs: seconds per check and sync GB/s.

    python benchmarks/smoke_suite.py [IMAGE] [--platform linux/arm64] [--cpus 2] [--tag REF]
"""

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline.builder import engine  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.manifest.model import arch_of  # noqa: E402
from image_pipeline.smoke import runner  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("image", nargs="?")
    parser.add_argument("--platform", default=None)
    parser.add_argument("--cpus", type=float, default=2.0)
    parser.add_argument("--tag", help="image reference to run instead of <repository>:<image>-<arch> (a candidate)")
    args = parser.parse_args()
    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.image(args.image) if args.image else manifest.default_image
    platform = args.platform or engine.host_platform()
    reference = args.tag or f"{manifest.repository}:{image.name}-{arch_of(platform)}"
    with tempfile.TemporaryDirectory() as tmp:
        outcome = runner.run(engine.client(), image.name, reference, artifacts=Path(tmp), platform=platform,
                             echo=False, cpus=args.cpus)
    print(f"smoke suite in {reference} ({platform}), {args.cpus:g} CPUs: {'PASSED' if outcome.passed else 'FAILED'}\n")
    print("| check | result | seconds | detail |")
    print("|---|---|---|---|")
    for result in outcome.results:
        print(f"| {result['name']} | {result['status']} | {result['seconds']:.1f} | {result['detail'][:80]} |")
    print(f"| **total** (checks) | | {sum(r['seconds'] for r in outcome.results):.1f} | |")


if __name__ == "__main__":
    main()
