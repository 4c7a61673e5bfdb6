#!/usr/bin/env python3
"""The registry layer cache across CI runners: a transformers bump built on a fresh engine, cold vs cache-fed.

    python benchmarks/ci_cache.py [COMPONENT] [--ours-only]      (default: transformers)

What CI's build stage does on a fresh hosted runner. On this engine (standing in for main's last build
stage): the current cpu image as BuildKit built it, its config holding the inline cache, pushed to a
loopback registry (Debian's docker-registry) under its cache tag (`build.py image --stage build
--write-cache` does the same). Then
the bump in a scratch copy (`build.py bump`, re-locked against PyPI), built for each row on a fresh
engine: a second dockerd started here with its own --data-root, --exec-root and socket, holding nothing
but the base image (loaded, as a runner pulls it). Cold: no cache. Cache-fed: --cache-from the registry
cache, as the build stage reads it. The hand-written Dockerfile (benchmarks/handwritten.py, same
releases) gets the same two builds with the same BuildKit inline cache, unless --ours-only. The wheelhouse
is on the host for every row (a fresh runner downloads it in either case); each row's seconds include
build.py's wheelhouse check and context assembly. Needs root, the engine, PyPI.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tests"))

import handwritten  # noqa: E402
from conftest import LoopbackRegistry  # noqa: E402
from layers import bumped_copy  # noqa: E402
from image_pipeline import network  # noqa: E402
from image_pipeline.builder import base, engine, pipeline  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.manifest.model import arch_of  # noqa: E402
from image_pipeline.publish import ci_stages, publish, registry  # noqa: E402

QUIET = {"log": lambda _: None}
CACHE = REPO / ".cache"
START_TIMEOUT_S = 60
CARRIER = "bench-ci-cache:ours-before"


@contextlib.contextmanager
def fresh_engine(directory: Path):
    """A second dockerd with nothing in it, on its own socket; DOCKER_HOST points at it while inside."""
    directory.mkdir(parents=True)
    socket = directory / "docker.sock"
    log = open(directory / "dockerd.log", "wb")
    daemon = subprocess.Popen(["dockerd", "--data-root", str(directory / "data"), "--exec-root", str(directory / "exec"),
                               "--pidfile", str(directory / "docker.pid"), "--host", f"unix://{socket}",
                               "--containerd-namespace", f"bench-{directory.name}",
                               "--containerd-plugins-namespace", f"bench-{directory.name}-plugins",
                               *engine.DOCKERD_ARGS], stdout=log, stderr=subprocess.STDOUT)
    previous = os.environ.get("DOCKER_HOST")
    os.environ["DOCKER_HOST"] = f"unix://{socket}"
    engine.buildkit_command.cache_clear()
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not engine.answers():
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit(f"the fresh dockerd did not answer; see {directory / 'dockerd.log'}")
            time.sleep(0.5)
        yield engine.client()
    finally:
        if previous is None:
            os.environ.pop("DOCKER_HOST", None)
        else:
            os.environ["DOCKER_HOST"] = previous
        engine.buildkit_command.cache_clear()
        daemon.terminate()
        daemon.wait(60)
        log.close()
        shutil.rmtree(directory, ignore_errors=True)


def load_base(reference: str, into_socket: str) -> None:
    """docker save | docker load: the fresh engine gets the base the way a runner pulls it."""
    saved = subprocess.run(["docker", "save", reference], capture_output=True, check=True,
                           env={**os.environ, "DOCKER_HOST": "unix:///var/run/docker.sock"}).stdout
    subprocess.run(["docker", "load"], input=saved, capture_output=True, check=True,
                   env={**os.environ, "DOCKER_HOST": into_socket})


def build_ours(api, root: Path, platform: str, cache_from=(), cache_carrier=None) -> tuple:
    """(image id, candidate tag) of the tree's cpu image built by build.py's pipeline."""
    m = load_manifest(root / "pins.yaml")
    profile = network.from_host()
    prepared = pipeline.prepare(api, m, m.default_image, platform, root, profile, cache=CACHE, **QUIET)
    built = pipeline.build_candidate(api, m, m.default_image, platform, root, profile, prepared, plain=True,
                                     cache_from=cache_from, cache=CACHE, cache_carrier=cache_carrier, **QUIET)
    return built, prepared.tags.candidate


def current_cache_carrier(api, platform: str) -> str:
    """This tree's cpu image as BuildKit built it, whose config holds the inline cache (the stamped image
    has none): a candidate built now, from this engine's cache, the way the build stage tags it."""
    _, candidate = build_ours(api, REPO, platform, cache_carrier=CARRIER)
    api.images.remove(candidate, noprune=True)
    return engine.image_id(api, CARRIER)


