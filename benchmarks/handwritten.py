"""The hand-written way, for side-by-side benchmarks: the cpu stack written as verl's docker/ascend Dockerfiles of
the latest line are (the CANN files pins.yaml's `differs` entries cite), rendered from the same pins
(benchmarks/handwritten/Dockerfile.j2).

Upstream's habits, kept: one RUN per install step in install order, each `pip install` resolving its
dependencies from the network at build time and ending in `pip cache purge`, what moves weekly
(transformers, then verl) installed last, a patch as its own step after the package it edits, `RUN pip
list` as the only check, BuildKit. The PyTorch CPU index is out of reach here: the wheel pip would take
from it (the host's mirror, via the wheelhouse) is bind-mounted into the one step that installs it, as
upstream passes `--index-url` to that one step. The host's pip settings and CA reach every pip step as
BuildKit secrets, so neither is ever in a layer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jinja2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline.builder import base, engine, wheelhouse  # noqa: E402

TEMPLATE = REPO / "benchmarks/handwritten/Dockerfile.j2"
LAST_ROLES = ("transformers", "verl")  # what moves weekly; upstream's files install these last
WHEELS = "wheels"  # context directory of the files pip takes from an index other than PyPI
PIP_CONF, CA = "pip.conf", "ca.crt"  # BuildKit secret ids
SECRETS = "/run/secrets"  # where BuildKit mounts a secret by default


def steps(image, platform: str) -> list:
    """One install step per component, in the image's install order with the weekly roles moved last."""
    view = image.on(platform)
    installs = [(role, comp) for _, role, comp in view.installs()]
    ordered = ([pair for pair in installs if pair[0] not in LAST_ROLES]
               + [pair for role in LAST_ROLES for pair in installs if pair[0] == role])
    return [_step(comp, platform, view.patches) for _, comp in ordered]


def _step(comp, platform: str, patches) -> dict:
    build = comp.build
    return {
        "component": comp,
        "name": comp.name,
        "summary": comp.summary,
        "requirement": _requirement(comp, platform),
        # pip resolves the dependencies at build time, as upstream's `pip install` does: the image build's
        # --no-deps (its dependencies come from the lock) has no place here
        "pip": [flag for flag in build.get("pip", []) if flag != "--no-deps"],
        "env": build.get("env") or {},
        "build_requires": list(build.get("requires", [])),
        "without": list(comp.get("without") or {}),
        "from_wheels": comp.index_for(platform) != "pypi",
        "patches": [patch for patch in patches if patch.package == comp.dist],
    }


def _requirement(comp, platform: str) -> str:
    if comp.source == "pypi":
        extras = f"[{','.join(comp.get('extras'))}]" if comp.get("extras") else ""
        return f"{comp.dist}{extras}=={comp.version_for(platform)}"
    if comp.source == "url":
        return f"{comp.dist} @ {comp.get('url')}#sha256={comp.get('sha256')}"
    raise SystemExit(f"the hand-written comparator installs pypi and url pins, not {comp.name} ({comp.source})")


def render(image, platform: str) -> str:
    template = jinja2.Template(TEMPLATE.read_text(), undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return template.render(base=base.local_reference(image.base, platform), apt=image.apt_runtime,
                           patches=image.patches, steps=steps(image, platform), wheels=WHEELS,
                           pip_conf=PIP_CONF, ca=CA)


def context(manifest, image, platform: str, root: Path, profile, cache: Path, target: Path) -> Path:
    """A build context: the rendered Dockerfile, the patches it applies, and under wheels/ the files pip
    takes from another index than PyPI (from the wheelhouse: on these machines the host's mirror of the
    PyTorch CPU index). No CA and no pip.conf: those are build secrets (build())."""
    if target.exists():
        shutil.rmtree(target)
    (target / WHEELS).mkdir(parents=True)
    (target / "Dockerfile").write_text(render(image, platform))
    house = wheelhouse.fetch(manifest, image, platform, root, profile, cache, log=lambda _: None)
    for step in steps(image, platform):
        if step["from_wheels"]:
            comp = step["component"]
            wheel = house.files.get(comp.dist) or house.externals[comp.name]
            shutil.copyfile(wheel, target / WHEELS / wheel.name)
        for patch in step["patches"]:
            (target / patch.diff).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / patch.diff, target / patch.diff)
    return target


def pip_conf(profile) -> str:
    """The host's pip settings as the build sees them: the CA at its secret's path, the remote indexes. Local
    find-links and file:// indexes stay on the host (what the build needs of them is in the context)."""
    lines = ["[global]"]
    if profile.ca_bundle:
        lines.append(f"cert = {SECRETS}/{CA}")
    if profile.index_url.startswith(("http://", "https://")):
        lines.append(f"index-url = {profile.index_url}")
    extra = [url for url in profile.extra_index_urls if url.startswith(("http://", "https://"))]
    if extra:
        lines.append(f"extra-index-url = {' '.join(extra)}")
    return "\n".join(lines) + "\n"


def arguments(directory: Path, tag: str, platform: str, secrets: dict, no_cache=False, cache_from=()) -> list:
    """`docker build` arguments: host network, the secrets (id -> file), BuildKit's inline cache (written, and
    read from cache_from) as a CI workflow would use it."""
    args = ["--progress", "plain", "--network", "host", "--platform", platform, "-t", tag,
            "--build-arg", "BUILDKIT_INLINE_CACHE=1"]
    args += [arg for ident, path in sorted(secrets.items()) for arg in ("--secret", f"id={ident},src={path}")]
    args += [arg for ref in cache_from for arg in ("--cache-from", ref)]
    return [*args, *(["--no-cache"] if no_cache else []), str(directory)]


def build(directory: Path, tag: str, platform: str, profile, no_cache=False, cache_from=()) -> None:
    """Build with BuildKit on the engine DOCKER_HOST names, if set; the pip settings exist only for the build."""
    prefix, env = engine.buildkit_command()
    with tempfile.TemporaryDirectory(prefix="handwritten-secrets-") as secrets_dir:
        conf = Path(secrets_dir) / PIP_CONF
        conf.write_text(pip_conf(profile))
        secrets = {PIP_CONF: conf, **({CA: profile.ca_bundle} if profile.ca_bundle else {})}
        result = subprocess.run([*prefix, *arguments(directory, tag, platform, secrets, no_cache, cache_from)],
                                capture_output=True, text=True, env={**os.environ, **env})
    if result.returncode:
        raise SystemExit(f"hand-written build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
