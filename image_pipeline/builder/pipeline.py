"""`build.py image`: render check -> lock check -> base -> content hash -> wheelhouse -> context
-> BuildKit candidate -> smoke -> promote, for one image on one platform.

Tags (repository from pins.yaml; <arch> is amd64 or arm64):
  <name>-<hash>-<arch>-candidate   what was just built; the smoke suite runs against it
  <name>-<hash>-<arch>             content-addressed: exists => nothing to build
  <name>-<arch>, <human>-<arch>    moving tags, moved only after the smoke suite passed
  <name>, <human>                  the same, for a build of this host's own platform
A failure anywhere (stale render or lock, build, smoke, Ctrl-C) leaves the moving and content
tags as they were; a lock per image and platform keeps two pipelines from racing on them.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..errors import UserError
from ..lock import consistency
from ..lock import lockfile
from ..lock.request import build_request
from ..lock.resolve import uv_version
from ..manifest.model import arch_of, platform_slug
from ..manifest.references import Tags, tags_of
from ..render import dockerfile
from ..render.dockerfile import SOURCE_DATE_EPOCH
from . import base, context, engine, image_config, inputs, sbom, wheelhouse

DPKG_STATUS = "/var/lib/dpkg/status"
class _Held(threading.local):
    """The pipeline lock files this thread holds."""

    def __init__(self):
        self.paths = set()


_HELD = _Held()


class Prepared(NamedTuple):
    """What prepare() found: the build is decided, nothing downloaded yet but the files the lock holds no
    sha256 for (their bytes are part of the content hash)."""
    rendered: dict
    digest: str
    base_id: str
    tags: Tags
    unverified: tuple = ()  # of wheelhouse.Unverified
    buildargs: dict = {}


@dataclass
class Outcome:
    tags: Tags
    image_id: str
    built: bool
    promoted: bool
    smoke: object | None = None


@contextlib.contextmanager
def image_lock(name: str, platform: str, cache: Path, wait=False):
    """One pipeline per image and platform; another is refused, or with wait=True waited for. Reentrant in
    the thread that holds it: a pipeline holds it while it calls build_candidate, which takes it too."""
    path = (cache / "locks" / f"{name}-{platform_slug(platform)}.lock").resolve()
    held = _HELD.paths
    if path in held:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise UserError(f"another pipeline for {name!r} ({platform}) is running ({holder}); no tag was touched",
                            file=str(path)) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        held.add(path)
        try:
            yield
        finally:
            held.discard(path)
            handle.truncate(0)
            fcntl.flock(handle, fcntl.LOCK_UN)


def rendered_files(manifest, image, root: Path, alternative=None) -> dict:
    """The image's files rendered now; refuse (exit 2) when images/ holds something else."""
    env = dockerfile.environment(root / "templates")
    fresh = dockerfile.render_image(env, manifest, image, alternative)
    stale = [name for name, text in fresh.items()
             if not (root / "images" / image.name / name).exists()
             or (root / "images" / image.name / name).read_text() != text]
    if stale:
        raise UserError(f"images/{image.name}/{', '.join(stale)} differ from pins.yaml and templates/: run "
                        f"`make render` and commit, so the image holds what its tags and labels name")
    suffix = f".{alternative.name}" if alternative else ""
    return {"Dockerfile": fresh[f"Dockerfile{suffix}"], "pins.json": fresh[f"pins{suffix}.json"]}


def check_lock(manifest, image, platform: str, root: Path) -> None:
    lock = lockfile.read(lockfile.path_for(root, image.name, platform))
    want = build_request(manifest, image, platform).fingerprint(uv_version())
    if lock is None or lock.inputs != want:
        state = "missing" if lock is None else "stale against pins.yaml"
        raise UserError(f"the lock of {image.name} for {platform} is {state}: run `make lock` and commit it")
    consistency.check_pins(manifest, root)


def prepare(api, manifest, image, platform: str, root: Path, profile, *, alternative=None, mirror=None,
            cache: Path, log=print, allow_unverified=(), install_platform: str | None = None) -> Prepared:
    """Everything the content hash needs, without downloading a locked wheel: a file the lock holds no
    sha256 for is refused unless allow_unverified names it, and then fetched, its sha256 hashed in.
    install_platform: where the Dockerfile's layers of wheels are installed (default: the engine's own
    platform, natively; the target platform installs them as a host of that platform would)."""
    rendered = rendered_files(manifest, image, root, alternative)
    check_lock(manifest, image, platform, root)
    if platform not in image.platforms:
        raise UserError(f"image {image.name!r} is for {', '.join(image.platforms)}, not {platform}")
    # a file no lock could hash is refused before anything large moves (the base of an NPU image is GBs)
    wheelhouse.check_allowed(manifest, wheelhouse.read_lock(root, image.on(platform), platform), allow_unverified)
    engine.ensure_emulation(platform, log)
    base_id = base.ensure_base(api, image.base, platform, mirror=mirror, cache=cache, log=log)
    install_platform = install_platform or engine.host_platform()
    install_base_id = base.ensure_base(api, image.base, install_platform, mirror=mirror, cache=cache, log=log)
    unverified = wheelhouse.fetch_unverified(manifest, image, platform, root, profile, cache, allow_unverified, log)
    found = {**inputs.build_inputs(root, image, platform, rendered),
             **{f"unverified:{u.component}": u.sha256 for u in unverified}, "install base": install_base_id}
    args = buildargs(image, platform, profile, install_platform)
    digest = inputs.content_hash(found, base_id, args)
    tags = tags_of(manifest.repository, image, arch_of(platform), digest, host=platform == engine.host_platform(),
                   alternative=alternative)
    return Prepared(rendered, digest, base_id, tags, tuple(unverified), args)


