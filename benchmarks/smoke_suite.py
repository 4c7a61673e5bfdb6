#!/usr/bin/env python3
"""The smoke suite inside the promoted image, limited to N CPUs: seconds per check and sync GB/s.

    python benchmarks/smoke_suite.py [IMAGE] [--platform linux/arm64] [--cpus 2] [--tag REF] [--only CHECKS]
                                     [--suite DIR]

--suite DIR: run it twice, with the image's own smoke_tests/ and then with DIR's smoke_tests/ bind-mounted
over it, side by side: a change to the suite measured before an image is rebuilt (DIR: another checkout,
e.g. `git worktree add /tmp/old REV`).
"""

import argparse
import sys
import tempfile
import time
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
    parser.add_argument("--only", default="", help="comma-separated check names or prefixes, as the suite's --only")
    parser.add_argument("--suite", type=Path, metavar="DIR",
                        help="also run with DIR's smoke_tests/ over the image's, and print both")
    args = parser.parse_args()
    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.image(args.image) if args.image else manifest.default_image
    platform = args.platform or engine.host_platform()
    reference = args.tag or f"{manifest.repository}:{image.name}-{arch_of(platform)}"
    suites = {"the image's suite": None}
    if args.suite:
        suite = (args.suite / "smoke_tests").resolve(strict=True)
        suites[f"{args.suite}'s suite"] = {str(suite): {"bind": "/opt/verl-image/smoke_tests", "mode": "ro"}}
    runs = {}
    for label, volumes in suites.items():
        with tempfile.TemporaryDirectory() as tmp:
            started = time.monotonic()
            outcome = runner.run(engine.client(), image.name, reference, artifacts=Path(tmp), platform=platform,
                                 echo=False, cpus=args.cpus, only=args.only, extra_volumes=volumes)
            runs[label] = (outcome, time.monotonic() - started)
    print(f"smoke suite in {reference} ({platform}), {args.cpus:g} CPUs"
          + (f", --only {args.only}" if args.only else "") + "\n")
    print(f"| check | {' | '.join(f'{label} s' for label in runs)} | detail |")
    print(f"|---|{'---|' * len(runs)}---|")
    names = [r["name"] for r in next(iter(runs.values()))[0].results]
    for name in names:
        found = [next((r for r in outcome.results if r["name"] == name), None) for outcome, _ in runs.values()]
        cells = [f"{r['seconds']:.1f} {r['status']}" if r else "-" for r in found]
        print(f"| {name} | {' | '.join(cells)} | {(found[-1] or {}).get('detail', '')[:80]} |")
    print(f"| **the container, start to end** | {' | '.join(f'{wall:.1f}' for _, wall in runs.values())} | "
          f"{', '.join(f'{label}: ' + ('PASSED' if o.passed else 'FAILED') for label, (o, _) in runs.items())} |")

if __name__ == "__main__":
    main()
