"""What build.py writes around the layers BuildKit built: the labels, the config's times, and the SBOM
layer. These bytes are part of the image id, so this module is one of the content hash's inputs
(inputs.ASSEMBLY_CODE): a change here gives a new tag rather than an "up to date" image with stale labels.
"""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
from datetime import datetime, timezone
from pathlib import Path

from ..render.dockerfile import SOURCE_DATE_EPOCH
from . import engine

CONTENT_LABEL = "org.verl.image.content-hash"
PLATFORM_LABEL = "org.verl.image.platform"
DEVICE_CHECKS_LABEL = "org.verl.image.device-checks"
PINS_LABEL = "org.verl.image.pins"  # the image's pins.json, compact
TREE_INPUTS_LABEL = "org.verl.image.tree-inputs"  # inputs.tree_digest of the tree it was built from
# JSON list of {component, file, sha256}: files installed as served (--allow-unverified), [] when none;
# pins.json (the label org.verl.image.pins and /etc/verl-image/pins.json) lists them under "unverified"
UNVERIFIED_LABEL = "org.verl.image.unverified"
# the CycloneDX SBOM (builder/sbom.py), the image's last layer; the label holds its sha256
SBOM_PATH = "/etc/verl-image/sbom.cdx.json"
ADDED_BY = "# build.py"  # ends the history entry of the layer stamp() adds
SBOM_LABEL = "org.verl.image.sbom.sha256"
BUILDKIT_CACHE_KEY = "moby.buildkit.cache.v0"  # the inline cache --cache-from reads; never in a stamped image


def declared_labels(image, platform: str) -> dict:
    """The labels that say what pins.yaml declares of the image (an input of its content hash: a waiver's
    new reason is a new image, never a new id under the old tag)."""
    return {
        "org.opencontainers.image.created": timestamp(SOURCE_DATE_EPOCH),
        "org.opencontainers.image.version": image.human_tag,
        "org.opencontainers.image.description": f"verl on {image.device} ({image.base.reference})",
        "org.opencontainers.image.base.name": image.base.reference,
        PLATFORM_LABEL: platform,
        DEVICE_CHECKS_LABEL: device_checks_label(image, platform),
    }


def oci_labels(repository: str, image, platform, digest: str, base_id: str, pins_json: str, tree_inputs: str) -> dict:
    """The declared labels, and those that are hashes of the inputs: the content hash, the base's id and
    the pins. Nothing here comes from git, the clock or the clone (a clone's remote or path differed
    between two clones of one commit; a commit's time differed between a shallow and a full clone), so
    the same inputs give the same config: `created` is SOURCE_DATE_EPOCH, as every file's time is."""
    return {
        **declared_labels(image, platform),
        "org.opencontainers.image.title": f"{repository} {image.name}",  # pins.json holds the repository
        "org.opencontainers.image.base.digest": base_id,
        CONTENT_LABEL: digest,
        TREE_INPUTS_LABEL: tree_inputs,
        PINS_LABEL: json.dumps(json.loads(pins_json), sort_keys=True, separators=(",", ":")),
    }


def device_checks_label(image, platform: str) -> str:
    """What pins.yaml says about the device checks of this platform: required before promotion, or
    waived (CI's merge refuses a candidate whose label says otherwise)."""
    if platform in image.waivers:
        return f"not run on {platform}: {image.waivers[platform]}"
    return f"required on {platform} (device runner {image.runner.name}) before promotion"


def with_unverified(rendered: dict, unverified: list) -> dict:
    """The image's pins.json, listing under "unverified" the files installed as served (none: as rendered)."""
    if not unverified:
        return rendered
    pins = {**json.loads(rendered["pins.json"]), "unverified": unverified}
    return {**rendered, "pins.json": json.dumps(pins, indent=2, sort_keys=True) + "\n"}


def timestamp(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp(api, image_id: str, reference: str, *, epoch: int = SOURCE_DATE_EPOCH, add: tuple = (),
          labels: dict | None = None) -> str:
    """The image with every time in its config set to epoch (restamped), tagged reference; returns its id.
    The engine's BuildKit (0.8, in docker.io 20.10) stamps the wall clock there and has no
    SOURCE_DATE_EPOCH, so two builds of the same layers got two ids. Only the config and the added layer
    are loaded: the engine keeps the layers it has."""
    digest, members = restamped(json.loads(engine.raw_config(api, image_id)), reference, epoch, add, labels)
    api.images.load(_tar(members, epoch))
    return f"sha256:{digest}"


def stamped_as_now(raw_config: bytes, image_id: str, epoch: int) -> bool:
    """Whether the stamp of this code gives this config again, i.e. the image is what stamp() makes now
    (a base bootstrapped by older code whose stamp kept the inline cache is not)."""
    return f"sha256:{restamped(json.loads(raw_config), '', epoch)[0]}" == image_id


def restamped(config: dict, reference: str, epoch: int, add: tuple = (), labels: dict | None = None) -> tuple:
    """(config digest, {member: bytes}) of a `docker load` archive of the config with every time (created,
    each history entry) set to epoch, without BuildKit's inline cache, its labels joined by `labels`, and
    add: (path in the image, bytes) as one last layer, byte for byte the same every time. The layers
    the engine holds are named in the archive's manifest, not carried.

    The inline cache lists every cache key the engine holds for each layer, so it depends on what that
    engine built before: a no-cache rebuild of the cpu image, with every layer the same, had 91 records
    where the promoted image had 81, so another id (CI's engine is not empty). It is dropped here;
    CI's cache tag carries BuildKit's own image, cache and all (ci_stages.build_stage)."""
    config = json.loads(json.dumps(config))
    when = timestamp(epoch)
    config["created"] = when
    for entry in config.get("history", []):
        entry["created"] = when
    config.pop(BUILDKIT_CACHE_KEY, None)
    config["config"]["Labels"] = {**(config["config"].get("Labels") or {}), **(labels or {})}
    layers = [f"{i}/layer.tar" for i in range(len(config["rootfs"]["diff_ids"]))]  # present in the engine
    members = {}
    if add:
        path, data = add
        layer = _layer_of(path, data, epoch)
        config["rootfs"]["diff_ids"].append(f"sha256:{hashlib.sha256(layer).hexdigest()}")
        config.setdefault("history", []).append({"created": when, "created_by": f"ADD {Path(path).name} {path} {ADDED_BY}",
                                                 "comment": "build.py"})
        layers.append("added/layer.tar")
        members["added/layer.tar"] = layer
    raw = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(raw).hexdigest()
    manifest = json.dumps([{"Config": f"{digest}.json", "RepoTags": [reference], "Layers": layers}]).encode()
    return digest, {f"{digest}.json": raw, "manifest.json": manifest, **members}


def _layer_of(path: str, data: bytes, epoch: int) -> bytes:
    return _tar({path.lstrip("/"): data}, epoch)


def _tar(members: dict, epoch: int) -> bytes:
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members.items():
            member = tarfile.TarInfo(name)
            member.size, member.mtime, member.mode = len(data), epoch, 0o644
            tar.addfile(member, io.BytesIO(data))
    return archive.getvalue()
