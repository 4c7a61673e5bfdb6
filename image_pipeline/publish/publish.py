"""`build.py publish`: every promoted architecture of an image, to every registry, under one tag.

1. Find each platform's promoted image by the content hash its own label carries (only a
   smoke-passed candidate ever gets its content tag), for every platform the image declares.
2. Push each architecture to the first registry under its content tag, read its digest back, and copy it
   from there to every other registry byte for byte (one digest everywhere, each layer compressed once).
3. Write, in every registry, one image index (manifest list) listing exactly those digests,
   stored first by its own digest.
4. Only then move the tags (<name>, the human tag) to that index, registry by registry.
A failure in 1-3 moves no tag anywhere: the previous index stays what users pull.
`build.py publish` does all four on one host. CI pushes candidates in its build stage and runs 3-4 in
`build.py merge` once both stages of every platform passed (ci_stages.py), with content tags added.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..builder import engine
from ..builder.image_config import CONTENT_LABEL, PLATFORM_LABEL
from ..errors import UserError
from ..manifest import grammar
from ..manifest.model import arch_of
from ..manifest.references import HASH_CHARS, Tags
from .registry import IMAGE_MANIFEST_TYPES, INDEX_TYPE, Registry, split

COPY_CHUNK = 1 << 20


@dataclass(frozen=True)
class Promoted:
    platform: str
    local: str  # <repository>:<name>-<hash>-<arch>
    image_id: str


def promoted(api, manifest, image) -> list:
    """The promoted image of each platform, found by its content-hash label."""
    found = []
    for platform in image.platforms:
        moving = Tags(manifest.repository, image.name, "", None, arch_of(platform), host=False).moving[0]
        image_id = engine.image_id(api, moving)
        if image_id is None:
            continue
        labels = api.images.get(image_id).labels or {}
        digest, labelled = labels.get(CONTENT_LABEL, ""), labels.get(PLATFORM_LABEL, "")
        tags = Tags(manifest.repository, image.name, digest[:HASH_CHARS], None, arch_of(platform), host=False)
        content = tags.final
        if not digest or labelled != platform or engine.image_id(api, content) != image_id:
            raise UserError(f"{moving} has no content tag matching its label {CONTENT_LABEL}={tags.short_hash or '?'}: "
                            f"it was not promoted by `build.py image`")
        found.append(Promoted(platform, content, image_id))
    if not found:
        raise UserError(f"no platform of {image.name} has a promoted image: run `make image IMAGE={image.name}` first")
    return found


def resolve_registry(manifest, name: str) -> str:
    """A registry from pins.yaml by name, or a literal host[/namespace] (loopback ones in tests)."""
    return manifest.registries[name].url if name in manifest.registries else name.rstrip("/")


def publish(api, manifest, image, registries: list, log=print) -> dict:
    """Push and merge in one go (one host holds every architecture's promoted image)."""
    return merge(manifest, image, registries, push(api, manifest, image, registries, log=log), log=log)


def push(api, manifest, image, registries: list, platforms=None, log=print) -> dict:
    """Steps 1-2: {registry: {platform: digest}} of the promoted images, pushed under their content tags."""
    images = [p for p in promoted(api, manifest, image) if not platforms or p.platform in platforms]
    if not images:
        raise UserError(f"none of {', '.join(platforms)} has a promoted {image.name} here")
    targets = [resolve_registry(manifest, r) for r in registries]
    pushed = {p.platform: push_everywhere(api, p.image_id, p.local, targets, log, content_tag=True) for p in images}
    return {target: {platform: digests[target] for platform, digests in pushed.items()} for target in targets}


def merge(manifest, image, registries: list, pushed: dict, log=print, content_tags=None) -> dict:
    """Steps 3-4: one index per registry listing exactly the pushed digests, then the tags move.

    content_tags ({platform: tag}): first give each platform's pushed manifest its content tag too (CI
    pushed it under a candidate tag only)."""
    targets = [resolve_registry(manifest, r) for r in registries]
    missing = [t for t in targets if not pushed.get(t)]
    if missing:
        raise UserError(f"nothing was pushed to {', '.join(missing)}: no index is written, no tag moves")
    for target in targets:
        for platform, tag in (content_tags or {}).items():
            refuse_moving_content_tag(target, manifest.repository, tag, pushed[target][platform])
    staged = {target: _write_index(target, manifest.repository, pushed[target], log) for target in targets}
    for target in targets:
        for platform, tag in (content_tags or {}).items():
            copy_tag(target, manifest.repository, pushed[target][platform], tag, log)
    moved = {}
    for target, (index_digest, body) in staged.items():
        registry, repository = remote(target, manifest.repository)
        for tag in (image.name, image.human_tag, *image.upstream_tags):
            registry.put_manifest(repository, tag, INDEX_TYPE, body)
            moved[f"{target}/{manifest.repository}:{tag}"] = index_digest
            log(f"tagged {target}/{manifest.repository}:{tag} -> {index_digest} ({', '.join(sorted(pushed[target]))})")
    return moved


def remote(target: str, repository_name: str) -> tuple:
    """(Registry, repository path) of an image repository in a registry given as host[:port][/namespace]."""
    host, namespace = split(target)
    return Registry(host), f"{namespace}/{repository_name}" if namespace else repository_name


def refuse_moving_content_tag(target: str, repository_name: str, tag: str, digest: str) -> None:
    """A content tag names one image: where the registry already holds it at another digest, nothing moves."""
    registry, repository = remote(target, repository_name)
    existing = registry.digest(repository, tag)
    if existing and existing != digest:
        raise UserError(f"{target}/{repository_name}:{tag} already names {existing}, not {digest}: a content tag is "
                        f"never moved; nothing is promoted")


def copy_tag(target: str, repository_name: str, digest: str, tag: str, log) -> None:
    """Tag a manifest the registry holds (no bytes move)."""
    registry, repository = remote(target, repository_name)
    media_type, raw, _ = registry.manifest(repository, digest)
    registry.put_manifest(repository, tag, media_type, raw)
    log(f"tagged {target}/{repository_name}:{tag} -> {digest}")


def push_everywhere(api, image_id: str, local: str, targets: list, log, content_tag=False) -> dict:
    """{target: digest}: the engine pushes the image to the first registry, and each other one gets a byte for
    byte copy from there (the engine would compress every layer again per registry), so one digest everywhere."""
    first, *others = targets
    digest = push_image(api, image_id, local, first, log, content_tag)
    return {first: digest, **{target: copy_image(first, target, local, digest, image_id, log, content_tag)
                              for target in others}}


def push_image(api, image_id: str, local: str, target: str, log, content_tag=False) -> str:
    """Push a local image to target under the tag of `local` (<repository>:<tag>); its digest there. A
    content tag the registry already holds for another image (config digest) is refused, never moved."""
    remote_ref = f"{target}/{local}"
    repository, tag = remote_ref.rsplit(":", 1)
    if content_tag:
        _refuse_other_image(*remote(target, local.rsplit(":", 1)[0]), tag, image_id, remote_ref)
    api.images.get(image_id).tag(repository, tag)
    digest = None
    for event in api.api.push(repository, tag=tag, stream=True, decode=True):
        if "error" in event:
            raise UserError(f"push of {remote_ref} failed: {event['error']}")
        digest = (event.get("aux") or {}).get("Digest", digest)
    if not digest:
        raise UserError(f"push of {remote_ref} reported no digest")
    log(f"pushed {remote_ref}@{digest}")
    return digest


def copy_image(source: str, target: str, local: str, digest: str, image_id: str, log, content_tag=False) -> str:
    """Copy the manifest `digest` of <repository> from the source registry to the target, tagged as `local`
    (<repository>:<tag>): its config and layers first (each checked against its digest and size on the way),
    then the manifest, byte for byte. Returns the digest, the same in both."""
    repository_name, tag = local.rsplit(":", 1)
    (source_registry, source_path), (registry, path) = remote(source, repository_name), remote(target, repository_name)
    if content_tag:
        _refuse_other_image(registry, path, tag, image_id, f"{target}/{local}")
    where = f"{source}/{repository_name}@{digest}"
    media_type, raw, _ = source_registry.manifest(source_path, digest)
    if "sha256:" + hashlib.sha256(raw).hexdigest() != digest:
        raise UserError(f"{where} answered a manifest of another digest: nothing is copied")
    if media_type not in IMAGE_MANIFEST_TYPES:
        raise UserError(f"{where} is a {media_type[:100]!r}, not one image's manifest: nothing is copied")
    blobs = _blobs_of(json.loads(raw), image_id, where)
    lacked = [(blob, size) for blob, size in blobs if not registry.has_blob(path, blob)]
    for blob, size in lacked:
        with source_registry.open_blob(source_path, blob) as response:
            registry.upload_blob(path, blob, size, iter(lambda: response.read(COPY_CHUNK), b""))
    stored = registry.put_manifest(path, tag, media_type, raw)
    if stored and stored != digest:
        raise UserError(f"{target}/{local}: the registry stored the manifest as {stored}, not {digest}")
    log(f"copied {source}/{local}@{digest} to {target}: {len(lacked)} of {len(blobs)} blobs "
        f"({sum(size for _, size in lacked) / 1e6:.0f} MB) it lacked")
    return digest


def _blobs_of(manifest: dict, image_id: str, where: str) -> list:
    """[(digest, size)] of an image manifest's config and layers; its config must be the image's."""
    config = manifest.get("config") or {}
    if config.get("digest") != image_id:
        raise UserError(f"{where} is not the manifest of {image_id} (its config is {config.get('digest')!r})")
    descriptors = [config, *(manifest.get("layers") or [])]
    for descriptor in descriptors:
        digest, size = descriptor.get("digest"), descriptor.get("size")
        if not (_is_digest(digest) and type(size) is int and size >= 0):
            raise UserError(f"{where} lists a blob {str(digest)[:80]!r} of size {str(size)[:20]!r}: not a sha256 "
                            f"digest and a byte count")
    return [(d["digest"], d["size"]) for d in descriptors]


def _is_digest(value) -> bool:
    try:
        grammar.image_digest(value)
    except (TypeError, ValueError):
        return False
    return True


def _refuse_other_image(registry, path: str, tag: str, image_id: str, where: str) -> None:
    """A content tag the registry already holds for another image (config digest) is never moved."""
    existing = registry.digest(path, tag)
    if existing and registry.image_config(path, existing)[0] != image_id:
        raise UserError(f"{where} already names another image ({existing}), not {image_id}: a tag is "
                        f"never moved to other bytes; nothing is pushed")


def _write_index(target: str, repository_name: str, digests: dict, log) -> tuple:
    registry, repository = remote(target, repository_name)
    entries = []
    for platform, digest in sorted(digests.items()):
        media_type, raw, _ = registry.manifest(repository, digest)
        os_name, arch = platform.split("/")
        entries.append({"mediaType": media_type, "size": len(raw), "digest": digest,
                        "platform": {"architecture": arch, "os": os_name}})
    body = json.dumps({"schemaVersion": 2, "mediaType": INDEX_TYPE, "manifests": entries}, indent=2).encode()
    digest = "sha256:" + hashlib.sha256(body).hexdigest()
    stored = registry.put_manifest(repository, digest, INDEX_TYPE, body)
    if stored and stored != digest:
        raise UserError(f"{target}: the index was stored as {stored}, not {digest}")
    log(f"index {target}/{repository_name}@{digest}: {', '.join(sorted(digests))}")
    return digest, body