def tree_inputs_of(root: Path, image, platform: str, rendered: dict) -> str:
    """The tree digest the image is labelled with: its build inputs without the unverified files' bytes,
    the base and the build args, so a PR body can match a smoke run with the tree it reviews."""
    return inputs.tree_digest(inputs.build_inputs(root, image, platform, rendered))


def buildargs(image, platform, profile, install_platform: str) -> dict:
    return {"BASE_IMAGE": base.local_reference(image.base, platform), "INSTALL_PLATFORM": install_platform,
            "INSTALL_BASE_IMAGE": base.local_reference(image.base, install_platform), **profile.buildargs()}


def run(api, manifest, image, platform: str, root: Path, profile, *, smoke_runner, plain=False, force=False,
        alternative=None, mirror=None, cache_from=(), cache: Path, log=print, wait=False, allow_unverified=()) -> Outcome:
    with image_lock(image.name, platform, cache, wait):
        prepared = prepare(api, manifest, image, platform, root, profile, alternative=alternative, mirror=mirror,
                           cache=cache, log=log, allow_unverified=allow_unverified)
        tags = prepared.tags
        existing = engine.image_id(api, tags.final)
        if existing and not force:
            log(f"image {tags.final}: up to date (content hash {tags.short_hash}), nothing to build")
            promote(api, existing, tags, log)
            return Outcome(tags, existing, built=False, promoted=True)
        built = build_candidate(api, manifest, image, platform, root, profile, prepared, plain=plain,
                                cache_from=cache_from, cache=cache, log=log)
        result = smoke_runner(tags.candidate)
        if not result.passed:
            log(f"smoke FAILED for {tags.candidate}: tags {', '.join(tags.moving)} left where they were "
                f"(the candidate is kept for debugging)")
            return Outcome(tags, built, built=True, promoted=False, smoke=result)
        api.images.get(built).tag(*tags.final.rsplit(":", 1))
        promote(api, built, tags, log)
        api.images.remove(tags.candidate, noprune=True)
        return Outcome(tags, built, built=True, promoted=True, smoke=result)


def build_candidate(api, manifest, image, platform: str, root: Path, profile, prepared, *, plain=False, cache_from=(),
                    cache: Path, log=print, no_cache=False, cache_carrier: str | None = None) -> str:
    """Download, assemble and build the candidate of prepare()'s result; returns its image id. No tag but
    the candidate's moves (benchmarks and the layer test build bumped trees this way), and cache_carrier
    when given: a local tag for BuildKit's own image, whose config holds the inline cache that
    --cache-from reads (the stamped candidate has none: image_config.restamped). It empties and fills the
    image and platform's one build context in the cache, so it holds their pipeline lock (waiting for it)."""
    with image_lock(image.name, platform, cache, wait=True):
        return _build_candidate(api, manifest, image, platform, root, profile, prepared, plain=plain,
                                cache_from=cache_from, cache=cache, log=log, no_cache=no_cache,
                                cache_carrier=cache_carrier)


def _build_candidate(api, manifest, image, platform, root, profile, prepared, *, plain, cache_from, cache, log,
                     no_cache, cache_carrier) -> str:
    rendered, digest, base_id, tags, unverified, args = prepared
    tree_inputs = tree_inputs_of(root, image, platform, rendered)
    house = wheelhouse.fetch(manifest, image, platform, root, profile, cache, log,
                             allowed=[u.component for u in unverified])
    listed = [u.as_dict() for u in house.unverified]
    rendered = image_config.with_unverified(rendered, listed)
    target = cache / "context" / image.name / platform_slug(platform)
    context.assemble(root, image, platform, rendered, house, target)
    labels = image_config.oci_labels(manifest.repository, image, platform, digest, base_id, rendered["pins.json"],
                                     tree_inputs)
    labels[image_config.UNVERIFIED_LABEL] = json.dumps(listed, sort_keys=True, separators=(",", ":"))
    log(f"image {tags.candidate}: building from {target}")
    built = engine.build(target, tags.candidate, platform=platform, buildargs=args,
                         labels=labels, plain=plain, cache_from=cache_from, no_cache=no_cache)
    if cache_carrier:
        api.images.get(built).tag(*cache_carrier.rsplit(":", 1))
    bill = sbom.build_sbom(manifest, image, platform, lockfile.read(lockfile.path_for(root, image.name, platform)),
                           dpkg_status=engine.read_file(api, built, DPKG_STATUS).decode(errors="replace"),
                           base_reference=image.base.reference, base_id=base_id, content_hash=digest,
                           source_date_epoch=SOURCE_DATE_EPOCH).encode()
    log(f"image {tags.candidate}: SBOM at {image_config.SBOM_PATH} ({len(bill)} bytes); times stamped "
        f"{image_config.timestamp(SOURCE_DATE_EPOCH)}")
    return image_config.stamp(api, built, tags.candidate, add=(image_config.SBOM_PATH, bill),
                              labels={image_config.SBOM_LABEL: hashlib.sha256(bill).hexdigest()})


def promote(api, image_id: str, tags: Tags, log) -> None:
    target = api.images.get(image_id)
    for reference in tags.moving:
        if engine.image_id(api, reference) != image_id:
            target.tag(*reference.rsplit(":", 1))
            log(f"promoted {reference} -> {tags.final}")
