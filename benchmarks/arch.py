#!/usr/bin/env python3
"""arm64 under QEMU user emulation vs amd64 native, on this x86 host: cold build and smoke suite of
the default image per platform, and their ratio.

    python benchmarks/arch.py

Both builds start from an empty layer cache with the wheelhouse already downloaded (so the numbers
are the build itself, not the network); the bases are the bootstrapped ones. Takes tens of minutes.
"""

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline import network  # noqa: E402
from image_pipeline.builder import engine, pipeline  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.smoke import runner  # noqa: E402

PLATFORMS = ("linux/amd64", "linux/arm64")
QUIET = {"log": lambda _: None}


def measure(api, manifest, platform: str, artifacts: Path) -> tuple:
    image, profile = manifest.default_image, network.from_host()
    prepared = pipeline.prepare(api, manifest, image, platform, REPO, profile, cache=REPO / ".cache", **QUIET)
    started = time.perf_counter()
    built = pipeline.build_candidate(api, manifest, image, platform, REPO, profile, prepared, plain=True,
                                     no_cache=True, cache=REPO / ".cache", **QUIET)
    build_s = time.perf_counter() - started
    started = time.perf_counter()
    outcome = runner.run(api, image.name, built, artifacts=artifacts, platform=platform, echo=False)
    smoke_s = time.perf_counter() - started
    api.images.remove(prepared.tags.candidate, noprune=True)
    return build_s, smoke_s, outcome.passed


def main():
    api = engine.client()
    manifest = load_manifest(REPO / "pins.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        rows = {platform: measure(api, manifest, platform, Path(tmp)) for platform in PLATFORMS}
    print(f"image {manifest.default_image.name} on an {engine.host_platform()} host\n")
    print("| platform | how | cold build s | smoke suite s | passed |")
    print("|---|---|---|---|---|")
    for platform, (build_s, smoke_s, passed) in rows.items():
        how = "native" if platform == engine.host_platform() else "QEMU user emulation"
        print(f"| {platform} | {how} | {build_s:.0f} | {smoke_s:.0f} | {'yes' if passed else 'NO'} |")
    (nb, ns, _), (eb, es, _) = rows[PLATFORMS[0]], rows[PLATFORMS[1]]
    print(f"| ratio arm64/amd64 | | {eb / nb:.1f}x | {es / ns:.1f}x | |")


if __name__ == "__main__":
    main()
