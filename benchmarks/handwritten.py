"""The hand-written way, for side-by-side benchmarks: the cpu stack as one upstream-style Dockerfile
rendered from pins.yaml (same releases as the image build.py makes), built with the legacy builder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline import network  # noqa: E402
from image_pipeline.build import base  # noqa: E402

FETCHED = ("megatron", "bridge", "mooncake", "verl", "transformers")


def render(manifest, image, platform: str, torch_wheel: str) -> str:
    view = image.on(platform)
    template = jinja2.Template((REPO / "benchmarks/handwritten/Dockerfile.j2").read_text(),
                               undefined=jinja2.StrictUndefined)
    vllm, verl = view.role("vllm"), view.role("verl")
    return template.render(
        base=base.local_reference(image.base, platform), apt=image.apt_runtime, vllm=vllm.version, vllm_url=vllm.get("url"),
        vllm_build=vllm.build.get("requires", []), verl=verl.version, verl_extras=",".join(verl.get("extras") or []),
        fetched=[(view.role(role).dist, view.role(role).version) for role in FETCHED], torch_wheel=torch_wheel)


def context(manifest, image, platform: str, torch_wheel: Path, target: Path) -> Path:
    """A build context: the rendered Dockerfile, the host's CA and the torch wheel the image build used."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    (target / "Dockerfile").write_text(render(manifest, image, platform, torch_wheel.name))
    shutil.copyfile(network.from_host().ca_bundle or "/etc/ssl/certs/ca-certificates.crt", target / "ca.crt")
    shutil.copyfile(torch_wheel, target / torch_wheel.name)
    return target


def build(directory: Path, tag: str, platform: str, no_cache: bool, buildkit=False, cache_from=()) -> None:
    """The legacy builder, or BuildKit with its inline cache (written, and read from `cache_from`) as a CI
    workflow would use it; on the engine DOCKER_HOST names, if set."""
    cmd = ["docker", "build", "--network", "host", "--platform", platform, "-t", tag, str(directory)]
    if no_cache:
        cmd.insert(2, "--no-cache")
    if buildkit:
        cmd[2:2] = ["--build-arg", "BUILDKIT_INLINE_CACHE=1", *(arg for ref in cache_from for arg in ("--cache-from", ref))]
    env = {"DOCKER_BUILDKIT": "1" if buildkit else "0", "PATH": "/usr/bin:/bin"}
    env.update({key: os.environ[key] for key in ("DOCKER_HOST",) if key in os.environ})
    result = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if result.returncode:
        raise SystemExit(f"hand-written build failed:\n{result.stdout[-3000:]}\n{result.stderr[-2000:]}")
