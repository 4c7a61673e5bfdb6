"""Base images, one per platform: use the local one, pull it, bootstrap it (Debian) or load it.

Air-gapped hosts (and every machine here) cannot pull, so a Debian base is made with
mmdebstrap (for a foreign architecture under QEMU) and built `FROM scratch` with BuildKit for
that platform, so its config says the right architecture (`docker import` records the host's).
CANN bases cannot be made that way: they are `docker load`ed from a tarball someone with
registry access saved. Whatever the origin, the base is tagged under a per-platform local
name, its architecture is checked, and its id is recorded in .cache/bases.json.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from ..errors import UserError
from ..files import atomic_write
from ..manifest.model import arch_of
from ..manifest.references import base_reference
from ..render.dockerfile import SOURCE_DATE_EPOCH
from . import engine, image_config

PULL_TIMEOUT_S = 600
DEBIAN_ARCH = {"linux/amd64": "amd64", "linux/arm64": "arm64"}
BOOTSTRAP_LABEL = "org.verl.image.bootstrap"  # the bootstrap settings, on a base made here


def local_reference(comp, platform: str) -> str:
    """The per-platform local name of a base: one engine can hold a base for every platform."""
    return base_reference(comp.get("image"), comp.get("tag"), arch_of(platform))


def ensure_base(api, comp, platform: str, *, mirror: str | None = None, load: Path | None = None,
                pull: bool = True, cache: Path, log=print) -> str:
    """Make the base exist locally for `platform` (under local_reference); return its image id."""
    local = local_reference(comp, platform)
    if load:
        return _record(cache, local, _load(api, comp, platform, load, log), "loaded", log)
    found = engine.image_id(api, local)
    if found and _stale_bootstrap(api, found):
        log(f"base {local}: bootstrapped by older code (its config is not what this build.py stamps): "
            f"bootstrapping it again")
        found = None
    if found:
        _check(api, comp, local, platform)
        return _record(cache, local, found, _origin(cache, local) or "present", log, quiet=True)
    if pull:
        pulled = _pull(api, comp, platform, log)
        if pulled:
            return _record(cache, local, pulled, "pulled", log)
    if comp.get("bootstrap"):
        return _record(cache, local, bootstrap(api, comp, platform, mirror, log), "bootstrapped", log)
    raise UserError(f"cannot pull {comp.reference} ({platform}) and it cannot be bootstrapped (only Debian bases "
                    f"can): on a machine with registry access `docker pull --platform {platform} {comp.reference} && "
                    f"docker save {comp.reference} -o base.tar`, then here `python build.py base IMAGE --platform "
                    f"{platform} --load base.tar`", key=f"components.{comp.name}")


def _stale_bootstrap(api, image_id: str) -> bool:
    """A bootstrapped base must be what bootstrap() makes now: the base's id is an input of every image's
    content hash, and a second bootstrap must give it again (test_a_second_bootstrap_...)."""
    if BOOTSTRAP_LABEL not in (api.images.get(image_id).labels or {}):
        return False  # pulled or loaded: the registry's bytes
    return not image_config.stamped_as_now(engine.raw_config(api, image_id), image_id, SOURCE_DATE_EPOCH)


def _check(api, comp, reference: str, platform: str) -> None:
    arch = engine.architecture(api, reference)
    if arch != arch_of(platform):
        raise UserError(f"{reference} is a {arch or 'unknown'} image, not {arch_of(platform)}: remove it "
                        f"(`docker rmi {reference}`) and make the base again", key=f"components.{comp.name}")
    if comp.get("digest"):
        repo_digests = api.images.get(reference).attrs.get("RepoDigests") or []
        if not any(d.endswith("@" + comp.get("digest")) for d in repo_digests):
            raise UserError(f"{comp.reference} does not have the pinned digest {comp.get('digest')} "
                            f"(has {', '.join(repo_digests) or 'no registry digest'})",
                            key=f"components.{comp.name}.digest")


def _pull(api, comp, platform, log) -> str | None:
    import docker

    log(f"base {comp.reference} ({platform}): pulling")
    try:
        bounded = docker.from_env(timeout=PULL_TIMEOUT_S)
        bounded.images.pull(comp.get("image"), tag=comp.get("tag"), platform=platform)
    except Exception as exc:  # no registry answers: the SDK raises several types for that
        log(f"base {comp.reference}: pull failed ({str(exc).splitlines()[0][:120]})")
        return None
    local = local_reference(comp, platform)
    api.images.get(comp.reference).tag(*local.rsplit(":", 1))
    _check(api, comp, local, platform)
    return engine.image_id(api, local)


def bootstrap(api, comp, platform: str, mirror: str | None, log, reference: str | None = None) -> str:
    """mmdebstrap a Debian root file system for the platform and build it FROM scratch: the same
    suite from the same mirror state gives the same bytes and the same image id on any machine
    (mmdebstrap with SOURCE_DATE_EPOCH writes a reproducible tarball; the config's times are stamped)."""
    if os.geteuid() != 0:
        raise UserError(f"bootstrapping {comp.reference} needs root (mmdebstrap)")
    engine.ensure_mmdebstrap(log)
    engine.ensure_emulation(platform, log)
    settings = comp.get("bootstrap")
    mirror = mirror or settings.get("mirror")
    started = time.monotonic()
    log(f"base {comp.reference} ({platform}): mmdebstrap {settings['suite']} from {mirror}")
    with tempfile.TemporaryDirectory(prefix="verl-base-") as tmp:
        context = Path(tmp)
        cmd = ["mmdebstrap", "--quiet", "--mode=root", "--format=tar", f"--architectures={DEBIAN_ARCH[platform]}",
               f"--variant={settings.get('variant', 'minbase')}", *_hooks(), settings["suite"],
               str(context / "rootfs.tar"), mirror]
        result = subprocess.run(cmd, capture_output=True, text=True,
                                env={**os.environ, "SOURCE_DATE_EPOCH": str(SOURCE_DATE_EPOCH)})
        if result.returncode:
            last = (result.stdout + result.stderr).strip().splitlines()[-1:]
            raise UserError(f"mmdebstrap failed: {' '.join(last)}", key=f"components.{comp.name}.bootstrap")
        (context / "Dockerfile").write_text('FROM scratch\nADD rootfs.tar /\nENV LANG=C.UTF-8\nCMD ["bash"]\n')
        local = reference or local_reference(comp, platform)
        built = engine.build(context, local, platform=platform, buildargs={}, labels={
            "org.verl.image.base": comp.reference, BOOTSTRAP_LABEL: json.dumps(settings, sort_keys=True)},
            plain=False)
    built = image_config.stamp(api, built, local, epoch=SOURCE_DATE_EPOCH)
    _check(api, comp, local, platform)
    log(f"base {local}: bootstrapped in {time.monotonic() - started:.0f} s ({built[:19]})")
    return built


# Files every build step bind-mounts: where one is missing the engine creates it for the step and
# removes it after, which stamps /etc with the wall clock in every layer. mmdebstrap copies the
# host's hostname and resolv.conf, which would make the base differ per machine.
FIXED_FILES = {
    "/etc/hosts": "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n",
    "/etc/hostname": "localhost\n",
    "/etc/resolv.conf": "",
    # what the official slim images add: no .deb stays in a later layer
    "/etc/apt/apt.conf.d/docker-clean": 'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb || true"; };\n',
}


def _hooks() -> list:
    """mmdebstrap customize hooks (shell, $1 the root) writing FIXED_FILES; mmdebstrap clamps their times."""
    return [f"--customize-hook=printf %s {shlex.quote(text)} > \"$1{path}\"" for path, text in FIXED_FILES.items()]


def _load(api, comp, platform, tarball: Path, log) -> str:
    if not tarball.is_file():
        raise UserError(f"{tarball} does not exist", key="--load")
    tags = _tarball_tags(tarball)
    if comp.reference not in tags and not any(t.endswith("/" + comp.reference) for t in tags):
        raise UserError(f"{tarball} holds {', '.join(tags) or 'untagged images'}, not {comp.reference}",
                        key="--load")
    log(f"base {comp.reference} ({platform}): docker load {tarball}")
    with open(tarball, "rb") as handle:
        api.images.load(handle)
    local = local_reference(comp, platform)
    api.images.get(comp.reference).tag(*local.rsplit(":", 1))
    _check(api, comp, local, platform)
    return engine.image_id(api, local)


def _tarball_tags(tarball: Path) -> list:
    """The references a `docker save` tarball holds (its manifest.json RepoTags)."""
    try:
        with tarfile.open(tarball) as archive:
            manifest = json.load(archive.extractfile("manifest.json"))
    except (tarfile.TarError, KeyError, json.JSONDecodeError, AttributeError):
        raise UserError(f"{tarball} is not a `docker save` tarball", key="--load") from None
    return [tag for entry in manifest for tag in entry.get("RepoTags") or []]


def _state_file(cache: Path) -> Path:
    return cache / "bases.json"


def _origin(cache: Path, reference: str) -> str | None:
    path = _state_file(cache)
    if not path.exists():
        return None
    return json.loads(path.read_text()).get(reference, {}).get("origin")


def _record(cache: Path, reference: str, found: str, origin: str, log, quiet=False) -> str:
    path = _state_file(cache)
    state = json.loads(path.read_text()) if path.exists() else {}
    entry = {"id": found, "origin": origin}
    if state.get(reference) != entry:
        state[reference] = entry
        # a rename: the other platform's pipeline, or another test worker, may be reading it
        atomic_write(path, json.dumps(state, indent=1, sort_keys=True) + "\n")
    if not quiet:
        log(f"base {reference}: {origin}, id {found}")
    return found
