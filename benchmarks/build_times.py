#!/usr/bin/env python3
"""Cold build, no-op rebuild and image size: build.py vs the hand-written Dockerfile, same run.

    python benchmarks/build_times.py

For the default (cpu) image on this host's platform; needs the engine and network (PyPI). Both
cold builds start from an empty layer cache and download everything they install (build.py into an
empty wheelhouse cache); the base image is the same one for both. The no-op rebuild is what
`make image` does when nothing changed; for the hand-written file, `docker build` again.
"""

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import handwritten  # noqa: E402
from image_pipeline import network  # noqa: E402
from image_pipeline.build import engine, pipeline, wheelhouse  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402

QUIET = {"log": lambda _: None}


def timed(func):
    started = time.perf_counter()
    result = func()
    return time.perf_counter() - started, result


def main():
    api = engine.client()
    manifest = load_manifest(REPO / "pins.yaml")
    image, platform, profile = manifest.default_image, engine.host_platform(), network.from_host()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp)
        prepared = pipeline.prepare(api, manifest, image, platform, REPO, profile, cache=REPO / ".cache", **QUIET)
        cold_ours, ours = timed(lambda: pipeline.build_candidate(api, manifest, image, platform, REPO, profile, prepared,
                                                                 plain=True, no_cache=True, cache=cache, **QUIET))
        house = wheelhouse.fetch(manifest, image, platform, REPO, profile, cache, **QUIET)
        torch = image.on(platform).role("torch")
        wheel = house.files.get(torch.dist) or house.externals[torch.name]
        context = handwritten.context(manifest, image, platform, wheel, cache / "handwritten")
        cold_hand, _ = timed(lambda: handwritten.build(context, "bench:handwritten", platform, no_cache=True))
        noop_hand, _ = timed(lambda: handwritten.build(context, "bench:handwritten", platform, no_cache=False))
    noop_ours, _ = timed(lambda: pipeline.run(api, manifest, image, platform, REPO, profile, cache=REPO / ".cache",
                                              smoke_runner=_never, **QUIET) if _promoted(api, prepared) else None)
    print(f"image {image.name} on {platform}\n")
    print("| build | cold build s | no-op rebuild s | image GB | tested before tagging |")
    print("|---|---|---|---|---|")
    print(f"| build.py image (lock, wheelhouse, BuildKit, tiers) | {cold_ours:.0f} | {noop_ours:.1f} | "
          f"{_size(api, ours):.2f} | yes (smoke suite) |")
    print(f"| hand-written Dockerfile (pip from the network) | {cold_hand:.0f} | {noop_hand:.1f} | "
          f"{_size(api, 'bench:handwritten'):.2f} | no (`pip list`) |")
    api.images.remove(prepared.tags.candidate, noprune=True)
    api.images.remove("bench:handwritten")


def _promoted(api, prepared) -> bool:
    if engine.image_id(api, prepared.tags.final) is None:
        raise SystemExit(f"{prepared.tags.final} is not built: run `make image` first (the no-op rebuild needs it)")
    return True


def _never(reference):
    raise SystemExit("the no-op rebuild ran the smoke suite: the content tag should have matched")


def _size(api, reference) -> float:
    return api.images.get(reference).attrs["Size"] / 1e9


if __name__ == "__main__":
    main()