def hand_context(root: Path, platform: str, target: Path) -> Path:
    m = load_manifest(root / "pins.yaml")
    return handwritten.context(m, m.default_image, platform, root, network.from_host(), CACHE, target)


def build_hand(api, context: Path, platform: str, tag: str, cache_from=()) -> str:
    handwritten.build(context, tag, platform, network.from_host(), cache_from=cache_from)
    return engine.image_id(api, tag)


def reused(image_layers: list, cache_config: dict) -> int:
    """Leading layers the build took from the cache image (same diff ids), i.e. the steps it did not run."""
    count = 0
    for mine, cached in zip(image_layers, cache_config["rootfs"]["diff_ids"]):
        if mine != cached:
            break
        count += 1
    return count


def measure(name, build, cache_config, tmp: Path, base_reference: str, cache_from=()) -> dict:
    with fresh_engine(tmp / name) as api:
        load_base(base_reference, os.environ["DOCKER_HOST"])
        started = time.perf_counter()
        image_id = build(api, cache_from)
        seconds = time.perf_counter() - started
        layers = api.images.get(image_id).attrs["RootFS"]["Layers"]
    return {"seconds": seconds, "layers": len(layers), "reused": reused(layers, cache_config) if cache_from else 0}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    component = args[0] if args else "transformers"
    with_hand = "--ours-only" not in sys.argv
    api = engine.client()
    platform = engine.host_platform()
    current = load_manifest(REPO / "pins.yaml")
    image = current.default_image
    base_reference = base.local_reference(image.base, platform)
    rows = []
    with tempfile.TemporaryDirectory(prefix="ci-cache-", dir="/tmp") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "registry").mkdir()
        cache_registry = LoopbackRegistry(tmp / "registry").start()
        target = cache_registry.address
        ours_cache = ci_stages.cache_reference(current, image, platform, target)
        hand_cache = f"{target}/handwritten:{image.name}-{arch_of(platform)}-cache"
        try:
            # main's last build stage: BuildKit's image of the current tree, pushed under the cache tag
            ours_before = current_cache_carrier(api, platform)
            publish.push_image(api, ours_before, ours_cache.removeprefix(f"{target}/"), target, **QUIET)
            if with_hand:
                build_hand(api, hand_context(REPO, platform, tmp / "hand-before"), platform,
                           "bench-ci-cache:hand-before")
                publish.push_image(api, engine.image_id(api, "bench-ci-cache:hand-before"),
                                   hand_cache.removeprefix(f"{target}/"), target, **QUIET)
            configs = {ref: registry.Registry(target).image_config(*ref.removeprefix(f"{target}/").split(":"))[1]
                       for ref in ((ours_cache, hand_cache) if with_hand else (ours_cache,))}
            root, change = bumped_copy(component, tmp)
            bumped_hand = hand_context(root, platform, tmp / "hand-after") if with_hand else None
            for label, cache_from in (("cold (empty engine)", ()), ("cache-fed (--cache-from the registry)", True)):
                result = measure(f"ours-{len(rows)}", lambda a, c: build_ours(a, root, platform, c)[0],
                                 configs[ours_cache], tmp, base_reference, (ours_cache,) if cache_from else ())
                rows.append(("build.py (tiers)", label, result))
                if not with_hand:
                    continue
                result = measure(f"hand-{len(rows)}", lambda a, c: build_hand(a, bumped_hand, platform, "bench:hand", c),
                                 configs[hand_cache], tmp, base_reference, (hand_cache,) if cache_from else ())
                rows.append(("hand-written", label, result))
        finally:
            cache_registry.stop()
            for tag in (ours_cache, hand_cache, CARRIER, "bench-ci-cache:hand-before"):  # the tags this script made
                if engine.image_id(api, tag):
                    api.images.remove(tag, noprune=True)
    print(f"image {image.name} on {platform}, {component} {change}, each build on a fresh engine\n")
    print("| build | engine | build s | layers | taken from the registry cache |")
    print("|---|---|---|---|---|")
    for build, label, r in rows:
        print(f"| {build} | {label} | {r['seconds']:.0f} | {r['layers']} | {r['reused']} |")


if __name__ == "__main__":
    main()
