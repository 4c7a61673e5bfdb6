"""Base images: use the local one, pull it, bootstrap it (Debian), or load a tarball (CANN).

Air-gapped hosts (and every machine here) cannot pull, so a Debian base is made with
debootstrap and `docker import`ed under the pinned reference. CANN bases cannot be
made that way: they must be `docker load`ed from a tarball someone with registry
access saved. Whatever the origin, the image id is recorded in .cache/bases.json.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .engine import image_id
from .errors import UserError
from .paths import CACHE_DIR

PULL_TIMEOUT_S = 120


def ensure_base(api, comp, *, mirror: str | None = None, load: Path | None = None, pull: bool = True,
                cache: Path = CACHE_DIR, log=print) -> str:
    """Make the base reference exist locally; return its image id."""
    reference = comp.reference
    if load:
        return _record(cache, comp, _load(api, comp, load, log), "loaded", log)
    found = image_id(api, reference)
    if found:
        _check_digest(api, comp, found)
        log(f"base {reference}: present ({found[:19]})")
        return _record(cache, comp, found, _origin(cache, reference) or "present", log, quiet=True)
    if pull:
        pulled = _pull(api, comp, log)
        if pulled:
            return _record(cache, comp, pulled, "pulled", log)
    if comp.bootstrap:
        return _record(cache, comp, bootstrap(api, comp, mirror, log), "bootstrapped", log)
    raise UserError(f"cannot pull {reference} and it cannot be bootstrapped (only Debian bases can): on a "
                    f"machine with registry access `docker save {reference} -o base.tar`, then here "
                    f"`python build.py base IMAGE --load base.tar`", key=f"components.{comp.name}")


def _pull(api, comp, log) -> str | None:
    import docker

    log(f"base {comp.reference}: pulling")
    try:
        api.images.pull(comp.image, tag=comp.tag)
    except (docker.errors.APIError, docker.errors.DockerException) as exc:
        log(f"base {comp.reference}: pull failed ({str(exc).splitlines()[0][:120]})")
        return None
    found = image_id(api, comp.reference)
    _check_digest(api, comp, found)
    return found


def _check_digest(api, comp, found_id: str) -> None:
    if not comp.digest:
        return
    repo_digests = api.images.get(found_id).attrs.get("RepoDigests") or []
    if not any(d.endswith("@" + comp.digest) for d in repo_digests):
        raise UserError(f"{comp.reference} does not have the pinned digest {comp.digest} "
                        f"(has {', '.join(repo_digests) or 'no registry digest'})",
                        key=f"components.{comp.name}.digest")


def bootstrap(api, comp, mirror: str | None, log) -> str:
    """debootstrap a Debian root file system and import it under the pinned reference."""
    if os.geteuid() != 0:
        raise UserError(f"bootstrapping {comp.reference} needs root (debootstrap)")
    if not shutil.which("debootstrap"):
        raise UserError("debootstrap is not installed: `apt-get install debootstrap` (make engine does it)")
    settings = comp.bootstrap
    mirror = mirror or settings.get("mirror", "http://deb.debian.org/debian")
    started = time.monotonic()
    log(f"base {comp.reference}: debootstrap {settings['suite']} from {mirror}")
    with tempfile.TemporaryDirectory(prefix="verl-base-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        cmd = ["debootstrap", f"--variant={settings.get('variant', 'minbase')}", settings["suite"],
               str(rootfs), mirror]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode:
            last = (result.stdout + result.stderr).strip().splitlines()[-1:]
            raise UserError(f"debootstrap failed: {' '.join(last)}", key=f"components.{comp.name}.bootstrap")
        _slim(rootfs)
        tarball = Path(tmp) / "rootfs.tar"
        subprocess.run(["tar", "--numeric-owner", "-C", str(rootfs), "-cf", str(tarball), "."], check=True)
        api.api.import_image_from_file(str(tarball), repository=comp.image, tag=comp.tag,
                                       changes=['CMD ["bash"]', "ENV LANG=C.UTF-8"])
    found = image_id(api, comp.reference)
    if not found:
        raise UserError(f"docker import did not produce {comp.reference}")
    log(f"base {comp.reference}: bootstrapped in {time.monotonic() - started:.0f} s ({found[:19]})")
    return found


def _slim(rootfs: Path) -> None:
    """What the official slim images drop: apt lists and caches, docs stay out of later layers."""
    for sub in ("var/cache/apt/archives", "var/lib/apt/lists"):
        for path in (rootfs / sub).glob("*"):
            if path.is_file():
                path.unlink()
    (rootfs / "etc/apt/apt.conf.d/docker-clean").write_text(
        'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb || true"; };\n')


def _load(api, comp, tarball: Path, log) -> str:
    if not tarball.is_file():
        raise UserError(f"{tarball} does not exist", key="--load")
    tags = _tarball_tags(tarball)
    if comp.reference not in tags and not any(t.endswith("/" + comp.reference) for t in tags):
        raise UserError(f"{tarball} holds {', '.join(tags) or 'untagged images'}, not {comp.reference}",
                        key="--load")
    log(f"base {comp.reference}: docker load {tarball}")
    with open(tarball, "rb") as handle:
        api.images.load(handle)
    found = image_id(api, comp.reference)
    _check_digest(api, comp, found)
    return found


def _tarball_tags(tarball: Path) -> list:
    """The references a `docker save` tarball holds (its manifest.json RepoTags)."""
    import tarfile

    try:
        with tarfile.open(tarball) as archive:
            manifest = json.load(archive.extractfile("manifest.json"))
    except (tarfile.TarError, KeyError, json.JSONDecodeError):
        raise UserError(f"{tarball} is not a `docker save` tarball", key="--load") from None
    return [tag for entry in manifest for tag in entry.get("RepoTags") or []]


def _state_file(cache: Path) -> Path:
    return cache / "bases.json"


def _origin(cache: Path, reference: str) -> str | None:
    path = _state_file(cache)
    if not path.exists():
        return None
    return json.loads(path.read_text()).get(reference, {}).get("origin")


def _record(cache: Path, comp, found: str, origin: str, log, quiet=False) -> str:
    path = _state_file(cache)
    state = json.loads(path.read_text()) if path.exists() else {}
    entry = {"id": found, "origin": origin}
    if state.get(comp.reference) != entry:
        state[comp.reference] = entry
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
    if not quiet:
        log(f"base {comp.reference}: {origin}, id {found}")
    return found
