#!/usr/bin/env python3
"""arm64 beside amd64 on this x86 host: the default image's cold build and smoke suite natively, for
arm64 with its venv and layers of wheels made on this host (installer/cross_install.py; an sdist built into
its wheel under QEMU first: what `build.py image` does) and for arm64 with those made under QEMU too (as an
arm64 host does natively), each build's ratio to amd64's, and whether both arm64 builds hold the same layers.

    python benchmarks/arch.py [--no-emulated-install] [--no-smoke]

Every build starts from an empty layer cache with the wheelhouse already downloaded (the numbers are
the build itself, not the network); the bases are the bootstrapped ones. The emulated-install build is
smoke-tested only by its layers: every one must equal the cross-installed build's but the SBOM's
(which names the content hash, and that counts the install platform); the cross-installed one runs
the whole suite under QEMU. Takes tens of minutes.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline import network  # noqa: E402
from image_pipeline.builder import engine, pipeline, reproduce  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.smoke import runner  # noqa: E402

NATIVE, FOREIGN = engine.host_platform(), "linux/arm64" if engine.host_platform() == "linux/amd64" else "linux/amd64"
QUIET = {"log": lambda _: None}


def build(api, manifest, platform: str, install_platform: str) -> tuple:
    image, profile, cache = manifest.default_image, network.from_host(), REPO / ".cache"
    prepared = pipeline.prepare(api, manifest, image, platform, REPO, profile, cache=cache,
                                install_platform=install_platform, **QUIET)
    started = time.perf_counter()
    built = pipeline.build_candidate(api, manifest, image, platform, REPO, profile, prepared, plain=True,
                                     no_cache=True, cache=cache, **QUIET)
    return prepared.tags.candidate, built, time.perf_counter() - started


def smoke(api, manifest, platform: str, built: str, artifacts: Path) -> tuple:
    started = time.perf_counter()
    outcome = runner.run(api, manifest.default_image.name, built, artifacts=artifacts, platform=platform, echo=False)
    return time.perf_counter() - started, outcome.passed


def layers_differing(api, first: str, second: str) -> tuple:
    """How many layers the first image has, and the step of each that the second does not share."""
    a, b, steps = reproduce.layers_and_steps(api, first, second)
    return len(a), [steps[i] if i < len(steps) else f"layer {i}" for i in reproduce.differing_layers(a, b, steps)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-emulated-install", action="store_true", help="skip the third build (the slow one)")
    parser.add_argument("--no-smoke", action="store_true", help="time the builds only (the suites take most of the run)")
    args = parser.parse_args()
    api, manifest = engine.client(), load_manifest(REPO / "pins.yaml")
    rows, candidates = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for platform, install, how in ((NATIVE, NATIVE, "native"),
                                       (FOREIGN, NATIVE, "venv and wheels installed natively, apt, builds and checks under QEMU"),
                                       (FOREIGN, FOREIGN, "everything under QEMU")):
            if args.no_emulated_install and install == FOREIGN:
                continue
            tag, built, build_s = build(api, manifest, platform, install)
            suite = install == NATIVE and not args.no_smoke
            smoke_s, passed = smoke(api, manifest, platform, built, Path(tmp)) if suite else (None, None)
            rows.append((platform, how, build_s, smoke_s, passed, built))
            candidates.append(tag)
    native_s = rows[0][2]
    print(f"image {manifest.default_image.name} on an {NATIVE} host\n")
    print(f"| platform | how | cold build s | vs {NATIVE} | smoke suite s | passed |")
    print("|---|---|---|---|---|---|")
    for platform, how, build_s, smoke_s, passed, _ in rows:
        suite = "-" if smoke_s is None else f"{smoke_s:.0f}"
        verdict = "-" if passed is None else ("yes" if passed else "NO")
        print(f"| {platform} | {how} | {build_s:.0f} | {build_s / native_s:.1f}x | {suite} | {verdict} |")
    if len(rows) == 3:
        count, differing = layers_differing(api, rows[1][5], rows[2][5])
        print(f"\nthe two {FOREIGN} builds: {count - len(differing)} of {count} layers the same; differing:")
        print("\n".join(f"- {step}" for step in differing) or "- none")
    for tag in candidates:
        api.images.remove(tag, noprune=True)


if __name__ == "__main__":
    main()
