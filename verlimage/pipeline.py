"""`build.py image`: base -> wheelhouse -> context -> build candidate -> smoke -> promote.

Tags (repository from pins.yaml):
  <name>-<hash>-candidate   what was just built; smoke tests run against it
  <name>-<hash>             content-addressed final tag: exists => nothing to build
  <name>, <human tag>       moving tags, moved only after the smoke suite passed
A failure anywhere (build, smoke, Ctrl-C) leaves the moving and final tags as they were;
a lock per image keeps two pipelines from racing on them.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from . import base, context, engine, netprofile, wheelhouse
from .errors import UserError
from .paths import CACHE_DIR


@dataclass(frozen=True)
class Tags:
    repository: str
    name: str
    short_hash: str
    human: str

    @property
    def candidate(self) -> str:
        return f"{self.repository}:{self.name}-{self.short_hash}-candidate"

    @property
    def final(self) -> str:
        return f"{self.repository}:{self.name}-{self.short_hash}"

    @property
    def moving(self) -> list:
        return [f"{self.repository}:{self.name}", f"{self.repository}:{self.human}"]


@dataclass
class Outcome:
    tags: Tags
    image_id: str
    built: bool
    promoted: bool
    smoke: object | None = None


@contextlib.contextmanager
def image_lock(name: str, cache: Path = CACHE_DIR):
    path = cache / "locks" / f"{name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise UserError(f"another pipeline for {name!r} is running ({holder}); no tag was touched",
                            file=str(path)) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
            fcntl.flock(handle, fcntl.LOCK_UN)


def prepare(api, manifest, image, root: Path, profile, *, mirror=None, cache=CACHE_DIR, log=print):
    """Everything up to a hashed build context: base, wheelhouse, artifacts."""
    base_id = base.ensure_base(api, image.base, mirror=mirror, cache=cache, log=log)
    platform = wheelhouse.host_platform()
    if platform not in image.platforms:
        raise UserError(f"image {image.name!r} is for {', '.join(image.platforms)}, this host is {platform}")
    wheels = wheelhouse.ensure_wheelhouse(image, platform, cache, log)
    artifacts = wheelhouse.ensure_artifacts(image, cache, log)
    ctx = context.assemble(image, root, wheels, artifacts, profile, base_id, cache)
    tags = Tags(manifest.repository, image.name, ctx.short_hash, image.human_tag)
    return ctx, tags, base_id


def run(api, manifest, image, root: Path, profile: netprofile.NetProfile, *, smoke_runner, plain=False,
        mirror=None, force=False, cache_from=(), cache=CACHE_DIR, log=print) -> Outcome:
    with image_lock(image.name, cache):
        ctx, tags, base_id = prepare(api, manifest, image, root, profile, mirror=mirror, cache=cache, log=log)
        existing = engine.image_id(api, tags.final)
        if existing and not force:
            log(f"image {tags.final}: up to date, nothing to build")
            promote(api, existing, tags, log)
            return Outcome(tags, existing, built=False, promoted=True)
        labels = oci_labels(manifest, image, root, ctx.content_hash, base_id)
        buildargs = {"BASE_IMAGE": image.base.reference, **profile.buildargs()}
        log(f"image {tags.candidate}: building from {ctx.directory}")
        available = [ref for ref in cache_from if engine.image_id(api, ref)]
        built = engine.build(api, ctx.directory, tags.candidate, buildargs, labels, plain, available)
        result = smoke_runner(tags.candidate)
        if not result.passed:
            log(f"smoke FAILED for {tags.candidate}: tags {', '.join(tags.moving)} left where they were "
                f"(the candidate is kept for debugging)")
            return Outcome(tags, built, built=True, promoted=False, smoke=result)
        api.images.get(built).tag(*tags.final.split(":", 1))
        promote(api, built, tags, log)
        api.images.remove(tags.candidate, noprune=True)
        return Outcome(tags, built, built=True, promoted=True, smoke=result)


def promote(api, image_id: str, tags: Tags, log) -> None:
    target = api.images.get(image_id)
    for reference in tags.moving:
        repository, tag = reference.split(":", 1)
        if engine.image_id(api, reference) != image_id:
            target.tag(repository, tag)
            log(f"promoted {reference} -> {tags.final}")


def oci_labels(manifest, image, root: Path, content_hash: str, base_id: str) -> dict:
    pins = image.pins(manifest.repository)
    return {
        "org.opencontainers.image.created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "org.opencontainers.image.revision": git_revision(root),
        "org.opencontainers.image.source": git_source(root),
        "org.opencontainers.image.version": image.human_tag,
        "org.opencontainers.image.title": f"{manifest.repository} {image.name}",
        "org.opencontainers.image.description": f"verl on {image.device} ({image.base.reference})",
        "org.opencontainers.image.base.name": image.base.reference,
        "org.opencontainers.image.base.digest": base_id,
        "org.verl.image.content-hash": content_hash,
        "org.verl.image.pins": json.dumps(pins, sort_keys=True, separators=(",", ":")),
    }


def git_revision(root: Path) -> str:
    head = _git(root, "rev-parse", "HEAD") or "unknown"
    dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
    return head + ("-dirty" if dirty else "")


def git_source(root: Path) -> str:
    return _git(root, "config", "--get", "remote.origin.url") or f"file://{root}"


def _git(root: Path, *args) -> str:
    result = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""
