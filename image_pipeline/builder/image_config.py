"""What build.py writes around the layers BuildKit built: the labels, the config's times, and the SBOM
layer. These bytes are part of the image id, so this module is one of the content hash's inputs
(inputs.ASSEMBLY_CODE): a change here gives a new tag rather than an "up to date" image with stale labels.
"""

from __future__ import annotations

import base64
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
BUILDKIT_CACHE_KEY = "moby.buildkit.cache.v0"  # the inline cache --cache-from reads; its records carry times


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


def canonical_cache(records: list) -> list:
    """The inline cache's records in one order: BuildKit lists them as its parallel stages finished, so
    one build gives the same records in another order, with other link indexes. Sorted by what each
    record is (digest, layers and, recursively, its inputs), identical records merged, links renumbered."""
    keys = {}

    def key(i: int) -> str:
        if i not in keys:
            record = records[i]
            inputs = [sorted([key(link["link"]), link.get("selector", "")] for link in group)
                      for group in record.get("inputs", [])]
            keys[i] = json.dumps([record.get("digest"), record.get("layers", []), inputs], sort_keys=True)
        return keys[i]

    index = {k: n for n, k in enumerate(sorted({key(i) for i in range(len(records))}))}
    out = {}
    for i, record in enumerate(records):
        if index[key(i)] in out:
            continue
        record = dict(record)
        if "inputs" in record:
            record["inputs"] = [[{**link, "link": index[key(link["link"])]}
                                 for link in sorted(group, key=lambda link: (key(link["link"]), link.get("selector", "")))]
                                for group in record["inputs"]]
        out[index[key(i)]] = record
    return [out[n] for n in range(len(out))]


def restamped(config: dict, reference: str, epoch: int, add: tuple = (), labels: dict | None = None) -> tuple:
    """(config digest, {member: bytes}) of a `docker load` archive of the config with every time (created,
    each history entry, the inline cache's records) set to epoch, its labels joined by `labels`, and
    add: (path in the image, bytes) as one last layer, byte for byte the same every time. The layers
    the engine holds are named in the archive's manifest, not carried."""
    config = json.loads(json.dumps(config))
    when = timestamp(epoch)
    config["created"] = when
    for entry in config.get("history", []):
        entry["created"] = when
    if BUILDKIT_CACHE_KEY in config:
        cache = json.loads(base64.b64decode(config[BUILDKIT_CACHE_KEY]))
        for record in cache if isinstance(cache, list) else cache.get("records", []):  # 0.8 writes a bare list
            for layer in record.get("layers", []):
                layer["createdAt"] = when
        if isinstance(cache, list):
            cache = canonical_cache(cache)
        config[BUILDKIT_CACHE_KEY] = base64.b64encode(json.dumps(cache, sort_keys=True).encode()).decode()
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
