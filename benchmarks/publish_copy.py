#!/usr/bin/env python3
"""Publishing to a second registry: the engine's push again vs a copy from the first registry.

    python benchmarks/publish_copy.py [IMAGE] [--runs N]      (default: the default image, 1 run)

Pushes the promoted image of this host's platform to a fresh loopback registry (Debian's docker-registry),
then, into two more fresh ones each run: `docker push` (what `build.py publish` did for every registry,
compressing each layer again) and `publish.copy_image` from the first (what it does now). Prints wall time,
the CPU time it cost (the engine, the registries and this process, from /proc) and whether the digest came
out the same.
Needs `make image` first and `docker-registry` (`make registry`).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from conftest import LoopbackRegistry  # noqa: E402
from image_pipeline.builder import engine  # noqa: E402
from image_pipeline.manifest import load_manifest  # noqa: E402
from image_pipeline.publish import publish  # noqa: E402

QUIET = {"log": lambda _: None}


WORKERS = ("dockerd", "containerd", "docker-registry")


def cpu_seconds() -> float:
    """User + system CPU so far of the engine (where it compresses layers), the registries and this process."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)
            if fields[0].split("(", 1)[1] in WORKERS or stat.parent.name == str(os.getpid()):
                ticks += sum(int(v) for v in fields[1].split()[11:13])
        except (OSError, IndexError, ValueError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def timed(action) -> tuple:
    cpu, started = cpu_seconds(), time.monotonic()
    result = action()
    return result, time.monotonic() - started, cpu_seconds() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("image", nargs="?")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.images[args.image] if args.image else manifest.default_image
    api = engine.client()
    found = next(p for p in publish.promoted(api, manifest, image) if p.platform == engine.host_platform())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        registries = []

        def fresh():
            registries.append(LoopbackRegistry(Path(tmp) / f"r{len(registries)}"))
            registries[-1].directory.mkdir()
            return registries[-1].start().address

        try:
            first = fresh()
            digest, seconds, cpu = timed(lambda: publish.push_image(api, found.image_id, found.local, first, **QUIET))
            rows.append(("docker push, first registry", seconds, cpu, "-"))
            for _ in range(args.runs):
                again = fresh()
                pushed, seconds, cpu = timed(lambda: publish.push_image(api, found.image_id, found.local, again,
                                                                        **QUIET))
                rows.append(("docker push, another registry", seconds, cpu, "same" if pushed == digest else pushed))
                target = fresh()
                copied, seconds, cpu = timed(lambda: publish.copy_image(first, target, found.local, digest,
                                                                        found.image_id, **QUIET))
                rows.append(("copy from the first registry", seconds, cpu, "same" if copied == digest else copied))
        finally:
            for registry in registries:
                registry.stop()
    print(f"{found.local} ({found.platform}), {os.cpu_count()} cores\n")
    print("| to a fresh registry | wall s | CPU s | digest vs the first |")
    print("|---|---|---|---|")
    for what, seconds, cpu, same in rows:
        print(f"| {what} | {seconds:.1f} | {cpu:.1f} | {same} |")


if __name__ == "__main__":
    main()
