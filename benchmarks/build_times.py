#!/usr/bin/env python3
"""Cold build, smoke run, no-op rebuild and image size: build.py vs the hand-written Dockerfile, same run.

    python benchmarks/build_times.py [--hand-only]

For the default (cpu) image on this host's platform; needs the engine and network (PyPI). Both
cold builds start from an empty layer cache and download everything they install (build.py into an
empty wheelhouse cache; the hand-written file's pip from the network); the base image is the same one
for both. build.py's time is given without and with its smoke run, which `build.py image` runs before
it tags anything; the hand-written file has no test to run (`RUN pip list`). The no-op rebuild is what
`make image` does when nothing changed (the image must be promoted); for the hand-written file,
`docker build` again. Each build's row carries the 1-minute load average at its start and end: the
machine may be shared. --hand-only measures the hand-written row alone.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import handwritten  # noqa: E402
from image_pipeline import network  # noqa: E402
from image_pipeline.builder import engine, pipeline  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.smoke import runner  # noqa: E402

QUIET = {"log": lambda _: None}
HAND_TAG = "bench:handwritten"


def timed(func) -> tuple:
    """(seconds, result, load averages at start and end)."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    result = func()
    return time.perf_counter() - started, result, f"{load:.1f} -> {os.getloadavg()[0]:.1f}"


def ours(api, manifest, platform: str, profile) -> str:
    image = manifest.default_image
    prepared = pipeline.prepare(api, manifest, image, platform, REPO, profile, cache=REPO / ".cache", **QUIET)
    if engine.image_id(api, prepared.tags.final) is None:
        raise SystemExit(f"{prepared.tags.final} is not built: run `make image` first (the no-op rebuild needs it)")
    with tempfile.TemporaryDirectory() as tmp:
        cold, built, cold_load = timed(lambda: pipeline.build_candidate(
            api, manifest, image, platform, REPO, profile, prepared, plain=True, no_cache=True, cache=Path(tmp), **QUIET))
        smoke, outcome, smoke_load = timed(lambda: runner.run(api, image.name, built, artifacts=Path(tmp),
                                                              platform=platform, echo=False, promotion=True))
    size = _size(api, built)
    api.images.remove(prepared.tags.candidate, noprune=True)
    noop, _, noop_load = timed(lambda: pipeline.run(api, manifest, image, platform, REPO, profile,
                                                    cache=REPO / ".cache", smoke_runner=_never, **QUIET))
    tested = "yes (smoke suite passed)" if outcome.passed else "smoke suite FAILED"
    return (f"| build.py image (lock, wheelhouse, BuildKit, tiers) | {cold:.0f} | {smoke:.0f} | {cold + smoke:.0f} | "
            f"{noop:.1f} | {size:.2f} | {tested} | {cold_load}; {smoke_load}; {noop_load} |")


def hand(api, manifest, platform: str, profile) -> str:
    image = manifest.default_image
    with tempfile.TemporaryDirectory() as tmp:
        context = handwritten.context(manifest, image, platform, REPO, profile, REPO / ".cache", Path(tmp) / "hand")
        cold, _, cold_load = timed(lambda: handwritten.build(context, HAND_TAG, platform, profile, no_cache=True))
        noop, _, noop_load = timed(lambda: handwritten.build(context, HAND_TAG, platform, profile))
    size = _size(api, HAND_TAG)
    api.images.remove(HAND_TAG)
    return (f"| hand-written Dockerfile (upstream's style, pip from the network) | {cold:.0f} | none | {cold:.0f} | "
            f"{noop:.1f} | {size:.2f} | no (`pip list`) | {cold_load}; {noop_load} |")


def _never(reference):
    raise SystemExit("the no-op rebuild ran the smoke suite: the content tag should have matched")


def _size(api, reference) -> float:
    return api.images.get(reference).attrs["Size"] / 1e9


def main():
    api = engine.client()
    manifest = load_manifest(REPO / "pins.yaml")
    platform, profile = engine.host_platform(), network.from_host()
    rows = [] if "--hand-only" in sys.argv else [ours(api, manifest, platform, profile)]
    rows.append(hand(api, manifest, platform, profile))
    print(f"image {manifest.default_image.name} on {platform}, {os.cpu_count()} CPUs\n")
    print("| build | cold build s | smoke run s | cold build + smoke s | no-op rebuild s | image GB "
          "| tested before tagging | load average (1 min) per timing |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
