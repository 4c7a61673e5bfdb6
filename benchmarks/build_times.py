#!/usr/bin/env python3
"""Cold build, no-op rebuild and image size: this build system vs a hand-written single Dockerfile.

    python benchmarks/build_times.py [IMAGE]

Needs the engine, the base and the wheelhouse (`make image` once). The cold builds run with the
layer cache off; the no-op rebuild is what `make image` does when nothing changed (for the
hand-written file: `docker build` again, all steps cached).
"""

import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verlimage import engine, netprofile, pipeline, smoke, wheelhouse  # noqa: E402
from verlimage.manifest import load_manifest  # noqa: E402


def timed(func):
    started = time.perf_counter()
    result = func()
    return time.perf_counter() - started, result


def size_gb(api, reference):
    return api.images.get(reference).attrs["Size"] / 1e9


def build_raw(api, directory, tag, nocache):
    stream = api.api.build(path=str(directory), tag=tag, network_mode="host", rm=True, forcerm=True,
                           decode=True, nocache=nocache)
    for chunk in stream:
        if "error" in chunk:
            raise SystemExit(f"build failed: {chunk['error']}")


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    api = engine.client()
    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.image(name)
    profile = netprofile.from_host()
    ctx, tags, base_id = pipeline.prepare(api, manifest, image, REPO, profile, log=lambda line: None)
    labels = pipeline.oci_labels(manifest, image, REPO, ctx.content_hash, base_id)
    buildargs = {"BASE_IMAGE": image.base.reference}

    def our_cold():
        stream = api.api.build(path=str(ctx.directory), tag="bench:ours", network_mode="host", rm=True,
                               forcerm=True, decode=True, nocache=True, labels=labels, buildargs=buildargs)
        for chunk in stream:
            if "error" in chunk:
                raise SystemExit(chunk["error"])

    cold_ours, _ = timed(our_cold)
    noop_ours, outcome = timed(lambda: pipeline.run(
        api, manifest, image, REPO, profile, log=lambda line: None,
        smoke_runner=lambda ref: smoke.run(api, image.name, ref, echo=False)))
    promoted = outcome.tags.final

    with tempfile.TemporaryDirectory() as tmp:
        context_dir = Path(tmp)
        shutil.copyfile(REPO / "benchmarks/handwritten/Dockerfile", context_dir / "Dockerfile")
        shutil.copyfile(profile.ca_bundle or "/etc/ssl/certs/ca-certificates.crt", context_dir / "ca.crt")
        torch_wheel = next(wheelhouse.wheelhouse_dir(image, wheelhouse.host_platform()).glob("torch-*.whl"))
        shutil.copyfile(torch_wheel, context_dir / "torch.whl")
        cold_hand, _ = timed(lambda: build_raw(api, context_dir, "bench:handwritten", nocache=True))
        noop_hand, _ = timed(lambda: build_raw(api, context_dir, "bench:handwritten", nocache=False))

    print(f"image {name} on this machine ({wheelhouse.host_platform()})\n")
    print("| build | cold build s | no-op rebuild s | image GB | tested before tagging |")
    print("|---|---|---|---|---|")
    print(f"| build.py image (multi-stage, wheelhouse) | {cold_ours:.0f} | {noop_ours:.1f} | "
          f"{size_gb(api, promoted):.2f} | yes (smoke suite) |")
    print(f"| hand-written single Dockerfile | {cold_hand:.0f} | {noop_hand:.1f} | "
          f"{size_gb(api, 'bench:handwritten'):.2f} | no (`pip list`) |")
    for tag in ("bench:ours", "bench:handwritten"):
        api.images.remove(tag, force=True)


if __name__ == "__main__":
    main()
